"""Same-dice challenges on every port: a challenge game played with the same keys on the
unix port (the simulator, ``sim --challenge``) and on the WebAssembly port (the web
page's ``?challenge=`` word, under Node) rolls at every roll the dice CPython's
firmware/game.py computes for the code, whatever each port's random seed; and the end of
the game tells the page its result (the line the page offers to share).
"""

import pytest

import host_tools
from host_tools.browser import site
from host_tools.browser.device import WebDevice
from host_tools.simulator import golden as sim_golden
from host_tools.simulator import keys as sim_keys
from host_tools.simulator.screen import dice_state, screen_lines
from host_tools.simulator.unix_port import SimDevice

host_tools.use_firmware()
import game_challenge as G  # noqa: E402

CODE = "KQZX"
HOLDS = (0b00101, 0b11000, 0b00000, 0b10011)  # the dice kept after the first roll, by round
KEY_OF = ("1", "2", "3", "4", "5")


@pytest.fixture(scope="module")
def web_site(tmp_path_factory, device_tables):
    site.install_port()
    out = tmp_path_factory.mktemp("site")
    site.build_site(str(out), tables=device_tables)
    return str(out)


def _script():
    """The key script of a solo game (two rolls a round, some dice kept), and after each
    roll the time to look and the mask kept before it."""
    script = sim_golden.SOLO
    looks = []
    for turn in range(13):
        hold = HOLDS[turn % len(HOLDS)]
        script += " space wait:1500"
        looks.append((len(sim_keys.parse(script)[0]), turn, 0, 0))
        script += "".join(" " + KEY_OF[i] for i in range(5) if hold >> i & 1) + " space wait:1500"
        looks.append((len(sim_keys.parse(script)[0]), turn, 1, hold))
        script += " enter enter wait:500"
    return script + " wait:1500", looks


def faces(device):
    return [face for face, _held, _animal in dice_state(device)]


def test_the_unix_port_the_web_port_and_cpython_roll_the_same_challenge_dice(web_site, device_tables, tmp_path):
    script, looks = _script()
    presses, end = sim_keys.parse(script)
    levels = sim_keys.levels(presses)
    number = G.code_number(CODE)
    unix = SimDevice(seed=1, flash_dir=str(tmp_path / "unix"), tables=device_tables, extra=("challenge=" + CODE,))
    web = WebDevice(web_site, str(tmp_path / "web"), seed=2, extra=("challenge=" + CODE,))
    try:
        before = None
        for count, turn, roll, hold in looks:
            t = presses[count][0] - 10 if count < len(presses) else end  # before the next key
            unix.run_until(t, levels)
            web.run_until(t, levels)
            want = [before[i] if hold >> i & 1 else G.challenge_die(number, turn, roll, i) for i in range(5)]  # CPython
            assert faces(unix) == want, (turn, roll, screen_lines(unix.oled_pixels()))
            assert faces(web) == want, (turn, roll, screen_lines(web.oled_pixels()))
            before = want
        unix.run_until(end, levels)
        web.run_until(end, levels)
        shown = screen_lines(web.oled_pixels())
        assert shown[0] == "Game over", shown
        assert screen_lines(unix.oled_pixels()) == shown
        total = int(shown[1].split()[-1])
        # The result, for the page's line to share: the code and every seat's total.
        assert "challenge %s %d" % (CODE, total) in web.console, web.console[-5:]
    finally:
        unix.close()
        web.close()

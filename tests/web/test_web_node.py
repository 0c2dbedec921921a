"""The web port without a browser: the built site's firmware on MicroPython's WebAssembly
port under Node (host_tools/browser/node_run.mjs, the page worker's start-up), against the
unix-port simulator, and the port fix it needs (webport.py).

- The same seed and button timeline give the same OLED pixels and dice on both ports at
  every press, for several seeds and a random timeline of hundreds of presses.
- A game saved on one interpreter continues, with the same dice, on a fresh one.
- Power saving dims and wakes the OLED on both ports alike (the contrast messages).
- The errno probe: the raw port still raises WASI numbers (fails loudly when a new port
  release fixes them: then webport's fix can go), and with the fix it raises MicroPython's.
"""

import json
import os
import random
import subprocess

import pytest

import host_tools

from host_tools.simulator import headless as sim_headless
from host_tools.browser import site
from host_tools.browser.device import WebDevice, node_command
from host_tools.simulator.backend import DIMMED, dimmed
from host_tools.simulator import keys as sim_keys
from host_tools.simulator.golden import SOLO, TWO_HUMANS
from host_tools.simulator.screen import device_text, screen_lines
from host_tools.simulator.unix_port import SimDevice

from helpers.sim_helpers import saved


@pytest.fixture(scope="module")
def web_site(tmp_path_factory, device_tables):
    site.install_port()
    out = tmp_path_factory.mktemp("site")
    site.build_site(str(out), tables=device_tables)
    return str(out)


def random_timeline(seed, presses=300):
    """[(from_ms, to_ms, button)]: a menu start, then random presses weighted as a player's."""
    rng = random.Random(seed)
    timeline, t = sim_keys.parse(TWO_HUMANS + " wait:4500")
    weights = [(5, 30), (8, 25), (0, 6), (1, 6), (2, 6), (3, 6), (4, 6), (6, 6), (7, 6), (9, 3)]
    buttons = [b for b, w in weights for _ in range(w)]
    for _ in range(presses):
        button = rng.choice(buttons)
        length = 700 if rng.random() < 0.03 else sim_keys.PRESS_MS  # a few long presses
        timeline.append((t, t + length, button))
        t += length + rng.randrange(sim_keys.GAP_MS, 600)
    return timeline, t


def state(device):
    return device.now, device.oled_pixels(), device.dice_pixels(), device.tone


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_web_port_matches_the_unix_port_press_by_press(seed, web_site, device_tables, tmp_path):
    timeline, end = random_timeline(seed)
    levels = sim_keys.levels(timeline)
    unix = SimDevice(seed=seed, flash_dir=str(tmp_path / "unix"), tables=device_tables)
    web = WebDevice(web_site, str(tmp_path / "web"), seed=seed)
    try:
        compared = 0
        for start, stop, _button in timeline:
            for t in (start + 30, stop + 40):  # pressed (debounced), then released
                unix.run_until(t, levels)
                web.run_until(t, levels)
                assert state(web) == state(unix), "differ at %d ms (press %d)\nweb:\n%s\nunix:\n%s\n%s" % (
                    t,
                    compared,
                    "\n".join(screen_lines(web.oled_pixels())),
                    "\n".join(screen_lines(unix.oled_pixels())),
                    web.console[-10:],
                )
                compared += 1
        unix.run_until(end, levels)
        web.run_until(end, levels)
        assert state(web) == state(unix)
        assert web.frames == unix.frames > 100
        assert compared == 2 * len(timeline)
    finally:
        unix.close()
        web.close()
    # Both saved the same game (the same storage code on both ports); only the game's id
    # differs (os.urandom on unix, ticks_us on the web port, which has no urandom).
    assert sorted(os.listdir(tmp_path / "web")) == sorted(os.listdir(tmp_path / "unix" / "data"))
    unix_game, web_game = saved(tmp_path / "unix"), saved_web(tmp_path / "web")
    assert unix_game.pop("id") != 0
    assert web_game.pop("id") != 0
    assert unix_game == web_game


def saved_web(folder, name="game"):
    import save_store

    return save_store.Store(os.path.join(str(folder), name)).load()


def test_a_whole_game_to_game_over_on_the_web_port(web_site, tmp_path):
    device = WebDevice(web_site, str(tmp_path), seed=2)
    try:
        sim_headless.run_headless(device, SOLO + " space enter enter" * 13)
    finally:
        device.close()
    lines = screen_lines(device.oled_pixels())
    assert lines[0] == "Game over", "\n".join(lines + device.console[-10:])
    assert "Records damaged" not in "\n".join(device.console)


def test_a_saved_game_continues_on_a_fresh_interpreter(web_site, tmp_path):
    first = WebDevice(web_site, str(tmp_path), seed=5)
    try:
        sim_headless.run_headless(first, SOLO + " space wait:500 1 3 space wait:500")
    finally:
        first.close()
    game = saved_web(tmp_path)
    assert game["game"]["rolls"] == 2
    assert game["game"]["held"] == 0b00101
    # A fresh Node process and interpreter on the saved data/ only (another seed: the
    # dice come from the save). The boot offers Continue; OK takes it.
    second = WebDevice(web_site, str(tmp_path), seed=77)
    try:
        sim_headless.run_headless(second, "")
        offered = screen_lines(second.oled_pixels())
        assert offered[0] == "Saved game", "\n".join(offered + second.console[-10:])
        assert " Continue" in offered, "\n".join(offered + second.console[-10:])
        presses, end = sim_keys.parse("enter", start_ms=second.now + 100)
        second.run_until(end + sim_headless.SETTLE_MS, sim_keys.levels(presses))
    finally:
        second.close()
    assert device_text(second) == device_text(first)  # dice, holds, roll count, card, header
    assert saved_web(tmp_path) == game


def test_power_saving_dims_and_wakes_the_web_oled_as_the_unix_port(web_site, device_tables, tmp_path):
    # The board's contrast messages ("K") reach the back-end: a minute idle dims the OLED
    # on both ports alike, and the press that wakes it brightens it again.
    unix = SimDevice(seed=4, flash_dir=str(tmp_path / "unix"), tables=device_tables)
    web = WebDevice(web_site, str(tmp_path / "web"), seed=4)
    try:
        for device in (unix, web):
            device.run_until(30000)
        assert not dimmed(web)
        assert not dimmed(unix)
        for device in (unix, web):
            device.run_until(65000)
        assert dimmed(web)
        assert dimmed(unix)
        assert web.oled_contrast() == unix.oled_contrast()
        assert device_text(web) == device_text(unix)
        assert DIMMED in device_text(web)
        presses, end = sim_keys.parse("down", start_ms=web.now + 100)
        for device in (unix, web):
            device.run_until(end + sim_headless.SETTLE_MS, sim_keys.levels(presses))
        assert not dimmed(web)
        assert web.oled_contrast() == unix.oled_contrast()
        assert device_text(web) == device_text(unix)
    finally:
        unix.close()
        web.close()


PROBE = r"""
import errno, os
raw = {}
def grab(name, action):
    try:
        action()
    except OSError as exc:
        raw[name] = exc.args[0]
grab("ENOENT", lambda: open("/nope"))
grab("EEXIST", lambda: os.mkdir("/tmp"))
print("RAW", raw["ENOENT"], raw["EEXIST"], errno.ENOENT, errno.EEXIST)
import sys
sys.path.insert(0, "/port")
import webport
class Host:
    def changed(self):
        pass
os.mkdir("/flash")
print("TABLE", sorted(webport.install(Host(), "/flash", "").items()))
fixed = {}
def fix(name, action):
    try:
        action()
    except OSError as exc:
        fixed[name] = exc.args[0]
with open("file", "w") as f:
    f.write("x")
fix("ENOENT", lambda: open("missing"))
fix("EEXIST", lambda: os.mkdir("file"))
fix("ENOTDIR", lambda: open("file/x"))
print("FIXED", fixed["ENOENT"], fixed["EEXIST"], fixed["ENOTDIR"])
"""


def run_in_port(web_site, code):
    script = """
import fs from "fs";
const { loadMicroPython } = await import(%s);
const mp = await loadMicroPython({ stdout: (t) => console.log(t) });
mp.FS.mkdir("/port");
mp.FS.writeFile("/port/webport.py", fs.readFileSync(%s));
mp.runPython(%s);
""" % (
        json.dumps("file://" + os.path.join(web_site, "micropython.mjs")),
        json.dumps(os.path.join(web_site, "port", "webport.py")),
        json.dumps(code),
    )
    proc = subprocess.run(
        [node_command(), "--input-type=module", "-e", script], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {line.split()[0]: line.split(None, 1)[1] for line in proc.stdout.splitlines() if line[:1].isupper()}


def test_errno_probe_the_port_still_needs_the_fix_and_the_fix_works(web_site):
    out = run_in_port(web_site, PROBE)
    enoent, eexist, errno_enoent, errno_eexist = map(int, out["RAW"].split())
    assert (errno_enoent, errno_eexist) == (2, 17)  # the port's errno module: MicroPython's numbers
    # The pinned port raises WASI numbers. If this fails, the port changed: check whether
    # host_tools/browser/webport.py's fix is still needed before changing this line.
    assert (enoent, eexist) == (44, 20), "MicroPython's WebAssembly port now raises %d/%d for ENOENT/EEXIST" % (
        enoent,
        eexist,
    )
    assert out["FIXED"].split() == ["2", "17", "20"]  # ENOENT, EEXIST, ENOTDIR as on the Pico


def test_the_site_holds_the_tree_flash_builds_for_arch_0(web_site):
    with open(os.path.join(web_site, "site.json")) as f:
        info = json.load(f)
    paths = [p for p, _at, _n in info["tree"]]
    assert "/main.py" in paths
    assert "/boards/web.mpy" in paths
    assert "/device.cfg" in paths
    assert not any(p.startswith("/boards/pico") or p == "/boards/sim.mpy" for p in paths)
    assert "/strategy-forced.bin" in paths
    with open(os.path.join(web_site, "tree.bin"), "rb") as f:
        blob = f.read()
    at, n = next((a, n) for p, a, n in info["tree"] if p == "/strategy_advisor.mpy")
    assert blob[at : at + 2] == b"M\x06"
    assert blob[at + 2] & 0xFC == 0  # .mpy v6, arch 0 (no native code)
    at, n = next((a, n) for p, a, n in info["tree"] if p == "/device.cfg")
    assert b"board=web" in blob[at : at + n]


def test_the_download_docs_web_md_quotes_is_the_builds(web_site, sim_tables, tmp_path):
    """docs/web.md's download sizes trailed the build (1,633 KiB quoted, 1,648 built; the
    compiled tree "about 150 KiB", 92 built): each number is the build's within 2 %, for
    the site `make web` builds (the exact, spread and Zoo tables beside the game)."""
    import re

    out = str(tmp_path / "site")
    site.build_site(out, tables=sim_tables)

    with open(os.path.join(host_tools.REPO, "docs", "web.md"), encoding="utf-8") as f:
        text = " ".join(f.read().split())
    quoted = re.search(r"(Download: .*? KiB\.)", text).group(1)
    built = site.parts_line(site.parts(out))

    def numbers(line):
        return [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?= KiB| and)", line)]

    assert re.sub(r"[\d,]+", "N", quoted) == re.sub(r"[\d,]+", "N", built)  # the same figures, in order
    for doc, now in zip(numbers(quoted), numbers(built)):
        assert abs(doc - now) <= max(2, now // 50), (quoted, built)

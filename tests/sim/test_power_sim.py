"""Power saving and the battery in the headless simulator (the real firmware under
MicroPython, virtual time): dim after 60 s, blank after 3 min with the LEDs and OLED off,
wake on a press that does nothing else; the battery in the menu header, the low-battery
warning that saves the game (the sim board's ``battery=FROM:TO:MS``), a save retried
before sleeping, and safe mode (ROLL held at power-on) still skipping everything.
"""

import os
import pytest


import save_store
from host_tools.simulator import golden as sim_golden
from host_tools.simulator import keys as sim_keys
from host_tools import sim
from host_tools.simulator.unix_port import SimDevice
from host_tools.simulator.screen import screen_lines
from helpers.sim_helpers import run_probe

pytestmark = pytest.mark.slow


SOLO = sim_golden.SOLO  # splash; players 2 -> 1; start
DIM_CONTRAST = 0x08  # power.py _OLED_DIM
DIM_LEDS = 1  # power.py _LEDS_DIM


class Session:
    """One boot of the simulated handheld, played in steps of key script."""

    def __init__(self, flash, extra=(), seed=6):
        self.device = SimDevice(seed=seed, flash_dir=str(flash), extra=extra)
        self.t = sim_keys.START_MS

    def keys(self, script, settle=300):
        presses, end = sim_keys.parse(script, start_ms=self.t)
        self.device.run_until(end + settle, sim_keys.levels(presses))
        self.t = self.device.now
        return screen_lines(self.device.oled_pixels())

    def close(self):
        self.device.close()


def newest_seq(flash):
    seqs = [
        save_store.check((flash / "data" / name).read_bytes())
        for name in ("game.a", "game.b")
        if (flash / "data" / name).exists()
    ]
    return max(seqs) if seqs else 0


def test_idle_dims_then_blanks_and_the_waking_press_does_nothing_else(tmp_path):
    s = Session(tmp_path)
    try:
        oled, chips = s.device.oled, s.device.chain.chips
        menu = s.keys("enter")
        menu_pixels = s.device.oled_pixels()  # the text hides the cursor (an inverted line)
        assert menu[0].startswith("Setup")
        assert oled.contrast != DIM_CONTRAST
        assert all(chip.intensity == 8 and not chip.shutdown for chip in chips)
        s.keys("wait:59000")
        assert oled.contrast != DIM_CONTRAST  # not yet: 60 s without a press
        assert s.keys("wait:1500") == menu
        assert oled.contrast == DIM_CONTRAST
        assert all(chip.intensity == DIM_LEDS for chip in chips)

        assert s.keys("down") == menu
        assert s.device.oled_pixels() == menu_pixels  # un-dims only
        assert oled.contrast != DIM_CONTRAST
        assert all(chip.intensity == 8 for chip in chips)

        blank = s.keys("wait:181000")
        assert not oled.display_on
        assert all(chip.shutdown for chip in chips)
        assert blank == [""] * 8
        assert s.keys("wait:600000") == blank  # asleep: polling in timed lightsleeps only

        assert s.keys("down") == menu
        assert s.device.oled_pixels() == menu_pixels  # wakes, moves nothing
        assert oled.display_on
        assert not any(chip.shutdown for chip in chips)
        assert oled.contrast != DIM_CONTRAST
        assert all(chip.intensity == 8 for chip in chips)
        s.keys("down")
        assert s.device.oled_pixels() != menu_pixels  # the next press moves the cursor as usual
    finally:
        s.close()


def test_computer_turns_keep_the_device_awake(tmp_path):
    s = Session(tmp_path)
    try:
        s.keys("enter down down enter up up enter")  # P1 -> computer: two computers play
        lines = s.keys("wait:65000")
        assert s.device.oled.contrast != DIM_CONTRAST  # 65 s without a press, but busy
        assert lines[0].startswith("P")
        assert "Roll" in lines[0]
        assert save_store.Store(str(tmp_path / "data" / "game")).load()["game"]["round"] >= 5
    finally:
        s.close()


def test_battery_in_the_menu_header(tmp_path):
    s = Session(tmp_path, extra=("battery=3870",))
    try:
        assert s.keys("enter")[0] == "Setup     3.9V v"  # v: more lines below
    finally:
        s.close()


def test_low_battery_at_the_menu_warns_without_a_game_and_the_cli_checks_the_option(tmp_path, capsys):
    s = Session(tmp_path, extra=("battery=3300",))
    try:
        assert s.keys("")[:4] == ["Battery low", "3.30 V", "Charge or change", "the batteries."]
    finally:
        s.close()
    assert not (tmp_path / "data" / "game.a").exists()
    assert sim.main(["--headless", "--battery", "3v3"]) == 2
    assert capsys.readouterr().err.strip() == (
        "sim: --battery 3v3: use MV or FROM:TO:MS (whole numbers, MV up to 6000, MS from 1 to 3600000)"
    )


def test_low_battery_warns_once_and_saves_the_game(tmp_path):
    steady, falling = tmp_path / "steady", tmp_path / "falling"
    script = SOLO + " space 2"
    ok = Session(steady, extra=("battery=4000",))
    low = Session(falling, extra=("battery=3800:3300:20000",))  # 3.4 V after 16 s
    try:
        assert ok.keys(script)[0].startswith("P1 Roll 1/3")
        assert low.keys(script)[0].startswith("P1 Roll 1/3")
        assert newest_seq(falling) == newest_seq(steady)
        ok.keys("wait:20000")
        lines = low.keys("wait:20000")
        assert lines[:3] == ["Battery low", "3.30 V", "Game saved."]
        assert newest_seq(falling) == newest_seq(steady) + 1  # the warning saved once more
        back = low.keys("enter")  # any button closes the warning; the turn is as it was
        assert back[0].startswith("P1 Roll 1/3")
        assert low.keys("wait:30000")[0].startswith("P1 Roll 1/3")  # no second warning
    finally:
        ok.close()
        low.close()
    saved = save_store.Store(str(falling / "data" / "game")).load()
    assert saved["game"]["rolls"] == 1
    assert saved["game"]["held"] == 0b00010


def test_an_unsaved_change_is_saved_before_sleeping(tmp_path):
    s = Session(tmp_path)
    try:
        s.keys(SOLO + " space")
        temp = tmp_path / "data" / "game.tmp"
        os.symlink("/dev/full", str(temp))  # the next save fails with ENOSPC
        assert s.keys("3")[0] == "Flash full"
        assert save_store.Store(str(tmp_path / "data" / "game")).load()["game"]["held"] == 0
        s.keys("enter wait:185000")  # dismiss; 3 minutes idle: sleep, saving first
        assert not s.device.oled.display_on
    finally:
        s.close()
    assert save_store.Store(str(tmp_path / "data" / "game")).load()["game"]["held"] == 0b00100


def test_safe_mode_still_skips_the_game_and_its_files(tmp_path):
    # ``sim --hold-at-boot ROLL`` holds ROLL from power-on (a key script starts
    # too late for main.py's check), the way the command line offers it.
    import subprocess
    import sys

    import host_tools

    s = Session(tmp_path)
    try:
        s.keys(SOLO + " space")
    finally:
        s.close()
    files = {p.name: p.read_bytes() for p in (tmp_path / "data").iterdir()}
    cmd = [
        sys.executable,
        "-m",
        "host_tools",
        "sim",
        "--headless",
        "--no-table",
        "--print-screen",
        "--flash-dir",
        str(tmp_path),
        "--keys",
        "wait:1500 enter space",
    ]
    proc = subprocess.run(
        cmd + ["--hold-at-boot", "ROLL"], capture_output=True, text=True, cwd=host_tools.REPO, timeout=120
    )
    assert ">Safe mode       <" in proc.stdout
    assert "|ROLL held at    |" in proc.stdout  # >...<: inverted title
    assert "Safe mode: ROLL held at power-on" in proc.stderr  # the console: the firmware stopped
    assert {p.name: p.read_bytes() for p in (tmp_path / "data").iterdir()} == files
    held_late = subprocess.run(
        cmd + ["--hold-at-boot", "OK:1000"], capture_output=True, text=True, cwd=host_tools.REPO, timeout=120
    )
    assert held_late.returncode == 0
    assert "Safe mode" not in held_late.stdout  # only ROLL is safe mode
    bad = subprocess.run(
        cmd + ["--hold-at-boot", "FIRE"], capture_output=True, text=True, cwd=host_tools.REPO, timeout=60
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("sim: --hold-at-boot FIRE")
    assert len(bad.stderr.splitlines()) == 1


ALLOC_PROBE = r"""
import save_session
from loopback_rig import Rig
from drivers.buttons import ROLL

rig = Rig({"seed": "5", "battery": "3900"})
a, hw, link, presses = rig.app, rig.hw, rig.link, rig.presses
s = save_session.Session(hw).attach(a)

def measure(label, frames):
    print("ALLOC", label, rig.allocated(frames), a.power.state)

a.run(frames=400)  # splash times out into the menu; the session has loaded its files
measure("menu-idle", 2500)  # 12.5 s: includes a battery reading
a.settings.players = 1
a.settings.rebuild()
a.new_game()
t = link.elapsed + 20
presses.append((t, t + 60, ROLL))
a.run(frames=200)
print("ROLLED", a.game.rolls, s.saves)
measure("turn-idle", 2500)
a.run(frames=8000)  # past 60 s: dimmed
measure("dim-idle", 2500)
t = link.elapsed + 130000  # blank at 180 s idle (about 113 s from here), then this press
presses.append((t, t + 60, ROLL))
measure("sleep-and-wake", 25000)
print("SLEEPS", a.power.sleeps, a.game.rolls)
"""


def test_power_saving_frames_allocate_nothing(tmp_path):
    proc = run_probe(ALLOC_PROBE, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    allocs = {w[1]: (int(w[2]), int(w[3])) for w in (line.split() for line in lines) if w[0] == "ALLOC"}
    assert allocs == {"menu-idle": (0, 0), "turn-idle": (0, 0), "dim-idle": (0, 1), "sleep-and-wake": (0, 0)}
    assert "ROLLED 1 2" in lines  # game start and roll saved
    assert "SLEEPS 1 1" in lines  # slept once; the waking ROLL did not roll


# power.py asks the app (app.moving()) instead of comparing screen ids.
MOVING_PROBE = r"""
import time
def at(label):
    print("MOVING", label, a.moving())
at("splash")
human = {"v": 1, "rules": rules.make_ruleset().name, "phase": game.TURN, "round": 0, "current": 0,
         "first": 0, "contenders": [0, 1], "dice": [2, 3, 5, 5, 6], "held": 0, "rolls": 1,
         "players": [["P1", "human", [-1] * 13 + [0]], ["P2", "cpu", [-1] * 13 + [0]]]}
a.resume(game.Game.from_state(human, hw.dice_source))
at("human-turn")
a.roll()
at("tumble")
a.frame(time.ticks_add(a.now, 500))
at("tumble-over")
human["current"] = 1
human["players"][0][2] = [-1] * 12 + [20, 0]  # P1 scored Chance: P2 (the computer) on turn
a.resume(game.Game.from_state(human, hw.dice_source))
at("computer-turn")
a.settings.players = 2
a.settings.rebuild()
a.new_game()
at("rolloff")
a.frame(time.ticks_add(a.now, 500))
at("rolloff-dice-still")
"""


def test_the_app_says_when_the_game_moves_by_itself(tmp_path):
    import host_tools
    from helpers.sim_helpers import APP_ON_LOOPBACK

    # From source (compiled at import, keys interned a qstr pool at a time): 304K ran out
    # resolving English once the catalogs had the save layer's messages; 320K runs.
    proc = host_tools.run_micropython(["-c", APP_ON_LOOPBACK + MOVING_PROBE], heap="320K", cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    said = dict(line.split()[1:] for line in proc.stdout.splitlines() if line.startswith("MOVING "))
    assert said == {
        "splash": "False",
        "human-turn": "False",
        "tumble": "True",
        "tumble-over": "False",
        "computer-turn": "True",
        "rolloff": "True",
        "rolloff-dice-still": "True",
    }, proc.stdout


@pytest.mark.parametrize("held", (False, True))
def test_a_press_made_just_before_the_dim_counts_short_or_long(tmp_path, held):
    """MENU pressed 59.8 s after the last press, i.e. before the 60 s dim: a short press
    shows the card, and a long one (1.5 s, across the dim) asks "Quit this game?". A held
    button is a press in progress, so it keeps the device awake until its event comes;
    the long press was once taken for the press that un-dims, and dropped."""
    s = Session(tmp_path)
    try:
        turn = s.keys(SOLO, settle=0)
        assert "Roll 0/3" in turn[0], turn
        # SOLO ends 90 + 300 ms after its last release: MENU goes down 59.79 s after it
        lines = s.keys("wait:59400 " + ("hold:m:1500" if held else "m"), settle=500)
        if held:
            assert lines[0] == "Quit this game?", lines
        else:
            assert lines != turn, lines  # the full card (MENU in a turn without a coach)
        assert s.device.oled.contrast != DIM_CONTRAST
    finally:
        s.close()

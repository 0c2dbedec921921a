"""The real firmware on an emulated RP2040: the official MicroPython v1.28.0 UF2 for the
Pico in rp2040js (``python -m host_tools chip``), flashed by ``host_tools flash`` over its
emulated USB serial port, played through its GPIO pins.

The UF2 and the RP2040 bootrom come from ../shared/rp2/ (CI; checked against its
SHA256SUMS) or build/rp2/; without them the whole module is skipped with one reason that
names the missing file and where to get it - the only skip in the project.

Time budget: the game is flashed once for the module (about a minute: 1.1 MB with the
exact table over the emulated USB); every other test starts from a copy of that flash
image. While the CPU sleeps the emulated clock jumps ahead, so idle minutes cost little.
"""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys

import pytest

import host_tools
from host_tools.flashing import build as flash_build
from host_tools.flashing.testing import copy_checkout
from host_tools.simulator import chip_session
from host_tools.simulator import keys as sim_keys
from host_tools.simulator.chip import ChipDevice
from host_tools.simulator.screen import dice_state, screen_lines
from host_tools.simulator.unix_port import SimDevice, mix_seed

FIRMWARE, BOOTROM, MISSING = chip_session.fixture_files()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

SUMMARY = re.compile(r"(\d+) copied, (\d+) skipped, (\d+) removed, (\d+) bytes")
SEED = 4
TABLE = os.path.join(host_tools.REPO, "build", "strategy-forced.bin")
SPREAD = os.path.join(host_tools.REPO, "build", "spread-forced.bin")  # the win meter's (win15)
# What flash puts on the chip, for the simulator too (the Zoo table does not fit beside these)
SIM_TABLES = {"strategy-forced.bin": TABLE, "spread-forced.bin": SPREAD}
ROLL = 5  # button ids (drivers/buttons.py)
OK = 8


def summary(proc):
    assert proc.returncode == 0, proc.stdout + proc.stderr
    found = SUMMARY.search(proc.stdout.strip().splitlines()[-1])
    assert found, proc.stdout
    return tuple(int(n) for n in found.groups()[:3])


def copied(proc):
    return [line.split()[1] for line in proc.stdout.splitlines() if line.startswith("  copy ")]


def source_tree(root):
    """A copy of the checkout's firmware/ and boards/ with the exact table in build/."""
    copy_checkout(root)
    os.makedirs(os.path.join(root, "build"))
    os.symlink(TABLE, os.path.join(root, "build", "strategy-forced.bin"))
    return str(root)


@pytest.fixture(scope="module")
def flashed(tmp_path_factory):
    """(image path, flash output): a fresh emulated Pico, flashed with the game as the README
    shows (what ``make chip CHIPARGS=--fresh`` and ``make flash PORT=...`` run): the chip
    command prints its port once it is up, the flash command uses it."""
    chip_session.ensure_node()
    from host_tools import advise
    import rules

    advise.ensure_table(rules.make_ruleset())  # both built (seconds) when missing, so the
    advise.ensure_spread(rules.make_ruleset())  # chip always shows the win meter
    image = str(tmp_path_factory.mktemp("chip") / "flash.bin")
    chip = subprocess.Popen([sys.executable, "-m", "host_tools", "chip", "--fresh", "--firmware", FIRMWARE,
                             "--flash-image", image], cwd=host_tools.REPO, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        port = chip.stdout.readline().strip()
        assert port.startswith("/dev/"), port
        proc = chip_session.run_host_tool("flash", "--port", port, timeout=900)
    finally:
        os.killpg(chip.pid, signal.SIGINT)  # ^C: the emulator writes its flash and stops
        chip.wait(timeout=60)
    return image, proc


@pytest.fixture(scope="module")
def seeded(flashed, tmp_path_factory):
    """The flashed image with ``seed=mix_seed(4)`` in device.cfg: the seed ``sim --seed 4``
    gives the firmware (unix_port.mix_seed), so the same dice."""
    image = str(tmp_path_factory.mktemp("chip") / "seeded.bin")
    shutil.copyfile(flashed[0], image)
    chip_session.set_config(image, seed=mix_seed(SEED))
    return image


def copy_of(image, tmp_path, name="flash.bin"):
    path = str(tmp_path / name)
    shutil.copyfile(image, path)
    return path


def lines(device):
    return screen_lines(device.oled_pixels())


# ---------------------------------------------------------------- flash end to end
def test_flash_onto_a_fresh_pico_copies_the_game_and_the_exact_table(flashed):
    _image, proc = flashed
    n_copied, skipped, removed = summary(proc)
    assert (skipped, removed) == (0, 0)
    paths = copied(proc)
    assert "/strategy-forced.bin" in paths and "/main.py" in paths and "/rules.mpy" in paths
    assert n_copied == len(paths)
    assert "(board=pico, rules=forced)" in proc.stdout


def test_reflash_copies_nothing_then_only_the_changed_module(flashed, tmp_path):
    image = copy_of(flashed[0], tmp_path)
    src = source_tree(tmp_path / "src")
    with chip_session.serving(image) as (_device, port):
        again = chip_session.run_host_tool("flash", "--port", port, "--board", "pico", "--source", src)
        assert summary(again)[0] == 0
        with open(os.path.join(src, "firmware", "records_view.py"), "a") as f:
            f.write("\nCHIP_TEST = 1\n")
        one = chip_session.run_host_tool("flash", "--port", port, "--board", "pico", "--source", src)
    assert summary(one)[0] == 1
    assert copied(one) == ["/records_view.mpy"]


def test_a_flash_cut_off_half_way_still_boots_the_previous_game(flashed, tmp_path):
    image = copy_of(flashed[0], tmp_path)
    src = source_tree(tmp_path / "src")
    for name in ("rules.py", "game.py", "records.py", "storage.py"):
        with open(os.path.join(src, "firmware", name), "a") as f:
            f.write("\nCHIP_CUT = 1\n")
    device = ChipDevice(image)
    port = device.open_pty()
    device.run_free()
    device.wait_port()
    cmd = [sys.executable, "-m", "host_tools", "flash", "--port", port, "--board", "pico", "--source", src]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=host_tools.REPO)
    try:
        for line in proc.stdout:
            if line.startswith("  copy "):
                break  # the first file is staged: unplug now
        device.power_cut()
    finally:
        proc.kill()
        proc.wait()
    device = ChipDevice(image)
    try:
        device.boot()
        device.run_until(2000)
        shown = lines(device)
    finally:
        device.close()
    assert shown[0].strip() == "Setup" or "Setup" in shown[0], shown  # the menu after the splash


# ---------------------------------------------------------------- playing by GPIO
# (keys, wait ms) steps; the waits cover the chip's own work (leaving the splash imports the
# menu's screens, over 300 ms on an RP2040; about 1 s to start a game on
# an RP2040, which the unix port's virtual clock does not count).
PLAY = [("enter", 2500), ("down down down enter up up up enter", 2500), ("enter", 1500), ("space", 1500),
        ("2 4", 300), ("space", 1500), ("enter", 300), ("enter", 1500)]


def test_boot_and_play_by_gpio_shows_the_unix_simulators_frames(seeded, tmp_path):
    """Same script, same dice: ``seed=mix_seed(4)`` in the chip's device.cfg and ``--seed 4``
    in the simulator (which passes ``seed=mix_seed(4)`` to the firmware) seed MicroPython's ``random`` (yasmarang on both ports) the same way, and the
    firmware draws dice only from that stream. The frames and the dice LEDs then agree at
    every step, the battery read on ADC3 included."""
    chip = ChipDevice(copy_of(seeded, tmp_path), battery_mv=4900)
    sim = SimDevice(seed=SEED, flash_dir=str(tmp_path / "simflash"), tables=SIM_TABLES,
                    heap="256K", extra=("battery=4900",))
    script = ""
    rolled = 0
    try:
        chip.boot()
        for keys, wait in PLAY:
            script += " %s wait:%d" % (keys, wait)
            presses, end = sim_keys.parse(script)
            levels = sim_keys.levels(presses)
            chip.run_until(end, levels)
            sim.run_until(end, levels)
            assert lines(chip) == lines(sim), keys
            assert chip.oled_pixels() == sim.oled_pixels(), keys
            assert dice_state(chip) == dice_state(sim), keys
            if keys == "space":  # rolled: the MAX7219 faces are the game's dice
                assert all(1 <= face <= 6 for face, _held, _animal in dice_state(chip))
                rolled += 1
        assert rolled == 2
        assert chip.dice_kind == "max7219"
    finally:
        chip.close()
        sim.close()


# Menu (after the splash): P2's line (down x3) from computer to human (enter) to optimal
# (enter), start.
HUMAN_VS_OPTIMAL = "down down down enter enter up up up enter wait:2500 enter wait:1500"
HUMAN_TURN = "space wait:1500 enter wait:300 enter wait:300"  # roll once, score the first box


def wait_for(chip, shown, limit_ms, step_ms=250):
    """Run until ``shown(first OLED line)`` or ``limit_ms`` more; returns the line."""
    end = chip.now + limit_ms
    while chip.now < end:
        first = lines(chip)[0]
        if shown(first):
            return first
        chip.run_until(chip.now + step_ms)
    return lines(chip)[0]


def press(chip, script):
    presses, end = sim_keys.parse(script, start_ms=chip.now + 10)
    chip.run_until(end, sim_keys.levels(presses))


def start_human_vs_optimal(chip):
    """From the splash: OK, then (once the menu's screens are loaded: over 300 ms on the
    chip, no time on the unix port) the menu keys of HUMAN_VS_OPTIMAL."""
    press(chip, "enter")
    first = wait_for(chip, lambda line: line.startswith("Setup"), 10000)
    assert first.startswith("Setup"), lines(chip)
    press(chip, HUMAN_VS_OPTIMAL)


def test_a_full_game_against_the_optimal_computer_ends_and_pull_reads_the_records(seeded, tmp_path):
    image = copy_of(seeded, tmp_path)
    chip = ChipDevice(image)
    try:
        chip.boot()
        start_human_vs_optimal(chip)
        for round_no in range(13):  # P1 starts with these dice (seed 4)
            first = wait_for(chip, lambda line: line.startswith("P1 Roll 0/3"), 30000)
            assert first.startswith("P1 Roll 0/3"), (round_no, lines(chip))
            press(chip, HUMAN_TURN)
        assert wait_for(chip, lambda line: line == "Game over", 30000) == "Game over", lines(chip)
    finally:
        chip.close()
    with chip_session.serving(image) as (_device, port):
        pulled = chip_session.run_host_tool("pull", "--port", port, "--out", tmp_path / "pulled", "--json")
    assert pulled.returncode == 0, pulled.stderr
    found = json.loads(pulled.stdout)
    assert "stats" in found, sorted(found)
    assert re.search(r'"P1": \[\s*1,', pulled.stdout), pulled.stdout  # one game of P1 in the statistics


def test_power_cuts_during_saves_always_resume(seeded, tmp_path):
    """20 power cuts at random moments in the window in which a roll's save writes the flash
    (measured first): every boot mounts littlefs, offers Continue, and the game comes back
    at its last or previous roll."""
    image = copy_of(seeded, tmp_path)
    rng = random.Random(12)
    chip = ChipDevice(image)
    chip.boot()
    start_human_vs_optimal(chip)
    chip.close()
    cuts_in_saves = 0
    window = None  # (first, last) ms after the press when the save writes the flash
    for attempt in range(21):  # the first measures the window, 20 cuts follow
        chip = ChipDevice(image)
        try:
            chip.boot()
            wait_for(chip, lambda line: "Saved game" in line, 10000)  # the save is read first
            shown = lines(chip)
            assert "Saved game" in shown[0] and any("Continue" in line for line in shown), (attempt, shown)
            chip.buttons = 1 << OK  # Continue
            chip.run_until(chip.now + 60)
            chip.buttons = 0
            chip.boot(limit_ms=chip.clock_ms + 10000)  # the game is back when the CPU rests again
            assert "Roll" in lines(chip)[0], (attempt, lines(chip))
            ops = chip.flash_ops
            start = chip.now
            chip.buttons = 1 << ROLL  # a roll: saved once the dice are drawn
            chip.run_until(start + 60)
            chip.buttons = 0
            if window is None:  # the first time: find when the save writes, 10 ms at a time
                writes = []
                while chip.now < start + 3000:
                    before = chip.flash_ops
                    chip.run_until(chip.now + 10)
                    if chip.flash_ops > before:
                        writes.append(chip.now - start)
                assert writes, "no save after a roll"
                window = (max(60, writes[0] - 5), writes[-1] + 5)  # steps end 0-10 ms after a write
                continue
            chip.run_until(start + rng.uniform(*window))
            if chip.flash_ops > ops:
                cuts_in_saves += 1
        finally:
            chip.power_cut()
    # Known gap: the resumed turn reaches roll 3/3 after two kept rolls, and a ROLL press
    # there saves nothing, so only the early cuts land inside a save.
    assert cuts_in_saves >= 3, (cuts_in_saves, window)


# ---------------------------------------------------------------- the board's corners
def test_safe_mode_roll_held_at_power_on_leaves_the_repl_free(flashed, tmp_path):
    chip = ChipDevice(copy_of(flashed[0], tmp_path))
    try:
        chip.buttons = 1 << ROLL
        chip.run_to_clock(2500)
        chip.buttons = 0
        chip.write_serial(b"\r\nprint(6 * 7)\r\n")
        chip.run_to_clock(3500)
        console = "\n".join(chip.console)
        shown = lines(chip)
    finally:
        chip.close()
    assert "Safe mode" in console and "Safe mode" in shown[0]
    assert "42" in console


def test_a_missing_oled_is_named_and_shown_on_the_dice(flashed, tmp_path):
    chip = ChipDevice(copy_of(flashed[0], tmp_path), oled_present=False)
    try:
        chip.boot()
        chip.run_until(500)
        console = "\n".join(chip.console)
        dice = dice_state(chip)
    finally:
        chip.close()
    assert "OLED not found at I2C 0x3C" in console
    assert dice == [(1, True, False)] * 5  # all dice "held" ones (plain pips): main.py's sign for a missing OLED


def test_idle_dims_blanks_and_lightsleeps_then_a_button_wakes(flashed, tmp_path):
    chip = ChipDevice(copy_of(flashed[0], tmp_path))
    try:
        chip.boot()
        chip.run_until(190000)  # power.py: dim after 1 min, blank + lightsleep after 3
        assert not chip.oled.display_on
        busy = chip.busy_ms
        chip.run_until(200000)
        asleep_share = (chip.busy_ms - busy) / 10000
        chip.buttons = 1 << OK
        chip.run_until(200100)
        chip.buttons = 0
        chip.run_until(200600)
        assert chip.oled.display_on
    finally:
        chip.close()
    assert asleep_share < 0.05  # in lightsleep the core waits for its timer almost always


def test_the_ws2812_board_lights_the_dice_pixels(seeded, tmp_path):
    image = copy_of(seeded, tmp_path)
    own = ("/boards/pico_neopixel.mpy", "/drivers/neopixel_dice.mpy")  # not on a flash for board pico
    files = [f for f in flash_build.build(host_tools.REPO, flash_build.find_mpy_cross(), None, "pico_neopixel", "forced")
             if f.path in own]
    assert len(files) == 2
    chip_session.set_config(image, files=files, board="pico_neopixel")
    chip = ChipDevice(image)
    sim = SimDevice(seed=SEED, flash_dir=str(tmp_path / "simflash"), tables=SIM_TABLES,
                    heap="256K", dice="neopixel")
    script = " ".join("%s wait:%d" % step for step in PLAY[:4])
    try:
        chip.boot()
        presses, end = sim_keys.parse(script)
        chip.run_until(end, sim_keys.levels(presses))
        sim.run_until(end, sim_keys.levels(presses))
        assert chip.dice_kind == "neopixel"
        assert chip.strip.writes > 0
        assert dice_state(chip) == dice_state(sim)
        assert all(1 <= face <= 6 for face, _held, _animal in dice_state(chip))
    finally:
        chip.close()
        sim.close()

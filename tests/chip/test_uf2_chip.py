"""The one-file UF2 on the emulated Pico: the official MicroPython v1.28.0 (RPI_PICO) on
rp2040js, booting from a flash that held nothing but this UF2.

The UF2 is made by ``python -m host_tools uf2`` from the checkout, as the README shows, and
loaded into an erased flash image as dropping it on the RPI-RP2 drive does. Then: the game
shows its menu; ``pull`` and ``flash`` work over the emulated USB port and ``flash`` copies
nothing; and the records and saved game that ``pull`` copied come back with ``push`` and
are offered by the firmware at the next boot. Same fixture files and skip rule as the chip
tier: only a missing official firmware or bootrom skips (named in the reason).
"""

import os
import re
import shutil

import pytest

import host_tools
from host_tools.flashing import build as flash_build
from host_tools.simulator import chip as sim_chip
from host_tools.simulator import chip_image, chip_session
from host_tools.simulator.screen import device_text, screen_lines
from helpers.chip_fixtures import chip_files
from helpers.sim_helpers import play, saved

FIRMWARE, BOOTROM, MISSING = chip_files()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
MENU_LIMIT_MS = 20000  # emulated; the menu shows after about 2.1 s (make bench)


run_tool = chip_session.run_host_tool


def run_to_screen(device, first_line, limit_ms=MENU_LIMIT_MS):
    """Run the chip until the OLED's first line starts with ``first_line``; its lines."""
    while device.clock_ms < limit_ms:
        device.run_to_clock(device.clock_ms + 250)
        lines = screen_lines(device.oled_pixels())
        if lines and lines[0].startswith(first_line):
            return lines
    raise AssertionError("no %r screen within %d ms:\n%s" % (first_line, limit_ms, device_text(device)))


class Serving:
    """A chip on ``image`` booted to its first screen (as a player waits for the game
    before running a tool), then running freely with its USB port on a pty."""

    def __init__(self, image, first_line="Setup"):
        self.device = sim_chip.ChipDevice(str(image), bootrom=BOOTROM)
        self.first_line = first_line

    def __enter__(self):
        try:
            run_to_screen(self.device, self.first_line)
            port = self.device.open_pty()
        except BaseException:
            self.device.close()
            raise
        self.device.run_free()
        self.device.wait_port()
        return port

    def __exit__(self, *exc):
        self.device.close()


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the UF2, a flash image holding only it): the file a player gets, dropped on a Pico."""
    chip_session.ensure_node()  # make chip-deps
    folder = tmp_path_factory.mktemp("uf2-chip")
    made = run_tool("uf2", "--firmware", FIRMWARE, "--out", folder / "pico-yahtzee.uf2")
    assert made.returncode == 0, made.stderr
    image = folder / "flash.bin"
    chip_image.prepare_image(str(image), firmware=str(folder / "pico-yahtzee.uf2"), fresh=True)
    # the files flash finds up to date afterwards: all the UF2 holds but the manifest
    # (its build, device.cfg, the table and the tables after it that fit)
    flash_files = int(re.search(r"^uf2: (\d+) files for board=pico", made.stdout, re.M).group(1)) - 1
    pairs = flash_build.source_files(host_tools.REPO)
    needed = flash_build.board_modules(pairs, "pico")  # only board pico's modules and drivers
    own = [p for p, _local in pairs if not p.startswith(flash_build.BOARD_FOLDERS) or p in needed]
    assert flash_files >= len(own) + 2  # + device.cfg, table
    return folder / "pico-yahtzee.uf2", image, flash_files


def test_a_fresh_chip_with_only_the_uf2_boots_into_the_menu(installed, tmp_path):
    image = tmp_path / "flash.bin"
    shutil.copy(installed[1], image)
    device = sim_chip.ChipDevice(str(image), bootrom=BOOTROM)
    try:
        lines = run_to_screen(device, "Setup")
    finally:
        device.close()
    assert "Start game" in " ".join(lines)
    assert "No strat. table" not in device_text(device)


def test_pull_and_flash_work_on_it_and_flash_copies_nothing(installed, tmp_path):
    image = tmp_path / "flash.bin"
    shutil.copy(installed[1], image)
    with Serving(image) as port:
        pulled = run_tool("pull", "--port", port, "--out", tmp_path / "copy")
        # at once, on the same board: pull ended by restarting the game, and a Ctrl-C that
        # arrives before main.py runs is plain input to MicroPython; flash's probe used to
        # send one and wait (no answer), it now interrupts until the board answers
        flashed = run_tool("flash", "--port", port, "--board", "pico")
    assert pulled.returncode == 0, pulled.stderr
    assert pulled.stdout.strip() == "nothing saved on the device yet"
    assert flashed.returncode == 0, flashed.stderr
    assert "Raspberry Pi Pico with RP2040" in flashed.stdout
    found = re.search(r"(\d+) copied, (\d+) skipped, (\d+) removed, (\d+) bytes", flashed.stdout.splitlines()[-1])
    assert found.groups() == ("0", str(installed[2]), "0", "0"), flashed.stdout


def test_push_brings_back_the_records_and_saved_game_pull_copied(installed, tmp_path):
    before = tmp_path / "before"  # the player's old Pico: a game under way (played in the sim)
    # splash, Start game, the roll-off (P2, the computer, starts: seed 4), then P1 rolls
    play(before, "enter enter wait:2500 enter wait:6000 space 2 4", seed=4)
    assert saved(before)["game"]["rolls"] == 1
    shutil.copytree(before / "data", tmp_path / "copy" / "data")  # what pull --out copy holds
    image = tmp_path / "flash.bin"
    shutil.copy(installed[1], image)  # then the UF2 replaced everything
    with Serving(image, "Setup") as port:  # nothing saved yet: the menu
        pushed = run_tool("push", "--port", port, "--from", tmp_path / "copy")
        assert pushed.returncode == 0, pushed.stderr
        pulled = run_tool("pull", "--port", port, "--out", tmp_path / "again")
    assert pulled.returncode == 0, pulled.stderr
    assert sorted(os.listdir(tmp_path / "again" / "data")) == sorted(os.listdir(before / "data"))
    for name in os.listdir(before / "data"):
        assert (tmp_path / "again" / "data" / name).read_bytes() == (before / "data" / name).read_bytes()
    device = sim_chip.ChipDevice(str(image), bootrom=BOOTROM)  # the next power-on offers the restored game
    try:
        lines = run_to_screen(device, "Saved game")
    finally:
        device.close()
    assert lines[4:6] == [" Continue", " New game"]

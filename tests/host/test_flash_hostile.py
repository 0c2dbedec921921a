"""``flash`` against a device that lies (tests/helpers/hostile): its manifest, its free space.

Nothing a device reports can make flash delete the game's saves, and a device that runs
out of room mid-flash is told as full and cleaned up by the next flash."""

import json
import os
import pytest

from helpers import hostile
from host_tools.flashing import virtual_pico
from host_tools.flashing import build as flash_build
from host_tools.flashing.build import DeviceFile
from host_tools.flashing.testing import TINY_FILES, boot, run_flash, tiny_tree, tree_hashes, write

from helpers.flash_output import summary

pytestmark = pytest.mark.slow


def one_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    return lines[0]


def test_a_manifest_that_lists_the_saves_deletes_none_of_them(tmp_path):
    """The README promises flash never touches data/."""
    src = tiny_tree(tmp_path / "src")
    device = tmp_path / "flash"
    device.mkdir()
    saves = {"data/scores.a": b"\x07high scores", "data/game.b": b"\x07a game", "data/old.mpy": b"\x07mine"}
    with virtual_pico.running(device) as port:
        assert summary(run_flash("--port", port, "--board", "sim", "--source", src))[0] == TINY_FILES
        for path, data in saves.items():
            write(device, path, data)
        write(device, "lib/mine.mpy", b"a library the user put there")
        forged = ["/%s\t%s\t%d" % (p, DeviceFile(p, d).sha256, len(d)) for p, d in saves.items()]
        forged.append("/lib/mine.mpy\t%s\t28" % DeviceFile("x", b"a library the user put there").sha256)
        forged.append("/version.mpy\n/data/game.b\tjunk")
        with open(device / "flash_manifest.txt", "a") as manifest:
            manifest.write("\n".join(forged) + "\n")
        write(src, "firmware/version.py", "NUMBER = 2\n")
        again = run_flash("--port", port, "--board", "sim", "--source", src)
    assert summary(again) == (1, TINY_FILES - 1, 0)
    for path, data in saves.items():
        assert (device / path).read_bytes() == data
    assert (device / "lib" / "mine.mpy").exists()
    assert "flash: ignored 2 line(s) of /flash_manifest.txt that flash did not write" in again.stdout
    assert boot(device).stdout == "game 2\n"
    assert "/data/" not in (device / "flash_manifest.txt").read_text()


def test_a_device_full_mid_flash_says_so_and_the_next_flash_cleans_up(tmp_path):
    """The device reports room it does not have (writes fail: ENOSPC)."""
    src = tiny_tree(tmp_path / "src")
    write(src, "firmware/aaa_big.bin", os.urandom(40 * 1024))
    device = hostile.lying_device(tmp_path / "flash", quota=20 * 1024)
    with virtual_pico.running(device) as port:
        full = run_flash("--port", port, "--board", "sim", "--source", src)
        assert full.returncode == 1
        line = one_line(full.stderr)
        assert line.startswith("flash: the device is full: writing /aaa_big.bin failed")
        assert "make flash again" in line
        assert not [p for p in tree_hashes(device) if p.endswith(".flashnew")]  # given back to the saves
        write(device, "aaa_big.bin.flashnew", b"x" * 5000)  # as a cut connection would leave it
        write(device, "version.mpy.flashnew", b"x" * 5000)
        write(device, "data/keep.flashnew", b"mine")
        with open(device / "hostile.json", "w") as lies:
            json.dump({}, lies)  # room again (boot.py reads it at the next reset)
        done = run_flash("--port", port, "--board", "sim", "--source", src)
    assert summary(done)[0] == TINY_FILES + 1
    assert "  remove /aaa_big.bin.flashnew" in done.stdout.splitlines()
    assert [p for p in tree_hashes(device) if p.endswith(".flashnew")] == [os.path.join("data", "keep.flashnew")]
    assert boot(device).stdout == "game 1\n"


def test_changing_the_rules_on_a_small_flash_replaces_the_table_in_one_run(tmp_path):
    """`make flash` then `make flash RULES=free` on a Pico-sized flash
    (here scaled down: 48 blocks, tables of 20): the space check counts the old table."""
    src = tiny_tree(tmp_path / "src")
    tables = {rules: os.urandom(20 * 4096 - 100) for rules in ("forced", "free")}
    for rules, data in tables.items():
        write(src, flash_build.STRATEGY_TABLE.format(rules=rules), data)
    device = tmp_path / "flash"
    device.mkdir()
    with virtual_pico.running(device, "--flash-size", str(48 * 4096)) as port:
        first = run_flash("--port", port, "--board", "sim", "--source", src)
        assert summary(first)[0] == TINY_FILES + 1
        assert "does not fit" not in first.stdout
        second = run_flash("--port", port, "--board", "sim", "--rules", "free", "--source", src)
    assert summary(second)[:3] == (2, TINY_FILES - 1, 1)  # device.cfg and the new table; the old one removed
    assert "does not fit" not in second.stdout
    assert "COMPACT" not in second.stdout
    assert "  remove /strategy-forced.bin" in second.stdout.splitlines()
    assert (device / "strategy-free.bin").read_bytes() == tables["free"]
    assert not (device / "strategy-forced.bin").exists()


def test_file_names_with_newlines_and_tabs_cannot_forge_scan_lines(tmp_path):
    """A device file whose path reads as 'F <tab> /main.py <tab> size
    <tab> sha256' must not make flash believe the new main.py is already there."""
    src = tiny_tree(tmp_path / "src")
    device = tmp_path / "flash"
    device.mkdir()
    with virtual_pico.running(device) as port:
        assert summary(run_flash("--port", port, "--board", "sim", "--source", src))[0] == TINY_FILES
        new_main = "import version\nprint('new game', version.NUMBER)\n"
        write(src, "firmware/main.py", new_main)
        forged = DeviceFile("/main.py", new_main.encode())
        write(device, "x\nF\t/main.py\t%d\t%s\nJ" % (len(forged.data), forged.sha256), b"")
        again = run_flash("--port", port, "--board", "sim", "--source", src)
    assert "  copy /main.py" in again.stdout
    assert boot(device).stdout == "new game 1\n"


def test_flash_beside_a_lying_and_damaged_data_folder_changes_none_of_it(tmp_path):
    """The hostile /data of tests/helpers/hostile (paths for names, escapes, endless and unreadable
    files) neither stops flash nor is touched by it, nor reaches the terminal raw."""
    src = tiny_tree(tmp_path / "src")
    entries = hostile.traversal_entries(str(tmp_path / "abs.txt")) + [
        ["game.a", "file", 10, {"repeat": "ab", "count": -1}],
        [hostile.ESCAPE_NAMES[1], "file", 2, "YZ"],
        ["scores.a", "broken", 5, ""],
        ["sub", "dir", 0, ""],
    ]
    device = hostile.lying_device(tmp_path / "flash", data=entries)
    with virtual_pico.running(device) as port:
        first = run_flash("--port", port, "--board", "sim", "--source", src)
        again = run_flash("--port", port, "--board", "sim", "--source", src)
    assert summary(first) == (TINY_FILES, 0, 0)
    assert summary(again) == (0, TINY_FILES, 0)
    assert not any(ord(ch) < 32 and ch != "\n" for ch in first.stdout + first.stderr + again.stdout)
    assert sorted(os.listdir(tmp_path)) == ["flash", "src"]
    assert boot(device).stdout == "game 1\n"

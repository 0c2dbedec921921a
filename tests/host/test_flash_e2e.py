"""End to end: ``flash`` onto the virtual Pico, reflash incrementally, survive interruption.

Every test flashes a copy of a source tree (never the checkout itself) onto a temporary
folder served by ``python -m host_tools virtual-pico``, through the same command a maker
runs. The flashed tree then boots in ``host_tools sim`` (compiled .mpy files, device.cfg)
and plays a turn exactly like the checkout does.
"""

import os
import shutil
import signal
import subprocess
import sys
import pytest

import config  # the firmware's own device.cfg parser
import host_tools
from host_tools.flashing import build as flash_build
from host_tools.flashing import virtual_pico
from host_tools.flashing.testing import (
    TINY_FILES,
    boot,
    copy_checkout,
    run_flash,
    tiny_tree,
    tree_hashes,
    wait_for,
    write,
)

from helpers.flash_output import summary

pytestmark = pytest.mark.slow


def copied_paths(proc):
    return [line.split()[1] for line in proc.stdout.splitlines() if line.startswith("  copy ")]


def test_flash_the_firmware_then_only_what_changed(tmp_path):
    src = copy_checkout(tmp_path / "src")
    device = tmp_path / "flash"
    write(device, "saves/scores.a", b"\x07saved game")  # written by the game, not by flash
    board = "sim"
    pairs = flash_build.source_files(str(src))
    needed = flash_build.board_modules(pairs, board)  # the sim board's modules and drivers: no pico*.py
    expected = [(p, local) for p, local in pairs if not p.startswith(flash_build.BOARD_FOLDERS) or p in needed]
    assert len(pairs) - len(expected) == 6  # pico, pico2, pico_sh1106, pico_neopixel, rp2_reference, web
    with virtual_pico.running(device) as port:
        first = run_flash("--port", port, "--board", board, "--source", src)
        assert summary(first) == (len(expected) + 1, 0, 0)  # + device.cfg
        assert not (device / "boards" / "pico.mpy").exists()
        for device_path, local in expected:
            name = device_path.lstrip("/")
            if name in ("main.py", "boot.py"):
                assert (device / name).read_bytes() == open(local, "rb").read()
            elif name.endswith(".py"):
                assert (device / (name[:-3] + ".mpy")).read_bytes()[:2] == b"M\x06"
                assert not (device / name).exists()
            else:
                assert (device / name).read_bytes() == open(local, "rb").read()
        cfg = config.load(str(device / "device.cfg"), argv=())
        assert (cfg["board"], cfg["rules"]) == (board, "forced")
        manifest = (device / "flash_manifest.txt").read_text()
        assert "/device.cfg\t" in manifest
        assert "/main.py\t" in manifest
        assert "saves" not in manifest

        with open(src / "firmware" / "config.py", "a") as changed:
            changed.write("\nFLASHED_AGAIN = 1\n")
        second = run_flash("--port", port, "--board", board, "--source", src)
        assert summary(second) == (1, len(expected), 0)
        assert copied_paths(second) == ["/config.mpy"]

        third = run_flash("--port", port, "--board", board, "--rules", "free", "--source", src)
        assert copied_paths(third) == ["/device.cfg"]
        assert config.load(str(device / "device.cfg"), argv=())["rules"] == "free"
    assert (device / "saves" / "scores.a").read_bytes() == b"\x07saved game"
    assert not [p for p in tree_hashes(device) if p.endswith(".flashnew")]


def test_a_board_switch_copies_the_new_boards_parts_and_removes_the_old_ones(tmp_path):
    """flash copies only the board's own modules and drivers: switching a
    Pico from board pico to pico_neopixel copies that board's module and dice driver and
    removes pico's (manifest entries, unchanged), never a file the game wrote."""
    src = copy_checkout(tmp_path / "src")
    device = tmp_path / "flash"
    write(device, "boards/notes.txt", b"mine")  # not flash's: stays
    with virtual_pico.running(device) as port:
        assert run_flash("--port", port, "--board", "pico", "--source", src, "--no-reset").returncode == 0
        assert (device / "drivers" / "max7219.mpy").exists()
        assert not (device / "drivers" / "neopixel_dice.mpy").exists()
        switch = run_flash("--port", port, "--board", "pico_neopixel", "--source", src, "--no-reset")
    assert switch.returncode == 0, switch.stderr
    assert sorted(copied_paths(switch)) == ["/boards/pico_neopixel.mpy", "/device.cfg", "/drivers/neopixel_dice.mpy"]
    removed = sorted(line.split()[1] for line in switch.stdout.splitlines() if line.startswith("  remove "))
    assert removed == ["/boards/pico.mpy", "/drivers/max7219.mpy"]
    assert summary(switch)[2] == 2
    assert (device / "boards" / "notes.txt").read_bytes() == b"mine"


ONE_TURN = "enter down enter enter enter up enter wait:300 space enter enter"  # 1 player: roll, score
MENU_ONLY = "enter down enter enter enter up enter wait:300"


def sim_screen(keys, flash_dir, code_dir=None):
    cmd = [
        sys.executable,
        "-m",
        "host_tools",
        "sim",
        "--headless",
        "--board",
        "sim",
        "--seed",
        "2",
        "--keys",
        keys,
        "--flash-dir",
        str(flash_dir),
        "--print-screen",
    ]
    if code_dir:
        cmd += ["--code-dir", str(code_dir)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=host_tools.REPO, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_the_flashed_tree_boots_in_the_sim_and_plays_a_turn(tmp_path, sim_tables):
    src = copy_checkout(tmp_path / "src")
    device = tmp_path / "flash"
    device.mkdir()
    with virtual_pico.running(device) as port:
        summary(run_flash("--port", port, "--board", "sim", "--source", src))
    flashed = sim_screen(ONE_TURN, device, code_dir=device)
    checkout = sim_screen(ONE_TURN, tmp_path / "checkout-flash")
    assert "dice:" in flashed
    assert flashed == checkout
    shutil.rmtree(str(device / "data"))  # the turn's save would offer "Continue" (a resume)
    assert sim_screen(MENU_ONLY, device, code_dir=device) != flashed  # the turn changed the card


def test_stale_files_of_a_previous_flash_go_user_files_stay(tmp_path):
    src = tiny_tree(tmp_path / "src")
    write(src, "firmware/old_screen.py", "GONE = 1\n")
    device = tmp_path / "flash"
    with virtual_pico.running(device.mkdir() or device) as port:
        assert summary(run_flash("--port", port, "--board", "sim", "--source", src))[0] == TINY_FILES + 1
        os.remove(src / "firmware" / "old_screen.py")
        write(device, "notes.txt", "my own file")  # put there by hand: not flash's to delete
        write(device, "version.py", "NUMBER = 99\n")  # a stale source file shadows version.mpy
        write(device, "records/stats.a", b"\x01")
        again = run_flash("--port", port, "--board", "sim", "--source", src)
    assert summary(again) == (0, TINY_FILES, 2)
    assert "  remove /old_screen.mpy" in again.stdout
    assert "  remove /version.py" in again.stdout
    assert not (device / "old_screen.mpy").exists()
    assert not (device / "version.py").exists()
    assert (device / "notes.txt").read_text() == "my own file"
    assert (device / "records" / "stats.a").read_bytes() == b"\x01"
    assert boot(device).stdout == "game 1\n"


def test_strategy_table_is_copied_when_built_and_skipped_when_it_does_not_fit(tmp_path):
    src = tiny_tree(tmp_path / "src")
    table = os.urandom(20000)
    write(src, flash_build.STRATEGY_TABLE.format(rules="forced"), table)
    roomy, tight = tmp_path / "roomy", tmp_path / "tight"
    roomy.mkdir()
    tight.mkdir()
    with virtual_pico.running(roomy) as port:
        done = run_flash("--port", port, "--board", "sim", "--source", src)
    assert summary(done) == (TINY_FILES + 1, 0, 0)
    assert (roomy / "strategy-forced.bin").read_bytes() == table
    # 16 blocks, 15 free: the firmware (9 with the manifest) and the 4 kept for saves fit; 5 more do not
    with virtual_pico.running(tight, "--flash-size", str(16 * 4096)) as port:
        done = run_flash("--port", port, "--board", "sim", "--source", src)
    assert summary(done) == (TINY_FILES, 0, 0)
    assert "strategy table" in done.stdout
    assert "does not fit" in done.stdout
    assert not (tight / "strategy-forced.bin").exists()
    assert boot(tight).stdout == "game 1\n"


def test_no_table_built_is_a_one_line_note(tmp_path):
    src = tiny_tree(tmp_path / "src")
    device = tmp_path / "flash"
    device.mkdir()
    with virtual_pico.running(device) as port:
        done = run_flash("--port", port, "--board", "sim", "--rules", "ordered", "--source", src)
    notes = [line for line in done.stdout.splitlines() if "strategy table" in line]
    assert notes == [
        "flash: no strategy table (build/strategy-ordered.bin not built; `make table` builds it): hints will be off"
    ]


def test_killed_flash_keeps_the_previous_game_and_the_next_flash_finishes(tmp_path):
    src = tiny_tree(tmp_path / "src", number=1)
    device = tmp_path / "flash"
    device.mkdir()
    with virtual_pico.running(device) as port:
        assert summary(run_flash("--port", port, "--board", "sim", "--source", src))[0] == TINY_FILES
        before = tree_hashes(device)
        write(src, "firmware/version.py", "NUMBER = 2\n")
        write(src, "firmware/aaa_big.bin", os.urandom(400 * 1024))  # copied first, takes a while
        tool = subprocess.Popen(
            [sys.executable, "-m", "host_tools", "flash", "--port", port, "--board", "sim", "--source", str(src)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=host_tools.REPO,
        )
        assert wait_for(device / "aaa_big.bin.flashnew", tool)  # mid-copy: the big file is being written
        tool.send_signal(signal.SIGKILL)
        tool.wait()
        tool.stdout.close()
        staged = {path: digest for path, digest in tree_hashes(device).items() if not path.endswith(".flashnew")}
        assert staged == before
        assert boot(device).stdout == "game 1\n"

        finish = run_flash("--port", port, "--board", "sim", "--source", src)
        assert summary(finish) == (2, TINY_FILES - 1, 0)  # the big file and version.mpy
        assert "flash: an earlier flash was interrupted; this one finishes the job" in finish.stdout.splitlines()
    assert boot(device).stdout == "game 2\n"
    assert not [p for p in tree_hashes(device) if p.endswith(".flashnew")]


def test_dev_mode_runs_the_checkout_without_copying(tmp_path):
    src = tiny_tree(tmp_path / "src", number=5)
    device = tmp_path / "flash"
    device.mkdir()
    with virtual_pico.running(device) as port:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "host_tools",
                "flash",
                "--dev",
                "--port",
                port,
                "--board",
                "sim",
                "--source",
                str(src),
            ],
            capture_output=True,
            text=True,
            cwd=host_tools.REPO,
            timeout=60,
        )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "game 5" in proc.stdout
    assert tree_hashes(device) == {}
    assert (src / "build" / "dev" / "device.cfg").read_text() == "board=sim\nrules=forced\n"


def test_the_zoo_table_goes_along_for_the_menus_kids_card(tmp_path):
    src = tiny_tree(tmp_path / "src")
    main, zoo = os.urandom(9000), os.urandom(5000)
    write(src, flash_build.STRATEGY_TABLE.format(rules="forced"), main)
    write(src, flash_build.STRATEGY_TABLE.format(rules="zoo"), zoo)
    device = tmp_path / "flash"
    device.mkdir()
    with virtual_pico.running(device) as port:
        done = run_flash("--port", port, "--board", "sim", "--source", src)
    assert summary(done) == (TINY_FILES + 2, 0, 0)
    assert (device / "strategy-forced.bin").read_bytes() == main
    assert (device / "strategy-zoo.bin").read_bytes() == zoo


# Module names the firmware had before the layer names, some of each layer.
EARLIER = ("players", "computer", "session", "storage", "records", "win_meter")  # earlier versions' names


def test_a_reflash_removes_the_earlier_module_names_and_the_saved_game_plays_on(tmp_path, sim_tables):
    """A device flashed with an earlier version (its module names in flash_manifest.txt)
    and a game saved in data/: flashing this tree removes every earlier module, .mpy and
    a stale .py beside it, and touches neither data/ nor files flash never wrote (a
    hand-copied module of an earlier name at the root, a folder of the user's own); the
    saved game is offered and continues with the new code."""
    old = copy_checkout(tmp_path / "old")
    for name in EARLIER:
        write(old, "firmware/%s.py" % name, '"""An earlier version\'s module."""\nNAME = %r\n' % name)
    write(old, "firmware/ui/old_screen.py", "GONE = 1\n")
    new = copy_checkout(tmp_path / "new")
    device = tmp_path / "flash"
    device.mkdir()
    with virtual_pico.running(device) as port:
        summary(run_flash("--port", port, "--board", "sim", "--source", old))
        assert all((device / (name + ".mpy")).exists() for name in EARLIER)
        played = sim_screen(ONE_TURN, device, code_dir=device)  # the game saves as it goes
        assert "dice:" in played
        assert (device / "data" / "game.a").exists()
        saves = tree_hashes(device / "data")
        write(device, EARLIER[0] + ".py", "NAME = 'a stale source'\n")  # not in the manifest: stays
        write(device, "lib/%s.py" % EARLIER[4], "MINE = 1\n")  # a folder flash never wrote
        write(device, "notes.txt", "my own file")
        again = run_flash("--port", port, "--board", "sim", "--source", new)
        assert summary(again)[2] == len(EARLIER) + 1
        for name in EARLIER:
            assert "  remove /%s.mpy" % name in again.stdout
            assert not (device / (name + ".mpy")).exists()
        assert "  remove /ui/old_screen.mpy" in again.stdout
        manifest = (device / "flash_manifest.txt").read_text()
        assert not any("/%s.mpy\t" % name in manifest for name in EARLIER)
        assert summary(run_flash("--port", port, "--board", "sim", "--source", new)) == (
            0,
            len(manifest.splitlines()) - 1,
            0,
        )
    assert tree_hashes(device / "data") == saves
    assert (device / (EARLIER[0] + ".py")).exists()
    assert (device / "lib" / (EARLIER[4] + ".py")).exists()
    assert (device / "notes.txt").read_text() == "my own file"
    offered = sim_screen("", device, code_dir=device)
    assert "Continue" in offered
    assert "Saved game" in offered
    shutil.copytree(str(device / "data"), str(tmp_path / "checkout-flash" / "data"))
    resumed = sim_screen("enter wait:300 space", device, code_dir=device)  # Continue, roll
    assert "dice:" in resumed
    assert resumed == sim_screen("enter wait:300 space", tmp_path / "checkout-flash")

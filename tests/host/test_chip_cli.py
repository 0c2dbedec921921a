"""``python -m host_tools chip`` with bad input: one line on stderr, a non-zero exit, no
traceback, and the flash image untouched. These need neither the UF2 nor the bootrom
(they stop before the chip starts), so they run on every clone.
"""

import struct
import subprocess
import sys

import pytest

import host_tools
from host_tools import chip as chip_cmd
from host_tools.simulator import chip as sim_chip
from host_tools.simulator import chip_image


def uf2_block(family, addr=0x10000000, flags=0x2000, payload=b"\x00" * 256, magic_end=0x0AB16F30, number=0, count=1):
    head = struct.pack("<8I", 0x0A324655, 0x9E5D5157, flags, addr, len(payload), number, count, family)
    return head + payload.ljust(476, b"\x00") + struct.pack("<I", magic_end)


@pytest.fixture
def bootrom(tmp_path):
    path = tmp_path / "bootrom.bin"
    path.write_bytes(b"\x00" * chip_image.BOOTROM_SIZE)
    return str(path)


def run(capsys, *argv):
    status = chip_cmd.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_a_file_that_is_not_a_uf2(tmp_path, capsys, bootrom):
    fake = tmp_path / "firmware.uf2"
    fake.write_text("not a uf2\n" * 100)
    status, out, err = run(capsys, "--firmware", fake, "--flash-image", tmp_path / "f.bin", "--bootrom", bootrom)
    assert status == 2
    assert out == ""
    assert "is not a UF2 file" in one_line(err)
    assert "micropython.org" in err
    assert not (tmp_path / "f.bin").exists()


def test_an_rp2350_uf2_is_refused_by_name(tmp_path, capsys, bootrom):
    pico2 = tmp_path / "RPI_PICO2.uf2"
    pico2.write_bytes(uf2_block(0xE48BFF59, number=0, count=2) + uf2_block(0xE48BFF59, 0x10000100, number=1, count=2))
    status, _out, err = run(capsys, "--firmware", pico2, "--flash-image", tmp_path / "f.bin", "--bootrom", bootrom)
    assert status == 2
    assert "RP2350 ARM-S, not the RP2040" in one_line(err)


def test_an_unknown_family_id_is_refused(tmp_path, capsys, bootrom):
    other = tmp_path / "other.uf2"
    other.write_bytes(uf2_block(0x12345678))
    status, _out, err = run(capsys, "--firmware", other, "--flash-image", tmp_path / "f.bin", "--bootrom", bootrom)
    assert status == 2
    assert "unknown family 0x12345678" in one_line(err)


def test_a_missing_bootrom_names_the_file_and_where_to_put_it(tmp_path, capsys):
    good = tmp_path / "ok.uf2"
    good.write_bytes(uf2_block(chip_image.RP2040_FAMILY))
    status, _out, err = run(
        capsys, "--firmware", good, "--flash-image", tmp_path / "f.bin", "--bootrom", tmp_path / "nope.bin"
    )
    assert status == 2
    line = one_line(err)
    assert "nope.bin not found" in line
    assert "build/rp2/" in line
    assert not (tmp_path / "f.bin").exists()


def test_a_flash_image_of_the_wrong_size_is_refused_and_kept(tmp_path, capsys, bootrom):
    image = tmp_path / "f.bin"
    image.write_bytes(b"\x01" * 1000)
    status, _out, err = run(capsys, "--flash-image", image, "--bootrom", bootrom)
    assert status == 2
    assert "is 1000 bytes, not a Pico flash image" in one_line(err)
    assert image.read_bytes() == b"\x01" * 1000


def test_node_missing_names_the_install_command(tmp_path, capsys, bootrom, monkeypatch):
    good = tmp_path / "ok.uf2"
    good.write_bytes(uf2_block(chip_image.RP2040_FAMILY))
    monkeypatch.setenv("PATH", str(tmp_path))  # no node on it
    status, _out, err = run(capsys, "--firmware", good, "--flash-image", tmp_path / "f.bin", "--bootrom", bootrom)
    assert status == 1
    line = one_line(err)
    assert "node not found" in line
    assert "make chip-deps" in line
    assert not (tmp_path / "f.bin").exists()


def test_rp2040js_missing_names_the_install_command(tmp_path, capsys, bootrom, monkeypatch):
    good = tmp_path / "ok.uf2"
    good.write_bytes(uf2_block(chip_image.RP2040_FAMILY))
    monkeypatch.setattr(sim_chip, "NODE_MODULES", str(tmp_path / "node_modules"))
    status, _out, err = run(capsys, "--firmware", good, "--flash-image", tmp_path / "f.bin", "--bootrom", bootrom)
    assert status == 1
    assert "rp2040js is not installed" in one_line(err)
    assert "make chip-deps" in err


def test_bad_input_as_a_user_runs_it(tmp_path):
    """The same through ``python -m host_tools chip``: exit status and one line, no traceback."""
    fake = tmp_path / "x.uf2"
    fake.write_bytes(b"\x00" * 512)
    done = subprocess.run(
        [sys.executable, "-m", "host_tools", "chip", "--firmware", str(fake), "--flash-image", str(tmp_path / "f.bin")],
        capture_output=True,
        text=True,
        cwd=host_tools.REPO,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert one_line(done.stderr).startswith("chip: ")


def test_uf2_blocks_erase_their_sectors_and_keep_the_others():
    """Dropping a UF2 erases each 4 KiB sector it writes to and leaves the rest (littlefs)."""
    image = bytearray(b"\x00" * chip_image.FLASH_SIZE)
    blocks = [(0, b"\x11" * 256), (0xA0000, b"\x22" * 256)]
    chip_image.apply_uf2(image, blocks)
    assert image[:256] == b"\x11" * 256
    assert image[256:4096] == b"\xff" * (4096 - 256)
    assert image[0xA0000:0xA0100] == b"\x22" * 256
    assert image[4096:8192] == b"\x00" * 4096  # untouched sector


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--battery", "-5"], "--battery -5"),
        (["--keys", "enter bogus", "--headless"], "bad key 'bogus'"),
    ],
)
def test_usage_errors(capsys, argv, message):
    status, _out, err = run(capsys, *argv)
    assert status == 2
    assert message in one_line(err)


@pytest.mark.parametrize(
    "missing, where",
    [
        (chip_image.FIRMWARE_NAME, "micropython.org/download/RPI_PICO/"),
        (chip_image.BOOTROM_NAME, "pico-bootrom-rp2040"),
    ],
)
def test_the_chip_tier_skip_reason_names_the_missing_file_and_where_to_get_it(monkeypatch, missing, where):
    """Without the UF2 (CI: ../shared/rp2/ holds only the bootrom) the chip tier skips with
    one line naming that file, where to download it and the folder it goes in."""
    from host_tools.simulator import chip_session

    found = {chip_image.FIRMWARE_NAME: "/fw.uf2", chip_image.BOOTROM_NAME: "/bootrom.bin"}
    monkeypatch.setattr(chip_image, "find_file", lambda name, folders=(): None if name == missing else found[name])
    firmware, bootrom, problem = chip_session.fixture_files()
    assert (firmware, bootrom) == (None, None)
    assert "\n" not in problem
    assert problem.startswith(missing + " not found: ")
    assert where in problem
    assert "into build/rp2/" in problem
    other = chip_image.BOOTROM_NAME if missing == chip_image.FIRMWARE_NAME else chip_image.FIRMWARE_NAME
    assert other not in problem  # only the file that is missing

"""The chip tier on a slow machine, without the MicroPython UF2 (its logic, with fakes).

On a loaded 2-core machine the emulated Pico ran at a few % of a real one's speed:
``flash``'s raw-REPL wait fired after its 47th file, that one flash failed 10 tests and
errored 2, and ``bench chip`` then exited 0 and replaced its nine figures with the error.
Now the flash tool measures the device's speed and scales its waits by it, the tests
that are not about flashing start from an image built as ``make uf2`` builds it, a
failed flash is one message that names it, and a bench subject that cannot measure keeps
its rows and exits non-zero.
"""

import subprocess

import pytest

from host_tools import bench, benches
from host_tools.flashing import build as flash_build
from host_tools.flashing import device as device_module
from host_tools.flashing import fs_image, uf2
from host_tools.flashing.testing import tiny_tree, write
from host_tools.simulator import chip_image, chip_session

from helpers.uf2_fakes import firmware_uf2, table_file

pytestmark = pytest.mark.slow


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class SlowTransport:
    """mpremote's transport to a device ``slowness`` times slower than its own clock:
    each script costs a round trip, the speed probe's loop 3 us of device time an
    iteration. Records the waits it is given."""

    def __init__(self, clock, slowness):
        self.clock = clock
        self.slowness = slowness
        self.waits = []
        self._out = b""

    def _run(self, code):
        self.clock.now += 0.02  # the round trip and the compile, the same at any length
        if "ticks_us" in code:
            n = int(code.split("range(")[1].split(")")[0])
            self.clock.now += n * 3e-6 * self.slowness
            self._out = b"%d\r\n" % (n * 3)
        else:
            self._out = b"ok\r\n"

    def exec_raw_no_follow(self, code):
        self._run(code)

    def read_until(self, _min, _ending, timeout=10, data_consumer=None, timeout_overall=None):
        self.waits.append((timeout, timeout_overall))
        out, self._out = self._out + b"\x04", b""  # the output, then the (empty) error text
        data_consumer(out)
        return out

    def exec_raw(self, code, timeout=10, data_consumer=None):
        self._run(code)
        self.waits.append((timeout, None))
        return self._out, b""


@pytest.mark.parametrize("slowness,scaled", [(25, 25), (1.3, 1), (1, 1)])
def test_a_slow_device_has_every_wait_scaled_and_a_pico_none(monkeypatch, slowness, scaled):
    clock = Clock()
    monkeypatch.setattr(device_module.time, "monotonic", clock)
    device = device_module.Device("/dev/null")
    device.transport = SlowTransport(clock, slowness)
    assert device.measure_speed() == pytest.approx(scaled, rel=0.01)
    device.transport.waits.clear()
    device.exec("print('ok')")
    device.exec_bounded("print('ok')", 100)
    wait = device_module.EXEC_TIMEOUT * device.slowness
    assert device.transport.waits[0] == (pytest.approx(wait), None)  # mpremote's first-EOF wait
    assert device.transport.waits[1] == (pytest.approx(wait), pytest.approx(120 * device.slowness))


def test_flash_says_how_fast_the_device_runs_and_a_failed_flash_is_one_message_naming_it():
    proc = subprocess.CompletedProcess(
        ["flash"],
        1,
        stdout="flash: MicroPython 1.28.0, .mpy v6.3, Raspberry Pi Pico with RP2040\n"
        "flash: the device runs at 4 % of a Pico's speed: its waits are 25 times a Pico's\n",
        stderr="flash: lost the connection to /dev/pts/5 (timeout waiting for first EOF reception)\n",
    )
    said = chip_session.flash_failure(proc, 392)
    assert said == (
        "make flash onto the emulated Pico failed after 392 s (the device runs at 4 % of a Pico's speed: "
        "its waits are 25 times a Pico's): flash: lost the connection to /dev/pts/5 (timeout waiting for "
        "first EOF reception)"
    )


def test_tests_not_about_flashing_start_from_the_image_make_uf2_lays_out(tmp_path):
    """``chip_built``: the firmware and the files ``make flash`` would copy, its tables
    and the device.cfg line the seeded chip needs, written into a 2 MiB flash image
    directly, where the chip mounts them."""
    src = tiny_tree(tmp_path / "src")
    write(src, flash_build.STRATEGY_TABLE.format(rules="forced"), table_file("exact", 100000))
    firmware = tmp_path / "RPI_PICO-v1.28.0.uf2"
    firmware.write_bytes(firmware_uf2())
    image = str(tmp_path / "flash.bin")
    chip_session.built_image(image, str(firmware), source=str(src), config=[("seed", 77)])
    with open(image, "rb") as f:
        flash = f.read()
    assert len(flash) == chip_image.FLASH_SIZE
    layout = uf2.LAYOUTS[0]
    for block in uf2.parse(firmware.read_bytes()):  # the firmware where the bootrom puts it
        at = block.address - uf2.FLASH_BASE
        assert flash[at : at + len(block.payload)] == block.payload
    region = flash[layout.fs_start - uf2.FLASH_BASE : layout.fs_end - uf2.FLASH_BASE]
    copied = tmp_path / "mounted"
    copied.mkdir()
    found, _stat = fs_image.read(region, str(copied))
    assert "/boards/pico.mpy" in found
    assert "/strategy-forced.bin" in found
    assert "/flash_manifest.txt" in found
    assert (copied / "device.cfg").read_text().splitlines()[-1] == "seed=77"


def test_a_bench_subject_that_cannot_measure_keeps_its_rows_and_fails(tmp_path, monkeypatch, capsys):
    page = str(tmp_path / "figures.md")
    benches.write_page({"chip": ["heap 177,728 bytes", "advisor turn 63.1 ms"]}, "aaaaaaa", "2026-12-01", page)
    from host_tools.benches import chip

    monkeypatch.setattr(chip.chip_session, "fixture_files", lambda: ("fw.uf2", "bootrom.bin", None))
    monkeypatch.setattr(chip.chip_session, "ensure_node", lambda: None)
    monkeypatch.setattr(
        chip.chip_session,
        "flash_game",
        lambda image, firmware: subprocess.CompletedProcess(
            ["flash"], 1, "", "flash: lost the connection (timeout waiting for first EOF reception)\n"
        ),
    )
    assert bench.main(["chip", "--figures", page]) == 1
    said = capsys.readouterr()
    assert "flash failed" in said.out
    assert said.err == "bench: chip could not measure; its rows in %s are kept\n" % page
    assert [row[1] for row in benches.read_page(page)] == ["heap 177,728 bytes", "advisor turn 63.1 ms"]

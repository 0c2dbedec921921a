"""``make dev`` (``flash --dev``): a firmware that stops on a fault is a failed run.

The firmware's main.py catches a crash, shows it and returns, so mpremote exits 0; the
dev command reads main.py's console lines and exits 1 with one line naming the fault.
Runs on the virtual Pico (a copy of the checkout, never the checkout itself): its 192 KB
heap cannot compile the sources at import (MemoryError) and it has no pins (the pico
board fails at ``machine.ADC``).
"""

import re

import pytest

from host_tools import flash
from host_tools.flashing import virtual_pico
from host_tools.flashing.testing import copy_checkout, run_flash

pytestmark = pytest.mark.slow

FIRMWARE_MAIN = "firmware/main.py"


@pytest.mark.parametrize(
    "board,fault",
    [
        ("sim", "MemoryError: memory allocation failed"),  # the sources compiled at import
        ("pico", "board 'pico' failed: AttributeError: module 'machine' has no attribute 'ADC'"),
    ],
)
def test_a_firmware_fault_in_dev_mode_is_exit_1_and_one_line(tmp_path, board, fault):
    src = copy_checkout(tmp_path / "src")
    with virtual_pico.running(tmp_path / "pico") as port:
        proc = run_flash("--dev", "--port", port, "--board", board, "--source", src, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("flash: the firmware stopped on the device: " + fault), proc.stderr
    assert "README 'REPL and development mode'" in proc.stderr
    assert "Traceback" in proc.stdout  # the device's own output still passes through


def test_dev_fault_lines_are_the_ones_main_py_prints():
    # Each marker is the start of a line main.py prints on a fault (or MicroPython's
    # traceback header): renaming one there without here would turn a crash into exit 0.
    with open(flash.host_tools.REPO + "/" + FIRMWARE_MAIN) as source:
        text = source.read()
    printed = re.findall(r'(?:print|show_message)\((?:hw, )?"([^"%]+)', text)
    for marker in flash.DEV_FAULTS[1:]:
        title = marker.rstrip(": '")
        assert any(line.startswith(title) for line in printed), (marker, printed)


@pytest.mark.parametrize(
    "report,line",
    [
        (
            ["Traceback (most recent call last):", "File \"x.py\", line 1", "ValueError: x", "Crash: ValueError: x"],
            "ValueError: x",
        ),
        (
            ["board 'pico' failed:", "Traceback (most recent call last):", "File \"b.py\", line 3", "OSError: 19"],
            "board 'pico' failed: OSError: 19",
        ),
        (
            ["Reflash needed: firmware incomplete: no module named 'app'"],
            "Reflash needed: firmware incomplete: no module named 'app'",
        ),
        ([], None),
    ],
)
def test_the_fault_in_one_line(report, line):
    assert flash.fault_of(report) == line

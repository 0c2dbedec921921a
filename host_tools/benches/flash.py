"""Flash timings on the virtual Pico: full flash, no-change and one-change reflash, copy rate.

The virtual Pico answers faster than a real Pico over USB, so these figures are the tool's
own overhead (compiling, hashing on the device, mpremote round trips), not a Pico's.
"""

import os
import re
import statistics
import tempfile
import time

from host_tools.flashing import build as flash_build
from host_tools.flashing import virtual_pico
from host_tools.flashing.testing import copy_checkout, run_flash, write

_SUMMARY = re.compile(r"(\d+) copied, (\d+) skipped, (\d+) removed, (\d+) bytes")


def _timed_flash(port, src):
    started = time.monotonic()
    proc = run_flash("--port", port, "--board", "sim", "--source", src)
    elapsed = time.monotonic() - started
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip())
    copied, skipped, removed, size = (int(n) for n in _SUMMARY.search(proc.stdout).groups())
    return elapsed, copied, size


def run():
    with tempfile.TemporaryDirectory(prefix="bench-flash-") as tmp:
        src = copy_checkout(os.path.join(tmp, "src"))
        device = os.path.join(tmp, "device")
        os.mkdir(device)
        started = time.monotonic()
        files = flash_build.build(src, flash_build.find_mpy_cross(), None, "sim", "forced")
        cold = time.monotonic() - started
        started = time.monotonic()
        flash_build.build(src, flash_build.find_mpy_cross(), None, "sim", "forced")
        warm = time.monotonic() - started
        print("compile board sim's %d files: %.2f s cold, %.3f s from build/mpy-cache" % (len(files), cold, warm))
        with virtual_pico.running(device) as port:
            seconds, copied, size = _timed_flash(port, src)
            print(
                "full flash of board sim (the simulator's board: its own modules too; bytecode .mpy, no tables): "
                "%d files, %d bytes, %.2f s wall (python start-up included)" % (copied, size, seconds)
            )
            same = [_timed_flash(port, src)[0] for _ in range(3)]
            print("reflash, nothing changed: median %.2f s" % statistics.median(same))
            with open(os.path.join(src, "firmware", "config.py"), "a") as changed:
                changed.write("\nBENCH = 1\n")
            seconds, copied, _ = _timed_flash(port, src)
            print("reflash, one module changed: %d copied, %.2f s" % (copied, seconds))
            write(src, "firmware/bench_blob.bin", os.urandom(256 * 1024))
            seconds, copied, size = _timed_flash(port, src)
            print("copy a 256 KiB file: %.2f s wall, about %.0f KiB/s" % (seconds, size / 1024 / max(seconds, 1e-3)))

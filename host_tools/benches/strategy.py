"""Optimal play: solver time, table sizes and loss, advisor memory/instructions, computer levels.

Table checks (docs/strategy_table.md): the file's room on a Pico next to the compiled
firmware, and on the unix port the median time to open a table (header, size and rank
checks), to read one mask (load_block, CRC-8 included), the CRC-8 of a mask alone, and an
advisor turn (prepare); ``run_checks()`` runs just these (``python -c "from
host_tools.benches import strategy; strategy.run_checks()"``).

RP2040 time estimate. The advisor's per-turn work is counted in x86-64 instructions with
valgrind's callgrind on the MicroPython unix port (difference between runs of 1 and 6
turns, so start-up and imports cancel). The conversion to RP2040 cycles is calibrated on
a published measurement of the same interpreter: the "Integer addition 1000000 times"
row of github.com/shaoziyang/micropython_benchmarks (README table: MicroPython v1.23.0 on
an RP2040 at 125 MHz, 7984 ms), i.e. a loop whose body adds two small ints taken from a
list. The bench runs an equivalent loop under callgrind here; RP2040 cycles per x86-64
instruction = (7984 ns x 125 MHz per iteration) / (x86-64 instructions per iteration),
about 1.6. The advisor's mix (array indexing, calls) differs from that loop, so read
the result as an estimate good to about +-30%, not a measurement.
"""

import os
import shutil
import subprocess
import tempfile
import time

import host_tools

host_tools.use_firmware()
import rules  # noqa: E402
import seat_levels as P  # noqa: E402

from host_tools.solver import core as solver_core  # noqa: E402
from host_tools.solver import simulate as solver_sim  # noqa: E402
from host_tools.solver import table as solver_table  # noqa: E402

RP2040_HZ = 125_000_000
# Published: 1,000,000 iterations of "c = p[1] + p[2]" in 7984 ms (RP2040 @125 MHz,
# MicroPython v1.23.0; shaoziyang/micropython_benchmarks README).
PUBLISHED_LOOP_MS = 7984
PUBLISHED_LOOP_N = 1_000_000
LEVEL_GAMES = int(os.environ.get("BENCH_STRATEGY_GAMES", "1000"))

_TURNS_SCRIPT = """
import sys, rules, strategy_advisor, strategy_table
R = rules.make_ruleset()
adv = strategy_advisor.Advisor(R, strategy_table.StrategyTable(open(sys.argv[1], "rb")))
codes = [0] * 32
values = [0] * 32
card = rules.new_card()
card[0] = 3
card[8] = 25
for i in range(int(sys.argv[2])):
    card[13] = 0
    adv.prepare(card)
    adv.options([1, 2, 3, 4, 6], 2, codes, values)
"""

_CALIBRATION_SCRIPT = """
import sys
def sums(n, pair):
    for _ in range(n):
        total = pair[1] + pair[2]
sums(int(sys.argv[2]), [0, 12345678, 56781234])
"""

_MEMORY_SCRIPT = """
import gc, sys, rules, strategy_advisor, strategy_table
R = rules.make_ruleset()
f = open(sys.argv[1], "rb")
gc.collect()
before = gc.mem_alloc()
adv = strategy_advisor.Advisor(R, strategy_table.StrategyTable(f))
gc.collect()
kept = gc.mem_alloc() - before
codes = [0] * 32
values = [0] * 32
gc.disable()
start = gc.mem_alloc()
adv.prepare(rules.new_card())
adv.options([1, 2, 3, 4, 6], 2, codes, values)
print(kept, gc.mem_alloc() - start)
"""


_CHECKS_SCRIPT = """
import sys, time, rules, strategy_advisor, strategy_table
def median(xs):
    xs.sort()
    return xs[len(xs) // 2]
def timed(fn, n):
    out = []
    for _ in range(n):
        t = time.ticks_us()
        fn()
        out.append(time.ticks_diff(time.ticks_us(), t))
    return median(out)
path = sys.argv[1]
files = []
def open_table():
    f = open(path, "rb")
    files.append(f)
    return strategy_table.StrategyTable(f)
opened = timed(open_table, 21)
for f in files:
    f.close()
table = open_table()
reads = []
for mask in range(1, 8191, 29):  # consecutive masks differ: every call reads and checks
    t = time.ticks_us()
    table.load_block(mask, 0)
    reads.append(time.ticks_diff(time.ticks_us(), t))
full = bytearray(256)
crc = timed(lambda: strategy_table.crc8(full, 0, 256, 0), 101)
adv = strategy_advisor.Advisor(rules.make_ruleset(), table)
card = rules.new_card()
def turn():
    card[13] = 0
    adv.prepare(card)
print(opened, median(reads), max(reads), crc, timed(turn, 21))
"""
_CRC_SCRIPT = """
import sys, strategy_table
buf = bytearray(256)
for _ in range(int(sys.argv[2])):
    strategy_table.crc8(buf, 0, 256, 0)
"""
_SAVES_ROOM = 100 * 1000  # what the saves and records need free (docs/formats.md: flash wear)


def _room(path):
    """(game bytes, free bytes) on a Pico's littlefs holding board pico's files as flash
    builds them for the RP2040 (armv6m .mpy) and the table at ``path`` alone (no spread
    or Zoo table): the image uf2 would write, counted by MicroPython's littlefs."""
    from host_tools.flashing import build as flash_build
    from host_tools.flashing import bundle, device, fs_image, uf2

    layout = uf2.LAYOUTS[0]  # RPI_PICO
    with open(path, "rb") as f:
        table = flash_build.DeviceFile("/strategy-forced.bin", f.read(), path)
    files = bundle.device_files(host_tools.REPO, next(iter(layout.families.values())), "pico", "forced", table)
    _image, _touched, free = fs_image.build(files, layout.block_count)
    return sum(len(f.data) for f in files if f is not table and f.path != device.MANIFEST), free


def run_checks(tables=None):
    """The table-check figures (see the module docstring)."""
    from host_tools.solver import cache as solver_cache

    ruleset = rules.make_ruleset()
    for variant in ("exact", "compact"):
        path = (tables or {}).get(variant) or solver_cache.table(ruleset, variant)
        size = os.path.getsize(path)
        game, free = _room(path)
        print(
            "table %-7s %d bytes (checks: 8256 = %.1f%%); on a Pico's littlefs with board pico's game "
            "(armv6m .mpy, %d bytes) and this table alone (no spread or Zoo table): %d KiB free of 1408 "
            "(target >= %d KB for saves)" % (variant, size, 100 * 8256 / size, game, free // 1024, _SAVES_ROOM // 1000)
        )
        proc = host_tools.run_micropython(["-c", _CHECKS_SCRIPT, path], heap="192K")
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr.strip())
        opened, read, worst, crc, turn = (int(n) for n in proc.stdout.split())
        print(
            "  unix port, medians: open %d us (header, size, 64 rank rows); one mask read %d us "
            "(max %d), of which its CRC-8 of up to 256 bytes %d us; advisor turn %d us"
            % (opened, read, worst, crc, turn)
        )


def _turn_bytes(space, bits):
    """Bytes the bench's turn (aces and full house filled, exact table of ``bits`` bits
    per value) reads and checks: the whole mask of every open box, its 1-2 blocks' 16-bit
    bases and values, and at most one byte shared with the mask before."""
    mask = 1 | 1 << 8
    total = 0
    for b in range(13):
        if not mask >> b & 1:
            after = mask | 1 << b
            blocks = 2 if after >> 11 & 1 else 1
            total += (16 * blocks + bits * len(space.reach[after & 63]) * blocks + 7) // 8 + 1
    return total


def _instructions(script, table, turns):
    env = host_tools.micropython_env()
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        host_tools.micropython_command(),
        "-X",
        "heapsize=192K",
        script,
        table,
        str(turns),
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env).stderr
    for line in out.splitlines():
        if "Collected" in line:
            return int(line.split(":")[-1])
    raise RuntimeError("callgrind gave no count: " + out[-500:])


def run():
    ruleset = rules.make_ruleset()
    start = time.time()
    dense, _tables, space = solver_core.solve(ruleset)
    solve_s = time.time() - start
    print(
        "solver (forced): %d states, expected %.7f, %.1f s wall on %d cores (target <= 5 s)"
        % (space.count, dense[0], solve_s, min(2, os.cpu_count() or 1))
    )
    chance, _t, _s = solver_core.solve(ruleset, guide=dense, count_upper_bonus=True)
    print("optimal play earns the upper bonus in %.2f%% of games (published 68.12%%)" % (100 * chance[0]))
    work = tempfile.mkdtemp()
    try:
        exact = solver_table.encode(dense, space, ruleset, "exact")
        compact = solver_table.encode(dense, space, ruleset, "compact")
        table = os.path.join(work, "strategy-forced.bin")
        with open(table, "wb") as f:
            f.write(exact)
        for name, data in (("exact", exact), ("compact", compact)):
            played, _t, _s = solver_core.solve(ruleset, guide=solver_table.decode(data, space))
            print(
                "table %-7s %8d bytes (%.1f KiB); decisions lose %.5f points/game vs exact values"
                % (name, len(data), len(data) / 1024, dense[0] - played[0])
            )
        script = os.path.join(work, "turns.py")
        with open(script, "w") as f:
            f.write(_TURNS_SCRIPT)
        mem_script = os.path.join(work, "mem.py")
        with open(mem_script, "w") as f:
            f.write(_MEMORY_SCRIPT)
        proc = host_tools.run_micropython([mem_script, table], heap="192K")
        kept, per_turn_alloc = proc.stdout.split()
        print(
            "advisor memory (MicroPython unix, 64-bit objects): %s bytes kept, %s bytes allocated per turn"
            % (kept, per_turn_alloc)
        )
        compact_path = os.path.join(work, "strategy-forced-compact.bin")
        with open(compact_path, "wb") as f:
            f.write(compact)
        run_checks({"exact": table, "compact": compact_path})
        if shutil.which("valgrind"):
            calib = os.path.join(work, "calibration.py")
            with open(calib, "w") as f:
                f.write(_CALIBRATION_SCRIPT)
            loop_n = 100000
            per_iter = (_instructions(calib, table, loop_n) - _instructions(calib, table, 0)) / loop_n
            cycles_per_iter = PUBLISHED_LOOP_MS * 1e-3 / PUBLISHED_LOOP_N * RP2040_HZ
            factor = cycles_per_iter / per_iter
            print(
                "calibration loop: %.0f x86-64 instructions/iteration here, %.0f RP2040 cycles published "
                "-> %.2f cycles per instruction" % (per_iter, cycles_per_iter, factor)
            )
            per_turn = (_instructions(script, table, 6) - _instructions(script, table, 1)) / 5
            ms = per_turn * factor / RP2040_HZ * 1000
            print(
                "advisor turn (prepare + first decision, 11 open boxes): %.2f M x86-64 instructions" % (per_turn / 1e6)
            )
            print(
                "  RP2040 @125 MHz estimate: %.0f ms (+-30%%: %.0f-%.0f ms; target 100 ms); later "
                "decisions of the turn are lookups" % (ms, ms * 0.7, ms * 1.3)
            )
            crc_script = os.path.join(work, "crc.py")
            with open(crc_script, "w") as f:
                f.write(_CRC_SCRIPT)
            per_byte = (_instructions(crc_script, table, 40) - _instructions(crc_script, table, 0)) / (40 * 256)
            checked = _turn_bytes(space, exact[18])
            crc_ms = checked * per_byte * factor / RP2040_HZ * 1000
            print(
                "  of which the table checks (CRC-8 of the %d bytes read, %.0f instructions/byte): "
                "%.1f ms estimated" % (checked, per_byte, crc_ms)
            )
        else:
            print("advisor instructions: valgrind not installed")
        for level in range(len(P.LEVELS)):
            t0 = time.time()
            mean, lost, totals = solver_sim.play_games(table, ruleset, level, LEVEL_GAMES, seed=1000 + level)
            sd = (sum((x - mean) ** 2 for x in totals) / (len(totals) - 1)) ** 0.5
            print(
                "level %-8s %d games: average %.1f (+-%.1f), measured loss %.2f points/game "
                "(stated %d; %.1f s)"
                % (
                    P.LEVELS[level],
                    LEVEL_GAMES,
                    mean,
                    sd / len(totals) ** 0.5,
                    lost,
                    P.EXPECTED_LOSS[level],
                    time.time() - t0,
                )
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)

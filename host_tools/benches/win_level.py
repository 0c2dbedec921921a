"""CPU win against CPU optimal head to head; the win level's cost per turn on the RP2040.

Games: host_tools/solver/fast_win.py and fast_play.py (the device's win level and
advisor, vectorised; tests/strategy/test_win_level.py checks them decision by decision), seats
alternated (the win level moves first in half of the games). A shared win counts 1/2.
95 % interval: mean +- 1.96 standard errors of the per-game outcome.

Cost: callgrind instruction counts of the device code on the MicroPython unix port,
converted to RP2040 time with the calibration of host_tools/benches/strategy.py (an
estimate good to about +-30 %). Memory: gc.mem_alloc around building the level, and
what one turn allocates.

    nice python -m host_tools.benches.win_level --games 200000 --write docs/win_level.md
"""

import os
import shutil
import sys
import tempfile
import time

import numpy as np

import host_tools

host_tools.use_firmware()
import rules  # noqa: E402

from host_tools.benches import strategy as strategy_bench  # noqa: E402
from host_tools.benches import win_meter as meter_bench  # noqa: E402
from host_tools.solver import cache  # noqa: E402
from host_tools.solver import fast_win  # noqa: E402
from host_tools.solver import spread  # noqa: E402

SEED = 2026  # (a first 100,000-game run used seed 1512; the README quotes both)

_TURNS_SCRIPT = """
import sys, rules, strategy_advisor, strategy_table, strategy_spread, seat_win
R = rules.make_ruleset()
adv = strategy_advisor.Advisor(R, strategy_table.StrategyTable(open(sys.argv[1], "rb")))
level = seat_win.WinLevel(adv, strategy_spread.SpreadTable(open(sys.argv[3], "rb")))
card = rules.new_card()
card[0] = 3
card[8] = 25
other = rules.new_card()
other[1] = 6
other[9] = 30
for i in range(int(sys.argv[2])):
    card[13] = 0
    level.prepare(card, [other])
    level.hold([1, 2, 3, 4, 6], 2)
"""

_MEMORY_SCRIPT = """
import gc, sys, rules, strategy_advisor, strategy_table, strategy_spread, seat_win
R = rules.make_ruleset()
adv = strategy_advisor.Advisor(R, strategy_table.StrategyTable(open(sys.argv[1], "rb")))
f = open(sys.argv[2], "rb")
gc.collect()
before = gc.mem_alloc()
level = seat_win.WinLevel(adv, strategy_spread.SpreadTable(f))
gc.collect()
kept = gc.mem_alloc() - before
card = rules.new_card()
other = rules.new_card()
level.prepare(card, [other])
gc.disable()
start = gc.mem_alloc()
card[2] = 9
level.prepare(card, [other])
level.hold([1, 2, 3, 4, 6], 2)
level.box([1, 2, 3, 4, 6])
print(kept, gc.mem_alloc() - start)
"""


def head_to_head(games, seed=SEED):
    ruleset = rules.make_ruleset()
    fa, _fixed, _var = meter_bench.load(ruleset)
    with open(cache.spread_table(ruleset, meter_bench.DEVICE_BANDS), "rb") as f:
        fw = fast_win.FastWin(fa, spread.decode_sixteenths(f.read()))
    rng = np.random.default_rng(seed)
    parts = [fast_win.head_to_head(fa, fw, min(10000, games - lo), rng) for lo in range(0, games, 10000)]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))


def cost(say):
    ruleset = rules.make_ruleset()
    table = cache.table(ruleset)
    spread_path = cache.spread_table(ruleset, meter_bench.DEVICE_BANDS)
    work = tempfile.mkdtemp()
    try:
        mem = os.path.join(work, "mem.py")
        with open(mem, "w") as f:
            f.write(_MEMORY_SCRIPT)
        proc = host_tools.run_micropython([mem, table, spread_path], heap="192K")
        kept, per_turn = proc.stdout.split()
        say(
            "Memory (MicroPython unix port, 64-bit objects): the level keeps %s bytes beside the advisor, "
            "a turn allocates %s bytes." % (kept, per_turn)
        )
        if not shutil.which("valgrind"):
            say("Instructions: valgrind not installed.")
            return
        calib = os.path.join(work, "calibration.py")
        with open(calib, "w") as f:
            f.write(strategy_bench._CALIBRATION_SCRIPT)
        loop_n = 100000
        per_iter = (
            strategy_bench._instructions(calib, table, loop_n) - strategy_bench._instructions(calib, table, 0)
        ) / loop_n
        factor = (
            strategy_bench.PUBLISHED_LOOP_MS
            * 1e-3
            / strategy_bench.PUBLISHED_LOOP_N
            * strategy_bench.RP2040_HZ
            / per_iter
        )
        turns = os.path.join(work, "turns.py")
        with open(turns, "w") as f:
            f.write(_TURNS_SCRIPT)

        def count(n):
            return _instructions(turns, table, n, spread_path)

        per_turn_i = (count(6) - count(1)) / 5
        ms = per_turn_i * factor / strategy_bench.RP2040_HZ * 1000
        say(
            "One turn's preparation and first decision (11 open boxes, one opponent): %.2f M x86-64 "
            "instructions; RP2040 @125 MHz estimate %.0f ms (+-30 %%: %.0f-%.0f ms; target 120 ms). "
            "Later decisions of the turn are lookups." % (per_turn_i / 1e6, ms, ms * 0.7, ms * 1.3)
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _instructions(script, table, turns, spread_path):
    import subprocess

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
        spread_path,
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env).stderr
    for line in out.splitlines():
        if "Collected" in line:
            return int(line.split(":")[-1])
    raise RuntimeError("callgrind gave no count: " + out[-500:])


def report(games, write=None, with_cost=True):
    lines = []

    def say(text=""):
        print(text, flush=True)
        lines.append(text)

    t0 = time.time()
    out, win, opt = head_to_head(games)
    half = 1.96 * out.std(ddof=1) / np.sqrt(len(out))
    say("%d two-player games, CPU win against CPU optimal, seats alternated (%.0f s):" % (games, time.time() - t0))
    say()
    say("| | CPU win | CPU optimal |")
    say("|---|---|---|")
    say(
        "| games won (ties 1/2) | %.2f %% (95 %% interval %.2f-%.2f %%) | %.2f %% |"
        % (100 * out.mean(), 100 * (out.mean() - half), 100 * (out.mean() + half), 100 * (1 - out.mean()))
    )
    say("| average score | %.2f (sd %.1f) | %.2f (sd %.1f) |" % (win.mean(), win.std(), opt.mean(), opt.std()))
    say("| ties | %.2f %% | |" % (100 * np.mean(out == 0.5)))
    say()
    if with_cost:
        cost(say)
    if write:
        with open(write, "w") as f:
            f.write(
                "# CPU win head to head\n\nGenerated by `nice python -m host_tools.benches.win_level "
                "--games %d --write %s` (host_tools/benches/win_level.py; do not edit by hand).\n\n"
                % (games, write)
                + "\n".join(lines)
                + "\n"
            )


def run():
    report(int(os.environ.get("BENCH_WIN_LEVEL_GAMES", "20000")))


def main(argv):
    games, write = 200000, None
    args = list(argv)
    while args:
        opt = args.pop(0)
        if opt == "--games" and args:
            games = int(args.pop(0))
        elif opt == "--write" and args:
            write = args.pop(0)
        else:
            print("win_level: usage: [--games N] [--write FILE]", file=sys.stderr)
            return 2
    report(games, write)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

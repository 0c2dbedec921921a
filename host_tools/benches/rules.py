"""Rules and game engine: heap after import, bytes allocated, scoring speed (MicroPython vs CPython)."""

import json
import statistics
import time

import host_tools

# Runs inside the unix-port MicroPython; prints one JSON line of figures.
_MICROPYTHON_SCRIPT = """
import gc, json, time, random
gc.collect()
start = gc.mem_alloc()
import rules, game
gc.collect()
imported = gc.mem_alloc() - start

ruleset = rules.make_ruleset()
card = rules.new_card()
out = [0] * 13
dice = [3, 3, 3, 5, 5]
rules.score_options(ruleset, card, dice, out)
gc.collect()
gc.disable()
before = gc.mem_alloc()
rules.score_options(ruleset, card, dice, out)
one_roll = gc.mem_alloc() - before

random.seed(1)
before = gc.mem_alloc()
g = game.Game(ruleset, [("solo", "human")], random)
options = [0] * 13
while g.phase != game.OVER:
    g.roll()
    g.options(options)
    best = 0
    for box in range(13):
        if options[box] > options[best]:
            best = box
    g.score(best)
full_game = gc.mem_alloc() - before
gc.enable()

batches = []
for _ in range(7):
    t0 = time.ticks_us()
    for _ in range(%(n)d):
        rules.score_options(ruleset, card, dice, out)
    batches.append(time.ticks_diff(time.ticks_us(), t0) / %(n)d)
batches.sort()
print(json.dumps({"import": imported, "one_roll": one_roll, "full_game": full_game,
                  "score_us": batches[3], "total": g.total(0)}))
"""
_N = 2000


def _cpython_us_per_scoring():
    host_tools.use_firmware()
    import rules

    ruleset = rules.make_ruleset()
    card = rules.new_card()
    out = [0] * 13
    dice = [3, 3, 3, 5, 5]
    batches = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(_N):
            rules.score_options(ruleset, card, dice, out)
        batches.append((time.perf_counter() - t0) * 1e6 / _N)
    return statistics.median(batches)


def _micropython_figures(compiled_dir=None):
    extra = (compiled_dir,) if compiled_dir else ()
    proc = host_tools.run_micropython(["-c", _MICROPYTHON_SCRIPT % {"n": _N}], heap="192K", extra_path=extra)
    if proc.returncode != 0:
        raise SystemExit("MicroPython bench failed: %s" % proc.stderr.strip()[-500:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run():
    import tempfile

    from host_tools.benches import sim as bench_sim

    with tempfile.TemporaryDirectory() as compiled:
        bench_sim.compiled_tree(compiled)  # the .mpy files as flash puts them on a device
        from_mpy = _micropython_figures(compiled)
    mp = _micropython_figures()
    cpython_us = _cpython_us_per_scoring()
    print(
        "heap used by importing rules + game (MicroPython): %d bytes from .mpy as flashed,"
        " %d bytes compiling from source" % (from_mpy["import"], mp["import"])
    )
    print("allocated while scoring one roll for all 13 boxes:  %d bytes" % mp["one_roll"])
    print(
        "allocated during one full solitaire game (seed 1): %d bytes (final score %d)" % (mp["full_game"], mp["total"])
    )
    print(
        "full-card scoring, median of 7 x %d: MicroPython %.2f us, CPython %.2f us (ratio %.1fx)"
        % (_N, mp["score_us"], cpython_us, mp["score_us"] / cpython_us)
    )

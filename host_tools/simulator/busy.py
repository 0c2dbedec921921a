"""The simulator's busy mode: how much device time the unix port's work stands for.

The firmware's work costs no virtual time in a plain simulator run. In busy mode
(``sim --busy-time``, ``SimDevice(busy=ratio())``) the sim board charges each stretch of
work between two waits: the unix port's time for it (wall clock less the time the process
waited for a CPU, boards/sim_busy.BusyMeter) times the ratio below, plus the bus and flash times from
the datasheets (boards/sim.py, boards/sim_busy.py).

The ratio is calibrated against the chip: ``Advisor()`` construction (the strategy
table's set-up, the longest single piece of work the firmware does) took
``CHIP_ADVISOR_INIT_MS`` on MicroPython 1.28 in rp2040js (docs/figures.md, chip rows); here
it runs 5 times in the unix port under the same meter; chip / the fastest host run is
the ratio. The
advisor's turn (``prepare`` + ``options`` on 7 cards, the workload of
host_tools/benches/chip.py, 63.1 ms median on the chip) gives a second ratio that
``make bench`` prints as the check (a turn is a fraction of a host millisecond: noisier).
The host's speed drifts (other load, clock changes): each sim start times a fixed
reference work (``BusyMeter.reference``) and scales the ratio by it. The calibration runs once per checkout and host speed and is cached in
build/ (a few seconds; it needs build/strategy-forced.bin, which the simulator builds).
"""

import json
import os

import host_tools

CHIP_ADVISOR_TURN_MS = 63.1  # median of 7 cards, emulated RP2040 at 125 MHz
CHIP_ADVISOR_INIT_MS = 853.0
CACHE = os.path.join(host_tools.REPO, "build", "busy-ratio.json")

_WORKLOAD = """
import gc, rules, strategy_advisor, strategy_table
from boards.sim_busy import BusyMeter
meter = BusyMeter("100")
print('REF', meter.reference())
r = rules.make_ruleset()
table = strategy_table.StrategyTable(open('%s', 'rb'))
for rep in range(5):
    adv = None
    gc.collect()
    meter.restart()
    adv = strategy_advisor.Advisor(r, table)
    print('INIT', meter.host_us())
codes = [0] * 32
values = [0] * 32
for rep in range(10):
    card = rules.new_card()
    times = []
    for box in range(7):
        card[box] = box + 1
        meter.restart()
        adv.prepare(card)
        adv.options([1, 2, 3, 4, 5], 2, codes, values)
        times.append(meter.host_us())
    print('TURN', ' '.join(str(x) for x in times))
"""


def measure(table):
    """{"init_us": host us of Advisor(), the fastest of 5 (noise only adds, as the bench's
    stretches count their fastest run), "turn_us": the mean of a turn (70 cards)}."""
    proc = host_tools.run_micropython(["-c", _WORKLOAD % table], heap="256K", timeout=300)
    if proc.returncode != 0:
        raise RuntimeError("busy calibration failed: %s" % (proc.stdout + proc.stderr)[-500:])
    turns, inits = [], []
    for line in proc.stdout.splitlines():
        words = line.split()
        if words and words[0] == "REF":
            ref = int(words[1])
        elif words and words[0] == "INIT":
            inits.append(int(words[1]))
        elif words and words[0] == "TURN":
            turns += [int(w) for w in words[1:]]
    # the mean: a turn is about a ms, the CPU clock's step, so one turn may be off by it
    return {"init_us": min(inits), "turn_us": sum(turns) / len(turns), "ref_us": ref}


def calibrate(refresh=False):
    """The cached calibration (measured when missing): host figures and the ratio x 100."""
    if not refresh and os.path.exists(CACHE):
        with open(CACHE) as f:
            return json.load(f)
    host_tools.use_firmware()
    import rules

    from host_tools.solver import files as solver_files

    table = solver_files.ensure_table(rules.make_ruleset(), folder=solver_files.BUILD, prog="sim")
    with host_tools.build_lock(CACHE):  # one measurement at a time: two would slow each other
        if not refresh and os.path.exists(CACHE):
            with open(CACHE) as f:
                return json.load(f)
        found = measure(os.path.abspath(table))
        found["ratio"] = int(round(CHIP_ADVISOR_INIT_MS * 1000 * 100 / found["init_us"]))
        found["turn_ratio"] = int(round(CHIP_ADVISOR_TURN_MS * 1000 * 100 / found["turn_us"]))
        host_tools.write_file_atomic(CACHE, json.dumps(found).encode())  # never read half-written
    return found


def ratio():
    """The sim board's ``busy=R:REF``: chip time per unix-port time x 100, and the host
    time of the reference work then (the board rescales R by the host's speed now)."""
    found = calibrate()
    return "%d:%d" % (found["ratio"], found["ref_us"])

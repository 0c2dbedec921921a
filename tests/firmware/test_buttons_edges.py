"""Buttons from pin-interrupt edges, inside MicroPython: presses made while the main loop is
busy (no poll for a long stretch) all count, in order, once; the handler allocates nothing.

Each scenario feeds edges (ms, button, pressed) through ``on_edge`` as a pin interrupt
would (the fake pin's level changes, then the handler runs with the clock at that ms), and
polls only at the given poll times (the frame loop between busy stretches).
"""

import random

import pytest

from helpers.drivers_run import run_on_micropython

RIG = """
import micropython
from drivers.buttons import Buttons, NO_EVENT

class IrqPin:
    def __init__(self):
        self.level = 1
        self.handler = None
    def value(self):
        return self.level
    def irq(self, handler=None, trigger=0, hard=False):
        self.handler = handler

now = [0]
def clock():
    return now[0]

def run(name, edges, polls, locked=False, edge_slots=64, start=True):
    pins = [IrqPin() for _ in range(10)]
    b = Buttons(pins, clock=clock, edges=edge_slots)
    if start:
        b.start(3)
    got = []
    todo = sorted([(t, 0, x, y) for t, x, y in edges] + [(t, 1, 0, 0) for t in polls])
    for t, kind, button, pressed in todo:
        now[0] = t
        if kind == 0:
            pin = pins[button]
            pin.level = 0 if pressed else 1
            if pin.handler is not None:
                if locked:
                    micropython.heap_lock()
                try:
                    pin.handler(pin)
                finally:
                    if locked:
                        micropython.heap_unlock()
        else:
            b.poll(t)
            e = b.get()
            while e != NO_EVENT:
                got.append(e)
                e = b.get()
    print("RUN", name, repr(got), b.dropped, b.edges_lost)
"""


def taps(spec):
    """[(start, length, button, bounce)] -> edges, with ``bounce`` ms of chatter at each end."""
    edges = []
    for start, length, button, bounce in spec:
        if bounce:
            edges += [(start, button, 1), (start + 1, button, 0), (start + bounce, button, 1)]
            end = start + length
            edges += [(end, button, 0), (end + 1, button, 1), (end + bounce, button, 0)]
        else:
            edges += [(start, button, 1), (start + length, button, 0)]
    return edges


def storm(seed, n=60):
    """Random taps of 20-150 ms on random buttons, never overlapping on one button."""
    rng = random.Random(seed)
    spec, free = [], [0] * 10
    t = 10
    for _ in range(n):
        button = rng.randrange(10)
        length = rng.randrange(20, 151)
        start = max(t, free[button] + 30)
        spec.append((start, length, button, rng.choice((0, 0, 2))))
        free[button] = start + length + 3
        t = start + rng.randrange(5, 60)
    return spec


def expected(spec):
    """The SHORT events in the order their releases settled (the last edge of a release;
    releases in the same ms: the lower button id first, as the driver does)."""
    return [button for _end, button in sorted(((s + length + bounce, b) for s, length, b, bounce in spec))]


TAPS = [(100 + 200 * i, length, i % 10, 2 if i % 2 else 0) for i, length in enumerate((20, 25, 40, 60, 80, 100, 150))]
STORM = storm(20)


@pytest.fixture(scope="module")
def runs():
    end = STORM[-1][0] + 500
    script = RIG + "\n".join(
        [
            # one busy stretch of 1.6 s: no poll between 0 and 1700 ms
            "run('busy', %r, [0, 1700])" % taps(TAPS),
            # the same, with the heap locked around every handler call
            "run('locked', %r, [0, 1700], locked=True)" % taps(TAPS),
            # a storm with polls only every 200 ms (stretches of work between frames)
            "run('storm', %r, list(range(0, %d, 200)) + [%d])" % (taps(STORM), end, end),
            # an edge ring of 3: edges are lost, the level reading repairs what it can see
            "run('tiny', %r, [0, 50, 100, 150, 200, 700, 800], edge_slots=3)"
            % [(10, 5, 1), (60, 5, 0), (70, 6, 1), (71, 6, 0), (72, 6, 1), (73, 6, 0), (74, 6, 1), (74, 7, 1)],
            # without interrupts (stopped): plain polling loses the tap inside the stretch
            "run('stopped', %r, [0, 1700], start=False)" % taps(TAPS),
        ]
    )
    found = {}
    for line in run_on_micropython(script):
        if line.startswith("RUN "):
            _tag, name, rest = line.split(" ", 2)
            events, dropped, lost = rest.rsplit(" ", 2)
            found[name] = (eval(events), int(dropped), int(lost))
    return found


def test_taps_of_20_to_150_ms_inside_one_busy_stretch_all_count_in_order(runs):
    assert runs["busy"] == (expected(TAPS), 0, 0)


def test_the_edge_handler_allocates_nothing(runs):
    assert runs["locked"] == runs["busy"]


def test_a_random_tap_storm_between_rare_polls_counts_every_tap_once(runs):
    events, dropped, lost = runs["storm"]
    assert (events, dropped, lost) == (expected(STORM), 0, 0)


def test_a_full_edge_ring_counts_the_lost_edges_and_polling_repairs_the_levels(runs):
    events, _dropped, lost = runs["tiny"]
    assert lost > 0
    # ROLL's edges fit: its tap counts; UP and DOWN, still held at the 100 ms poll, are
    # read there (from 100 ms on: their LONG at 700 ms)
    assert events == [5, 6 | 0x10, 7 | 0x10]


def test_without_interrupts_a_tap_inside_a_busy_stretch_is_not_seen(runs):
    assert runs["stopped"][0] == []

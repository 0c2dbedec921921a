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

FALLING = 4  # rp2's Pin.IRQ_FALLING and IRQ_RISING
RISING = 8

class IrqPin:
    def __init__(self):
        self.level = 1
        self.handler = None
        self.latched = 0
    def value(self):
        return self.level
    def irq(self, handler=0, trigger=0, hard=False):
        if handler != 0:
            self.handler = handler
        return self
    def flags(self):
        return self.latched

now = [0]
def clock():
    return now[0]

def interrupt(pin, locked):
    if locked:
        micropython.heap_lock()
    try:
        pin.handler(pin)
    finally:
        if locked:
            micropython.heap_unlock()
    pin.latched = 0

def run(name, edges, polls, locked=False, edge_slots=0, start=True, windows=(), guarded=False):
    # ``windows``: (from, to) ms with the interrupts off (a flash erase): edges inside
    # are latched, and each pin's handler runs once at ``to`` (rp2's GPIO interrupt);
    # ``guarded``: the board's filesystem brackets each with flash_begin / flash_end.
    pins = [IrqPin() for _ in range(10)]
    b = Buttons(pins, clock=clock, edges=edge_slots) if edge_slots else Buttons(pins, clock=clock)
    if start:
        b.start(FALLING, RISING)
    got = []
    # the main loop does not poll while it writes the flash
    polls = [t for t in polls if not [w for w in windows if w[0] <= t < w[1]]]
    todo = sorted([(t, 0, x, y) for t, x, y in edges] + [(t, 1, 0, 0) for t in polls]
                  + [(w[1], -1, 0, 0) for w in windows] + [(w[0], -2, 0, 0) for w in windows if guarded])
    for t, kind, button, pressed in todo:
        now[0] = t
        if kind == -2:
            b.flash_begin(t)
        elif kind == -1:
            for pin in pins:
                if pin.latched and pin.handler is not None:
                    interrupt(pin, locked)
            if guarded:
                b.flash_end(t)
        elif kind == 0:
            pin = pins[button]
            pin.level = 0 if pressed else 1
            pin.latched |= FALLING if pressed else RISING
            off = False
            for w in windows:
                if w[0] <= t < w[1]:
                    off = True
            if pin.handler is not None and not off:
                interrupt(pin, locked)
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


# Presses around flash erases (interrupts off, 45 ms): (start, length, button, bounce) and
# the windows: a 20 ms and a 40 ms tap wholly inside one, one with chatter inside, a press
# that begins inside and ends after, one that ends inside, and a window that ends in the
# chatter of a press beginning (the pin bounced back up as it ended); then a button let go
# and pressed again inside one.
ERASE_TAPS = [(100, 20, 1, 0), (300, 40, 8, 0), (500, 20, 2, 2), (700, 80, 5, 0), (900, 60, 6, 0), (1100, 60, 7, 2)]
ERASE_TAPS += [(1200, 60, 3, 0), (1280, 60, 3, 0)]
ERASES = [(99, 145), (299, 345), (499, 545), (699, 745), (950, 995), (1050, 1102), (1250, 1295)]
# Bracketed by the filesystem, the driver knows when each erase began: also a 20 ms tap
# that starts 15 ms before an erase ends (stamped at its end it was 5 ms long), and a press
# whose first bounce falls in a page program (2 ms): one press, not a tap and a press.
GUARDED_TAPS = ERASE_TAPS + [(1395, 20, 4, 0), (1600, 60, 9, 2)]
GUARDED = ERASES + [(1380, 1410), (1600, 1602)]
# The boot's imports: 581 ms without a poll on the emulated chip; taps at 25 a second
# with 2 ms of bounce at each end (6 edges a tap) all through it.
BOOT_STORM = [(10 + 40 * i, 20, i % 2, 2) for i in range(15)]
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
            # the boot: no poll for 600 ms
            "run('boot', %r, [0, 620, 700])" % taps(BOOT_STORM),
            # taps inside flash erases, their edges latched: polled once, and every 50 ms
            "run('erase', %r, [0, 1400], windows=%r)" % (taps(ERASE_TAPS), ERASES),
            "run('erase-polled', %r, list(range(0, 1450, 50)), windows=%r)" % (taps(ERASE_TAPS), ERASES),
            "run('erase-locked', %r, [0, 1400], windows=%r, locked=True)" % (taps(ERASE_TAPS), ERASES),
            # the same and more with the flash calls bracketed (boards/hardware.FlashGuard)
            "run('guarded', %r, [0, 1800], windows=%r, guarded=True)" % (taps(GUARDED_TAPS), GUARDED),
            "run('guarded-polled', %r, list(range(0, 1850, 50)), windows=%r, guarded=True)"
            % (taps(GUARDED_TAPS), GUARDED),
            "run('guarded-locked', %r, [0, 1800], windows=%r, guarded=True, locked=True)"
            % (taps(GUARDED_TAPS), GUARDED),
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


def test_taps_inside_flash_erases_count_once_in_order(runs):
    """rp2 turns the interrupts off while it erases a flash sector (about 45 ms): a 20 or
    40 ms tap made then has both edges latched when the handler runs, the pin at rest
    again. The handler records what was latched, so each press counts once, in order,
    whether the tap fits inside an erase, begins or ends in one, or an erase ends in the
    chatter of a press beginning, or a button is let go and pressed again inside one.
    (Reading the level instead lost the three taps inside and the second press.)"""
    want = ([1, 8, 2, 5, 6, 7, 3, 3], 0, 0)
    assert runs["erase"] == want
    assert runs["erase-polled"] == want
    assert runs["erase-locked"] == want  # and the handler allocates nothing


def test_taps_around_bracketed_flash_calls_count_once_in_order(runs):
    """With each flash call bracketed (flash_begin / flash_end, boards/hardware.FlashGuard) the
    driver places the latched edges inside the call: the same taps count, and so does a
    20 ms tap that starts 15 ms before an erase ends (only 5 ms of it came after), while
    a bounce inside a short page program is no press of its own."""
    want = ([1, 8, 2, 5, 6, 7, 3, 3, 4, 9], 0, 0)
    assert runs["guarded"] == want
    assert runs["guarded-polled"] == want
    assert runs["guarded-locked"] == want


def test_a_storm_through_the_boots_longest_stretch_fits_the_edge_ring(runs):
    """25 bouncy taps a second through the 581 ms the boot's imports take on the chip
    without a poll: 90 edges, every tap once, in order (a ring of 64 lost them)."""
    assert runs["boot"] == (expected(BOOT_STORM), 0, 0)

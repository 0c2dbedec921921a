"""Debounced buttons with a latched event queue, from pin-interrupt edges or from polling.

Edges: ``on_edge(pin)`` is a pin interrupt handler (the board attaches it to every pin,
``start``/``stop``): it records the button, the edge and ``ticks_ms()`` in an edge ring
made once, and allocates nothing, as a hard IRQ requires. The edge is what the hardware
latched (``pin.irq().flags()``), not the level when the handler runs: rp2 turns the
interrupts off while it erases or programs the flash (45 ms for a sector), and a tap made
meanwhile has both its edges latched by the time the handler runs, the pin back at rest.
Both edges latched and the pin back at rest is a whole tap: it counts as a press that was
stable and whose release settles from then; both latched and the pin held again is a
release (its press ends there) and a new press that settles from then; both latched and
the pin at its other level is one change with its contact chatter. The edges of several
buttons latched in one wait come in pin order: the hardware keeps no order among them.
(A pin without flags is read as before.)

Flash writes: the board's filesystem brackets every call that may erase or program the
flash with ``flash_begin(t0)`` and ``flash_end(t1)`` (boards/hardware.FlashGuard). In between
the handler only collects each button's edges, as the hardware latches them; at the end
they are placed in [t0, t1] with the benefit of the doubt: a change as early as the
level before it allows (that level counts once stable for the debounce time), a level
that came and went inside lasting until t1. So a tap wholly inside an erase counts, and so
does one that starts in it and ends just after, which a stamp at t1 would cut below the
debounce time; a bounce inside a page program (under a ms) does not. ``poll(now_ms)`` (from the frame
loop) debounces from those recorded edges, so a press made while the firmware is busy
(a save, a computer's turn, a screen transfer) still counts with its own timing; it also
reads every pin once and treats a level the edges missed (edge ring full, interrupts
stopped) as an edge at ``now_ms``. Without interrupts the same reading is plain polling:
call ``poll`` about every 5 ms.

A pin's level counts only after it has been stable for ``debounce_ms``; contacts that
bounce keep restarting that wait. Events are ``button | kind``:
- SHORT is queued on release when the press was shorter than ``long_ms``;
- LONG is queued once when a press reaches ``long_ms``; its release queues nothing.
Press time runs from the edge that began the stable press, so debouncing does not
lengthen it, and a glitch shorter than the debounce time in the middle of a hold does not
restart it. Events from several buttons are queued in the order they became due.

Events latch in a ring buffer made once, so a tap between two frames is never lost. When
the queue is full the NEWEST event is dropped (and counted in ``dropped``): the queued
events stay a true prefix of what the player did, which is what a game can replay safely.
Both rings have one writer index and one reader index, so the interrupt handler and the
main loop never write the same index.
"""

from array import array
from micropython import const
from time import ticks_add, ticks_diff, ticks_ms

HOLD1 = const(0)
HOLD2 = const(1)
HOLD3 = const(2)
HOLD4 = const(3)
HOLD5 = const(4)
ROLL = const(5)
UP = const(6)
DOWN = const(7)
OK = const(8)
MENU = const(9)
N_BUTTONS = const(10)

SHORT = const(0x00)
LONG = const(0x10)
BUTTON_MASK = const(0x0F)
NO_EVENT = const(-1)

# Below 20 ms so that a 20 ms tap counts even with a little contact bounce; above the
# 5-15 ms most tactile switches take to settle.
_DEBOUNCE_MS = const(18)
_LONG_MS = const(600)
# Events wait here while the game takes none: longest as a game's table opens at Continue
# (its first turn waits for it), 1.5 s in the busy simulator's estimate, about 0.85 s on
# the emulated chip (16 held, 4-5 of 62 taps lost). At 25 taps a second, the fastest storm
# two hands make, that is 38 events: 64 bytes hold 2.5 s of it.
_QUEUE_SIZE = const(64)
# Edges recorded between two polls: the longest stretch without one is the boot's imports,
# 581 ms on the emulated chip, which a 25-a-second storm fills with 29 taps' edges, three
# times that with 2 ms of contact bounce. A full ring falls back on polling (taps lost).
_EDGES = const(128)
_DOWN_BIT = const(0x80)  # edge record: button id | _DOWN_BIT when the edge went to "pressed"
_BOTH_BIT = const(0x40)  # ... | _BOTH_BIT: both edges were latched (_DOWN_BIT: the pin ends pressed)

# Per-button flags in one byte: the raw level last seen, the debounced state, and whether
# this press has already been reported (LONG sent, or swallowed by clear()).
_RAW = const(1)
_PRESSED = const(2)
_REPORTED = const(4)


class Buttons:
    """``pins``: Pin-like objects with ``value()`` in button-id order (HOLD1 first).

    ``active`` is the level that means "pressed": 0 for switches to GND with pull-ups.
    ``clock``: the ticks_ms the edge handler stamps edges with (the board's clock).
    """

    def __init__(
        self,
        pins,
        active=0,
        debounce_ms=_DEBOUNCE_MS,
        long_ms=_LONG_MS,
        queue_size=_QUEUE_SIZE,
        clock=ticks_ms,
        edges=_EDGES,
    ):
        if len(pins) > BUTTON_MASK + 1:
            raise ValueError("at most 16 buttons")
        if queue_size < 1 or edges < 1:
            raise ValueError("queue_size and edges must be >= 1")
        self._pins = pins
        self._active = active
        self._debounce_ms = debounce_ms
        self._long_ms = long_ms
        self._clock = clock
        n = len(pins)
        self._flags = bytearray(n)  # all released until proven otherwise by poll()
        self._since = [0] * n  # ticks of the last raw edge
        self._down_at = [0] * n  # ticks of the edge that began the current debounced press
        self._queue = bytearray(queue_size + 1)  # one slot stays free: full != empty
        self._head = 0  # next event to get; only get()/clear() move it
        self._tail = 0  # next free slot; only poll() moves it
        self.dropped = 0
        self._edge_id = bytearray(edges + 1)
        self._edge_at = array("H", bytes(2 * (edges + 1)))  # ticks_ms's low 16 bits: read within 32 s
        self._edge_head = 0  # only poll() moves it
        self._edge_tail = 0  # only on_edge() moves it
        self.edges_lost = 0  # edges that found the ring full (poll's reading repairs them)
        self._attached = None  # (trigger, hard) while the board's interrupts are on
        self._to_down = 0  # the interrupt flag of an edge to "pressed" (start)
        self._both = 0  # both edges' flags
        self._flashing = False  # between flash_begin and flash_end: edges are collected ...
        self._late = bytearray(n)  # ... here, as interrupt flags per button
        self._late_at = array("i", [0] * n)
        self._flash_from = 0
        self.on_edge = self._on_edge  # one bound method, made once: the handler to attach

    # ------------------------------------------------------------ interrupt side
    def _on_edge(self, pin):
        pins = self._pins
        i = 0
        n = len(pins)
        while i < n and pins[i] is not pin:
            i += 1
        if i == n:
            return
        tail = self._edge_tail
        after = tail + 1
        if after >= len(self._edge_id):
            after = 0
        both = self._both
        flags = pin.irq().flags() if both else 0
        if self._flashing:
            if not flags:
                flags = self._to_down if pin.value() == self._active else both ^ self._to_down
            self._late[i] |= flags
            return
        if after == self._edge_head:
            self.edges_lost += 1
            return
        if both and flags & both == both:
            record = i | _BOTH_BIT | (_DOWN_BIT if pin.value() == self._active else 0)
        elif flags:
            record = i | _DOWN_BIT if flags & self._to_down else i
        else:
            record = i | _DOWN_BIT if pin.value() == self._active else i
        self._edge_id[tail] = record
        self._edge_at[tail] = self._clock() & 0xFFFF
        self._edge_tail = after  # publish only once the slot is written

    def start(self, falling, rising, hard=True):
        """Attach ``on_edge`` to every pin for both edges (the board's Pin.IRQ_FALLING and
        Pin.IRQ_RISING, which its ``pin.irq().flags()`` report); a pin with a handler also
        wakes rp2 from a timed lightsleep."""
        self._to_down = falling if self._active == 0 else rising
        self._both = falling | rising
        for pin in self._pins:
            pin.irq(handler=self.on_edge, trigger=falling | rising, hard=hard)
        self._attached = (falling | rising, hard)

    def flash_begin(self, now_ms):
        """A flash erase or program may start now: the interrupts may be off until
        ``flash_end``, and an edge's time is known only to lie in between."""
        self._flash_from = now_ms
        self._flashing = True

    def flash_end(self, now_ms):
        """The flash call is over: each button's edges collected since ``flash_begin`` are
        placed in that time (see the module's docstring), after the edges recorded before."""
        tail = self._edge_tail  # no record is written while flashing
        self._flashing = False
        self._drain(tail, now_ms)
        late = self._late
        flags = self._flags
        at = self._late_at
        t0 = self._flash_from
        for i in range(len(late)):
            if late[i]:
                a = ticks_add(self._since[i], self._debounce_ms)  # the level before counts
                if ticks_diff(a, t0) < 0:
                    a = t0
                if ticks_diff(a, now_ms) > 0:
                    a = now_ms
                at[i] = a
        both = self._both
        back = 0  # buttons whose level came and went: it ends at now_ms
        while True:  # each button's first change, earliest first (events keep their order)
            best = -1
            for i in range(len(late)):
                if late[i] and (best < 0 or ticks_diff(at[i], at[best]) < 0):
                    best = i
            if best < 0:
                break
            f = late[best]
            late[best] = 0
            raw = 1 if self._pins[best].value() == self._active else 0
            if raw != flags[best] & _RAW:
                self._edge(best, raw, at[best])  # one change (and any chatter)
            elif f & both == both:
                self._edge(best, 1 - raw, at[best])  # there and back again
                back |= 1 << best
        for i in range(len(late)):
            if back >> i & 1:
                self._edge(i, 1 - (flags[i] & _RAW), now_ms)

    def stop(self):
        """Detach the handlers (safe mode: the REPL gets the pins back); polling still works."""
        if self._attached is not None:
            for pin in self._pins:
                pin.irq(handler=None)
            self._attached = None

    def edges_pending(self):
        """Whether edges were recorded that ``poll`` has not read yet (a press while asleep)."""
        return self._edge_head != self._edge_tail

    # ------------------------------------------------------------ main-loop side
    def poll(self, now_ms):
        """Debounce the recorded edges, read every pin once; queue what became due by ``now_ms``."""
        self._drain(self._edge_tail, now_ms)
        pins = self._pins
        flags = self._flags
        active = self._active
        for i in range(len(pins)):
            raw = 1 if pins[i].value() == active else 0
            if raw != flags[i] & _RAW:
                self._edge(i, raw, now_ms)
        self._settle(now_ms)

    def _drain(self, tail, now_ms):
        """Debounce the recorded edges up to the ring position ``tail`` (their times are
        the low 16 bits of ticks_ms, none more than 32 s from ``now_ms``)."""
        ids = self._edge_id
        at = self._edge_at
        size = len(ids)
        head = self._edge_head
        low = now_ms & 0xFFFF
        while head != tail:
            record = ids[head]
            ago = (low - at[head]) & 0xFFFF
            t = ticks_add(now_ms, 0x10000 - ago if ago >= 0x8000 else -ago)
            if record & _BOTH_BIT:
                self._both_edges(record & BUTTON_MASK, 1 if record & _DOWN_BIT else 0, t)
            else:
                self._edge(record & BUTTON_MASK, 1 if record & _DOWN_BIT else 0, t)
            head += 1
            if head >= size:
                head = 0
            self._edge_head = head

    def _edge(self, i, raw, t):
        flags = self._flags
        if raw == flags[i] & _RAW:
            return  # a repeat of the level already known (a bounce read late)
        self._settle(t)
        flags[i] = (flags[i] & ~_RAW) | raw
        self._since[i] = t

    def _both_edges(self, i, raw, t):
        """Both edges latched while the interrupts waited, the pin now at ``raw``."""
        if raw != self._flags[i] & _RAW:
            self._edge(i, raw, t)  # one change; its chatter latched the other edge
            return
        self._settle(t)
        flags = self._flags
        f = flags[i]
        if not raw and not f & _PRESSED:
            flags[i] = f | _PRESSED  # a whole tap inside the wait: its press was stable ...
            self._down_at[i] = t
        elif raw and f & _PRESSED:
            if not f & _REPORTED:  # let go and pressed again: the press ends here ...
                self._push(i | SHORT)
            flags[i] = f & ~(_PRESSED | _REPORTED)  # ... and the next one settles from now
        self._since[i] = t  # ... and its release settles from now (chatter restarts a wait)

    def _settle(self, t):
        """Apply every transition due by ``t``, earliest first (so events keep their order)."""
        flags = self._flags
        since = self._since
        down_at = self._down_at
        debounce = self._debounce_ms
        long_ms = self._long_ms
        while True:
            best = -1
            best_late = -1
            for i in range(len(flags)):
                f = flags[i]
                if (f & _RAW != 0) != (f & _PRESSED != 0):
                    late = ticks_diff(t, since[i]) - debounce
                elif f & _PRESSED and not f & _REPORTED:
                    late = ticks_diff(t, down_at[i]) - long_ms
                else:
                    continue
                if late > best_late:  # the most overdue went due first
                    best = i
                    best_late = late
            if best < 0:
                return
            f = flags[best]
            if (f & _RAW != 0) != (f & _PRESSED != 0):
                if f & _RAW:
                    flags[best] = f | _PRESSED
                    down_at[best] = since[best]
                else:
                    if not f & _REPORTED:
                        self._push(best | SHORT)
                    flags[best] = f & ~(_PRESSED | _REPORTED)
            else:
                self._push(best | LONG)
                flags[best] = f | _REPORTED

    def _push(self, event):
        tail = self._tail
        after = tail + 1
        if after >= len(self._queue):
            after = 0
        if after == self._head:
            self.dropped += 1
            return
        self._queue[tail] = event
        self._tail = after  # publish only once the slot is written

    def get(self):
        """The oldest queued event, or -1 when there is none."""
        head = self._head
        if head == self._tail:
            return NO_EVENT
        event = self._queue[head]
        head += 1
        self._head = 0 if head >= len(self._queue) else head
        return event

    def pending(self):
        """Number of queued events."""
        n = self._tail - self._head
        return n + len(self._queue) if n < 0 else n

    def settling(self):
        """Whether a poll is still due without a new edge: a level waiting out its
        debounce time, or a press that may still reach the long-press time."""
        flags = self._flags
        for i in range(len(flags)):
            f = flags[i]
            if (f & _RAW != 0) != (f & _PRESSED != 0) or (f & _PRESSED and not f & _REPORTED):
                return True
        return False

    def pressing(self):
        """Whether a press is in progress whose event has not come yet (held, debounced,
        not reported): the player is at the buttons though nothing is queued."""
        flags = self._flags
        for i in range(len(flags)):
            if flags[i] & (_PRESSED | _REPORTED) == _PRESSED:
                return True
        return False

    def pressed(self, button):
        """Debounced state of ``button`` now (e.g. ROLL held at power-on)."""
        return bool(self._flags[button] & _PRESSED)

    def clear(self, now_ms=None):
        """Drop queued events, and edges recorded up to ``now_ms`` (read first, so a press
        made while asleep is swallowed whole); buttons held now report nothing until
        released and pressed again."""
        if now_ms is not None:
            self.poll(now_ms)
        self._head = self._tail
        flags = self._flags
        for i in range(len(flags)):
            if flags[i] & _PRESSED:
                flags[i] |= _REPORTED

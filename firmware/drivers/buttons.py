"""Debounced buttons with a latched event queue, from pin-interrupt edges or from polling.

Edges: ``on_edge(pin)`` is a pin interrupt handler (the board attaches it to every pin,
``start``/``stop``): it records the button, its level and ``ticks_ms()`` in an edge ring
made once, and allocates nothing, as a hard IRQ requires. ``poll(now_ms)`` (from the frame
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
from time import ticks_diff, ticks_ms

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
_QUEUE_SIZE = const(16)
_EDGES = const(64)  # a few bouncy presses per busy stretch; a full ring falls back on polling
_DOWN_BIT = const(0x80)  # edge record: button id | _DOWN_BIT when the edge went to "pressed"

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
        self._edge_at = array("i", [0] * (edges + 1))  # ticks_ms < 2**30: fits
        self._edge_head = 0  # only poll() moves it
        self._edge_tail = 0  # only on_edge() moves it
        self.edges_lost = 0  # edges that found the ring full (poll's reading repairs them)
        self._attached = None  # (trigger, hard) while the board's interrupts are on
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
        if after == self._edge_head:
            self.edges_lost += 1
            return
        self._edge_id[tail] = i | _DOWN_BIT if pin.value() == self._active else i
        self._edge_at[tail] = self._clock()
        self._edge_tail = after  # publish only once the slot is written

    def start(self, trigger, hard=True):
        """Attach ``on_edge`` to every pin for ``trigger`` (the board's Pin.IRQ_FALLING |
        Pin.IRQ_RISING); a pin with a handler also wakes rp2 from a timed lightsleep."""
        for pin in self._pins:
            pin.irq(handler=self.on_edge, trigger=trigger, hard=hard)
        self._attached = (trigger, hard)

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
        ids = self._edge_id
        at = self._edge_at
        size = len(ids)
        head = self._edge_head
        while head != self._edge_tail:
            record = ids[head]
            self._edge(record & BUTTON_MASK, 1 if record & _DOWN_BIT else 0, at[head])
            head += 1
            if head >= size:
                head = 0
            self._edge_head = head
        pins = self._pins
        flags = self._flags
        active = self._active
        for i in range(len(pins)):
            raw = 1 if pins[i].value() == active else 0
            if raw != flags[i] & _RAW:
                self._edge(i, raw, now_ms)
        self._settle(now_ms)

    def _edge(self, i, raw, t):
        flags = self._flags
        if raw == flags[i] & _RAW:
            return  # a repeat of the level already known (a bounce read late)
        self._settle(t)
        flags[i] = (flags[i] & ~_RAW) | raw
        self._since[i] = t

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

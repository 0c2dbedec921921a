"""Debounced, polled buttons with a latched event queue.

``poll(now_ms)`` is called about every 5 ms (from the frame loop or a timer). A pin's
level counts only after it has been stable for ``debounce_ms``; contacts that bounce keep
restarting that wait. Events are ``button | kind``:
- SHORT is queued on release when the press was shorter than ``long_ms``;
- LONG is queued once when a press reaches ``long_ms``; its release queues nothing.
Press time runs from the edge that began the stable press, so debouncing does not
lengthen it, and a glitch shorter than the debounce time in the middle of a hold does not
restart it.

Events latch in a ring buffer made once, so a tap between two frames is never lost. When
the queue is full the NEWEST event is dropped (and counted in ``dropped``): the queued
events stay a true prefix of what the player did, which is what a game can replay safely.
The ring has one writer index (``poll``) and one reader index (``get``), so ``poll`` may
run in a machine.Timer callback while the main loop calls ``get``; it allocates nothing, as
a hard IRQ would require (the tests only poll from the main context). ``clear`` should run
with that timer quiet, since it also touches the per-button state.
"""
from micropython import const
from time import ticks_diff

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

_DEBOUNCE_MS = const(25)  # tactile switch contacts typically settle within 5-20 ms
_LONG_MS = const(600)
_QUEUE_SIZE = const(16)

# Per-button flags in one byte: the raw level last seen, the debounced state, and whether
# this press has already been reported (LONG sent, or swallowed by clear()).
_RAW = const(1)
_PRESSED = const(2)
_REPORTED = const(4)


class Buttons:
    """``pins``: Pin-like objects with ``value()`` in button-id order (HOLD1 first).

    ``active`` is the level that means "pressed": 0 for switches to GND with pull-ups.
    """

    def __init__(self, pins, active=0, debounce_ms=_DEBOUNCE_MS, long_ms=_LONG_MS, queue_size=_QUEUE_SIZE):
        if len(pins) > BUTTON_MASK + 1:
            raise ValueError("at most 16 buttons")
        if queue_size < 1:
            raise ValueError("queue_size must be >= 1")
        self._pins = pins
        self._active = active
        self._debounce_ms = debounce_ms
        self._long_ms = long_ms
        n = len(pins)
        self._flags = bytearray(n)  # all released until proven otherwise by poll()
        self._since = [0] * n  # ticks of the last raw edge
        self._down_at = [0] * n  # ticks of the edge that began the current debounced press
        self._queue = bytearray(queue_size + 1)  # one slot stays free: full != empty
        self._head = 0  # next event to get; only get()/clear() move it
        self._tail = 0  # next free slot; only poll() moves it
        self.dropped = 0

    def poll(self, now_ms):
        """Sample every pin once; queue the events that became due at ``now_ms``."""
        pins = self._pins
        flags = self._flags
        since = self._since
        active = self._active
        for i in range(len(pins)):
            f = flags[i]
            raw = _RAW if pins[i].value() == active else 0
            if raw != f & _RAW:  # an edge: (re)start the stability wait
                flags[i] = (f & ~_RAW) | raw
                since[i] = now_ms
                continue
            stable_ms = ticks_diff(now_ms, since[i])
            if (raw != 0) != (f & _PRESSED != 0):  # raw differs from the debounced state
                if stable_ms >= self._debounce_ms:
                    if raw:
                        flags[i] = f | _PRESSED
                        self._down_at[i] = since[i]
                    else:
                        if not f & _REPORTED:
                            self._push(i | SHORT)
                        flags[i] = f & ~(_PRESSED | _REPORTED)
            elif f & _PRESSED and not f & _REPORTED and ticks_diff(now_ms, self._down_at[i]) >= self._long_ms:
                self._push(i | LONG)
                flags[i] = f | _REPORTED

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

    def pressed(self, button):
        """Debounced state of ``button`` now (e.g. ROLL held at power-on)."""
        return bool(self._flags[button] & _PRESSED)

    def clear(self):
        """Drop queued events; buttons held now report nothing until released and pressed again."""
        self._head = self._tail
        flags = self._flags
        for i in range(len(flags)):
            if flags[i] & _PRESSED:
                flags[i] |= _REPORTED

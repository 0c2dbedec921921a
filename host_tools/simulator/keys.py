"""Key scripts for the headless simulator: ``"enter space 1 hold:m:800 wait:500"``.

Names are the interactive keys (``1``..``5``, ``space``, ``up``, ``down``, ``enter``,
``m``); ``wait:MS`` lets virtual time pass, ``hold:NAME:MS`` holds a button for MS (a long
press; MS at most MAX_MS, an hour). A plain key is held PRESS_MS and released for GAP_MS, long enough for the
firmware's 25 ms debounce, short of its 600 ms long press.
"""

import bisect

from host_tools.simulator.backend import BUTTONS

PRESS_MS = 60
GAP_MS = 90
START_MS = 150  # first key after boot (the board is built and the splash is up by then)
# One wait or hold is at most an hour of virtual time (about a second to run while the
# device idles): a longer one is a typo, not a test.
MAX_MS = 3600 * 1000


class KeyScriptError(ValueError):
    """A key script that cannot be played; the message names the bad word."""


def parse(script, start_ms=START_MS):
    """[(from_ms, to_ms, button), ...] and the time the script ends."""
    presses = []
    t = start_ms
    for word in script.split():
        parts = word.split(":")
        try:
            if parts[0] == "wait" and len(parts) == 2:
                t += _ms(parts[1])
                continue
            if parts[0] == "hold" and len(parts) == 3:
                button = BUTTONS.index(parts[1])
                length = _ms(parts[2])
            elif len(parts) == 1:
                button = BUTTONS.index(word)
                length = PRESS_MS
            else:
                raise ValueError
        except ValueError:
            raise KeyScriptError(
                "bad key %r (use %s, wait:MS, hold:NAME:MS; MS up to %d)" % (word, " ".join(BUTTONS), MAX_MS)
            ) from None
        presses.append((t, t + length, button))
        t += length + GAP_MS
    return presses, t


def _ms(text):
    if not text.isdigit() or len(text) > 8:  # (int() would also take "1_000" and " 5")
        raise ValueError
    value = int(text)
    if value > MAX_MS:
        raise ValueError
    return value


def levels(presses):
    """A function ms -> button bit mask for the presses; its ``edges`` attribute lists the
    times the mask may change (a back-end can step from edge to edge). The mask between
    two edges is worked out once, so a script of thousands of keys stays fast."""
    edges = sorted({t for start, end, _ in presses for t in (start, end)})
    steps = {}  # edge -> [(button, +1 at a start / -1 at an end)]
    for start, end, button in presses:
        if start < end:
            steps.setdefault(start, []).append((button, 1))
            steps.setdefault(end, []).append((button, -1))
    down = {}  # button -> how many of its presses are on (presses may overlap)
    masks = []  # masks[i]: from edges[i] up to the next edge
    for t in edges:
        for button, step in steps.get(t, ()):
            down[button] = down.get(button, 0) + step
        masks.append(sum(1 << button for button, count in down.items() if count > 0))

    def at(ms):
        i = bisect.bisect_right(edges, ms)
        return masks[i - 1] if i else 0

    at.edges = edges
    return at


# The interactive front-end: a terminal reports key presses but no releases.
TAP_MS = 50  # a typed key is a press this long (past the firmware's 25 ms debounce) ...
TAP_GAP_MS = 40  # ... and the same button rests this long before its next queued tap
REPEAT_MS = 55  # the same key again sooner than this (real time) is terminal auto-repeat
HOLD_TAIL_MS = 120  # a key held by auto-repeat is let go this long after its last repeat


class KeyPresses:
    """Terminal keys -> button levels in virtual time, losing no press.

    Each key is a tap of TAP_MS; taps of one button that come faster than the firmware
    can see them are queued one after another (four quick DOWNs move the cursor four
    times). The same key repeating within REPEAT_MS is the terminal's auto-repeat of a
    held key: the button then stays pressed until the repeats stop, as a held button on
    the device (a long press after 600 ms). Humans do not tap one key faster than about
    every 60 ms; terminals repeat every 30-50 ms.
    """

    def __init__(self):
        self._spans = {}  # button -> [[from_ms, to_ms], ...] in virtual time, in order
        self._last = {}  # button -> real ms its key last arrived

    def key(self, button, now, arrived, length=TAP_MS):
        """Button ``button``'s key arrived at virtual ``now`` (real time ``arrived`` ms)."""
        spans = self._spans.setdefault(button, [])
        last = self._last.get(button)
        self._last[button] = arrived
        if spans and last is not None and 0 < arrived - last < REPEAT_MS and spans[-1][1] >= now:
            spans[-1][1] = max(spans[-1][1], now + HOLD_TAIL_MS)  # auto-repeat: still held
            return
        start = max(now, spans[-1][1] + TAP_GAP_MS) if spans else now
        spans.append([start, start + length])

    def mask(self, now):
        """The button bit mask at virtual ``now`` (spans that ended are forgotten)."""
        mask = 0
        for button, spans in self._spans.items():
            while spans and spans[0][1] <= now:
                spans.pop(0)
            if spans and spans[0][0] <= now:
                mask |= 1 << button
        return mask

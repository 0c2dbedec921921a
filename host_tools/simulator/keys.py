"""Key scripts for the headless simulator: ``"enter space 1 hold:m:800 wait:500"``.

Names are the interactive keys (``1``..``5``, ``space``, ``up``, ``down``, ``enter``,
``m``); ``wait:MS`` lets virtual time pass, ``hold:NAME:MS`` holds a button for MS (a long
press). A plain key is held PRESS_MS and released for GAP_MS, long enough for the
firmware's 25 ms debounce, short of its 600 ms long press.
"""
from host_tools.simulator.backend import BUTTONS

PRESS_MS = 60
GAP_MS = 90
START_MS = 150  # first key after boot (the board is built and the splash is up by then)


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
            raise KeyScriptError("bad key %r (use %s, wait:MS, hold:NAME:MS)" % (word, " ".join(BUTTONS))) from None
        presses.append((t, t + length, button))
        t += length + GAP_MS
    return presses, t


def _ms(text):
    value = int(text)
    if value < 0:
        raise ValueError
    return value


def levels(presses):
    """A function ms -> button bit mask for the presses; its ``edges`` attribute lists the
    times the mask may change (a back-end can step from edge to edge)."""

    def at(ms):
        mask = 0
        for start, end, button in presses:
            if start <= ms < end:
                mask |= 1 << button
        return mask

    at.edges = sorted({t for start, end, _ in presses for t in (start, end)})
    return at

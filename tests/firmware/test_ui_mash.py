"""Key mashing: all buttons at once, about 50 presses a second, contact bounce, long holds,
runs of OK alone.

Runs the real app and drivers inside MicroPython (sim board on a scripted loopback link,
virtual time). The firmware must never crash (the app only calls the game's API, which
raises on any illegal action, so a crash-free run means no illegal action was tried),
and every game state seen along the way must pass the engine's own consistency checks
(Game.from_state replays them in CPython: counters, cards, joker-legal points, bonuses).
"""

import json

import pytest

import game
from helpers.sim_helpers import run_probe

PROBE = r"""
import json
from boards import sim
import app

SEED = %d
state = [SEED * 2654435761 %% 4294967291 or 1]

def rnd(n):
    x = state[0]
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    state[0] = x
    return x %% n

current = [0, 0, 0]  # mask, slot end, hold end

def script(t):
    mask, slot_end, hold_end = current
    if t >= slot_end:
        pick = rnd(18)
        if pick >= 16:
            mask = 1 << 8  # OK alone: habitual double OKs (scoring takes two presses)
        elif pick == 0:
            mask = 0x3FF  # everything at once
        elif pick < 6:
            mask = 0
        elif pick < 8:
            pass  # keep pressing: presses longer than the debounce time
        elif pick == 8:
            mask = 1 << rnd(10)
            hold_end = t + 700  # a long press
        else:
            mask = (1 << rnd(10)) | ((1 << rnd(10)) if rnd(3) == 0 else 0)
        slot_end = t + 20  # a new pattern every 20 ms: 50 presses a second
    if t < hold_end:
        mask |= current[0] & 0x3FF
    current[0] = mask
    current[1] = slot_end
    current[2] = hold_end
    if rnd(5) == 0:
        return mask ^ (1 << rnd(10))  # contact bounce: one poll sees the other level
    return mask

link = sim.Loopback(script)
hw = sim.build({"link": link, "seed": str(SEED)})
a = app.App(hw, {})
games = 0
for chunk in range(%d):
    a.run(frames=500)
    g = a.game
    if g is not None:
        print("STATE", json.dumps(g.to_state()))
        if g.phase == 2:
            games += 1
print("SCREENS", a.screen, "GAMES", games, "DROPPED", hw.buttons.dropped)
print("DONE")
"""

CHUNKS = 40  # 40 x 500 frames x 5 ms = 100 s of mashing per seed


@pytest.mark.parametrize("seed", (1, 7))
def test_key_mashing_never_crashes_or_breaks_the_game(seed):
    proc = run_probe(PROBE % (seed, CHUNKS))  # the firmware as flashed, at the device heap
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "DONE"
    states = [json.loads(line[6:]) for line in lines if line.startswith("STATE ")]
    assert len(states) >= CHUNKS // 2  # mashing did start games
    rolled = 0
    for state in states:
        restored = game.Game.from_state(state, None)  # raises GameError if inconsistent
        assert restored.to_state() == state
        rolled += sum(1 for p in restored.players for box in p.card[:13] if box >= 0)
    assert rolled > 0  # boxes were really scored while mashing

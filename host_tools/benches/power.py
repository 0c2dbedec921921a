"""Saves as the device UI makes them: flash writes and bytes per game (1 and 4 players).

Plays whole games in the headless simulator (the real firmware under MicroPython, with
session.py saving after every action) and watches the flash folder after every frame:
each new save of ``data/game`` raises its slot's sequence number, so the count is exact
and the bytes are each new slot file's size. The records files written at the end of the
game (stats, rolls, high scores) are counted the same way. The solo game is a human who
rolls three times per turn with hold changes in between; the 4-player game is four
computer players. Also: how long the device sleeps between polls while blank.
"""
import os
import tempfile

from host_tools.simulator import golden as sim_golden
from host_tools.simulator import keys as sim_keys
from host_tools.simulator.unix_port import SimDevice

SOLO = sim_golden.SOLO + " space 1 2 space 3 space enter enter" * 13
FOUR_CPU = sim_golden.FOUR_CPUS
STORES = ("game", "stats", "rolls", "scores")
_SLEEP_POLL_MS = 50  # firmware/power.py


def _newest(folder, store):
    """(sequence, size) of the newest valid-looking slot of ``store``, (0, 0) if none."""
    best = (0, 0)
    for suffix in (".a", ".b"):
        path = os.path.join(folder, store + suffix)
        try:
            with open(path, "rb") as f:
                head = f.read(8)
            size = os.path.getsize(path)
        except OSError:
            continue
        if len(head) == 8 and head[:2] == b"YZ":
            best = max(best, (int.from_bytes(head[4:8], "little"), size))
    return best


def play(keys, after_end="enter enter enter enter", limit_ms=400000):
    """Plays ``keys``; once the records appear (the end screen), ``after_end`` (initials).
    Returns {store: [writes, bytes]}."""
    counts = {store: [0, 0] for store in STORES}
    seen = {store: 0 for store in STORES}
    with tempfile.TemporaryDirectory() as flash:
        data = os.path.join(flash, "data")
        device = SimDevice(seed=17, flash_dir=flash)
        presses, end = sim_keys.parse(keys)
        levels = sim_keys.levels(presses)
        finished_at = None
        try:
            while device.now < limit_ms:
                ms = device.next_wait()
                device.buttons = levels(device.now)
                device.answer(ms)
                for store in STORES:
                    seq, size = _newest(data, store)
                    if seq > seen[store]:
                        counts[store][0] += seq - seen[store]
                        counts[store][1] += size * (seq - seen[store])
                        seen[store] = seq
                if finished_at is None and seen["stats"] and device.now > end:
                    finished_at = device.now + 500
                    more, stop = sim_keys.parse(after_end, start_ms=finished_at)
                    presses += more
                    levels = sim_keys.levels(presses)
                    limit_ms = stop + 500
        finally:
            device.close()
    return counts


def report(label, counts):
    game_writes, game_bytes = counts["game"]
    print("%s: game saves %d (%d bytes, %d per save); records writes %s" % (
        label, game_writes, game_bytes, game_bytes // max(game_writes, 1),
        ", ".join("%s %d (%d B)" % (s, counts[s][0], counts[s][1]) for s in STORES[1:])))
    total = sum(c[0] for c in counts.values())
    print("  total per game: %d file writes, %d bytes" % (total, sum(c[1] for c in counts.values())))


def run():
    report("1 player (3 rolls, 3 hold changes per turn)", play(SOLO))
    report("4 computer players", play(FOUR_CPU, after_end="enter"))
    print("blank: one timed lightsleep of %d ms per poll, %d polls a minute" % (
        _SLEEP_POLL_MS, 60000 // _SLEEP_POLL_MS))


if __name__ == "__main__":
    run()

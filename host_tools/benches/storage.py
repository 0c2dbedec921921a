"""Saves: bytes and flash writes per game on littlefs, save/load time, encoding size.

Plays whole games with the real engine inside the MicroPython unix port, saving after
every action the device saves after (game start, roll-off, roll, each hold change,
score), then the end-of-game records and the clear. The store sits on littlefs v2
(``os.VfsLfs2``, 4096-byte blocks, progsize 256 as on the rp2 port, 1408 KiB like a Pico)
over a RAM flash that counts programs and erases. Times are the unix port on this host,
not an RP2040 (which is roughly 20-50x slower); counts and bytes carry over.
"""

import json
import os
import tempfile

import host_tools
from host_tools import fakes

SCRIPT = r"""
import os, time
import game as G, save_records, rules as R, save_session, save_store
from game_dice import DiceSource
from ram_flash import RamFlash  # host_tools/fakes: counts programs and erases

flash = RamFlash(352)
os.VfsLfs2.mkfs(flash, progsize=256)
os.mount(os.VfsLfs2(flash, progsize=256), "/flash")
recs = save_records.Records("/flash/data")
recs.load()
out = [0] * R.N_BOXES
times = []


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def play(n_players, seed, game_id):
    store = save_store.Store("/flash/data/game")
    dice = DiceSource(seed=seed)
    g = G.Game(R.make_ruleset(), [("P%d" % i, "human") for i in range(n_players)], dice)
    counts = [0] * 6
    stats = {"saves": 0, "bytes": 0, "max": 0}

    def save():
        value = {"id": game_id, "seed": dice.checkpoint(), "counts": counts, "game": g.to_state()}
        t = time.ticks_us()
        size = store.save(value)
        times.append(time.ticks_diff(time.ticks_us(), t))
        stats["saves"] += 1
        stats["bytes"] += size
        stats["max"] = max(stats["max"], size)

    save()
    while g.phase == G.ROLLOFF:
        g.rolloff()
        save()
    while g.phase != G.OVER:
        while True:
            g.roll()
            save_session.count_roll(counts, g.dice, g.held)
            save()
            if g.rolls == 3:
                break
            tally = [0] * 7
            for d in g.dice:
                tally[d] += 1
            face = tally.index(max(tally))
            want = 0
            for i in range(5):
                if g.dice[i] == face:
                    want |= 1 << i
            if want == G.ALL_HELD:
                break
            for i in range(5):
                if (g.held ^ want) >> i & 1:
                    g.toggle_hold(i)
                    save()
        g.options(out)
        best = 0
        for box in range(R.N_BOXES):
            if out[box] > out[best]:
                best = box
        g.score(best)
        save()
    results = [(p.name, g.total(i), p.card) for i, p in enumerate(g.players)]
    before = flash.prog_bytes
    recs.finish_game(game_id, results, counts)
    recs.add_high_score(results[0][1], "AAA", game_id, 0)
    store.clear()
    return stats, flash.prog_bytes - before


for players in (1, 2, 4):
    p0, b0, e0 = flash.progs, flash.prog_bytes, flash.erases
    stats, end_bytes = play(players, 1000 + players, players)
    print("game", players, stats["saves"], stats["bytes"], stats["max"], flash.progs - p0,
          flash.prog_bytes - b0, flash.erases - e0, end_bytes)
print("save_us", median(times))
store = save_store.Store("/flash/data/stats")
t = time.ticks_us()
for _ in range(20):
    store.load()
print("load_us", time.ticks_diff(time.ticks_us(), t) // 20)
import gc
sample = {"id": 7, "seed": 12345, "counts": [3] * 6, "game": G.Game(R.make_ruleset(), [("A", "human")] * 4, DiceSource(seed=1)).to_state()}
import sys
store = save_store.Store(sys.argv[1] + "/heap")  # the host filesystem: the RAM flash's Python reads would count too
store.save(sample)
for name, action in (("heap_save", lambda: store.save(sample)), ("heap_load", store.load)):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    action()
    print(name, gc.mem_alloc() - before)
    gc.enable()
data = bytes(range(200))
t = time.ticks_us()
for _ in range(50):
    save_store.crc32(data)
print("crc200_us", time.ticks_diff(time.ticks_us(), t) // 50)
"""


def _micropython_figures():
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "bench_storage_mp.py")
        with open(path, "w") as f:
            f.write(SCRIPT)
        proc = host_tools.run_micropython([path, folder], heap="4M", extra_path=(fakes.FOLDER,))
    if proc.returncode != 0:
        raise RuntimeError("MicroPython bench failed:\n" + proc.stdout + proc.stderr)
    return proc.stdout.splitlines()


def _encoding_sizes():
    host_tools.use_firmware()
    import game as G
    import rules as R
    import save_store
    from game_dice import DiceSource

    dice = DiceSource(seed=7)
    g = G.Game(R.make_ruleset(), [("ANN", "human"), ("BOB", "human"), ("CPU", "hard"), ("DAN", "human")], dice)
    while g.phase == G.ROLLOFF:
        g.rolloff()
    out = [0] * R.N_BOXES
    for _ in range(4 * 7):  # seven rounds in
        g.roll()
        g.options(out)
        g.score(max(range(R.N_BOXES), key=lambda b: out[b]))
    g.roll()
    value = {"id": 123456789, "seed": dice.checkpoint(), "counts": [30, 31, 29, 33, 28, 30], "game": g.to_state()}
    packed = len(save_store.pack(value, 1))
    as_json = len(json.dumps(value, separators=(",", ":")))
    return packed, as_json


def run():
    lines = _micropython_figures()
    print("per game (littlefs, 4096-byte blocks, progsize 256, 1408 KiB):")
    print("  players  saves  file bytes  max file  flash programs  programmed bytes  block erases  records+clear bytes")
    for line in lines:
        parts = line.split()
        if parts[0] == "game":
            n, saves, size, biggest, progs, prog_bytes, erases, end = (int(x) for x in parts[1:])
            print(
                "  %7d  %5d  %10d  %8d  %14d  %16d  %12d  %19d"
                % (n, saves, size, biggest, progs, prog_bytes, erases, end)
            )
    figures = dict(line.split() for line in lines if not line.startswith("game"))
    print(
        "median save %s us, load %s us, CRC-32 of 200 bytes %s us (unix port on this host)"
        % (figures["save_us"], figures["load_us"], figures["crc200_us"])
    )
    print(
        "heap allocated (garbage) by one 4-player game save: %s bytes, load: %s bytes"
        % (figures["heap_save"], figures["heap_load"])
    )
    packed, as_json = _encoding_sizes()
    print(
        "4-player game, round 8, one save: %d bytes framed vs %d bytes of compact JSON (%.0f%%)"
        % (packed, as_json, 100.0 * packed / as_json)
    )

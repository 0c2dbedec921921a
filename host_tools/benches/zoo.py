"""The kids' Zoo card: solver time and optimum, table sizes beside the standard table on a
Pico's filesystem, and simulated games of the computer levels and the simple strategy.

Sizes are counted in littlefs blocks (4096 bytes, as on the rp2 port) against the
Pico's 1408 KiB filesystem: the compiled firmware (what ``flash`` puts there), the
standard exact table and the Zoo exact table together.
"""

import math
import os
import random
import tempfile
import time

import host_tools

host_tools.use_firmware()
import seats  # noqa: E402
import game  # noqa: E402
import rules  # noqa: E402
import seat_levels as P  # noqa: E402

from host_tools.flashing import build as flash_build  # noqa: E402
from host_tools.solver import core as solver_core  # noqa: E402
from host_tools.solver import simulate as solver_sim  # noqa: E402
from host_tools.solver import table as solver_table  # noqa: E402

GAMES = int(os.environ.get("BENCH_ZOO_GAMES", "2000"))
PICO_FS_KIB = 1408
STANDARD_EXACT = 908720  # bytes, docs/strategy_table.md (format 3)


def _mean_sd(values):
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    return mean, sd


def simple_game(ruleset, seed):
    """One solo game of seats.py's simple strategy (the strategy without a table)."""
    g = game.Game(ruleset, [("C", "cpu")], random.Random(seed))
    options = [0] * rules.N_BOXES
    while g.phase != game.OVER:
        card = g.players[0].card
        g.roll()
        while True:
            mask = seats.simple_hold(ruleset, card, g.dice, g.rolls)
            if mask < 0:
                g.score(seats.simple_box(ruleset, card, g.dice, g.options(options)))
                break
            g.set_held(mask)
            g.roll()
    return g.total(0)


def run():
    ruleset = rules.make_ruleset(rules.ZOO)
    start = time.time()
    dense, _tables, space = solver_core.solve(ruleset)
    print("zoo solver: %d states, expected %.7f, %.2f s wall" % (space.count, dense[0], time.time() - start))
    exact = solver_table.encode(dense, space, ruleset, "exact")
    compact = solver_table.encode(dense, space, ruleset, "compact")
    print(
        "zoo table: exact %d bytes (%.1f KiB), compact %d bytes (%.1f KiB)"
        % (len(exact), len(exact) / 1024, len(compact), len(compact) / 1024)
    )
    from host_tools.flashing import bundle, device, fs_image, uf2

    layout = uf2.LAYOUTS[0]  # RPI_PICO
    standard = flash_build.DeviceFile("/strategy-forced.bin", bytes(STANDARD_EXACT))  # only its size counts
    zoo = flash_build.DeviceFile("/strategy-zoo.bin", exact)
    arch = next(iter(layout.families.values()))
    files = bundle.device_files(host_tools.REPO, arch, "pico", "forced", standard, [zoo])
    _image, _touched, free = fs_image.build(files, layout.block_count)
    print(
        "on a Pico's littlefs: board pico's game (%s .mpy, %d bytes) + the standard exact table (%d KiB) + the zoo "
        "exact table (%d KiB), no spread table: %d KiB free of %d KiB"
        % (
            arch,
            sum(len(f.data) for f in files if not f.path.endswith(".bin") and f.path != device.MANIFEST),
            STANDARD_EXACT // 1024,
            len(exact) // 1024,
            free // 1024,
            PICO_FS_KIB,
        )
    )
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "strategy-zoo.bin")
        with open(path, "wb") as f:
            f.write(exact)
        for level in range(len(P.LEVELS)):
            mean, lost, totals = solver_sim.play_games(path, ruleset, level, GAMES, seed=1400 + level)
            _m, sd = _mean_sd(totals)
            print(
                "zoo %-8s %d games: mean %.2f +- %.2f (s.e.), points lost per game %.2f"
                % (P.LEVELS[level], GAMES, mean, sd / math.sqrt(GAMES), lost)
            )
    simple = [simple_game(ruleset, seed) for seed in range(GAMES)]
    mean, sd = _mean_sd(simple)
    print(
        "zoo simple strategy (seats.py's simple strategy, no table) %d games: mean %.2f +- %.2f"
        % (GAMES, mean, sd / math.sqrt(GAMES))
    )

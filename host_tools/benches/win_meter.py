"""Win meter calibration: predicted vs observed win rates of optimal computers, Brier scores.

Games are played by host_tools/solver/fast_play.py (the device advisor's arithmetic,
vectorised; checked against firmware/strategy_advisor.py in tests/strategy/test_win_meter.py) and the
meter's predictions are firmware/strategy_win_meter.py's integer arithmetic vectorised
(host_tools/solver/meter.py, checked the same way), fed the device's tables: the exact
value table and a spread table. Optimal play does not look at the opponents, so a
two-player game is two independent solo games: each round's predictions come from both
cards at the start of the round. Outcome: 1 for the winner, 1/k each for k tied winners.

Run alone (several minutes; nice it on a shared machine) and write the report:
    nice python -m host_tools.benches.win_meter --write docs/win_meter.md
The spread factors (host_tools/solver/spread.py SCALE_Q8) come from training games:
    nice python -m host_tools.benches.win_meter --fit 50000
``make bench`` runs it with fewer games (BENCH_WIN_GAMES, default 20,000 two-player).
"""

import os
import sys
import time

import numpy as np

import host_tools

host_tools.use_firmware()
import rules  # noqa: E402
import strategy_win_meter as W  # noqa: E402

from host_tools.solver import files as solver_files  # noqa: E402
from host_tools.solver import cache  # noqa: E402
from host_tools.solver import core  # noqa: E402
from host_tools.solver import fast_play  # noqa: E402
from host_tools.solver import meter  # noqa: E402
from host_tools.solver import spread  # noqa: E402
from host_tools.solver import table as solver_table  # noqa: E402

BANDS = (1, 2, 4, 8)
DEVICE_BANDS = solver_files.SPREAD_BANDS  # the resolution `make table` writes (chosen from this bench)
SEED = 20261201


def load(ruleset):
    """(FastAdvisor, fixed dense values, variance) for ``ruleset`` from the cache."""
    with open(cache.table(ruleset), "rb") as f:
        dense = solver_table.decode(f.read(), core.StateSpace())
    fixed = fast_play.fixed_values(dense)
    return fast_play.FastAdvisor(ruleset, fixed), fixed, cache.variance(ruleset)


def solo(fa, n, seed, batch=8192):
    """(states (4, 13, n), final (n,)) of ``n`` optimal solo games."""
    rng = np.random.default_rng(seed)
    parts = [fast_play.solo_games(fa, min(batch, n - lo), rng) for lo in range(0, n, batch)]
    return np.concatenate([p[0] for p in parts], axis=2), np.concatenate([p[1] for p in parts])


def outcome(final):
    """(n, G) shares of first place from final totals (n, G)."""
    top = final == final.max(axis=0)
    return top / top.sum(axis=0)


def predict(states, final, players, fixed, sds, factors=None):
    """(p (13, players, G) as fractions, outcome (players, G)) at each round start."""
    g = states.shape[2] // players
    st = states[:, :, : g * players].reshape(4, 13, players, g)
    fin = final[: g * players].reshape(players, g)
    preds = np.zeros((13, players, g))
    for r in range(13):
        mask, up, yz, total = st[0, r], st[1, r], st[2, r], st[3, r]
        at = core.dense_index(mask, up, yz)
        means = (fixed[at] + (1 << 13)) >> 14  # strategy_win_meter.from_fixed
        chances, _decided = meter.chances(total, means, sds[at], np.full(at.shape, r), factors)
        preds[r] = chances / W.ONE
    return preds, outcome(fin)


def lead_only(states, players):
    """The naive baseline: the current leaders share the win (1/k each)."""
    g = states.shape[2] // players
    total = states[3, :, : g * players].reshape(13, players, g)
    top = total == total.max(axis=1, keepdims=True)
    return top / top.sum(axis=1, keepdims=True)


def calibration(preds, out):
    """Rows (decile, games, mean predicted, observed) and the Brier score."""
    p = preds.reshape(-1)
    o = np.broadcast_to(out[None], preds.shape).reshape(-1)
    dec = np.minimum((p * 10).astype(int), 9)
    rows = []
    for d in range(10):
        sel = dec == d
        if sel.any():
            rows.append((d, int(sel.sum()), float(p[sel].mean()), float(o[sel].mean())))
    return rows, float(np.mean((p - o) ** 2))


def brier(preds, out):
    o = np.broadcast_to(out[None], preds.shape)
    return float(np.mean((preds - o) ** 2))


def report(two, four, write=None):
    t0 = time.time()
    ruleset = rules.make_ruleset()
    fa, fixed, var = load(ruleset)
    lines = []

    def say(text=""):
        print(text, flush=True)
        lines.append(text)

    states2, final2 = solo(fa, 2 * two, SEED)
    states4, final4 = solo(fa, 4 * four, SEED + 1)
    sd_exact = np.round(np.sqrt(var) * 16).astype(np.int64)
    plain = [256] * 14
    tables = {}
    for bands in BANDS:
        with open(cache.spread_table(ruleset, bands), "rb") as f:
            tables[bands] = spread.decode_sixteenths(f.read())
    configs = [
        ("plain normal: sd per state", "-", sd_exact, plain),
        ("plain normal: %d bands" % DEVICE_BANDS, DEVICE_BANDS, tables[DEVICE_BANDS], plain),
    ]
    for bands in BANDS:
        configs.append(("fitted factors: %d band%s" % (bands, "s" if bands > 1 else ""), bands, tables[bands], None))
    say(
        "Simulated: %d two-player and %d four-player games of optimal computers (%d solo games, %.0f s)."
        % (two, four, 2 * two + 4 * four, time.time() - t0)
    )
    say(
        "Final score of optimal play: mean %.2f, sd %.2f (exact recursion: mean %.2f, sd %.2f)."
        % (final2.mean(), final2.std(), fixed[0] / 2.0**18, np.sqrt(var[0]))
    )
    say()
    say("Spread resolution (all 13 round starts, every player's prediction):")
    say()
    say(
        "| model and spread table | bytes | 2 players: Brier | worst decile gap (pp) | 4 players: Brier | worst decile gap (pp) |"
    )
    say("|---|---|---|---|---|---|")
    chosen = None
    for name, bands, sds, factors in configs:
        cells = []
        for states, final, players in ((states2, final2, 2), (states4, final4, 4)):
            preds, out = predict(states, final, players, fixed, sds, factors)
            rows, score = calibration(preds, out)
            gap = max(abs(r[2] - r[3]) for r in rows if r[1] >= 1000)
            cells.append("%.5f | %.2f" % (score, 100 * gap))
            if factors is None and bands == DEVICE_BANDS:
                chosen = chosen or {}
                chosen[players] = (rows, score, brier(lead_only(states, players), out))
        size = "-" if bands == "-" else "%d" % (64 + 12288 * bands + 1024)  # + a CRC-8 per 8 masks
        say("| %s | %s | %s |" % (name, size, " | ".join(cells)))
    for players in (2, 4):
        rows, score, base = chosen[players]
        say()
        say(
            "%d players, device table (%d bands): predicted vs observed per decile of the prediction"
            % (players, DEVICE_BANDS)
        )
        say()
        say("| decile | predictions | mean predicted | observed win rate | gap (pp) |")
        say("|---|---|---|---|---|")
        for d, n, p, o in rows:
            say(
                "| %d-%d %% | %d | %.2f %% | %.2f %% | %+.2f |"
                % (10 * d, 10 * d + 10, n, 100 * p, 100 * o, 100 * (o - p))
            )
        say()
        say(
            "Brier score: meter %.5f, lead-only baseline %.5f (%.0f %% lower)."
            % (score, base, 100 * (1 - score / base))
        )
    if write:
        with open(write, "w") as f:
            f.write(HEADER + "\n".join(lines) + "\n")
    return lines


HEADER = """# Win meter calibration

Generated by `nice python -m host_tools.benches.win_meter --write docs/win_meter.md`
(host_tools/benches/win_meter.py; do not edit by hand). Optimal computers play every
seat; at the start of each of the 13 rounds the device's meter (firmware/strategy_win_meter.py,
vectorised exactly) predicts every player's chance to win from the value table and a
spread table; predictions are bucketed by decile and compared with how often those
players won (a shared win counts 1/k). Brier score = mean squared error of the
predictions; the baseline gives the current leaders the win (shared when tied).

The model is a normal with each sd scaled by strategy_win_meter.FACTORS (per number of players and
used boxes), fitted by `python -m host_tools.benches.win_meter --fit 40000` on training
games with their own seeds (not the games below). "plain normal" rows use the true sd.

"""


def fit(games, seed=SEED + 7):
    """Per number of players (2, 3, 4) and used boxes, the spread factor (1/256) that
    minimises the Brier score of the predictions on ``games`` training games (their own
    seed; the report measures other games). Prints strategy_win_meter.FACTORS."""
    ruleset = rules.make_ruleset()
    fa, fixed, _var = load(ruleset)
    with open(cache.spread_table(ruleset, DEVICE_BANDS), "rb") as f:
        sds = spread.decode_sixteenths(f.read())
    rows = []
    for players in (2, 3, 4):
        g = games if players == 2 else games // 2
        states, final = solo(fa, players * g, seed + players)
        st = states[:, :, : players * g].reshape(4, 13, players, g)
        out = outcome(final[: players * g].reshape(players, g))
        factors = []
        for r in range(13):
            at = core.dense_index(st[0, r], st[1, r], st[2, r])
            means = (fixed[at] + (1 << 13)) >> 14
            used = np.full(at.shape, r)
            best = None
            for q in range(160, 321, 4 if players == 2 else 8):
                chances, _d = meter.chances(st[3, r], means, sds[at], used, factors=[q] * 14)
                score = float(np.mean((chances / W.ONE - out) ** 2))
                if best is None or score < best[0]:
                    best = (score, q)
            factors.append(best[1])
            print("%d players, used boxes %2d: factor %d/256, Brier %.5f" % (players, r, best[1], best[0]), flush=True)
        factors[0] = factors[1]  # empty cards: every prediction is 1/n, no information
        rows.append(tuple(factors + [256]))
    print(
        "FACTORS = (\n%s)  # used boxes 0 takes 1's factor (all predictions equal there)"
        % "".join("    %r,\n" % (r,) for r in rows)
    )
    return rows


def run():
    two = int(os.environ.get("BENCH_WIN_GAMES", "20000"))
    report(two, max(1, two // 5))


def main(argv):
    write = None
    two, four = 100000, 20000
    args = list(argv)
    while args:
        opt = args.pop(0)
        if opt == "--write" and args:
            write = args.pop(0)
        elif opt == "--fit" and args:
            fit(int(args.pop(0)))
            return 0
        elif opt == "--games" and args:
            two = int(args.pop(0))
            four = max(1, two // 5)
        else:
            print("win_meter: usage: [--games N] [--write FILE]", file=sys.stderr)
            return 2
    report(two, four, write)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

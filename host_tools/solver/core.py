"""Exact optimal-play dynamic programming for solitaire Yahtzee (host side, numpy).

State at the start of a turn: used-box mask (one bit per box of the ruleset's card: 13,
or 11 on the Zoo card), upper subtotal capped at the ruleset's threshold (63; 18 on the
Zoo card), and whether the Yahtzee box holds 50 (tracked on the standard card only: the
Zoo card has no Yahtzee bonus and no joker). ``V[state]`` is the expected score still to
come under optimal play. Every point comes from the firmware's rules module
(``rules.score_options``, ``rules.yahtzee_bonus_for``, the ruleset's card, upper threshold
and bonus): this file only enumerates dice and takes maxima and averages. The dense value
array has the standard card's size for every card (a smaller card uses its low masks and
subtotals), so its index and the table file's layout are the same for every ruleset.

Levels of the card (number of used boxes) are solved from the full card down; inside a
level, chunks of states are independent and are shared out to worker processes that
read and write one dense value array in shared memory.
"""

import math
import mmap
import multiprocessing
import os
import time

import numpy as np

import host_tools

host_tools.use_firmware()
import rules  # noqa: E402  (firmware module)
import strategy_dice  # noqa: E402

N_MASKS = 1 << 13  # the dense array's masks (the largest card)
CAP = 64  # the dense array's upper subtotals 0..63 (a threshold of at most 63)
YZ_BIT = 11  # the table layout keeps two blocks (yz 0/1) for masks with this bit set
NEG = -1e9
CHUNK = 256  # states per numpy batch: (462, CHUNK) float64 blocks stay in cache


def dense_index(mask, up, yz):
    return (mask * CAP + up) * 2 + yz


def upper_points(ruleset):
    """Points per die of each upper box: its face (standard card) or its fixed points."""
    return [box[3] or box[2] for box in ruleset.boxes[: ruleset.n_upper]]


def upper_reach(threshold, points=(1, 2, 3, 4, 5, 6)):
    """For each of the 64 upper-box masks: sorted upper subtotals (capped) reachable;
    ``points``: points per die of the six upper boxes."""
    reach = []
    for upper in range(64):
        got = {0}
        for box in range(6):
            if upper >> box & 1:
                got = {min(threshold, a + points[box] * c) for a in got for c in range(6)}
        reach.append(sorted(got))
    return reach


def tracks_yz(ruleset):
    """True when the value depends on the Yahtzee box holding its points (bonus, joker).
    The table layout keeps that flag for box YZ_BIT only (the standard card's Yahtzee)."""
    if ruleset.yahtzee_box == YZ_BIT:
        return True
    if ruleset.yahtzee_bonus or ruleset.joker_tiers is not None:
        raise ValueError("a card with a Yahtzee bonus or joker needs its Yahtzee box at bit %d" % YZ_BIT)
    return False


class Tables:
    """Dice and scoring tables for one ruleset, built through firmware/rules.py."""

    def __init__(self, ruleset, workers=1):
        self.rules = ruleset
        if ruleset.upper_threshold > CAP - 1 or ruleset.n_upper != 6 or ruleset.n_boxes > 13:
            raise ValueError("solver state space needs 6 upper boxes, at most 13 boxes and a threshold <= 63")
        self.n_boxes = ruleset.n_boxes
        self.n_masks = 1 << ruleset.n_boxes
        self.threshold = ruleset.upper_threshold
        self.up_points = upper_points(ruleset)
        self.yz_box = ruleset.yahtzee_box
        self.yz_points = ruleset.boxes[self.yz_box][3]  # 50 (30: a Zoo Yahtzy)
        self.track_yz = tracks_yz(ruleset)
        self.keeps = strategy_dice.Keeps()
        ks = self.keeps
        self.child = np.array(ks.child, dtype=np.intp).reshape(strategy_dice.FIRST_ROLL, 6)
        self.parent = np.array(ks.parent, dtype=np.intp).reshape(strategy_dice.N_KEEPS, 5)
        faces = [0] * 5
        self.roll_dice = []
        counts = np.zeros((strategy_dice.N_ROLLS, 7), dtype=np.intp)
        for r in range(strategy_dice.N_ROLLS):
            ks.faces(strategy_dice.FIRST_ROLL + r, faces)
            self.roll_dice.append(list(faces))
            for f in faces:
                counts[r, f] += 1
        self.counts = counts
        mult = np.array([120.0 / np.prod([float(math.factorial(c)) for c in row]) for row in counts])
        self.roll_prob = mult / 7776.0
        self.yz_rolls = [r for r in range(strategy_dice.N_ROLLS) if counts[r].max() == 5]
        self.yz_face = [self.roll_dice[r][0] for r in self.yz_rolls]
        # Scores with every box open (no joker can apply): 252 x boxes.
        nb = self.n_boxes
        out = [0] * nb
        base = np.zeros((strategy_dice.N_ROLLS, nb), dtype=np.int64)
        card = rules.new_card(ruleset)
        for r, dice in enumerate(self.roll_dice):
            rules.score_options(ruleset, card, dice, out)
            base[r] = out
        self.base = base
        self._joker_tables(workers)

    def card_for(self, mask, yz50):
        card = rules.new_card(self.rules)
        for box in range(self.n_boxes):
            if mask >> box & 1:
                card[box] = 0
        if mask >> self.yz_box & 1 and yz50:
            card[self.yz_box] = self.yz_points
        return card

    def joker_rows(self, masks):
        """rules.score_options / yahtzee_bonus_for for the six five-of-a-kind rolls on the
        cards of ``masks`` (Yahtzee box filled) with 0 and with 50 in the Yahtzee box."""
        jok = np.full((len(masks), 2, 6, self.n_boxes), -1, dtype=np.int64)
        bonus = np.zeros((len(masks), 2, 6), dtype=np.int64)
        out = [0] * self.n_boxes
        for j, mask in enumerate(masks):
            for yz50 in (0, 1):
                card = self.card_for(mask, yz50)
                for i, r in enumerate(self.yz_rolls):
                    dice = self.roll_dice[r]
                    rules.score_options(self.rules, card, dice, out)
                    jok[j, yz50, i] = out
                    bonus[j, yz50, i] = rules.yahtzee_bonus_for(self.rules, card, dice)
        return jok, bonus

    def _joker_tables(self, workers):
        """Scores of the six Yahtzee rolls for every (mask, yz50). The joker rule and the
        bonus need a filled Yahtzee box (docs/rules.md); with it open, five of a kind scores
        like any roll, which a sample of cards checks against rules.py."""
        masks = np.arange(N_MASKS)
        open_boxes = (masks[:, None] >> np.arange(self.n_boxes)[None, :] & 1) == 0
        base = self.base[self.yz_rolls]  # (6, boxes)
        jok = np.where(open_boxes[:, None, None, :], base[None, None, :, :], -1)
        jok = np.repeat(jok, 2, axis=1)
        bonus = np.zeros((N_MASKS, 2, 6), dtype=np.int64)
        # Without the yz flag (no bonus, no joker) every mask must score five of a kind
        # like any roll; checked on a sample of cards with the Yahtzee box filled too.
        sample = [m for m in range(0, self.n_masks, 97) if not m >> self.yz_box & 1 or not self.track_yz]
        out = [0] * self.n_boxes
        for mask in sample:
            card = self.card_for(mask, 0)
            for i, r in enumerate(self.yz_rolls):
                rules.score_options(self.rules, card, self.roll_dice[r], out)
                if list(jok[mask, 0, i]) != out or rules.yahtzee_bonus_for(self.rules, card, self.roll_dice[r]):
                    raise ValueError("rules.py scores five of a kind specially with the Yahtzee box open")
        filled = [m for m in range(self.n_masks - 1) if m >> self.yz_box & 1] if self.track_yz else []
        if workers > 1:
            parts = [filled[i::workers] for i in range(workers)]
            _shared["tables"] = self
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                results = pool.map(_joker_work, parts)
            _shared.pop("tables", None)
        else:
            parts = [filled]
            results = [self.joker_rows(filled)]
        for part, (j, b) in zip(parts, results):
            jok[part] = j
            bonus[part] = b
        self.joker = jok
        self.bonus = bonus


class StateSpace:
    """The reachable turn-start states, grouped by level (number of used boxes)."""

    def __init__(self, ruleset=None):
        ruleset = ruleset or rules.make_ruleset()
        self.n_masks = 1 << ruleset.n_boxes
        self.yz_box = YZ_BIT if tracks_yz(ruleset) else -1
        self.reach = upper_reach(ruleset.upper_threshold, upper_points(ruleset))
        self.levels = [[] for _ in range(ruleset.n_boxes + 1)]
        for mask in range(self.n_masks):
            ups = self.reach[mask & 63]
            for yz in (0, 1) if self.yz_box >= 0 and mask >> self.yz_box & 1 else (0,):
                self.levels[bin(mask).count("1")].append((mask, yz, ups))
        self.level_arrays = []
        for entries in self.levels:
            ms, us, ys = [], [], []
            for mask, yz, ups in entries:
                ms.append(np.full(len(ups), mask))
                us.append(np.array(ups))
                ys.append(np.full(len(ups), yz))
            if ms:
                self.level_arrays.append((np.concatenate(ms), np.concatenate(us), np.concatenate(ys)))
            else:
                self.level_arrays.append(None)
        self.count = sum(len(a[0]) for a in self.level_arrays if a is not None)


class TurnKernel:
    """Within-turn optimisation for a batch of states, vectorised over the batch.

    ``evaluate`` returns the optimal value; ``evaluate_policy`` follows the decisions that
    maximise a guide value array ``Q`` (e.g. a table decoded from a file) and returns
    the true expected value of that play under the value array ``P``.
    """

    def __init__(self, tables):
        self.t = tables
        nr = strategy_dice.N_ROLLS
        self.nb = tables.n_boxes
        self.th = tables.threshold
        self.up_points = tables.up_points
        self.yz_row = (tables.base[:, tables.yz_box] == tables.yz_points).astype(np.intp)
        self.face_counts = [tables.counts[:, f] for f in range(1, 7)]
        self.base_cols = [tables.base[:, b].astype(np.float64)[:, None] for b in range(self.nb)]
        self.nr = nr
        # Rolls (not five of a kind) by box: where each count 1-4 of a face shows, and
        # where a lower box scores (with its points), for _final_roll_fast.
        plain = tables.counts[:, 1:].max(axis=1) < 5
        self.count_rows = [[np.nonzero(plain & (tables.counts[:, b + 1] == c))[0] for c in range(6)] for b in range(6)]
        self.score_rows = {}
        for b in range(6, self.nb):
            rows = np.nonzero(plain & (tables.base[:, b] > 0))[0]
            self.score_rows[b] = (rows, tables.base[rows, b].astype(np.float64)[:, None])
        # evaluate_policy's tracked values count upper bonuses (probability of the bonus)
        # instead of points when set.
        self.count_upper_bonus = False
        self.counts6 = np.arange(6)[:, None]
        self.zero_one = np.array([0, 1])[:, None]
        self.yz_gain = np.array([0, tables.yz_points])[:, None]
        # (start, end, parent rows) per keep size and parent slot, skipping padded slots.
        self.parent_runs = []
        starts = strategy_dice.SIZE_START
        for size in range(1, 6):
            s, e = starts[size], starts[size + 1]
            for j in range(5):
                rows = tables.parent[s:e, j]
                if j == 0 or not np.array_equal(rows, tables.parent[s:e, 0]):
                    self.parent_runs.append((s, e, rows))

    # -- final roll: choose the box ------------------------------------------------
    def _open_boxes(self, m):
        """Yield (box, closed, masks after scoring it) for every box that is open in at
        least one of the states ``m`` (``closed``: where it is not)."""
        for b in range(self.nb):
            is_open = (m >> b & 1) == 0
            if is_open.any():
                yield b, ~is_open, m | (1 << b)

    def _upper_scores(self, b, u):
        """Upper box ``b`` scored with 0..5 of its dice, (6, N) each: the points, the
        capped subtotal after them, and whether they reach the bonus threshold now."""
        th = self.th
        s = self.up_points[b] * self.counts6
        return s, np.minimum(th, u + s), (u < th) & (u + s >= th)

    def _box_options(self, m, u, y, arrays):
        """Yield (box, [(252, N) value of scoring this box, one per value array]); NEG
        where the box is used. The five-of-a-kind rows are redone by ``_yahtzee_rows``."""
        t = self.t
        up_bonus = t.rules.upper_bonus
        for b, closed, mn in self._open_boxes(m):
            if b < 6:
                s, u2, crossed = self._upper_scores(b, u)
                gain = s + up_bonus * crossed
                idx = dense_index(mn, u2, y)
                rows = self.face_counts[b]
            elif b == t.yz_box and t.track_yz:
                gain = self.yz_gain
                idx = dense_index(mn, u, self.zero_one)
                rows = self.yz_row
            else:
                gain = None
                idx = dense_index(mn, u, y)
            out = []
            for i, arr in enumerate(arrays):
                if i and self.count_upper_bonus:  # the tracked "reward": 1 per upper bonus
                    g = arr[idx] + (crossed if b < 6 else 0)
                    if gain is None:
                        g[closed] = NEG
                        out.append(np.broadcast_to(g, (self.nr, len(m))))
                    else:
                        g[:, closed] = NEG
                        out.append(g[rows])
                    continue
                g = arr[idx] if gain is None else gain + arr[idx]
                if gain is None:
                    g[closed] = NEG
                    out.append(self.base_cols[b] + g)
                else:
                    g[:, closed] = NEG
                    out.append(g[rows])
            yield b, out

    def _yahtzee_rows(self, m, u, y, arrays):
        """(6, N) per value array: the five-of-a-kind rolls with joker scores and bonus,
        each a (6, boxes, N) option array (NEG where the box may not be taken)."""
        t = self.t
        th = self.th
        sc = t.joker[m, y].transpose(1, 2, 0)  # (6, boxes, N)
        bon = t.bonus[m, y].T[:, None, :]  # (6, 1, N)
        boxes = np.arange(self.nb)[None, :, None]
        upper = boxes < 6
        u2 = np.where(upper, np.minimum(th, u + sc), u)
        gain = sc + bon + t.rules.upper_bonus * (upper & (u < th) & (u + sc >= th))
        if t.track_yz:
            y2 = np.where(boxes == t.yz_box, (sc == t.yz_points).astype(np.int64), y)
        else:
            y2 = y
        idx = dense_index(m | (1 << boxes), u2, y2)
        bad = sc < 0
        crossed = upper & (u < th) & (u + sc >= th)
        out = []
        for i, arr in enumerate(arrays):
            v = (crossed if i and self.count_upper_bonus else gain) + arr[idx]
            v[bad] = NEG
            out.append(v)
        return out

    def _final_roll(self, m, u, y, K, Q, T=None, P=None):
        """Fill rows 210.. of K with the best box value per roll under Q; with T and P,
        fill T with the P-value of the box that Q chooses."""
        rolls = K[strategy_dice.FIRST_ROLL :]
        rolls.fill(NEG)
        arrays = (Q,) if T is None else (Q, P)
        true = None if T is None else T[strategy_dice.FIRST_ROLL :]
        for _b, vals in self._box_options(m, u, y, arrays):
            if T is None:
                np.maximum(rolls, vals[0], out=rolls)
            else:
                better = vals[0] > rolls
                np.copyto(rolls, vals[0], where=better)
                np.copyto(true, vals[1], where=better)
        jok = self._yahtzee_rows(m, u, y, arrays)
        rows = np.array(self.t.yz_rolls) + strategy_dice.FIRST_ROLL
        if T is None:
            K[rows] = jok[0].max(axis=1)
        else:
            pick = jok[0].argmax(axis=1)  # (6, N): first best box, like the strict > above
            K[rows] = np.take_along_axis(jok[0], pick[:, None, :], axis=1)[:, 0]
            T[rows] = np.take_along_axis(jok[1], pick[:, None, :], axis=1)[:, 0]

    # -- rerolls -------------------------------------------------------------------
    def _expect(self, K):
        """Rows 0..209 of K := average over one more die, from the rolls (rows 210..)."""
        child = self.t.child
        starts = strategy_dice.SIZE_START
        for size in range(4, -1, -1):
            s, e = starts[size], starts[size + 1]
            acc = K[child[s:e, 0]]
            for f in range(1, 6):
                acc += K[child[s:e, f]]
            np.multiply(acc, 1.0 / 6.0, out=K[s:e])

    def _subset_max(self, K, T=None):
        """K[k] := max over sub-keeps of k (in place, sizes ascending). With T (true
        values) the choices of K are applied to T."""
        for s, e, rows in self.parent_runs:
            cand = K[rows]
            if T is None:
                np.maximum(K[s:e], cand, out=K[s:e])
            else:
                better = cand > K[s:e]
                np.copyto(K[s:e], cand, where=better)
                np.copyto(T[s:e], T[rows], where=better)

    def _final_roll_fast(self, m, u, y, K, V):
        """``_final_roll`` for optimal play only, cheaper: scoring 0 in any open box is one
        value per state, so every roll starts from the best such value and each box then
        visits only the rolls where it scores (never worse than its 0: more points now
        and a higher upper subtotal never lower the total, tested). Five-of-a-kind rows
        are redone with the joker rules as in ``_final_roll``."""
        t = self.t
        rolls = K[strategy_dice.FIRST_ROLL :]
        up_bonus = t.rules.upper_bonus
        zero = np.full(len(m), NEG)
        scoring = []
        for b, closed, mn in self._open_boxes(m):
            if b < 6:
                s, u2, crossed = self._upper_scores(b, u)
                g = s + up_bonus * crossed + V[dense_index(mn, u2, y)]
                g[:, closed] = NEG
                np.maximum(zero, g[0], out=zero)
                for c in range(1, 5):  # five of a face is a Yahtzee roll: redone below
                    scoring.append((self.count_rows[b][c], g[c][None, :]))
            elif b == t.yz_box and t.track_yz:
                g = V[dense_index(mn, u, 0)]
                g[closed] = NEG
                np.maximum(zero, g, out=zero)
            else:
                g = V[dense_index(mn, u, y)]
                g[closed] = NEG
                np.maximum(zero, g, out=zero)
                rows, points = self.score_rows[b]
                scoring.append((rows, points + g[None, :]))
        rolls[:] = zero
        for rows, vals in scoring:
            sub = rolls[rows]
            np.maximum(sub, vals, out=sub)
            rolls[rows] = sub
        jok = self._yahtzee_rows(m, u, y, (V,))
        K[np.array(t.yz_rolls) + strategy_dice.FIRST_ROLL] = jok[0].max(axis=1)

    def evaluate(self, m, u, y, V):
        n = len(m)
        K = np.empty((strategy_dice.N_KEEPS, n))
        self._final_roll_fast(m, u, y, K, V)
        for _stage in range(2):
            self._expect(K)
            self._subset_max(K)
        return self.t.roll_prob @ K[strategy_dice.FIRST_ROLL :]

    def evaluate_policy(self, m, u, y, Q, P):
        n = len(m)
        K = np.empty((strategy_dice.N_KEEPS, n))
        T = np.empty((strategy_dice.N_KEEPS, n))
        self._final_roll(m, u, y, K, Q, T, P)
        for _stage in range(2):
            self._expect(K)
            self._expect(T)
            self._subset_max(K, T)
        return self.t.roll_prob @ T[strategy_dice.FIRST_ROLL :]


# -- driving the levels, optionally on several processes ------------------------------
_shared = {}


def _shared_array(n):
    buf = mmap.mmap(-1, n * 8)  # anonymous shared mapping: visible to forked workers
    return np.frombuffer(buf, dtype=np.float64), buf


def _joker_work(masks):
    return _shared["tables"].joker_rows(masks)


def _work(job):
    lo, hi, level = job
    kernel, space, V, Q = _shared["kernel"], _shared["space"], _shared["V"], _shared["Q"]
    m, u, y = (a[lo:hi] for a in space.level_arrays[level])
    if Q is None:
        vals = kernel.evaluate(m, u, y, V)
    else:
        vals = kernel.evaluate_policy(m, u, y, Q, V)
    V[dense_index(m, u, y)] = vals
    return hi - lo


def by_level(ruleset, space, work, workers, progress, label, t0):
    """Run ``work((lo, hi, level))`` over every reachable state in chunks, the last level
    (fullest cards) first: a state's value needs only the levels after it. ``workers`` > 1
    forks a pool (``work`` reads what it needs from a module's ``_shared``); ``progress``
    gets one line per level, ``label`` first."""
    pool = multiprocessing.get_context("fork").Pool(workers) if workers > 1 else None
    try:
        for level in range(ruleset.n_boxes - 1, -1, -1):
            n = len(space.level_arrays[level][0])
            jobs = [(lo, min(n, lo + CHUNK), level) for lo in range(0, n, CHUNK)]
            if pool is None:
                for job in jobs:
                    work(job)
            else:
                pool.map(work, jobs, chunksize=4)
            if progress:
                progress("%s %2d: %6d states  %.2f s" % (label, level, n, time.time() - t0))
    finally:
        if pool is not None:
            pool.close()
            pool.join()


def solve(ruleset, guide=None, workers=None, progress=None, count_upper_bonus=False):
    """Optimal values (or, with ``guide``, the true values of play that maximises the
    guide array) for every reachable state. Returns (dense V, tables, space). With
    ``count_upper_bonus`` (needs ``guide``) the values are the probability of earning the
    upper bonus from each state under that play."""
    t0 = time.time()
    workers = workers or min(2, os.cpu_count() or 1)
    tables = Tables(ruleset, workers)
    space = StateSpace(ruleset)
    if progress:
        progress("score tables from rules.py: %.2f s; %d reachable states" % (time.time() - t0, space.count))
    V, buf = _shared_array(N_MASKS * CAP * 2)
    V[:] = 0.0
    kernel = TurnKernel(tables)
    kernel.count_upper_bonus = count_upper_bonus and guide is not None
    _shared.update(kernel=kernel, space=space, V=V, Q=guide)
    by_level(ruleset, space, _work, workers, progress, "level", t0)
    result = np.array(V)
    _shared.clear()
    del V
    buf.close()
    return result, tables, space

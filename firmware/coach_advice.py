"""The coach's advice from the strategy table: the hint's best moves and a turn's review,
each decision priced against the best one at that moment.

Loaded with the table (coach.Coach.opening) and released with the strategy code, so
without a table its code takes no RAM; ``coach.Coach`` keeps the state these functions
fill (``hint_*``, ``win_*``, ``cost``, ``worst_*``) and calls them.

Turn review (coach mode "turn"): every decision of a human turn is priced against the
best option at that moment, in the advisor's fixed point (expected final total): a roll
with the held dice against the best hold, the box against the best option of that roll.
``cost`` is the turn's sum, ``worst_*`` remember the decision that cost the most, so the
review can say what the best move there was. Solo games: what the player's own expected
final score lost. Multi-player games with the spread table: the chance to win lost (the
win level's model, seat_win.py), and the hint also shows the move that maximises the
chance to win when it differs from the max-score move.
"""

from micropython import const

from coach import BOX, HOLD, prefer_held

_SCORE_NOW = const(0x1F)  # game.ALL_HELD: the hold code that keeps every die, scoring now
_ONE = const(16384)  # strategy_win_meter.ONE: a chance of 1
# The win meter's inputs per seat (meter): made once, with the module.
_m_total = [0] * 4
_m_mean = [0] * 4
_m_sd = [0] * 4
_m_used = [0] * 4
# The review before the last box was priced: cost, the worst decision's cost, kind, code,
# rolls left and dice, and whether it is there to put back (price_box, unprice_box).
_before = [0] * 11


def _win_ready(coach):
    """The win level prepared for the turn being coached (first use in the turn: the
    ~100 ms programme), or None in solo games / without the spread table."""
    game = coach.coached
    if game is None:
        return None
    others = [p.card for i, p in enumerate(game.players) if i != game.current]
    try:
        coach.win.ensure(game.players[game.current].card, others)
    except Exception as exc:
        coach.drop_spread(exc)
        return None
    return coach.win


def hint(coach, dice, rolls_left, held=0):
    """The best option now: ``hint_code`` (a hold mask with rolls left, else a box),
    ``hint_box`` (the box when the best is to score now, else -1), ``hint_value``.
    A hold keeps the ``held`` dice where they show the same faces as the advice."""
    adv = coach.adv
    adv.options(dice, rolls_left, coach.codes, coach.values)
    coach.hint_rolls_left = rolls_left
    coach.hint_code = coach.codes[0]
    if rolls_left > 0 and coach.hint_code != _SCORE_NOW:
        coach.hint_code = prefer_held(dice, coach.hint_code, held)
    coach.hint_value = coach.values[0]
    coach.hint_box = -1
    if rolls_left == 0:
        coach.hint_box = coach.hint_code
    elif coach.hint_code == _SCORE_NOW:
        adv.options(dice, 0, coach.codes, coach.values)
        coach.hint_box = coach.codes[0]
    coach.win_differs = False
    win = _win_ready(coach)
    if win is not None:
        _hint_to_win(coach, win, dice, rolls_left, held)
    return coach.hint_code


def _hint_to_win(coach, win, dice, rolls_left, held):
    """Multi-player: the option with the best chance to win, and the chance of each of
    the two hints (``hint_chance``, ``win_chance``: units of strategy_win_meter.ONE)."""
    if rolls_left == 0:
        code = box = win.box(dice)
    else:
        code = win.hold(dice, rolls_left)
        box = win.box(dice) if code == _SCORE_NOW else -1
        if code != _SCORE_NOW:  # the same faces as the max-score hold keeps the same dice
            code = prefer_held(dice, code, held)
    coach.hint_chance = win.chance(_key(coach, win, dice, rolls_left, coach.hint_code, coach.hint_box))
    coach.win_chance = win.chance(_key(coach, win, dice, rolls_left, code, box))
    coach.win_code = code
    coach.win_box = box
    coach.win_differs = code != coach.hint_code or box != coach.hint_box


def _key(coach, win, dice, rolls_left, code, box):
    """The win level's key of a hold mask (rolls left) or of scoring ``box`` now."""
    if box >= 0:
        out = coach.adv.out
        import rules

        rules.score_options(coach.adv.rules, coach.adv.card, dice, out)
        return win.box_key(box, out[box], rules.yahtzee_bonus_for(coach.adv.rules, coach.adv.card, dice))
    return win.hold_key(dice, rolls_left, code)


def price_hold(coach, dice, rolls_left, held):
    """A roll with ``held`` kept and ``rolls_left`` (1 or 2) rolls left, before it."""
    win = _win_ready(coach)
    if win is not None:  # multi-player: in chance to win
        best_code = win.hold(dice, rolls_left)
        best = win.chance(win.hold_key(dice, rolls_left, best_code))
        chosen = win.chance(win.hold_key(dice, rolls_left, held))
        if best_code == _SCORE_NOW:
            _record(coach, best - chosen, BOX, win.box(dice), dice, rolls_left)
        else:
            _record(coach, best - chosen, HOLD, best_code, dice, rolls_left)
        return
    adv = coach.adv
    adv.options(dice, rolls_left, coach.codes, coach.values)
    best = coach.values[0]
    chosen = adv.hold_value(dice, rolls_left, held)
    if coach.codes[0] == _SCORE_NOW:
        adv.options(dice, 0, coach.codes, coach.values)
        _record(coach, best - chosen, BOX, coach.codes[0], dice, rolls_left)
    else:
        _record(coach, best - chosen, HOLD, coach.codes[0], dice, rolls_left)


def price_box(coach, dice, rolls_left, box):
    """Scoring ``box`` with ``rolls_left`` rolls still possible (0 on the last roll)."""
    before = _before  # the review until now, for a score taken back (unprice_box)
    before[0] = coach.cost
    before[1] = coach.worst_cost
    before[2] = coach.worst_kind
    before[3] = coach.worst_code
    before[4] = coach.worst_rolls_left
    for i in range(5):
        before[5 + i] = coach.worst_dice[i]
    before[10] = 1
    win = _win_ready(coach)
    if win is not None:  # multi-player: in chance to win
        best_box = win.box(dice)
        best = win.chance(_key(coach, win, dice, 0, -1, best_box))
        best_hold = _SCORE_NOW
        if rolls_left > 0:
            best_hold = win.hold(dice, rolls_left)
            if best_hold != _SCORE_NOW:  # score now: the best legal box, as the hint says
                best = win.chance(win.hold_key(dice, rolls_left, best_hold))
        chosen = win.chance(_key(coach, win, dice, 0, -1, box))
        if best_hold == _SCORE_NOW:
            _record(coach, best - chosen, BOX, best_box, dice, rolls_left)
        else:
            _record(coach, best - chosen, HOLD, best_hold, dice, rolls_left)
        return
    adv = coach.adv
    codes = coach.codes
    values = coach.values
    best = 0
    best_hold = _SCORE_NOW
    if rolls_left > 0:
        adv.options(dice, rolls_left, codes, values)
        best = values[0]
        best_hold = codes[0]
    n = adv.options(dice, 0, codes, values)
    if rolls_left == 0:
        best = values[0]
    chosen = values[0]
    for i in range(n):
        if codes[i] == box:
            chosen = values[i]
            break
    if best_hold == _SCORE_NOW:
        _record(coach, best - chosen, BOX, codes[0], dice, rolls_left)
    else:
        _record(coach, best - chosen, HOLD, best_hold, dice, rolls_left)


def unprice_box(coach):
    """The review as ``price_box`` found it (its score was taken back), once."""
    before = _before
    if before[10]:
        before[10] = 0
        coach.cost = before[0]
        coach.worst_cost = before[1]
        coach.worst_kind = before[2]
        coach.worst_code = before[3]
        coach.worst_rolls_left = before[4]
        for i in range(5):
            coach.worst_dice[i] = before[5 + i]


def _record(coach, cost, kind, code, dice, rolls_left):
    if cost < 0:
        cost = 0  # ties and rounding: never a gain
    coach.cost += cost
    if cost > coach.worst_cost:
        coach.worst_cost = cost
        coach.worst_kind = kind
        coach.worst_code = code
        coach.worst_rolls_left = rolls_left
        for i in range(5):
            coach.worst_dice[i] = dice[i]


def lost_tenths(coach):
    """The turn's cost in tenths of a point of expected final score, or (multi-player,
    ``in_chance``) in tenths of a percentage point of the chance to win."""
    if coach.in_chance:
        return (coach.cost * 1000 + _ONE // 2) // _ONE
    return coach.tenths(coach.cost)


def meter(coach, game, breakdowns, out):
    """Every player's chance to win now (win_meter units, ONE = 16384) into ``out``;
    False (``out`` untouched) in a solo game or without the tables (a damaged block
    drops the spread table). ``breakdowns``: rules.totals() of each seat (the app's
    cache)."""
    n = len(game.players)
    if n < 2 or n > 4:
        return False
    spread = coach.spread()
    if spread is None:
        return False
    import strategy_win_meter

    table = coach.adv.table
    try:
        for seat in range(n):
            card = game.players[seat].card
            _m_total[seat] = breakdowns[seat][4]
            _m_used[seat] = strategy_win_meter.outlook(table, spread, card, _m_mean, _m_sd, seat)
    except Exception as exc:  # any failure out of a table: off, never a wrong figure
        coach.drop_spread(exc)
        return False
    strategy_win_meter.chances(n, _m_total, _m_mean, _m_sd, _m_used, out)
    return True

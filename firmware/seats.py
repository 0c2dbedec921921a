"""Computer seats: the player kinds, the driver of a computer's turn, and which strategy
makes its decisions.

A seat's kind is one of ``KINDS``: a human, or a computer level. The app's frame loop
calls ``play(app, now)`` with the screen's timers while a computer's turn is on the turn
screen (app._timers): this module, not the UI, plays the turn, through the app's game
actions (roll, set_holds, point_at, score) at the computer's pace (``CPU_STEP_MS``).
Each roll's decision is made once, as background work (job DECIDE, a step a part:
scheduler.py), so no single stretch holds both the decision and a redraw.

Which strategy decides: a seat's kind is one of seat_levels.LEVELS (optimal, good,
casual), "win" or an older kind such as "cpu". The advisor levels (seat_levels.py)
need the strategy table (coach.Coach.adv); without it, and for any other kind,
the simple strategy below plays (``simple_hold``, ``simple_box``: pure, no table; it
reads the boxes from the ruleset's table, so it plays the standard and the Zoo card alike). "win" plays for the win (seat_win.py through
coach.win_level(): also needs the spread table); without the spread table, or alone at
the table, it plays as optimal. The simple strategy and seat_levels.py make the same two
decisions, ``choose_hold`` and ``choose_box``, which are also this module's.
"""

from micropython import const

import rules

# The kind strings handed to game.Game, in the menu's order: a human, then the computer
# levels (seat_levels.LEVELS, and WIN). Older saves may hold other computer kinds ("cpu").
KINDS = ("human", "optimal", "win", "good", "casual")
WIN = "win"
CPU_STEP_MS = const(600)  # a computer's pace: its roll, its holds, the box it points at, its score
_DECIDE_JOB = const(7)  # scheduler.DECIDE
_ALL_HELD = const(0x1F)  # game.ALL_HELD
# The decision for the roll on show, this module's state (one list, made once): the roll
# it was made for (-1: none yet), the hold mask (-1: score) and the box.
_plan = [-1, -1, -1]
_ROLLS = const(0)
_MASK = const(1)
_BOX_AT = const(2)


def computer(kind):
    """Whether a seat of ``kind`` is played by the computer (any kind but a human)."""
    return kind != KINDS[0]


def new_turn():
    """A turn begins (app.start_turn): no decision made for it yet."""
    _plan[_ROLLS] = -1


def play(app, now):
    """A computer's turn, with the screen's timers (app._timers, on the turn screen): the
    roll's decision is queued when it is due, else its next move once the pace's timer
    is due."""
    game = app.game
    if game.last is not None:
        return  # a human's score can still be taken back: OK first (app.keep_score)
    if game.rolls > 0 and _plan[_ROLLS] != game.rolls:
        if not app.jobs.busy(_DECIDE_JOB):
            app.jobs.add(_DECIDE_JOB, _deciding(app, game))
        return
    if app.rolling or not app.timer_due(now):
        return
    app.start_timer(now, CPU_STEP_MS)  # the next move; a score sets the summary's own
    _move(app, game)


def _deciding(app, game):
    """Job DECIDE, the decision for the roll on show, a step a part: the win level's
    programme in two halves (seat_win.ensure_step), the hold, then the box when the hold
    is "score now"; the last step records it."""
    coach = app.coach
    while _win(coach, game, True) is False:
        yield  # it did work: the hold waits for the next part
    _plan[_MASK] = choose_hold(coach, game)
    if _plan[_MASK] < 0:
        yield  # score now: which box, in the next part
        _plan[_BOX_AT] = choose_box(coach, game, app.options)
    _plan[_ROLLS] = game.rolls


def _move(app, game):
    """One visible move of the turn: roll, set the holds, point at the box, score it."""
    if game.rolls == 0:
        app.roll()
        return
    mask = _plan[_MASK]
    if mask < 0:
        box = _plan[_BOX_AT]
        if app.cursor != box:
            app.point_at(box)
        else:
            app.score(box)
        return
    if mask != game.held:
        app.set_holds(mask)
    else:
        app.roll()


def _win(coach, game, step=False):
    """The win level prepared for the current seat's turn, or None (play as optimal).
    With ``step`` only one step of its preparation (seats.play): False while it did work."""
    if coach.adv is None or game.players[game.current].kind != WIN or len(game.players) < 2:
        return None
    level = coach.win_level()
    if level is None:
        return None
    others = [p.card for i, p in enumerate(game.players) if i != game.current]  # once per step
    try:
        if step:
            return level if level.ensure_step(game.players[game.current].card, others) else False
        level.ensure(game.players[game.current].card, others)
    except Exception as exc:  # anything out of a damaged spread table block: play as optimal
        coach.drop_spread(exc)
        return None
    return level


def level(coach, kind):
    """Index into seat_levels.LEVELS for ``kind``, or -1: the simple strategy."""
    if coach.adv is None:
        return -1
    if kind == WIN:
        return 0  # optimal where the win level cannot play
    if kind not in coach.levels.LEVELS:
        return -1
    return coach.levels.level_index(kind)


def choose_hold(coach, game):
    """The dice to keep before the next roll (bit mask), or -1 to stop and score now."""
    card = game.players[game.current].card
    lvl = level(coach, game.players[game.current].kind)
    if lvl < 0:
        return simple_hold(game.rules, card, game.dice, game.rolls)
    rolls_left = 3 - game.rolls
    if rolls_left <= 0:
        return -1
    win = _win(coach, game)
    if win is not None:
        hold = win.hold(game.dice, rolls_left)
        return -1 if hold == _ALL_HELD else hold  # keep all five: score now
    return coach.levels.choose_hold(
        coach.adv, lvl, card, game.dice, rolls_left, game.dice_source, coach.codes, coach.values
    )


def choose_box(coach, game, options):
    """The box to score (``options``: the points of each box now, from game.options)."""
    card = game.players[game.current].card
    lvl = level(coach, game.players[game.current].kind)
    if lvl < 0:
        return simple_box(game.rules, card, game.dice, options)
    win = _win(coach, game)
    if win is not None:
        return win.box(game.dice)
    return coach.levels.choose_box(coach.adv, lvl, card, game.dice, game.dice_source, coach.codes, coach.values)


# -- the simple strategy: a computer seat's two decisions without a strategy table ------
# What a box is "worth" on average: scoring below par costs, above par gains. Upper
# boxes par at three of the face (that path reaches the bonus: 63, or 18 on the Zoo card).
_PARS = {
    "yahtzee": (3, 6, 9, 12, 15, 18, 20, 12, 15, 18, 12, 10, 22),
    # monkey..lion, 3 the same, 4 the same, full house, all different, Zoo Yahtzy
    "zoo": (3, 3, 3, 3, 3, 3, 6, 6, 6, 8, 4),
}

_options = [0] * rules.N_BOXES  # scratch, filled by rules.score_options


def simple_box(ruleset, card, dice, options=None):
    """The open box to score now: the largest gain over par (ties: the later box)."""
    if options is None:
        options = _options
        rules.score_options(ruleset, card, dice, options)
    par = _PARS[ruleset.card]
    best = -1
    best_gain = -1000
    for box in range(ruleset.n_boxes):
        points = options[box]
        if points < 0:
            continue
        gain = points - par[box]
        if gain >= best_gain:
            best_gain = gain
            best = box
    return best


def _box(ruleset, kind, param):
    """Index of the box of ``kind`` (and ``param``, when not None), or -1."""
    for box in range(ruleset.n_boxes):
        entry = ruleset.boxes[box]
        if entry[1] == kind and (param is None or entry[2] == param):
            return box
    return -1


def _run_mask(dice, length):
    """Mask holding one die of each face in a run of ``length`` faces, or 0."""
    for start in range(7 - length, 0, -1):
        mask = 0
        for face in range(start, start + length):
            for i in range(5):
                if dice[i] == face and not mask & (1 << i):
                    mask |= 1 << i
                    break
            else:
                mask = -1
                break
        if mask > 0:
            return mask
    return 0


def simple_hold(ruleset, card, dice, rolls):
    """The dice to keep (bit mask) before the next roll, or -1 to stop and score now."""
    if rolls >= 3:
        return -1
    options = _options
    rules.score_options(ruleset, card, dice, options)
    # A made hand in an open box that pays fixed points: five the same, a 5-run, a full
    # house, all different.
    for box in (
        ruleset.yahtzee_box,
        _box(ruleset, rules.STRAIGHT, 5),
        _box(ruleset, rules.FULL_HOUSE, None),
        _box(ruleset, rules.DIFFERENT, None),
    ):
        if box >= 0 and options[box] > 0:
            return -1
    small = _box(ruleset, rules.STRAIGHT, 4)
    large = _box(ruleset, rules.STRAIGHT, 5)
    if large >= 0 and card[large] == rules.OPEN:
        if options[small] > 0:
            mask = _run_mask(dice, 4)
            if mask:
                return mask
    counts = [0] * 7
    for face in dice:
        counts[face] += 1
    face = 6
    for f in range(5, 0, -1):
        if counts[f] > counts[face]:
            face = f
    straights_open = small >= 0 and (card[small] == rules.OPEN or card[large] == rules.OPEN)
    if counts[face] < 3 and straights_open:
        mask = _run_mask(dice, 3)
        if mask:
            return mask
    different = _box(ruleset, rules.DIFFERENT, None)
    if different >= 0 and card[different] == rules.OPEN and counts[face] < 3:
        mask = _one_of_each(dice)
        if counts[face] == 1 or _popcount(mask) >= 4:
            return mask  # four different animals: one roll from all different
    if counts[face] < 2:
        return 0
    mask = 0
    for i in range(5):
        if dice[i] == face:
            mask |= 1 << i
    return -1 if mask == _ALL_HELD else mask


def _one_of_each(dice):
    """Mask keeping the first die of each face shown."""
    mask = 0
    seen = 0
    for i in range(5):
        bit = 1 << dice[i]
        if not seen & bit:
            seen |= bit
            mask |= 1 << i
    return mask


def _popcount(mask):
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n

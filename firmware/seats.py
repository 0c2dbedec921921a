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
seat_simple.py's simple strategy plays. "win" plays for the win (seat_win.py through
coach.win_level(): also needs the spread table); without the spread table, or alone at
the table, it plays as optimal. seat_simple.py and seat_levels.py make the same two
decisions, ``choose_hold`` and ``choose_box``, which are also this module's.
"""

from micropython import const

import seat_simple

# The kind strings handed to game.Game, in the menu's order: a human, then the computer
# levels (seat_levels.LEVELS, and WIN). Older saves may hold other computer kinds ("cpu").
KINDS = ("human", "optimal", "win", "good", "casual")
WIN = "win"
CPU_STEP_MS = const(600)  # a computer's pace: its roll, its holds, the box it points at, its score
_DECIDE_JOB = const(7)  # scheduler.DECIDE
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
        return seat_simple.choose_hold(game.rules, card, game.dice, game.rolls)
    rolls_left = 3 - game.rolls
    if rolls_left <= 0:
        return -1
    win = _win(coach, game)
    if win is not None:
        hold = win.hold(game.dice, rolls_left)
        return -1 if hold == 31 else hold
    return coach.levels.choose_hold(
        coach.adv, lvl, card, game.dice, rolls_left, game.dice_source, coach.codes, coach.values
    )


def choose_box(coach, game, options):
    """The box to score (``options``: the points of each box now, from game.options)."""
    card = game.players[game.current].card
    lvl = level(coach, game.players[game.current].kind)
    if lvl < 0:
        return seat_simple.choose_box(game.rules, card, game.dice, options)
    win = _win(coach, game)
    if win is not None:
        return win.box(game.dice)
    return coach.levels.choose_box(coach.adv, lvl, card, game.dice, game.dice_source, coach.codes, coach.values)

"""Computer seats: the driver of a computer's turn, and which strategy makes its decisions.

The app's frame loop calls ``play(app, now)`` once per frame while a computer's turn is
on the turn screen (app.tick): this module, not the UI, plays the turn, through the
app's game actions (roll, set_holds, point_at, score) at the computer's pace
(``CPU_STEP_MS``). Each roll's decision is made once, a step per frame between the
visible moves (a frame that draws the OLED or writes a save does none), so no single
stretch holds both the decision and a redraw.

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

WIN = "win"
CPU_STEP_MS = const(600)  # a computer's pace: its roll, its holds, the box it points at, its score
# The decision's steps, one per frame: the win level's programme in two halves
# (seat_win.ensure_step), the hold, the box when the hold is "score now".
_PREPARE = const(0)
_HOLD = const(1)
_BOX = const(2)
# The decision for the roll on show, this module's state (one list, made once): the roll
# it was made for (-1: none yet), its next step, the hold mask (-1: score) and the box.
_plan = [-1, _PREPARE, -1, -1]
_ROLLS = const(0)
_STEP = const(1)
_MASK = const(2)
_BOX_AT = const(3)


def new_turn():
    """A turn begins (app.start_turn): no decision made for it yet."""
    _plan[_ROLLS] = -1
    _plan[_STEP] = _PREPARE


def play(app, now):
    """One frame of a computer's turn (app.tick, on the turn screen): a step of the
    roll's decision when one is due, else its next move once the pace's timer is due."""
    game = app.game
    if game.rolls > 0 and _plan[_ROLLS] != game.rolls:
        if not app.dirty:  # a frame that draws does no deciding
            _decide(app, game)
        return
    if app.rolling or not app.timer_due(now):
        return
    app.start_timer(now, CPU_STEP_MS)  # the next move; a score sets the summary's own
    _move(app, game)


def _decide(app, game):
    """One step of the decision for the roll on show; the last one records it."""
    coach = app.coach
    if _plan[_STEP] == _PREPARE:
        if _win(coach, game, True) is False:
            return  # it did work: the hold waits for the next frame
        _plan[_STEP] = _HOLD
    if _plan[_STEP] == _HOLD:
        _plan[_MASK] = choose_hold(coach, game)
        if _plan[_MASK] < 0:
            _plan[_STEP] = _BOX  # score now: which box, in the next frame
            return
    else:
        _plan[_BOX_AT] = choose_box(coach, game, app.options)
    _plan[_ROLLS] = game.rolls
    _plan[_STEP] = _PREPARE


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

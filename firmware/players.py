"""Computer seats: which strategy plays a turn, the advisor levels or the simple one.

A seat's kind is one of strategy_players.LEVELS (optimal, good, casual), "win" or an
older kind such as "cpu". The advisor levels need the strategy table (coach.Coach.adv);
without it, and for any other kind, computer.py's simple strategy plays. "win" plays for
the win (strategy_win.py through coach.win_level(): also needs the spread table); without
the spread table, or alone at the table, it plays as optimal. Same two calls as computer.py.
"""
import computer

WIN = "win"


def _win(coach, game):
    """The win level prepared for the current seat's turn, or None (play as optimal)."""
    if coach.adv is None or game.players[game.current].kind != WIN or len(game.players) < 2:
        return None
    level = coach.win_level()
    if level is None:
        return None
    others = [p.card for i, p in enumerate(game.players) if i != game.current]  # once per roll
    try:
        level.ensure(game.players[game.current].card, others)
    except Exception as exc:  # anything out of a damaged spread table block: play as optimal
        coach.drop_spread(exc)
        return None
    return level


def level(coach, kind):
    """Index into strategy_players.LEVELS for ``kind``, or -1: the simple strategy."""
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
        return computer.choose_hold(game.rules, card, game.dice, game.rolls)
    rolls_left = 3 - game.rolls
    if rolls_left <= 0:
        return -1
    win = _win(coach, game)
    if win is not None:
        hold = win.hold(game.dice, rolls_left)
        return -1 if hold == 31 else hold
    return coach.levels.choose_hold(coach.adv, lvl, card, game.dice, rolls_left, game.dice_source,
                                    coach.codes, coach.values)


def choose_box(coach, game, options):
    """The box to score (``options``: the points of each box now, from game.options)."""
    card = game.players[game.current].card
    lvl = level(coach, game.players[game.current].kind)
    if lvl < 0:
        return computer.choose_box(game.rules, card, game.dice, options)
    win = _win(coach, game)
    if win is not None:
        return win.box(game.dice)
    return coach.levels.choose_box(coach.adv, lvl, card, game.dice, game.dice_source,
                                   coach.codes, coach.values)

"""The coach's screens: the hint during a turn and the review after a turn.

Pure drawing from the app's coach (coach.py) and game; the numbers were computed when the
hint was asked or the turn was scored, so a redraw allocates nothing. Expected totals
and costs show in tenths of a point without floats (advisor.tenths); in multi-player
games the hint shows the max-score and the to-win move with their chances to win when
they differ, and the review's cost is in percentage points of the chance to win.
"""
import coach as coach_module
from ui import draw
from ui import menu
from ui import screens


def _tenths(fb, value, right_col, row):
    """``12.3`` with its last digit in ``right_col``, from whole tenths (>= 0)."""
    draw.number(fb, value % 10, right_col, row)
    draw.text(fb, ".", right_col - 1, row)
    draw.number(fb, value // 10, right_col - 2, row)


def _kept_dice(fb, dice, mask, row, letters=None):
    """The five dice in their places: the face of a kept die (its animal's letter on the
    Zoo card, ``letters`` = rules.face_letters), ``.`` for one to re-roll."""
    for i in range(5):
        col = 1 + 3 * i
        if not mask & (1 << i):
            draw.text(fb, ".", col, row)
        elif letters:
            draw.text(fb, letters[dice[i] - 1], col, row)
        else:
            draw.number(fb, dice[i], col, row)


def _percent(fb, chance, right_col, row):
    """``34%`` ending at ``right_col``: a chance to win, shown as 1..99 %."""
    p = draw.percent(chance)
    draw.number(fb, 1 if p < 1 else (99 if p > 99 else p), right_col - 1, row)
    draw.text(fb, "%", right_col, row)


def _move(fb, game, box, code, row):
    """One hint's move on one line: the box label, or the dice to keep."""
    if box >= 0:
        draw.text(fb, screens.BOX_LABELS[box], 1, row)
    else:
        _kept_dice(fb, game.dice, code, row)


def hint(app, fb):
    coach = app.coach
    game = app.game
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, "Hint", 0, 0, True)
    draw.text(fb, menu.SEAT_LABELS[game.current], 5, 0, True)
    draw.text(fb, "Roll", 8, 0, True)
    draw.number(fb, game.rolls, 13, 0, True)
    draw.text(fb, "/3", 14, 0, True)
    if coach.win_differs:  # multi-player: the max-score move and the to-win move
        draw.text(fb, "Max score", 0, 1)
        _percent(fb, coach.hint_chance, 15, 1)
        _move(fb, game, coach.hint_box, coach.hint_code, 2)
        draw.text(fb, "To win", 0, 4)
        _percent(fb, coach.win_chance, 15, 4)
        _move(fb, game, coach.win_box, coach.win_code, 5)
        draw.text(fb, "OK:take M:card", 0, 7)
        return
    if coach.hint_box >= 0:
        draw.text(fb, "Score now:" if coach.hint_rolls_left else "Score:", 0, 2)
        draw.text(fb, screens.labels(game.rules)[coach.hint_box], 1, 3)
    else:
        draw.text(fb, "Keep, then roll:", 0, 2)
        _kept_dice(fb, game.dice, coach.hint_code, 3, game.rules.face_letters)
    draw.text(fb, "Expect", 0, 5)
    _tenths(fb, coach.tenths(coach.hint_value), 15, 5)
    draw.text(fb, "OK:take M:card", 0, 7)


def review(app, fb):
    coach = app.coach
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, menu.SEAT_LABELS[app.review_seat], 0, 0, True)
    draw.text(fb, "turn review", 3, 0, True)
    lost = coach.lost_tenths()
    if lost == 0:
        draw.text(fb, "Best play!", 0, 2)
    elif coach.worst_kind == coach_module.BOX:
        draw.text(fb, "Best:", 0, 2)
        draw.text(fb, screens.labels(app.game.rules)[coach.worst_code], 6, 2)
        if coach.worst_rolls_left:
            draw.text(fb, "(score now)", 5, 3)
    else:
        draw.text(fb, "Best: keep, roll", 0, 2)
        _kept_dice(fb, coach.worst_dice, coach.worst_code, 3, app.game.rules.face_letters)
    draw.text(fb, "You lost", 0, 5)
    if coach.in_chance:  # multi-player: percentage points of the chance to win
        _tenths(fb, lost, 13, 5)
        draw.text(fb, "pp", 14, 5)
    else:
        _tenths(fb, lost, 15, 5)
    draw.text(fb, "OK: go on", 0, 7)

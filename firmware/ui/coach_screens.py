"""The coach's screens (ui/__init__.py says what a screen is): the hint during a turn and
the review after a turn.

Drawing reads the app's coach (coach.py) and game; the numbers were computed when the
hint was asked or the turn was scored, so a redraw allocates nothing. Expected totals
and costs show in tenths of a point without floats (advisor.tenths); in multi-player
games the hint shows the max-score and the to-win move with their chances to win when
they differ, and the review's cost is in percentage points of the chance to win. While a
hint is up the dice to re-roll blink on the LEDs (the OLED's ``.``).
"""
from micropython import const
import time

import coach as coach_module
from ui import draw
from ui import menu
import ui

# Button ids as literals: private constants cost no RAM (imported names would).
_ROLL = const(5)  # drivers.buttons.ROLL
_OK = const(8)  # drivers.buttons.OK
_MENU = const(9)  # drivers.buttons.MENU

_BLINK_MS = const(250)  # the dice to re-roll blink at 2 Hz
_ALL_HELD = const(0x1F)


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


def _move(app, fb, box, code, row):
    """One hint's move on one line: the box label, or the dice to keep."""
    if box >= 0:
        draw.text(fb, app.labels[box], 1, row)
    else:
        _kept_dice(fb, app.game.dice, code, row, app.game.rules.face_letters)


# The advisor's best move now; OK takes a hold, MENU shows the card, any other button
# goes back to the turn; long MENU asks to quit.
def _hint_draw(app, fb):
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
        _move(app, fb, coach.hint_box, coach.hint_code, 2)
        draw.text(fb, "To win", 0, 4)
        _percent(fb, coach.win_chance, 15, 4)
        _move(app, fb, coach.win_box, coach.win_code, 5)
        draw.text(fb, "OK:take M:card", 0, 7)
        return
    if coach.hint_box >= 0:
        draw.text(fb, "Score now:" if coach.hint_rolls_left else "Score:", 0, 2)
        draw.text(fb, app.labels[coach.hint_box], 1, 3)
    else:
        draw.text(fb, "Keep, then roll:", 0, 2)
        _kept_dice(fb, game.dice, coach.hint_code, 3, game.rules.face_letters)
    draw.text(fb, "Expect", 0, 5)
    _tenths(fb, coach.tenths(coach.hint_value), 15, 5)
    draw.text(fb, "OK:take M:card", 0, 7)


def _hint_handle(app, button, long):
    app.dice_dirty = True  # back to the steady dice
    if button == _MENU:
        if long:
            app.ask_quit(ui.TURN)
        else:
            app.show_card()
        return
    app.show(ui.TURN)
    coach = app.coach
    if button == _OK and coach.hint_box < 0 and coach.hint_code >= 0:  # OK: take the hold
        game = app.game
        if coach.hint_code != game.held and 0 < game.rolls < 3:
            app.set_holds(coach.hint_code)


def _hint_tick(app, now):
    """The dice to re-roll blink, the ones to keep stay steady like held dice; a hint
    to score now blinks nothing."""
    if time.ticks_diff(now, app.blink_next) < 0:
        return
    app.blink_next = time.ticks_add(now, _BLINK_MS)
    app.blink_off = not app.blink_off
    reroll = ~app.coach.hint_code & _ALL_HELD if app.coach.hint_box < 0 else 0
    faces = app.scratch_faces
    for i in range(5):
        faces[i] = 0 if app.blink_off and reroll & (1 << i) else app.faces[i]
    app.hw.dice.show(faces, app.held)


hint = (_hint_draw, _hint_handle, _hint_tick)  # draw, handle, tick


# After a human turn in coach mode "turn": what the turn's choices cost; OK or ROLL goes
# on.
def _review_draw(app, fb):
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
        draw.text(fb, app.labels[coach.worst_code], 6, 2)
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


def _review_handle(app, button, long):
    if button == _OK or button == _ROLL:
        app.next_turn()


review = (_review_draw, _review_handle, None)  # draw, handle, tick

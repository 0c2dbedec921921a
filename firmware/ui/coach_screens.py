"""The coach's screens (ui/__init__.py says what a screen is): the hint during a turn and
the review after a turn.

Drawing reads the app's coach (coach.py) and game; the numbers were computed when the
hint was asked or the turn was scored, so a redraw allocates nothing. Expected totals
and costs show in tenths of a point without floats (strategy_advisor.tenths); in multi-player
games the hint shows the max-score and the to-win move with their chances to win when
they differ (OK takes the picked one, the to-win move first), and the review's cost is
in percentage points of the chance to win. While a hint is up the dice to re-roll blink
on the LEDs (the OLED's ``.``). Each screen's own state is module-level here, set by its
way in (``open_hint``, ``show_review``).
"""

from micropython import const
import time

import coach as coach_module
import lang
from lang import T
from ui import draw
from ui import scorecard
from ui import screens
import ui

# Button ids as literals: private constants cost no RAM (imported names would).
_ROLL = const(5)  # drivers.buttons.ROLL
_UP = const(6)  # drivers.buttons.UP
_DOWN = const(7)  # drivers.buttons.DOWN
_OK = const(8)  # drivers.buttons.OK
_MENU = const(9)  # drivers.buttons.MENU

_BLINK_MS = const(250)  # the dice to re-roll blink at 2 Hz
_ALL_HELD = const(0x1F)
_MAX_SCORE = const(0)  # hint_pick: the hint line OK takes
_TO_WIN = const(1)

# Each screen's own state (module-level: the app holds none of it).
hint_pick = _MAX_SCORE  # the hint with opponents: the line OK takes
blink_next = 0  # the hint's blinking dice: when they next change, and whether off now
blink_off = False
review_seat = 0  # whose turn the review is about


def _tenths(fb, value, right_col, row):
    """``12.3`` with its last digit in ``right_col``, from whole tenths (>= 0)."""
    draw.number(fb, value % 10, right_col, row)
    draw.text(fb, ".", right_col - 1, row)
    draw.number(fb, value // 10, right_col - 2, row)


def _kept_dice(fb, dice, mask, row, animals=False):
    """The five dice in their places: the face of a kept die (its animal's picture on the
    Zoo card), ``.`` for one to re-roll."""
    for i in range(5):
        col = 1 + 3 * i
        if not mask & (1 << i):
            draw.text(fb, ".", col, row)
        elif animals:
            draw.pages().animal(fb, dice[i], col * 8, row * 8)
        else:
            draw.number(fb, dice[i], col, row)


def _shown(chance):
    """A chance to win as the hint shows it: a whole percent, 1..99."""
    p = draw.percent(chance)
    return 1 if p < 1 else (99 if p > 99 else p)


def _percent(fb, chance, right_col, row, inv=False):
    """``34%`` ending at ``right_col``: a chance to win, shown as 1..99 %."""
    draw.number(fb, _shown(chance), right_col - 1, row, inv)
    draw.text(fb, "%", right_col, row, inv)


def _move(app, fb, box, code, row):
    """One hint's move on one line: the box label, or the dice to keep."""
    if box >= 0:
        draw.label(fb, app.game.rules, box, lang.names[box], 1, row)
    else:
        _kept_dice(fb, app.game.dice, code, row, app.game.rules.faces is not None)


def open_hint(app):
    """Ask the coach for the best move now and show it (short MENU in a turn). With opponents
    the max-score and the to-win move are two lines when their chances differ as shown;
    OK takes the to-win one (the move the review's chance to win measure calls best),
    UP/DOWN picks the other. The same figure twice: one line, the to-win move."""
    global hint_pick, blink_off, blink_next
    game = app.game
    coach = app.coach
    rolls_left = 3 - game.rolls
    coach.hint(game.dice, rolls_left, game.held)
    if coach.win_differs and _shown(coach.hint_chance) == _shown(coach.win_chance):
        _take_win_move(coach, game.dice, rolls_left)
    hint_pick = _TO_WIN if coach.win_differs else _MAX_SCORE
    blink_off = False
    blink_next = app.now
    app.show(ui.HINT)


def _take_win_move(coach, dice, rolls_left):
    """Make the to-win move the one hint (``win_differs`` off), with the advisor's
    expected total of it: one line when both moves' chances show the same, and the
    review (in chance to win) never charges the move it shows."""
    adv = coach.adv
    if coach.win_box >= 0:
        n = adv.options(dice, 0, coach.codes, coach.values)
        for i in range(n):
            if coach.codes[i] == coach.win_box:
                coach.hint_value = coach.values[i]
    else:
        coach.hint_value = adv.hold_value(dice, rolls_left, coach.win_code)
    coach.hint_code = coach.win_code
    coach.hint_box = coach.win_box
    coach.hint_chance = coach.win_chance
    coach.win_differs = False


def _picked_code(app):
    """The hold (or box code) OK takes: the picked line's move."""
    coach = app.coach
    return coach.win_code if coach.win_differs and hint_pick == _TO_WIN else coach.hint_code


def _picked_box(app):
    """The box OK takes (-1: a hold), from the picked line."""
    coach = app.coach
    return coach.win_box if coach.win_differs and hint_pick == _TO_WIN else coach.hint_box


def _heading(fb, label, chance, row, inv):
    if inv:
        draw.bar(fb, row)
    draw.text(fb, label, 0, row, inv)
    _percent(fb, chance, 15, row, inv)


# The advisor's best move now; OK takes it (a hold, or the cursor on the box to score),
# UP/DOWN picks between the max-score and the to-win move when both show, MENU shows the
# card, any other button goes back to the turn as it was; long MENU asks to quit.
def _hint_draw(app, fb):
    coach = app.coach
    game = app.game
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, T.hint, 0, 0, True)
    draw.text(fb, lang.item(T.seats, game.current), 5, 0, True)
    draw.text(fb, T.roll, 8, 0, True)
    draw.number(fb, game.rolls, 13, 0, True)
    draw.text(fb, "/3", 14, 0, True)
    if coach.win_differs:  # multi-player: the max-score move and the to-win move
        to_win = hint_pick == _TO_WIN
        _heading(fb, lang.item(T.hint_moves, 0), coach.hint_chance, 1, not to_win)
        _move(app, fb, coach.hint_box, coach.hint_code, 2)
        _heading(fb, lang.item(T.hint_moves, 1), coach.win_chance, 4, to_win)
        _move(app, fb, coach.win_box, coach.win_code, 5)
        draw.text(fb, lang.item(T.hint_ok, 1 if to_win else 0), 0, 6)
        draw.text(fb, T.other_move, 0, 7)
        return
    if coach.hint_box >= 0:
        draw.text(fb, lang.item(T.score_now, 0 if coach.hint_rolls_left else 1), 0, 2)
        draw.label(fb, game.rules, coach.hint_box, lang.names[coach.hint_box], 1, 3)
    else:
        draw.text(fb, T.keep_then_roll, 0, 2)
        _kept_dice(fb, game.dice, coach.hint_code, 3, game.rules.faces is not None)
    draw.text(fb, T.ends_about, 0, 5)
    _tenths(fb, coach.tenths(coach.hint_value), 15, 5)
    draw.text(fb, T.menu_card, 0, 6)
    draw.text(fb, T.take_it, 0, 7)


def _hint_handle(app, button, long):
    global hint_pick, blink_next
    if (button == _UP or button == _DOWN) and app.coach.win_differs:
        hint_pick = _MAX_SCORE if hint_pick == _TO_WIN else _TO_WIN
        blink_next = app.now  # the picked move's dice blink at once
        app.dirty = True
        return
    app.dice_dirty = True  # back to the steady dice
    if button == _MENU:
        if long:
            screens.ask_quit(app, ui.TURN)
        else:
            scorecard.show_card(app)
        return
    app.show(ui.TURN)
    if button != _OK:
        return  # dismissed: the turn as it was, the cursor where the player left it
    code = _picked_code(app)
    box = _picked_box(app)
    game = app.game
    if box >= 0:  # the box to score: the cursor goes there (OK again asks to score it)
        app.cursor = box
        app.scroll_cursor()
    elif code >= 0 and code != game.held and 0 < game.rolls < 3:  # the hold
        app.set_holds(code)


def _hint_tick(app, now):
    """The dice to re-roll blink, the ones to keep stay steady like held dice; a hint
    to score now blinks nothing."""
    global blink_next, blink_off
    if time.ticks_diff(now, blink_next) < 0:
        return
    blink_next = time.ticks_add(now, _BLINK_MS)
    blink_off = not blink_off
    reroll = ~_picked_code(app) & _ALL_HELD if _picked_box(app) < 0 else 0
    faces = app.scratch_faces
    for i in range(5):
        faces[i] = 0 if blink_off and reroll & (1 << i) else app.faces[i]
    app.hw.dice.show(faces, app.held)


hint = (_hint_draw, _hint_handle, _hint_tick)  # draw, handle, tick


# After a human turn in coach mode "turn": what the turn's choices cost; OK or ROLL goes
# on.
def show_review(app, seat):
    """The review of ``seat``'s turn, just scored (app.score)."""
    global review_seat
    review_seat = seat
    app.show(ui.REVIEW)


def _review_draw(app, fb):
    coach = app.coach
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, lang.item(T.seats, review_seat), 0, 0, True)
    draw.text(fb, T.turn_review, 3, 0, True)
    lost = coach.lost_tenths()
    if lost == 0:
        draw.text(fb, T.best_play, 0, 2)
    elif coach.worst_kind == coach_module.BOX:
        draw.text(fb, T.better_score, 0, 2)
        draw.label(fb, app.game.rules, coach.worst_code, lang.names[coach.worst_code], 1, 3)
        if coach.worst_rolls_left:  # instead of rolling again
            draw.text(fb, T.right_away, 1, 4)
    else:
        draw.text(fb, T.better_keep, 0, 2)
        _kept_dice(fb, coach.worst_dice, coach.worst_code, 3, app.game.rules.faces is not None)
    # What the turn's choices cost: points of the final score (solo), or of the chance to
    # win with opponents, in percent ("You lost 2.3%", "of win chance").
    draw.text(fb, T.you_lost, 0, 5)
    if coach.in_chance:
        _tenths(fb, lost, 14, 5)
        draw.text(fb, "%", 15, 5)
    else:
        _tenths(fb, lost, 15, 5)
    draw.text(fb, lang.item(T.lost_what, 1 if coach.in_chance else 0), 0, 6)
    draw.text(fb, T.ok_go_on, 0, 7)


def _review_handle(app, button, long):
    if button == _OK or button == _ROLL:
        app.next_turn()


review = (_review_draw, _review_handle, None)  # draw, handle, tick

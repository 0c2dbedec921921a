"""The turn screen and its score confirmation (ui/__init__.py says what a screen is).

Turn: the header (player, ``Roll n/3``, total), six rows of the box list with the points
the dice would score, and a footer (the opponents' totals in the compact font, the solo
upper progress, or the round-1 note; for a moment, why ROLL did nothing). ROLL rolls, 1-5
hold, UP/DOWN move the cursor, OK asks to score the box (ConfirmScore: OK again scores),
short MENU gives a hint (coach on) or the card, long MENU asks to quit. While the LED dice
tumble the list shows no points (a press that needs them ends the tumble). A computer's
turn is played by seats.play from the app's frame loop: this screen only draws it. The
confirmation's state is module-level here, set by ``ask_score`` (its way in).
"""

from micropython import const
import time

import lang
from lang import T
import rules
from ui import coach_screens
from ui import draw
from ui import menu
from ui import scorecard
from ui import screens
import ui

# Button ids as literals: private constants cost no RAM (imported names would).
_HOLD1 = const(0)  # drivers.buttons.HOLD1
_ROLL = const(5)  # drivers.buttons.ROLL
_UP = const(6)  # drivers.buttons.UP
_DOWN = const(7)  # drivers.buttons.DOWN
_OK = const(8)  # drivers.buttons.OK
_MENU = const(9)  # drivers.buttons.MENU

_LIST_ROWS = const(6)  # rows 1..6 list boxes, row 7 is the footer
_UPPER = const(0)  # in app.breakdowns[seat], a rules.totals() tuple
_UPPER_BONUS = const(1)
_GRAND = const(4)
_ALL_HELD = const(0x1F)
_MSG_MS = const(1500)  # how long the footer says why ROLL did nothing


def _turn_draw(app, fb):
    game = app.game
    seat = game.current
    draw.clear(fb)
    # Row 0, inverted: player name, ``Roll n/3`` and the player's running total.
    draw.bar(fb, 0)
    draw.text(fb, lang.item(T.seats, seat), 0, 0, True)
    draw.text(fb, T.roll, 3, 0, True)
    draw.number(fb, game.rolls, 8, 0, True)
    draw.text(fb, "/3", 9, 0, True)
    draw.number(fb, app.breakdowns[seat][_GRAND], 15, 0, True)
    top = app.top
    card = game.players[seat].card
    # While the LED dice tumble, the list shows neither the points nor the cursor (the
    # best box): they would give the roll away before the dice settle.
    shown = game.rolls > 0 and not app.rolling
    # Until this turn's first roll the score before it can be taken back: row 6 says how
    # (row 7 keeps the others' totals and chances); a computer on turn waits for OK
    # meanwhile, which row 5 says. The list gives those rows up.
    rows = _LIST_ROWS
    if game.last is not None:
        rows -= 2 if app.computer_turn() else 1
    for line in range(rows):
        box = top + line
        row = line + 1
        inv = box == app.cursor and shown
        if inv:
            draw.bar(fb, row)
        draw.label(fb, game.rules, box, lang.short[box], 1, row, inv)
        # A filled box: its points. An open box after a roll: ``+points`` it would take
        # now, ``-`` where the joker rule forbids it; before the first roll: blank.
        if card[box] >= 0:
            draw.number(fb, card[box], 15, row, inv)
        elif shown:
            points = app.options[box]
            if points < 0:
                draw.text(fb, "-", 15, row, inv)
            else:
                col = draw.number(fb, points, 15, row, inv)
                draw.text(fb, "+", col - 1, row, inv)
    if top > 0:
        draw.text(fb, "^", 0, 1)
    if rows < _LIST_ROWS:
        draw.text(fb, T.take_back, 0, 6)
        if rows < _LIST_ROWS - 1:
            draw.text(fb, T.ok_go_on, 0, 5)
    elif top + _LIST_ROWS < game.rules.n_boxes:
        draw.text(fb, "v", 0, 6)
    if app.turn_msg:
        draw.text(fb, getattr(T, app.turn_msg), 0, 7)  # why ROLL did nothing (also without sound)
    elif app.note and game.round == 0:
        draw.text(fb, getattr(T, app.note), 0, 7)  # e.g. no strategy table: shown through round 1
    elif len(game.players) > 1:  # the others' totals in the compact font: P2 174  P3 98
        scorecard.opponents(app, fb, seat)
    else:  # solo: the upper section's progress to its threshold, "Upper 45 /63"
        draw.text(fb, T.upper, 0, 7)
        draw.number(fb, app.breakdowns[0][_UPPER], 9, 7)
        draw.text(fb, "/", 10, 7)
        draw.number(fb, game.rules.upper_threshold, 12, 7)


def _turn_handle(app, button, long):
    game = app.game
    if app.turn_msg:
        app.turn_msg = ""  # any press: the footer as it was
        app.dirty = True
    if app.rolling and button >= _UP and not long and not app.computer_turn():
        _settle(app)  # the box list, a hint or OK: the dice stop tumbling first
    if game.last is not None:  # the last score can be taken back until this turn's roll
        if button == _UP:
            app.undo()
            return
        if button == _OK and app.computer_turn():
            app.keep_score()  # it stands: the computer plays
            return
    if button == _MENU:
        if long:
            screens.ask_quit(app, ui.TURN)
        elif app.coach_mode() != menu.COACH_OFF and game.rolls > 0:
            coach_screens.open_hint(app)  # OK there takes the move
        else:
            scorecard.show_card(app)
        return
    if app.computer_turn():
        return  # the computer is playing this turn
    if button == _ROLL:
        if game.rolls < 3 and game.held != _ALL_HELD:
            app.roll()
        else:  # no roll left, or nothing to roll: choose a box
            app.beep(220, 80)
            app.turn_msg = "no_rolls_left" if game.rolls >= 3 else "all_held"  # lang.T's keys
            app.turn_msg_until = time.ticks_add(app.now, _MSG_MS)
            app.dirty = True
    elif button < _ROLL:  # HOLD1..HOLD5
        if 0 < game.rolls < 3:
            game.toggle_hold(button - _HOLD1)
            app.sync_dice()
            app.changed()
    elif button == _UP or button == _DOWN:
        if game.rolls > 0:
            app.move_cursor(1 if button == _DOWN else -1)
    elif button == _OK:
        if game.rolls > 0 and app.options[app.cursor] >= 0:
            ask_score(app, app.cursor)


def _settle(app):
    """End the tumble now: the LEDs show the rolled faces as the OLED shows the points."""
    app.rolling = False
    app.dice_dirty = True
    app.dirty = True


def _turn_tick(app, now):
    if app.turn_msg and time.ticks_diff(now, app.turn_msg_until) >= 0:
        app.turn_msg = ""
        app.dirty = True


turn = (_turn_draw, _turn_handle, _turn_tick)  # draw, handle, tick


# The second step of scoring: the box, its points and the total it makes (a zero says
# so); OK scores, any other button goes back to the turn.
# Its state: the box OK offered to score, its points, the Yahtzee and upper bonus it
# would earn now and the total after; one list made once, refilled by ask_score.
_confirm = [-1, 0, 0, 0, 0]
_scratch_card = rules.new_card()  # the card as it would be, made once


def ask_score(app, box):
    """Scoring takes two presses: OK shows the box, its points and the total it makes
    (a zero says so), OK again scores, any other button goes back. A first OK never
    changes the game, so an OK pressed out of habit only shows what a second would do."""
    game = app.game
    card = game.players[game.current].card
    scratch = _scratch_card
    for i in range(len(card)):
        scratch[i] = card[i]
    bonus = rules.yahtzee_bonus_for(game.rules, card, game.dice)
    points = app.options[box]
    scratch[box] = points
    scratch[rules.BONUS] += bonus
    then = rules.totals(game.rules, scratch)
    upper = then[_UPPER_BONUS] - app.breakdowns[game.current][_UPPER_BONUS]
    confirm = _confirm
    confirm[0] = box
    confirm[1] = points
    confirm[2] = bonus
    confirm[3] = upper
    confirm[4] = then[_GRAND]
    app.show(ui.CONFIRM_SCORE)


def _confirm_score_draw(app, fb):
    """The second step of scoring: the box, its points and the total it makes; OK scores."""
    box, points, bonus, upper, total = _confirm
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, lang.item(T.score_ask, 1 if points == 0 else 0), 0, 0, True)
    draw.label(fb, app.game.rules, box, lang.box_name(box, 13), 0, 2)
    draw.number(fb, points, 15, 2)
    row = screens.bonuses(fb, bonus, upper, 3)
    row = 4 if row < 4 else row
    draw.text(fb, T.total_then, 0, row)
    draw.number(fb, total, 15, row)
    draw.text(fb, lang.item(T.score_keys, 0), 1, 6)
    draw.text(fb, lang.item(T.score_keys, 1), 1, 7)


def _confirm_score_handle(app, button, long):
    if button == _OK:
        app.score(_confirm[0])  # its box
    else:
        app.show(ui.TURN)


confirm_score = (_confirm_score_draw, _confirm_score_handle, None)  # draw, handle, tick

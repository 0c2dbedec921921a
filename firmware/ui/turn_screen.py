"""The turn screen and its score confirmation (ui/screen.py says what a screen is).

Turn: the header (player, ``Roll n/3``, total), six rows of the box list with the points
the dice would score, and a footer (the opponents' totals in the compact font, the solo
upper progress, or the round-1 note). ROLL rolls, 1-5 hold, UP/DOWN move the cursor, OK
asks to score the box (ConfirmScore: OK again scores), short MENU gives a hint (coach on)
or the card, long MENU asks to quit. On a computer's turn ``tick`` plays it step by step.
"""
from micropython import const

from drivers.buttons import HOLD1, ROLL, UP, DOWN, OK, MENU
import players
from ui import draw
from ui import menu
from ui import scorecard
from ui import screen
from ui.screens import BOX_LABELS

_N_BOXES = const(13)
_LIST_ROWS = const(6)  # rows 1..6 list boxes, row 7 is the footer
_UPPER = const(0)  # in app.breakdowns[seat], a rules.totals() tuple
_GRAND = const(4)
_ALL_HELD = const(0x1F)
_CPU_STEP_MS = const(600)


def _header(app, fb, title_seat):
    """Row 0, inverted: player name, ``Roll n/3`` and the player's running total."""
    game = app.game
    draw.bar(fb, 0)
    draw.text(fb, menu.SEAT_LABELS[title_seat], 0, 0, True)
    draw.text(fb, "Roll", 3, 0, True)
    draw.number(fb, game.rolls, 8, 0, True)
    draw.text(fb, "/3", 9, 0, True)
    draw.number(fb, app.breakdowns[title_seat][_GRAND], 15, 0, True)


def _upper_goal(app, fb, col, row):
    """``/63`` from column ``col``: the ruleset's threshold for the upper bonus."""
    draw.text(fb, "/", col, row)
    draw.number(fb, app.game.rules.upper_threshold, col + 2, row)


def _footer_totals(app, fb, row, skip):
    """The other players' labels and totals in the compact font (``P2 174  P3 98``, see
    ui/scorecard.py); solo: the upper section's progress."""
    game = app.game
    n = len(game.players)
    if n == 1:
        draw.text(fb, "Upper", 0, row)
        draw.number(fb, app.breakdowns[0][_UPPER], 9, row)
        _upper_goal(app, fb, 10, row)
        return
    scorecard.opponents(app, fb, skip)


def _box_value(app, fb, box, row, inv):
    """Filled box: its points. Open box after a roll: ``+points`` it would take now,
    ``-`` where the joker rule forbids it. Before the first roll open boxes are blank."""
    card = app.game.players[app.game.current].card
    if card[box] >= 0:
        draw.number(fb, card[box], 15, row, inv)
    elif app.game.rolls > 0:
        points = app.options[box]
        if points < 0:
            draw.text(fb, "-", 15, row, inv)
        else:
            col = draw.number(fb, points, 15, row, inv)
            draw.text(fb, "+", col - 1, row, inv)


def _turn_draw(app, fb):
    game = app.game
    draw.clear(fb)
    _header(app, fb, game.current)
    top = app.top
    for line in range(_LIST_ROWS):
        box = top + line
        row = line + 1
        inv = box == app.cursor and game.rolls > 0
        if inv:
            draw.bar(fb, row)
        draw.text(fb, BOX_LABELS[box], 1, row, inv)
        _box_value(app, fb, box, row, inv)
    if top > 0:
        draw.text(fb, "^", 0, 1)
    if top + _LIST_ROWS < _N_BOXES:
        draw.text(fb, "v", 0, 6)
    if app.note and game.round == 0:
        draw.text(fb, app.note, 0, 7)  # e.g. no strategy table: shown through round 1
    else:
        _footer_totals(app, fb, 7, game.current)


def _turn_handle(app, button, long):
    game = app.game
    if button == MENU:
        if long:
            app.ask_quit(screen.TURN)
        elif app.coach_mode() != menu.COACH_OFF and game.rolls > 0:
            app.show_hint()
        else:
            app.show_card()
        return
    if app.computer_turn():
        return  # the computer is playing this turn
    if button == ROLL:
        if game.rolls < 3 and game.held != _ALL_HELD:
            app.roll()
        else:
            app.beep(220, 80)  # no roll left, or nothing to roll: choose a box
    elif button < ROLL:  # HOLD1..HOLD5
        if 0 < game.rolls < 3:
            game.toggle_hold(button - HOLD1)
            app.sync_dice()
            app.changed()
    elif button == UP or button == DOWN:
        if game.rolls > 0:
            app.move_cursor(1 if button == DOWN else -1)
    elif button == OK:
        if game.rolls > 0 and app.options[app.cursor] >= 0:
            app.ask_score(app.cursor)


def _turn_tick(app, now):
    if app.game is not None and app.computer_turn() and not app.rolling and app.timer_due(now):
        _computer_step(app)
        if app.screen == screen.TURN:
            app.start_timer(now, _CPU_STEP_MS)


turn = (_turn_draw, _turn_handle, _turn_tick)  # draw, handle, tick


def _computer_step(app):
    """One visible step of a computer turn: roll, set holds, point at a box, score."""
    game = app.game
    if game.rolls == 0:
        app.roll()
        return
    if app.plan_rolls != game.rolls:  # decide once per roll (levels draw randomness)
        app.plan_rolls = game.rolls
        app.plan_mask = players.choose_hold(app.coach, game)
        if app.plan_mask < 0:
            app.plan_box = players.choose_box(app.coach, game, app.options)
    mask = app.plan_mask
    if mask < 0:
        box = app.plan_box
        if app.cursor != box:
            app.cursor = box
            app.scroll_cursor()
            app.dirty = True
        else:
            app.score(box)
        return
    if mask != game.held:
        app.set_holds(mask)
    else:
        app.roll()


# The second step of scoring: the box, its points and the total it makes (a zero says
# so); OK scores, any other button goes back to the turn.
def _confirm_score_draw(app, fb):
    """The second step of scoring: the box, its points and the total it makes; OK scores."""
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, "Score a zero?" if app.confirm_points == 0 else "Score this?", 0, 0, True)
    draw.text(fb, BOX_LABELS[app.confirm_box], 0, 2)
    draw.number(fb, app.confirm_points, 15, 2)
    if app.confirm_bonus:
        draw.text(fb, "Y.bonus", 0, 3)
        draw.number(fb, app.confirm_bonus, 15, 3)
    draw.text(fb, "Total then", 0, 4)
    draw.number(fb, app.confirm_total, 15, 4)
    draw.text(fb, "OK    = score", 1, 6)
    draw.text(fb, "other = back", 1, 7)


def _confirm_score_handle(app, button, long):
    if button == OK:
        app.score(app.confirm_box)
    else:
        app.show(screen.TURN)


confirm_score = (_confirm_score_draw, _confirm_score_handle, screen.no_tick)  # draw, handle, tick

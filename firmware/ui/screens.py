"""The screens around a game (ui/__init__.py says what a screen is): the splash, the
roll-off, the quit confirmation, a computer's turn summary and the end screen. The setup
menu is ui/menu.py, the turn ui/turn_screen.py, the card ui/scorecard.py, hint and review
ui/coach_screens.py. Each screen's own state is module-level here, set by its way in
(``ask_quit``, ``show_summary``, ``show_end``); ``bonuses`` draws the lines a score's
bonuses take (here and on the score confirmation).

Drawing is on the 8x8 text grid (16 x 8 cells, ui/draw.py): row 0 is an inverted header.
Numbers come from caches the app refreshes after each game action, so a redraw allocates
nothing.
"""

from micropython import const

import lang
from lang import T
import seats
from ui import draw
import ui

# Button ids as literals: private constants cost no RAM (imported names would).
_UP = const(6)  # drivers.buttons.UP
_OK = const(8)  # drivers.buttons.OK
_MENU = const(9)  # drivers.buttons.MENU
_PHASE_TURN = const(1)  # game.TURN

_GRAND = const(4)  # in app.breakdowns[seat], a rules.totals() tuple
_STARTER_SHOW_MS = const(1500)

# Each screen's own state (module-level: the app holds none of it).
back_screen = ui.TURN  # the quit confirmation: where "play on" goes
# A computer's summary: its seat, box and points, and the bonuses that score earned
# (Yahtzee, upper); one list made once and refilled, so no name per figure.
_summary = [0, 0, 0, 0, 0]
ranking = ()  # the end screen: game.ranking(), [(place, seat, total), ...]


def bonuses(fb, yahtzee, upper, row):
    """The Yahtzee bonus and the upper bonus a score earns, a line each when nonzero,
    from ``row``; returns the next free row (the summary's and the score confirmation's)."""
    if yahtzee:  # 100 a further Yahtzee: three digits
        draw.text(fb, lang.fit(T.yahtzee_bonus, 12), 0, row)
        draw.number(fb, yahtzee, 15, row)
        row += 1
    if upper:
        draw.text(fb, lang.fit(T.upper_bonus, 13), 0, row)
        draw.number(fb, upper, 15, row)
        row += 1
    return row


# The title for 1.5 s (any button: the menu now).
def _splash_draw(app, fb):
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, "YAHTZEE", 4, 0, True)  # the game's name, in every language
    # five small dice as a logo
    for i in range(5):
        x = 4 + i * 25
        fb.rect(x, 20, 20, 20, 1)
        face = i + 2
        if face & 1:
            fb.fill_rect(x + 9, 29, 2, 2, 1)
        if face > 1:
            fb.fill_rect(x + 4, 24, 2, 2, 1)
            fb.fill_rect(x + 14, 34, 2, 2, 1)
        if face > 3:
            fb.fill_rect(x + 14, 24, 2, 2, 1)
            fb.fill_rect(x + 4, 34, 2, 2, 1)
        if face == 6:
            fb.fill_rect(x + 4, 29, 2, 2, 1)
            fb.fill_rect(x + 14, 29, 2, 2, 1)
    draw.text(fb, T.one_to_four, (16 - (T.one_to_four & 0xFF)) // 2, 6)  # the menu follows by itself


def _splash_handle(app, button, long):
    app.show(ui.MENU_SCREEN)


def _splash_tick(app, now):
    if app.timer_due(now):
        app.show(ui.MENU_SCREEN)


splash = (_splash_draw, _splash_handle, _splash_tick)  # draw, handle, tick


# Who starts: one die per player, ties roll again; OK skips a wait.
def _rolloff_draw(app, fb):
    game = app.game
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, T.who_starts, 0, 0, True)
    faces = app.faces
    animals = game.rules.faces  # the Zoo card: the animal's picture instead of its number
    for seat in range(len(game.players)):
        row = seat + 1
        draw.text(fb, lang.item(T.seats, seat), 0, row)
        if not animals:  # which die: the one above the seat's number
            draw.text(fb, T.die, 3, row)
            draw.number(fb, seat + 1, 4 + (T.die & 0xFF), row)
        if app.rolling or faces[seat] == 0:
            draw.text(fb, "-", 15, row)
        elif animals:
            draw.pages().animal(fb, faces[seat], 120, row * 8)
        else:
            draw.number(fb, faces[seat], 15, row)
    if app.starter >= 0:
        draw.text(fb, lang.item(T.seats, app.starter), 0, 6)
        draw.text(fb, T.starts, 3, 6)
    elif app.tie:
        draw.text(fb, T.tie_again, 0, 6)
    if app.note:
        draw.text(fb, getattr(T, app.note), 0, 7)


def _rolloff_handle(app, button, long):
    if button == _OK and app.timer_on:
        app.timer_at = app.now  # skip the wait
    elif button == _MENU and long:
        ask_quit(app, ui.ROLLOFF)


def _rolloff_tick(app, now):
    # The roll-off lasts until the strategy table is open, which the first turn may
    # need: a screen's timers wait while background work is queued (app.frame).
    if app.rolling or not app.timer_due(now):
        return
    if app.starter >= 0:
        app.start_turn(True)  # its advisor prepared as a part of its own
    elif app.game.phase == _PHASE_TURN:
        app.starter = app.game.current
        app.dirty = True
        app.start_timer(now, _STARTER_SHOW_MS)
    else:
        app.rolloff_round()


rolloff = (_rolloff_draw, _rolloff_handle, _rolloff_tick)  # draw, handle, tick


# Long MENU in a game: OK quits it, anything else goes back.
def ask_quit(app, back):
    """The quit confirmation; ``back`` is the screen to return to."""
    global back_screen
    back_screen = back
    app.show(ui.CONFIRM_QUIT)


def _confirm_quit_draw(app, fb):
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, T.quit_game, 0, 0, True)
    draw.text(fb, lang.item(T.quit_keys, 0), 1, 3)
    draw.text(fb, lang.item(T.quit_keys, 1), 1, 4)


def _confirm_quit_handle(app, button, long):
    if button == _OK:
        app.game = None  # quit: the save layer forgets it (changed), then the menu
        app.changed()
        app.show(ui.MENU_SCREEN)
    else:
        app.show(back_screen)


confirm_quit = (_confirm_quit_draw, _confirm_quit_handle, None)  # draw, handle, tick


# After a computer's turn: the dice it scored (also still on the LEDs), the box and its
# points, and its total now; 1.5 s or OK.
def show_summary(app, seat, box, points, bonus, upper):
    """After a computer scored ``points`` in ``box`` (app.score), with the Yahtzee and
    upper ``bonus`` that earned."""
    figures = _summary
    figures[0] = seat
    figures[1] = box
    figures[2] = points
    figures[3] = bonus
    figures[4] = upper
    app.show(ui.SUMMARY)


def _summary_draw(app, fb):
    """After a computer's turn: the dice it scored (also still on the LEDs), the box and
    its points, the bonuses it earned, its total now and its chance to win (the win
    meter); OK, or after 1.5 s when no human plays."""
    seat, box, points, bonus, upper = _summary
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, lang.item(T.seats, seat), 0, 0, True)
    draw.text(fb, T.scored, 3, 0, True)
    faces = app.faces
    animals = app.game.rules.faces  # the Zoo card: each die's animal
    if animals:
        draw.pages().dice(fb, faces, 1, 2, 3)
    else:
        for i in range(5):
            draw.number(fb, faces[i], 1 + 3 * i, 2)
    # The box and its points, the bonuses the score earned, the total (row 5 without).
    row = 4 if not (bonus or upper) else 3
    draw.label(fb, app.game.rules, box, lang.box_name(box, 13), 0, row)
    draw.number(fb, points, 15, row)
    row = bonuses(fb, bonus, upper, row + 1)
    draw.text(fb, T.total, 0, row)
    draw.number(fb, app.breakdowns[seat][_GRAND], 15, row)
    if app.win_known:  # its chance to win now, between its total's label and figure
        draw.number(fb, draw.percent(app.win_chance[seat]), 10, row)
        draw.text(fb, "%", 11, row)
    draw.text(fb, T.ok_go_on, 0, 7)


def _summary_handle(app, button, long):
    if button == _OK:
        app.timer_on = False
        app.next_turn()  # skip the rest of the 1.5 s
    elif button == _MENU and long and app.game.phase == _PHASE_TURN:
        ask_quit(app, ui.SUMMARY)  # not after the last score: quitting dropped its high scores


def _summary_tick(app, now):
    if app.timer_due(now):
        app.next_turn()


summary = (_summary_draw, _summary_handle, _summary_tick)  # draw, handle, tick


# The ranking with shared places, then the winner(s); OK: high scores first (the save
# layer), else the menu.
def show_end(app):
    """The game is over (app.finish): its ranking."""
    global ranking
    ranking = app.game.ranking()
    app.show(ui.END)


def _end_draw(app, fb):
    """Ranking with shared places, then the winner(s)."""
    game = app.game
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, T.game_over, 0, 0, True)
    n = len(ranking)
    for i in range(n):
        place, seat, total = ranking[i]
        row = i + 1
        draw.number(fb, place, 0, row)
        draw.text(fb, ".", 1, row)
        draw.text(fb, lang.item(T.seats, seat), 3, row)
        draw.text(fb, lang.item(T.human_cpu, 1 if seats.computer(game.players[seat].kind) else 0), 6, row)
        draw.number(fb, total, 15, row)
    row = n + 2
    if game.last is not None:  # its last score can still be taken back: how, on row 6
        draw.text(fb, T.take_back, 0, 6)
        if row > 5:
            row = 5  # four seats: the winner's line just under theirs
    if n == 1:
        draw.text(fb, T.final_score, 0, row)
        draw.number(fb, ranking[0][2], 15, row)
    else:  # the winner, or the seats sharing first place as far as the line holds them
        label = T.tie if ranking[1][0] == 1 else T.winner
        draw.text(fb, label, 0, row)
        col = (label & 0xFF) + 1
        for place, seat, _total in ranking:
            if place == 1 and col + 2 <= draw.COLS:
                draw.text(fb, lang.item(T.seats, seat), col, row)
                col += 3
    # What OK does: the high scores (initials, the table), or the menu without a save layer.
    draw.text(fb, lang.item(T.end_keys, 0 if app.session is not None else 1), 0, 7)


def _end_handle(app, button, long):
    game = app.game
    if button == _UP and game.last is not None:
        app.undo()  # the game's last score taken back: its turn again
    elif button == _OK:
        if game.last is not None:
            app.keep_score()  # it stands: the game's end is counted now
        if app.session is None or not app.session.end_ok(app):
            app.show(ui.MENU_SCREEN)


end = (_end_draw, _end_handle, None)  # draw, handle, tick

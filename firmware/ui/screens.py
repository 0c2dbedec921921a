"""The screens around a game (ui/__init__.py says what a screen is): the splash, the setup
menu, the roll-off, the quit confirmation, a computer's turn summary and the end screen.
The turn itself is ui/turn_screen.py, the card ui/scorecard.py, hint and review
ui/coach_screens.py.

Drawing is on the 8x8 text grid (16 x 8 cells, ui/draw.py): row 0 is an inverted header.
Numbers come from caches the app refreshes after each game action, so a redraw allocates
nothing.
"""
from micropython import const

from ui import draw
from ui import menu
from ui import turn_screen
import ui

# Button ids as literals: private constants cost no RAM (imported names would).
_ROLL = const(5)  # drivers.buttons.ROLL
_UP = const(6)  # drivers.buttons.UP
_DOWN = const(7)  # drivers.buttons.DOWN
_OK = const(8)  # drivers.buttons.OK
_MENU = const(9)  # drivers.buttons.MENU
_PHASE_TURN = const(1)  # game.TURN

# Box labels sized for 10 columns (rules.BOX_IDS order) for the standard card; another
# card (its own box table) shows the ruleset's labels (``app.labels`` is the game's).
BOX_LABELS = (
    "Aces", "Twos", "Threes", "Fours", "Fives", "Sixes",
    "3 of kind", "4 of kind", "Full house", "Small str", "Large str", "Yahtzee", "Chance",
)
_GRAND = const(4)  # in app.breakdowns[seat], a rules.totals() tuple
_MENU_ROWS = const(7)
_STARTER_SHOW_MS = const(1500)


# The title for 1.5 s (any button: the menu now).
def _splash_draw(app, fb):
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, "    YAHTZEE", 0, 0, True)
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
    draw.text(fb, "1-4 players", 2, 6)  # the menu follows by itself (any button: now)


def _splash_handle(app, button, long):
    app.show(ui.MENU_SCREEN)


def _splash_tick(app, now):
    if app.timer_due(now):
        app.show(ui.MENU_SCREEN)


splash = (_splash_draw, _splash_handle, _splash_tick)  # draw, handle, tick


# The setup menu (ui/menu.py): UP/DOWN move, OK or ROLL changes a value, starts the game
# or opens the records.
def _setup_draw(app, fb):
    settings = app.settings
    items = settings.items
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, "Setup", 0, 0, True)
    top = app.menu_top
    for line in range(7):
        index = top + line
        if index >= len(items):
            break
        row = line + 1
        item = items[index]
        inv = index == app.menu_cursor
        if inv:
            draw.bar(fb, row)
        if menu.SEAT1 <= item < menu.SEAT1 + menu.MAX_PLAYERS:
            seat = item - menu.SEAT1
            draw.text(fb, menu.SEAT_LABELS[seat], 1, row, inv)
            draw.text(fb, menu.KIND_LABELS[settings.kinds[seat]], 4, row, inv)
            continue
        if item == menu.JOKER and settings.zoo():
            draw.text(fb, menu.RULES_LABEL, 0, row, inv)  # "Rules Zoo (kids)": 16 columns
        else:
            draw.text(fb, menu.LABELS[item], 1, row, inv)
        if item == menu.PLAYERS:
            draw.number(fb, settings.players, 15, row, inv)
        elif item == menu.JOKER:
            label = menu.CHOICE_LABELS[settings.joker]
            draw.text(fb, label, 16 - len(label), row, inv)
        elif item == menu.COACH:
            label = menu.COACH_LABELS[settings.coach]
            draw.text(fb, label, 16 - len(label), row, inv)
        elif item == menu.YBONUS:
            draw.text(fb, menu.ON_OFF[settings.yahtzee_bonus], 13, row, inv)
        elif item == menu.SOUND:
            draw.text(fb, menu.ON_OFF[settings.sound], 13, row, inv)
        elif item == menu.LEDS:
            draw.number(fb, settings.leds, 15, row, inv)
    if top > 0:
        draw.text(fb, "^", 14, 0, True)  # lines above (cols 10-13: the battery)
    if top + 7 < len(items):
        draw.text(fb, "v", 15, 0, True)  # and below


def _setup_handle(app, button, long):
    settings = app.settings
    if button == _UP or button == _DOWN:
        step = 1 if button == _DOWN else -1
        app.menu_cursor = (app.menu_cursor + step) % len(settings.items)
        _scroll_menu(app)
    elif button == _OK or button == _ROLL:
        item = settings.items[app.menu_cursor]
        if item == menu.START:
            app.new_game()
            return
        if item == menu.RECORDS:
            if app.session is not None:
                app.session.open_records(app)
            return
        if settings.change(item):
            app.menu_cursor = settings.items.index(item)
        app.apply_settings()
        _scroll_menu(app)
        app.changed()
    app.dirty = True


setup = (_setup_draw, _setup_handle, None)  # draw, handle, tick


def _scroll_menu(app):
    if app.menu_cursor < app.menu_top:
        app.menu_top = app.menu_cursor
    elif app.menu_cursor > app.menu_top + _MENU_ROWS - 1:
        app.menu_top = app.menu_cursor - _MENU_ROWS + 1


# Who starts: one die per player, ties roll again; OK skips a wait.
def _rolloff_draw(app, fb):
    game = app.game
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, "Who starts?", 0, 0, True)
    faces = app.faces
    animals = game.rules.faces  # the Zoo card: the animal's name instead of its number
    for seat in range(len(game.players)):
        row = seat + 1
        draw.text(fb, menu.SEAT_LABELS[seat], 1, row)
        if not animals:
            draw.text(fb, "die", 4, row)
            draw.number(fb, seat + 1, 8, row)
        if app.rolling or faces[seat] == 0:
            draw.text(fb, "-", 12, row)
        elif animals:
            name = animals[faces[seat] - 1]
            draw.text(fb, name, 16 - len(name), row)
        else:
            draw.number(fb, faces[seat], 12, row)
    if app.starter >= 0:
        draw.text(fb, menu.SEAT_LABELS[app.starter], 1, 6)
        draw.text(fb, "starts!", 4, 6)
    elif app.tie:
        draw.text(fb, "Tie: roll again", 0, 6)
    if app.note:
        draw.text(fb, app.note, 0, 7)


def _rolloff_handle(app, button, long):
    if button == _OK and app.timer_on:
        app.timer_at = app.now  # skip the wait
    elif button == _MENU and long:
        app.ask_quit(ui.ROLLOFF)


def _rolloff_tick(app, now):
    # The roll-off lasts until the strategy table is open (app.coach_pending): the first
    # turn may need it.
    if app.rolling or app.coach_pending or not app.timer_due(now):
        return
    if app.starter >= 0:
        app.start_turn(True)  # its advisor prepared in a frame of its own
    elif app.game.phase == _PHASE_TURN:
        app.starter = app.game.current
        app.dirty = True
        app.start_timer(now, _STARTER_SHOW_MS)
    else:
        app.rolloff_round()


rolloff = (_rolloff_draw, _rolloff_handle, _rolloff_tick)  # draw, handle, tick


# Long MENU in a game: OK quits it, anything else goes back.
def _confirm_quit_draw(app, fb):
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, "Quit this game?", 0, 0, True)
    draw.text(fb, "OK    = quit", 1, 3)
    draw.text(fb, "other = play on", 1, 4)


def _confirm_quit_handle(app, button, long):
    if button == _OK:
        app.game = None  # quit: the save layer forgets it (changed), then the menu
        app.changed()
        app.show(ui.MENU_SCREEN)
    else:
        app.show(app.back_screen)


confirm_quit = (_confirm_quit_draw, _confirm_quit_handle, None)  # draw, handle, tick


# After a computer's turn: the dice it scored (also still on the LEDs), the box and its
# points, and its total now; 1.5 s or OK.
def _summary_draw(app, fb):
    """After a computer's turn: the dice it scored (also still on the LEDs), the box and
    its points, the bonuses it earned, and its total now; 1.5 s or OK."""
    seat = app.summary_seat
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, menu.SEAT_LABELS[seat], 0, 0, True)
    draw.text(fb, "scored", 3, 0, True)
    faces = app.faces
    letters = app.game.rules.face_letters  # the Zoo card: each animal's letter
    for i in range(5):
        if letters:
            draw.text(fb, letters[faces[i] - 1], 1 + 3 * i, 2)
        else:
            draw.number(fb, faces[i], 1 + 3 * i, 2)
    # The box and its points, the bonuses the score earned, the total (row 5 without).
    row = 4 if not (app.summary_bonus or app.summary_upper) else 3
    draw.text(fb, app.labels[app.summary_box], 0, row)
    draw.number(fb, app.summary_points, 15, row)
    row = turn_screen.bonuses(fb, app.summary_bonus, app.summary_upper, row + 1)
    draw.text(fb, "Total", 0, row)
    draw.number(fb, app.breakdowns[seat][_GRAND], 15, row)
    draw.text(fb, "OK: go on", 0, 7)


def _summary_handle(app, button, long):
    if button == _OK:
        app.timer_on = False
        app.next_turn()  # skip the rest of the 1.5 s
    elif button == _MENU and long and app.game.phase == _PHASE_TURN:
        app.ask_quit(ui.SUMMARY)  # not after the last score: quitting dropped its high scores


def _summary_tick(app, now):
    if app.timer_due(now):
        app.next_turn()


summary = (_summary_draw, _summary_handle, _summary_tick)  # draw, handle, tick


# The ranking with shared places, then the winner(s); OK: high scores first (the save
# layer), else the menu.
def _end_draw(app, fb):
    """Ranking with shared places, then the winner(s)."""
    game = app.game
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, "Game over", 0, 0, True)
    ranking = app.ranking
    n = len(ranking)
    for i in range(n):
        place, seat, total = ranking[i]
        row = i + 1
        draw.number(fb, place, 1, row)
        draw.text(fb, ".", 2, row)
        draw.text(fb, menu.SEAT_LABELS[seat], 4, row)
        human = game.players[seat].kind == menu.KIND_NAMES[menu.HUMAN]
        draw.text(fb, "Human" if human else "CPU", 7, row)
        draw.number(fb, total, 15, row)
    row = n + 2
    if n == 1:
        draw.text(fb, "Final score", 0, row)
        draw.number(fb, ranking[0][2], 15, row)
    else:
        winners = 0
        for place, _seat, _total in ranking:
            if place == 1:
                winners += 1
        draw.text(fb, "Winner:" if winners == 1 else "Tie:", 0, row)
        col = 8 if winners == 1 else 5
        for place, seat, _total in ranking:
            if place == 1:
                draw.text(fb, menu.SEAT_LABELS[seat], col, row)
                col += 3
    draw.text(fb, app.end_ok_text, 0, 7)  # what OK does: the menu, or high scores first


def _end_handle(app, button, long):
    # High scores first when the save layer has some to enter, else the menu.
    if button == _OK and (app.session is None or not app.session.end_ok(app)):
        app.show(ui.MENU_SCREEN)


end = (_end_draw, _end_handle, None)  # draw, handle, tick

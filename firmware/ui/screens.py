"""Draws each screen of the handheld from the app's state onto the 128x64 OLED.

Pure drawing: reads the App (app.py) and its game, never changes them. Layout is a text
grid of 16 x 8 cells (8x8 font): row 0 is an inverted header, long lists scroll with the
cursor. Numbers shown here come from caches the app refreshes after each game action, so a
redraw allocates nothing.
"""
from micropython import const

import rules
from ui import draw
from ui import menu
from ui import scorecard

# Box labels sized for 10 columns (rules.BOX_IDS order).
BOX_LABELS = (
    "Aces", "Twos", "Threes", "Fours", "Fives", "Sixes",
    "3 of kind", "4 of kind", "Full house", "Small str", "Large str", "Yahtzee", "Chance",
)
_N_BOXES = const(13)
_LIST_ROWS = const(6)  # turn screen: rows 1..6 list boxes, row 7 is the footer
_UPPER = const(0)  # in app.breakdowns[seat], a rules.totals() tuple
_GRAND = const(4)


def splash(app, fb):
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


def menu_screen(app, fb):
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
        draw.text(fb, menu.LABELS[item], 1, row, inv)
        if item == menu.PLAYERS:
            draw.number(fb, settings.players, 15, row, inv)
        elif item == menu.JOKER:
            label = rules.JOKERS[settings.joker]
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


def turn(app, fb):
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


def confirm_score(app, fb):
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


def confirm_quit(app, fb):
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, "Quit this game?", 0, 0, True)
    draw.text(fb, "OK    = quit", 1, 3)
    draw.text(fb, "other = play on", 1, 4)


def summary(app, fb):
    """After a computer's turn: the dice it scored (also still on the LEDs), the box and
    its points, and its total now; 1.5 s or OK."""
    seat = app.summary_seat
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, menu.SEAT_LABELS[seat], 0, 0, True)
    draw.text(fb, "scored", 3, 0, True)
    faces = app.faces
    for i in range(5):
        draw.number(fb, faces[i], 1 + 3 * i, 2)
    draw.text(fb, BOX_LABELS[app.summary_box], 0, 4)
    draw.number(fb, app.summary_points, 15, 4)
    draw.text(fb, "Total", 0, 5)
    draw.number(fb, app.breakdowns[seat][_GRAND], 15, 5)
    draw.text(fb, "OK: go on", 0, 7)


def rolloff(app, fb):
    game = app.game
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, "Who starts?", 0, 0, True)
    faces = app.faces
    for seat in range(len(game.players)):
        row = seat + 1
        draw.text(fb, menu.SEAT_LABELS[seat], 1, row)
        draw.text(fb, "die", 4, row)
        draw.number(fb, seat + 1, 8, row)
        if app.rolling or faces[seat] == 0:
            draw.text(fb, "-", 12, row)
        else:
            draw.number(fb, faces[seat], 12, row)
    if app.starter >= 0:
        draw.text(fb, menu.SEAT_LABELS[app.starter], 1, 6)
        draw.text(fb, "starts!", 4, 6)
    elif app.tie:
        draw.text(fb, "Tie: roll again", 0, 6)
    if app.note:
        draw.text(fb, app.note, 0, 7)


def end(app, fb):
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
        for place, seat, total in ranking:
            if place == 1:
                winners += 1
        draw.text(fb, "Winner:" if winners == 1 else "Tie:", 0, row)
        col = 8 if winners == 1 else 5
        for place, seat, total in ranking:
            if place == 1:
                draw.text(fb, menu.SEAT_LABELS[seat], col, row)
                col += 3
    draw.text(fb, app.end_ok, 0, 7)  # what OK does: the menu, or high scores first


def fault(app, fb):
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, "Error", 0, 0, True)
    message = app.fault
    row = 1
    start = 0
    while start < len(message) and row < 8:
        draw.text(fb, message[start:start + 16], 0, row)
        start += 16
        row += 1

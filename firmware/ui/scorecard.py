"""The scorecard on one screen, and the opponents' line, in the compact font (ui/font.py).

Card view: the 8x8 header (``P1 card`` and the total), then two columns of the compact
grid (16 columns each): the upper boxes, the upper subtotal against its threshold, the
bonus (or what it still needs) and a progress bar on the left; the lower boxes, the
Yahtzee bonus and the total on the right. The Zoo card shows its boxes as pictures on
the 8x8 grid instead (ui/pages.py ``card``). Rows come from the ruleset's box table (upper
boxes are its FACE boxes), so a card with other boxes lays itself out the same way. An
open box shows ``.``.

Opponents' line (turn screen, multi-player): every other player's label and total in
slots of 11 compact columns (``P2 174    P3 98     P4 153``), so 3 opponents with
3-digit totals always fit and each slot keeps 4 columns free: with the win meter, that
player's chance to win (``P2 174 31%``); the card view's header shows a seat's own. Pure drawing from the app's caches: nothing allocates.
Whose card shows is module-level here, set by ``show_card`` (the card's way in).
"""

from micropython import const

import lang
from lang import T
import rules
from ui import draw
from ui import font
import ui

# Button ids as literals: private constants cost no RAM (imported names would).
_HOLD1 = const(0)  # drivers.buttons.HOLD1
_ROLL = const(5)  # drivers.buttons.ROLL
_UP = const(6)  # drivers.buttons.UP
_DOWN = const(7)  # drivers.buttons.DOWN
_PHASE_TURN = const(1)  # game.TURN

_LEFT = const(0)  # first compact column of the left half; values end at column 14
_RIGHT = const(16)  # the right half; values end at column 31
_LABEL_COLS = const(11)  # a box label is clipped to this (the value needs 4 more)
_SLOT = const(11)  # opponents' line: compact columns per player
_BAR_W = const(58)
_UPPER = const(0)  # in app.breakdowns[seat], a rules.totals() tuple
_UPPER_BONUS = const(1)
_YAHTZEE_BONUS = const(3)
_GRAND = const(4)
FOOTER_ROW = const(8)  # the compact row inside the 8x8 screen's last line (y 57..62)


def n_upper(ruleset):
    """How many boxes open the card with FACE scoring (the upper section)."""
    boxes = ruleset.boxes
    count = 0
    while count < len(boxes) and boxes[count][1] == rules.FACE:
        count += 1
    return count


def _box(fb, card, labels, box, col, row):
    font.text(fb, labels[box], col, row, False, _LABEL_COLS)
    if card[box] >= 0:
        font.number(fb, card[box], col + 14, row)
    else:
        font.text(fb, ".", col + 14, row)


# One player's whole card; ROLL or DOWN: the next player's, UP the previous one's, 1-4
# that player's; OK or MENU goes back (to the turn, or the end screen).
card_seat = 0  # whose card shows


def show_card(app):
    """The card of the player on turn."""
    global card_seat
    card_seat = app.game.current
    app.show(ui.CARD)


def _card_draw(app, fb):
    """The full card of ``card_seat`` on one screen."""
    game = app.game
    ruleset = game.rules
    seat = card_seat
    card_ = game.players[seat].card
    upper, upper_bonus, _lower, ybonus, grand = app.breakdowns[seat]
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, lang.item(T.seats, seat), 0, 0, True)
    draw.text(fb, T.card, 3, 0, True)
    if app.win_known:  # the win meter (app.refresh_totals): this player's chance to win
        draw.number(fb, draw.percent(app.win_chance[seat]), 10, 0, True)
        draw.text(fb, "%", 11, 0, True)
    draw.number(fb, grand, 15, 0, True)
    if ruleset.faces:  # the Zoo card: pictures, for a child who cannot read yet
        draw.pages().card(fb, ruleset, card_, upper, upper_bonus)
        return
    labels = lang.short
    split = n_upper(ruleset)
    n = len(ruleset.boxes)
    row = 0
    for box in range(split):
        _box(fb, card_, labels, box, _LEFT, row)
        row += 1
    font.text(fb, T.upper, _LEFT, row)
    col = font.number(fb, ruleset.upper_threshold, _LEFT + 14, row)
    font.text(fb, "/", col - 1, row)
    font.number(fb, upper, col - 2, row)
    row += 1
    font.text(fb, lang.item(T.upper_bonus, 1), _LEFT, row)
    if upper_bonus or upper >= ruleset.upper_threshold:
        font.number(fb, upper_bonus, _LEFT + 14, row)
    else:  # what the upper section still needs for the bonus
        col = font.number(fb, ruleset.upper_threshold - upper, _LEFT + 14, row)
        font.text(fb, T.need, col - 1 - (T.need & 0xFF), row)
    row += 1
    if row < font.ROWS:  # progress bar to the threshold
        y = font.TOP + row * font.CELL_H
        fb.rect(0, y, _BAR_W + 2, 4, 1)
        width = upper * _BAR_W // ruleset.upper_threshold if ruleset.upper_threshold else 0
        if width > _BAR_W:
            width = _BAR_W
        if width > 0:
            fb.fill_rect(1, y + 1, width, 2, 1)
    row = 0
    for box in range(split, n):
        _box(fb, card_, labels, box, _RIGHT, row)
        row += 1
    if ruleset.yahtzee_bonus:
        font.text(fb, lang.item(T.yahtzee_bonus, 1), _RIGHT, row)
        font.number(fb, ybonus, _RIGHT + 14, row)
        row += 1
    font.text(fb, T.total, _RIGHT, row)
    font.number(fb, grand, _RIGHT + 14, row)


def _card_handle(app, button, long):
    global card_seat
    n = len(app.game.players)
    if button == _ROLL or button == _DOWN or button == _UP:
        step = n - 1 if button == _UP else 1
        card_seat = (card_seat + step) % n
    elif button < _ROLL:  # HOLD1..HOLD4: that player's card
        if button - _HOLD1 < n:
            card_seat = button - _HOLD1
    else:
        app.show(ui.TURN if app.game.phase == _PHASE_TURN else ui.END)
    app.dirty = True


card = (_card_draw, _card_handle, None)  # draw, handle, tick


def opponents(app, fb, skip):
    """The other players' labels and totals on the compact footer row; never truncated
    (3 opponents x 11 columns, a 3-digit total takes 6 of them)."""
    game = app.game
    col = 0
    for seat in range(len(game.players)):
        if seat == skip:
            continue
        font.text(fb, lang.item(T.seats, seat), col, FOOTER_ROW)
        font.number(fb, app.breakdowns[seat][_GRAND], col + 2 + draw.digits(app.breakdowns[seat][_GRAND]), FOOTER_ROW)
        if app.win_known:  # the win meter: this opponent's chance to win, "P2 174 31%"
            font.number(fb, draw.percent(app.win_chance[seat]), col + 8, FOOTER_ROW)
            font.text(fb, "%", col + 9, FOOTER_ROW)
        col += _SLOT

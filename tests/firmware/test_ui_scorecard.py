"""The compact font and what it makes room for: the whole scorecard on one
screen and an opponents' line that is never truncated. Drawn by the real app inside
MicroPython (sim board on a loopback link); the frame buffer is read back in CPython with
the simulator's reader, which decodes the compact font with the firmware's own table.
"""

from host_tools.simulator.screen import compact_lines, text_lines
from helpers.sim_helpers import APP_ON_LOOPBACK, run_probe

SETUP = (
    APP_ON_LOOPBACK
    + r"""
def card(points):
    return list(points) + [-1] * (13 - len(points)) + [0]
"""
)

FOUR_PLAYERS = (
    SETUP
    + r"""
# P1 on turn in the last round; the others with 3-digit totals (the reported line was
# "1:195 2:174 4:15" for 4 players).
cards = [card([0] * 11), card([5, 10, 15, 20, 25, 30, 30, 24, 25, 30, 40, 0]),
         card([3, 6, 9, 12, 15, 18, 22, 20, 25, 30, 0, 0]), card([4, 8, 12, 16, 20, 24, 25, 20, 0, 30, 0, 0])]
state = {"v": 1, "rules": rules.make_ruleset().name, "phase": game.TURN, "round": 11, "current": 0,
         "first": 1, "contenders": [0, 1, 2, 3], "dice": [0] * 5, "held": 0, "rolls": 0,
         "players": [["P%d" % (i + 1), "human", cards[i]] for i in range(4)]}
a.settings.players = 4
g = game.Game.from_state(state, hw.dice_source)
a.resume(g)
a.run(frames=20)
print("TOTALS", " ".join(str(g.total(i)) for i in range(4)))
dump()
"""
)

FULL_CARD = (
    SETUP
    + r"""
from drivers.buttons import MENU
# A card with the upper bonus and a Yahtzee bonus earned, some boxes open.
full = [3, 8, 12, 16, 20, 24, 25, -1, 25, 30, -1, 50, 22, 100]
state = {"v": 1, "rules": rules.make_ruleset().name, "phase": game.TURN, "round": 11, "current": 0,
         "first": 0, "contenders": [0], "dice": [0] * 5, "held": 0, "rolls": 0,
         "players": [["P1", "human", full]]}
a.settings.players = 1
a.resume(game.Game.from_state(state, hw.dice_source))
a.run(frames=20)
a.handle(MENU)
print("TOTAL", a.game.total(0))
dump()
"""
)

ALPHABET = (
    SETUP
    + r"""
from ui import font
hw.oled.fill(0)
chars = "".join(chr(c) for c in range(32, 127))
for row in range(3):
    font.text(hw.oled, chars[32 * row:32 * row + 32], 0, row)
font.bar(hw.oled, 3)
font.text(hw.oled, chars[:32], 0, 3, True)  # inverted
font.number(hw.oled, -1234, 10, 4)
print("FB", bytes(hw.oled.buffer).hex())
"""
)


def _pixels(code):
    proc = run_probe(code)  # the firmware as flashed, at the heap the simulator gives it
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    out = proc.stdout.splitlines()
    frames = []
    for line in out:
        if line.startswith("FB "):
            buf = bytes.fromhex(line[3:])
            frames.append([[(buf[(y >> 3) * 128 + x] >> (y & 7)) & 1 for x in range(128)] for y in range(64)])
    return frames, out


def test_the_compact_font_reads_back_every_character():
    (pixels,), _out = _pixels(ALPHABET)
    lines = compact_lines(pixels)
    chars = "".join(chr(c) for c in range(32, 127))
    assert lines[0] == chars[:32].rstrip() or lines[0] == " " + chars[1:32]
    assert lines[1] == chars[32:64]
    assert lines[2] == chars[64:95]
    assert lines[3] == chars[:32].rstrip()  # inverted cells read as their characters
    assert lines[4] == "      -1234"


def test_the_opponents_line_names_every_player_with_a_full_total():
    (pixels,), out = _pixels(FOUR_PLAYERS)
    totals = [line for line in out if line.startswith("TOTALS ")][0].split()[1:]
    assert all(len(t) == 3 for t in totals[1:])
    lines = text_lines(pixels)
    assert lines[0].startswith("P1 Roll 0/3")
    assert lines[7] == "P2 %s     P3 %s     P4 %s" % tuple(totals[1:])  # never truncated


def test_the_whole_card_is_on_one_screen():
    (pixels,), out = _pixels(FULL_CARD)
    total = [line for line in out if line.startswith("TOTAL ")][0].split()[1]
    lines = text_lines(pixels)
    assert lines[0].split() == ["P1", "card", total]
    left = [line[:15].split() for line in lines[1:]]
    right = [line[16:].split() for line in lines[1:]]
    assert left[:6] == [
        ["Aces", "3"],
        ["Twos", "8"],
        ["Threes", "12"],
        ["Fours", "16"],
        ["Fives", "20"],
        ["Sixes", "24"],
    ]
    assert left[6] == ["Upper", "83/63"]
    assert left[7] == ["Bonus", "35"]
    assert right == [
        ["3", "of", "a", "kind", "25"],
        ["4", "of", "a", "kind", "."],
        ["Full", "house", "25"],
        ["Sm", "straight", "30"],
        ["Lg", "straight", "."],
        ["Yahtzee", "50"],
        ["Chance", "22"],
        ["Yahtzee+", "100"],
        ["Total", total],
    ]
    assert int(total) == 83 + 35 + 25 + 25 + 30 + 50 + 22 + 100


OTHER_CARD = r"""
import framebuf
import lang
import rules
from ui import scorecard

class Ruleset:  # a card of 11 boxes: 6 upper, 5 lower; no Yahtzee bonus (like the Zoo card)
    boxes = rules.BOXES[:6] + (("pairs", rules.SAME, 2, 0),) + rules.BOXES[8:12]
    upper_threshold = 50
    yahtzee_bonus = 0
    faces = None  # boxes named in words, not pictures

class Player:
    card = [1, 2, 3, -1, 5, 6, 7, 25, -1, 40, 50, 0]

class Game:
    rules = Ruleset()
    players = [Player()]

class App:
    game = Game()
    breakdowns = [(17, 0, 122, 0, 139)]
    win_known = False  # solo: no win meter in the header

lang.use("en")
lang.card(rules.make_ruleset())  # the names of the standard boxes, then this card's
lang.short = lang.short[:6] + ("Two pairs",) + lang.short[8:12]
buf = bytearray(1024)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
scorecard.card_seat = 0  # whose card: the card screen's own state
scorecard.card[0](App(), fb)
print("FB", bytes(buf).hex())
"""


def test_the_card_lays_itself_out_from_the_rulesets_boxes():
    # Another card (zoo14's Zoo card has 11 boxes): rows come from the box table.
    (pixels,), _out = _pixels(OTHER_CARD)
    lines = text_lines(pixels)
    assert lines[0].split() == ["P1", "card", "139"]
    left = [line[:15].split() for line in lines[1:]]
    right = [line[16:].split() for line in lines[1:]]
    assert [row[0] for row in left[:6]] == ["Aces", "Twos", "Threes", "Fours", "Fives", "Sixes"]
    assert left[3] == ["Fours", "."]
    assert left[6] == ["Upper", "17/50"]
    assert left[7] == ["Bonus", "need", "33"]
    assert right[:6] == [
        ["Two", "pairs", "7"],
        ["Full", "house", "25"],
        ["Sm", "straight", "."],
        ["Lg", "straight", "40"],
        ["Yahtzee", "50"],
        ["Total", "139"],
    ]  # no Yahtzee bonus line

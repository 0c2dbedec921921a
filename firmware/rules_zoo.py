"""The kids' Zoo card as data (Kinder Yahtzee / Zoo Yahtzy, seed 000; docs/rules_zoo.md).

Pure data in rules.py's box format, read by the same table-driven scorer. rules.py
imports this module only when a game uses the Zoo card, so the standard game's heap does
not carry these tables (about 2.7 KB on the device).
"""

from rules import DIFFERENT, FACE, FULL_HOUSE, SAME

ANIMALS = ("monkey", "elephant", "giraffe", "rhino", "bear", "lion")  # faces 1..6: the boxed Zoo Yatzy's
# 1 point per animal; fixed points below; no straights, no chance (docs/rules_zoo.md).
BOXES = (
    ("monkey", FACE, 1, 1),
    ("elephant", FACE, 2, 1),
    ("giraffe", FACE, 3, 1),
    ("rhino", FACE, 4, 1),
    ("bear", FACE, 5, 1),
    ("lion", FACE, 6, 1),
    ("three_same", SAME, 3, 10),
    ("four_same", SAME, 4, 15),
    ("full_house", FULL_HOUSE, 0, 15),
    ("all_different", DIFFERENT, 5, 20),
    ("zoo_yahtzy", SAME, 5, 30),
)
# As rules.py's cards: boxes, upper threshold ("18 of meer"), upper bonus (10), points
# per further Yahtzee (none), face names.
CARD = (BOXES, 18, 10, 0, ANIMALS)

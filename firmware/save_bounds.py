"""The one bounds table: the most any save can hold, because it is the most the firmware makes.

Every shape check applies these (``game.Game`` and ``save_boot.save_ok`` for the game
save, save_records.py's checks for the records files) and every writer stays within them
(records' running counts saturate at ``MAX_TALLY``), so whatever passes a check can be
written back: no save that loads can fail to encode, overflow or outgrow its 16 KiB
frame (tests/shared/test_bounds_cases.py packs the largest value each check accepts).
Per-card score bounds come from the card's own table (``rules.card_bounds``).
"""

from micropython import const

MAX_PLAYERS = const(4)  # seats at one table (ui/menu.py offers 1..4)
MAX_NAME = const(16)  # characters of a player's name or kind ("CPU casual" is 10)
MAX_ID = const(0x3FFFFFFF)  # game ids are 30 bits and nonzero (save_session._new_game_id)
# Any running count in the records (games, points, dice per face): a small int on the Pico;
# at 780 dice a game that is over a million four-player games, so saturating loses nothing real.
MAX_TALLY = const(0x3FFFFFFF)
# Dice one game rolls at most: 4 seats, 13 rounds, 3 rolls of 5 dice.
MAX_GAME_DICE = const(780)


def tally(count, more):
    """``count + more``, saturating at MAX_TALLY (so the sum still passes the checks)."""
    total = count + more
    return total if total < MAX_TALLY else MAX_TALLY


def within(n, top):
    """True when ``n`` is a plain int (not a bool) in 0..top."""
    return type(n) is int and 0 <= n <= top

"""A challenge game's dice: a challenge code is four letters A-Z (``code_number``: the
number its dice come from); every die of its game is ``challenge_die(number, round, roll,
place)``, a pure integer function, the same number on the Pico, the unix and WebAssembly
ports and CPython. So two players who enter the same code meet the same dice wherever
they keep the same ones, and every seat of one game meets the same dice in a round.

Apart from game.py so that a normal game's RAM holds none of it (game.py imports it for
a challenge game); small enough for littlefs to keep inside its directory (no 4 KB block
of its own on the device).
"""

from micropython import const

import game as G

_LETTERS = const(4)  # a challenge code: four letters A-Z
_LOW15 = const(0x7FFF)


def code_number(code):
    """A challenge code (four letters A-Z) as the number its dice come from, 1..26**4;
    GameError for anything else."""
    if type(code) is not str or len(code) != _LETTERS:
        raise G.GameError("a challenge code is %d letters A-Z" % _LETTERS)
    n = 0
    for letter in code:
        if not "A" <= letter <= "Z":
            raise G.GameError("a challenge code is %d letters A-Z" % _LETTERS)
        n = n * 26 + ord(letter) - 65
    return n + 1


def _times(x, high, low):
    # x * (high << 15 | low) mod 2**30 in 15-bit halves: no value reaches 2**30, so it is
    # a small int on the Pico and the same number on every interpreter.
    lo = x & _LOW15
    product = lo * low
    return (((product >> 15) + ((x >> 15) * low & _LOW15) + (lo * high & _LOW15)) & _LOW15) << 15 | product & _LOW15


def challenge_die(number, turn, roll, die):
    """The face (1-6) of die ``die`` (0-4) on roll ``roll`` (0-2) of round ``turn``
    (0-12) in challenge ``number`` (code_number): a 30-bit integer hash (the finaliser of
    MurmurHash3, its multipliers cut to 30 bits) of the four, taken modulo 6."""
    x = number << 9 | turn << 5 | roll << 3 | die
    x ^= x >> 16
    x = _times(x, 0x0BD7, 0x4A6B)
    x ^= x >> 13
    x = _times(x, 0x0565, 0x2E35)
    x ^= x >> 16
    return x % 6 + 1

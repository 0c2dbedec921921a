"""Where the pips of a die face sit on a 3x3 grid, shared by the dice display drivers.

``FACE_PIPS[face]`` is a 9-bit mask, bit ``row * 3 + col`` (row 0 at the top, col 0 at the
left); face 0 is a blank die. Faces follow the usual die: 2 and 3 on the rising diagonal,
6 as two columns of three.
"""
from micropython import const

N_DICE = const(5)
GRID_CELLS = const(9)

FACE_PIPS = (
    0,  # blank
    1 << 4,  # centre
    (1 << 2) | (1 << 6),  # top right, bottom left
    (1 << 2) | (1 << 4) | (1 << 6),
    (1 << 0) | (1 << 2) | (1 << 6) | (1 << 8),  # corners
    (1 << 0) | (1 << 2) | (1 << 4) | (1 << 6) | (1 << 8),
    (1 << 0) | (1 << 3) | (1 << 6) | (1 << 2) | (1 << 5) | (1 << 8),  # two columns
)

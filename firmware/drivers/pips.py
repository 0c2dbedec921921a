"""What a die face looks like, shared by the dice display drivers: pips, and the animals
of the kids' Zoo card (rules_zoo.ANIMALS: 1 monkey, 2 elephant, 3 giraffe, 4 rhino, 5 bear,
6 lion, the boxed Zoo Yatzy's animals).

``FACE_PIPS[face]`` is a 9-bit mask, bit ``row * 3 + col`` (row 0 at the top, col 0 at the
left); face 0 is a blank die. Faces follow the usual die: 2 and 3 on the rising diagonal,
6 as two columns of three.

``ANIMAL_ROWS``: an 8x8 picture per animal for the MAX7219 matrices, 8 row bytes each
(row 0 at the top, bit 7 the leftmost column), animal ``face`` at ``(face - 1) * 8``.
Unlike pips they have an up and a left: the matrices must be mounted upright (row 0 at
the top). Each picture is one a child can name: three faces (the monkey's ears at its
sides, the bear's on top, the lion's mane of spikes) and three animals seen from the side
(the elephant's trunk, the giraffe's long neck, the rhino's horn). The OLED draws the same
pictures (ui/pages.py ``picture``), so a child matches a box to its die.

``ANIMAL_COLOURS``: on the 3x3 WS2812 dice an animal is its colour (r, g, b) plus the
pips of its number, so the same die can be counted and named. None is orange: held dice
use the board's held colour (orange) on the same pips.
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

# fmt: off
ANIMAL_ROWS = bytes((
    # monkey: a face with its big ears at the sides, eyes, a round muzzle
    0b00111100,
    0b01111110,
    0b01011010,
    0b11000011,
    0b11011011,
    0b01000010,
    0b00111100,
    0b00000000,
    # elephant: big body, eye, trunk down on the left, legs
    0b00111110,
    0b01111111,
    0b11011111,
    0b11111111,
    0b10111111,
    0b10111111,
    0b10110011,
    0b00110011,
    # giraffe: head with horns at the top left, the long neck, body, long legs
    0b10100000,
    0b11100000,
    0b01100000,
    0b00100000,
    0b00100000,
    0b00111111,
    0b00101010,
    0b00101010,
    # rhino: horn on the nose at the left, ear, heavy body, short legs
    0b00000000,
    0b00000110,
    0b10001111,
    0b11011111,
    0b11111111,
    0b01111111,
    0b00110110,
    0b00110110,
    # bear: round ears on top, eyes, a snout, a round chin
    0b11000011,
    0b11111111,
    0b11011011,
    0b11111111,
    0b11100111,
    0b11011011,
    0b01111110,
    0b00111100,
    # lion: a face in a mane of spikes, eyes, nose
    0b10111101,
    0b01000010,
    0b10100101,
    0b10000001,
    0b10011001,
    0b10011001,
    0b01000010,
    0b10111101,
))
# fmt: on
ANIMAL_COLOURS = (
    (0, 0, 0),  # blank
    (255, 0, 170),  # monkey: pink
    (255, 255, 255),  # elephant: white
    (255, 220, 0),  # giraffe: yellow
    (0, 220, 220),  # rhino: cyan
    (0, 80, 255),  # bear: blue
    (40, 255, 0),  # lion: green
)

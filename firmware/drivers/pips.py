"""What a die face looks like, shared by the dice display drivers: pips, and the animals
of the kids' Zoo card (rules_zoo.ANIMALS: 1 fish, 2 bird, 3 cat, 4 dog, 5 horse, 6 elephant).

``FACE_PIPS[face]`` is a 9-bit mask, bit ``row * 3 + col`` (row 0 at the top, col 0 at the
left); face 0 is a blank die. Faces follow the usual die: 2 and 3 on the rising diagonal,
6 as two columns of three.

``ANIMAL_ROWS``: an 8x8 picture per animal for the MAX7219 matrices, 8 row bytes each
(row 0 at the top, bit 7 the leftmost column), animal ``face`` at ``(face - 1) * 8``.
Unlike pips they have an up and a left: the matrices must be mounted upright (row 0 at
the top). Each picture is a silhouette a child can name: fish with a forked tail, bird in
flight, cat face with pointed ears, dog face with floppy ears, horse with four legs and a
mane, elephant with a trunk.

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
    # fish: body with an eye, forked tail on the right
    0b00000000,
    0b00111000,
    0b01111101,
    0b11011111,
    0b11111111,
    0b01111101,
    0b00111000,
    0b00000000,
    # bird: wings spread in flight
    0b00000000,
    0b11000011,
    0b01100110,
    0b00111100,
    0b00011000,
    0b00011000,
    0b00000000,
    0b00000000,
    # cat: pointed ears, two eyes, nose, round chin
    0b10000001,
    0b11000011,
    0b11111111,
    0b10111101,
    0b11111111,
    0b11100111,
    0b01111110,
    0b00111100,
    # dog: floppy ears hanging beside the face, eyes, a big nose
    0b00111100,
    0b11111111,
    0b11011011,
    0b11111111,
    0b10111101,
    0b10100101,
    0b00111100,
    0b00011000,
    # horse: head and mane on the left, body, tail, four legs
    0b01100000,
    0b11110000,
    0b01110000,
    0b00111111,
    0b00111111,
    0b00111101,
    0b00101001,
    0b00101001,
    # elephant: big body, eye, trunk down on the left, legs
    0b00111110,
    0b01111111,
    0b11011111,
    0b11111111,
    0b10111111,
    0b10111111,
    0b10110011,
    0b00110011,
))
# fmt: on
ANIMAL_COLOURS = (
    (0, 0, 0),  # blank
    (0, 80, 255),  # fish: blue
    (255, 220, 0),  # bird: yellow
    (255, 0, 170),  # cat: pink
    (0, 220, 220),  # dog: cyan
    (40, 255, 0),  # horse: green
    (255, 255, 255),  # elephant: white
)

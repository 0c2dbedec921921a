"""Five dice on 45 WS2812 pixels (five 3x3 grids, one pip per pixel).

The board passes a ready ``neopixel.NeoPixel(pin, 45)``. Pixel order: die 0 first, and
within each die's grid row-major from the top left, so pixel ``9 * die + 3 * row + col``.
Held dice use a second colour. The strip is rewritten only when something changed
(a write blocks interrupts for about 45 x 30 us = 1.4 ms).

Current budget: a WS2812 draws about 20 mA per colour channel at 255, so 60 mA at full
white and 2.7 A for 45 pixels. Colours are scaled so that one lit pixel's channel sum is at
most ``_MAX_CHANNEL_SUM`` = 127 (of 765), i.e. at most 127/765 x 60 mA = 10 mA per lit pip
at brightness 15. At most 30 pips are lit (five sixes), so the LEDs draw <= 300 mA plus
about 1 mA standby per pixel (45 mA): within a 500 mA USB supply with the Pico and OLED.
"""

from micropython import const

from drivers.pips import ANIMAL_COLOURS, FACE_PIPS, GRID_CELLS, N_DICE

_MAX_CHANNEL_SUM = const(127)  # per lit pixel, at brightness 15; see the budget above
_MAX_LEVEL = const(15)
_OFF = (0, 0, 0)


class NeoPixelDice:
    """Same API as MAX7219Dice: ``show(faces, held_mask)``, ``brightness(0..15)``, ``power``.

    ``colour`` and ``held_colour`` are (r, g, b) 0..255 before the current cap.
    ``animals(True)`` gives each face its animal's colour (drivers/pips.py) on the same
    pips, for the Zoo card; held dice keep ``held_colour``.
    """

    BUS = "ws2812"  # built with a ready neopixel.NeoPixel: how a board wires it

    def __init__(self, pixels, colour=(255, 255, 255), held_colour=(255, 64, 0), brightness=15, count=N_DICE):
        if len(pixels) < GRID_CELLS * count:
            raise ValueError("NeoPixel dice need %d pixels" % (GRID_CELLS * count))
        self._np = pixels
        self._count = count
        self._colour = colour
        self._held_colour = held_colour
        self._shown = bytearray(count)  # face | held << 3 per die, as last written
        self._on = True
        self._lit = _OFF  # scaled colours, rebuilt when brightness changes
        self._lit_held = _OFF
        self._animals = False
        self._level = brightness
        self._lit_faces = [_OFF] * len(ANIMAL_COLOURS)  # per face with animals on
        self.brightness(brightness)  # also paints the strip dark

    def animals(self, on):
        """Plain pips (False) or a colour per animal on the pips (True)."""
        self._animals = bool(on)
        self.brightness(self._level)

    @staticmethod
    def scale(colour, level):
        """``colour`` at ``level`` 0..15 with the per-pixel current cap applied."""
        total = colour[0] + colour[1] + colour[2]
        if total == 0 or level <= 0:
            return _OFF
        cap = total if total < _MAX_CHANNEL_SUM else _MAX_CHANNEL_SUM
        div = _MAX_LEVEL * total
        return (colour[0] * cap * level // div, colour[1] * cap * level // div, colour[2] * cap * level // div)

    def show(self, faces, held_mask):
        """Draw ``faces`` (0 blank, 1..6); bit i of ``held_mask`` marks die i held."""
        changed = False
        for die in range(self._count):
            face = faces[die]
            if face < 0 or face > 6:
                raise ValueError("die face must be 0..6")
            state = face | ((held_mask >> die) & 1) << 3
            if state != self._shown[die]:
                self._shown[die] = state
                self._paint(die)
                changed = True
        if changed and self._on:
            self._np.write()

    def _paint(self, die):
        state = self._shown[die]
        pips = FACE_PIPS[state & 7] if self._on else 0
        if state & 8:
            lit = self._lit_held
        elif self._animals:
            lit = self._lit_faces[state & 7]
        else:
            lit = self._lit
        np = self._np
        first = die * GRID_CELLS
        for cell in range(GRID_CELLS):
            np[first + cell] = lit if (pips >> cell) & 1 else _OFF

    def _repaint(self):
        for die in range(self._count):
            self._paint(die)
        self._np.write()

    def brightness(self, level):
        """0..15, clamped; 15 is the current-capped maximum."""
        level = 0 if level < 0 else _MAX_LEVEL if level > _MAX_LEVEL else level
        self._level = level
        self._lit = self.scale(self._colour, level)
        self._lit_held = self.scale(self._held_colour, level)
        for face in range(len(ANIMAL_COLOURS)):
            self._lit_faces[face] = self.scale(ANIMAL_COLOURS[face], level)
        self._repaint()

    def power(self, on):
        """All pixels dark (False) or the dice shown again (True)."""
        self._on = bool(on)
        self._repaint()

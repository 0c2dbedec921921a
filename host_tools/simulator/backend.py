"""What a simulator back-end offers the front-end (keys, term, screen, png, golden).

Three back-ends run the unmodified firmware: ``unix_port.SimDevice`` (MicroPython's unix
port with the ``sim`` board), ``chip.ChipDevice`` (the official rp2 firmware on an
emulated RP2040) and ``host_tools.browser.device.WebDevice`` (the web port under Node,
the ``web`` board). Each provides:

- ``run_until(ms, buttons_at=None)``: advance the device's clock to ``ms`` (virtual ms
  since the firmware started); ``buttons_at(ms)`` -> bit mask of pressed buttons (bit i =
  button i, ids in ``BUTTONS`` order), else the ``buttons`` attribute holds. A function
  with an ``edges`` attribute (keys.levels) lets a back-end step from edge to edge.
- ``now``, ``buttons``, ``frames`` (OLED data writes so far), ``tone`` ((Hz, duty) of the
  buzzer now), ``console`` (lines the firmware printed), ``alive``;
- ``oled_pixels()`` (64 rows x 128 of 0/1), ``oled_contrast()`` (0..255, what the
  firmware last set: ``dimmed`` tells the front-end), ``dice_pixels()`` (five 8x8 grids of (r, g, b)),
  ``dice_kind`` (``"max7219"`` or ``"neopixel"``), ``close()``.
``DeviceExited`` is raised by ``run_until`` when the firmware is gone.
"""

BUTTONS = ("1", "2", "3", "4", "5", "space", "up", "down", "enter", "m")  # button ids 0..9
BUTTON_NAMES = ("HOLD1", "HOLD2", "HOLD3", "HOLD4", "HOLD5", "ROLL", "UP", "DOWN", "OK", "MENU")  # the device's
N_DICE = 5
N_PIXELS = 45
DIM_BELOW = 0x40  # power.py dims the OLED to contrast 8 (awake: the driver's 0xCF)
# What the front-end says of a dimmed OLED: the press that brightens it does nothing else.
DIMMED = "dimmed: the next press only wakes it"


class DeviceExited(Exception):
    """The firmware process ended (it returned to the REPL, crashed or was killed)."""


def dimmed(device):
    """True while the firmware keeps the OLED dimmed (power saving after a minute)."""
    return device.oled_contrast() < DIM_BELOW


def dice_pixels_of(dice_kind, chain, strip):
    """For each die an 8x8 grid of (r, g, b) as the LEDs light it (dark = (0, 0, 0)), from
    the MAX7219 chain emulator or the WS2812 strip emulator."""
    dice = []
    if dice_kind == "neopixel":
        for die in range(N_DICE):
            grid = [[(0, 0, 0)] * 8 for _ in range(8)]
            for cell in range(9):
                rgb = strip.pixels[9 * die + cell]
                row, col = divmod(cell, 3)
                for y in range(row * 3, row * 3 + 2):
                    for x in range(col * 3, col * 3 + 2):
                        grid[y][x] = _boost(rgb)
            dice.append(grid)
        return dice
    for chip in chain.chips:
        level = 90 + chip.intensity * 11
        dice.append([[(level, 0, 0) if p == 1 else (0, 0, 0) for p in row] for row in chip.rows()])
    return dice


def _boost(rgb):
    """WS2812 values are current-capped (<= 127 per pixel); scale up for a visible screen."""
    top = max(rgb)
    if top == 0:
        return rgb
    return tuple(min(255, c * 255 // top) for c in rgb)

"""Raspberry Pi Pico with the 1.3" SH1106 OLED (page addressing, column offset 2); MAX7219 dice.

Pins are in rp2_reference.py (one place for the reference wiring).
"""

from boards import rp2_reference


def build(config):
    # The parts are named here and only here: flash copies the drivers this file imports.
    from drivers.sh1106 import SH1106
    from drivers.max7219 import MAX7219Dice

    return rp2_reference.build(config, oled=SH1106, dice=MAX7219Dice)

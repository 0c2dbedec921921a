"""Raspberry Pi Pico (RP2040), reference wiring: SSD1306 0.96" OLED, five MAX7219 8x8 dice.

Pins are in rp2_reference.py (one place for the reference wiring).
"""

from boards import rp2_reference


def build(config):
    # The parts are named here and only here: flash copies the drivers this file imports.
    from drivers.ssd1306 import SSD1306
    from drivers.max7219 import MAX7219Dice

    return rp2_reference.build(config, oled=SSD1306, dice=MAX7219Dice)

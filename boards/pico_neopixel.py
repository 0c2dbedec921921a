"""Raspberry Pi Pico with 45 WS2812 pixels on GP22 (five 3x3 grids) instead of the MAX7219 dice; SSD1306 OLED.

Pins are in rp2_reference.py (one place for the reference wiring).
"""

from boards import rp2_reference


def build(config):
    # The parts are named here and only here: flash copies the drivers this file imports.
    from drivers.ssd1306 import SSD1306
    from drivers.neopixel_dice import NeoPixelDice

    return rp2_reference.build(config, oled=SSD1306, dice=NeoPixelDice)

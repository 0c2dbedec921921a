"""Raspberry Pi Pico (RP2040), reference wiring: SSD1306 0.96" OLED, five MAX7219 8x8 dice.

Pins are in rp2_reference.py (one place for the reference wiring).
"""
from boards import rp2_reference


def build(config):
    return rp2_reference.build(config, oled="ssd1306", dice="max7219")

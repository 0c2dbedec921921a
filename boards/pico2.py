"""Raspberry Pi Pico 2 (RP2350): same reference wiring as the Pico. Buttons use pull-ups
(pull-downs hit erratum RP2350-E9); random is seeded from the TRNG by MicroPython 1.28+.

Pins are in rp2_reference.py (one place for the reference wiring).
"""
from boards import rp2_reference


def build(config):
    return rp2_reference.build(config, oled="ssd1306", dice="max7219")

"""Raspberry Pi Pico with the 1.3" SH1106 OLED (page addressing, column offset 2); MAX7219 dice.

Pins are in rp2_reference.py (one place for the reference wiring).
"""
from boards import rp2_reference


def build(config):
    return rp2_reference.build(config, oled="sh1106", dice="max7219")

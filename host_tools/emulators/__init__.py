"""Datasheet emulators of the handheld's display parts, for tests and the simulator.

Each decodes the byte stream the unmodified firmware sends and shows the picture:
- ``SSD1306Emulator`` / ``SH1106Emulator``: ``i2c_write(addr, data)``; ``pixels()`` (64 rows
  of 128 ints), ``text()``; ``errors`` lists every protocol violation seen.
- ``MAX7219ChainEmulator(count)``: ``cs(level)``, ``spi_write(data)`` /
  ``spi_transfer(data)``; ``pixels()`` (8 rows, chips side by side), ``text()``, ``chips``.
- ``WS2812Emulator(count)``: ``write(grb_bytes)``; ``pixels`` ((r, g, b) list), ``text()``.
``buses`` has machine.I2C / SPI / Pin / neopixel.NeoPixel look-alikes wired to them.
"""

from host_tools.emulators.buses import CSPin, I2CBus, NeoPixelStrip, SPIBus
from host_tools.emulators.max7219 import MAX7219ChainEmulator
from host_tools.emulators.sh1106 import SH1106Emulator
from host_tools.emulators.ssd1306 import SSD1306Emulator
from host_tools.emulators.ws2812 import WS2812Emulator

__all__ = [
    "CSPin",
    "I2CBus",
    "NeoPixelStrip",
    "SPIBus",
    "MAX7219ChainEmulator",
    "SH1106Emulator",
    "SSD1306Emulator",
    "WS2812Emulator",
]

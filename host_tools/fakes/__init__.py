"""Fakes run inside MicroPython by the benches and the tests alike (shipped host code
cannot import tests/): ``buses`` (I2C, SPI, pins, NeoPixel, PWM). A script puts
``FOLDER`` on MICROPYPATH (``host_tools.run_micropython(..., extra_path=(FOLDER,))``)
and imports the module by its own name.
"""

import os

FOLDER = os.path.dirname(os.path.abspath(__file__))

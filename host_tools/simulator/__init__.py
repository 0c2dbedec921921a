"""The simulator: one front-end, back-ends that run the firmware.

Front-end (independent of what runs the firmware): ``keys`` (key scripts -> button
levels over virtual time), ``headless`` (a key script played, the tables a device
gets), ``term`` (the interactive terminal view), ``screen`` (text renderings of the OLED
and dice), ``png`` (screenshots) and ``golden`` (the golden screens and README
pictures). Back-end: ``unix_port`` runs the unmodified firmware in
MicroPython's unix port on the ``sim`` board and decodes the drivers' bytes with
``host_tools.emulators``.
"""

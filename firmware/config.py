"""Device configuration: parses /device.cfg (``key=value`` lines) into a dict.

The flash tool writes device.cfg; a missing or damaged file (an interrupted flash) falls
back to the defaults below. On the unix port the simulator appends ``key=value`` words to
the command line (``micropython main.py board=sim seed=7``); those override the file, so
the same main.py runs unmodified on the Pico (where ``sys.argv`` is empty) and in the sim.
"""

import sys

DEFAULTS = {"board": "pico", "rules": "forced"}
PATH = "device.cfg"


def parse_line(line, into):
    """Store one ``key=value`` line in ``into``; comments, blanks and junk are ignored."""
    line = line.strip()
    eq = line.find("=")
    if eq <= 0 or line[0] == "#":  # no key (a blank line too), or a comment
        return
    into[line[:eq].strip()] = line[eq + 1 :].strip()


def load(path=PATH, argv=None):
    """Defaults, then the file at ``path`` (if readable), then ``key=value`` arguments."""
    cfg = dict(DEFAULTS)
    try:
        with open(path) as source:
            for line in source:
                parse_line(line, cfg)
    except (OSError, UnicodeError):
        pass  # no file or unreadable: defaults keep the device bootable
    if argv is None:
        argv = sys.argv  # [] on the Pico
    for word in argv[1:]:
        if "=" in word:
            parse_line(word, cfg)
    return cfg


def get_int(cfg, key, default, low, high):
    """``cfg[key]`` as an int clamped to ``low..high``; ``default`` if absent or not a number."""
    try:
        value = int(cfg.get(key, default))
    except (ValueError, TypeError):
        return default
    return low if value < low else high if value > high else value

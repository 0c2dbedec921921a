"""Pytest-side helpers for the driver tests (no test cases here).

``run_on_micropython(script)`` runs a script inside the real unix-port MicroPython with the
recording fakes (host_tools/fakes/buses.py, shared with bench drivers) imported, and returns its output lines;
``marked_sections(lines)`` splits them at the script's ``MARK name`` lines; the ``feed_*``
helpers replay the recorded traffic into the datasheet emulators.
"""

import binascii

import host_tools
from host_tools import fakes


def run_on_micropython(script, heap="192K"):
    """Output lines of ``script`` run in MicroPython; fails the test on a crash."""
    code = "from buses import *\n" + script
    proc = host_tools.run_micropython(["-c", code], heap=heap, extra_path=(fakes.FOLDER,), timeout=60)
    if proc.returncode != 0:
        raise AssertionError(
            "MicroPython failed (%d):\n%s\n%s" % (proc.returncode, proc.stdout[-3000:], proc.stderr[-3000:])
        )
    return proc.stdout.splitlines()


def marked_sections(lines):
    """``{name: [lines]}``: the lines after each ``MARK name`` line, up to the next one."""
    found, name = {}, None
    for line in lines:
        if line.startswith("MARK "):
            name = line[5:]
            found[name] = []
        elif name is not None:
            found[name].append(line)
    return found


def feed_i2c(lines, device):
    """Replay every ``I2C`` line into ``device.i2c_write``; returns the number replayed."""
    count = 0
    for line in lines:
        if line.startswith("I2C "):
            _tag, addr, data = line.split()
            device.i2c_write(int(addr, 16), binascii.unhexlify(data))
            count += 1
    return count


def feed_spi(lines, chain):
    """Replay ``CS``/``SPI``/``SPIRX`` lines into a MAX7219 chain emulator."""
    for line in lines:
        parts = line.split()
        if parts[0] == "CS":
            chain.cs(int(parts[1]))
        elif parts[0] in ("SPI", "SPIRX"):
            chain.spi_transfer(binascii.unhexlify(parts[1]))


def neopixel_frames(lines):
    """The GRB buffers written by ``NP`` lines, in order."""
    return [binascii.unhexlify(line.split()[1]) for line in lines if line.startswith("NP ")]

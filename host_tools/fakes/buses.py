"""Fake buses for running the drivers INSIDE MicroPython, shared by the driver tests
(tests/firmware/test_drivers_*.py, through tests/helpers/drivers_run.py) and ``bench
drivers`` (host_tools/benches/drivers.py): a script puts this folder on MICROPYPATH
(``FOLDER`` in host_tools/fakes/__init__.py) and imports ``buses``.

The ``Recording*`` fakes print the traffic, one transaction per line, for pytest to feed
into the emulators:
    I2C <addr hex> <bytes hex>      one I2C write transfer (writevto parts joined)
    CS <0|1>                        chip select level
    SPI <bytes hex>                 SPI write (write_readinto prints SPIRX <out> <in>)
    NP <bytes hex>                  NeoPixel.write() of the GRB buffer
    PWM freq <hz> / PWM duty <u16>  PWM calls
The ``Null*`` fakes do nothing, for allocation and speed measurements; the ``Counting*``
buses count bytes and transfers (the wire time of a frame). Plain MicroPython code.
"""

import binascii


def _hex(data):
    return binascii.hexlify(data).decode()


class RecordingI2C:
    """``present``: the addresses that acknowledge; others raise OSError(ENODEV=19)."""

    def __init__(self, present=(0x3C,)):
        self.present = present

    def _send(self, addr, data):
        if addr not in self.present:
            raise OSError(19)  # ENODEV, what rp2's machine.I2C raises on a NACKed address
        print("I2C %02x %s" % (addr, _hex(data)))

    def writeto(self, addr, buf, stop=True):
        self._send(addr, bytes(buf))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        data = b"".join(bytes(part) for part in vector)
        self._send(addr, data)
        return len(data)


class RecordingPin:
    """Output pin that prints ``CS`` levels (used as the MAX7219 chip select)."""

    def __init__(self, level=1):
        self.level = level

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = 1 if level else 0
        print("CS %d" % self.level)


class RecordingSPI:
    """Prints writes. ``echo_chips``: reads return what went in 16 bits x that many chips
    earlier (a chain whose last DOUT is wired to MISO); None: reads return 0xFF."""

    def __init__(self, echo_chips=None):
        self.echo = None if echo_chips is None else bytearray(2 * echo_chips)

    def write(self, buf):
        print("SPI " + _hex(bytes(buf)))

    def write_readinto(self, out, into):
        for i in range(len(out)):
            if self.echo is None:
                into[i] = 0xFF
            elif len(self.echo):
                into[i] = self.echo[0]
                self.echo = self.echo[1:] + bytes((out[i],))
            else:
                into[i] = out[i]
        print("SPIRX %s %s" % (_hex(bytes(out)), _hex(bytes(into))))


class RecordingNeoPixel:
    """Like neopixel.NeoPixel(pin, n): GRB buffer; write() prints it."""

    def __init__(self, n):
        self.n = n
        self.buf = bytearray(3 * n)

    def __len__(self):
        return self.n

    def __setitem__(self, i, colour):
        self.buf[3 * i] = colour[1]
        self.buf[3 * i + 1] = colour[0]
        self.buf[3 * i + 2] = colour[2]

    def write(self):
        print("NP " + _hex(self.buf))


class NullNeoPixel(RecordingNeoPixel):
    def write(self):
        pass


class RecordingPWM:
    def freq(self, hz):
        print("PWM freq %d" % hz)

    def duty_u16(self, duty):
        print("PWM duty %d" % duty)


class InputPin:
    """A button pin whose level the test sets (``level``); pulled up: 1 = released."""

    def __init__(self, level=1):
        self.level = level

    def value(self):
        return self.level


class NullI2C:
    def writeto(self, addr, buf, stop=True):
        pass

    def writevto(self, addr, vector, stop=True):
        pass


class NullSPI:
    def write(self, buf):
        pass


class NullPin:
    def value(self, level=None):
        pass


class NullPWM:
    def freq(self, hz):
        pass

    def duty_u16(self, duty):
        pass


class CountingI2C:
    """Counts the bytes on the wire (the address byte too) and the transfers."""

    def __init__(self):
        self.bytes = 0
        self.transfers = 0

    def writeto(self, addr, buf, stop=True):
        self.bytes += len(buf) + 1
        self.transfers += 1

    def writevto(self, addr, vector, stop=True):
        self.bytes += 1
        for part in vector:
            self.bytes += len(part)
        self.transfers += 1


class CountingSPI:
    def __init__(self):
        self.bytes = 0
        self.transfers = 0

    def write(self, buf):
        self.bytes += len(buf)
        self.transfers += 1

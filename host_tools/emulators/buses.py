"""CPython stand-ins for the bus objects a board hands to the drivers, wired to emulators.

So the unmodified drivers can run on the desktop: ``I2CBus`` acts like ``machine.I2C``
(``writeto``, ``writevto``, ``scan``; a missing address raises OSError(ENODEV) as the rp2
port does), ``SPIBus`` and ``CSPin`` like ``machine.SPI`` and an output ``machine.Pin``,
and ``NeoPixelStrip`` like ``neopixel.NeoPixel`` (GRB buffer, ``write()`` sends it).
"""

import errno


class I2CBus:
    """An I2C bus with the given emulators on it (each has ``addr`` and ``i2c_write``)."""

    def __init__(self, *devices):
        self.devices = {device.addr: device for device in devices}

    def scan(self):
        return sorted(self.devices)

    def _device(self, addr):
        device = self.devices.get(addr)
        if device is None:
            raise OSError(errno.ENODEV, "no I2C device at 0x%02X" % addr)
        return device

    def writeto(self, addr, buf, stop=True):
        self._device(addr).i2c_write(addr, bytes(buf))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        data = b"".join(bytes(part) for part in vector)
        self._device(addr).i2c_write(addr, data)
        return len(data)


class SPIBus:
    """SPI with one device (``spi_transfer(data) -> bytes`` as the MISO bytes)."""

    def __init__(self, device):
        self.device = device

    def write(self, buf):
        self.device.spi_transfer(bytes(buf))

    def write_readinto(self, write_buf, read_buf):
        read_buf[:] = self.device.spi_transfer(bytes(write_buf))

    def readinto(self, buf, write=0x00):
        buf[:] = self.device.spi_transfer(bytes([write]) * len(buf))


class CSPin:
    """An output pin driving the device's chip select (``device.cs(level)``)."""

    def __init__(self, device, level=1):
        self.device = device
        self.level = level

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = 1 if level else 0
        self.device.cs(self.level)
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class NeoPixelStrip:
    """Like ``neopixel.NeoPixel(pin, n)``: ``strip[i] = (r, g, b)``, ``write()``."""

    ORDER = (1, 0, 2)  # where r, g, b go within a pixel's GRB bytes

    def __init__(self, emulator, n=None):
        self.emulator = emulator
        self.n = emulator.count if n is None else n
        self.buf = bytearray(3 * self.n)

    def __len__(self):
        return self.n

    def __setitem__(self, index, colour):
        for channel in range(3):
            self.buf[3 * index + self.ORDER[channel]] = colour[channel]

    def __getitem__(self, index):
        return tuple(self.buf[3 * index + self.ORDER[channel]] for channel in range(3))

    def fill(self, colour):
        for i in range(self.n):
            self[i] = colour

    def write(self):
        self.emulator.write(bytes(self.buf))

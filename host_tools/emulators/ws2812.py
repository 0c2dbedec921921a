"""WS2812 strip emulator (from the Worldsemi WS2812B datasheet).

Each pixel takes 24 bits, green first, then red, then blue, MSB first, and passes the rest
on; a reset (the line low > 50 us, which ends every ``NeoPixel.write()``) latches. So one
write of 3 x N bytes sets N pixels in order. A write whose length is not 3 x ``count`` is
recorded as an error (a short one leaves the last pixels as they were, extra bytes fall off
the end of the strip, as on the real strip).
"""

# Typical LED current per colour channel at full drive (datasheet: about 20 mA each).
MA_PER_CHANNEL = 20


class WS2812Emulator:
    """``count`` pixels; feed ``write(grb_bytes)``, read ``pixels`` ((r, g, b) tuples)."""

    def __init__(self, count):
        self.count = count
        self.pixels = [(0, 0, 0)] * count
        self.errors = []
        self.writes = 0

    def write(self, buf):
        """One frame of GRB bytes, as the ``neopixel`` module sends its buffer."""
        buf = bytes(buf)
        self.writes += 1
        if len(buf) != 3 * self.count:
            self.errors.append(
                "write of %d bytes; a strip of %d pixels takes %d" % (len(buf), self.count, 3 * self.count)
            )
        for i in range(min(len(buf) // 3, self.count)):
            g, r, b = buf[3 * i : 3 * i + 3]
            self.pixels[i] = (r, g, b)

    def current_ma(self):
        """LED current now, from the channel values (standby current not included)."""
        return sum(r + g + b for r, g, b in self.pixels) * MA_PER_CHANNEL / 255

    def text(self, width=3, group=9):
        """Pixels as characters, ``group`` pixels per block (a die), ``width`` per row;
        blocks side by side. ``.`` dark, ``#`` white-ish, else r/g/b for the strongest."""

        def char(rgb):
            if not any(rgb):
                return "."
            if max(rgb) - min(rgb) <= max(rgb) // 4:
                return "#"
            return "rgb"[rgb.index(max(rgb))]

        blocks = [self.pixels[i : i + group] for i in range(0, self.count, group)]
        lines = []
        for row in range(group // width):
            lines.append(" ".join("".join(char(p) for p in block[row * width : (row + 1) * width]) for block in blocks))
        return "\n".join(lines)

"""CPython stand-in for MicroPython's ``framebuf``: the parts the firmware draws with.

``FrameBuffer`` over a bytearray in the two monochrome layouts the firmware uses
(MONO_VLSB: the OLED and the fonts' tables; MONO_HLSB: the inverse palette), with
``fill``, ``pixel``, ``hline``, ``vline``, ``fill_rect``, ``rect`` and ``blit`` (key and
palette) behaving as MicroPython's extmod/modframebuf.c, clipping included
(tests/firmware/test_stand_in.py draws the same with both and compares the bytes). The
built-in ``text`` font is not here: the firmware draws its own (ui/draw.py, ui/font.py).
"""

MONO_VLSB = 0
MVLSB = MONO_VLSB
MONO_HLSB = 3
MONO_HMSB = 4


class FrameBuffer:
    def __init__(self, buffer, width, height, format, stride=None):
        if format not in (MONO_VLSB, MONO_HLSB, MONO_HMSB):
            raise ValueError("invalid format")
        if not isinstance(buffer, (bytearray, memoryview)):
            raise TypeError("object with buffer protocol required")  # bytes are read-only
        self.buffer = buffer
        self.width = width
        self.height = height
        self.format = format
        self.stride = width if stride is None else stride
        if format == MONO_VLSB:
            need = ((height + 7) >> 3) * self.stride
        else:
            need = ((self.stride + 7) >> 3) * height
        if len(buffer) < need:
            raise ValueError("buffer too small")

    def _get(self, x, y):
        if self.format == MONO_VLSB:
            return (self.buffer[(y >> 3) * self.stride + x] >> (y & 7)) & 1
        index = (x + y * self.stride) >> 3
        offset = 7 - (x & 7) if self.format == MONO_HLSB else x & 7
        return (self.buffer[index] >> offset) & 1

    def _set(self, x, y, c):
        if self.format == MONO_VLSB:
            index, offset = (y >> 3) * self.stride + x, y & 7
        else:
            index = (x + y * self.stride) >> 3
            offset = 7 - (x & 7) if self.format == MONO_HLSB else x & 7
        self.buffer[index] = (self.buffer[index] & ~(1 << offset)) | ((c != 0) << offset)

    def fill(self, c):
        self.fill_rect(0, 0, self.width, self.height, c)

    def pixel(self, x, y, c=None):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        if c is None:
            return self._get(x, y)
        self._set(x, y, c)
        return None

    def fill_rect(self, x, y, w, h, c):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self.height or x >= self.width:
            return
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self.width), min(y + h, self.height)
        if self.format != MONO_VLSB:
            for yy in range(y0, y1):
                for xx in range(x0, x1):
                    self._set(xx, yy, c)
            return
        # A byte holds 8 rows of a column: set or clear the rows of each page at once.
        buf, stride = self.buffer, self.stride
        for page in range(y0 >> 3, ((y1 - 1) >> 3) + 1):
            top, bottom = max(y0, page * 8), min(y1, page * 8 + 8)
            mask = ((1 << (bottom - top)) - 1) << (top - page * 8)
            row = page * stride
            for index in range(row + x0, row + x1):
                buf[index] = buf[index] | mask if c else buf[index] & ~mask

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    def blit(self, source, x, y, key=-1, palette=None):
        if x >= self.width or y >= self.height or -x >= source.width or -y >= source.height:
            return
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = max(0, -x), max(0, -y)
        x0end = min(self.width, x + source.width)
        y0end = min(self.height, y + source.height)
        get, put = source._get, self._set
        colours = None if palette is None else (palette._get(0, 0), palette._get(1, 0))
        if self.format == source.format == MONO_VLSB and y1 == 0 and y0end - y0 <= 8:
            self._blit_rows(source, x0, x0end, x1, y0, y0end - y0, key, colours or (0, 1))
            return
        while y0 < y0end:
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = get(cx1, y1)
                if colours is not None:
                    col = colours[col]
                if col != key:
                    put(cx0, y0, col)
                cx1 += 1
            y1 += 1
            y0 += 1

    def _blit_rows(self, source, x0, x0end, x1, y0, rows, key, colours):
        """blit's loop for a source of at most 8 rows from its top, both MONO_VLSB (the
        fonts' glyphs): a column's bits at once, the same pixels as the loop draws."""
        ones_mask = (1 << rows) - 1
        c0, c1 = colours
        page, shift = y0 >> 3, y0 & 7
        buf, src, stride = self.buffer, source.buffer, self.stride
        second = (page + 1) * stride if (y0 + rows - 1) >> 3 > page else -1
        for cx0 in range(x0, x0end):
            ones = src[x1 + cx0 - x0] & ones_mask
            zeros = ~ones & ones_mask
            on = (ones if c1 != key and c1 else 0) | (zeros if c0 != key and c0 else 0)
            off = (ones if c1 != key and not c1 else 0) | (zeros if c0 != key and not c0 else 0)
            on <<= shift
            off <<= shift
            index = page * stride + cx0
            buf[index] = (buf[index] | (on & 0xFF)) & ~(off & 0xFF)
            if second >= 0:
                index = second + cx0
                buf[index] = (buf[index] | (on >> 8)) & ~(off >> 8)

    def text(self, s, x, y, c=1):
        raise NotImplementedError("the firmware draws text with its own fonts (ui/draw.py, ui/font.py)")

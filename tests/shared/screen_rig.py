"""A real 128 x 64 frame buffer (MicroPython's framebuf, or the CPython stand-in) whose
text rows read back as strings through the firmware's own 8x8 font: for shared cases
that check what a screen says, on CPython and inside MicroPython alike."""

import framebuf

import lang
from ui import draw

_ASCII = "".join(chr(code) for code in range(32, 127))


class Screen(framebuf.FrameBuffer):
    def __init__(self):
        self.buf = bytearray(128 * 8)
        super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)

    def show(self):
        pass

    def cell(self, col, row):
        """The character in text cell ``col``, ``row`` (normal or inverted), "#" when no
        glyph matches (graphics)."""
        at = row * 128 + col * 8
        glyphs = draw.GLYPHS
        for flip in (0, 0xFF):
            for number in range(len(glyphs) // 8):
                for x in range(8):
                    if self.buf[at + x] ^ flip != glyphs[8 * number + x]:
                        break
                else:
                    return (_ASCII + lang.LETTERS)[number]
        return "#"

    def row(self, n):
        """Text row ``n`` as a string, trailing spaces left out."""
        return "".join([self.cell(col, n) for col in range(16)]).rstrip()

"""Both fonts draw every character of their list, run by pytest AND inside MicroPython:
each glyph lands on the screen exactly as its table holds it (the 8x8 font's two blits
through an 8x8 cell, inverted text through the palette), and a character without a
glyph shows as "?"."""

import framebuf

from ui import draw
from ui import font
from ui import font8
from check import equal, true

ASCII = "".join(chr(code) for code in range(32, 127))


def _screen():
    buf = bytearray(128 * 8)
    return buf, framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)


def test_every_character_of_both_lists_has_a_glyph():
    equal(font.LETTERS, font8.LETTERS, "both fonts' letters")
    for char in ASCII + font8.LETTERS:
        true(font8.index(char) >= 0, char, what="8x8 glyph")
        true(font.index(char) >= 0, char, what="compact glyph")
    equal(font8.index("\u0153"), -1, "a letter no language here uses")
    equal(font.index("\u0153"), -1, "a letter no language here uses")


def test_each_8x8_glyph_lands_as_its_table_holds_it():
    buf, fb = _screen()
    chars = ASCII + font8.LETTERS
    for start in range(0, len(chars), 16):
        line = chars[start : start + 16]
        for inverted in (False, True):
            fb.fill(0)
            if inverted:
                draw.bar(fb, 3)
            draw.text(fb, line, 0, 3, inverted)
            for i in range(len(line)):
                at = 8 * font8.index(line[i])
                for x in range(8):
                    want = font8.GLYPHS[at + x] ^ (0xFF if inverted else 0)
                    equal(buf[3 * 128 + 8 * i + x], want, line[i])


def test_each_compact_glyph_lands_as_its_table_holds_it():
    buf, fb = _screen()
    chars = ASCII + font.LETTERS
    fb.fill(0)
    for start in range(0, len(chars), 32):
        fb.fill(0)
        line = chars[start : start + 32]
        font.text(fb, line, 0, 3)  # y = TOP + 18 = 27: bits 3..7 of page 3, 0..0 of page 4
        for i in range(len(line)):
            at = 3 * font.index(line[i])
            for x in range(3):
                x0 = 4 * i + x
                got = (buf[3 * 128 + x0] >> 3) | ((buf[4 * 128 + x0] << 5) & 0xE0)
                equal(got & 0x3F, font.GLYPHS[at + x], line[i])


def test_a_character_without_a_glyph_shows_as_a_question_mark():
    buf, fb = _screen()
    draw.text(fb, "\u0153", 0, 0)
    for x in range(8):
        equal(buf[x], font8.GLYPHS[8 * font8.index("?") + x], "column %d" % x)

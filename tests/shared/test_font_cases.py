"""Both fonts draw every character of the list (lang.LETTERS and printable ASCII), run
by pytest AND inside MicroPython: each glyph lands on the screen exactly as its table
holds it (the 8x8 font's two blits through an 8x8 cell, inverted text through the
palette), from a str and from a text lang.py resolved alike, and a character without a
glyph shows as "?"."""

import framebuf

import lang
from ui import draw
from ui import font

from check import equal

ASCII = "".join(chr(code) for code in range(32, 127))
CHARS = ASCII + lang.LETTERS


def _screen():
    buf = bytearray(128 * 8)
    return buf, framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)


def test_every_character_of_the_list_has_a_glyph_in_both_fonts():
    equal(len(draw.GLYPHS), 8 * len(CHARS), "8x8 glyphs")
    equal(len(font.GLYPHS), 3 * len(CHARS), "compact glyphs")
    for i in range(len(CHARS)):
        equal(lang.glyph(CHARS[i]), i, CHARS[i])
    equal(lang.glyph("\u0153"), lang.glyph("?"), "a letter no language here uses")


def test_each_8x8_glyph_lands_as_its_table_holds_it():
    buf, fb = _screen()
    for start in range(0, len(CHARS), 16):
        line = CHARS[start : start + 16]
        for inverted in (False, True):
            fb.fill(0)
            if inverted:
                draw.bar(fb, 3)
            draw.text(fb, line, 0, 3, inverted)
            for i in range(len(line)):
                at = 8 * lang.glyph(line[i])
                for x in range(8):
                    want = draw.GLYPHS[at + x] ^ (0xFF if inverted else 0)
                    equal(buf[3 * 128 + 8 * i + x], want, line[i])


def test_each_compact_glyph_lands_as_its_table_holds_it():
    buf, fb = _screen()
    for start in range(0, len(CHARS), 32):
        fb.fill(0)
        line = CHARS[start : start + 32]
        font.text(fb, line, 0, 3)  # y = TOP + 18 = 27: bits 3..7 of page 3, bit 0 of page 4
        for i in range(len(line)):
            at = 3 * lang.glyph(line[i])
            for x in range(3):
                x0 = 4 * i + x
                got = (buf[3 * 128 + x0] >> 3) | ((buf[4 * 128 + x0] << 5) & 0xE0)
                equal(got & 0x3F, font.GLYPHS[at + x], line[i])


def test_a_resolved_text_draws_as_its_str():
    lang.use(lang.ENGLISH)
    handle = lang.T.who_starts
    text = lang.string(handle)
    equal(handle & 0xFF, len(text), "length")
    buf, fb = _screen()
    draw.text(fb, handle, 0, 2)
    font.text(fb, handle, 0, 6)
    drawn = bytes(buf)
    fb.fill(0)
    draw.text(fb, text, 0, 2)
    font.text(fb, text, 0, 6)
    equal(bytes(buf), drawn, "a handle and its str")


def test_a_character_without_a_glyph_shows_as_a_question_mark():
    buf, fb = _screen()
    draw.text(fb, "\u0153", 0, 0)
    for x in range(8):
        equal(buf[x], draw.GLYPHS[8 * lang.glyph("?") + x], "column %d" % x)

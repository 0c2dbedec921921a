"""The CPython stand-ins for MicroPython-only names behave like MicroPython."""

import time

import micropython


def test_const_and_decorators_are_transparent():
    assert micropython.const(0x3C) == 0x3C
    f = lambda x: x + 1  # noqa: E731
    assert micropython.native(f) is f
    assert micropython.viper(f) is f


def test_ticks_wrap_like_micropython():
    period = micropython.TICKS_PERIOD
    assert time.ticks_diff(5, period - 5) == 10
    assert time.ticks_diff(period - 5, 5) == -10
    assert time.ticks_add(period - 1, 2) == 1
    assert time.ticks_add(3, -5) == period - 2
    assert 0 <= time.ticks_ms() < period


def test_ticks_ms_advances():
    start = time.ticks_ms()
    time.sleep_ms(20)
    assert 15 <= time.ticks_diff(time.ticks_ms(), start) < 1000


def test_the_same_wrap_arithmetic_as_the_unix_port():
    """Same formulas as MicroPython; the period is 2**30 on the Pico, larger on 64-bit unix."""
    import host_tools

    code = (
        "import time;p=time.ticks_add(0,-1)+1;"
        "print(time.ticks_diff(5,p-5),time.ticks_diff(p-5,5),time.ticks_add(p-1,2),time.ticks_add(3,-5)-p)"
    )
    out = host_tools.run_micropython(["-c", code]).stdout.split()
    p = micropython.TICKS_PERIOD
    mine = [time.ticks_diff(5, p - 5), time.ticks_diff(p - 5, 5), time.ticks_add(p - 1, 2), time.ticks_add(3, -5) - p]
    assert out == [str(v) for v in mine] == ["10", "-10", "1", "-2"]


_DRAWING = """
import framebuf
buf = bytearray(128 * 8)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
fb.fill(0)
fb.fill_rect(-3, 5, 10, 20, 1)
fb.fill_rect(120, 60, 30, 30, 1)
fb.rect(20, 2, 30, 9, 1)
fb.rect(22, 4, 5, 5, 1, True)
fb.pixel(127, 63, 1)
fb.pixel(128, 0, 1)
fb.hline(0, 40, 200, 1)
fb.vline(70, -5, 20, 1)
fb.fill_rect(0, 48, 128, 8, 1)
glyph = bytearray(b"\\x7e\\x11\\x11\\x7e\\x00\\x00\\x00\\x00")
glyph_fb = framebuf.FrameBuffer(glyph, 8, 8, framebuf.MONO_VLSB)
palette = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
palette.pixel(0, 0, 1)
fb.blit(glyph_fb, 30, 48, 1, palette)
fb.blit(glyph_fb, -4, 30, 0)
fb.blit(glyph_fb, 124, 58)
fb.blit(glyph_fb, 60, 27, 0)
fb.blit(glyph_fb, 70, 29, 1, palette)
cell = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
wide = framebuf.FrameBuffer(bytearray(b"\\x01\\x02\\x04\\x08\\x10\\x20\\x40\\x80" * 3), 24, 8, framebuf.MONO_VLSB)
cell.blit(wide, -8, 0)
fb.blit(cell, 90, 20, 0)
print(bytes(buf).hex(), palette.pixel(0, 0), palette.pixel(1, 0), fb.pixel(200, 0))
"""


def test_framebuf_draws_the_same_bytes_as_micropython():
    import host_tools

    mine = {}
    exec(_DRAWING, {"print": lambda *values: mine.update(out=" ".join(str(v) for v in values))})
    theirs = host_tools.run_micropython(["-c", _DRAWING]).stdout.strip()
    assert mine["out"] == theirs
    assert "ff" in theirs  # something was drawn

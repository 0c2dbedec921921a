"""PNG pictures of the simulated device (five dice above the OLED), written with zlib and
struct only. The picture is built from the emulators' pixels, i.e. from what the chips
were sent, never from the firmware's variables.
"""

import struct
import zlib

import host_tools

_LED = 6  # pixels per LED (a 5x5 dot and a 1-pixel gap)
_DIE = 8 * _LED + 8  # LED grid plus a 4-pixel frame on each side
_GAP = 10
_MARGIN = 16
_OLED_SCALE = 2
_BEZEL = 8
BODY = (38, 40, 46)
DIE_FACE = (18, 18, 20)
DIE_EDGE = (70, 72, 80)
LED_OFF = (40, 12, 12)
OLED_BG = (0, 0, 0)
OLED_ON = (120, 210, 255)
OLED_DIM = (30, 52, 64)  # lit pixels at power saving's low contrast
BEZEL = (12, 12, 14)


def _canvas(width, height, colour):
    return [bytearray(bytes(colour) * width) for _ in range(height)]


def _rect(rows, x, y, w, h, colour):
    pixel = bytes(colour)
    for yy in range(y, y + h):
        rows[yy][3 * x : 3 * (x + w)] = pixel * w


def render(dice_pixels, oled_pixels, dim=False):
    """The device as rows of RGB bytes; returns (width, height, rows). ``dim``: the OLED
    at power saving's contrast."""
    lit = OLED_DIM if dim else OLED_ON
    dice_width = 5 * _DIE + 4 * _GAP
    oled_w = 128 * _OLED_SCALE + 2 * _BEZEL
    oled_h = 64 * _OLED_SCALE + 2 * _BEZEL
    width = max(dice_width, oled_w) + 2 * _MARGIN
    height = _MARGIN + _DIE + _MARGIN + oled_h + _MARGIN
    rows = _canvas(width, height, BODY)
    x0 = (width - dice_width) // 2
    for die, grid in enumerate(dice_pixels):
        dx = x0 + die * (_DIE + _GAP)
        _rect(rows, dx, _MARGIN, _DIE, _DIE, DIE_EDGE)
        _rect(rows, dx + 2, _MARGIN + 2, _DIE - 4, _DIE - 4, DIE_FACE)
        for r in range(8):
            for c in range(8):
                rgb = grid[r][c]
                colour = rgb if any(rgb) else LED_OFF
                _rect(rows, dx + 4 + c * _LED, _MARGIN + 4 + r * _LED, _LED - 1, _LED - 1, colour)
    ox = (width - oled_w) // 2
    oy = _MARGIN + _DIE + _MARGIN
    _rect(rows, ox, oy, oled_w, oled_h, BEZEL)
    for y in range(64):
        line = oled_pixels[y]
        for x in range(128):
            colour = lit if line[x] == 1 else OLED_BG
            _rect(rows, ox + _BEZEL + x * _OLED_SCALE, oy + _BEZEL + y * _OLED_SCALE, _OLED_SCALE, _OLED_SCALE, colour)
    return width, height, rows


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(width, height, rows):
    """An 8-bit RGB PNG (filter 0 on every row)."""
    raw = b"".join(b"\x00" + bytes(row) for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b"")
    )


def write_png(path, device):
    from host_tools.simulator.backend import dimmed

    width, height, rows = render(device.dice_pixels(), device.oled_pixels(), dimmed(device))
    host_tools.write_file_atomic(path, png_bytes(width, height, rows))


def read_png(path):
    """(width, height, rows) of a PNG written by ``png_bytes`` (used by the tests)."""
    with open(path, "rb") as source:
        data = source.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos = 8
    idat = b""
    width = height = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])[0]
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise ValueError("bad CRC in %s" % kind)
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = 3 * width + 1
    rows = [raw[i * stride + 1 : (i + 1) * stride] for i in range(height)]
    return width, height, rows

"""The host's end of the simulator's wire (boards/sim_protocol.py is its one definition).

``read_message`` takes one message off a device's stream; ``Parts`` is what the messages
drive, as every back-end shows it: the OLED (an SSD1306/SH1106 emulator fed the I2C
bytes, or the browser board's frame buffer as it is), the MAX7219 chain or WS2812 strip,
the buzzer's tone. The unix port's SimDevice, the web port's WebDevice and the emulated
chip's ChipDevice (whose chip.js frames the same part payloads its own way) are Parts.
``KINDS`` (name -> kind byte) is what site.json hands the web page and its Node runner.
"""

import struct

import host_tools
from host_tools.emulators.max7219 import MAX7219ChainEmulator
from host_tools.emulators.ws2812 import WS2812Emulator
from host_tools.simulator.backend import N_DICE, N_PIXELS, dice_pixels_of

host_tools.use_firmware()
from boards import sim_protocol as P  # noqa: E402  (the device's module, on the path above)

KINDS = {name[: -len("_MSG")]: value for name, value in vars(P).items() if name.endswith("_MSG")}
_U32 = struct.Struct("<I")
_U32_U16 = struct.Struct("<IH")  # a number and a 16-bit one: T (freq, duty), M, an edge
_OLED_DATA = 0x40  # an I2C control byte followed by RAM data: a frame (SSD1306/SH1106)


def read_message(read):
    """(kind, header bytes, payload) of the next message; ``read(n)`` returns n bytes."""
    head = read(P.HEADER)
    return head[0], head, read(head[1] | head[2] << 8)


def u32(payload):
    return _U32.unpack_from(payload)[0]


def u32_u16(payload):
    """(number, 16-bit number): a tone's (Hz, duty), a mark's (ms, reading number)."""
    return _U32_U16.unpack_from(payload)


def levels(mask):
    """The answer to a wait: the button levels."""
    return struct.pack("<H", mask)


def count(n):
    return struct.pack("<H", n)


def edge(offset_ms, mask):
    return _U32_U16.pack(offset_ms, mask)


def u32_bytes(value):
    return _U32.pack(value)


def frame_pixels(frame):
    """64 rows x 128 of 0/1 from a MONO_VLSB frame buffer (byte page*128 + x, bit 0 on top)."""
    width = P.OLED_WIDTH
    return [[(frame[(y >> 3) * width + x] >> (y & 7)) & 1 for x in range(width)] for y in range(P.OLED_HEIGHT)]


class Parts:
    """The device's parts as the host shows them, driven by the wire's part messages.
    ``oled``: an OLED controller emulator for the I2C bytes, or None for the browser
    board's frame buffer (``F``, ``K``, ``P``); ``dice_kind`` None: the subclass tells."""

    def __init__(self, oled=None, dice_kind="max7219"):
        self.oled = oled
        if dice_kind is not None:
            self.dice_kind = dice_kind
        self.chain = MAX7219ChainEmulator(N_DICE)
        self.strip = WS2812Emulator(N_PIXELS)
        self.tone = (0, 0)  # (freq, duty) of the buzzer now
        self.frames = 0  # OLED frames (data writes) so far: a redraw counter
        self.frame = bytes(P.FRAME_BYTES)
        self.panel_on = True
        self.contrast = 0xFF  # the page draws the glass at full brightness until told

    def part_message(self, kind, payload):
        """Apply a part's message; False when ``kind`` is not one (the clock's, busy mode's)."""
        if kind == P.I2C_MSG:
            if self.oled is not None and self.oled.addr == payload[0]:
                self.oled.i2c_write(payload[0], payload[1:])
                if len(payload) > 1 and payload[1] == _OLED_DATA:
                    self.frames += 1
        elif kind == P.SPI_MSG:
            self.chain.spi_write(payload)
        elif kind == P.CS_MSG:
            self.chain.cs(payload[0])
        elif kind == P.STRIP_MSG:
            self.strip.write(payload)
        elif kind == P.TONE_MSG:
            self.tone = u32_u16(payload)
        elif kind == P.FRAME_MSG:
            self.frame = payload
            self.frames += 1
        elif kind == P.CONTRAST_MSG:
            self.contrast = payload[0]
        elif kind == P.POWER_MSG:
            self.panel_on = bool(payload[0])
        else:
            return False
        return True

    def oled_pixels(self):
        """64 rows x 128 of 0/1 as the glass shows them."""
        if self.oled is not None:
            return self.oled.pixels()
        if not self.panel_on:
            return [[0] * P.OLED_WIDTH for _ in range(P.OLED_HEIGHT)]
        return frame_pixels(self.frame)

    def oled_contrast(self):
        """The contrast the firmware last set (0..255; power saving dims it)."""
        return self.oled.contrast if self.oled is not None else self.contrast

    def dice_pixels(self):
        """For each die an 8x8 grid of (r, g, b) as the LEDs light it (dark = (0, 0, 0))."""
        return dice_pixels_of(self.dice_kind, self.chain, self.strip)

"""The browser board: the firmware on MicroPython's WebAssembly port, in a Web Worker of
the page that ``python -m host_tools web`` builds (host_tools/browser/ is the host side).

The page is the hardware. The OLED is a frame buffer the page draws, the dice are the
device's MAX7219 driver on an SPI whose bytes the page decodes into the five 8x8
matrices, the buttons are the real debouncer reading levels the page sets, and the buzzer
is the real driver on a PWM the page plays through WebAudio. Output is batched in one
buffer made here and handed to the page at each sleep, with one call into the JS module
``webhost`` that the host registers: ``webhost.wait(ms, address, length)`` takes the
bytes at that address of the wasm heap, lets ``ms`` pass and returns the button levels
(bit i = button i pressed). Wire format, as the sim board's: ``kind(1) length(2, LE)
payload``, kinds ``F`` OLED frame (1024 bytes, MONO_VLSB), ``K`` contrast (1), ``P`` panel
power (1), ``S`` SPI bytes, ``C`` chip-select level (1), ``T`` PWM: freq (4, LE),
duty_u16 (2, LE), ``X`` the screen's text (UTF-8 lines, byte 1 before a line drawn
inverted: the cursor), ``D`` the dice: faces (5), held mask (1), animals (1). The clock
is virtual as on the sim board: it moves only with the sleeps, and the host paces them to
real time, so a run is the same in a test and a tab. ``idle(ms)`` (``webhost.idle``)
sleeps until a press or ``ms``, and the clock moves by what was slept.

The text and the dice are what the firmware draws, told as the firmware knows them (the
strings it draws, the faces it shows), for the page's live region and HOLD buttons: a
screen reader hears the screen without anyone reading pixels.
"""
from micropython import const
import framebuf
import time

from boards.hardware import Hardware
from game_dice import DiceSource

_OUT_SIZE = const(1100)  # one OLED frame (1024 bytes) and its header fit, with room for the dice
_N_BUTTONS = const(10)
_FRAME_BYTES = const(1024)
_LEVEL_BITS = const(10)  # webhost.idle answers (ms slept << 10) | button levels
_LEVELS = const(0x3FF)
_INVERTED = const(1)


class WebLink:
    """Buffered messages to the page; ``wait`` hands them over and reads the buttons."""

    def __init__(self, host):
        import uctypes

        self._host = host
        self._buf = bytearray(_OUT_SIZE)
        self._addr = uctypes.addressof(self._buf)  # the page reads the bytes in place
        self._pos = 0
        self.buttons = 0

    def begin(self, kind, length):
        """Start a message of ``length`` payload bytes; follow with ``add`` calls."""
        if self._pos + 3 + length > _OUT_SIZE:
            self.flush()
        buf = self._buf
        pos = self._pos
        buf[pos] = kind
        buf[pos + 1] = length & 0xFF
        buf[pos + 2] = length >> 8
        self._pos = pos + 3

    def add(self, data):
        n = len(data)
        self._buf[self._pos : self._pos + n] = data
        self._pos += n

    def add_byte(self, value):
        self._buf[self._pos] = value
        self._pos += 1

    def flush(self):
        if self._pos:
            self._host.output(self._addr, self._pos)
            self._pos = 0

    def wait(self, ms):
        self.buttons = self._host.wait(ms, self._addr, self._pos)
        self._pos = 0
        return self.buttons

    def idle(self, ms):
        """Sleep until a press or ``ms``; returns the milliseconds slept."""
        answer = self._host.idle(ms, self._addr, self._pos)
        self._pos = 0
        self.buttons = answer & _LEVELS
        return answer >> _LEVEL_BITS


class WebOLED(framebuf.FrameBuffer):
    """The 128x64 panel as the page draws it: ``show`` sends the frame buffer as it is,
    and the text on it when that changed: each character drawn (the built-in font's
    ``text``, the compact font's glyphs through ``glyph``) is kept by its position until
    something is drawn over it or the screen is cleared."""

    def __init__(self, link):
        self.width = 128
        self.height = 64
        self.buffer = bytearray(_FRAME_BYTES)
        super().__init__(self.buffer, 128, 64, framebuf.MONO_VLSB)
        self._link = link
        self._chars = {}  # (y << 8) | x -> (character, width, height, inverted)
        self._told = b""
        self.show()

    def _forget(self, x, y, w, h):
        chars = self._chars
        for key in [k for k, c in chars.items() if _overlap(k & 0xFF, k >> 8, c[1], c[2], x, y, w, h)]:
            del chars[key]

    def _keep(self, ch, x, y, w, h, inverted):
        self._forget(x, y, w, h)
        if ch != " " or inverted:
            self._chars[(y << 8) | (x & 0xFF)] = (ch, w, h, inverted)

    def fill(self, c):
        self._chars.clear()
        super().fill(c)

    def fill_rect(self, x, y, w, h, c):
        self._forget(x, y, w, h)
        super().fill_rect(x, y, w, h, c)

    def text(self, s, x, y, c=1):
        inverted = c == 0
        for i in range(len(s)):
            self._keep(s[i], x + 8 * i, y, 8, 8, inverted)
        super().text(s, x, y, c)

    def glyph(self, code, x, y, inverted):
        """The compact font drew character ``code`` at ``x``, ``y`` (ui/font.py)."""
        self._keep(chr(code) if 32 <= code < 127 else " ", x, y, 4, 6, inverted)

    def screen_text(self):
        """The characters on the screen as lines, top to bottom (byte 1 first on a line
        below the title with inverted characters: the cursor), as UTF-8 bytes."""
        rows = {}
        for key, (ch, w, _h, inverted) in self._chars.items():
            rows.setdefault(key >> 8, []).append((key & 0xFF, ch, w, inverted))
        lines = []
        for y in sorted(rows):
            line = []
            end = None
            marked = False
            for x, ch, w, inverted in sorted(rows[y]):
                if end is not None and x > end:
                    line.append(" ")
                line.append(ch)
                end = x + w
                marked = marked or (inverted and y >= 8)  # row 0's inverted bar is the title
            text = "".join(line).strip()
            if text:
                lines.append(("\x01" if marked else "") + text)
        return "\n".join(lines).encode()

    def show(self):
        self._link.begin(0x46, _FRAME_BYTES)  # "F"
        self._link.add(self.buffer)
        told = self.screen_text()
        if told != self._told:
            self._told = told
            self._link.begin(0x58, len(told))  # "X"
            self._link.add(told)

    def contrast(self, value):
        self._link.begin(0x4B, 1)  # "K"
        self._link.add_byte(0 if value < 0 else 255 if value > 255 else value)

    def power(self, on):
        self._link.begin(0x50, 1)  # "P"
        self._link.add_byte(1 if on else 0)


def _overlap(ax, ay, aw, ah, bx, by, bw, bh):
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


class WebSPI:
    def __init__(self, link):
        self._link = link

    def write(self, buf):
        self._link.begin(0x53, len(buf))  # "S"
        self._link.add(buf)


class WebOutPin:
    """The MAX7219 CS/LOAD line: the page latches the chain when it rises."""

    def __init__(self, link, level=1):
        self._link = link
        self._level = level

    def value(self, level=None):
        if level is None:
            return self._level
        self._level = 1 if level else 0
        self._link.begin(0x43, 1)  # "C"
        self._link.add_byte(self._level)


class WebButtonPin:
    """Input with pull-up, switch to GND: reads 0 while the page holds the button."""

    def __init__(self, link, index):
        self._link = link
        self._bit = 1 << index

    def value(self):
        return 0 if self._link.buttons & self._bit else 1


class WebPWM:
    def __init__(self, link):
        self._link = link
        self._freq = 1000

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        self._freq = hz

    def duty_u16(self, duty):
        link = self._link
        link.begin(0x54, 6)  # "T"
        freq = self._freq
        for shift in (0, 8, 16, 24):
            link.add_byte((freq >> shift) & 0xFF)
        link.add_byte(duty & 0xFF)
        link.add_byte(duty >> 8)


class WebClock:
    """Milliseconds that pass only when the firmware sleeps (the page paces the sleeps)."""

    def __init__(self, link):
        self._link = link
        self.now = time.ticks_add(0, 0)

    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        if ms > 0:
            self._link.wait(ms)
            self.now = time.ticks_add(self.now, ms)

    def idle_ms(self, ms):
        if ms > 0:
            self.now = time.ticks_add(self.now, self._link.idle(ms))


def web_dice(link, spi, cs):
    """The device's MAX7219 dice driver, which also tells the page the faces and the
    held dice it shows (``D``)."""
    from drivers.max7219 import MAX7219Dice

    class WebDice(MAX7219Dice):
        def __init__(self):
            self._told = bytearray(7)
            self._state = bytearray(7)
            self._pictures = 0
            super().__init__(spi, cs)

        def animals(self, on):
            self._pictures = 1 if on else 0
            super().animals(on)

        def show(self, faces, held_mask):
            super().show(faces, held_mask)
            state = self._state
            for i in range(5):
                state[i] = faces[i]
            state[5] = held_mask
            state[6] = self._pictures
            if state != self._told:
                self._told[:] = state
                link.begin(0x44, 7)  # "D"
                link.add(state)

    return WebDice()


def build(config):
    import webhost  # registered by the page's worker (host_tools/browser/host.mjs) before main.py
    from drivers.buttons import Buttons
    from drivers.buzzer import Buzzer
    link = WebLink(webhost)
    hw = Hardware()
    clock = WebClock(link)
    hw.link = link
    hw.clock = clock
    hw.ticks_ms = clock.ticks_ms
    hw.sleep_ms = clock.sleep_ms
    hw.lightsleep = clock.sleep_ms
    hw.idle = clock.idle_ms
    hw.oled = WebOLED(link)
    hw.glyphs = hw.oled.glyph
    hw.dice = web_dice(link, WebSPI(link), WebOutPin(link))
    pins = [WebButtonPin(link, i) for i in range(_N_BUTTONS)]
    hw.buttons = Buttons(pins, active=0)
    hw.button_down = lambda button: pins[button].value() == 0
    hw.buzzer = Buzzer(WebPWM(link), clock=clock.ticks_ms)
    seed = config.get("seed")
    hw.dice_source = DiceSource(int(seed) if seed not in (None, "") else None)
    return hw

"""The browser board: the firmware on MicroPython's WebAssembly port, in a Web Worker of
the page that ``python -m host_tools web`` builds (host_tools/browser/ is the host side).

The page is the hardware. The OLED is a frame buffer the page draws, the dice are the
device's MAX7219 driver on an SPI whose bytes the page decodes into the five 8x8
matrices, the buttons are the real debouncer reading levels the page sets, and the buzzer
is the real driver on a PWM the page plays through WebAudio. Output is batched in one
buffer made here and handed to the page at each sleep, with one call into the JS module
``webhost`` that the host registers: ``webhost.wait(ms, address, length)`` takes the
bytes at that address of the wasm heap, lets ``ms`` pass and returns the button levels
(bit i = button i pressed). The messages are the sim board's wire (boards/sim_protocol.py,
its one definition, with the SPI, CS pin, buttons and PWM parts shared with the sim
board): ``F`` the OLED frame as it is, ``K`` contrast, ``P`` panel power, ``S``, ``C``,
``T``, and the browser's own ``O`` (the OLED's text) and ``D`` (the dice's faces). The
clock is virtual as on the sim board: it moves only with the sleeps, and the host paces
them to real time, so a run is the same in a test and a tab. ``idle(ms)``
(``webhost.idle``) sleeps until a press or ``ms``, and the clock moves by what was slept.

The text and the dice are what the firmware draws, told as the firmware knows them (the
strings it draws, the faces it shows), for the page's live region and HOLD buttons: a
screen reader hears the screen without anyone reading pixels.
"""

from micropython import const
import framebuf
import time

from boards.hardware import Hardware
from boards.sim_protocol import CONTRAST_MSG, FRAME_BYTES, FRAME_MSG, HEADER, OLED_HEIGHT, OLED_WIDTH, POWER_MSG
from boards.sim_protocol import DICE_LEN, DICE_MSG, IDLE_LEVEL_BITS, TEXT_MSG
from boards.sim_protocol import WireButtonPin, WireOutPin, WirePWM, WireSPI
from game_dice import DiceSource
from lang import LETTERS  # the fonts number their glyphs: ASCII 32..126, then these

# One OLED frame (sim_protocol.FRAME_BYTES) and its header fit, with room for the dice.
_OUT_SIZE = const(1100)
_N_BUTTONS = const(10)
_LEVELS = const(0x3FF)  # (1 << IDLE_LEVEL_BITS) - 1: the levels in an idle's answer
_TITLE_ROWS = const(8)  # the top text row's inverted bar is the title, not the cursor


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
        if self._pos + HEADER + length > _OUT_SIZE:
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
        return answer >> IDLE_LEVEL_BITS


class WebOLED(framebuf.FrameBuffer):
    """The 128x64 panel as the page draws it: ``show`` sends the frame buffer as it is,
    and the text on it when that changed: each character drawn (the fonts' glyphs through
    ``glyph``; MicroPython's own ``text`` where the boot has no font yet) is kept by its
    position until something is drawn over it or the screen is cleared."""

    def __init__(self, link):
        self.width = OLED_WIDTH
        self.height = OLED_HEIGHT
        self.buffer = bytearray(FRAME_BYTES)
        super().__init__(self.buffer, OLED_WIDTH, OLED_HEIGHT, framebuf.MONO_VLSB)
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

    def glyph(self, number, x, y, width, inverted):
        """A font drew glyph ``number`` (lang.glyph's) in a cell ``width`` wide at ``x``,
        ``y`` (ui/draw.py: 8x8, ui/font.py: the compact 4x6)."""
        ch = chr(32 + number) if number < 95 else LETTERS[number - 95]
        self._keep(ch, x, y, width, 8 if width == 8 else 6, inverted)

    def telling(self, draw, width):
        """A font's ``glyph`` function (``draw``, its cell ``width`` wide) that draws and
        tells ``glyph`` above: each font takes one at boot (main.py, the fonts'
        ``listen``), so they test nothing per glyph (a test per glyph slowed the busy-time
        simulator's busiest turn past its 15 s)."""
        told = self.glyph

        def drawn(fb, number, x, y, inverted=False):
            draw(fb, number, x, y, inverted)
            told(number, x, y, width, inverted)

        return drawn

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
                marked = marked or (inverted and y >= _TITLE_ROWS)
            text = "".join(line).strip()
            if text:
                lines.append(("\x01" if marked else "") + text)
        return "\n".join(lines).encode()

    def show(self):
        self._link.begin(FRAME_MSG, FRAME_BYTES)
        self._link.add(self.buffer)
        told = self.screen_text()
        if told != self._told:
            self._told = told
            self._link.begin(TEXT_MSG, len(told))
            self._link.add(told)

    def contrast(self, value):
        self._link.begin(CONTRAST_MSG, 1)
        self._link.add_byte(0 if value < 0 else 255 if value > 255 else value)

    def power(self, on):
        self._link.begin(POWER_MSG, 1)
        self._link.add_byte(1 if on else 0)


def _overlap(ax, ay, aw, ah, bx, by, bw, bh):
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


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
    """The device's MAX7219 dice driver, which also tells the page the faces and the held
    dice it shows (``D``: faces (5), held mask (1), animals (1))."""
    from drivers.max7219 import MAX7219Dice

    class WebDice(MAX7219Dice):
        def __init__(self):
            self._told = bytearray(DICE_LEN)
            self._state = bytearray(DICE_LEN)
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
                link.begin(DICE_MSG, DICE_LEN)
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
    hw.glyphs = hw.oled.telling
    hw.dice = web_dice(link, WireSPI(link), WireOutPin(link))
    pins = [WireButtonPin(link, i) for i in range(_N_BUTTONS)]
    hw.buttons = Buttons(pins, active=0)
    hw.button_down = lambda button: pins[button].value() == 0
    hw.buzzer = Buzzer(WirePWM(link), clock=clock.ticks_ms)
    seed = config.get("seed")
    hw.dice_source = DiceSource(int(seed) if seed not in (None, "") else None)
    return hw

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
``T``. The clock is virtual as on the sim board: it moves only with the sleeps, and the
host paces them to real time, so a run is the same in a test and a tab.
"""

from micropython import const
import framebuf
import time

from boards.hardware import Hardware
from boards.sim_protocol import CONTRAST_MSG, FRAME_BYTES, FRAME_MSG, HEADER, OLED_HEIGHT, OLED_WIDTH, POWER_MSG
from boards.sim_protocol import WireButtonPin, WireOutPin, WirePWM, WireSPI
from game_dice import DiceSource

# One OLED frame (sim_protocol.FRAME_BYTES) and its header fit, with room for the dice.
_OUT_SIZE = const(1100)
_N_BUTTONS = const(10)


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


class WebOLED(framebuf.FrameBuffer):
    """The 128x64 panel as the page draws it: ``show`` sends the frame buffer as it is."""

    def __init__(self, link):
        self.width = OLED_WIDTH
        self.height = OLED_HEIGHT
        self.buffer = bytearray(FRAME_BYTES)
        super().__init__(self.buffer, OLED_WIDTH, OLED_HEIGHT, framebuf.MONO_VLSB)
        self._link = link
        self.show()

    def show(self):
        self._link.begin(FRAME_MSG, FRAME_BYTES)
        self._link.add(self.buffer)

    def contrast(self, value):
        self._link.begin(CONTRAST_MSG, 1)
        self._link.add_byte(0 if value < 0 else 255 if value > 255 else value)

    def power(self, on):
        self._link.begin(POWER_MSG, 1)
        self._link.add_byte(1 if on else 0)


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


def build(config):
    import webhost  # registered by the page's worker (host_tools/browser/host.mjs) before main.py
    from drivers.buttons import Buttons
    from drivers.buzzer import Buzzer
    from drivers.max7219 import MAX7219Dice

    link = WebLink(webhost)
    hw = Hardware()
    clock = WebClock(link)
    hw.link = link
    hw.clock = clock
    hw.ticks_ms = clock.ticks_ms
    hw.sleep_ms = clock.sleep_ms
    hw.lightsleep = clock.sleep_ms
    hw.oled = WebOLED(link)
    hw.dice = MAX7219Dice(WireSPI(link), WireOutPin(link))
    pins = [WireButtonPin(link, i) for i in range(_N_BUTTONS)]
    hw.buttons = Buttons(pins, active=0)
    hw.button_down = lambda button: pins[button].value() == 0
    hw.buzzer = Buzzer(WirePWM(link), clock=clock.ticks_ms)
    seed = config.get("seed")
    hw.dice_source = DiceSource(int(seed) if seed not in (None, "") else None)
    return hw

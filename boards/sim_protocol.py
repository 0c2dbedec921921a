"""The simulator's wire, written once: the messages the sim board (boards/sim.py, its busy
mode in sim_busy.py and sim_busy_log.py, sim_extras.py) and the browser board
(boards/web.py) send to the host, what the host answers, and the stand-in parts that
send them. Both ends import this module: the boards under MicroPython; under CPython the
host's back-ends through host_tools/simulator/wire.py (the unix port's SimDevice, the web
port's WebDevice; the emulated chip's chip.js sends the same part payloads in its own
framing), and the web page and its Node runner get the kinds from site.json's ``wire``.
tests/sim/test_wire.py checks that every end agrees.

A message is ``kind (1) length (2, LE) payload``; numbers are little-endian.
Device -> host:
  ``I`` I2C write: the address byte, then the bytes as they go on the bus
  ``S`` SPI write (the bytes shifted out)      ``C`` chip-select level (1)
  ``N`` WS2812 strip write (GRB bytes)         ``T`` PWM: freq (4), duty_u16 (2)
  ``F`` OLED frame (1024 bytes, MONO_VLSB)     ``K`` OLED contrast (1)   ``P`` panel power (1)
  the browser board: ``O`` the OLED's text (UTF-8 lines; byte 1 first on the cursor's
  line), ``D`` the dice: faces (5), held mask (1), animals (1)
  ``W`` wait: milliseconds (4) of virtual time the firmware sleeps
  busy mode: ``B`` busy ms (4) before each wait; ``L`` ms (4): an idle sleep an edge ends;
  ``E`` busy-so-far ms (4): the edges up to now, please; ``M`` busy-so-far ms (4) and a
  reading number (2) at a screen transfer; ``R`` count (2), then that many readings (4);
  ``G`` begins (1) and virtual ms (4): a call that may erase or program the flash begins
  (1) or ends (0) (boards/hardware.FlashGuard); ``X`` from-ms and to-ms (4 each, after the
  stretch's start): an erase or program inside it, the interrupts off as on rp2 (edges
  then run their handler when it is done, with the edges latched).
Host -> device, after each wait: the button levels (2; bit i = button i pressed). In busy
mode first the edges: count (2), then offset ms from the stretch's start (4) and levels
(2) each; then the levels (2); after ``L`` the ms slept (4); a replay adds the next
stretch's readings (count (2), 0xFFFF = the recorded run ended, then 4 each).
"""

from micropython import const

HEADER = const(3)  # kind (1), payload length (2)
I2C_MSG = const(0x49)  # "I"
SPI_MSG = const(0x53)  # "S"
CS_MSG = const(0x43)  # "C"
STRIP_MSG = const(0x4E)  # "N"
TONE_MSG = const(0x54)  # "T"
FRAME_MSG = const(0x46)  # "F"
CONTRAST_MSG = const(0x4B)  # "K"
POWER_MSG = const(0x50)  # "P"
WAIT_MSG = const(0x57)  # "W"
BUSY_MSG = const(0x42)  # "B"
IDLE_MSG = const(0x4C)  # "L"
EDGES_MSG = const(0x45)  # "E"
MARK_MSG = const(0x4D)  # "M"
READINGS_MSG = const(0x52)  # "R"
FLASH_CALL_MSG = const(0x47)  # "G"
IRQ_OFF_MSG = const(0x58)  # "X"
TEXT_MSG = const(0x4F)  # "O"
DICE_MSG = const(0x44)  # "D"
U32_LEN = const(4)  # W, B, L, E: one number
DICE_LEN = const(7)  # faces (5), held mask (1), animals (1)
IDLE_LEVEL_BITS = const(10)  # the browser host's answer to an idle: (ms slept << 10) | levels
TONE_LEN = const(6)  # freq (4), duty (2)
MARK_LEN = const(6)  # busy-so-far ms (4), reading number (2)
LEVELS_LEN = const(2)  # the host's answer: button levels
COUNT_LEN = const(2)  # how many edges or readings follow
EDGE_LEN = const(6)  # offset ms (4), levels (2)
FLASH_CALL_LEN = const(5)  # begins (1), virtual ms (4)
IRQ_OFF_LEN = const(8)  # from ms (4), to ms (4)
REPLAY_END = const(0xFFFF)  # a replay's count: the recorded run ended here
OLED_WIDTH = const(128)
OLED_HEIGHT = const(64)
FRAME_BYTES = const(1024)  # OLED_WIDTH x OLED_HEIGHT / 8: MONO_VLSB, a byte per 8 rows


def put_u32(link, value):
    """Four little-endian bytes of ``value`` into the message begun on ``link``."""
    for shift in (0, 8, 16, 24):
        link.add_byte((value >> shift) & 0xFF)


def send_u32(link, kind, value):
    """A message of one number: ``W``, ``B``, ``L`` or ``E``."""
    link.begin(kind, U32_LEN)
    put_u32(link, value)


def u32(buf, at=0):
    return buf[at] | buf[at + 1] << 8 | buf[at + 2] << 16 | buf[at + 3] << 24


def u16(buf, at=0):
    return buf[at] | buf[at + 1] << 8


class WireSPI:
    """The MAX7219 chain's SPI: each write is an ``S`` message. ``meter`` (busy mode's
    BusyMeter) is charged the bus time of every byte (``byte_ns``)."""

    def __init__(self, link, meter=None, byte_ns=0):
        self._link = link
        self._meter = meter
        self._byte_ns = byte_ns

    def write(self, buf):
        if self._meter is not None:
            self._meter.io_ns += len(buf) * self._byte_ns
        self._link.begin(SPI_MSG, len(buf))
        self._link.add(buf)


class WireOutPin:
    """An output pin whose level changes go to the host (the MAX7219 CS/LOAD line: the
    host latches the chain when it rises)."""

    def __init__(self, link, level=1):
        self._link = link
        self._level = level

    def value(self, level=None):
        if level is None:
            return self._level
        self._level = 1 if level else 0
        self._link.begin(CS_MSG, 1)
        self._link.add_byte(self._level)


class WireButtonPin:
    """Input with pull-up, switch to GND: reads 0 while the host holds the button."""

    IRQ_FALLING = 4  # rp2's values
    IRQ_RISING = 8

    def __init__(self, link, index):
        self._link = link
        self._bit = 1 << index
        self.handler = None
        self.latched = 0  # the edges this interrupt reports (busy mode: boards/sim_busy.py)

    def value(self):
        return 0 if self._link.buttons & self._bit else 1

    def irq(self, handler=0, trigger=0, hard=False):
        """Busy mode runs ``handler(pin)`` at each edge the host reports (a pin interrupt);
        ``irq()`` alone is the interrupt itself, whose ``flags()`` are the latched edges."""
        if handler != 0:
            self.handler = handler
        return self

    def flags(self):
        return self.latched


class WirePWM:
    """The buzzer's PWM: each duty change is a ``T`` message with the frequency."""

    def __init__(self, link):
        self._link = link
        self._freq = 1000

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        self._freq = hz

    def duty_u16(self, duty):
        link = self._link
        link.begin(TONE_MSG, TONE_LEN)
        put_u32(link, self._freq)
        link.add_byte(duty & 0xFF)
        link.add_byte(duty >> 8)

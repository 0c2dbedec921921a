"""The reference handheld's wiring (docs/building.md), shared by the pico* board modules.

Pins: MAX7219 dice chain on SPI0 (SCK GP18, MOSI GP19, CS GP17) or 45 WS2812 on GP22;
OLED on I2C1 (SDA GP14, SCL GP15, 400 kHz, 0x3C); buttons GP2..GP11 to GND with pull-ups
(HOLD1..HOLD5, ROLL, UP, DOWN, OK, MENU); piezo on GP16 (PWM); VSYS/3 on GP29 (ADC3).
Everything is created inside ``build``: importing this module touches no hardware.

Pico W / Pico 2 W: GP29 is also the wireless chip's SPI clock, and GP25 its chip select;
the ADC reads VSYS/3 only while GP25 is high (the chip deselected) and GP29 is an input,
else it reads the SPI traffic (false "battery low"). ``build`` detects the W boards from
``sys.implementation._machine`` (``"Raspberry Pi Pico W with RP2040"``) and reads so.
"""

from micropython import const

_SPI_ID = const(0)
_SPI_SCK = const(18)
_SPI_MOSI = const(19)
_SPI_CS = const(17)
_SPI_BAUD = const(10_000_000)  # MAX7219 maximum
_I2C_ID = const(1)
_I2C_SDA = const(14)
_I2C_SCL = const(15)
_I2C_FREQ = const(400_000)
_OLED_ADDR = const(0x3C)
_FIRST_BUTTON = const(2)  # GP2..GP11 in button-id order
_N_BUTTONS = const(10)
_BUZZER = const(16)
_NEOPIXEL = const(22)
_N_PIXELS = const(45)
_VSYS_ADC = const(29)
_ADC_MAX = const(65535)
_VREF_MV = const(3300)
_VSYS_DIVIDER = const(3)
_WL_CS = const(25)  # Pico W: the wireless chip's SPI select (the LED pin on a plain Pico)
LIGHTSLEEP_FROM = (1, 24, 0)  # the first MicroPython whose lightsleep keeps USB up (lightsleep_works)


def is_pico_w(machine_name):
    """Whether ``sys.implementation._machine`` names a board with the wireless chip."""
    return "Pico W" in machine_name or "Pico 2 W" in machine_name


def vsys_reader(ADC, Pin, wireless):
    """``battery_mv()`` for the reference wiring: VSYS in millivolts from ADC(29); on a
    Pico W with GP25 driven high and GP29 an input for the reading (see above)."""
    adc = ADC(_VSYS_ADC)
    if not wireless:
        return lambda: adc.read_u16() * _VREF_MV * _VSYS_DIVIDER // _ADC_MAX
    select = Pin(_WL_CS, Pin.OUT, value=1)
    vsys = Pin(_VSYS_ADC)

    def read():
        select.value(1)  # wireless chip deselected: GP29 carries VSYS/3, not its clock
        vsys.init(Pin.IN)
        raw = adc.read_u16()
        return raw * _VREF_MV * _VSYS_DIVIDER // _ADC_MAX

    return read


def lightsleep_works(version):
    """Whether MicroPython ``version`` (``sys.implementation.version``) has an rp2
    lightsleep the firmware can rely on: from 1.24.0 a timed lightsleep keeps the USB
    clocks running while a host has the device configured (micropython pull requests
    15111 and 15301); before, it stopped them, and a Pico plugged into a computer could
    drop its serial port while it idles (docs/building.md)."""
    return tuple(version[:3]) >= LIGHTSLEEP_FROM


def build(config, oled, dice, machine_name=None, version=None):
    """The hardware object for the reference wiring with the given OLED and dice drivers
    (classes, imported by the board module: ``oled`` takes ``(i2c, addr)``, ``dice`` is
    wired by its ``BUS``, "spi" or "ws2812"); its clock is Hardware's default,
    time.ticks_ms / time.sleep_ms. ``machine_name``: ``sys.implementation._machine``,
    ``version``: ``sys.implementation.version``, unless given (tests). No driver is named
    here: flash copies only the drivers the board module imports
    (host_tools/flashing/build.py)."""
    import sys
    from machine import ADC, I2C, PWM, Pin

    from boards.hardware import FlashGuard, Hardware, NoDice, NoOLED
    from drivers.buttons import Buttons
    from drivers.buzzer import Buzzer
    from game_dice import DiceSource

    hw = Hardware()
    # Big buffers first, while the heap is still unfragmented: OLED frame, dice rows.
    i2c = I2C(_I2C_ID, sda=Pin(_I2C_SDA), scl=Pin(_I2C_SCL), freq=_I2C_FREQ)

    hw.oled = hw.part(lambda: oled(i2c, _OLED_ADDR), NoOLED)

    def make_dice():
        if dice.BUS == "ws2812":
            import neopixel

            return dice(neopixel.NeoPixel(Pin(_NEOPIXEL), _N_PIXELS))
        from machine import SPI

        spi = SPI(_SPI_ID, baudrate=_SPI_BAUD, sck=Pin(_SPI_SCK), mosi=Pin(_SPI_MOSI))
        return dice(spi, Pin(_SPI_CS, Pin.OUT, value=1))

    hw.dice = hw.part(make_dice, NoDice)
    pins = [Pin(_FIRST_BUTTON + i, Pin.IN, Pin.PULL_UP) for i in range(_N_BUTTONS)]
    hw.buttons = Buttons(pins, active=0)
    # Edges stamped in a hard pin interrupt: a press made while the firmware is busy counts.
    hw.buttons.start(Pin.IRQ_FALLING, Pin.IRQ_RISING, hard=True)
    hw.button_down = lambda button: pins[button].value() == 0
    # rp2 stops the interrupts while it erases or programs the flash: the buttons are told when.
    hw.fs = FlashGuard(hw.buttons, hw.ticks_ms)
    # After the SPI: rp2's SPI(0) claims its default MISO pin, GP16, which is the buzzer's
    # pin here (the dice need no MISO); creating the PWM afterwards gives GP16 back to PWM.
    hw.buzzer = Buzzer(PWM(Pin(_BUZZER)))
    seed = config.get("seed")
    hw.dice_source = DiceSource(int(seed) if seed else None)
    if machine_name is None:
        machine_name = getattr(sys.implementation, "_machine", "")
    hw.battery_mv = vsys_reader(ADC, Pin, is_pico_w(machine_name))
    if not lightsleep_works(sys.implementation.version if version is None else version):
        # An older MicroPython: the same waits in a plain sleep (clocks on, about 18 mA;
        # Hardware's default, time.sleep_ms), and the USB keeps working.
        hw.idle = hw.sleep_ms
        return hw
    from machine import lightsleep

    hw.lightsleep = lightsleep
    # Idle frames sleep in lightsleep (about 1.3 mA instead of a running core's ~20 mA);
    # a button's interrupt, which has a handler, ends it at once on rp2.
    hw.idle = lightsleep
    return hw

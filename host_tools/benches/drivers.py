"""Drivers: microseconds per oled.show(), dice.show(), buttons.poll(); bytes per frame.

Runs the real drivers inside the MicroPython unix port against buses that only count
bytes (host_tools/fakes/buses.py, the driver tests' fakes), so the times are the drivers'
own Python work on this host (an RP2040 at 125 MHz is roughly 20-50x slower); the bus
bytes give the wire time on the device, which dominates the OLED frame: at 400 kHz I2C
each byte takes 9 clocks.
"""

import host_tools
from host_tools import fakes

SCRIPT = r"""
import gc
import time
from drivers.ssd1306 import SSD1306
from drivers.sh1106 import SH1106
from drivers.max7219 import MAX7219Dice
from drivers.neopixel_dice import NeoPixelDice
from drivers.buttons import Buttons
from drivers.buzzer import Buzzer
from buses import CountingI2C, CountingSPI, InputPin, NullNeoPixel, NullPin, NullPWM


BATCH = 20
ROUNDS = 101


def median_us(fn):
    fn()
    times = []
    for _ in range(ROUNDS):
        t = time.ticks_us()
        for _ in range(BATCH):
            fn()
        times.append(time.ticks_diff(time.ticks_us(), t))
    times.sort()
    return times[ROUNDS // 2] / BATCH


ssd_bus = CountingI2C()
ssd = SSD1306(ssd_bus)
sh_bus = CountingI2C()
sh = SH1106(sh_bus)
leds_bus = CountingSPI()
leds = MAX7219Dice(leds_bus, NullPin())
pixels = NullNeoPixel(45)
np_dice = NeoPixelDice(pixels)
pins = [InputPin() for _ in range(10)]
buttons = Buttons(pins)
buzzer = Buzzer(NullPWM())
A = [1, 2, 3, 4, 5]
B = [6, 5, 4, 3, 2]
flip = [0]


def changing(dice):
    def run():
        flip[0] ^= 1
        dice.show(A if flip[0] else B, 0b00101)
    return run


def report(name, us):
    print("%-44s %8.1f us" % (name, us))


def bus_report(name, bus, fn, clock_hz):
    before_b, before_t = bus.bytes, bus.transfers
    fn()
    b = bus.bytes - before_b
    t = bus.transfers - before_t
    bits = 9 if clock_hz == 400000 else 8
    print("%-44s %5d bytes, %2d transfers, %6.2f ms on the wire at %d kHz"
          % (name, b, t, b * bits * 1000 / clock_hz, clock_hz // 1000))


def draw():
    ssd.fill(0)
    for row in range(8):
        ssd.text("Chance       23", 0, row * 8, 1)


report("oled draw: fill + 8 text lines (framebuf)", median_us(draw))
report("SSD1306 show() (null bus)", median_us(ssd.show))
report("SH1106 show() (null bus)", median_us(sh.show))
report("MAX7219 dice show(), same faces", median_us(lambda: leds.show(A, 0b00101)))
report("MAX7219 dice show(), faces change", median_us(changing(leds)))
report("NeoPixel dice show(), same faces", median_us(lambda: np_dice.show(A, 0b00101)))
report("NeoPixel dice show(), faces change", median_us(changing(np_dice)))
t = [0]


def idle_poll():
    t[0] += 5
    buttons.poll(t[0])


def busy_poll():
    t[0] += 5
    for i in range(10):
        pins[i].level = (t[0] >> 5) & 1  # every button flips every 32 ms
    buttons.poll(t[0])
    buttons.get()


report("buttons.poll(), 10 idle buttons", median_us(idle_poll))
report("buttons.poll() + get(), all buttons toggling", median_us(busy_poll))
report("buzzer.update()", median_us(lambda: buzzer.update(t[0])))
bus_report("SSD1306 frame on I2C", ssd_bus, ssd.show, 400000)
bus_report("SH1106 frame on I2C", sh_bus, sh.show, 400000)
leds.show(B, 0)
bus_report("MAX7219 all dice change, SPI", leds_bus, lambda: leds.show(A, 0b11111), 10000000)
print("%-44s %6.2f ms with interrupts off" % ("WS2812 strip write (45 x 24 bits x 1.25 us)", 45 * 24 * 1.25 / 1000))


def frame(i):
    draw()
    ssd.show()
    leds.show(A if i & 1 else B, i & 31)
    np_dice.show(A if i & 1 else B, i & 31)
    pins[i % 10].level = (i >> 3) & 1
    buttons.poll(i * 5)
    buttons.get()
    buzzer.update(i * 5)


for i in range(20):
    frame(i)
gc.collect()
gc.disable()
before = gc.mem_alloc()
for i in range(1000):
    frame(i)
grown = gc.mem_alloc() - before
gc.enable()
print("%-44s %8.2f bytes (over 1000 frames)" % ("heap allocated per frame (draw+show+dice+poll)", grown / 1000))
"""


def run():
    proc = host_tools.run_micropython(["-c", SCRIPT], heap="192K", extra_path=(fakes.FOLDER,), timeout=300)
    print(proc.stdout, end="")
    if proc.returncode != 0:
        print("bench_drivers failed:", proc.stderr.strip().splitlines()[-1:] or proc.returncode)

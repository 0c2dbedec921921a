"""A frame's driver work allocates nothing once warmed up (measured inside MicroPython).

The frame: draw text and send it to both OLED controllers, show the dice on both dice
displays (same faces, and changing faces), poll the buttons (with presses going on), read
the queue and update the buzzer. ``gc.mem_alloc()`` must not grow over 300 frames, and a
frame run with the heap locked must not raise MemoryError.
"""

from helpers.drivers_run import run_on_micropython

SCRIPT = """
import gc
import micropython
from drivers.ssd1306 import SSD1306
from drivers.sh1106 import SH1106
from drivers.max7219 import MAX7219Dice
from drivers.neopixel_dice import NeoPixelDice
from drivers.buttons import Buttons
from drivers.buzzer import Buzzer

ssd = SSD1306(NullI2C())
sh = SH1106(NullI2C())
leds = MAX7219Dice(NullSPI(), NullPin())
pixels = NeoPixelDice(NullNeoPixel(45))
pins = [InputPin() for _ in range(10)]
buttons = Buttons(pins)
buzzer = Buzzer(NullPWM())
steady = [1, 2, 3, 4, 5]
other = [6, 5, 4, 3, 2]

def frame(i, faces):
    ssd.fill(0)
    ssd.text("Score 123", 0, 0, 1)
    ssd.show()
    sh.show()
    leds.show(faces, i & 31)
    pixels.show(faces, i & 31)
    pins[i % 10].level = (i >> 3) & 1  # presses and releases keep the queue busy
    buttons.poll(i * 5)
    buttons.get()
    buzzer.update(i * 5)

def measure(changing):
    for i in range(20):
        frame(i, other if changing and i & 1 else steady)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    try:
        for i in range(20, 320):
            frame(i, other if changing and i & 1 else steady)
        grown = gc.mem_alloc() - before
    except MemoryError:  # so much garbage that the heap ran out with the collector off
        grown = "heap-exhausted"
    gc.enable()
    micropython.heap_lock()
    try:
        frame(321, other if changing else steady)
        locked = "ok"
    except MemoryError:
        locked = "MemoryError"
    micropython.heap_unlock()
    print("ALLOC", "changing" if changing else "steady", grown, locked)

measure(False)
measure(True)
"""


def test_a_frame_allocates_nothing():
    lines = run_on_micropython(SCRIPT)
    results = [line.split() for line in lines if line.startswith("ALLOC")]
    assert results == [["ALLOC", "steady", "0", "ok"], ["ALLOC", "changing", "0", "ok"]], lines

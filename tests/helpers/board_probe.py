"""A board module run inside the real MicroPython on a fake ``machine``/``rp2`` that
records every call and bus message (``run_probe``): for the board tests and the
add-a-board recipe's test."""

import json

import host_tools
from host_tools.simulator.unix_port import SOURCE_HEAP

FAKE_RP2 = r"""
import sys, json
from boards import sim as S
from boards import sim_protocol as W

NO_OLED = %(no_oled)s
ROLL_HELD = %(roll_held)s
WIRELESS = %(wireless)s  # a Pico W: GP29 reads VSYS/3 only with GP25 high and GP29 an input
levels = {}
modes = {}
calls = []
msgs = []

class Recorder:
    buttons = 0
    def begin(self, kind, length):
        msgs.append([kind, bytearray()])
    def add(self, data):
        msgs[-1][1].extend(data)
    def add_byte(self, value):
        msgs[-1][1].append(value)
    def flush(self):
        pass

link = Recorder()

class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 2
    IRQ_FALLING = 4  # rp2's values
    IRQ_RISING = 8
    def __init__(self, n, mode=None, pull=None, value=None):
        calls.append(["Pin", n, mode, pull])
        self.n = n
        modes[n] = mode
        self.cs = W.WireOutPin(link) if n == 17 else None
        if self.cs is not None and value is not None:
            self.cs.value(value)
        if value is not None:
            levels[n] = value
    def init(self, mode=None, pull=None, value=None):
        modes[self.n] = mode
        if value is not None:
            levels[self.n] = value
    def value(self, v=None):
        if self.cs is not None:
            return self.cs.value(v)
        if v is not None:
            levels[self.n] = v
            return None
        return 0 if (self.n == 7 and ROLL_HELD) else 1
    def irq(self, handler=None, trigger=0, hard=False):
        calls.append(["irq", self.n, handler is not None, trigger, hard])

def I2C(bus_id, sda, scl, freq):
    calls.append(["I2C", bus_id, sda.n, scl.n, freq])
    return S.SimI2C(link, missing=NO_OLED)

def SPI(bus_id, baudrate, sck, mosi):
    calls.append(["SPI", bus_id, baudrate, sck.n, mosi.n])
    return W.WireSPI(link)

def PWM(pin):
    calls.append(["PWM", pin.n])
    return W.WirePWM(link)

class ADC:
    def __init__(self, n):
        calls.append(["ADC", n])
    def read_u16(self):
        if WIRELESS and (levels.get(25) != 1 or modes.get(29) != Pin.IN):
            return 9000  # the wireless chip's SPI clock, not VSYS: a false "battery low"
        return 26000

def NeoPixel(pin, n):
    calls.append(["NeoPixel", pin.n, n])
    return S.SimNeoPixel(link, n)

class Module:
    pass

machine = Module()
machine.Pin = Pin
machine.I2C = I2C
machine.SPI = SPI
machine.PWM = PWM
machine.ADC = ADC
machine.lightsleep = lambda ms: None
neopixel = Module()
neopixel.NeoPixel = NeoPixel
sys.modules["machine"] = machine
sys.modules["neopixel"] = neopixel

def report():
    print("CALLS", json.dumps(calls))
    for kind, data in msgs:
        print("MSG", chr(kind), bytes(data).hex())
"""


def run_probe(body, tmp_path, no_oled=False, roll_held=False, wireless=False):
    code = FAKE_RP2 % {"no_oled": no_oled, "roll_held": roll_held, "wireless": wireless} + body + "\nreport()\n"
    # Sources (the device tree holds the sim board only), so the heap that compiling needs.
    proc = host_tools.run_micropython(["-c", code], heap=SOURCE_HEAP, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    lines = proc.stdout.splitlines()
    calls = [json.loads(line[6:]) for line in lines if line.startswith("CALLS ")][0]
    msgs = [(line[4], bytes.fromhex(line[6:])) for line in lines if line.startswith("MSG ")]
    return lines, calls, msgs

"""The CPython stand-in for MicroPython-only names behaves like MicroPython."""

import time

import micropython


def test_const_and_decorators_are_transparent():
    assert micropython.const(0x3C) == 0x3C
    f = lambda x: x + 1  # noqa: E731
    assert micropython.native(f) is f
    assert micropython.viper(f) is f


def test_ticks_wrap_like_micropython():
    period = micropython.TICKS_PERIOD
    assert time.ticks_diff(5, period - 5) == 10
    assert time.ticks_diff(period - 5, 5) == -10
    assert time.ticks_add(period - 1, 2) == 1
    assert time.ticks_add(3, -5) == period - 2
    assert 0 <= time.ticks_ms() < period


def test_ticks_ms_advances():
    start = time.ticks_ms()
    time.sleep_ms(20)
    assert 15 <= time.ticks_diff(time.ticks_ms(), start) < 1000


def test_the_same_wrap_arithmetic_as_the_unix_port():
    """Same formulas as MicroPython; the period is 2**30 on the Pico, larger on 64-bit unix."""
    import host_tools

    code = (
        "import time;p=time.ticks_add(0,-1)+1;"
        "print(time.ticks_diff(5,p-5),time.ticks_diff(p-5,5),time.ticks_add(p-1,2),time.ticks_add(3,-5)-p)"
    )
    out = host_tools.run_micropython(["-c", code]).stdout.split()
    p = micropython.TICKS_PERIOD
    mine = [time.ticks_diff(5, p - 5), time.ticks_diff(p - 5, 5), time.ticks_add(p - 1, 2), time.ticks_add(3, -5) - p]
    assert out == [str(v) for v in mine] == ["10", "-10", "1", "-2"]

"""CPython stand-in for MicroPython's ``micropython`` module and ``time.ticks_*``.

The only such stand-in in the project (tests and host tools both use it through
``host_tools.use_firmware``). Decorators are identities, ``const`` returns its argument,
and the ticks functions wrap around like MicroPython's (period 2**30) so code that
subtracts raw ticks instead of using ``ticks_diff`` fails here too.
"""

import time as _time

TICKS_PERIOD = 1 << 30
_TICKS_MAX = TICKS_PERIOD - 1
_TICKS_HALF = TICKS_PERIOD // 2
# Start near the wrap point so wrap-around bugs show up within seconds, not days.
_ticks_offset_ms = TICKS_PERIOD - 5000


def const(value):
    return value


def native(func):
    return func


def viper(func):
    return func


def opt_level(level=None):
    return 0 if level is None else None


def alloc_emergency_exception_buf(size):
    return None


def mem_info(verbose=None):
    print("mem_info: not available on CPython")


def schedule(func, arg):
    func(arg)


def ticks_ms():
    return (int(_time.monotonic() * 1000) + _ticks_offset_ms) & _TICKS_MAX


def ticks_us():
    return (int(_time.monotonic() * 1000000) + _ticks_offset_ms * 1000) & _TICKS_MAX


def ticks_add(ticks, delta):
    return (ticks + delta) & _TICKS_MAX


def ticks_diff(end, start):
    return ((end - start + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF


def sleep_ms(ms):
    _time.sleep(ms / 1000)


def sleep_us(us):
    _time.sleep(us / 1000000)


def install_ticks():
    """Give CPython's ``time`` module MicroPython's ticks and sleep_ms functions."""
    for name in ("ticks_ms", "ticks_us", "ticks_add", "ticks_diff", "sleep_ms", "sleep_us"):
        if not hasattr(_time, name):
            setattr(_time, name, globals()[name])

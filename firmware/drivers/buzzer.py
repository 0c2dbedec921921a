"""Passive piezo buzzer on a PWM output: non-blocking tones.

``tone(freq_hz, ms)`` starts a square wave and returns at once; ``update(now_ms)``, called
from the frame loop, silences it when the time is up. Idle means duty 0 (no DC through
the piezo, no hiss). ``muted`` silences everything without changing callers.
"""

from micropython import const
from time import ticks_add, ticks_diff, ticks_ms

_HALF_DUTY = const(32768)  # 50 % of duty_u16: loudest square wave for a piezo
_MIN_HZ = const(20)
_MAX_HZ = const(20000)


class Buzzer:
    """``pwm`` is a ready machine.PWM (``freq()``, ``duty_u16()``).

    ``clock`` returns the current ticks in ms; tests pass a fake one.
    """

    def __init__(self, pwm, clock=ticks_ms):
        self._pwm = pwm
        self._clock = clock
        self._until = 0
        self._sounding = False
        self.muted = False
        pwm.duty_u16(0)

    def tone(self, freq_hz, ms):
        """Sound ``freq_hz`` (20..20000) for ``ms`` milliseconds; replaces any tone playing.

        ``freq_hz`` 0 is a rest: silence for ``ms`` (``busy`` stays true meanwhile).
        """
        if freq_hz and (freq_hz < _MIN_HZ or freq_hz > _MAX_HZ):
            raise ValueError("tone frequency must be 0 or 20..20000 Hz")
        if ms <= 0:
            self.stop()
            return
        self._until = ticks_add(self._clock(), ms)
        self._sounding = True
        if freq_hz and not self.muted:
            self._pwm.freq(freq_hz)
            self._pwm.duty_u16(_HALF_DUTY)
        else:
            self._pwm.duty_u16(0)

    def update(self, now_ms):
        """Silence the tone once its time is up (or when muted meanwhile)."""
        if self._sounding and (self.muted or ticks_diff(now_ms, self._until) >= 0):
            self.stop()

    def stop(self):
        """Silence now."""
        self._sounding = False
        self._pwm.duty_u16(0)

    @property
    def busy(self):
        """True while a tone (or rest) is still running."""
        return self._sounding

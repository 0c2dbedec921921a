"""Busy mode's record and replay (config ``busylog=record|replay``, for ``make bench``).

A stretch's host time is noisy: a 1 ms hiccup of the host is about 100 chip ms. So the
bench runs a game several times and counts each stretch at its fastest run
(host_tools/benches/busy.py), and for that every run must take the recorded run's path.
Recording sends each stretch's clock readings (``R``: count (2), then estimated chip us
(4) each) before its wait. A replay gets the recorded readings of the next stretch after
each wait's reply (count (2), us (4) each; the first stretch's at boot; count 0xFFFF:
the recorded run ended here), hands those to the firmware and sends what it measured.
Loaded only then: plain busy mode keeps its heap.
"""

from array import array

from boards.sim_busy import BusyMeter

_LOG_MAX = 64  # clock readings in one stretch (the bench game's most: 8)


class LoggingMeter(BusyMeter):
    """A BusyMeter whose readings are kept for the host (and, replaying, recorded ones)."""

    def __init__(self, spec, replaying):
        BusyMeter.__init__(self, spec)
        self.logging = True
        self.replaying = replaying
        self._log = array("I", range(_LOG_MAX))  # made once: frames allocate nothing
        self._replay = array("I", range(_LOG_MAX)) if replaying else None
        self._logged = 0
        self._replays = 0

    def busy_ns(self):
        n = self._logged
        if n >= _LOG_MAX:
            _diverged("more than %d clock readings in one stretch" % _LOG_MAX)
        log = self._log
        log[n] = BusyMeter.busy_ns(self) // 1000
        self._logged = n + 1
        if self._replay is None:
            return log[n] * 1000  # as a replay gets it: us
        if n >= self._replays:
            _diverged("the firmware read the clock more often than in the recorded run")
        return self._replay[n] * 1000

    def reading_number(self):
        return self._logged - 1 if self._logged else 0

    def send_log(self, link):
        """Before the stretch's wait: its readings (``R``); the next stretch starts anew."""
        n = self._logged
        log = self._log
        link.begin(0x52, 2 + 4 * n)  # "R"
        link.add_byte(n & 0xFF)
        link.add_byte(n >> 8)
        for i in range(n):
            value = log[i]
            for shift in (0, 8, 16, 24):
                link.add_byte((value >> shift) & 0xFF)
        self._logged = 0

    def read_replay(self, link):
        """After a wait's reply (and at boot): the next stretch's recorded readings."""
        head = link.read_exact(2)
        n = head[0] | head[1] << 8
        if n == 0xFFFF:  # the recorded run ended here: so does this one
            raise SystemExit(0)
        if n > _LOG_MAX:
            _diverged("the host sent %d readings for one stretch" % n)
        replay = self._replay
        for i in range(n):
            b = link.read_exact(4)
            replay[i] = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
        self._replays = n


def _diverged(why):
    print("busy replay: %s; this run is not the recorded one" % why)
    raise SystemExit(3)

"""Busy mode's record and replay (config ``busylog=record|replay``, for ``make bench``).

A stretch's host time is noisy: a 1 ms hiccup of the host is about 100 chip ms. So the
bench runs a game several times and counts each stretch at its fastest run
(host_tools/benches/busy.py), and for that every run must take the recorded run's path.
Recording sends each stretch's clock readings (``R``, in estimated chip us) before its
wait. A replay gets the recorded readings of the next stretch after each wait's reply
(the first stretch's at boot; sim_protocol.REPLAY_END: the recorded run ended here),
hands those to the firmware and sends what it measured (boards/sim_protocol.py).
Loaded only then: plain busy mode keeps its heap.
"""

from array import array

from boards.sim_busy import BusyMeter
from boards.sim_protocol import COUNT_LEN, READINGS_MSG, REPLAY_END, U32_LEN, put_u32, u16, u32

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
        link.begin(READINGS_MSG, COUNT_LEN + U32_LEN * n)
        link.add_byte(n & 0xFF)
        link.add_byte(n >> 8)
        for i in range(n):
            put_u32(link, log[i])
        self._logged = 0

    def read_replay(self, link):
        """After a wait's reply (and at boot): the next stretch's recorded readings."""
        n = u16(link.read_exact(COUNT_LEN))
        if n == REPLAY_END:  # the recorded run ended here: so does this one
            raise SystemExit(0)
        if n > _LOG_MAX:
            _diverged("the host sent %d readings for one stretch" % n)
        replay = self._replay
        for i in range(n):
            replay[i] = u32(link.read_exact(U32_LEN))
        self._replays = n


def _diverged(why):
    print("busy replay: %s; this run is not the recorded one" % why)
    raise SystemExit(3)

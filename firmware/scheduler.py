"""The one scheduler for background work spread over frames.

Work too long for one frame (the strategy table's opening, a save's packing and its
flash write, a computer's decision, the win meter...) is a job: a generator that yields
between its parts, or a plain function that is one part. ``App.frame`` takes at most one
part a frame, by one rule (app.py): a frame takes a part of a save if one waits, else the
presses waiting, else a part of other work, else the screen's timers. So a part never
shares a stretch with a press's redraw or a timer's move, the flash holds an action
before the next press is taken, and no job needs a flag of its own.

Jobs run in the order they were added, except that saves go before any other work: the
flash holds the last action as soon as it can. The job added with ``hold`` keeps the
presses waiting (latched, in order) while it is queued (``busy(jobs.hold)``): the boot's,
and a game's table opening while its first turn is on show.

Fixed slots, made once: adding, stepping and finishing allocate nothing (a generator is
made by its owner, once per job).
"""

from micropython import const

# Job ids. Saves first (below _WORK): they run before any other work.
BOOT = const(0)  # the save layer at power-on: the saved game, records, repairs
SAVE = const(1)  # an action's save: packed, then written
SETUP = const(2)  # the menu's set-up
END = const(3)  # a game's end: its records, a file a part
_WORK = const(4)
# A game's own work, OPEN to DECIDE: dropped when the game is quit or over.
OPEN = const(4)  # a game's strategy table, opened a part a frame
PREPARE = const(5)  # a turn's advisor
METER = const(6)  # the win meter after a score
DECIDE = const(7)  # a computer's decision for the roll on show
COLLECT = const(8)  # the garbage of a frame that ran late
_SLOTS = const(8)
_NONE = const(255)


class Scheduler:
    def __init__(self):
        self._ids = bytearray(_SLOTS)  # in running order; _n of them in use
        self._parts = [None] * _SLOTS
        self._n = 0
        self.hold = _NONE  # the job that keeps the presses waiting while it is queued
        self.ran = -1  # the job whose part ``step`` ran (the app clears it each frame)

    def add(self, job, parts, hold=False):
        """Queue ``parts`` (a generator: a part a ``next``; or a function: one part) as
        ``job``, after the jobs of its kind (saves before other work)."""
        n = self._n
        if n == _SLOTS:
            raise MemoryError("scheduler full")
        ids = self._ids
        queue = self._parts
        at = n
        while at > 0 and job < _WORK <= ids[at - 1]:
            ids[at] = ids[at - 1]
            queue[at] = queue[at - 1]
            at -= 1
        ids[at] = job
        queue[at] = parts
        self._n = n + 1
        if hold:
            self.hold = job

    def busy(self, first=-1, last=-1):
        """True while a job from ``first`` to ``last`` (default: ``first`` alone; no
        argument: any job) is queued."""
        if first < 0:
            return self._n > 0
        if last < 0:
            last = first
        ids = self._ids
        for i in range(self._n):
            if first <= ids[i] <= last:
                return True
        return False

    def step(self):
        """Run one part of the first job (``ran`` says which)."""
        if self._n:
            self.ran = self._ids[0]
            self._run(0)

    def finish(self, first, last=-1):
        """Run what is left of every job from ``first`` to ``last`` (default: ``first``
        alone) now, in queue order: work that cannot wait (the saves before the next
        action's, the turn's advisor before the coach is asked)."""
        if last < 0:
            last = first
        i = 0
        while i < self._n:
            if first <= self._ids[i] <= last:
                self._run(i)  # its slot is freed when it is over
            else:
                i += 1

    def cancel(self, first, last=-1):
        """Drop every job from ``first`` to ``last`` (default: ``first`` alone) queued; a
        generator is closed (its ``finally`` runs)."""
        if last < 0:
            last = first
        i = 0
        while i < self._n:
            if first <= self._ids[i] <= last:
                parts = self._parts[i]
                self._remove(i)
                if hasattr(parts, "close"):
                    parts.close()
            else:
                i += 1

    def _run(self, i):
        parts = self._parts[i]
        if hasattr(parts, "send"):  # a generator: one part, unless it is over
            try:
                next(parts)
                return
            except StopIteration:
                pass
            queue = self._parts  # its part may have queued or finished jobs: its slot again
            for i in range(self._n):
                if queue[i] is parts:
                    self._remove(i)
                    return
            return
        self._remove(i)  # a function is one part: off the queue before it runs (it may add jobs)
        parts()

    def _remove(self, i):
        ids = self._ids
        queue = self._parts
        n = self._n - 1
        for j in range(i, n):
            ids[j] = ids[j + 1]
            queue[j] = queue[j + 1]
        queue[n] = None
        self._n = n

"""The dice source: MicroPython's ``random``, stirred, with checkpoints for saves.

On rp2 MicroPython seeds ``random`` from the hardware at boot (ring oscillator / TRNG);
``stir`` mixes in ``os.urandom`` and, once, the microsecond timing of the first button
press, so two boots never share a stream. A seeded source (the simulator's ``--seed``)
skips all stirring so runs are reproducible. ``checkpoint()`` draws a fresh 30-bit seed
and reseeds with it: the save stores that small int and ``restore(seed)`` resumes the very
same stream. ``random.randint`` has no modulo bias, so dice stay fair.

``position()`` / ``seek(pos)`` do the same without touching the stream: the position is
the last seed given to ``random`` and the number of dice drawn since, and ``seek`` reseeds
and draws that many again. The game save uses them, so saving (after every action, before
sleeping, or failing on a full disk) never changes which dice come next. A ``seek`` or
``restore`` also cancels the first press's stir: that press is "Continue", and stirring
then would replace the restored stream (the save layer stirs itself on "New game").
"""

import os
import random

_SEED_BITS = 30  # stays a small int on the Pico (31-bit signed)


class DiceSource:
    def __init__(self, seed=None):
        self.seeded = seed is not None
        self._press_pending = not self.seeded
        self._seed = 0  # the last seed given to random (see position())
        self._draws = 0  # randint calls since then
        if self.seeded:
            self._reseed(seed)
        else:
            self.stir(0)

    def stir(self, extra):
        """Mix ``extra`` and 4 bytes of ``os.urandom`` into the generator (unseeded only)."""
        if self.seeded:
            return
        mix = random.getrandbits(_SEED_BITS) ^ (extra & 0x3FFFFFFF)
        try:
            for byte in os.urandom(4):
                mix = ((mix << 7) ^ (mix >> 23) ^ byte) & 0x3FFFFFFF
        except (AttributeError, OSError, NotImplementedError):
            pass  # a port without urandom still has the boot seed
        self._reseed(mix)

    def _reseed(self, seed):
        random.seed(seed)
        self._seed = seed
        self._draws = 0

    def first_press(self, ticks_us):
        """Stir once with the microsecond timing of the first button press."""
        if self._press_pending:
            self._press_pending = False
            self.stir(ticks_us)

    def randint(self, low, high):
        if low == 1 and high == 6:  # a die: counted, so seek() can draw it again
            self._draws += 1
            return random.randint(1, 6)
        # Any other range (e.g. a computer player's whim) cannot be replayed by seek():
        # continue from a fresh seed drawn here, the same in a resumed run.
        value = random.randint(low, high)
        self._reseed(random.getrandbits(_SEED_BITS))
        return value

    def checkpoint(self):
        """Draw a 30-bit seed, reseed with it and return it (stored by the save)."""
        seed = random.getrandbits(_SEED_BITS)
        self._reseed(seed)
        return seed

    def restore(self, seed):
        """Continue the stream saved by ``checkpoint()``."""
        self._press_pending = False  # the restored stream is the one to roll
        self._reseed(seed)

    def position(self):
        """``[seed, draws]``: where the stream is, without changing it (for saves)."""
        return [self._seed, self._draws]

    def seek(self, position):
        """Continue at a ``position()``: reseed, then draw as many dice again (only
        ``randint(1, 6)`` draws are counted; other ranges reseed, see ``randint``)."""
        seed, draws = position
        self._press_pending = False  # the restored stream is the one to roll
        self._reseed(seed)
        for _ in range(draws):
            random.randint(1, 6)
        self._draws = draws

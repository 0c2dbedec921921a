"""The dice source: MicroPython's ``random``, stirred, with checkpoints for saves.

On rp2 MicroPython seeds ``random`` from the hardware at boot (ring oscillator / TRNG);
``stir`` mixes in ``os.urandom`` and, once, the microsecond timing of the first button
press, so two boots never share a stream. A seeded source (the simulator's ``--seed``)
skips all stirring so runs are reproducible. ``checkpoint()`` draws a fresh 30-bit seed
and reseeds with it: the save stores that small int and ``restore(seed)`` resumes the very
same stream. ``random.randint`` has no modulo bias, so dice stay fair.
"""
import os
import random

_SEED_BITS = 30  # stays a small int on the Pico (31-bit signed)


class DiceSource:
    def __init__(self, seed=None):
        self.seeded = seed is not None
        self._press_pending = not self.seeded
        if self.seeded:
            random.seed(seed)
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
        random.seed(mix)

    def first_press(self, ticks_us):
        """Stir once with the microsecond timing of the first button press."""
        if self._press_pending:
            self._press_pending = False
            self.stir(ticks_us)

    def randint(self, low, high):
        return random.randint(low, high)

    def checkpoint(self):
        """Draw a 30-bit seed, reseed with it and return it (stored by the save)."""
        seed = random.getrandbits(_SEED_BITS)
        random.seed(seed)
        return seed

    def restore(self, seed):
        """Continue the stream saved by ``checkpoint()``."""
        random.seed(seed)

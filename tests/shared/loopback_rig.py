"""The real app on the sim board's loopback link, driven by scripted button presses.

For probes that run inside MicroPython and measure the app itself, with no host front-end:
``rig = Rig({"seed": "5"})``, ``rig.press(ROLL, after_ms)``, ``rig.app.run(frames=n)`` and
``rig.allocated(frames, redraw)`` (bytes allocated by that many frames after a warm-up;
``rig.measure(label, frames, redraw)`` prints it as ``ALLOC label bytes`` for the pytest
side, tests/helpers/sim_helpers.alloc_probe).
"""

import gc

import app
from boards import sim

_PRESS_MS = 60


class Rig:
    def __init__(self, config):
        self.presses = []
        self.link = sim.Loopback(self.levels)
        config = dict(config)
        config["link"] = self.link
        self.hw = sim.build(config)
        self.app = app.App(self.hw, {})

    def levels(self, now):
        """The buttons held at virtual time ``now``, as a bit mask."""
        mask = 0
        for start, end, button in self.presses:
            if start <= now < end:
                mask |= 1 << button
        return mask

    def press(self, button, after):
        start = self.link.elapsed + after
        self.presses.append((start, start + _PRESS_MS, button))

    def allocated(self, frames, redraw=False):
        """Bytes allocated by ``frames`` frames after 50 warm-up frames; ``redraw`` forces
        the OLED and the dice to be redrawn every frame."""
        a = self.app
        a.run(frames=50)
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        if redraw:
            for _ in range(frames):
                a.dirty = True
                a.dice_dirty = True
                a.frame(self.hw.ticks_ms())
                self.hw.sleep_ms(5)
        else:
            a.run(frames=frames)
        used = gc.mem_alloc() - before
        gc.enable()
        return used

    def measure(self, label, frames, redraw=False):
        print("ALLOC", label, self.allocated(frames, redraw))

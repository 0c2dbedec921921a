"""Helpers for the shared test cases; plain code that runs on CPython and MicroPython."""

import rules


def raises(exc_type, func, *args):
    """Call func(*args); return the exception of exc_type it must raise."""
    try:
        func(*args)
    except exc_type as exc:
        return exc
    raise AssertionError("%s did not raise %s" % (getattr(func, "__name__", func), exc_type.__name__))


class ScriptedDice:
    """A dice source that returns the given faces in order (for exact scenarios)."""

    def __init__(self, faces):
        self.faces = list(faces)
        self.used = 0

    def randint(self, low, high):
        face = self.faces[self.used]
        self.used += 1
        if not low <= face <= high:
            raise AssertionError("scripted face %r outside %d-%d" % (face, low, high))
        return face


class SeededDice:
    """A small deterministic generator with the same output on CPython and MicroPython."""

    def __init__(self, seed):
        self.state = seed & 0x7FFFFFFF

    def randint(self, low, high):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return low + (self.state >> 16) % (high - low + 1)


def card_with(**filled):
    """A new card with boxes filled: box id -> points, ``yahtzee_bonus`` -> the bonus so far."""
    card = rules.new_card()
    for box, points in filled.items():
        if box == "yahtzee_bonus":
            card[rules.BONUS] = points
        else:
            card[rules.BOX_IDS.index(box)] = points
    return card


def card_of(points):
    """A standard card whose first boxes hold ``points`` in order, the rest open."""
    card = rules.new_card()
    for i in range(len(points)):
        card[i] = points[i]
    return card


def steps_of_save(fs, value, base="data/game"):
    """How many steps of a FakeFs (fake_fs.py) one save takes on a copy of ``fs``."""
    import save_store

    probe = fs.reboot()
    store = save_store.Store(base, probe)
    store.load()
    store.save(value)
    return probe.steps

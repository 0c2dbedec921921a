"""check.py's asserts: quiet when the fact holds, else an AssertionError naming the values.

Runs under pytest and inside the real MicroPython (tests/firmware/test_on_micropython.py), where
these messages are all a failing shared case has to show.
"""

from check import equal, true
from support import raises


def test_equal_passes_on_equal_values_of_any_type():
    equal(3, 3)
    equal([1, (2, "x")], [1, (2, "x")])
    equal({"a": [1]}, {"a": [1]})
    equal(None, None)


def test_equal_fails_with_both_values():
    equal(str(raises(AssertionError, equal, 9, 8)), "got 9, want 8")
    equal(str(raises(AssertionError, equal, [1, 2], [1, 3])), "got [1, 2], want [1, 3]")
    equal(str(raises(AssertionError, equal, "a", None)), "got 'a', want None")


def test_equal_says_what_was_compared():
    equal(str(raises(AssertionError, equal, 4, 5, "threes")), "threes: got 4, want 5")
    equal(str(raises(AssertionError, equal, 4, 5, (2, "cut"))), "(2, 'cut'): got 4, want 5")


def test_equal_compares_with_eq_only():
    equal(1, 1.0)  # equal values of different types pass, as `assert 1 == 1.0` does
    equal(str(raises(AssertionError, equal, [], ())), "got [], want ()")


def test_true_passes_on_any_true_value():
    true(True)
    true(7 in [7], 7, [7])
    true([0])


def test_true_fails_with_the_values_given():
    equal(str(raises(AssertionError, true, 7 in [1, 2], 7, [1, 2])), "false for 7, [1, 2]")
    equal(str(raises(AssertionError, true, [])), "false")
    equal(str(raises(AssertionError, true, 0, 0)), "false for 0")


def test_true_says_what_was_checked():
    error = raises(AssertionError, lambda: true(3 < 2, 3, 2, what="round 4"))
    equal(str(error), "round 4: false for 3, 2")

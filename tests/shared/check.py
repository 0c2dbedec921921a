"""Asserts for the shared cases that show the values compared, on CPython and in MicroPython.

MicroPython does not rewrite ``assert`` the way pytest does: a failing ``assert got == want``
there says only ``AssertionError``. ``equal`` and ``true`` fail with the values in the
message, which tests/helpers/mp_runner.py prints with the case name and the failing line.
"""


def equal(got, want, what=None):
    """Fail unless ``got == want``; the message shows both values and ``what``, if given."""
    if not got == want:
        raise AssertionError(_said(what, "got %r, want %r" % (got, want)))


def true(cond, *values, what=None):
    """Fail unless ``cond``; the message shows each of ``values`` and ``what``, if given."""
    if not cond:
        facts = "false for " + ", ".join([repr(value) for value in values]) if values else "false"
        raise AssertionError(_said(what, facts))


def _said(what, facts):
    return facts if what is None else "%s: %s" % (what, facts)

"""Test setup: the one place that arranges ``sys.path`` for tests.

Tests import firmware modules the way the device does (``import rules``), host tools as
the ``host_tools`` package, and the shared test cases in ``tests/shared`` (which also run
inside real MicroPython, see ``test_on_micropython.py``).
"""
import os
import sys

TESTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TESTS)
SHARED = os.path.join(TESTS, "shared")

for _path in (REPO, SHARED):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import host_tools  # noqa: E402

host_tools.use_firmware()

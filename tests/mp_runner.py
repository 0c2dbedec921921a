"""Runs one shared test module inside MicroPython (no pytest there).

Usage: micropython tests/mp_runner.py MODULE. Prints ``PASS name`` or ``FAIL name: error``
for every ``test_*`` function, then a ``N passed, N failed`` line. The pytest side
(``test_on_micropython.py``) turns each line into a test result.
"""

import sys


def run(module_name):
    module = __import__(module_name)
    passed = failed = 0
    for name in sorted(dir(module)):
        if not name.startswith("test_"):
            continue
        test = getattr(module, name)
        try:
            test()
        except Exception as exc:  # report every failure, keep running the rest
            failed += 1
            print("FAIL %s: %s: %s" % (name, type(exc).__name__, exc))
            sys.print_exception(exc)
        else:
            passed += 1
            print("PASS " + name)
    print("%d passed, %d failed" % (passed, failed))
    return failed


sys.exit(1 if run(sys.argv[1]) else 0)

"""Code the tests import, no test cases (``from helpers.sim_helpers import play``).

conftest.py puts ``tests/`` on ``sys.path``, so this package is ``helpers``; each module's
docstring says what it offers. ``hostile/`` is the lying device the host commands meet.
"""

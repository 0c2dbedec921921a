"""``make bench``: runs every ``host_tools/bench_*.py`` module's ``run()`` in name order.

Each prints its own figures (medians, ratios, bytes). These are measurements, never
pass/fail checks: timing on shared machines is noisy.
"""
import importlib
import os


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    names = sorted(f[:-3] for f in os.listdir(here) if f.startswith("bench_") and f.endswith(".py"))
    for name in names:
        module = importlib.import_module("host_tools." + name)
        print("== %s: %s" % (name[6:], (module.__doc__ or "").strip().splitlines()[0]))
        module.run()
        print()
    return 0

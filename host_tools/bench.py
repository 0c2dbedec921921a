"""``make bench``: runs every ``host_tools/benches/*.py`` module's ``run()`` in name order.

Each prints its own figures (medians, ratios, bytes). These are measurements, never
pass/fail checks: timing on shared machines is noisy.
"""
import importlib
import os
import sys

import host_tools


def main(argv):
    parser = host_tools.argument_parser("bench", __doc__.splitlines()[0])
    try:
        parser.parse_args(argv)  # no options: --help, and a typo is not a 10-minute run
    except host_tools.UsageError as exc:
        print("bench: %s" % exc, file=sys.stderr)
        return 2
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "benches")
    names = sorted(f[:-3] for f in os.listdir(here) if f.endswith(".py") and not f.startswith("_"))
    for name in names:
        module = importlib.import_module("host_tools.benches." + name)
        print("== %s: %s" % (name, (module.__doc__ or "").strip().splitlines()[0]))
        module.run()
        print()
    return 0

"""``make bench``: runs every ``host_tools/benches/*.py`` module's ``run()`` in name order.

Each prints its own figures (medians, ratios, bytes). These are measurements, never
pass/fail checks: timing on shared machines is noisy. ``bench NAME ...`` runs only the
named modules (``python -m host_tools bench storage``).
"""
import importlib
import os
import sys

import host_tools

BENCHES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "benches")


def names():
    """The benchmark modules, in the order ``make bench`` runs them."""
    return sorted(f[:-3] for f in os.listdir(BENCHES) if f.endswith(".py") and not f.startswith("_"))


def main(argv):
    parser = host_tools.argument_parser("bench", __doc__.splitlines()[0])
    parser.add_argument("name", nargs="*", help="run only these modules of host_tools/benches/")
    try:
        args = parser.parse_args(argv)
        known = names()
        unknown = [name for name in args.name if name not in known]
        if unknown:  # a typo is not a 10-minute run of everything
            raise host_tools.UsageError("no benchmark %r (have: %s)" % (unknown[0], " ".join(known)))
    except host_tools.UsageError as exc:
        print("bench: %s" % exc, file=sys.stderr)
        return 2
    for name in args.name or known:
        module = importlib.import_module("host_tools.benches." + name)
        print("== %s: %s" % (name, (module.__doc__ or "").strip().splitlines()[0]))
        module.run()
        print()
    return 0

"""``make bench``: runs every ``host_tools/benches/*.py`` module's ``run()`` in name order.

Each prints its own figures (medians, ratios, bytes). These are measurements, never
pass/fail checks: timing on shared machines is noisy. ``bench NAME ...`` runs only the
named modules (``python -m host_tools bench storage``). What they print becomes the rows
of docs/figures.md, with the commit and date (``--figures FILE`` writes another page,
``--no-figures`` none); a subject that returns ``benches.FAILED`` (it could not measure)
keeps its rows there, and the bench exits 1.
"""

import datetime
import importlib
import io
import os
import subprocess
import sys

import host_tools
from host_tools import benches

BENCHES = os.path.dirname(os.path.abspath(benches.__file__))


def names():
    """The benchmark modules, in the order ``make bench`` runs them."""
    return sorted(f[:-3] for f in os.listdir(BENCHES) if f.endswith(".py") and not f.startswith("_"))


class _Tee(io.TextIOBase):
    """Prints through and keeps a copy, so the figures page gets what the reader saw."""

    def __init__(self, out):
        self.out, self.kept = out, []

    def write(self, text):
        self.kept.append(text)
        return self.out.write(text)

    def flush(self):
        self.out.flush()


def commit():
    """This checkout's commit, ``+changes`` when the tree differs from it (the figures page
    the bench itself rewrites does not count)."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=host_tools.REPO, capture_output=True, text=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!docs/figures.md"],
            cwd=host_tools.REPO,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head or "unknown") + ("+changes" if dirty else "")


def main(argv):
    parser = host_tools.argument_parser("bench", __doc__.splitlines()[0])
    parser.add_argument("name", nargs="*", help="run only these modules of host_tools/benches/")
    parser.add_argument(
        "--figures", metavar="FILE", default=benches.PAGE, help="the figures page to update (default docs/figures.md)"
    )
    parser.add_argument("--no-figures", action="store_true", help="print only, update no figures page")
    try:
        args = parser.parse_args(argv)
        known = names()
        unknown = [name for name in args.name if name not in known]
        if unknown:  # a typo is not a 10-minute run of everything
            raise host_tools.UsageError("no benchmark %r (have: %s)" % (unknown[0], " ".join(known)))
        if not args.no_figures:
            host_tools.check_output_file("--figures", args.figures)
    except host_tools.UsageError as exc:
        print("bench: %s" % exc, file=sys.stderr)
        return 2
    measured_on = commit(), datetime.date.today().isoformat()
    written, failed = [], []
    for name in args.name or known:
        module = importlib.import_module("host_tools.benches." + name)
        print("== %s: %s" % (name, (module.__doc__ or "").strip().splitlines()[0]))
        tee = sys.stdout = _Tee(sys.stdout)
        try:
            outcome = module.run()
        finally:
            sys.stdout = tee.out
        # Each subject's rows go in as soon as it has run: a later subject that fails
        # loses none of them.
        if outcome == benches.FAILED:
            failed.append(name)
        elif outcome != benches.NOT_RUN and not args.no_figures:
            benches.write_page({name: "".join(tee.kept).splitlines()}, *measured_on, path=args.figures)
            written.append(name)
        print()
    if written:
        print("bench: the figures of %s written to %s" % (" ".join(written), args.figures))
    for name in failed:
        print(
            "bench: %s could not measure%s"
            % (name, "" if args.no_figures else "; its rows in %s are kept" % args.figures),
            file=sys.stderr,
        )
    return 1 if failed else 0

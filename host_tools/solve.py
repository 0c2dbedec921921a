"""``python -m host_tools solve``: build the optimal-strategy value table (make table).

Exact dynamic programming (host_tools/solver/core.py) over every reachable turn-start
state, scoring through firmware/rules.py; writes the table file the device and the
``advise`` command read (format: docs/strategy_table.md). Prints progress and the
expected score from the empty card; for the compact variant also the points per game
its decisions lose against exact play (exact policy evaluation, no sampling).
"""

import sys
import time

import host_tools
from host_tools.solver import spread as solver_spread
from host_tools.solver import table as solver_table
from host_tools import score
from host_tools.solver.files import SPREAD_BANDS, build, write_atomic

# --bits: the range the device's reader accepts (strategy_table: why these bounds).
MIN_COMPACT_BITS = solver_table.st.MIN_COMPACT_BITS
MAX_COMPACT_BITS = solver_table.st.MAX_BITS


def main(argv):
    parser = host_tools.argument_parser("solve", __doc__.splitlines()[0])
    score.add_rules_options(parser)
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--exact", dest="variant", action="store_const", const="exact", help="13 bits/state (default)")
    kind.add_argument(
        "--compact",
        dest="variant",
        action="store_const",
        const="compact",
        help="%d bits/state, for the Pico W" % solver_table.COMPACT_BITS,
    )
    parser.add_argument(
        "--bits",
        type=int,
        metavar="N",
        help="compact table: bits per state, %d-%d (default %d)"
        % (MIN_COMPACT_BITS, MAX_COMPACT_BITS, solver_table.COMPACT_BITS),
    )
    parser.add_argument("--loss", action="store_true", help="also measure the exact table's decision loss")
    parser.add_argument("--out", required=True, help="table file to write")
    parser.add_argument(
        "--spread",
        metavar="FILE",
        help="also write the spread table (sd of the remaining score, for the win meter and the win level) to FILE",
    )
    try:
        args = parser.parse_args(argv)
        ruleset = score.ruleset_from(args)
        if args.bits is not None:
            if args.variant != "compact":
                raise host_tools.UsageError("--bits: only for the compact table (--compact)")
            if not MIN_COMPACT_BITS <= args.bits <= MAX_COMPACT_BITS:
                raise host_tools.UsageError(
                    "--bits: %d bits per state; choose %d to %d" % (args.bits, MIN_COMPACT_BITS, MAX_COMPACT_BITS)
                )
        host_tools.check_output_file("--out", args.out)  # before a solve of seconds; no folders made
        if args.spread is not None:
            if ruleset.n_boxes != 13:
                raise host_tools.UsageError(
                    "--spread: the spread table (win meter) is for the 13-box cards, not %s" % ruleset.name
                )
            host_tools.check_output_file("--spread", args.spread)
            host_tools.check_distinct_outputs(("--out", args.out), ("--spread", args.spread))
    except (host_tools.UsageError, ValueError) as exc:
        print("solve: %s" % exc, file=sys.stderr)
        return 2
    variant = args.variant or "exact"
    start = time.time()

    def progress(text):
        print("  " + text, flush=True)

    print(
        "solving %s (%s table%s)"
        % (
            ruleset.name,
            variant,
            ", %d bits per state" % (args.bits or solver_table.COMPACT_BITS) if variant == "compact" else "",
        ),
        flush=True,
    )
    keep = {}
    try:
        data, expected, loss = build(
            ruleset, variant, progress, measure_loss=args.loss or variant == "compact", keep=keep, bits=args.bits
        )
    except ValueError as exc:  # the values do not fit the chosen encoding
        print("solve: %s" % exc, file=sys.stderr)
        return 1
    try:
        write_atomic(args.out, data)
    except OSError as exc:  # checked before the solve, but the disk may have filled since
        print("solve: cannot write %s: %s" % (args.out, exc.strerror), file=sys.stderr)
        return 1
    print("expected score from the empty card: %.7f" % expected)
    print("wrote %s: %d bytes (%.1f KiB) in %.1f s" % (args.out, len(data), len(data) / 1024, time.time() - start))
    if loss is not None:
        print("points per game lost by following this table instead of exact values: %.5f" % loss)
    if args.spread:
        _v, var = solver_spread.solve_spread(ruleset, V=keep["dense"], progress=progress)
        spread_data = solver_spread.encode(var, ruleset, SPREAD_BANDS)
        try:
            write_atomic(args.spread, spread_data)
        except OSError as exc:
            print("solve: cannot write %s: %s" % (args.spread, exc.strerror), file=sys.stderr)
            return 1
        print("sd of the final score from the empty card: %.4f" % var[0] ** 0.5)
        print("wrote %s: %d bytes" % (args.spread, len(spread_data)))
    return 0

"""``python -m host_tools advise``: the optimal move for a position, from the firmware's advisor.

    python -m host_tools advise [--rules forced|ordered|free|none|zoo] [--no-yahtzee-bonus]
                                [--card CARD] [--dice D1 D2 D3 D4 D5 --rolls-left N] [--json]

Runs firmware/advisor.py under CPython on the exact value table for the ruleset (found in
build/strategy-<rules>.bin, built there by the solver when missing). Without dice: the
expected final score at the start of the turn. With dice: every option (the dice to keep
before a re-roll, or the box on the last roll), best first, with its expected final score.
CARD as in ``score``: a JSON object or file of filled boxes -> points (+ "yahtzee_bonus").
``--rules zoo`` (the kids' card): dice are animal numbers 1-6, kept dice are named.
"""
import json
import os
import sys

import host_tools

host_tools.use_firmware()
import advisor as A  # noqa: E402
import rules as R  # noqa: E402
import strategy_table  # noqa: E402

from host_tools import score  # noqa: E402

BUILD = os.path.join(host_tools.REPO, "build")
_MAX_TABLE = 4 << 20  # the exact table is about 1 MB


def table_path(ruleset, folder=BUILD):
    return os.path.join(folder, "strategy-%s.bin" % ruleset.name)


def ensure_table(ruleset, folder=BUILD, quiet=False, prog="advise"):
    """Path of the exact table for ``ruleset``, building it (seconds) if missing; the
    note says so under the name of the command the user ran (``prog``)."""
    path = table_path(ruleset, folder)
    if not os.path.exists(path) or _older_format(path):
        from host_tools import solve

        if not quiet:
            print("%s: building %s (once; cached) ..." % (prog, path), file=sys.stderr, flush=True)
        data, _expected, _loss = solve.build(ruleset, "exact")
        solve.write_atomic(path, data)
    return path


def _older_format(path):
    """True for a table an earlier version of the solver built (a build product to
    redo, not damage): the right magic with a lower format version."""
    with open(path, "rb") as f:
        head = f.read(5)
    return len(head) == 5 and head[:4] == strategy_table.MAGIC and head[4] < strategy_table.FORMAT_VERSION


def open_advisor(ruleset, path):
    """An Advisor on the table at ``path`` (the caller closes ``advisor.table_file``).
    The whole file is checked first (solver.table.verify: size, header, the CRC-32 of its
    contents): ValueError for a damaged table, never a wrong figure from it."""
    from host_tools.solver import table as solver_table

    with open(path, "rb") as f:
        data = f.read(_MAX_TABLE + 1)  # bounded: --table may name /dev/zero
    if len(data) > _MAX_TABLE:
        raise ValueError("not a strategy table (over %d bytes)" % _MAX_TABLE)
    solver_table.verify(data)
    f = open(path, "rb")
    try:
        adv = A.Advisor(ruleset, strategy_table.StrategyTable(f))
    except Exception:
        f.close()
        raise
    adv.table_file = f
    return adv


def advise(adv, card, dice=None, rolls_left=None):
    """The JSON-ready answer for a position."""
    adv.prepare(card)
    if dice is None:
        return {"expected_total": A.to_points(adv.expected_total())}
    codes = [0] * 32
    values = [0] * 32
    n = adv.options(dice, rolls_left, codes, values)
    options = []
    kept = sorted(dice)
    for i in range(n):
        if rolls_left == 0:
            option = {"box": adv.rules.ids[codes[i]]}
        else:
            kept = sorted(dice[j] for j in range(5) if codes[i] >> j & 1)
            option = {"hold": kept}
            if adv.rules.faces:
                option["animals"] = [adv.rules.face_name(d) for d in kept]
        option["expected_total"] = A.to_points(values[i])
        options.append(option)
    result = {"expected_total": options[0]["expected_total"], "best": options[0], "options": options}
    if rolls_left:  # stopping here instead: the best box for these dice, as on the last roll
        n = adv.options(dice, 0, codes, values)
        result["score_now"] = {"box": adv.rules.ids[codes[0]], "expected_total": A.to_points(values[0])}
    return result


def render(result, rolls_left):
    if "options" not in result:
        return "expected final score at the start of this turn: %.4f" % result["expected_total"]
    lines = []
    if rolls_left == 0:
        lines.append("last roll: the box to fill, best first")
        for opt in result["options"]:
            lines.append("  %-15s %9.4f" % (opt["box"], opt["expected_total"]))
    else:
        lines.append("%d roll%s left: the dice to keep, best first" % (rolls_left, "" if rolls_left == 1 else "s"))
        lines.append("(expected final score when you keep these, roll the others and play on at best)")
        kept = [" ".join(str(d) for d in opt.get("animals", opt["hold"])) or "(re-roll all)" for opt in result["options"]]
        width = max([15] + [len(text) for text in kept])  # animal names are longer than digits
        for opt, text in zip(result["options"], kept):
            note = ""
            if len(opt["hold"]) == 5:  # nothing rolled: the turn goes on with one roll fewer
                note = "  (keep all five, then %s)" % (
                    "one roll still left" if rolls_left == 2 else "score: as the line below")
            lines.append("  %-*s %9.4f%s" % (width, text, opt["expected_total"], note))
        now = result["score_now"]
        lines.append("score now instead (best box %s):" % now["box"])
        lines.append("  %-*s %9.4f" % (width, now["box"], now["expected_total"]))
    return "\n".join(lines)


def main(argv):
    parser = host_tools.argument_parser("advise", __doc__.splitlines()[0])
    score.add_rules_options(parser)
    parser.add_argument("--card", help="JSON object or file: filled boxes -> points")
    parser.add_argument("--dice", nargs="+", metavar="D", help="the five dice showing")
    parser.add_argument("--rolls-left", help="rolls still allowed this turn: 0, 1 or 2")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--table", help="table file to use instead of build/strategy-<rules>.bin")
    try:
        args = parser.parse_args(argv)
        ruleset = score.ruleset_from(args)
        card = score.parse_card(ruleset, args.card)
        if all(card[b] != R.OPEN for b in range(ruleset.n_boxes)):
            raise score.InputError("the card is full: there is no move to advise")
        dice = rolls_left = None
        if args.dice is not None or args.rolls_left is not None:
            if args.dice is None or args.rolls_left is None:
                raise score.InputError("--dice and --rolls-left go together")
            dice = score.parse_dice(args.dice)
            if args.rolls_left not in ("0", "1", "2"):
                raise score.InputError("--rolls-left is 0, 1 or 2, not %r" % args.rolls_left)
            rolls_left = int(args.rolls_left)
        if args.table is not None:
            if args.table == "":
                raise score.InputError("--table is empty: name a table file")
            if not os.path.exists(args.table):
                raise score.InputError("no table file %s" % args.table)
            if not os.path.isfile(args.table):
                raise score.InputError("--table %s is not a file" % args.table)
    except score.InputError as exc:
        print("advise: %s" % exc, file=sys.stderr)
        return 2
    path = args.table if args.table is not None else ensure_table(ruleset)
    try:
        adv = open_advisor(ruleset, path)
    except (ValueError, OSError) as exc:
        print("advise: %s: %s" % (path, exc), file=sys.stderr)
        return 2
    try:
        result = advise(adv, card, dice, rolls_left)
    finally:
        adv.table_file.close()
    print(json.dumps(result) if args.json else render(result, rolls_left))
    return 0

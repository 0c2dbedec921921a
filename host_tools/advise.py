"""``python -m host_tools advise``: the optimal move for a position, from the firmware's advisor.

    python -m host_tools advise [--rules forced|ordered|free|none|zoo] [--no-yahtzee-bonus]
                                [--card CARD] [--dice D1 D2 D3 D4 D5 --rolls-left N] [--json]
                                [--opponents CARD [CARD ...] [--to-win]] [--lang CODE]

Runs firmware/strategy_advisor.py under CPython on the exact value table for the ruleset (found in
build/strategy-<rules>.bin, built there by the solver when missing). Without dice: the
expected final score at the start of the turn. With dice: every option (the dice to keep
before a re-roll, or the box on the last roll), best first, with its expected final score.
CARD as in ``score``: a JSON object or file of filled boxes -> points (+ "yahtzee_bonus").
With ``--opponents`` (1-3 cards): every player's chance to win from the win meter
(firmware/strategy_win_meter.py; you first); with ``--to-win`` as well, the options are ranked by
the CPU win level (firmware/seat_win.py): the chance to win against those cards. The
win meter and the win level are for the 13-box cards (not ``--rules zoo``).
``--rules zoo`` (the kids' card): dice are animal numbers 1-6, kept dice are named.
Boxes and animals are named as the handheld names them, in ``--lang``'s language
(host_tools/texts.py); ``--json`` keeps the ids.
"""

import json
import sys

import host_tools

host_tools.use_firmware()
import rules as R  # noqa: E402
import strategy_table  # noqa: E402

from host_tools import score, texts  # noqa: E402
from host_tools.solver.advice import advise, advise_to_win, chances  # noqa: E402
from host_tools.solver.files import MAX_TABLE as _MAX_TABLE, ensure_spread, ensure_table, open_advisor  # noqa: E402


def render_to_win(result, rolls_left):
    lines = [
        "chance to win now: you %.1f %%, %s"
        % (
            100 * result["chances"][0],
            ", ".join("opponent %d %.1f %%" % (i, 100 * p) for i, p in enumerate(result["chances"][1:], 1)),
        )
    ]
    if "options" not in result:
        return lines[0]
    if rolls_left == 0:
        lines.append("last roll: the box to fill, best chance to win first")
    else:
        lines.append(
            "%d roll%s left: the dice to keep, best chance to win first" % (rolls_left, "" if rolls_left == 1 else "s")
        )
    for opt in result["options"]:
        name = (
            texts.box_by_id(opt["box"]) if "box" in opt else (" ".join(str(d) for d in opt["hold"]) or "(re-roll all)")
        )
        lines.append("  %-15s %5.1f %%" % (name, 100 * opt["chance"]))
    return "\n".join(lines)


def render(result, rolls_left):
    if "options" not in result:
        return "expected final score at the start of this turn: %.4f" % result["expected_total"]
    lines = []
    if rolls_left == 0:
        lines.append("last roll: the box to fill, best first")
        for opt in result["options"]:
            lines.append("  %-15s %9.4f" % (texts.box_by_id(opt["box"]), opt["expected_total"]))
    else:
        lines.append("%d roll%s left: the dice to keep, best first" % (rolls_left, "" if rolls_left == 1 else "s"))
        lines.append("(expected final score when you keep these, roll the others and play on at best)")
        kept = [" ".join(_die(d, opt) for d in opt["hold"]) or "(re-roll all)" for opt in result["options"]]
        width = max([15] + [len(text) for text in kept])  # animal names are longer than digits
        for opt, text in zip(result["options"], kept):
            note = ""
            if len(opt["hold"]) == 5:  # nothing rolled: the turn goes on with one roll fewer
                note = "  (keep all five, then %s)" % (
                    "one roll still left" if rolls_left == 2 else "score: as the line below"
                )
            lines.append("  %-*s %9.4f%s" % (width, text, opt["expected_total"], note))
        now = result["score_now"]
        name = texts.box_by_id(now["box"])
        lines.append("score now instead (best box %s):" % name)
        lines.append("  %-*s %9.4f" % (width, name, now["expected_total"]))
    return "\n".join(lines)


def _die(face, option):
    """A kept die as the handheld names it: its number, or its animal on the Zoo card."""
    return texts.face(R.make_ruleset(R.ZOO), face) if "animals" in option else str(face)


def check_table_files(args, ruleset):
    """Read and check the --table and --spread files before anything is built (a missing
    default table takes seconds to solve): a damaged one, or one for other rules, is
    refused first."""
    import io

    import strategy_spread

    from host_tools.solver import spread as solver_spread
    from host_tools.solver import table as solver_table

    for option, value, verify, reader in (
        ("--table", args.table, solver_table.verify, strategy_table.StrategyTable),
        ("--spread", args.spread, solver_spread.verify, strategy_spread.SpreadTable),
    ):
        if value is not None:
            data = host_tools.read_input_file(option, value, _MAX_TABLE, "table file")
            try:
                verify(data)
                matches = reader(io.BytesIO(data)).matches(ruleset, R.JOKERS)
            except ValueError as exc:
                raise score.InputError("%s: %s" % (value, exc)) from None
            if not matches:
                raise score.InputError("%s %s: the table is not for %s" % (option, value, ruleset.name))


def main(argv):
    parser = host_tools.argument_parser("advise", __doc__.splitlines()[0])
    score.add_rules_options(parser)
    parser.add_argument("--card", help="JSON object or file: filled boxes -> points")
    parser.add_argument("--dice", nargs="+", metavar="D", help="the five dice showing")
    parser.add_argument("--rolls-left", help="rolls still allowed this turn: 0, 1 or 2")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--table", help="table file to use instead of build/strategy-<rules>.bin")
    parser.add_argument("--spread", help="spread table to use instead of build/spread-<rules>.bin")
    parser.add_argument(
        "--opponents",
        nargs="+",
        metavar="CARD",
        help="1-3 opponents' cards (as --card): show every player's chance to win",
    )
    parser.add_argument(
        "--to-win",
        action="store_true",
        help="rank the options by the chance to win against "
        "--opponents (the CPU win level) instead of the expected score",
    )
    texts.add_option(parser)
    try:
        args = parser.parse_args(argv)
        texts.use(args.lang)
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
        check_table_files(args, ruleset)
        if args.to_win and not args.opponents:
            raise score.InputError("--to-win needs --opponents (the cards to beat)")
        if args.opponents and ruleset.n_boxes != R.N_BOXES:
            raise score.InputError("--opponents: the win meter is for the 13-box cards, not %s" % ruleset.name)
        others = [score.parse_card(ruleset, c, "--opponents") for c in args.opponents or ()]
        if len(others) > 3:
            raise score.InputError("at most 3 opponents (4 players), not %d" % len(others))
    except score.InputError as exc:
        print("advise: %s" % exc, file=sys.stderr)
        return 2
    path = args.table if args.table is not None else ensure_table(ruleset)
    try:
        adv = open_advisor(ruleset, path)
    except Exception as exc:  # the reader's checks (ValueError), a read failing, anything out of the file
        print("advise: %s: %s" % (path, exc), file=sys.stderr)
        return 2
    spread_file = None
    try:
        if others:
            import strategy_spread

            from host_tools.solver import spread as solver_spread

            spread_file = args.spread or ensure_spread(ruleset)
            with open(spread_file, "rb") as f:
                try:  # the whole file checked first (CRC-32s, size), then the device's reader
                    solver_spread.verify(f.read(_MAX_TABLE + 1))
                    spread = strategy_spread.SpreadTable(f)
                except Exception as exc:
                    print("advise: %s: %s" % (spread_file, exc), file=sys.stderr)
                    return 2
                if not spread.matches(ruleset, R.JOKERS):
                    print("advise: the spread table is not for %s" % ruleset.name, file=sys.stderr)
                    return 2
                if args.to_win:
                    result = advise_to_win(adv, spread, card, others, dice, rolls_left)
                else:
                    result = advise(adv, card, dice, rolls_left)
                    result["chances"] = chances(adv, spread, [card] + others)
        else:
            result = advise(adv, card, dice, rolls_left)
    except Exception as exc:  # out of a table at a read (a block's own checks): damage, one line
        said = str(exc)
        if said.startswith("damaged: "):  # the value table's reader
            said = "%s: strategy table %s" % (path, said)
        elif said.startswith("spread table damaged: "):
            said = "%s: %s" % (spread_file, said)
        else:
            said = "%s: table damaged: %s" % (path if spread_file is None else path + " or " + spread_file, said)
        print("advise: %s" % said, file=sys.stderr)
        return 2
    finally:
        adv.table_file.close()
    if args.json:
        print(json.dumps(result))
    elif args.to_win:
        print(render_to_win(result, rolls_left))
    else:
        text = render(result, rolls_left)
        if others:
            text = render_to_win({"chances": result["chances"]}, None) + "\n" + text
        print(text)
    return 0

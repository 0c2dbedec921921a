"""``python -m host_tools advise``: the optimal move for a position, from the firmware's advisor.

    python -m host_tools advise [--rules forced|ordered|free|none|zoo] [--no-yahtzee-bonus]
                                [--card CARD] [--dice D1 D2 D3 D4 D5 --rolls-left N] [--json]
                                [--opponents CARD [CARD ...] [--to-win]]

Runs firmware/advisor.py under CPython on the exact value table for the ruleset (found in
build/strategy-<rules>.bin, built there by the solver when missing). Without dice: the
expected final score at the start of the turn. With dice: every option (the dice to keep
before a re-roll, or the box on the last roll), best first, with its expected final score.
CARD as in ``score``: a JSON object or file of filled boxes -> points (+ "yahtzee_bonus").
With ``--opponents`` (1-3 cards): every player's chance to win from the win meter
(firmware/win_meter.py; you first); with ``--to-win`` as well, the options are ranked by
the CPU win level (firmware/strategy_win.py): the chance to win against those cards. The
win meter and the win level are for the 13-box cards (not ``--rules zoo``).
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
    if not os.path.exists(path) or _older_format(path) or not _exact(path):
        from host_tools import solve

        if not quiet:
            print("%s: building %s (once; cached) ..." % (prog, path), file=sys.stderr, flush=True)
        data, _expected, _loss = solve.build(ruleset, "exact")
        solve.write_atomic(path, data)
    return path


def _older_format(path, magic=strategy_table.MAGIC, version=strategy_table.FORMAT_VERSION):
    """True for a table an earlier version of the solver built (a build product to
    redo, not damage): the right magic with a lower format version."""
    with open(path, "rb") as f:
        head = f.read(5)
    return len(head) == 5 and head[:4] == magic and head[4] < version


def _exact(path):
    """False for a compact table where the exact one belongs (an older ``uf2 --compact``
    wrote it there): advise, sim and flash would give the compact table's figures."""
    with open(path, "rb") as f:
        head = f.read(6)
    return len(head) < 6 or head[:4] != strategy_table.MAGIC or head[5] == strategy_table.EXACT


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


def spread_path(ruleset, folder=BUILD):
    return os.path.join(folder, "spread-%s.bin" % ruleset.name)


def ensure_spread(ruleset, folder=BUILD, quiet=False, prog="advise"):
    """Path of the spread table for ``ruleset``, building it (seconds) if missing or of
    an older format."""
    import spread_table

    path = spread_path(ruleset, folder)
    if not os.path.exists(path) or _older_format(path, spread_table.MAGIC, spread_table.FORMAT_VERSION):
        from host_tools import solve
        from host_tools.solver import cache as solver_cache
        from host_tools.solver import spread as solver_spread

        if not quiet:
            print("%s: building %s (once; cached) ..." % (prog, path), file=sys.stderr, flush=True)
        var = solver_cache.variance(ruleset)
        solve.write_atomic(path, solver_spread.encode(var, ruleset, solve.SPREAD_BANDS))
    return path


def _standing(adv, spread, card):
    """(total, expected remaining in sixteenths, sd in sixteenths, used boxes) of a card."""
    import win_meter

    mask = up = used = 0
    for b in range(R.N_BOXES):
        if card[b] != R.OPEN:
            mask |= 1 << b
            used += 1
            up += card[b] if b < R.N_UPPER else 0
    up = min(up, 63)
    yz = 1 if card[R.YAHTZEE] == 50 else 0
    total = R.totals(adv.rules, card)[4]
    if mask == 8191:
        return total, 0, 0, used
    return total, win_meter.from_fixed(adv.table.value(mask, up, yz)), spread.sd(mask, up, yz), used


def chances(adv, spread, cards):
    """Each card's chance to win (fractions), the win meter's model, cards[0] = you."""
    import win_meter

    rows = [_standing(adv, spread, c) for c in cards]
    out = [0] * 4
    win_meter.chances(len(cards), [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows],
                      [r[3] for r in rows], out)
    return [out[i] / win_meter.ONE for i in range(len(cards))]


def advise_to_win(adv, spread, card, others, dice=None, rolls_left=None):
    """The JSON-ready answer ranked by the chance to win against ``others``."""
    import strategy_win
    import win_meter

    result = {"chances": chances(adv, spread, [card] + list(others))}
    if dice is None:
        return result
    level = strategy_win.WinLevel(adv, spread)
    level.prepare(card, others)
    options = []
    if rolls_left == 0:
        out = [0] * 13
        R.score_options(adv.rules, card, dice, out)
        extra = R.yahtzee_bonus_for(adv.rules, card, dice)
        for b in range(R.N_BOXES):
            if out[b] >= 0:
                options.append((level.box_key(b, out[b], extra), -b, {"box": R.BOX_IDS[b]}))
    else:
        seen = set()
        for hold in range(32):
            kept = tuple(sorted(dice[j] for j in range(5) if hold >> j & 1))
            if kept not in seen:
                seen.add(kept)
                options.append((level.hold_key(dice, rolls_left, hold), -hold, {"hold": list(kept)}))
    options.sort(key=lambda o: (o[0], o[1]), reverse=True)
    ranked = []
    for key, _order, option in options:
        option["chance"] = level.chance(key) / win_meter.ONE
        ranked.append(option)
    result.update(best=ranked[0], options=ranked)
    return result


def render_to_win(result, rolls_left):
    lines = ["chance to win now: you %.1f %%, %s" % (100 * result["chances"][0], ", ".join(
        "opponent %d %.1f %%" % (i, 100 * p) for i, p in enumerate(result["chances"][1:], 1)))]
    if "options" not in result:
        return lines[0]
    if rolls_left == 0:
        lines.append("last roll: the box to fill, best chance to win first")
    else:
        lines.append("%d roll%s left: the dice to keep, best chance to win first" % (rolls_left, "" if rolls_left == 1 else "s"))
    for opt in result["options"]:
        name = opt["box"] if "box" in opt else (" ".join(str(d) for d in opt["hold"]) or "(re-roll all)")
        lines.append("  %-15s %5.1f %%" % (name, 100 * opt["chance"]))
    return "\n".join(lines)


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


def check_table_files(args, ruleset):
    """Read and check the --table and --spread files before anything is built (a missing
    default table takes seconds to solve): a damaged one, or one for other rules, is
    refused first."""
    import io

    import spread_table

    from host_tools.solver import spread as solver_spread
    from host_tools.solver import table as solver_table

    for option, value, verify, reader in (("--table", args.table, solver_table.verify, strategy_table.StrategyTable),
                                          ("--spread", args.spread, solver_spread.verify, spread_table.SpreadTable)):
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
    parser.add_argument("--opponents", nargs="+", metavar="CARD", help="1-3 opponents' cards (as --card): "
                        "show every player's chance to win")
    parser.add_argument("--to-win", action="store_true", help="rank the options by the chance to win against "
                        "--opponents (the CPU win level) instead of the expected score")
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
            import spread_table

            from host_tools.solver import spread as solver_spread

            spread_file = args.spread or ensure_spread(ruleset)
            with open(spread_file, "rb") as f:
                try:  # the whole file checked first (CRC-32s, size), then the device's reader
                    solver_spread.verify(f.read(_MAX_TABLE + 1))
                    spread = spread_table.SpreadTable(f)
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

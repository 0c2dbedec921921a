"""``python -m host_tools challenge CODE``: the perfect game on a challenge code's dice.

    python -m host_tools challenge CODE [--rules forced|ordered|free|none|zoo]
                                        [--no-yahtzee-bonus] [--table FILE] [--json] [--lang CODE]

A challenge code is four letters (the menu's ``Challenge`` line, ``sim --challenge``, the
web page's ``?challenge=``): every die of its game comes from the code, the round, the
roll and the die's place (firmware/game_challenge.py ``challenge_die``), so every player of the
code meets the same dice where they keep the same ones. This prints the game the optimal
strategy plays on them (firmware/seat_levels.py ``perfect`` with the firmware's advisor),
round by round: the dice of each roll, the dice kept, the box and its points, then the
total: the ``perfect play`` figure the handheld shows beside yours at the game's end. The
table is the device's exact one (build/strategy-<rules>.bin, built when missing); a Pico
W's compact table can differ by a decision now and then.
"""

import json
import sys

import host_tools

host_tools.use_firmware()
import game as G  # noqa: E402
import game_challenge  # noqa: E402

from host_tools import score, texts  # noqa: E402
from host_tools.solver.files import ensure_table, open_advisor  # noqa: E402
from host_tools.solver.perfect import as_json, perfect_game  # noqa: E402


def parse_args(argv):
    parser = host_tools.argument_parser("challenge", __doc__.splitlines()[0])
    parser.add_argument("code", help="the challenge code: four letters A-Z")
    score.add_rules_options(parser)
    parser.add_argument("--table", help="table file to use instead of build/strategy-<rules>.bin")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    texts.add_option(parser)
    args = parser.parse_args(argv)
    args.code = args.code.upper()
    try:
        game_challenge.code_number(args.code)
    except G.GameError:
        raise host_tools.UsageError("%r is not a challenge code: four letters A-Z" % args.code[:20]) from None
    try:
        args.ruleset = score.ruleset_from(args)
    except score.InputError as exc:
        raise host_tools.UsageError(str(exc)) from None
    texts.use(args.lang)
    if args.table is not None:
        _check_table(args.table, args.ruleset)
    return args


def _check_table(path, ruleset):
    """The --table file read and checked whole before any work: a damaged one, or one
    for other rules, is one line."""
    import io

    import rules as R
    import strategy_table

    from host_tools.solver import table as solver_table
    from host_tools.solver.files import MAX_TABLE

    data = host_tools.read_input_file("--table", path, MAX_TABLE, "table file")
    try:
        solver_table.verify(data)
        matches = strategy_table.StrategyTable(io.BytesIO(data)).matches(ruleset, R.JOKERS)
    except ValueError as exc:
        raise host_tools.UsageError("--table %s: %s" % (path, exc)) from None
    if not matches:
        raise host_tools.UsageError("--table %s: the table is not for %s" % (path, ruleset.name))


def _dice(ruleset, faces):
    return " ".join(texts.face(ruleset, d) for d in faces)


def render(ruleset, code, total, rounds):
    lines = ["challenge %s (%s): the perfect game" % (code, ruleset.name)]
    for n, line in enumerate(rounds, 1):
        steps = []
        for i in range(0, len(line) - 2, 2):
            steps.append(_dice(ruleset, line[i]))
            if i + 1 < len(line) - 2:
                kept = [line[i][d] for d in range(5) if line[i + 1] >> d & 1]
                steps.append("keep all" if len(kept) == 5 else "keep " + (_dice(ruleset, kept) if kept else "none"))
        box = texts.box(ruleset, line[-2])
        lines.append("%2d  %s  -> %s %d" % (n, ", ".join(steps), box, line[-1]))
    lines.append("total %d" % total)
    return "\n".join(lines)


def main(argv):
    args, status = host_tools.parse_command("challenge", parse_args, argv)
    if args is None:
        return status
    ruleset = args.ruleset
    path = args.table if args.table is not None else ensure_table(ruleset, prog="challenge")
    try:
        adv = open_advisor(ruleset, path)
    except Exception as exc:  # the reader's checks (ValueError), a read failing: one line
        print("challenge: %s: %s" % (path, exc), file=sys.stderr)
        return 2
    try:
        total, rounds = perfect_game(adv, args.code)
    except Exception as exc:  # a block of the table failing its check at a read
        print("challenge: %s: table damaged: %s" % (path, exc), file=sys.stderr)
        return 2
    finally:
        adv.table_file.close()
    if args.json:
        print(json.dumps(as_json(ruleset, args.code, total, rounds)))
    else:
        print(render(ruleset, args.code, total, rounds))
    return 0

"""``python -m host_tools score``: settle a scoring dispute with the firmware's rules module.

    python -m host_tools score [--rules forced|ordered|free|none|zoo] [--no-yahtzee-bonus]
                               [--card CARD] [--json] [--lang CODE] D1 D2 D3 D4 D5

CARD is a JSON object (or a path to a file holding one) of filled boxes -> points, plus an
optional "yahtzee_bonus" (bonus points already earned). Prints the boxes this roll may
legally fill with their points, and the card's totals. ``--rules zoo`` is the kids' card:
the dice are animal numbers 1-6 (1 monkey, 2 elephant, 3 giraffe, 4 rhino, 5 bear, 6 lion), shown
by name. ``--lang`` prints the boxes' and the animals' names in that language (as the
handheld shows them: host_tools/texts.py); ``--json`` keeps the ids. Bad input: exit 2,
one line.
"""

import json
import sys

from host_tools import UsageError as InputError
from host_tools import argument_parser, read_input_file, use_firmware

use_firmware()
import game_state  # noqa: E402
import rules as R  # noqa: E402

from host_tools import texts  # noqa: E402

TOTAL_NAMES = ("upper", "upper_bonus", "lower", "yahtzee_bonus", "grand")


def add_rules_options(parser):
    """``--rules`` and ``--no-yahtzee-bonus``, as score, advise and solve take them."""
    parser.add_argument(
        "--rules",
        default="forced",
        choices=R.CHOICES,
        help="joker rule option (default forced), or zoo: the kids' card with animals",
    )
    parser.add_argument("--no-yahtzee-bonus", action="store_true", help="no 100-point Yahtzee bonuses")


def ruleset_from(args):
    """The ruleset the options of ``add_rules_options`` name (InputError for the Zoo card
    with --no-yahtzee-bonus: it has no Yahtzee bonus to switch off)."""
    if args.rules == R.ZOO and args.no_yahtzee_bonus:
        raise InputError("--no-yahtzee-bonus: the Zoo card has no Yahtzee bonus")
    return R.make_ruleset(args.rules, not args.no_yahtzee_bonus)


MAX_CARD_BYTES = 64 * 1024  # a card is ~300 bytes; /dev/zero or a video is not one


def read_card_file(path, option="--card"):
    """The text of a card file (a regular file of at most MAX_CARD_BYTES, read as every
    file argument is: host_tools.read_input_file); raises InputError naming the problem."""
    data = read_input_file(option, path, MAX_CARD_BYTES, "card file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("card file %s is not UTF-8 text" % path) from None


def _no_duplicate_keys(pairs):
    """json's object hook: a box named twice is refused (json keeps the last silently)."""
    seen = set()
    for key, _value in pairs:
        if key in seen:
            raise InputError("card names %s twice: give each box once" % key)
        seen.add(key)
    return dict(pairs)


def parse_card(rules, text, option="--card"):
    """A card list from CARD (JSON text or a path to a JSON file) given as ``option``;
    raises InputError."""
    if text is None:
        return R.new_card(rules)
    if text.strip() == "":
        raise InputError("%s is empty: give a JSON object or a file holding one" % option)
    if not text.lstrip().startswith(("{", "[", '"')):  # not JSON text: a file name
        text = read_card_file(text, option)
    if len(text) > MAX_CARD_BYTES:
        raise InputError("card is over %d KiB: not a card" % (MAX_CARD_BYTES // 1024))
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except InputError:
        raise
    except ValueError as exc:
        raise InputError("card is not valid JSON: %s" % exc)
    except RecursionError:
        raise InputError("card is not a card: JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise InputError("card must be a JSON object of box -> points")
    card = R.new_card(rules)
    for key, points in data.items():
        if not isinstance(points, int) or isinstance(points, bool):
            raise InputError("points for %s must be a whole number, not %r" % (key, points))
        if key == "yahtzee_bonus":
            card[rules.bonus_at] = points
        elif key in rules.ids:
            card[rules.ids.index(key)] = points
        else:
            raise InputError("unknown box %r (boxes: %s)" % (key, ", ".join(rules.ids)))
    try:
        game_state.check_card(rules, card)
    except ValueError as exc:
        raise InputError(str(exc))
    return card


def parse_dice(values):
    dice = []
    for value in values:
        try:
            dice.append(int(value))
        except ValueError:
            raise InputError("a die is a number 1-6, not %r" % value)
    try:
        R.check_dice(dice)
    except ValueError as exc:
        raise InputError(str(exc))
    return dice


def evaluate(rules, card, dice):
    """The result object that ``--json`` prints."""
    out = [0] * rules.n_boxes
    joker = R.score_options(rules, card, dice, out)
    result = {
        "dice": dice,
        "boxes": {rules.ids[b]: out[b] for b in range(rules.n_boxes) if out[b] >= 0},
        "yahtzee_bonus": R.yahtzee_bonus_for(rules, card, dice),
        "joker": joker,
        "totals": dict(zip(TOTAL_NAMES, R.totals(rules, card))),
    }
    if rules.faces:
        result["animals"] = [rules.face_name(die) for die in dice]
    return result


def dice_text(rules, dice):
    """``4 4 2`` or, on the Zoo card, ``Rhino Rhino Elephant`` (in the language in use)."""
    return " ".join(texts.face(rules, die) for die in dice)


def render(rules, card, result):
    lines = ["dice: %s   rules: %s" % (dice_text(rules, result["dice"]), rules.name)]
    if result["joker"]:
        lines.append("joker rule applies (Yahtzee box already filled)")
    if result["yahtzee_bonus"]:
        lines.append("%s: +%d" % (texts.text("yahtzee_bonus", 0), result["yahtzee_bonus"]))
    lines.append("")
    lines.append("%-16s %s" % ("box", "this roll"))
    for b, box_id in enumerate(rules.ids):
        if card[b] != R.OPEN:
            cell = "filled (%d)" % card[b]
        elif box_id in result["boxes"]:
            cell = "%d" % result["boxes"][box_id]
        else:
            cell = "not allowed (joker rule)"
        lines.append("%-16s %s" % (texts.box(rules, b), cell))
    lines.append("")
    totals = result["totals"]
    if rules.yahtzee_bonus or totals["yahtzee_bonus"]:
        lines.append(
            "card totals: upper %(upper)d + bonus %(upper_bonus)d + lower %(lower)d"
            " + Yahtzee bonus %(yahtzee_bonus)d = %(grand)d" % totals
        )
    else:  # a card without Yahtzee bonuses (the Zoo card, --no-yahtzee-bonus)
        lines.append("card totals: upper %(upper)d + bonus %(upper_bonus)d + lower %(lower)d = %(grand)d" % totals)
    return "\n".join(lines)


def main(argv):
    parser = argument_parser("score", __doc__.splitlines()[0])
    add_rules_options(parser)
    parser.add_argument("--card", help="JSON object or file: filled boxes -> points")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    texts.add_option(parser)
    parser.add_argument("dice", nargs="*", help="five dice, 1-6 (zoo: 1 monkey .. 6 lion)")
    try:
        args = parser.parse_args(argv)
        texts.use(args.lang)
        rules = ruleset_from(args)
        dice = parse_dice(args.dice)
        card = parse_card(rules, args.card)
        if all(card[b] != R.OPEN for b in range(rules.n_boxes)):
            raise InputError("the card is full: no box is left to score this roll in")
    except InputError as exc:
        print("score: %s" % exc, file=sys.stderr)
        return 2
    result = evaluate(rules, card, dice)
    print(json.dumps(result) if args.json else render(rules, card, result))
    return 0

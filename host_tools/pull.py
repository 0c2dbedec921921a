"""``python -m host_tools pull``: copy the device's saves, records and statistics; print them.

``--port PORT`` reads the device's ``data/`` folder through MicroPython's raw REPL (a Pico
on USB or the virtual Pico's pty); ``--dir DIR`` takes it from a flash folder instead (the
simulator's ``--flash-dir``). The copy lands in ``--out``/data (default
``~/.local/share/pico-yahtzee/pulled``, beside the simulator's flash folder, the copy a
plain ``push`` puts back) and the report says where, and which copy ``push`` will use.
Files are read with the firmware's own ``storage`` and ``records`` modules, so the format
lives in one place; ``--json`` prints the raw values instead, and without ``--out`` only
shows them: a look keeps no copy. A copy is replaced only by a pull from the same place
(saying so); one from elsewhere keeps the earlier copy in ``--out``/earlier/.

The report names players, computer levels, the menu's values and the dice verdict as the
handheld does, in ``--lang``'s language (host_tools/texts.py); its sentences are English.

What a device or folder sends is untrusted (``flashing/untrusted.py``): only plain names
and regular files are copied, never through a link, at most 64 KiB per file and 1 MiB in
all; whatever is left out is named on stderr, escaped like every name printed.
"""

import json
import os
import shutil
import sys
import tempfile
import time

import host_tools
from host_tools.flashing import untrusted

host_tools.use_firmware()

import save_records_view  # noqa: E402  (firmware modules, importable after use_firmware)
import rules  # noqa: E402
import save_store  # noqa: E402
from host_tools import records_json, texts  # noqa: E402  (imports storage: after use_firmware)

# The simulator keeps its flash in .../pico-yahtzee/flash; pulled copies go beside it.
DEFAULT_OUT = os.path.join(os.path.expanduser("~"), ".local", "share", "pico-yahtzee", "pulled")
# Beside the copy: pull replaces OUT/data only where it finds this, never a folder of yours;
# it also says where the copy came from and when (FROM, AT lines).
MARKER = ".pico-yahtzee-pull"
FROM = "from: "
AT = "at: "
EARLIER = "earlier"  # OUT/earlier/<time>/: copies from elsewhere that a pull replaced
# A push's folders beside data/ (flashing/restore.py): named when data/ is missing.
BESIDE = (".pushed", ".pushold", ".pushing")


class PullError(Exception):
    """The copy failed; the message is the one line shown to the user."""


def parse_args(argv):
    parser = host_tools.argument_parser("pull", __doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--port", help="serial port of the device (or the virtual Pico's pty)")
    source.add_argument("--dir", help="a flash folder instead of a device (e.g. the simulator's --flash-dir)")
    parser.add_argument(
        "--out",
        help="local folder for the copy (default: %s, the copy push puts back)"
        % DEFAULT_OUT.replace(os.path.expanduser("~"), "~"),
    )
    parser.add_argument(
        "--json", action="store_true", help="print the raw values as JSON instead of text (without --out: copy nothing)"
    )
    parser.add_argument(
        "--replace",
        action="store_true",
        help="replace the copy even with one that lacks some of its files (a device erased since)",
    )
    texts.add_option(parser)
    args = parser.parse_args(argv)
    texts.use(args.lang)  # the names in the report, as the handheld shows them
    return args


def copy_from_port(port):
    """The device's ``data/`` as an ``untrusted.Copy``."""
    from host_tools.flashing.device import Device, DeviceError

    device = Device(port)
    try:
        device.connect()
        return untrusted.read_device(device, save_store.DATA_DIR, BESIDE)
    except DeviceError as exc:
        raise PullError(str(exc)) from None
    finally:
        try:
            device.release()  # back to the friendly REPL: a Pico runs its game again
        finally:
            device.close()


def copy_from_dir(folder):
    return untrusted.read_folder(folder, save_store.DATA_DIR, BESIDE)


def read_marker(out):
    """(where the copy in ``out`` came from, when), None for what the marker does not say."""
    source = at = None
    try:
        with open(os.path.join(out, MARKER), encoding="utf-8", errors="replace") as f:
            for line in f.read(4096).splitlines():
                if line.startswith(FROM):
                    source = line[len(FROM) :]
                elif line.startswith(AT):
                    at = line[len(AT) :]
    except OSError:
        pass
    return source, at


def _write_marker(folder, source, at):
    with open(os.path.join(folder, MARKER), "w", encoding="utf-8") as marker:
        marker.write(
            "python -m host_tools pull replaces %s/ here with a fresh copy from the same place;"
            " a copy from elsewhere keeps the earlier one in %s/\n%s%s\n%s%s\n"
            % (save_store.DATA_DIR, EARLIER, FROM, source, AT, at)
        )


def replace_copy(out, copy, source):
    """``out/data`` becomes ``copy``: written beside it, then switched in by two renames,
    so a failure or a cut leaves the previous copy (or the new one), never neither. A
    previous copy from another place (or one whose place is not known) that differs is
    kept in ``out/earlier/<time>/``, whose path is returned (else None)."""
    os.makedirs(out, exist_ok=True)
    target = os.path.join(out, save_store.DATA_DIR)
    before, before_at = read_marker(out)
    at = time.strftime("%Y-%m-%d %H:%M:%S")
    fresh = tempfile.mkdtemp(prefix=".%s.new-" % save_store.DATA_DIR, dir=out)
    kept = old = None
    try:
        copy.write(fresh)
        if os.path.isdir(target):
            if before != source and _files(target) != copy.files:
                stamp = (before_at or at).replace(" ", "_").replace(":", "-")
                kept = _free_name(os.path.join(out, EARLIER, stamp))
                os.makedirs(kept)
                _write_marker(kept, before or "a place this copy did not record", before_at or "?")
                os.rename(target, os.path.join(kept, save_store.DATA_DIR))
            else:
                old = tempfile.mkdtemp(prefix=".%s.old-" % save_store.DATA_DIR, dir=out)
                os.rename(target, os.path.join(old, save_store.DATA_DIR))
        os.rename(fresh, target)  # files deleted on the device do not linger
    finally:
        if os.path.isdir(fresh):
            shutil.rmtree(fresh)
    _write_marker(out, source, at)
    if old is not None:
        shutil.rmtree(old)
    return kept


def _files(folder):
    """{name: bytes} of the regular files in a copy pull made (at most MAX_ENTRIES)."""
    found = {}
    for name in sorted(os.listdir(folder))[: untrusted.MAX_ENTRIES]:
        path = os.path.join(folder, name)
        if os.path.isfile(path) and not os.path.islink(path):
            with open(path, "rb") as f:
                found[name] = f.read(untrusted.MAX_FILE + 1)
    return found


def _free_name(path):
    """``path``, or ``path-2``, ``path-3``... the first that does not exist."""
    n, candidate = 1, path
    while os.path.lexists(candidate):
        n += 1
        candidate = "%s-%d" % (path, n)
    return candidate


def source_of(args):
    """Where this pull reads from, as the marker and the messages name it."""
    if args.port is not None:
        return "the device on %s" % args.port
    return "the folder %s" % os.path.abspath(args.dir)


def push_note(out):
    """Which copy ``push`` puts back, for the end of a pull's output."""
    default = os.path.join(DEFAULT_OUT, save_store.DATA_DIR)
    here = os.path.join(out, save_store.DATA_DIR) if out is not None else None
    if here is not None and os.path.abspath(here) == os.path.abspath(default):
        return "push puts this copy back (python -m host_tools push --port PORT)"
    if os.path.isdir(default):
        source, at = read_marker(DEFAULT_OUT)
        plain = "a plain push puts back the copy in %s (pulled from %s at %s)" % (
            default,
            source or "a place it did not record",
            at or "?",
        )
    else:
        plain = "a plain push finds no copy (%s is empty)" % DEFAULT_OUT
    if here is None:
        return plain
    return "push --from %s puts this copy back; %s" % (out, plain)


def beside_note(names):
    """What the device has where data/ is missing: a push cut short (flashing/restore.py)."""
    pushed = save_store.DATA_DIR + BESIDE[0]
    if pushed in names:
        return (
            "no %s/ on the device, but %s/: a push was cut between its last two steps, its copy whole"
            " (nothing is lost); the game puts it in place when it starts (or run push again), then pull"
            " copies it" % (save_store.DATA_DIR, pushed)
        )
    return "no %s/ on the device, but %s: left by a push that was cut short; run push again" % (
        save_store.DATA_DIR,
        ", ".join(name + "/" for name in names),
    )


def _bases(names):
    bases = set()
    for name in names:
        for suffix in save_store.SUFFIXES:
            if name.endswith(suffix):
                bases.add(name[: -len(suffix)])
                break
    return bases


# pull's JSON (read_folder, the values as JSON) is shared with the web page: records_json.
read_folder = records_json.read_folder
_jsonable = records_json.jsonable


# --- text: what a player reads ----------------------------------------------------------
def _plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def _game_lines(value):
    state = value.get("game", value) if isinstance(value, dict) else value
    if not isinstance(state, dict) or not isinstance(state.get("players"), list):
        raise ValueError("not a game")
    phase = {0: "the roll-off for who starts", 1: "playing", 2: "finished"}.get(state.get("phase"), "?")
    round_ = state.get("round") or 0
    try:
        ruleset = rules.ruleset_from_name(state.get("rules"))
    except (ValueError, KeyError, TypeError, AttributeError):
        ruleset = None
    n_boxes = ruleset.n_boxes if ruleset is not None else rules.N_BOXES  # 11 on the Zoo card
    current = state.get("current")
    head = (
        "  %s, round %d of %d" % (phase, min(round_, n_boxes - 1) + 1, n_boxes) if phase == "playing" else "  " + phase
    )
    if phase == "playing" and isinstance(current, int) and 0 <= current < len(state["players"]):
        head += ", %s's turn" % state["players"][current][0]
    lines = [head]
    for player in state["players"]:
        name, kind, card = texts.person(player[0]), player[1], player[2]
        total = rules.totals(ruleset, card)[4] if ruleset is not None else sum(x for x in card if x > 0)
        filled = sum(1 for x in card[:n_boxes] if x != rules.OPEN)
        who = "computer (%s)" % kind if kind != "human" else "human"
        lines.append("  %-8s %-18s %4d points, %2d of %d boxes filled" % (name, who, total, filled, n_boxes))
    if phase == "playing" and state.get("rolls"):
        held = state.get("held", 0)
        dice = " ".join(("[%d]" if (held >> i) & 1 else " %d ") % d for i, d in enumerate(state["dice"]))
        lines.append("  dice %s  (roll %d of 3; [ ] = held)" % (dice, state["rolls"]))
    lines.append("  rules: %s" % state.get("rules"))  # a joker option, or zoo (the kids' card)
    return lines


def _scores_lines(scores):
    if not scores:
        return ["  (no high scores yet)"]
    return ["  %2d. %-3s %5d" % (i + 1, entry[1], entry[0]) for i, entry in enumerate(scores)]


def _stats_line(label, entry, unit="game"):
    count, avg_x10, best, yahtzees, bonus_pct = save_records_view.summary(entry)
    return "  %-8s %-9s average %4d.%d  best %4d  %-13s upper bonus in %d%%" % (
        label if label == "all" else texts.person(label),
        _plural(count, unit),
        avg_x10 // 10,
        avg_x10 % 10,
        best,
        _plural(yahtzees, "Yahtzee"),
        bonus_pct,
    )


def _stats_lines(stats):
    # Games apart from the players' results they hold (a 2-player game is 2 results).
    lines = [
        "  %s played" % _plural(save_records_view.games_played(stats), "game"),
        _stats_line("all", stats["all"], "result"),
    ]
    for name in sorted(stats["names"]):
        lines.append(_stats_line(name, stats["names"][name]))
    return lines


def thousandths(value):
    """``12345`` -> ``"12.35"``: a x1000 figure (save_records_view.chi_square's), two decimals."""
    value = (value + 5) // 10
    return "%d.%02d" % (value // 100, value % 100)


def _rolls_lines(rolls):
    faces = rolls["faces"]
    total = sum(faces)
    lines = ["  face   " + "  ".join("%6d" % f for f in range(1, 7)), "  rolls  " + "  ".join("%6d" % n for n in faces)]
    if total:
        lines.append("  share  " + "  ".join("%5.1f%%" % (100.0 * n / total) for n in faces))
    stat, verdict = save_records_view.chi_square(faces)
    lines.append(
        "  %d dice rolled, chi-square %s (5 d.f.; 11.07 at 5%%, 15.09 at 1%%): %s"
        % (total, thousandths(stat), texts.text("verdicts", verdict))
    )
    return lines


def _setup_lines(value):
    """The menu's set-up (ui/menu.py ``saved``) in the menu's own words."""
    from ui import menu

    def on(flag):
        return "on" if flag else "off"

    seats = ", ".join(
        "%s %s" % (texts.person(menu.SEAT_LABELS[seat]), texts.person(menu.stat_name(kind)))
        for seat, kind in enumerate(value["kinds"][: value["players"]])
    )
    if value["rules"] == rules.ZOO:
        card = "the %s card" % texts.text("cards", menu.ZOO)
    else:
        joker = texts.text("jokers", rules.JOKERS.index(value["rules"]))
        card = "joker rule %s, Yahtzee bonus %s" % (joker, on(value["ybonus"]))
    lines = [
        "  %d %s: %s" % (value["players"], "player" if value["players"] == 1 else "players", seats),
        "  rules: %s" % card,
        "  coach: %s; sound %s; dice brightness %d of 15"
        % (texts.text("coach_modes", value["coach"]), on(value["sound"]), value["leds"]),
    ]
    if "lang" in value:  # a set-up saved before the languages has none
        lines.append("  language: %s" % value["lang"])
    return lines


_FORMATTERS = {
    "game": _game_lines,
    "setup": _setup_lines,
    "scores": _scores_lines,
    "stats": _stats_lines,
    "rolls": _rolls_lines,
    "zoo_scores": _scores_lines,
    "zoo_stats": _stats_lines,
}
_TITLES = {
    "game": "Saved game",
    "scores": "High scores",
    "stats": "Statistics",
    "rolls": "Dice fairness",
    "zoo_scores": "Zoo high scores",
    "zoo_stats": "Zoo statistics",
    "setup": "Menu set-up",
}


def text_report(found):
    """The report as text; every line escaped (names and values come from the device)."""
    lines = []
    for base, entry in found.items():
        lines.append("%s:" % _TITLES.get(base, "Other file %s" % base))
        if entry["error"]:
            lines.append("  unreadable: %s" % entry["error"])
        elif entry["value"] is None:
            lines.append("  (nothing saved)")
        else:
            formatter = _FORMATTERS.get(base, lambda v: ["  %r" % (v,)])
            try:
                lines.extend(formatter(entry["value"]))
            except (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError):
                lines.append("  (unexpected contents; --json shows them raw)")
        for name, reason in entry["kept_aside"]:
            lines.append("  kept aside: %s (%s)" % (name, reason))
        lines.append("")
    return "\n".join(untrusted.printable(line) for line in lines).rstrip() + "\n"


def check_out(out, folder):
    """One line naming what is wrong with ``--out``, or None; nothing is written."""
    problem = untrusted.folder_problem("--out", out)
    if problem:
        return problem
    if folder is not None:
        flash = os.path.realpath(folder)
        here = os.path.realpath(out)
        if here == flash or here.startswith(flash + os.sep):
            return "--out must be outside the flash folder %s" % untrusted.shown(folder)
    target = os.path.join(out, save_store.DATA_DIR)
    if os.path.lexists(target) and (os.path.islink(target) or not os.path.isdir(target)):
        return "--out %s: %s is in the way (not a folder)" % (untrusted.shown(out), untrusted.shown(target))
    if os.path.isdir(target) and not os.path.isfile(os.path.join(out, MARKER)):
        return "--out %s already holds a %s folder that pull did not make; pick another --out" % (
            untrusted.shown(out),
            save_store.DATA_DIR,
        )
    return None


def check_source(args):
    """One line naming what is wrong with ``--port`` or ``--dir``, or None."""
    if args.port is not None:
        return untrusted.port_problem(args.port)
    problem = untrusted.text_problem("--dir", args.dir)
    if problem:
        return problem
    if not os.path.isdir(args.dir):
        return "--dir %s is not a folder" % untrusted.shown(args.dir)
    return None


def main(argv):
    args, status = host_tools.parse_command("pull", parse_args, argv, show=untrusted.printable)
    if args is None:
        return status
    looking = args.json and args.out is None  # --json alone shows what it reads: no copy kept
    out = args.out if args.out is not None else DEFAULT_OUT
    problem = check_source(args) or (None if looking else check_out(out, args.dir))
    if problem:
        print("pull: %s" % problem, file=sys.stderr)
        return 2
    try:
        copy = copy_from_port(args.port) if args.port is not None else copy_from_dir(args.dir)
    except (PullError, OSError) as exc:
        print("pull: %s" % untrusted.printable(str(exc)), file=sys.stderr)
        return 1
    for name, why in copy.skipped:
        print("pull: skipped %s: %s" % (untrusted.printable(name), why), file=sys.stderr)
    target = os.path.join(out, save_store.DATA_DIR)
    if not copy.files:  # nothing to copy: an earlier copy (maybe the only backup) stays
        said = beside_note(copy.beside) if copy.beside else "nothing saved on the device yet"
        if args.json:
            print(json.dumps({}))
            if copy.beside:
                print("pull: %s" % said, file=sys.stderr)
        elif os.path.isdir(target):
            print("%s; the copy in %s is left as it was" % (said, untrusted.printable(os.path.abspath(target))))
        else:
            print(said)
        return 0
    if looking:
        with tempfile.TemporaryDirectory() as shown:
            copy.write(shown)
            found = read_folder(shown)
        print(json.dumps(_jsonable(found), indent=1, sort_keys=True))
        print(
            "pull: --json without --out only shows what it read, nothing is copied; %s"
            % untrusted.printable(push_note(None)),
            file=sys.stderr,
        )
        return 0
    lost = (
        []
        if args.replace or not os.path.isdir(target)
        else [b for b in records_json.base_names(target) if b not in _bases(copy.files)]
    )
    if lost:
        print(
            "pull: the copy in %s holds %s, which the device does not have; it is left as it was (--replace replaces it)"
            % (untrusted.printable(os.path.abspath(target)), ", ".join(untrusted.printable(b) for b in lost)),
            file=sys.stderr,
        )
        return 2
    source = source_of(args)
    had, had_at = read_marker(out) if os.path.isdir(target) else (None, None)
    try:
        kept = replace_copy(out, copy, source)
    except OSError as exc:
        print(
            "pull: cannot write the copy in %s: %s" % (untrusted.printable(out), exc.strerror or exc),
            file=sys.stderr,
        )
        return 1
    notes = []
    if kept is not None:
        notes.append(
            "the copy it replaced (pulled from %s at %s) is kept in %s"
            % (had or "a place it did not record", had_at or "?", os.path.join(kept, save_store.DATA_DIR))
        )
    elif had == source:
        notes.append("it replaces the copy pulled from there at %s" % (had_at or "?"))
    elif had is not None:
        notes.append("the copy it replaced, pulled from %s at %s, held the same files" % (had, had_at or "?"))
    notes.append(push_note(out))
    found = read_folder(target)
    if args.json:
        print(json.dumps(_jsonable(found), indent=1, sort_keys=True))
        for note in notes:
            print("pull: %s" % untrusted.printable(note), file=sys.stderr)
    else:
        print("copied to %s\n" % untrusted.printable(os.path.abspath(target)))
        print(text_report(found), end="")
        print("\n" + "\n".join(untrusted.printable(note) for note in notes))
    return 0

"""``python -m host_tools pull``: copy the device's saves, records and statistics; print them.

``--port PORT`` copies the device's ``data/`` folder with mpremote (a Pico on USB or the
virtual Pico's pty); ``--dir DIR`` takes it from a flash folder instead (the simulator's
``--flash-dir``). The copy lands in ``--out`` (default ``./device-data``). Files are read
with the firmware's own ``storage`` and ``records`` modules, so the format lives in one
place; ``--json`` prints everything as one JSON object instead of text.
"""
import json
import os
import shutil
import subprocess
import sys

import host_tools

host_tools.use_firmware()

import records  # noqa: E402  (firmware modules, importable after use_firmware)
import records_view  # noqa: E402
import rules  # noqa: E402
import storage  # noqa: E402

KNOWN = ("game", "scores", "stats", "rolls", "zoo_scores", "zoo_stats")  # zoo_*: the kids' card


class PullError(Exception):
    """The copy failed; the message is the one line shown to the user."""


def parse_args(argv):
    parser = host_tools.argument_parser("pull", __doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--port", help="serial port of the device (or the virtual Pico's pty)")
    source.add_argument("--dir", help="a flash folder instead of a device (e.g. the simulator's --flash-dir)")
    parser.add_argument("--out", default="device-data", help="local folder for the copy (default: device-data)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    return parser.parse_args(argv)


def copy_from_port(port, out):
    """Copies ``:data`` from the device into ``out/data``; False when there is none."""
    cmd = host_tools.mpremote_command("connect", port, "fs", "cp", "-r", ":" + storage.DATA_DIR, out + os.sep)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        text = (proc.stderr or proc.stdout).strip()
        if "No such file" in text:
            return False
        raise PullError("mpremote could not copy from %s: %s" % (port, text.splitlines()[-1] if text else "failed"))
    return True


def copy_from_dir(folder, out):
    source = os.path.join(folder, storage.DATA_DIR)
    if not os.path.isdir(source):
        return False
    shutil.copytree(source, os.path.join(out, storage.DATA_DIR), dirs_exist_ok=True)
    return True


def _base_names(folder):
    bases = set()
    for name in os.listdir(folder):
        for suffix in storage.SUFFIXES:
            if name.endswith(suffix):
                bases.add(name[:-len(suffix)])
                break
    return sorted(bases, key=lambda b: (KNOWN.index(b) if b in KNOWN else len(KNOWN), b))


def read_folder(folder):
    """``{base: {"value": ..., "error": reason or None, "kept_aside": [(file, reason)]}}``."""
    found = {}
    for base in _base_names(folder):
        store = storage.Store(os.path.join(folder, base))
        entry = {"value": None, "error": None, "kept_aside": []}
        try:
            entry["value"] = store.load()
        except storage.SaveError as err:
            entry["error"] = err.reason
        for path, reason in store.damaged:
            entry["kept_aside"].append((os.path.basename(path), reason))
        for slot in ("a", "b"):
            bad = "%s.%s.bad" % (base, slot)
            path = os.path.join(folder, bad)
            if os.path.exists(path):
                with open(path, "rb") as f:
                    data = f.read()
                try:
                    storage.unpack(data)
                    reason = "readable"
                except storage.SaveError as err:
                    reason = err.reason
                entry["kept_aside"].append((bad, reason))
        found[base] = entry
    return found


# --- text -----------------------------------------------------------------------------
def _game_lines(value):
    state = value.get("game", value) if isinstance(value, dict) else value
    if not isinstance(state, dict) or "players" not in state:
        return ["  (not a game state) %r" % (value,)]
    lines = []
    phase = {0: "roll-off", 1: "playing", 2: "over"}.get(state.get("phase"), "?")
    try:
        ruleset = rules.ruleset_from_name(state.get("rules"))
    except (ValueError, KeyError, TypeError, AttributeError):
        ruleset = None
    n_boxes = ruleset.n_boxes if ruleset is not None else rules.N_BOXES  # 11 on the Zoo card
    lines.append("  rules %s, %s, round %s of %d" % (state.get("rules"), phase, (state.get("round") or 0) + 1, n_boxes))
    for seat, player in enumerate(state["players"]):
        name, kind, card = player[0], player[1], player[2]
        total = rules.totals(ruleset, card)[4] if ruleset is not None else sum(x for x in card if x > 0)
        filled = sum(1 for x in card[:n_boxes] if x != rules.OPEN)
        mark = ">" if seat == state.get("current") and phase == "playing" else " "
        lines.append("  %s %-8s %-6s %4d points, %2d/%d boxes" % (mark, name, kind, total, filled, n_boxes))
    if phase == "playing" and state.get("rolls"):
        held = state.get("held", 0)
        dice = " ".join(("[%d]" if (held >> i) & 1 else " %d ") % d for i, d in enumerate(state["dice"]))
        lines.append("  dice %s  (roll %d of 3, [ ] held)" % (dice, state["rolls"]))
    for key in sorted(k for k in value if k != "game") if isinstance(value, dict) and "game" in value else ():
        lines.append("  %s: %r" % (key, value[key]))
    return lines


def _scores_lines(scores):
    if not scores:
        return ["  (no high scores yet)"]
    return ["  %2d. %-3s %5d" % (i + 1, entry[1], entry[0]) for i, entry in enumerate(scores)]


def _stats_line(label, entry):
    games, avg_x10, best, yahtzees, bonus_pct = records_view.summary(entry)
    return "  %-8s %5d games  average %4d.%d  best %4d  Yahtzees %3d  upper bonus %3d%%" % (
        label, games, avg_x10 // 10, avg_x10 % 10, best, yahtzees, bonus_pct)


def _stats_lines(stats):
    lines = [_stats_line("all", stats["all"])]
    for name in sorted(stats["names"]):
        lines.append(_stats_line(name, stats["names"][name]))
    return lines


def _rolls_lines(rolls):
    faces = rolls["faces"]
    total = sum(faces)
    lines = ["  face   " + "  ".join("%6d" % f for f in range(1, 7)),
             "  rolls  " + "  ".join("%6d" % n for n in faces)]
    if total:
        lines.append("  share  " + "  ".join("%5.1f%%" % (100.0 * n / total) for n in faces))
    stat, verdict = records_view.chi_square(faces)
    lines.append("  %d dice rolled, chi-square %s (5 d.f.; 11.07 at 5%%, 15.09 at 1%%): %s" % (
        total, records_view.thousandths(stat), records_view.VERDICTS[verdict]))
    return lines


_FORMATTERS = {"game": _game_lines, "scores": _scores_lines, "stats": _stats_lines, "rolls": _rolls_lines,
               "zoo_scores": _scores_lines, "zoo_stats": _stats_lines}
_TITLES = {"game": "Saved game", "scores": "High scores", "stats": "Statistics", "rolls": "Dice fairness",
           "zoo_scores": "Zoo high scores", "zoo_stats": "Zoo statistics"}


def text_report(found):
    lines = []
    for base, entry in found.items():
        lines.append("%s (%s):" % (_TITLES.get(base, base), base))
        if entry["error"]:
            lines.append("  unreadable: %s" % entry["error"])
        elif entry["value"] is None:
            lines.append("  (nothing saved)")
        else:
            formatter = _FORMATTERS.get(base, lambda v: ["  %r" % (v,)])
            try:
                lines.extend(formatter(entry["value"]))
            except (KeyError, IndexError, TypeError, ValueError):
                lines.append("  (unexpected shape) %r" % (entry["value"],))
        for name, reason in entry["kept_aside"]:
            lines.append("  kept aside: %s (%s)" % (name, reason))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _jsonable(value):
    if isinstance(value, (bytes, bytearray)):
        return {"bytes": bytes(value).hex()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def main(argv):
    try:
        args = parse_args(argv)
    except host_tools.UsageError as exc:
        print("pull: %s (see --help)" % exc, file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help
        return 2 if exc.code else 0
    if args.dir is not None and not os.path.isdir(args.dir):
        print("pull: --dir %s is not a folder" % args.dir, file=sys.stderr)
        return 2
    target = os.path.join(args.out, storage.DATA_DIR)
    if args.dir is not None and os.path.realpath(target) == os.path.realpath(os.path.join(args.dir, storage.DATA_DIR)):
        print("pull: --out must not be the flash folder itself", file=sys.stderr)
        return 2
    try:
        os.makedirs(args.out, exist_ok=True)
        if os.path.isdir(target):
            shutil.rmtree(target)  # a fresh copy: files deleted on the device must not linger
        copied = copy_from_port(args.port, args.out) if args.port else copy_from_dir(args.dir, args.out)
    except (PullError, OSError, subprocess.TimeoutExpired) as exc:
        print("pull: %s" % exc, file=sys.stderr)
        return 1
    found = read_folder(target) if copied else {}
    if args.json:
        print(json.dumps(_jsonable(found), indent=1, sort_keys=True))
    elif not found:
        print("nothing saved on the device yet")
    else:
        print("copied to %s\n" % os.path.join(args.out, storage.DATA_DIR))
        print(text_report(found), end="")
    return 0

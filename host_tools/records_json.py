"""``pull``'s JSON: the decoded saves and records of a ``data/`` folder, and back.

One definition for two interpreters: ``python -m host_tools pull --json`` (CPython) and the
web page's download and upload (inside MicroPython's WebAssembly port, host_tools/browser/).
Files are read and written with the firmware's own ``storage`` module, so the byte format
lives in the firmware; this module only says how a decoded value becomes JSON (bytes as
``{"bytes": hex}``) and which stores there are. Plain ``os`` calls only (no ``os.path``),
so it runs on MicroPython too.
"""

import binascii
import os

import save_store

KNOWN = (
    "game",
    "scores",
    "stats",
    "rolls",
    "zoo_scores",
    "zoo_stats",
    "setup",
)  # zoo_*: the kids' card; setup: the menu
# Decoding a damaged frame can fail in the firmware's decoder in these ways (RecursionError
# is RuntimeError on MicroPython).
UNREADABLE = (
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    MemoryError,
    UnicodeError,
    getattr(__import__("builtins"), "RecursionError", RuntimeError),
)


class BadRecords(ValueError):
    """JSON that is not pull's: the message is one line for the player."""


def _is_file(path):
    try:
        return os.stat(path)[0] & 0o170000 == 0o100000
    except OSError:
        return False


def base_names(folder):
    bases = set()
    for name in os.listdir(folder):
        for suffix in save_store.SUFFIXES:
            if name.endswith(suffix):
                bases.add(name[: -len(suffix)])
                break
    return sorted(bases, key=lambda b: (KNOWN.index(b) if b in KNOWN else len(KNOWN), b))


def read_folder(folder):
    """``{base: {"value": ..., "error": reason or None, "kept_aside": [(file, reason)]}}``.

    ``folder`` holds only plain-named regular files (the copy pull made)."""
    found = {}
    for base in base_names(folder):
        store = save_store.Store(folder + "/" + base)
        entry = {"value": None, "error": None, "kept_aside": []}
        try:
            entry["value"] = store.load()
        except save_store.SaveError as err:
            entry["error"] = err.reason
        except UNREADABLE:
            entry["error"] = "unreadable"  # a frame the firmware's decoder cannot take apart
        for path, reason in store.damaged:
            entry["kept_aside"].append((path[path.rfind("/") + 1 :], reason))
        for slot in ("a", "b"):
            bad = "%s.%s.bad" % (base, slot)
            path = folder + "/" + bad
            if _is_file(path):
                with open(path, "rb") as f:
                    data = f.read()
                try:
                    save_store.unpack(data)
                    reason = "readable"
                except save_store.SaveError as err:
                    reason = err.reason
                except UNREADABLE:
                    reason = "unreadable"
                entry["kept_aside"].append((bad, reason))
        found[base] = entry
    return found


def jsonable(value):
    """``value`` with bytes as ``{"bytes": hex}`` and tuples as lists (json.dumps takes it)."""
    if isinstance(value, (bytes, bytearray)):
        return {"bytes": binascii.hexlify(bytes(value)).decode()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return value


def from_jsonable(value):
    """The inverse of ``jsonable`` (lists stay lists: the firmware saves lists)."""
    if isinstance(value, dict):
        if len(value) == 1 and "bytes" in value and isinstance(value["bytes"], str):
            return binascii.unhexlify(value["bytes"])
        return {k: from_jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_jsonable(v) for v in value]
    return value


def values_of(found):
    """{base: value} of pull's JSON object ``found`` for the known stores that hold one;
    BadRecords (nothing written) for anything that is not pull's JSON, one line for each
    store it refuses."""
    if not isinstance(found, dict):
        raise BadRecords("not pull's JSON: expected an object of stores such as \"scores\"")
    values = {}
    problems = []
    for base, entry in found.items():
        if base not in KNOWN:
            problems.append("not pull's JSON: unknown store %r (known: %s)" % (base[:40], ", ".join(KNOWN)))
        elif not isinstance(entry, dict) or "value" not in entry:
            problems.append("not pull's JSON: store %r has no \"value\"" % base)
        elif entry["value"] is not None:
            try:
                values[base] = from_jsonable(entry["value"])
            except UNREADABLE:
                problems.append("%s: its bytes are not hex" % base)
    if problems:
        raise BadRecords("\n".join(problems))
    if not values:
        raise BadRecords("no saves or records in this file")
    return values


class _NoFiles:
    """A filesystem with nothing in it: the record stores are made only for their checks."""

    def open(self, path, mode):
        raise OSError(2)


def store_checks():
    """{store name: its shape check} for every store the firmware keeps in data/: the
    saved game's, the menu's set-up and the records' of every card, taken from the
    firmware itself (push and the web page's upload refuse what these refuse)."""
    import rules
    import save_boot
    import save_records
    from ui import menu

    checks = {"game": save_boot.save_ok, "setup": menu.setup_ok}
    for choice in rules.CHOICES:
        recs = save_records.Records(save_store.DATA_DIR, _NoFiles(), rules.make_ruleset(choice))
        for store in recs.stores.values():
            checks[store.base.rsplit("/", 1)[-1]] = store.check
    return checks


def checked_values(found):
    """``values_of(found)`` when every store passes the firmware's own check for it and
    fits in a save; else BadRecords with one line for each store refused."""
    values = values_of(found)
    checks = store_checks()
    problems = []
    for base in sorted(values):
        check = checks.get(base)
        try:
            ok = check is not None and check(values[base])
        except UNREADABLE:
            ok = False
        if not ok:
            problems.append("%s: not what the game keeps there (its own check refused it)" % base)
            continue
        try:
            save_store.pack(values[base], 1)
        except ValueError:
            problems.append("%s: larger than a save can be" % base)
    if problems:
        raise BadRecords("\n".join(problems))
    return values


def write_folder(folder, values, checks=None):
    """Save each ``{base: value}`` in ``folder`` with the firmware's storage (the folder is
    made when missing); ``checks`` (store_checks) as the firmware's stores have them."""
    checks = checks or {}
    for base, value in values.items():
        save_store.Store(folder + "/" + base, check=checks.get(base)).save(value)

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
    BadRecords (nothing written) for anything that is not pull's JSON."""
    if not isinstance(found, dict):
        raise BadRecords("not pull's JSON: expected an object of stores such as \"scores\"")
    values = {}
    for base, entry in found.items():
        if base not in KNOWN:
            raise BadRecords("not pull's JSON: unknown store %r (known: %s)" % (base, ", ".join(KNOWN)))
        if not isinstance(entry, dict) or "value" not in entry:
            raise BadRecords("not pull's JSON: store %r has no \"value\"" % base)
        if entry["value"] is not None:
            values[base] = from_jsonable(entry["value"])
    if not values:
        raise BadRecords("no saves or records in this file")
    return values


def write_folder(folder, values):
    """Save each ``{base: value}`` in ``folder`` with the firmware's storage (the folder is
    made when missing)."""
    for base, value in values.items():
        save_store.Store(folder + "/" + base).save(value)

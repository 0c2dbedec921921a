"""Clearing the way for saves: damage on the flash moved aside as ``*.bad``.

Part of save_store.py (``Store.repair``, ``Store.set_aside``) kept apart because it runs only
when something is wrong: at boot (session) and after a failed save. Obstacles are things
a save cannot get past: the store's folder being a file or a dangling link, a folder at
the temp file's or a slot's path, a folder where a damaged file should be kept aside. They
are renamed, never deleted, so their contents stay for inspection (``pull``).
"""

from micropython import const

_EEXIST = const(17)
_S_IFDIR = const(0x4000)  # os.stat mode bit of a folder (unix and littlefs alike)
_DEPTH = const(3)  # x.bad, x.bad.bad, ...: how far a chain of obstacles is followed


def is_dir(fs, path):
    """True for a folder, False for a file, None when ``stat`` finds nothing."""
    try:
        return bool(fs.stat(path)[0] & _S_IFDIR)
    except OSError:
        return None


def aside(fs, path, depth=0):
    """Renames ``path`` (file or folder) to ``path + ".bad"``: an earlier damaged file
    there is replaced, a folder there is moved aside first the same way."""
    bad = path + ".bad"
    kind = is_dir(fs, bad)
    if kind:
        if depth >= _DEPTH:
            raise OSError(_EEXIST)
        aside(fs, bad, depth + 1)
    elif kind is not None:
        fs.remove(bad)
    fs.rename(path, bad)
    return bad


def repair(store, create):
    """``Store.repair``: moves what stops ``store`` from saving aside: its folder being a
    file (or, with ``create``, a dangling link: a name ``mkdir`` finds taken), a folder at
    its temp file's or a slot's path. Returns those paths, also added to
    ``store.repaired``; an OSError means the flash refuses even that."""
    fs = store.fs
    moved = []
    if "/" in store.base:
        folder = store.base[: store.base.rfind("/")]
        kind = is_dir(fs, folder)
        if kind is False or (kind is None and create):
            try:
                fs.mkdir(folder)  # absent: the first save makes it
            except OSError as exc:
                if not exc.args or exc.args[0] != _EEXIST:
                    raise
                aside(fs, folder)  # a file, or a dangling link that mkdir finds taken
                moved.append(folder)
                fs.mkdir(folder)
    for path in (store.temp,) + store.slots:
        if is_dir(fs, path):
            aside(fs, path)
            moved.append(path)
    store.repaired.extend(moved)
    return moved

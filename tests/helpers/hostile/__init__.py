"""Hostile devices and damaged flash folders, for testing every host command against them.

A device (or a flash folder) is untrusted input: see "Trust boundaries" in
docs/architecture.md. Two kinds of fixture live here:
- ``lying_device(folder, data=..., quota=...)`` prepares a ``virtual-pico --dir`` folder
  whose ``/boot.py`` (``tests/helpers/hostile/boot.py``) lies about names, sizes and contents;
- the ``*_folder(root)`` builders make crafted flash folders on the host (links out of
  the folder, a device node, a FIFO, a sparse 3 GB file, escape sequences in names, files
  where folders belong and folders where files belong). They are built at test time
  because git cannot hold links to /dev or sparse files.
"""

import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))

ESCAPE_NAMES = ("\x1b]0;PWNED\x07.a", "\x1b[2J.b")  # retitle / clear the user's terminal
SPARSE_SIZE = 3 * 1024**3


def lying_device(folder, data=None, quota=None):
    """Make ``folder`` a virtual Pico flash whose boot.py tells the given lies.

    ``data``: entries ``[name, "file" or "dir", reported_size, content]`` for a fake
    ``/data`` (content: a str, bytes, or ``{"repeat": "x", "count": N}``, -1 = endless);
    ``quota``: bytes the device accepts before writes fail with ENOSPC."""
    os.makedirs(folder, exist_ok=True)
    shutil.copy(os.path.join(HERE, "boot.py"), os.path.join(folder, "boot.py"))
    lies = {}
    if data is not None:
        lies["data"] = [[n, k, size, {"hex": c.hex()} if isinstance(c, bytes) else c] for n, k, size, c in data]
    if quota is not None:
        lies["quota"] = quota
    with open(os.path.join(folder, "hostile.json"), "w") as f:
        json.dump(lies, f)
    return folder


def traversal_entries(absolute_target):
    """``/data`` entries that try to make a copy land outside its folder."""
    return [
        ["../../pwned_rel.txt", "file", 6, "pwned\n"],
        [absolute_target, "file", 6, "pwned\n"],
        ["sub/../../x.a", "file", 6, "pwned\n"],
        ["..", "file", 6, "pwned\n"],
        ["ok\nF\t/main.py\t1\t-", "file", 6, "pwned\n"],
    ]


def links_folder(root, secret):
    """A flash folder whose data/ holds links out of it, a FIFO and a sparse 3 GB file.

    ``secret`` is a host file outside the folder that must never be copied."""
    data = os.path.join(root, "data")
    os.makedirs(data, exist_ok=True)
    os.symlink(secret, os.path.join(data, "zz.a"))
    os.symlink("/dev/zero", os.path.join(data, "game.a.bad"))
    os.mkfifo(os.path.join(data, "stats.a"))
    with open(os.path.join(data, "scores.b"), "wb") as f:
        f.truncate(SPARSE_SIZE)
    for name in ESCAPE_NAMES:
        with open(os.path.join(data, name), "wb") as f:
            f.write(b"YZ")
    os.symlink(os.path.dirname(secret), os.path.join(root, "linked"))
    return root


def data_is_a_file(root):
    """``data`` is a file where the firmware keeps its folder."""
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "data"), "wb") as f:
        f.write(b"not a folder")
    return root


def folders_where_files_go(root):
    """``data/game.tmp`` and ``data/game.a.bad`` are folders (a save and a kept-aside file
    cannot be written), beside an intact high-score file copied from ``scores_from``."""
    data = os.path.join(root, "data")
    os.makedirs(os.path.join(data, "game.tmp"), exist_ok=True)
    os.makedirs(os.path.join(data, "game.a.bad"), exist_ok=True)
    with open(os.path.join(data, "game.a.bad", "inner"), "wb") as f:
        f.write(b"x")
    return root


def run_limited(args, cwd=None, env=None, timeout=60, max_file=16 * 1024 * 1024, max_memory=2 * 1024**3):
    """``python -m host_tools ARGS`` with every file it writes capped at ``max_file``
    bytes, its memory at ``max_memory`` and a timeout: a tool that regresses into copying
    /dev/zero or a 3 GB sparse file, or into reading a FIFO or an endless device file,
    fails the test instead of filling the disk, the memory or hanging."""
    import resource
    import subprocess
    import sys

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_file, max_file))
        resource.setrlimit(resource.RLIMIT_AS, (max_memory, max_memory))

    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(HERE))  # the repository: python -m host_tools
    return subprocess.run(
        [sys.executable, "-m", "host_tools"] + [str(a) for a in args],
        cwd=cwd,
        env=env,
        preexec_fn=limit,
        capture_output=True,
        text=True,
        timeout=timeout,
    )

"""Builds into build/ that two processes may start at once (make test's two workers, two
``make sim``): host_tools.build_lock, the simulator's device tree and the solver's tables."""

import fcntl
import os
import subprocess
import sys
import textwrap

import host_tools
from host_tools.simulator import device_tree

# A child that waits for the go file, so both children start their build at the same moment.
_CHILD = """
import os, sys, time
go = sys.argv[1]
while not os.path.exists(go):
    time.sleep(0.005)
"""


def _run_both(code, folder, go):
    """Two CPython children running ``code`` (after _CHILD, ``folder`` as sys.argv[2]),
    released together; returns their CompletedProcess-like (returncode, stdout, stderr)."""
    script = textwrap.dedent(_CHILD) + textwrap.dedent(code)
    env = dict(os.environ, PYTHONPATH=host_tools.REPO)
    children = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(go), str(folder)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    go.write_text("go")
    done = []
    for child in children:
        out, err = child.communicate(timeout=600)
        done.append((child.returncode, out, err))
    return done


def _held(path):
    """True when another open file description holds the build lock of ``path``."""
    folder, name = os.path.split(os.path.abspath(path))
    fd = os.open(os.path.join(folder, ".%s.lock" % name), os.O_WRONLY | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_a_build_lock_is_held_until_its_block_ends_even_when_it_raises(tmp_path):
    target = tmp_path / "made" / "thing.bin"
    try:
        with host_tools.build_lock(target):
            assert _held(target)  # a second process's lock waits here
            raise KeyError("a failed build")
    except KeyError:
        pass
    assert not _held(target)
    assert os.listdir(tmp_path / "made") == [".thing.bin.lock"]  # nothing else written


def test_two_device_tree_syncs_at_once_both_succeed_and_one_writes_the_tree(tmp_path):
    folder = tmp_path / "sim-code"
    code = """
    from host_tools.simulator import device_tree
    written = []
    real = os.replace
    os.replace = lambda a, b: (written.append(b), real(a, b))[1]  # build/mpy-cache's too
    device_tree.sync(sys.argv[2])
    print("WROTE", len([path for path in written if path.startswith(sys.argv[2])]))
    """
    done = _run_both(code, folder, tmp_path / "go")
    assert [status for status, _out, _err in done] == [0, 0], done
    wanted = device_tree.files()
    # they took turns: the first wrote every file, the second found them made
    counts = sorted(int(out.split("WROTE")[1]) for _status, out, _err in done)
    assert counts == [0, len(wanted)], done
    found = {}
    for top, _dirs, names in os.walk(folder):
        for name in names:
            with open(os.path.join(top, name), "rb") as f:
                found[os.path.relpath(os.path.join(top, name), folder)] = f.read()
    assert found == wanted  # one correct tree, no temp file left


def test_a_killed_syncs_temp_file_is_removed_by_the_next_sync(tmp_path):
    folder = str(tmp_path / "sim-code")
    device_tree.sync(folder)
    stale = os.path.join(folder, "app.mpy.12345.tmp")
    with open(stale, "wb") as out:
        out.write(b"half a file")
    device_tree.sync(folder)
    assert not os.path.exists(stale)


def test_two_table_builds_at_once_solve_once_and_leave_a_whole_table(tmp_path):
    # The Zoo card: under a second to solve, the same code path as build/strategy-forced.bin.
    code = """
    import host_tools
    host_tools.use_firmware()
    import rules
    from host_tools.solver import cache, files
    cache.CACHE = os.path.join(sys.argv[2], "cache")
    zoo = rules.make_ruleset(rules.ZOO)
    print("TABLE", files.ensure_table(zoo, folder=sys.argv[2], prog="sim"))
    print("CACHED", cache.table(zoo, "exact"))
    """
    done = _run_both(code, tmp_path, tmp_path / "go")
    assert [status for status, _out, _err in done] == [0, 0], done
    notes = [err for _status, _out, err in done if "building" in err]
    assert len(notes) == 1, done  # one solved it; the other waited and found it built
    from host_tools.solver import table as solver_table

    for kind in ("TABLE", "CACHED"):
        paths = {out.split(kind)[1].split()[0] for _status, out, _err in done}
        assert len(paths) == 1, done
        with open(paths.pop(), "rb") as f:
            solver_table.verify(f.read())  # whole: size, header and CRC-32
    leftovers = [name for name in os.listdir(tmp_path / "cache") if name.endswith(".tmp")]
    assert leftovers == []

"""``host_tools push``: the README's round trip as written, pull's trust rules applied to
the copy before the device is touched, and a switch that a power cut at any step leaves
with the old ``data/`` or the new one (the device-side scripts run inside MicroPython
on a filesystem that loses power at step N, then the firmware boots on what is left)."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from helpers import hostile
import host_tools
from host_tools import push, uf2 as uf2_command
from host_tools.flashing import virtual_pico
from host_tools.flashing import restore
from host_tools.flashing.build import DeviceFile
from helpers.device_data import device_folder

host_tools.use_firmware()
import save_store  # noqa: E402  (the firmware's own frames)

pytestmark = pytest.mark.slow

README = os.path.join(host_tools.REPO, "README.md")
FLASHING = os.path.join(host_tools.REPO, "docs", "flashing.md")
PULL_PUSH = "## Saves and records on the host: `pull` and `push`"
SHARED_TESTS = os.path.join(host_tools.REPO, "tests", "shared")


def files_of(folder):
    """{name: bytes} of the files in ``folder`` (a data/ folder)."""
    return {name: (folder / name).read_bytes() for name in sorted(os.listdir(folder))}


# --- the round trip, as the README and the uf2 tool say it ------------------------------
def readme_round_trip():
    """The command lines that copy the records off and put them back, from the page the
    README links for them (docs/flashing.md, its pull and push section)."""
    assert "(docs/flashing.md#saves-and-records-on-the-host-pull-and-push)" in open(README, encoding="utf-8").read()
    page = open(FLASHING, encoding="utf-8").read()
    assert PULL_PUSH in page, "docs/flashing.md has no pull and push section"
    section = page.split(PULL_PUSH, 1)[1].split("\n## ", 1)[0]
    for block in re.findall(r"```\n(.*?)```", section, re.S):
        if "host_tools push" in block:
            return [line for line in block.splitlines() if line.strip()]
    pytest.fail("the README's pull and push section shows no push command")


def uf2_round_trip():
    """The commands on the uf2 tool's last line."""
    return re.findall(r"python -m host_tools \w+ --port PORT", uf2_command.RECORDS_NOTE)


@pytest.mark.parametrize("where", ["README", "uf2 last line"])
def test_pull_then_push_as_written_restores_what_was_pulled(tmp_path, where):
    """From a fresh folder, with a fresh HOME, the commands exactly as
    shown (only the port replaced) bring back the records and the saved game."""
    lines = readme_round_trip() if where == "README" else uf2_round_trip()
    assert len(lines) == 2, lines
    assert "host_tools pull" in lines[0], lines
    assert "host_tools push" in lines[1], lines
    port_word = "/dev/ttyACM0" if where == "README" else "PORT"
    assert all(port_word in line for line in lines)
    device = device_folder(tmp_path)
    before = files_of(device / "data")
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    env = dict(
        os.environ,
        HOME=str(home),
        PYTHONPATH=host_tools.REPO,
        PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
    )

    def run(line, port):
        proc = subprocess.run(
            ["bash", "-c", line.replace(port_word, port)],
            cwd=str(work),
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, (line, proc.stdout, proc.stderr)
        return proc

    with virtual_pico.running(device) as port:
        run(lines[0], port)
    shutil.rmtree(device / "data")  # the install replaces the whole filesystem
    with virtual_pico.running(device) as port:
        said = run(lines[1], port).stdout
    assert files_of(device / "data") == before
    assert said.startswith("push: done on ")
    assert "the game restarts with them" in said
    assert os.listdir(work) == []  # nothing lands in the folder the commands ran from
    assert sorted(os.listdir(device)) == ["data"]  # no staging folder left behind


def test_push_without_a_copy_says_how_the_copy_is_made(tmp_path):
    env = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=host_tools.REPO)
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "push", "--port", str(tmp_path / "unplugged")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (
        "push: no copy in %s (no data/ folder): push puts back what python -m host_tools pull "
        "--port PORT copied from the device before the install (--from DIR if that pull had --out DIR)\n"
        % (tmp_path / ".local" / "share" / "pico-yahtzee" / "pulled")
    )


# --- the copy is untrusted: refused whole, before the device is touched -----------------
def _junk_game(data):
    (data / "game.a").write_bytes(b"")


def _link_to_a_host_file(data):
    secret = data.parent.parent / "secret.txt"
    secret.write_bytes(save_store.pack([], 1))  # even an intact frame: never through a link
    os.remove(data / "scores.a")
    os.symlink(secret, data / "scores.a")


def _data_is_a_link(data):
    real = data.parent.parent / "elsewhere"
    shutil.move(str(data), str(real))
    os.symlink(real, data)


def _sparse(data):
    with open(data / "scores.b", "wb") as f:
        f.truncate(hostile.SPARSE_SIZE)


def _fifo(data):
    os.mkfifo(str(data / "stats.b"))


def _newline_name(data):
    (data / "game\n.b").write_bytes(save_store.pack([], 1))


def _escape_name(data):
    (data / hostile.ESCAPE_NAMES[1]).write_bytes(save_store.pack([], 1))


def _not_utf8_name(data):
    with open(os.path.join(os.fsencode(data), b"sc\xffores.b"), "wb") as f:
        f.write(save_store.pack([], 1))


def _wrong_shape(data):
    (data / "scores.b").write_bytes(save_store.pack("not a list of scores", 9))


def _game_that_cannot_resume(data):
    (data / "game.b").write_bytes(save_store.pack({"id": 5, "seed": [1, 0], "counts": [0] * 6, "game": {}}, 9))


def _too_big_for_the_firmware(data):
    (data / "stats.b").write_bytes(save_store.pack("x", 1)[:12] + b"x" * 17000)


def _unknown_file(data):
    (data / "notes.txt").write_text("hello")


def _a_folder(data):
    (data / "rolls.b").mkdir()


BAD_COPIES = [
    ("an empty game.a", _junk_game, "game.a: not an intact save of the game (truncated)"),
    ("a link to a host file", _link_to_a_host_file, "scores.a: a link"),
    ("data/ a link", _data_is_a_link, "data is a link; push reads only the folder pull made"),
    ("a 3 GB sparse file", _sparse, "scores.b: larger than 64 KiB"),
    ("a FIFO", _fifo, "stats.b: not a regular file"),
    ("a newline in a name", _newline_name, "game\\n.b: control characters in the name"),
    ("an escape in a name", _escape_name, "\\x1b[2J.b: control characters in the name"),
    ("a name not UTF-8", _not_utf8_name, "sc\\xffores.b: not UTF-8"),
    ("an intact frame of the wrong shape", _wrong_shape, "scores.b: not an intact save of the game (bad contents)"),
    (
        "a game the firmware cannot resume",
        _game_that_cannot_resume,
        "game.b: not an intact save of the game (bad contents)",
    ),
    (
        "a frame over the firmware's 16 KiB",
        _too_big_for_the_firmware,
        "stats.b: not an intact save of the game (corrupt)",
    ),
    ("a file the game does not keep", _unknown_file, "notes.txt: not a file the game keeps in data/"),
    ("a folder", _a_folder, "rolls.b: a folder"),
]


@pytest.fixture(scope="module")
def pulled(tmp_path_factory):
    """A device with a game under way and records, its port, and a good pull copy."""
    root = tmp_path_factory.mktemp("push")
    device = device_folder(root)
    good = root / "good"
    shutil.copytree(device / "data", good / "data")
    with virtual_pico.running(device) as port:
        yield device, port, good


@pytest.mark.parametrize("case", BAD_COPIES, ids=[c[0] for c in BAD_COPIES])
def test_a_bad_copy_is_refused_whole_before_the_device_is_touched(pulled, tmp_path, case):
    """One line, exit 2, nothing on stdout, the device's data/ as it was."""
    device, port, good = pulled
    _name, spoil, message = case
    copy = tmp_path / "copy"
    shutil.copytree(good / "data", copy / "data")
    spoil(copy / "data")
    before = files_of(device / "data")
    proc = hostile.run_limited(["push", "--port", port, "--from", copy], timeout=60)
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.endswith("; nothing was changed\n"), proc.stderr
    assert message in proc.stderr, proc.stderr
    assert all(ch.isprintable() for ch in proc.stderr[:-1])
    assert files_of(device / "data") == before
    assert sorted(os.listdir(device)) == ["data"]


def test_an_unreadable_file_is_refused(tmp_path, monkeypatch, capsys):
    copy = device_folder(tmp_path)
    real_open = os.open

    def denied(path, flags, *args):
        if str(path).endswith("rolls.a"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", denied)  # root reads any file: the refusal is simulated
    assert push.main(["--port", str(tmp_path / "unplugged"), "--from", str(copy)]) == 2
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err == "push: %s: unreadable (Permission denied); nothing was changed\n" % (copy / "data" / "rolls.a")


def test_a_save_cut_short_is_left_out_and_damaged_copies_kept_aside_go_back(tmp_path):
    """game.tmp (a save a cut stopped) is never read by the game; *.bad files are what the
    firmware kept aside for inspection: they go back as they are."""
    device = device_folder(tmp_path)
    copy = tmp_path / "copy"
    shutil.copytree(device / "data", copy / "data")
    (copy / "data" / "game.tmp").write_bytes(b"YZ\x01half")
    (copy / "data" / "stats.b.bad").write_bytes(b"YZ\x01junk")
    shutil.rmtree(device / "data")
    with virtual_pico.running(device) as port:
        proc = hostile.run_limited(["push", "--port", port, "--from", copy])
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "push: left out game.tmp: a save cut short, which the game never reads\n"
    expected = files_of(copy / "data")
    del expected["game.tmp"]
    assert files_of(device / "data") == expected


def test_a_full_device_is_one_line_and_keeps_its_data(tmp_path):
    """ENOSPC while the copy is written (the device reported room): exit 1, one line, the
    device's own data/ untouched and the half-written copy removed."""
    device = device_folder(tmp_path)
    copy = tmp_path / "copy"
    shutil.copytree(device / "data", copy / "data")
    (copy / "data" / "scores.a").write_bytes(save_store.pack([[200, "BOB", 3, 0]], 4))
    hostile.lying_device(str(device), quota=300)
    before = files_of(device / "data")
    with virtual_pico.running(device) as port:
        proc = hostile.run_limited(["push", "--port", port, "--from", copy])
    assert (proc.returncode, proc.stdout) == (1, ""), proc.stderr
    assert proc.stderr.startswith("push: the device is full: the copy did not fit although it reported ")
    assert proc.stderr.endswith(" KiB free; nothing was changed\n")
    assert proc.stderr.count("\n") == 1
    assert files_of(device / "data") == before
    assert sorted(os.listdir(device)) == ["boot.py", "data", "hostile.json"]


# --- power cuts during the switch ---------------------------------------------------------
# Runs inside MicroPython: the push's device-side scripts, in order, on tests/shared's
# FakeFs (every change is a step; the power goes at step N), then the firmware's boot
# (save_boot.finish_push) on what the cut left, then a second push without a cut.
CUTS = r"""
import binascii, json, sys
from fake_fs import FakeFs, PowerCut
import save_boot


class _File:
    # One step per write call: each staged chunk is one write, as on the device.
    def __init__(self, fs, path):
        self.fs = fs
        self.path = path

    def write(self, data):
        self.fs.step()
        self.fs.files[self.path].extend(data)
        return len(data)

    def close(self):
        self.fs.step()


class Fs(FakeFs):
    # FakeFs with what the push scripts also use: listing and removing folders.
    def open(self, path, mode):
        if "w" not in mode:
            return FakeFs.open(self, path, mode)
        self._check_folder(path)
        self.step()
        self.files[path] = bytearray()
        return _File(self, path)

    def ilistdir(self, path):
        if path not in self.dirs:
            raise OSError(20 if path in self.files else 2)
        found = []
        for p in self.files:
            if self._folder(p) == path:
                found.append((p[len(path) + 1:], 0x8000, 0, len(self.files[p])))
        for d in self.dirs:
            if d and self._folder(d) == path:
                found.append((d[len(path) + 1:], 0x4000, 0, 0))
        return iter(found)

    def rmdir(self, path):
        if path not in self.dirs:
            raise OSError(2)
        if any(self._folder(p) == path for p in list(self.files) + self.dirs if p):
            raise OSError(39)  # ENOTEMPTY
        self.step()
        self.dirs.remove(path)

    def reboot(self):
        return Fs({p: bytearray(d) for p, d in self.files.items()}, list(self.dirs))


def run(fs, steps):
    real = sys.modules.get("os")
    sys.modules["os"] = fs
    scope = {"open": fs.open, "print": lambda *a: None}  # one REPL: globals persist
    try:
        for code in steps:
            exec(code, scope)
    except PowerCut:
        return False
    finally:
        if real is not None:
            sys.modules["os"] = real
        else:
            del sys.modules["os"]
    return True


def outcome(fs):
    return {p: binascii.hexlify(bytes(d)).decode() for p, d in fs.files.items()}


plan = json.load(open(sys.argv[1]))
def fresh():
    return Fs({p: bytearray(binascii.unhexlify(h)) for p, h in plan["files"].items()}, list(plan["dirs"]))

cut = 0
while True:
    fs = fresh()
    fs.cut_at = cut
    done = run(fs, plan["steps"])
    booted = fs.reboot()
    save_boot.finish_push("data", booted)  # the firmware's first act at power-on
    after = outcome(booted)
    again = booted.reboot()
    run(again, plan["steps"])  # the next push, from whatever was left
    print(json.dumps({"cut": cut, "done": done, "after": after, "again": outcome(again), "dirs": sorted(again.dirs)}))
    if done:
        break
    cut += 1
"""


def _cut_plan(tmp_path, old_files, old_dirs, new_files):
    files = [DeviceFile("/data/" + name, data) for name, data in sorted(new_files.items())]
    plan = {
        "files": {p: d.hex() for p, d in old_files.items()},
        "dirs": old_dirs,
        "steps": [code for _step, code in restore.program(files)],
    }
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan))
    return path


def _run_cuts(path):
    proc = host_tools.run_micropython([str(path.parent / "cuts.py"), str(path)], extra_path=[SHARED_TESTS])
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


OLD = {
    "data/game.a": b"old game a",
    "data/game.b": b"old game b (newer)",
    "data/scores.a": b"old scores",
    "data/stats.a.bad": b"kept aside",
    "data/game.tmp.bad/inner": b"a folder moved aside",
    "main.py": b"the game",
}
NEW = {"game.a": b"new game", "scores.a": b"new scores a", "scores.b": b"new scores b", "rolls.a": b"new rolls"}


@pytest.mark.parametrize("had_data", [True, False], ids=["over old data", "on a fresh install"])
def test_a_power_cut_at_any_step_of_a_push_leaves_the_old_data_or_the_new(tmp_path, had_data):
    """For every step N of the push's device-side scripts, a cut at N
    and a boot leave data/ exactly as it was or exactly the copy; the next push then
    completes and leaves no staging folder."""
    (tmp_path / "cuts.py").write_text(CUTS)
    old = {p: d for p, d in OLD.items() if had_data or not p.startswith("data")}
    dirs = ["", "data", "data/game.tmp.bad"] if had_data else [""]
    results = _run_cuts(_cut_plan(tmp_path, old, dirs, NEW))
    old_data = {p: d.hex() for p, d in old.items()}
    new_data = dict({"data/" + n: d.hex() for n, d in NEW.items()}, **{"main.py": OLD["main.py"].hex()})
    seen = set()
    for result in results:
        after = {p: h for p, h in result["after"].items() if p.startswith("data/") or p == "main.py"}
        assert after in (old_data, new_data), result["cut"]
        seen.add("old" if after == old_data else "new")
        assert result["again"] == new_data, result["cut"]
        assert result["dirs"] == ["", "data"], result["cut"]
    assert results[-1]["done"]
    assert seen == {"old", "new"}
    assert len(results) > 2 * len(NEW) + 6  # every write, rename and removal was a cut point


def test_the_firmware_finishes_a_switch_a_cut_stopped_between_its_renames(tmp_path):
    """The one state without data/ (renamed away, the copy not yet in): the boot's first
    act puts the copy in; everywhere else it changes nothing (inside MicroPython)."""
    flash = tmp_path / "flash"
    (flash / "data.pushold").mkdir(parents=True)
    (flash / "data.pushold" / "game.a").write_bytes(b"old")
    (flash / "data.pushed").mkdir()
    (flash / "data.pushed" / "game.a").write_bytes(b"new")
    code = (
        "import os, save_boot\nos.chdir(%r)\nprint(save_boot.finish_push('data'))\nprint(save_boot.finish_push('data'))\n"
        "print(open('data/game.a').read())" % str(flash)
    )
    proc = host_tools.run_micropython(["-c", code])
    assert proc.stdout.split() == ["True", "False", "new"], proc.stderr


def test_the_game_boots_with_the_copy_a_cut_left_waiting(tmp_path):
    """The same state in the headless simulator (the real firmware): the boot puts the
    copy in before it reads the saved game, and offers to continue it."""
    from host_tools.simulator import golden as sim_golden
    from host_tools.simulator.screen import screen_lines
    from helpers.sim_helpers import play, saved

    play(tmp_path, sim_golden.SOLO + " space wait:500", seed=4)  # a game under way, saved
    game = saved(tmp_path)
    assert game is not None
    os.rename(str(tmp_path / "data"), str(tmp_path / "data.pushed"))  # cut between the renames
    (tmp_path / "data.pushold").mkdir()
    (tmp_path / "data.pushold" / "game.a").write_bytes(b"the old data")
    lines = screen_lines(play(tmp_path, "", seed=4).oled_pixels())
    assert lines[0] == "Saved game", lines
    assert "Continue" in " ".join(lines), lines
    assert saved(tmp_path) == game
    assert not (tmp_path / "data.pushed").exists()


def test_the_menus_set_up_goes_back_with_the_saves_and_a_damaged_one_does_not(tmp_path):
    """Every store the firmware keeps in data/ is one push takes: the menu's set-up too
    (checked by the menu's own shape check)."""
    import save_store
    from ui import menu

    from host_tools.flashing import restore

    settings = menu.Settings({})
    good = save_store.pack(settings.saved(), 1)
    assert restore.save_problem("setup.a", good, restore.store_checks()) is None
    bad = save_store.pack({"kinds": ["robot"]}, 1)
    assert "bad contents" in restore.save_problem("setup.a", bad, restore.store_checks())

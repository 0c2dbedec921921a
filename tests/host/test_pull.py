"""``host_tools pull``: files written by the firmware inside real MicroPython are copied
(from a folder, and through the raw REPL from the virtual Pico) and printed readably; a
hostile device or a crafted flash folder (tests/helpers/hostile) cannot make it write, read or
print outside what the user asked for."""

import json
import os
import pathlib
import subprocess
import sys
import pytest

from helpers import hostile
from helpers.device_data import device_folder
import host_tools
from host_tools import pull
from host_tools.flashing import virtual_pico

pytestmark = pytest.mark.slow


def test_pull_from_a_flash_folder_prints_everything(tmp_path, capsys):
    flash = device_folder(tmp_path)
    (flash / "data" / "stats.b.bad").write_bytes(b"YZ\x01junk")
    out = tmp_path / "copy"
    assert pull.main(["--dir", str(flash), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert sorted(os.listdir(out / "data")) == sorted(os.listdir(flash / "data"))
    assert "playing, round 1 of 13, ANN's turn" in text
    assert "CPU" in text
    assert " 1. ANN   285" in text
    assert "1 game    average  285.0" in text
    assert "upper bonus in 100%" in text
    assert "  1 game played\n  all      2 results" in text  # games apart from results
    # 600 dice, 130/70/100...: chi-square = (30**2 + 30**2) / 100 = 18.00
    assert "600 dice rolled, chi-square 18.00" in text
    assert "Unfair dice!" in text
    assert "kept aside: stats.b.bad (truncated)" in text


def test_pull_json_has_the_values(tmp_path, capsys):
    flash = device_folder(tmp_path)
    assert pull.main(["--dir", str(flash), "--out", str(tmp_path / "copy"), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["scores"]["value"] == [[285, "ANN", 5, 0]]
    assert found["rolls"]["value"]["faces"] == [130, 70, 100, 100, 100, 100]
    assert found["game"]["value"]["game"]["players"][0][0] == "ANN"
    assert found["stats"]["error"] is None


def test_a_corrupt_save_is_reported_not_fatal(tmp_path, capsys):
    flash = device_folder(tmp_path)
    data = bytearray((flash / "data" / "game.a").read_bytes())
    data[20] ^= 0xFF
    (flash / "data" / "game.a").write_bytes(bytes(data))
    assert pull.main(["--dir", str(flash), "--out", str(tmp_path / "copy")]) == 0
    text = capsys.readouterr().out
    assert "Saved game:\n  unreadable: corrupt" in text
    assert "1. ANN   285" in text  # the other files are unaffected


def test_nothing_saved_yet(tmp_path, capsys):
    (tmp_path / "flash").mkdir()
    assert pull.main(["--dir", str(tmp_path / "flash"), "--out", str(tmp_path / "copy")]) == 0
    assert "nothing saved" in capsys.readouterr().out


def test_bad_arguments_exit_2_with_one_line(tmp_path, capsys):
    assert pull.main([]) == 2
    assert pull.main(["--dir", "x", "--port", "y"]) == 2
    capsys.readouterr()
    assert pull.main(["--dir", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "not a folder" in err
    (tmp_path / "data").mkdir()
    assert pull.main(["--dir", str(tmp_path), "--out", str(tmp_path)]) == 2


def test_unreachable_port_exits_1(tmp_path, capsys):
    assert pull.main(["--port", str(tmp_path / "no-such-port"), "--out", str(tmp_path / "copy")]) == 1
    err = capsys.readouterr().err
    assert err == "pull: port %s does not exist (unplugged?)\n" % (tmp_path / "no-such-port")


def test_pull_through_mpremote_from_the_virtual_pico(tmp_path, capsys):
    flash = device_folder(tmp_path)
    out = tmp_path / "copy"
    with virtual_pico.running(flash) as port:
        assert pull.main(["--port", port, "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert sorted(os.listdir(out / "data")) == sorted(os.listdir(flash / "data"))
    for name in os.listdir(flash / "data"):
        assert (out / "data" / name).read_bytes() == (flash / "data" / name).read_bytes()
    assert " 1. ANN   285" in text
    assert "ANN's turn" in text


def test_the_report_reads_like_the_game_not_like_its_internals(tmp_path, capsys):
    flash = device_folder(tmp_path)
    assert pull.main(["--dir", str(flash), "--out", str(tmp_path / "copy")]) == 0
    text = capsys.readouterr().out
    for internal in ("seed:", "counts:", "id:", "coach:", "1 games", "(game)", "(scores)"):
        assert internal not in text
    assert "ANN      human" in text
    assert "computer (hard)" in text
    assert "1 Yahtzee " in text


def test_the_default_copy_goes_to_the_data_folder_and_says_where(tmp_path):
    """The README's command, run as shown: the copy lands beside the simulator's flash."""
    home = tmp_path / "home"
    flash = device_folder(home / ".local" / "share" / "pico-yahtzee")
    work = tmp_path / "work"
    work.mkdir()
    env = dict(os.environ, HOME=str(home), PYTHONPATH=host_tools.REPO)
    proc = subprocess.run(
        ["bash", "-c", "%s -m host_tools pull --dir ~/.local/share/pico-yahtzee/flash" % sys.executable],
        cwd=str(work),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    where = home / ".local" / "share" / "pico-yahtzee" / "pulled" / "data"
    assert proc.stdout.splitlines()[0] == "copied to %s" % where
    assert sorted(os.listdir(where)) == sorted(os.listdir(flash / "data"))
    assert os.listdir(work) == []


def _no_escape_characters(text):
    return not any(ord(ch) < 32 and ch != "\n" for ch in text)


def test_a_lying_device_gets_only_plain_names_copied_and_printed_escaped(tmp_path):
    """Names with paths, links or escape sequences; sizes that lie."""
    flash = device_folder(tmp_path)
    scores = (flash / "data" / "scores.a").read_bytes()
    outside = tmp_path / "pwned_abs.txt"
    entries = hostile.traversal_entries(str(outside)) + [
        ["scores.a", "file", len(scores), scores],
        [hostile.ESCAPE_NAMES[0], "file", 2, "YZ"],
        ["game.a", "file", 10, {"repeat": "ab", "count": -1}],  # says 10 bytes, never ends
        ["stats.a", "file", 3 * 1024**3, "x"],
        ["rolls.a", "dir", 0, ""],
        ["x" * 65, "file", 1, "x"],
        ["stats.b", "broken", 5, ""],
    ]
    device = hostile.lying_device(tmp_path / "device", data=entries)
    out = tmp_path / "a" / "b" / "copy"
    with virtual_pico.running(device) as port:
        proc = hostile.run_limited(["pull", "--port", port, "--out", out])
    assert proc.returncode == 0, proc.stderr
    assert os.listdir(out / "data") == ["scores.a"]
    assert (out / "data" / "scores.a").read_bytes() == scores
    assert not outside.exists()
    assert not (tmp_path / "a" / "pwned_rel.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "device", "flash", "writer.py"]
    assert " 1. ANN   285" in proc.stdout
    skipped = proc.stderr.splitlines()
    assert "pull: skipped ../../pwned_rel.txt: not a plain name (a path)" in skipped
    assert "pull: skipped %s: not a plain name (a path)" % outside in skipped
    assert "pull: skipped ..: not a file name" in skipped
    assert "pull: skipped ok\\nF\\t/main.py\\t1\\t-: not a plain name (a path)" in skipped
    assert "pull: skipped \\x1b]0;PWNED\\x07.a: control characters in the name" in skipped
    assert "pull: skipped %s: longer than 64 characters" % ("x" * 65) in skipped
    assert "pull: skipped game.a: larger than 64 KiB" in skipped
    assert "pull: skipped stats.a: larger than 64 KiB" in skipped
    assert "pull: skipped rolls.a: a folder" in skipped
    assert (
        "pull: skipped stats.b: unreadable on the device (the device reported an error: OSError: [Errno 5] EIO)"
        in skipped
    )
    assert _no_escape_characters(proc.stdout + proc.stderr)


def test_a_crafted_flash_folder_is_copied_without_following_links(tmp_path):
    """Links out of the folder, /dev/zero, a FIFO, a sparse 3 GB file."""
    secret = tmp_path / "secret.txt"
    secret.write_text("the host's secret")
    flash = hostile.links_folder(str(tmp_path / "flash"), str(secret))
    good = device_folder(tmp_path / "good")
    (tmp_path / "flash" / "data" / "scores.a").write_bytes((good / "data" / "scores.a").read_bytes())
    out = tmp_path / "copy"
    proc = hostile.run_limited(["pull", "--dir", flash, "--out", out])
    assert proc.returncode == 0, proc.stderr
    assert os.listdir(out / "data") == ["scores.a"]
    assert " 1. ANN   285" in proc.stdout
    skipped = proc.stderr.splitlines()
    assert "pull: skipped zz.a: a link" in skipped
    assert "pull: skipped game.a.bad: a link" in skipped
    assert "pull: skipped stats.a: not a regular file" in skipped
    assert "pull: skipped scores.b: larger than 64 KiB" in skipped
    assert "pull: skipped \\x1b[2J.b: control characters in the name" in skipped
    assert len(skipped) == 6
    assert _no_escape_characters(proc.stdout + proc.stderr)


def test_a_damaged_flash_folder_is_reported_not_a_traceback(tmp_path):
    """The flash's data is a file; data/game.tmp and data/game.a.bad are folders."""
    flash = hostile.data_is_a_file(str(tmp_path / "file"))
    proc = hostile.run_limited(["pull", "--dir", flash, "--out", tmp_path / "copy"])
    assert (proc.returncode, proc.stderr, proc.stdout) == (
        0,
        "pull: skipped data: not a folder\n",
        "nothing saved on the device yet\n",
    )
    flash = hostile.folders_where_files_go(str(device_folder(tmp_path / "folders")))
    proc = hostile.run_limited(["pull", "--dir", flash, "--out", tmp_path / "copy"])
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == ["pull: skipped game.a.bad: a folder", "pull: skipped game.tmp: a folder"]
    assert " 1. ANN   285" in proc.stdout


def test_out_is_checked_before_anything_is_read(tmp_path, capsys):
    flash = device_folder(tmp_path)
    (tmp_path / "file").write_text("x")
    for out, words in (
        (tmp_path / "file", "is not a folder"),
        (flash / "data" / "sub", "must be outside the flash folder"),
        (flash, "must be outside the flash folder"),
        ("", "--out is empty"),
    ):
        assert pull.main(["--dir", str(flash), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        assert words in err, err
    assert not (flash / "data" / "sub").exists()


def test_a_device_whose_data_is_a_file_says_so(tmp_path):
    device = hostile.data_is_a_file(str(tmp_path / "device"))
    with virtual_pico.running(device) as port:
        proc = hostile.run_limited(["pull", "--port", port, "--out", tmp_path / "copy"])
    assert (proc.returncode, proc.stderr, proc.stdout) == (
        0,
        "pull: skipped data: not a folder\n",
        "nothing saved on the device yet\n",
    )


def test_a_data_folder_pull_did_not_make_is_never_replaced(tmp_path, capsys):
    """``--out ~`` must not delete ~/data: only a copy pull made is replaced."""
    flash = device_folder(tmp_path)
    home = tmp_path / "home"
    (home / "data").mkdir(parents=True)
    (home / "data" / "thesis.txt").write_text("mine")
    assert pull.main(["--dir", str(flash), "--out", str(home)]) == 2
    err = capsys.readouterr().err
    assert err == "pull: --out %s already holds a data folder that pull did not make; pick another --out\n" % home
    assert (home / "data" / "thesis.txt").read_text() == "mine"
    copy = tmp_path / "copy"
    assert pull.main(["--dir", str(flash), "--out", str(copy)]) == 0
    (flash / "data" / "rolls.a").unlink()
    assert pull.main(["--dir", str(flash), "--out", str(copy), "--replace"]) == 0  # again: a fresh copy
    assert sorted(os.listdir(copy / "data")) == sorted(os.listdir(flash / "data"))


def test_the_whole_copy_is_capped_too(tmp_path):
    from host_tools.flashing import untrusted

    data = tmp_path / "flash" / "data"
    data.mkdir(parents=True)
    for i in range(17):  # 17 x 64 KiB: one more than 1 MiB holds
        (data / ("f%02d.a" % i)).write_bytes(b"x" * untrusted.MAX_FILE)
    copy = untrusted.read_folder(str(tmp_path / "flash"), "data")
    assert len(copy.files) == 16
    assert copy.total == untrusted.MAX_TOTAL
    assert copy.skipped == [("f16.a", "over the 1024 KiB limit for the whole copy")]


ZOO_WRITER = r"""
import os, sys
os.chdir(sys.argv[1])
import game, save_records, rules, save_store
from game_dice import DiceSource
zoo = rules.make_ruleset("zoo")
dice = DiceSource(seed=8)
g = game.Game(zoo, [("KID", "human")], dice)
g.roll()
g.score(10)
g.roll()
save_store.Store("data/game").save({"id": 7, "seed": dice.position(), "counts": [0, 0, 1, 1, 0, 0], "game": g.to_state()})
r = save_records.Records(ruleset=zoo)
r.load()
card = [5, 3, 3, 3, 3, 1, 10, 15, 15, 20, 30, 0]
r.finish_game(3, [("KID", 128, card)], [10, 10, 10, 10, 10, 10])
r.add_high_score(128, "KID", 3, 0)
print("written")
"""


def test_pull_shows_a_zoo_game_and_the_zoo_records(tmp_path, capsys):
    flash = tmp_path / "flash"
    flash.mkdir()
    script = tmp_path / "zoo_writer.py"
    script.write_text(ZOO_WRITER)
    proc = host_tools.run_micropython([str(script), str(flash)])
    assert proc.stdout.strip() == "written", proc.stderr
    assert pull.main(["--dir", str(flash), "--out", str(tmp_path / "copy")]) == 0
    text = capsys.readouterr().out
    assert "  playing, round 2 of 11, KID's turn" in text
    assert " 1 of 11 boxes filled" in text
    assert "Zoo high scores:\n   1. KID   128" in text
    assert "Zoo statistics:\n  1 game played\n  all      1 result" in text
    assert "best  128  1 Yahtzee" in text
    assert "upper bonus in 100%" in text


def _files(folder):
    return {name: (folder / name).read_bytes() for name in os.listdir(folder)}


def test_a_pull_from_a_device_with_nothing_saved_keeps_the_previous_copy(tmp_path, capsys):
    """The second pull (from the freshly erased device) must not delete
    the only backup."""
    flash = device_folder(tmp_path)
    copy = tmp_path / "copy"
    assert pull.main(["--dir", str(flash), "--out", str(copy)]) == 0
    backup = _files(copy / "data")
    capsys.readouterr()
    erased = tmp_path / "erased"
    erased.mkdir()
    with virtual_pico.running(erased) as port:
        assert pull.main(["--port", port, "--out", str(copy)]) == 0
    said = capsys.readouterr()
    assert said.out == "nothing saved on the device yet; the copy in %s is left as it was\n" % (copy / "data")
    assert said.err == ""
    assert _files(copy / "data") == backup
    (erased / "data").mkdir()  # a data/ folder with nothing in it: nothing to copy either
    assert pull.main(["--dir", str(erased), "--out", str(copy)]) == 0
    assert _files(copy / "data") == backup


def test_a_copy_is_replaced_by_one_lacking_some_of_its_files_only_when_told(tmp_path, capsys):
    flash = device_folder(tmp_path)
    copy = tmp_path / "copy"
    assert pull.main(["--dir", str(flash), "--out", str(copy)]) == 0
    backup = _files(copy / "data")
    capsys.readouterr()
    for name in os.listdir(flash / "data"):  # a new install that played one roll: only game
        if not name.startswith("game."):
            (flash / "data" / name).unlink()
    assert pull.main(["--dir", str(flash), "--out", str(copy)]) == 2
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err.count("\n") == 1
    assert (
        "holds scores, stats, rolls, which the device does not have; it is left as it was (--replace replaces it)"
        in said.err
    )
    assert _files(copy / "data") == backup
    assert pull.main(["--dir", str(flash), "--out", str(copy), "--replace"]) == 0
    assert _files(copy / "data") == _files(flash / "data")
    assert sorted(os.listdir(copy)) == [".pico-yahtzee-pull", "data"]  # no temporary folder left


def test_the_menu_set_up_is_shown_in_words(tmp_path, capsys):
    """pull printed the saved menu set-up as a raw Python dict."""
    import save_store

    flash = device_folder(tmp_path)
    setup = {"players": 2, "kinds": ["human", "good", "human", "human"], "rules": "forced", "ybonus": 1}
    setup.update({"coach": 1, "sound": 0, "leds": 8})
    save_store.Store(str(flash / "data" / "setup")).save(setup)
    assert pull.main(["--dir", str(flash), "--out", str(tmp_path / "copy")]) == 0
    text = capsys.readouterr().out
    shown = text.split("Menu set-up:\n")[1].split("\n\n")[0].rstrip("\n")
    assert shown == (
        "  2 players: P1 Human, P2 CPU good\n"
        "  rules: joker rule forced, Yahtzee bonus on\n"
        "  coach: hints; sound off; dice brightness 8 of 15"
    )


def _other_device(tmp_path):
    """A second device's flash folder: the same stores, but its high score is SIM's 12."""
    import save_store

    other = device_folder(tmp_path / "other")
    store = save_store.Store(str(other / "data" / "scores"))
    store.clear()
    store.save([[12, "SIM", 1, 0]])
    return other


def test_only_a_pull_meant_as_a_backup_replaces_the_copy_push_restores(tmp_path, capsys, monkeypatch):
    """A device's copy in pull's default folder (what a plain push puts back); then a pull
    run only to look at another folder (``--dir OTHER --json``) once replaced it without a
    word: the device's "ANN 285" became "SIM 12". Now a JSON look without ``--out`` keeps
    no copy and says which copy push will use; a pull meant as a backup from elsewhere
    keeps the earlier copy aside and says where, and a pull from the same place replaces
    it, saying so."""
    monkeypatch.setattr(pull, "DEFAULT_OUT", str(tmp_path / "pulled"))
    device = device_folder(tmp_path / "device")
    default = tmp_path / "pulled" / "data"
    assert pull.main(["--dir", str(device)]) == 0
    said = capsys.readouterr().out
    assert said.rstrip().endswith("push puts this copy back (python -m host_tools push --port PORT)")
    backup = _files(default)
    other = _other_device(tmp_path)

    assert pull.main(["--dir", str(other), "--json"]) == 0  # a look
    said = capsys.readouterr()
    assert json.loads(said.out)["scores"]["value"] == [[12, "SIM", 1, 0]]
    assert _files(default) == backup
    assert said.err.count("\n") == 1
    assert "nothing is copied" in said.err
    assert "a plain push puts back the copy in %s (pulled from the folder %s at " % (default, device) in said.err

    assert pull.main(["--dir", str(other)]) == 0  # a backup of the other device
    said = capsys.readouterr().out
    assert " 1. SIM    12" in said
    kept = [line for line in said.splitlines() if line.startswith("the copy it replaced (pulled from the folder")]
    assert len(kept) == 1, said
    earlier = kept[0].rsplit(" is kept in ", 1)[1]
    assert _files(pathlib.Path(earlier)) == backup  # the device's copy, whole
    assert earlier.startswith(str(tmp_path / "pulled" / "earlier") + os.sep)
    assert said.rstrip().endswith("push puts this copy back (python -m host_tools push --port PORT)")

    assert pull.main(["--dir", str(other)]) == 0  # again: the same place
    said = capsys.readouterr().out
    assert "it replaces the copy pulled from there at " in said
    assert len(os.listdir(tmp_path / "pulled" / "earlier")) == 1  # nothing more set aside


def test_a_pull_elsewhere_says_which_copy_a_plain_push_uses(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(pull, "DEFAULT_OUT", str(tmp_path / "pulled"))
    device = device_folder(tmp_path / "device")
    assert pull.main(["--dir", str(device), "--out", str(tmp_path / "mine")]) == 0
    said = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert said == "push --from %s puts this copy back; a plain push finds no copy (%s is empty)" % (
        tmp_path / "mine",
        tmp_path / "pulled",
    )


@pytest.mark.parametrize("where", ("dir", "port"))
def test_after_a_push_cut_between_its_renames_pull_names_what_it_found(tmp_path, capsys, where):
    """A push cut between its two renames leaves no data/ but the copy whole in
    data.pushed/ (and the old one in data.pushold/); pull said "nothing saved on the
    device yet". It names what it found, from a folder and through the raw REPL."""
    flash = device_folder(tmp_path)
    os.rename(flash / "data", flash / "data.pushed")
    (flash / "data.pushold").mkdir()
    out = tmp_path / "copy"
    if where == "dir":
        assert pull.main(["--dir", str(flash), "--out", str(out)]) == 0
    else:
        with virtual_pico.running(flash) as port:
            assert pull.main(["--port", port, "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "nothing saved" not in said
    assert said.startswith("no data/ on the device, but data.pushed/: a push was cut between its last two steps")
    assert "nothing is lost" in said
    assert not out.exists()


def test_lang_shows_the_set_up_and_the_names_as_the_handheld_does(tmp_path, capsys):
    import save_store

    flash = device_folder(tmp_path)
    setup = {"players": 2, "kinds": ["human", "good", "human", "human"], "rules": "zoo", "ybonus": 1}
    setup.update({"coach": 2, "sound": 1, "leds": 3, "lang": "de"})
    save_store.Store(str(flash / "data" / "setup")).save(setup)
    assert pull.main(["--dir", str(flash), "--lang", "de"]) == 0
    text = capsys.readouterr().out
    shown = text.split("Menu set-up:\n")[1].split("\n\n")[0].rstrip("\n")
    assert shown == (
        "  2 players: S1 Mensch, S2 CPU gut\n"
        "  rules: the Kinder-Zoo card\n"
        "  coach: Rückblick; sound on; dice brightness 3 of 15\n"
        "  language: de"
    )

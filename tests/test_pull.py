"""``host_tools pull``: files written by the firmware inside real MicroPython are copied
(from a folder, and through mpremote from the virtual Pico) and printed readably."""
import json
import os

import host_tools
from host_tools import pull, virtual_pico

# Runs inside MicroPython with the flash folder as its working directory, like the device.
WRITER = r"""
import os, sys
os.chdir(sys.argv[1])
import game, records, rules, storage
from dice_source import DiceSource
dice = DiceSource(seed=5)
g = game.Game(rules.make_ruleset(), [("ANN", "human"), ("CPU", "hard")], dice)
while g.phase == game.ROLLOFF:
    g.rolloff()
g.roll()
g.toggle_hold(1)
storage.Store("data/game").save({"id": 99, "seed": dice.checkpoint(), "game": g.to_state()})
r = records.Records()
r.load()
card = rules.new_card()
for i, p in enumerate((3, 6, 9, 12, 15, 18, 20, 0, 25, 30, 40, 50, 22)):
    card[i] = p
r.finish_game(5, [("ANN", 285, card), ("CPU", 120, rules.new_card())], [130, 70, 100, 100, 100, 100])
r.add_high_score(285, "ANN", 5, 0)
print("written")
"""


def _device_folder(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    proc = host_tools.run_micropython([str(script), str(flash)])
    assert proc.stdout.strip() == "written", proc.stderr
    return flash


def test_pull_from_a_flash_folder_prints_everything(tmp_path, capsys):
    flash = _device_folder(tmp_path)
    (flash / "data" / "stats.b.bad").write_bytes(b"YZ\x01junk")
    out = tmp_path / "copy"
    assert pull.main(["--dir", str(flash), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert sorted(os.listdir(out / "data")) == sorted(os.listdir(flash / "data"))
    assert "> ANN" in text and "CPU" in text and "round 1 of 13" in text
    assert " 1. ANN   285" in text
    assert "average  285.0" in text and "upper bonus 100%" in text
    # 600 dice, 130/70/100...: chi-square = (30**2 + 30**2) / 100 = 18.00
    assert "600 dice rolled, chi-square 18.00" in text and "unfair (1%)" in text
    assert "kept aside: stats.b.bad (truncated)" in text


def test_pull_json_has_the_values(tmp_path, capsys):
    flash = _device_folder(tmp_path)
    assert pull.main(["--dir", str(flash), "--out", str(tmp_path / "copy"), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["scores"]["value"] == [[285, "ANN", 5, 0]]
    assert found["rolls"]["value"]["faces"] == [130, 70, 100, 100, 100, 100]
    assert found["game"]["value"]["game"]["players"][0][0] == "ANN"
    assert found["stats"]["error"] is None


def test_a_corrupt_save_is_reported_not_fatal(tmp_path, capsys):
    flash = _device_folder(tmp_path)
    data = bytearray((flash / "data" / "game.a").read_bytes())
    data[20] ^= 0xFF
    (flash / "data" / "game.a").write_bytes(bytes(data))
    assert pull.main(["--dir", str(flash), "--out", str(tmp_path / "copy")]) == 0
    text = capsys.readouterr().out
    assert "Saved game (game):\n  unreadable: corrupt" in text
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
    assert err.count("\n") == 1 and "not a folder" in err
    (tmp_path / "data").mkdir()
    assert pull.main(["--dir", str(tmp_path), "--out", str(tmp_path)]) == 2


def test_unreachable_port_exits_1(tmp_path, capsys):
    assert pull.main(["--port", str(tmp_path / "no-such-port"), "--out", str(tmp_path / "copy")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pull: mpremote could not copy") and err.count("\n") == 1


def test_pull_through_mpremote_from_the_virtual_pico(tmp_path, capsys):
    flash = _device_folder(tmp_path)
    out = tmp_path / "copy"
    with virtual_pico.running(flash) as port:
        assert pull.main(["--port", port, "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert sorted(os.listdir(out / "data")) == sorted(os.listdir(flash / "data"))
    for name in os.listdir(flash / "data"):
        assert (out / "data" / name).read_bytes() == (flash / "data" / name).read_bytes()
    assert " 1. ANN   285" in text and "> ANN" in text


ZOO_WRITER = r"""
import os, sys
os.chdir(sys.argv[1])
import game, records, rules, storage
from dice_source import DiceSource
zoo = rules.make_ruleset("zoo")
dice = DiceSource(seed=8)
g = game.Game(zoo, [("KID", "human")], dice)
g.roll()
g.score(10)
g.roll()
storage.Store("data/game").save({"id": 7, "seed": dice.checkpoint(), "game": g.to_state()})
r = records.Records(ruleset=zoo)
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
    assert "rules zoo, playing, round 2 of 11" in text
    assert " 1/11 boxes" in text
    assert "Zoo high scores (zoo_scores):" in text and " 1. KID   128" in text
    assert "Zoo statistics (zoo_stats):" in text and "Yahtzees   1  upper bonus 100%" in text

"""A device's data/ folder as the firmware writes it: a saved game, records, high scores
and dice counts, made inside MicroPython (pull's, push's and the UF2's tests start from it)."""

import host_tools

# Runs inside MicroPython with the flash folder as its working directory, like the device.
WRITER = r"""
import os, sys
os.chdir(sys.argv[1])
import game, save_records, rules, save_store
from game_dice import DiceSource
dice = DiceSource(seed=5)
g = game.Game(rules.make_ruleset(), [("ANN", "human"), ("CPU", "hard")], dice)
while g.phase == game.ROLLOFF:
    g.rolloff()
g.roll()
g.toggle_hold(1)
save_store.Store("data/game").save({"id": 99, "seed": dice.position(), "counts": [0, 1, 0, 0, 0, 1], "game": g.to_state()})
r = save_records.Records()
r.load()
card = rules.new_card()
for i, p in enumerate((3, 6, 9, 12, 15, 18, 20, 0, 25, 30, 40, 50, 22)):
    card[i] = p
r.finish_game(5, [("ANN", 285, card), ("CPU", 120, rules.new_card())], [130, 70, 100, 100, 100, 100])
r.add_high_score(285, "ANN", 5, 0)
print("written")
"""


def device_folder(tmp_path):
    """``tmp_path/flash`` holding what WRITER wrote (a pathlib folder)."""
    flash = tmp_path / "flash"
    flash.mkdir(parents=True)
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    proc = host_tools.run_micropython([str(script), str(flash)])
    assert proc.stdout.strip() == "written", proc.stderr
    return flash

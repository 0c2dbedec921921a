"""Golden screens and README pictures from fixed headless runs of the simulator.

``SCENES`` are key scripts with a seed; each renders to a text file in tests/golden/
(the dice line, the OLED as text and the OLED's pixels in half blocks), which
tests/test_sim_golden.py compares. Regenerate after an intended UI change with
``python -m host_tools sim --regen-golden``; the README's pictures (docs/img/) with
``python -m host_tools sim --regen-images``.
"""
import os
import tempfile

import host_tools
from host_tools import sim
from host_tools.emulators.oled import half_blocks
from host_tools.simulator.unix_port import SimDevice
from host_tools.simulator.screen import device_text

GOLDEN_DIR = os.path.join(host_tools.REPO, "tests", "golden")
IMAGE_DIR = os.path.join(host_tools.REPO, "docs", "img")

# Menu items from "Start game": down = Players, P1, P2 ...; enter changes the value.
# These starts are shared with the benchmarks (bench_sim*, bench_power).
TWO_HUMANS = "enter down down down enter up up up enter"  # splash, P2 -> Human, start
SOLO = "enter down enter enter enter up enter wait:300"  # splash, Players 2 -> 1, start
FOUR_CPUS = "enter down enter enter down enter up up enter"  # Players 2 -> 3 -> 4, P1 -> computer, start
SOLO_GAME = SOLO + " space enter enter" * 13  # roll once, score the first box offered
# The kids' card: P2 -> Human, then the Joker line stepped 4 times to "Rules Zoo (kids)"
# (the Y.bonus line goes), up to "Start game".
ZOO_TWO_HUMANS = "enter down down down enter down enter enter enter enter up up up up enter"
ZOO_SOLO = "enter down enter enter enter down down enter enter enter enter up up up enter wait:300"
SCENES = {
    "menu": (1, "enter"),
    "rolloff": (4, "enter enter wait:300"),
    "turn": (4, TWO_HUMANS + " wait:4500 space 2 4"),
    "card": (4, TWO_HUMANS + " wait:4500" + " space enter enter" * 6 + " m"),
    "card_totals": (4, TWO_HUMANS + " wait:4500" + " space enter enter" * 6 + " m down"),  # P2's card
    "confirm_zero": (4, TWO_HUMANS + " wait:4500 space up enter"),
    "zoo_turn": (4, ZOO_TWO_HUMANS + " wait:4500 space 2 4"),
    "end_solo": (2, SOLO_GAME),
    "end": (4, TWO_HUMANS + " wait:4500" + " space enter enter" * 26),
}
# Records (session.py): a solo game, OK after the end screen, initials Z-C-A, then the
# menu's "Records" line (the last: UP from "Start game", the first) and its pages.
RECORDS = SOLO_GAME + " enter up enter down down enter enter up enter"
SCENES.update({
    "initials": (9, SOLO_GAME + " enter up enter down"),
    "records_scores": (9, RECORDS),
    "records_stats": (9, RECORDS + " enter"),
    "records_fairness": (9, RECORDS + " enter enter"),
})
# Coach scenes, played with the strategy table on the flash (TABLE_SCENES). Solo start;
# SOLO_REVIEW first sets the menu's Coach line to "turn" (5 x up from Players).
SOLO_REVIEW = "enter down enter enter enter up up up up up enter down down down down enter wait:300"
SCENES.update({
    "hint": (4, SOLO + " space wait:500 m wait:120"),
    "hint_box": (4, SOLO + " space wait:500 space wait:500 space wait:500 m wait:120"),
    "review": (4, SOLO_REVIEW + " space wait:500 enter enter"),  # OK, OK: score
    "zoo_hint": (3, ZOO_SOLO + " space wait:500 m wait:120"),
})
# Scenes played with a strategy table on the flash: scene -> the rules of its table.
TABLE_SCENES = {"hint": "forced", "hint_box": "forced", "review": "forced", "zoo_turn": "zoo", "zoo_hint": "zoo"}


def scene_tables(name):
    """The strategy tables a scene's flash holds: the cached exact table for its rules."""
    if name not in TABLE_SCENES:
        return None
    host_tools.use_firmware()  # rules is the firmware's module (also when no scene before put it on the path)
    import rules
    from host_tools.solver import cache as solver_cache

    ruleset = rules.make_ruleset(TABLE_SCENES[name])
    return {"strategy-%s.bin" % ruleset.name: solver_cache.table(ruleset, "exact")}


def run_scene(name, flash_dir, tables=None):
    seed, keys = SCENES[name]
    tables = tables or scene_tables(name)
    # With a table the advisor is compiled from source at game start: more heap (sim.py).
    device = SimDevice(seed=seed, flash_dir=flash_dir, tables=tables, heap="256K" if tables else "192K")
    try:
        sim.run_headless(device, keys)
    finally:
        device.close()
    return device


def scene_text(device):
    art = [line.rstrip() for line in half_blocks(device.oled_pixels())]
    return device_text(device) + "\n\n" + "\n".join(art) + "\n"


def render(name):
    with tempfile.TemporaryDirectory() as flash:
        return scene_text(run_scene(name, flash))


def golden_path(name):
    return os.path.join(GOLDEN_DIR, name + ".txt")


def regen():
    os.makedirs(GOLDEN_DIR, exist_ok=True)
    for name in SCENES:
        with open(golden_path(name), "w", encoding="utf-8") as out:
            out.write(render(name))
        print("wrote", golden_path(name))


def regen_images():
    from host_tools.simulator.png import write_png

    host_tools.use_firmware()
    import rules
    from host_tools.solver import cache as solver_cache

    os.makedirs(IMAGE_DIR, exist_ok=True)
    # The README shows the default game as a player meets it: with the strategy table.
    forced = {"strategy-forced.bin": solver_cache.table(rules.make_ruleset(), "exact")}
    for name in ("menu", "turn", "card", "end", "zoo_turn"):
        tables = scene_tables(name) or forced
        with tempfile.TemporaryDirectory() as flash:
            device = run_scene(name, flash, tables)
        path = os.path.join(IMAGE_DIR, "sim_%s.png" % name)
        write_png(path, device)
        print("wrote", path)

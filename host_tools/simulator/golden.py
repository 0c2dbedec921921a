"""Golden screens and README pictures from fixed headless runs of the simulator.

``SCENES`` are key scripts with a seed; each renders to a text file in tests/sim/golden/
(the dice line, the OLED as text and the OLED's pixels in half blocks), which
tests/sim/test_sim_golden.py compares. ``LANGUAGE_SCENES`` are played again in every
other language the firmware has (``<scene>_<code>``, as ``sim --lang`` plays them).
Regenerate after an intended UI change with ``python -m host_tools sim --regen-golden``. The README's pictures (docs/img/) come from
the chip back-end, the official MicroPython on an emulated RP2040 (``python -m host_tools
chip --regen-images``): the same scenes, the game installed from the one-file UF2 (``uf2``,
as ``make flash`` leaves it) with the tables the unix-port pictures use, the seed in
device.cfg. ``python -m host_tools sim --regen-images`` renders them on the unix port.
"""

import os
import tempfile

import host_tools
from host_tools.simulator.headless import run_headless
from host_tools.emulators.oled import half_blocks
from host_tools.simulator.unix_port import SimDevice
from host_tools.simulator.screen import device_text

GOLDEN_DIR = os.path.join(host_tools.REPO, "tests", "sim", "golden")
IMAGE_DIR = os.path.join(host_tools.REPO, "docs", "img")

# Menu items from "Start game": down = Players, P1, P2 ...; enter changes the value.
# These starts are shared with the benchmarks (bench_sim*, bench_power).
TWO_HUMANS = "enter down down down enter up up up enter"  # splash, P2 -> Human, start
SOLO = "enter down enter enter enter up enter wait:300"  # splash, Players 2 -> 1, start
FOUR_CPUS = "enter down enter enter down enter up up enter"  # Players 2 -> 3 -> 4, P1 -> computer, start
SOLO_GAME = SOLO + " space enter enter" * 13  # roll once, score the first box offered
# A human's turn (roll once, score the first box offered) at a pace the chip keeps up
# with: there the firmware's work (a turn's preparation, each save to flash) takes
# emulated time, and a 60 ms press made meanwhile is missed, as on a Pico. The unix
# port's clock stands still while the firmware works: the same frames either way.
HUMAN_TURN = " space wait:1500 enter wait:300 enter wait:300"
# The kids' card: P2 -> Human, then the Card line (below the players) to the Zoo card (the
# joker and Yahtzee bonus lines go), up to "Start game".
ZOO_TWO_HUMANS = "enter down down down enter down enter up up up up enter"
ZOO_SOLO = "enter down enter enter enter down down enter up up up enter wait:300"
# The menu's own players (P2 a computer), on the Zoo card: Card is 4 down from Start game.
ZOO_CPU = "enter down down down down enter up up up up enter"
SCENES = {
    "menu": (4, "enter"),  # seed 4 as the turn scene: one seeded flash for both pictures (no dice here)
    "rolloff": (4, "enter enter wait:300"),
    "turn": (4, TWO_HUMANS + " wait:4500 space 2 4"),
    "card": (4, TWO_HUMANS + " wait:4500" + HUMAN_TURN * 6 + " m"),
    "card_totals": (4, TWO_HUMANS + " wait:4500" + HUMAN_TURN * 6 + " m down"),  # P2's card
    "confirm_zero": (4, TWO_HUMANS + " wait:4500 space up enter"),
    "zoo_turn": (4, ZOO_TWO_HUMANS + " wait:4500 space 2 4"),
    "end_solo": (2, SOLO_GAME),
    "end": (4, TWO_HUMANS + " wait:4500" + HUMAN_TURN * 26),
    # A computer's turn (the menu's P2 starts at seed 4) and its summary.
    "summary": (4, "enter enter wait:6500"),
    "zoo_summary": (4, ZOO_CPU + " wait:6500"),
    # The rules pages (the menu's How to play line, under the card's lines), scrolled.
    "rules": (4, "enter" + " down" * 7 + " enter enter"),
    "zoo_rules": (4, "enter down down down down enter down enter enter"),
}
# Records (save_session.py): a solo game, OK after the end screen, initials Z-C-A (DOWN
# from A is Z, UP steps on), OK on the high-score table, then the menu's "Records" line
# (the last: UP from "Start game", the first) and its pages.
RECORDS = SOLO_GAME + " enter down enter up up enter enter enter up enter"
SCENES.update(
    {
        "initials": (9, SOLO_GAME + " enter down enter up"),
        "records_scores": (9, RECORDS),
        "records_stats": (9, RECORDS + " enter"),
        "records_fairness": (9, RECORDS + " enter enter"),
    }
)
# Coach scenes, played with the strategy table on the flash (TABLE_SCENES). Solo start;
# SOLO_REVIEW first sets the menu's Coach line to "review" (6 x up from Players: Start
# game, Records, Language, Brightness, Sound, Coach), then 5 x down to Start game.
SOLO_REVIEW = "enter down enter enter enter up up up up up up enter down down down down down enter wait:300"
SCENES.update(
    {
        "hint": (4, SOLO + " space wait:500 m wait:120"),
        "hint_box": (4, SOLO + " space wait:500 space wait:500 space wait:500 m wait:120"),
        "review": (4, SOLO_REVIEW + " space wait:500 enter enter"),  # OK, OK: score
        "zoo_hint": (3, ZOO_SOLO + " space wait:500 m wait:120"),
    }
)
# Scenes played with a strategy table on the flash: scene -> the rules of its table.
TABLE_SCENES = {"hint": "forced", "hint_box": "forced", "review": "forced", "zoo_turn": "zoo", "zoo_hint": "zoo"}
# Scenes played again in each other language: scene name + "_" + code -> (scene, code).
LANGUAGE_SCENES = ("menu", "turn", "card", "hint", "summary", "end", "zoo_turn", "rules")
SCENE_LANGUAGE = {}


def _add_languages():
    host_tools.use_firmware()
    import lang

    from host_tools import texts

    for code in texts.codes():
        if code == lang.ENGLISH:
            continue
        for name in LANGUAGE_SCENES:
            SCENES[name + "_" + code] = SCENES[name]
            SCENE_LANGUAGE[name + "_" + code] = code
            if name in TABLE_SCENES:
                TABLE_SCENES[name + "_" + code] = TABLE_SCENES[name]


_add_languages()


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
    code = SCENE_LANGUAGE.get(name)
    # The simulator's default: the tree flash builds, at the Pico's heap (unix_port.py).
    device = SimDevice(seed=seed, flash_dir=flash_dir, tables=tables, extra=("lang_now=" + code,) if code else ())
    try:
        run_headless(device, keys)
    finally:
        device.close()
    return device


def scene_text(device):
    art = [line.rstrip() for line in half_blocks(device.oled_pixels())]
    return device_text(device) + "\n\n" + "\n".join(art) + "\n"


def render(name):
    import lang

    from host_tools import texts

    with tempfile.TemporaryDirectory() as flash:
        device = run_scene(name, flash)
    texts.use(SCENE_LANGUAGE.get(name, lang.ENGLISH))  # the dice line's animals too
    try:
        return scene_text(device)
    finally:
        texts.use(lang.ENGLISH)


def golden_path(name):
    return os.path.join(GOLDEN_DIR, name + ".txt")


def regen():
    os.makedirs(GOLDEN_DIR, exist_ok=True)
    for name in SCENES:
        with open(golden_path(name), "w", encoding="utf-8") as out:
            out.write(render(name))
        print("wrote", golden_path(name))


IMAGES = ("menu", "turn", "card", "end", "zoo_turn", "turn_de")  # docs/img/sim_<name>.png, in the README


def image_path(name):
    return os.path.join(IMAGE_DIR, "sim_%s.png" % name)


def image_tables(name):
    """The tables of a README picture's flash: the README shows the default game as a
    player meets it in ``make sim``, with the strategy and spread tables (the win meter;
    the Zoo scene: the Zoo table)."""
    host_tools.use_firmware()
    import rules
    from host_tools.solver import cache as solver_cache
    from host_tools.solver import files as solver_files

    forced = rules.make_ruleset()
    return scene_tables(name) or {
        "strategy-forced.bin": solver_cache.table(forced, "exact"),
        "spread-forced.bin": solver_cache.spread_table(forced, solver_files.SPREAD_BANDS),
    }


def regen_images(names=IMAGES):
    """The README's pictures on the unix-port back-end."""
    from host_tools.simulator.png import write_png

    os.makedirs(IMAGE_DIR, exist_ok=True)
    for name in names:
        with tempfile.TemporaryDirectory() as flash:
            device = run_scene(name, flash, image_tables(name))
        write_png(image_path(name), device)
        print("wrote", image_path(name))


# ------------------------------------------------------------------ the chip back-end
def chip_image(folder, firmware, names=IMAGES):
    """A flash image (in ``folder``) of an emulated Pico holding the game as the one-file
    UF2 installs it (``uf2`` from this checkout's firmware/ and boards/), with every table
    the scenes ``names`` use (the forced exact table, and the Zoo table where a Zoo scene
    is among them; ``uf2`` keeps the Zoo table when it fits, as flash does); returns its
    path. ChipFileError / RuntimeError with one line when a step fails."""
    from host_tools.simulator import chip_image as chip_files
    from host_tools.simulator import chip_session

    source = os.path.join(folder, "source")
    os.makedirs(os.path.join(source, "build"))
    for top in ("firmware", "boards"):
        os.symlink(os.path.join(host_tools.REPO, top), os.path.join(source, top))
    for name in names:
        for table, path in image_tables(name).items():
            link = os.path.join(source, "build", table)
            if not os.path.lexists(link):
                os.symlink(path, link)
    uf2_path = os.path.join(folder, "game.uf2")
    made = chip_session.run_host_tool("uf2", "--source", source, "--firmware", firmware, "--out", uf2_path)
    if made.returncode:
        raise RuntimeError("uf2 failed: %s" % (made.stderr.strip() or made.stdout.strip()))
    image = os.path.join(folder, "flash.bin")
    chip_files.prepare_image(image, firmware=uf2_path, fresh=True)
    return image


def seeded_image(image, seed, folder, bootrom=None, code=None):
    """A copy of ``image`` with ``sim --seed``'s firmware seed for ``seed`` in device.cfg
    (the same dice as the unix port), and language ``code`` as ``sim --lang`` sets it when
    given; one boot of the chip (``bootrom``: None for build/rp2/'s)."""
    import shutil

    from host_tools.simulator import chip_session
    from host_tools.simulator.unix_port import mix_seed

    copy = os.path.join(folder, "seed-%d%s.bin" % (seed, "-" + code if code else ""))
    shutil.copyfile(image, copy)
    values = {"seed": mix_seed(seed)}
    if code:
        values["lang_now"] = code
    chip_session.set_config(copy, bootrom=bootrom, **values)
    return copy


def chip_scene(name, seeded, folder, bootrom=None):
    """Play scene ``name`` on an emulated Pico booting a copy of ``seeded`` (seeded_image
    with the scene's seed); returns the stopped ChipDevice, whose emulators hold the last
    frame. Key times count from the first OLED frame, as on the unix port."""
    import shutil

    from host_tools.simulator.chip import ChipDevice

    _seed, keys = SCENES[name]
    copy = os.path.join(folder, "%s.bin" % name)
    shutil.copyfile(seeded, copy)
    device = ChipDevice(copy, bootrom=bootrom)
    try:
        device.boot()
        run_headless(device, keys)
    finally:
        device.close()
    return device


def regen_images_chip(firmware, names=IMAGES, bootrom=None):
    """The README's pictures on the chip back-end (``chip --regen-images``)."""
    from host_tools.simulator.png import write_png

    os.makedirs(IMAGE_DIR, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        image = chip_image(folder, firmware, names)
        seeded = {}
        for name in names:
            key = (SCENES[name][0], SCENE_LANGUAGE.get(name))
            if key not in seeded:
                seeded[key] = seeded_image(image, key[0], folder, bootrom, key[1])
            write_png(image_path(name), chip_scene(name, seeded[key], folder, bootrom))
            print("wrote", image_path(name), flush=True)

"""The README's pictures come from the chip back-end (``python -m host_tools chip
--regen-images``): two of them, rendered again on the official MicroPython v1.28.0 on an
emulated RP2040, equal the committed files pixel for pixel. A change that alters what the
README shows (the firmware's screens, the UF2 install, the seed's dice, the chip's wiring
or the front-end's PNG) fails here until the pictures are regenerated and looked at.

The menu picture is the one where the back-ends differ (the chip reads VSYS, 4.9 V on
USB, and the menu's header shows it), so pictures made on the unix port fail here too.
The turn picture: the one-file UF2 installs the game with the strategy table, the seed goes
into device.cfg, two humans start and P2 rolls and holds dice 2 and 4 (the MAX7219 dice
and the OLED turn screen in one picture). About 20-40 s: the game is installed from its
UF2 (no flashing over USB), then three short boots. Same fixture files and skip rule as
the chip tier (tests/chip/test_chip.py).
"""

import pytest

from host_tools.simulator import chip_session
from host_tools.simulator import golden as sim_golden
from host_tools.simulator.png import png_bytes, read_png, render
from helpers.chip_fixtures import chip_files

FIRMWARE, BOOTROM, MISSING = chip_files()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
PICTURES = ("menu", "turn")  # same seed: one seeded flash


def test_the_readme_menu_and_turn_pictures_are_what_the_chip_shows(tmp_path):
    chip_session.ensure_node()
    assert len({sim_golden.SCENES[name][0] for name in PICTURES}) == 1
    image = sim_golden.chip_image(str(tmp_path), FIRMWARE, names=PICTURES)
    seeded = sim_golden.seeded_image(image, sim_golden.SCENES[PICTURES[0]][0], str(tmp_path), BOOTROM)
    problems = []
    for name in PICTURES:
        device = sim_golden.chip_scene(name, seeded, str(tmp_path), BOOTROM)
        width, height, rows = render(device.dice_pixels(), device.oled_pixels())
        path = sim_golden.image_path(name)
        with open(path, "rb") as f:
            if png_bytes(width, height, rows) == f.read():
                continue
        w, h, want = read_png(path)
        assert (w, h) == (width, height), "%s: picture size" % path
        differ = sum(1 for y in range(h) for x in range(w) if want[y][3 * x : 3 * x + 3] != rows[y][3 * x : 3 * x + 3])
        problems.append("%s differs from the chip's frame in %d pixels" % (path, differ))
    assert not problems, "; ".join(problems) + ": look at the change, then python -m host_tools chip --regen-images"


def test_regen_images_with_a_bad_firmware_says_so_and_writes_nothing(tmp_path):
    before = {name: open(sim_golden.image_path(name), "rb").read() for name in sim_golden.IMAGES}
    bad = tmp_path / "not-a.uf2"
    bad.write_text("hello")
    done = chip_session.run_host_tool("chip", "--regen-images", "--firmware", bad)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("chip: "), done.stderr
    assert "Traceback" not in done.stderr
    assert {name: open(sim_golden.image_path(name), "rb").read() for name in sim_golden.IMAGES} == before

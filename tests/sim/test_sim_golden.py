"""Golden screens: menu, roll-off, turn, zero confirmation, full card, end screen.

Each scene is a fixed headless key script (host_tools/simulator/golden.py) whose dice and OLED,
read back from the emulators, must match tests/sim/golden/<scene>.txt exactly. After an
intended UI change regenerate them with ``python -m host_tools sim --regen-golden`` and
review the diff.
"""

import os

import pytest

from host_tools.simulator import golden as sim_golden

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("scene", sorted(sim_golden.SCENES))
def test_screen_matches_golden(scene):
    path = sim_golden.golden_path(scene)
    assert os.path.exists(path), "missing %s: run python -m host_tools sim --regen-golden" % path
    with open(path, encoding="utf-8") as golden:
        expected = golden.read()
    actual = sim_golden.render(scene)
    assert actual == expected, "%s differs from %s (regenerate with python -m host_tools sim --regen-golden)\n%s" % (
        scene,
        path,
        actual,
    )


def test_every_golden_file_has_a_scene():
    names = {f[:-4] for f in os.listdir(sim_golden.GOLDEN_DIR) if f.endswith(".txt")}
    assert names == set(sim_golden.SCENES)

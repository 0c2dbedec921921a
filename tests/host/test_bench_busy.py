"""``bench busy`` (host_tools/benches/busy.py): the busy moments of docs/power_and_input.md
in estimated chip ms, each stretch counted at its fastest of several runs of a game (a recorded run and
replays of it, tests/sim/test_busy_replay.py), with every run's own figure beside it:
a human against a computer, and four computers played to Game over."""

import re
from types import SimpleNamespace

import pytest

from host_tools import bench
from host_tools.benches import busy as busy_bench


def recorded_run(readings, marks=()):
    """A SimDevice's record: (start ms, clock readings in chip us, path) per wait."""
    return SimpleNamespace(readings=[(start, values, 0) for start, values in readings], marks=list(marks))


def test_the_timeline_counts_each_stretch_at_its_fastest_run():
    recorded = recorded_run([(0, (10000, 50000)), (100, (30000,)), (200, ()), (300, (20000,))], marks=[(1, 0)])
    replay = recorded_run([(0, (8000, 40000)), (100, (35000,)), (200, ()), (300, (12000,))])
    line = busy_bench.Timeline(recorded, [recorded, replay])
    # 40 ms (the replay's) at 0; 30 ms (the recording's) starts 10 ms earlier: the first
    # stretch lost 10 ms to noise in the recording; then the last, 12 ms, 10 ms earlier too.
    assert line.stretches == [(0, 40), (90, 30), (290, 12)]
    assert line.shown == [90 + 30]  # the mark at the second stretch's first reading
    assert line.at(50) == 40  # the end of the first stretch: 10 ms earlier
    assert line.at(150) == 140
    assert line.at(400) == 390 - 8  # the last stretch took 8 ms less too


def test_a_run_alone_is_its_own_timeline_and_a_slower_replay_moves_times_later():
    recorded = recorded_run([(0, (10000,)), (100, (5000,))])
    slower = recorded_run([(0, (25000,)), (100, (5000,))])
    assert busy_bench.Timeline(recorded, [recorded]).stretches == [(0, 10), (100, 5)]
    line = busy_bench.Timeline(recorded, [slower])
    assert line.stretches == [(0, 25), (115, 5)]
    assert line.at(200) == 215


@pytest.mark.slow
def test_bench_busy_prints_every_moment_with_its_target_and_each_runs_own_figure(capsys):
    assert bench.main(["busy", "--no-figures"]) == 0
    out = capsys.readouterr().out
    assert "each stretch its fastest run's" in out
    moments = {}
    for line in out.splitlines():
        found = re.match(r"(.+?)\s+(-?\d+) ms  \(each run alone: ([-\d, ]+)\)(.*)$", line)
        if found:
            moments[found.group(1).strip()] = (int(found.group(2)), found.group(3).split(", "), found.group(4))
    for name in (
        "menu at (power-on to the menu)",
        "Start game: work before the screen reacts",
        "Start game: longest stretch of the roll-off (its table opening)",
        "ROLL until the dice show",
        "a hold change (its save)",
        "OK that scores: the computer's turn starts",
        "OK on its summary: a human turn starts",
        "longest stretch during play (after the roll-off)",
        "Continue: work before the screen reacts",
        "Continue: longest stretch as its table opens",
        "menu: a set-up change (its save)",
        "4 computers, every level: longest stretch of the game",
        "4 computers: the game's end (its last turn, save and records)",
        "MENU: the card as a computer's turn starts",
        "MENU: the card while a computer plays",
    ):
        value, alone, verdict = moments[name]
        assert value > 0, name  # every moment found its work (-1: its screen never showed)
        assert len(alone) == busy_bench.RUNS, name
        target = int(re.search(r"target <= (\d+)", verdict).group(1))
        assert verdict.endswith(": met" if value <= target else ": NOT met"), (name, value, verdict)
    # where the chip saw more than the estimate, its figure and what the estimate leaves out
    assert busy_bench.chip_beside("OK that scores: the computer's turn starts") in out.splitlines()
    assert busy_bench.chip_beside("boot: longest stretch") in out.splitlines()


def test_the_moments_the_chip_saw_longer_name_its_figure_and_what_the_estimate_leaves_out():
    """The boot's longest stretch was 581 ms on the emulated chip against an estimated 434
    (module loading is not modelled); OK that scores, 78-80 against 50. The bench prints
    the chip's figure and the reason under those two moments, and only those."""
    boot = busy_bench.chip_beside("boot: longest stretch")
    assert boot.startswith("  the emulated chip: 581 ms; not in this estimate: loading each module from flash")
    score = busy_bench.chip_beside("OK that scores: the computer's turn starts")
    assert score.startswith("  the emulated chip: 78-80 ms; not in this estimate: ")
    assert "native code" in score
    assert busy_bench.chip_beside("ROLL until the dice show") is None

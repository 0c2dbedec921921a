"""Busy mode's record and replay (boards/sim_busy_log.py), which ``bench busy`` uses to
count each stretch at its fastest of several runs of one game: a replay must take the
recorded run's path exactly while measuring its own time, a run that leaves it must stop
with one clear message, and the firmware must meet the same heap while it is logged.
"""

import pytest

from host_tools.simulator import busy
from host_tools.simulator import keys as sim_keys
from host_tools.simulator.unix_port import ReplayDiverged, SimDevice

pytestmark = pytest.mark.slow

HOLD1, ROLL, OK = 0, 5, 8
# Start game (the roll-off opens the table), ROLL, a hold change (its save), to 11 s.
PRESSES = [(2600, 2680, OK), (8680, 8760, ROLL), (9560, 9640, HOLD1)]
UNTIL_MS = 11000


def run(flash, busy_log, seed=3, presses=PRESSES, extra=("presslog=1",)):
    device = SimDevice(seed=seed, flash_dir=str(flash), busy=busy.ratio(), busy_log=busy_log, extra=extra)
    try:
        device.run_until(UNTIL_MS, sim_keys.levels(presses))
    finally:
        device.close()
    return device


def test_a_replay_takes_the_recorded_runs_path_and_measures_its_own_time(tmp_path):
    recorded = run(tmp_path / "recorded", "record")
    replay = run(tmp_path / "replay", recorded.readings)
    assert len(recorded.readings) > 100, "a game's first 11 s should be many stretches"
    assert len(replay.readings) == len(recorded.readings)
    # The same path: each stretch read the clock as often and sent the same bytes ...
    assert [len(values) for _start, values, _path in replay.readings] == [
        len(values) for _start, values, _path in recorded.readings
    ]
    assert [path for _start, _values, path in replay.readings] == [path for _s, _v, path in recorded.readings]
    # ... at the same virtual times, with the same screens and presses taken.
    assert replay.stretches == recorded.stretches
    assert replay.shown == recorded.shown
    assert replay.marks == recorded.marks
    assert replay.oled_pixels() == recorded.oled_pixels()
    assert [line for line in replay.console if line.startswith("PRESS ")] == [
        line for line in recorded.console if line.startswith("PRESS ")
    ]
    assert len([line for line in replay.console if line.startswith("PRESS ")]) == len(PRESSES)
    # The replay measured the stretches anew rather than echoing the recorded times.
    measured = [values for _start, values, _path in replay.readings]
    assert measured != [values for _start, values, _path in recorded.readings]
    assert not any(line.startswith("busy replay") for line in replay.console), replay.console[-5:]


@pytest.mark.parametrize(
    "presses, taken_ms",
    (
        # an extra ROLL: the firmware reads the clock more often than the recorded run did
        (PRESSES[:2] + [(9000, 9080, ROLL)] + PRESSES[2:], 9080),
        # another die held: the same readings, but other bytes go to the dice and the OLED
        (PRESSES[:2] + [(9560, 9640, HOLD1 + 1)], 9640),
    ),
    ids=("more-clock-readings", "other-output"),
)
def test_a_replay_that_leaves_the_recorded_path_stops_there_with_one_message(tmp_path, presses, taken_ms):
    recorded = run(tmp_path / "recorded", "record")
    with pytest.raises(ReplayDiverged, match=r"^busy replay: stretch \d+ \(\d+ ms\): ") as stopped:
        run(tmp_path / "replay", recorded.readings, presses=presses)
    # It stops where the other press is taken (the release, debounced), not before.
    at_ms = int(str(stopped.value).split("(")[1].split(" ms")[0])
    assert taken_ms <= at_ms < taken_ms + 100, str(stopped.value)


def test_a_logged_run_leaves_the_firmware_the_plain_heap_and_allocates_nothing(tmp_path):
    def heap(flash, busy_log):
        device = SimDevice(seed=3, flash_dir=str(flash), busy=busy.ratio(), busy_log=busy_log, extra=("memprobe=250",))
        try:
            device.run_until(4000)  # the splash, then the menu idle
        finally:
            device.close()
        words = next(line for line in device.console if line.startswith("heap-peak")).split()
        return device, int(words[3]), int(words[5])

    _plain, plain_free, _garbage = heap(tmp_path / "plain", None)
    recorded, recorded_free, recorded_garbage = heap(tmp_path / "recorded", "record")
    _replay, replay_free, replay_garbage = heap(tmp_path / "replay", recorded.readings)
    assert abs(recorded_free - plain_free) <= 1024, (recorded_free, plain_free)
    assert abs(replay_free - plain_free) <= 1024, (replay_free, plain_free)
    assert recorded_garbage == 0
    assert replay_garbage == 0

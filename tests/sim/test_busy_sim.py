"""No press is lost: the firmware in the simulator's busy mode (its work costs the chip's
time, presses arrive during it as pin-interrupt edges; host_tools/simulator/busy.py).

A game of a human against a computer is played with taps of 20, 40, 80 and 150 ms made
right after the press that starts each busy moment of docs/power_and_input.md's table
(boot, the menu, Start game, ROLL, a hold change's save, the score that starts the computer's turn, OK on
the computer's summary that starts the human's turn), plus a random tap storm over a
whole turn. The sim board's ``presslog=1`` prints every event the game takes: they must
be exactly the presses made, in order, once. Blanked in lightsleep, a 40 ms tap between
two polls wakes the device.
"""

import random

import pytest

from host_tools.simulator import busy
from host_tools.simulator import keys as sim_keys
from host_tools.simulator.unix_port import SimDevice
from host_tools.simulator.screen import screen_lines
from helpers.sim_helpers import released_in_order, saved

pytestmark = pytest.mark.slow

HOLD1, ROLL, UP, DOWN, OK = 0, 5, 6, 7, 8
KEY_MS = 60  # a trigger press
AFTER_MS = 25  # the tap starts this long after the trigger's release: inside its work


class Timeline:
    """Presses as (from, to, button), built in order."""

    def __init__(self, t=0):
        self.t = t
        self.presses = []

    def press(self, button, ms=KEY_MS, gap=90):
        self.presses.append((self.t, self.t + ms, button))
        self.t += ms + gap

    def trigger_and_tap(self, trigger, tap, tap_ms, gap=90):
        """``trigger`` pressed, then ``tap`` for ``tap_ms`` AFTER_MS after its release."""
        self.press(trigger, gap=AFTER_MS)
        self.press(tap, tap_ms, gap=gap)

    def wait(self, ms):
        self.t += ms

    def expected(self):
        """The SHORT events the presses make, in the order they were released."""
        return released_in_order(self.presses)


def run(timeline, flash, seed=3, settle=3000):
    device = SimDevice(seed=seed, flash_dir=str(flash), busy=busy.ratio(), extra=("presslog=1",))
    try:
        device.run_until(timeline.t + settle, sim_keys.levels(timeline.presses))
    finally:
        device.close()
    got = [int(line.split()[1]) for line in device.console if line.startswith("PRESS ")]
    return device, got


def game_with_taps(tap_ms):
    line = Timeline()
    line.wait(300)
    line.press(UP, tap_ms, gap=0)  # during the boot's work (splash: any button -> menu)
    line.t = 2600
    line.press(DOWN, tap_ms)  # menu idle (control): down and back up
    line.press(UP, tap_ms)
    line.trigger_and_tap(OK, DOWN, tap_ms, gap=4000)  # Start game: the roll-off follows
    line.trigger_and_tap(ROLL, UP, tap_ms, gap=800)  # ROLL until the dice show
    line.trigger_and_tap(HOLD1, DOWN, tap_ms, gap=400)  # a hold change: its save
    line.press(OK, gap=400)  # the box ...
    line.trigger_and_tap(OK, DOWN, tap_ms, gap=2500)  # ... scored: the computer's turn starts
    line.wait(1000)
    line.trigger_and_tap(OK, UP, tap_ms, gap=1000)  # OK on its summary: the human's turn starts
    return line


@pytest.mark.parametrize("tap_ms", (20, 40, 80, 150))
def test_taps_at_every_busy_moment_all_reach_the_game_in_order_once(tmp_path, tap_ms):
    line = game_with_taps(tap_ms)
    device, got = run(line, tmp_path)
    assert got == released_in_order(line.presses, device.flash_windows, got), "\n".join(device.console[-30:])
    assert device.stretches, "busy mode reported no work"


def test_a_random_tap_storm_over_a_turn_reaches_the_game_in_order_once(tmp_path):
    rng = random.Random(20)
    line = Timeline()
    line.t = 2600
    line.press(OK, gap=3000)  # Start game; then a human turn, under a storm of taps
    line.press(ROLL, gap=400)
    free = {}
    for _ in range(40):
        button = rng.choice((HOLD1, HOLD1 + 1, HOLD1 + 2, HOLD1 + 3, HOLD1 + 4, UP, DOWN))
        ms = rng.randrange(20, 151)
        line.t = max(line.t, free.get(button, 0) + 30)
        line.press(button, ms, gap=rng.randrange(5, 60) - ms if rng.random() < 0.5 else rng.randrange(5, 60))
        free[button] = line.presses[-1][1]
        line.t = max(line.t, line.presses[-1][0] + 1)
    device, got = run(line, tmp_path)
    assert got == released_in_order(line.presses, device.flash_windows, got), "\n".join(device.console[-30:])


def test_a_40_ms_tap_between_two_lightsleep_polls_wakes_the_blank_device(tmp_path):
    device = SimDevice(seed=3, flash_dir=str(tmp_path), busy=busy.ratio(), extra=("presslog=1",))
    try:
        device.run_until(180000)  # 3 minutes idle in the menu ...
        while device.oled.display_on and device.now < 200000:
            device.run_until(device.now + 20)
        assert not device.oled.display_on, "not blank after 3 minutes"
        # ... blank, polling in 50 ms lightsleeps from now on: a tap that covers no poll
        tap = [(device.now + 55, device.now + 95, DOWN)]
        device.run_until(device.now + 400, sim_keys.levels(tap))
        assert device.oled.display_on, "the tap did not wake the device"
        assert "Start game" in "\n".join(screen_lines(device.oled_pixels()))
    finally:
        device.close()
    # the waking press does nothing else (power.py): no event reached the game
    assert [line for line in device.console if line.startswith("PRESS ")] == []


def _menu_up(device):
    """Run to the set-up menu: booting from sources charges their compiling as chip time,
    so the menu's moment moves with the firmware's size (a flashed Pico loads .mpy)."""
    while device.now < 20000 and "Start game" not in "\n".join(screen_lines(device.oled_pixels())):
        device.run_until(device.now + 20)


def test_start_game_opens_the_table_over_many_frames_while_the_roll_off_tumbles(tmp_path):
    """Start game opens the strategy table (about 0.85 s on the chip in all) a part a frame:
    the roll-off screen shows at once, its dice tumble while the table opens (several
    faces on the dice before ``P? starts!``), and no stretch of the roll-off is the whole
    opening (about 20 frames; the figures themselves are in ``bench busy``)."""
    from host_tools import sim
    from host_tools.simulator.screen import device_text

    device = SimDevice(seed=3, flash_dir=str(tmp_path), tables=sim.device_tables(), busy=busy.ratio())
    seen = []
    try:
        _menu_up(device)
        released = device.now + 160
        levels = sim_keys.levels([(device.now + 100, released, OK)])
        while device.now < 40000:
            device.run_until(device.now + 20, levels)
            screen = "\n".join(screen_lines(device.oled_pixels()))
            if "starts!" in screen:
                break
            if "Who starts?" in screen:
                dice = device_text(device).splitlines()[0]
                if not seen or seen[-1] != dice:
                    seen.append(dice)
    finally:
        device.close()
    assert "starts!" in screen, screen
    assert len(seen) >= 3, seen  # tumbling faces, then the faces rolled
    roll_off = [busy_ms for at, busy_ms in device.stretches if released <= at < device.now]
    assert len(roll_off) >= 15, roll_off
    # The whole opening in one stretch was 850 ms and more; a part is a few tens of ms.
    assert max(roll_off) < busy.CHIP_ADVISOR_INIT_MS / 2, roll_off


@pytest.mark.parametrize("tap_ms", (20, 40, 80, 150))
def test_taps_while_the_roll_off_opens_the_table_reach_the_game_in_order_once(tmp_path, tap_ms):
    from host_tools import sim

    line = Timeline(2600)
    line.press(OK, gap=100)  # Start game: the roll-off, its table opening a part a frame
    for button in (DOWN, UP, DOWN, UP, DOWN):
        line.press(button, tap_ms, gap=60)
    line.wait(3000)
    device = SimDevice(
        seed=3, flash_dir=str(tmp_path), tables=sim.device_tables(), busy=busy.ratio(), extra=("presslog=1",)
    )
    try:
        device.run_until(line.t, sim_keys.levels(line.presses))
    finally:
        device.close()
    got = [int(entry.split()[1]) for entry in device.console if entry.startswith("PRESS ")]
    assert got == released_in_order(line.presses, device.flash_windows, got), "\n".join(device.console[-30:])


class TapsInFlash:
    """Button levels for ``run_until``: the scripted ``presses``, plus for each ``(after,
    button, ms)`` a tap of ``ms`` starting 1 ms into the first flash erase (the
    interrupts off for 45 ms) the device reports from ``after`` on. The device tells of
    each erase as it starts (``SimDevice.interrupts_off``) and the host works out the
    levels inside it only after that, so a tap can be placed inside it."""

    def __init__(self, device, presses, taps):
        self.device = device
        self.presses = list(presses)
        self.taps = taps
        self.placed = []
        self._known = -1
        self._levels = sim_keys.levels(self.presses)

    def _update(self):
        windows = self.device.interrupts_off
        if len(windows) == self._known:
            return
        self._known = len(windows)
        self.placed = []
        for after, button, ms in self.taps:
            starts = [start for start, end in windows if start >= after and end - start >= 45]
            if starts:
                self.placed.append((starts[0] + 1, starts[0] + 1 + ms, button))
        self._levels = sim_keys.levels(self.presses + self.placed)

    @property
    def edges(self):
        self._update()
        return self._levels.edges

    def __call__(self, ms):
        self._update()
        return self._levels(ms)


@pytest.mark.parametrize("tap_ms", (20, 40))
def test_taps_inside_the_flash_erase_after_a_roll_or_a_hold_reach_the_game_once(tmp_path, tap_ms):
    """rp2 turns the interrupts off while a save erases a flash sector (45 ms here): a tap
    made then, 1 ms into the erase that follows ROLL and the one that follows a hold
    change, has both edges latched by the time its interrupt runs. Busy mode models that
    window; each tap reaches the game once, in order (they were lost: the handler read
    the pin back at rest)."""
    line = Timeline(2600)
    line.press(OK, gap=4000)  # Start game: the human's turn after the roll-off
    roll_at = line.t
    line.press(ROLL, gap=800)
    hold_at = line.t
    line.press(HOLD1, gap=800)
    device = SimDevice(seed=3, flash_dir=str(tmp_path), busy=busy.ratio(), extra=("presslog=1",))
    levels = TapsInFlash(device, line.presses, [(roll_at, HOLD1 + 2, tap_ms), (hold_at, HOLD1 + 3, tap_ms)])
    try:
        device.run_until(line.t + 1000, levels)
    finally:
        device.close()
    assert len(levels.placed) == 2, device.interrupts_off
    for start, end, _button in levels.placed:
        erase = [(a, b) for a, b in device.interrupts_off if a <= start and end < b]
        assert erase, (start, end, device.interrupts_off)  # the whole tap inside the erase
    got = [int(entry.split()[1]) for entry in device.console if entry.startswith("PRESS ")]
    want = released_in_order(line.presses + levels.placed)  # one tap in each erase: their order is known
    assert got == want, "\n".join(device.console[-30:])


def _idle_heap(tmp_path, ratio):
    device = SimDevice(seed=3, flash_dir=str(tmp_path), busy=ratio, extra=("memprobe=250",))
    try:
        device.run_until(4000)  # the splash, then the menu idle
    finally:
        device.close()
    for entry in device.console:
        if entry.startswith("heap-peak"):
            words = entry.split()
            return int(words[3]), int(words[5])
    raise AssertionError("no heap-peak line: %s" % device.console[-5:])


def test_busy_mode_leaves_the_firmware_the_plain_heap_and_its_frames_allocate_nothing(tmp_path):
    """The firmware meets the heap it has on the chip in busy mode too: as much free heap
    as in a plain run (the busy board's own module and meter are added to the heap), and
    busy mode's frames make no garbage (the chip's do not: its GC runs as seldom, so
    the heap fragments as on the chip). Busy mode once ran out of heap in ui/font.text."""
    plain_free, plain_garbage = _idle_heap(tmp_path / "plain", None)
    free, garbage = _idle_heap(tmp_path / "busy", busy.ratio())
    assert plain_garbage == 0
    assert garbage == 0
    assert abs(free - plain_free) <= 1024, (free, plain_free)


# From the menu: 4 players, P1 CPU optimal, P2 CPU win, P3 CPU good, P4 CPU casual (the
# menu's kinds in OK order: human, optimal, win, good, casual; seats 2-4 start casual).
ALL_LEVELS = (DOWN, OK, OK, DOWN, OK, DOWN, OK, OK, OK, DOWN, OK, OK, OK, OK, DOWN, UP, UP, UP, UP, UP)


def test_taps_during_the_computers_turns_at_every_level_all_reach_the_game(tmp_path):
    """Four computer seats, one of each level, with the tables: taps of 20-150 ms all
    through their turns (the holds, its decisions, the saves, the summaries) are each
    taken once, in order. Prints the longest stretch in those turns (estimated chip ms;
    the frames' structure is tests/strategy/test_ui_computer.py's, the target `bench busy`'s)."""
    from host_tools import sim

    line = Timeline(2600)
    for button in ALL_LEVELS:
        line.press(button)
    line.press(OK, gap=6000)  # Start game; the roll-off is over by then
    play_from = line.t
    rng = random.Random(23)
    for i in range(48):  # about 20 s: the first round's four turns
        line.press(HOLD1 + rng.randrange(5), (20, 40, 80, 150)[i % 4], gap=rng.randrange(150, 500))
    device = SimDevice(
        seed=3, flash_dir=str(tmp_path), tables=sim.device_tables(), busy=busy.ratio(), extra=("presslog=1",)
    )
    try:
        device.run_until(line.t + 1000, sim_keys.levels(line.presses))
    finally:
        device.close()
    got = [int(entry.split()[1]) for entry in device.console if entry.startswith("PRESS ")]
    assert got == released_in_order(line.presses, device.flash_windows, got), "\n".join(device.console[-30:])
    state = saved(tmp_path)["game"]
    assert [p[1] for p in state["players"]] == ["optimal", "win", "good", "casual"], state["players"]
    assert state["round"] >= 1, state  # every seat has played a turn under the taps
    during = sorted(b for s, b in device.stretches if play_from <= s < line.t)
    assert during, "busy mode reported no work"
    print(
        "computers' turns: longest stretch %d ms, 95th percentile %d ms" % (during[-1], during[len(during) * 95 // 100])
    )


def _screen(device):
    return "\n".join(screen_lines(device.oled_pixels()))


def _saved_game(flash):
    """A game of the default set-up (a human against a computer, with the tables) saved
    on the human's first turn, then a power cut: the next boot asks "Continue?"."""
    from host_tools import sim

    device = SimDevice(seed=3, flash_dir=str(flash), tables=sim.device_tables(), busy=busy.ratio())
    try:
        _first_turn(device)
    finally:
        device.close()
    assert saved(flash) is not None


def _first_turn(device):
    """From power-on to the human's first turn (Start game, the roll-off: seed 3)."""
    _menu_up(device)
    t = device.now
    device.run_until(t + 6000, sim_keys.levels([(t + 100, t + 160, OK)]))
    assert "Roll 0/3" in _screen(device), _screen(device)


def _offered(flash, extra=()):
    """Boots on the saved game, up to its "Continue" question."""
    from host_tools import sim

    device = SimDevice(seed=3, flash_dir=str(flash), tables=sim.device_tables(), busy=busy.ratio(), extra=extra)
    while device.now < 20000 and "Continue" not in _screen(device):
        device.run_until(device.now + 20)
    assert "Continue" in _screen(device), _screen(device)
    return device


def test_continue_shows_the_turn_and_opens_the_table_over_many_frames(tmp_path):
    """Continue on a saved game opens the strategy table a part a frame, as Start game does
    (it was one stretch of about 850 estimated ms): the turn screen shows first, then the
    opening runs as many short stretches. Prints the work before the screen reacted and
    the longest stretch after (estimated chip ms; the targets are `bench busy`'s)."""
    _saved_game(tmp_path)
    before = saved(tmp_path)
    device = _offered(tmp_path)
    try:
        released = device.now + 160
        levels = sim_keys.levels([(device.now + 100, released, OK)])
        shown = None
        while device.now < released + 4000:
            device.run_until(device.now + 10, levels)
            if shown is None and device.now > released and "Roll 0/3" in _screen(device):
                shown = device.now
    finally:
        device.close()
    assert shown is not None, _screen(device)
    first = sum(b for at, b in device.stretches if released <= at < shown)
    after = [b for at, b in device.stretches if shown <= at < device.now]
    print(
        "Continue: %d ms of work before the turn screen, then %d stretches, longest %d ms"
        % (first, len(after), max(after))
    )
    assert len([b for b in after if b >= 10]) >= 15, after  # the opening's parts (an idle frame: ~5), after it
    assert max(after) < busy.CHIP_ADVISOR_INIT_MS / 2, after
    assert saved(tmp_path) == before  # resuming changes nothing


@pytest.mark.parametrize("tap_ms", (20, 40, 80, 150))
def test_taps_while_continue_opens_the_table_reach_the_game_in_order_once(tmp_path, tap_ms):
    """Presses made while a resumed game's table opens wait and are each taken once, in
    order, once it is open (as in a solo game's Start game)."""
    _saved_game(tmp_path)
    device = _offered(tmp_path, extra=("presslog=1",))
    try:
        line = Timeline(device.now + 100)
        line.press(OK, gap=40)  # Continue: the turn screen, its table opening a part a frame
        for button in (DOWN, UP, DOWN, UP, DOWN):
            line.press(button, tap_ms, gap=60)
        line.wait(3000)
        device.run_until(line.t, sim_keys.levels(line.presses))
    finally:
        device.close()
    got = [int(entry.split()[1]) for entry in device.console if entry.startswith("PRESS ")]
    assert got == released_in_order(line.presses, device.flash_windows, got), "\n".join(device.console[-30:])
    assert "Roll 0/3" in _screen(device)


def test_a_saves_packing_and_its_write_are_frames_of_their_own(tmp_path):
    """The save after an action (a hold change here) is packed in one frame and written in
    another, after the frame that shows the action: at least three stretches of real work
    from the press until the save is on flash (it was two: the screen, then the packing
    and the 45 ms erase in one). Prints them (estimated chip ms; targets: `bench busy`)."""
    from host_tools import sim

    device = SimDevice(seed=3, flash_dir=str(tmp_path), tables=sim.device_tables(), busy=busy.ratio())
    try:
        _first_turn(device)
        t = device.now
        device.run_until(t + 1500, sim_keys.levels([(t + 100, t + 160, ROLL)]))
        assert saved(tmp_path)["game"]["held"] == 0
        released = device.now + 160
        levels = sim_keys.levels([(device.now + 100, released, HOLD1)])
        written = None
        while written is None and device.now < released + 2000:
            device.run_until(device.now + 1, levels)
            if saved(tmp_path)["game"]["held"] == 1:
                written = device.now
    finally:
        device.close()
    assert written is not None
    work = [b for at, b in device.stretches if released <= at < written]
    print("a hold change's save: stretches %s ms, longest %d ms" % (work, max(work)))
    assert len([b for b in work if b >= 10]) >= 3, work


def test_the_idle_menu_sleeps_between_frames_in_busy_mode(tmp_path):
    """With the firmware's work costing its estimated chip time, the idle menu still
    sleeps in lightsleep (``hw.idle``, up to 50 ms a frame) rather than running 5 ms
    frames: the power budget's idle figures rest on it. A collection after each frame that
    overran (it counted its own overrun) once kept it awake: 918 frames in 10 s."""
    device = SimDevice(seed=3, flash_dir=str(tmp_path), busy=busy.ratio())
    try:
        device.run_until(3000)  # the splash, then the menu
        waits = device.waits
        device.run_until(13000)
    finally:
        device.close()
    frames = device.waits - waits
    assert frames < 400, frames  # about 200: 50 ms sleeps

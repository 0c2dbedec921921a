"""Busy stretches a press could notice, in estimated chip ms (the simulator's busy mode).

How estimated: the firmware runs in the unix port with the sim board's busy mode
(boards/sim_busy.BusyMeter): each stretch of work between two waits costs its host time
(wall clock less the time the process waited for a CPU) x the chip/host ratio calibrated
on ``Advisor()`` (853 ms on MicroPython 1.28 in rp2040js, docs/figures.md's chip rows), plus
the I2C bytes at 400 kHz (a full OLED frame about 23 ms), SPI at 10 MHz and one 45 ms
sector erase per file written (an upper bound: littlefs often needs none). The tree is
compiled with mpy-cross (bytecode, native code for x64) as the device runs .mpy, so
compiling at import does not count; a module's loading from flash is not modelled.
Each moment is the longest stretch in the second after the press that starts it (Start
game: the whole roll-off, ``ROLL_OFF_MS``, after its screen shows, while the strategy
table opens a part a frame; the first turn: 400 ms from its screen, its advisor's
preparation; Continue: the game left saved, at the next boot, ``CONTINUE_MS`` from its
screen). A second game plays four computers, one of each level, from the menu's set-up
to Game over (the set-up's saves, the whole game, its end); a third is the first again,
with the card view opened as the computer's turn starts and while it plays
(``CARD_SCRIPT``, each moment ``CARD_MS`` after its press). Each game (seed 3) runs
``RUNS`` times, the first recorded and the others replaying its clock readings, and each
stretch counts its fastest run (``Timeline``). Targets (docs/power_and_input.md): Start game at
most 200 ms before the first screen reacts; no stretch over 100 ms during play; the menu
at most 1.5 s after power-on.
"""

import bisect
import os
import shutil
import subprocess
import tempfile

import host_tools
from host_tools.simulator import busy
from host_tools.simulator import keys as sim_keys
from host_tools.simulator.screen import screen_lines
from host_tools.simulator.unix_port import SimDevice

RUNS = 5
HOLD1, ROLL, UP, DOWN, OK, MENU = 0, 5, 6, 7, 8, 9
# (label, button, wait after it): the game of tests/sim/test_busy_sim.py without its taps
SCRIPT = (
    ("Start game: longest stretch of the roll-off (its table opening)", OK, 6000),  # over by then
    ("ROLL until the dice show", ROLL, 800),
    ("a hold change (its save)", HOLD1, 400),
    (None, OK, 400),
    ("OK that scores: the computer's turn starts", OK, 1500),  # its save, meter, advisor
    ("OK: the score stands, the computer plays", OK, 3500),  # it waited: could go back
    ("OK on its summary: a human turn starts", OK, 1000),
)
# The same game with the card view opened (MENU, and MENU back) as the computer's turn
# starts, at CARD_OFFSETS ms after the score's press (its save, the meter and its advisor's
# preparation are queued then), and again while it plays (its roll, then its decision's
# parts): each moment the longest stretch in CARD_MS after a press, the most of its turns.
CARD_STARTS = "MENU: the card as a computer's turn starts"
CARD_RUNS = "MENU: the card while a computer plays"
CARD_MS = 400
CARD_OFFSETS = (20, 60, 100, 140)


def _card_turns():
    script = []
    for offset in CARD_OFFSETS:
        script += [
            (None, OK, offset),  # scores: the computer's turn starts
            (CARD_STARTS, MENU, 500),
            (None, MENU, 700),  # back to the turn
            (None, OK, 300),  # the score stands: the computer rolls at its pace
            (CARD_RUNS, MENU, 500),
            (None, MENU, 5500),  # its turn, then its summary
            (None, OK, 1000),  # the summary stays until OK: the human's turn
            (None, ROLL, 800),
            (None, OK, 400),  # the best box offered ...
        ]
    return tuple(script)


CARD_SCRIPT = SCRIPT[:4] + _card_turns()
START_MS = 2600
ROLL_OFF_MS = 2000  # the roll-off's tumble, the table's opening and its result: the window
CONTINUE = "Continue: work before the screen reacts"
CONTINUE_OPENING = "Continue: longest stretch as its table opens"
CONTINUE_MS = 2500  # the table's opening, the win level and the turn's preparation: the window
FIRST_TURN = "first turn: longest stretch as it starts (its advisor prepared)"
# (moment, target ms): the most a player should wait, printed with each figure
TARGETS = {
    "menu at (power-on to the menu)": 1500,
    "Start game: work before the screen reacts": 200,
    CONTINUE: 200,
}
PLAY_TARGET = 100  # every other moment: a stretch during play
# Where the emulated chip (MicroPython 1.28.0 in rp2040js, one sample) saw a moment longer
# than this estimate, and what the estimate leaves out there: printed beside the figure.
CHIP_BESIDE = {
    "boot: longest stretch": (
        "581",
        "loading each module from flash (littlefs reads, the .mpy's objects made on a 32-bit heap): "
        "the unix port imports the same .mpy files from the host's disk cache",
    ),
    "OK that scores: the computer's turn starts": (
        "78-80",
        "the speed of the advisor's native code (armv6m on the chip, x86-64 here) and of the garbage "
        "collection against the one ratio the estimate has, calibrated on Advisor()",
    ),
}
# The second game: from the menu, 4 players, P1 CPU optimal, P2 CPU win, P3 CPU good, P4
# CPU casual (the presses of tests/sim/test_busy_sim.py), then Start game, to Game over.
ALL_LEVELS = (DOWN, OK, OK, DOWN, OK, DOWN, OK, OK, OK, DOWN, OK, OK, OK, OK, DOWN, UP, UP, UP, UP, UP)
MENU_GAP_MS = 150
SET_UP = "menu: a set-up change (its save)"
COMPUTERS = "4 computers, every level: longest stretch of the game"
GAME_END = "4 computers: the game's end (its last turn, save and records)"
GAME_END_MS = 5000  # before its end screen shows: the summary (1.5 s) and the last turn


def compiled_tree(folder):
    """firmware/ and boards/ compiled to .mpy for the unix port (main.py stays a script)."""
    cross = shutil.which("mpy-cross") or os.path.join(os.path.dirname(host_tools.micropython_command()), "mpy-cross")
    for source_root, prefix in ((host_tools.FIRMWARE, ""), (os.path.join(host_tools.REPO, "boards"), "boards")):
        for root, _dirs, files in os.walk(source_root):
            rel = os.path.relpath(root, source_root)
            out_dir = os.path.normpath(os.path.join(folder, prefix, rel))
            os.makedirs(out_dir, exist_ok=True)
            for name in files:
                if not name.endswith(".py"):
                    continue
                src = os.path.join(root, name)
                if prefix == "" and rel == "." and name == "main.py":
                    shutil.copyfile(src, os.path.join(out_dir, name))
                    continue
                subprocess.run(
                    [cross, "-march=x64", "-o", os.path.join(out_dir, name[:-3] + ".mpy"), src],
                    check=True,
                    capture_output=True,
                )
    return folder


class Timeline:
    """The recorded run's stretches, each costing its fastest in ``runs`` (the recorded
    run and replays that took its path, SimDevice ``busy_log``): noise only ever adds
    host time. The recorded run's virtual times map to this timeline by ``at``, which
    takes off (or adds) what the stretches before cost more (or less) there."""

    def __init__(self, recorded, runs):
        first = recorded.readings
        self.stretches = []
        self._starts = []  # the recorded run's stretch starts (ms), in order ...
        self._removed = []  # ... and the ms taken off before and by each
        fastest = []
        removed = 0
        for index, (start, values, _path) in enumerate(first):
            best = [min(run.readings[index][1][j] for run in runs) for j in range(len(values))]
            fastest.append(best)
            busy = best[-1] // 1000 if best else 0
            if busy:
                self.stretches.append((start - removed, busy))
            removed += (values[-1] // 1000 if values else 0) - busy
            self._starts.append(start)
            self._removed.append(removed)
        self.shown = [self.at(first[w][0]) + fastest[w][j] // 1000 for w, j in recorded.marks]

    def at(self, t):
        started = bisect.bisect_left(self._starts, t)  # the stretches that began before t
        return t - (self._removed[started - 1] if started else 0)


def play_game(flash, code_dir, tables, ratio, log, script=SCRIPT):
    """The scripted game on ``flash``: (the device after it, the press script, its marks,
    the virtual ms the menu and the first turn showed)."""
    presses, t = [], START_MS
    marks = []
    for label, button, after in script:
        presses.append((t, t + sim_keys.PRESS_MS, button))
        window = ROLL_OFF_MS if button == OK and not marks else min(after, 1000)
        marks.append((label, t + sim_keys.PRESS_MS, t + sim_keys.PRESS_MS + window))
        t += sim_keys.PRESS_MS + after
    device = SimDevice(seed=3, flash_dir=flash, code_dir=code_dir, tables=tables, busy=ratio, busy_log=log)
    try:
        menu_at = None
        while device.now < START_MS - 100:
            device.run_until(device.now + 20)
            if menu_at is None and any("Start game" in line for line in screen_lines(device.oled_pixels())):
                menu_at = device.now
        levels = sim_keys.levels(presses)
        turn_at = None
        while device.now < t + 500:
            before = device.now
            device.run_until(device.now + 20, levels)
            if turn_at is None and any("Roll 0/3" in line for line in screen_lines(device.oled_pixels())):
                turn_at = before - 100  # from the frame that drew it (the starter was idle)
    finally:
        device.close()
    return device, marks, menu_at, turn_at


def game_moments(line, marks, menu_at, turn_at):
    """The moments of a game's Timeline ``line`` (times of the recorded run)."""
    stretches, at = line.stretches, line.at
    found = {
        "menu at (power-on to the menu)": at(menu_at) if menu_at is not None else 0,
        "boot: longest stretch": max((b for s, b in stretches if s < at(START_MS)), default=0),
    }
    first_turn = None
    for label, start, end in marks:
        start, end = at(start), at(end)
        if label and label.startswith("Start game"):
            handled = start + 18  # the release is debounced for 18 ms (drivers/buttons.py)
            shown = [t for t in line.shown if t >= handled]
            found["Start game: work before the screen reacts"] = shown[0] - handled if shown else -1
            first_turn = end
            start = shown[0] if shown else start  # the roll-off: the stretches after its screen shows
        inside = [(s, b) for s, b in stretches if start <= s < end]
        if label is not None:
            found[label] = max((b for _s, b in inside), default=0)
    turn = at(turn_at) if turn_at is not None else None
    found[FIRST_TURN] = max((b for s, b in stretches if turn is not None and turn <= s < turn + 400), default=0)
    found["longest stretch during play (after the roll-off)"] = max(
        (b for s, b in stretches if first_turn is not None and s >= first_turn), default=0
    )
    return found


def card_game(code_dir, tables, ratio):
    """The game of CARD_SCRIPT, RUNS times: its two moments, with each stretch its
    fastest run's, and each run's alone."""
    runs = []
    for _ in range(RUNS):
        with tempfile.TemporaryDirectory() as flash:
            log = runs[0][0].readings if runs else "record"
            runs.append(play_game(flash, code_dir, tables, ratio, log, CARD_SCRIPT))
    devices = [run[0] for run in runs]
    marks = [(label, start, start + CARD_MS) for label, start, _end in runs[0][1] if label in (CARD_STARTS, CARD_RUNS)]

    def moments(line):
        found = {}
        for label, start, end in marks:
            longest = max((b for s, b in line.stretches if line.at(start) <= s < line.at(end)), default=0)
            found[label] = max(found.get(label, 0), longest)
        return found

    return moments(Timeline(devices[0], devices)), [moments(Timeline(devices[0], [d])) for d in devices]


def continue_game(flash, code_dir, tables, ratio, log):
    """The game saved on ``flash`` continued at the next boot: (the device, the OK's ms)."""
    device = SimDevice(seed=3, flash_dir=flash, code_dir=code_dir, tables=tables, busy=ratio, busy_log=log)
    try:
        while device.now < 20000 and not any("Continue" in line for line in screen_lines(device.oled_pixels())):
            device.run_until(device.now + 20)
        ok_at = device.now + 100
        device.run_until(ok_at + CONTINUE_MS, sim_keys.levels([(ok_at, ok_at + sim_keys.PRESS_MS, OK)]))
    finally:
        device.close()
    return device, ok_at


def continue_moments(line, ok_at):
    """The work from the OK on "Continue" to its screen, and the longest stretch while
    its table opens (CONTINUE_MS)."""
    handled = line.at(ok_at) + sim_keys.PRESS_MS + 18  # the release, debounced (drivers/buttons.py)
    shown = [t for t in line.shown if t >= handled]
    start = shown[0] if shown else handled
    return {
        CONTINUE: shown[0] - handled if shown else -1,
        CONTINUE_OPENING: max((b for s, b in line.stretches if start <= s < handled + CONTINUE_MS), default=0),
    }


def play_computers(flash, code_dir, tables, ratio, log):
    """The second game on ``flash``: (the device, the first menu press's ms, Start game's,
    and when the end screen showed)."""
    presses, t = [], START_MS
    for button in ALL_LEVELS:
        presses.append((t, t + sim_keys.PRESS_MS, button))
        t += MENU_GAP_MS
    start_at = t
    presses.append((t, t + sim_keys.PRESS_MS, OK))
    device = SimDevice(seed=3, flash_dir=flash, code_dir=code_dir, tables=tables, busy=ratio, busy_log=log)
    end_at = None
    try:
        levels = sim_keys.levels(presses)
        while end_at is None and device.now < 20 * 60000:
            device.run_until(device.now + 50, levels)
            if any("Game over" in line for line in screen_lines(device.oled_pixels())):
                end_at = device.now
        device.run_until(device.now + 2000, levels)
    finally:
        device.close()
    return device, START_MS, start_at, end_at


def computers_moments(line, menu_from, start_at, end_at):
    at = line.at
    if end_at is None:
        return {SET_UP: -1, COMPUTERS: -1, GAME_END: -1}  # it never ended: shown as -1

    def longest(start, end):
        return max((b for s, b in line.stretches if start <= s < end), default=0)

    return {
        SET_UP: longest(at(menu_from), at(start_at)),
        COMPUTERS: longest(at(start_at), at(end_at)),
        GAME_END: longest(at(end_at) - GAME_END_MS, at(end_at) + 2000),
    }


def computers_game(code_dir, tables, ratio):
    """The second game, RUNS times, as one_game."""
    runs = []
    for _ in range(RUNS):
        with tempfile.TemporaryDirectory() as flash:
            runs.append(play_computers(flash, code_dir, tables, ratio, runs[0][0].readings if runs else "record"))
    devices = [run[0] for run in runs]
    times = runs[0][1:]
    fastest = computers_moments(Timeline(devices[0], devices), *times)
    return fastest, [computers_moments(Timeline(devices[0], [device]), *times) for device in devices]


def one_game(code_dir, tables, ratio):
    """The game and its Continue, RUNS times (the first recorded, then replays): the
    moments with each stretch its fastest run's, and each run's alone."""
    games, resumes = [], []
    for _ in range(RUNS):
        with tempfile.TemporaryDirectory() as flash:
            games.append(play_game(flash, code_dir, tables, ratio, games[0][0].readings if games else "record"))
            resumes.append(
                continue_game(flash, code_dir, tables, ratio, resumes[0][0].readings if resumes else "record")
            )
    _device, marks, menu_at, turn_at = games[0]
    ok_at = resumes[0][1]
    game_devices = [run[0] for run in games]
    resume_devices = [run[0] for run in resumes]

    def moments(game_runs, resume_runs):
        found = game_moments(Timeline(game_devices[0], game_runs), marks, menu_at, turn_at)
        found.update(continue_moments(Timeline(resume_devices[0], resume_runs), ok_at))
        return found

    alone = [moments([g], [r]) for g, r in zip(game_devices, resume_devices)]
    return moments(game_devices, resume_devices), alone


def run():
    cal = busy.calibrate(refresh=True)
    print(
        "calibration: Advisor() %.1f host ms, the fastest of 5 (chip %d ms) -> ratio %.1f; check, the advisor's "
        "turn: %.3f host ms, the mean of 70 (chip %.1f ms) -> %.1f"
        % (
            cal["init_us"] / 1000,
            busy.CHIP_ADVISOR_INIT_MS,
            cal["ratio"] / 100,
            cal["turn_us"] / 1000,
            busy.CHIP_ADVISOR_TURN_MS,
            cal["turn_ratio"] / 100,
        )
    )
    from host_tools.simulator import headless as sim_headless

    tables = sim_headless.device_tables()
    with tempfile.TemporaryDirectory() as code:
        compiled_tree(code)
        ratio = busy.ratio()
        fastest, alone = one_game(code, tables, ratio)
        for more, more_alone in (computers_game(code, tables, ratio), card_game(code, tables, ratio)):
            fastest.update(more)
            for found, also in zip(alone, more_alone):
                found.update(also)
    print(
        "how estimated: each stretch of work between two waits = its unix-port time (less CPU waits) x the ratio "
        "above + the I2C bytes at 400 kHz (an OLED frame ~23 ms) + SPI at 10 MHz + 45 ms a file written; "
        "each of three games (a human against a computer; four computers, one of each level, to its end; "
        "the first again with the card view opened as the computer's turn starts and while it plays; "
        "seed 3) run %d times, the first recorded and the others "
        "replaying its clock readings so that they take its path, each stretch its fastest run's (host noise "
        "only adds); a moment = the longest stretch in its window (1 s after the press; the roll-off %d ms), "
        "emulated-chip ms" % (RUNS, ROLL_OFF_MS)
    )
    for key, value in fastest.items():
        target = TARGETS.get(key, None if key.startswith("boot") else PLAY_TARGET)
        verdict = "" if target is None else "  target <= %d: %s" % (target, "met" if value <= target else "NOT met")
        runs = ", ".join(str(found[key]) for found in alone)
        print("%-66s %5d ms  (each run alone: %s)%s" % (key, value, runs, verdict))
        beside = chip_beside(key)
        if beside:
            print(beside)


def chip_beside(key):
    """The indented line after a moment the emulated chip saw longer: its figure and what
    the estimate leaves out there (CHIP_BESIDE), or None."""
    if key not in CHIP_BESIDE:
        return None
    chip_ms, left_out = CHIP_BESIDE[key]
    return "  the emulated chip: %s ms; not in this estimate: %s" % (chip_ms, left_out)


if __name__ == "__main__":
    run()

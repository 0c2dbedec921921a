"""Screen fixes of the turn, the hint and the menu, played in the headless simulator (the real
firmware under MicroPython) or drawn by the real app on a loopback link: the box list
keeps the points hidden while the dice tumble, the win meter shows from the first turn
and after Continue, a computer's summary names its bonuses, the hint with opponents
lets the player take either move and the review never charges the one it offered, and
the small screens' fixes (word wrap, the set-up kept between power-ons, ...).
"""

import pytest

import rules
from host_tools import sim
from host_tools.benches import win_meter as bench
from host_tools.simulator import golden as sim_golden
from host_tools.simulator.screen import dice_line, screen_lines, text_lines
from host_tools.simulator.unix_port import SimDevice
from host_tools.solver import cache as solver_cache
from helpers.sim_helpers import play, run_probe, saved

pytestmark = pytest.mark.slow

FORCED = rules.make_ruleset()


@pytest.fixture(scope="module")
def meter_tables():
    """Both tables the win meter needs, under the names the device looks for."""
    return {
        "strategy-forced.bin": solver_cache.table(FORCED),
        "spread-forced.bin": solver_cache.spread_table(FORCED, bench.DEVICE_BANDS),
    }


def at(flash, keys, seed=5, **options):
    """The device right after ``keys`` (no settling time after the last key)."""
    device = SimDevice(flash_dir=str(flash), seed=seed, **options)
    try:
        sim.run_headless(device, keys, settle_ms=0)
    finally:
        device.close()
    return device


# -- the box list waits for the dice --------------------------------------------------
def test_the_box_list_shows_the_points_only_when_the_dice_settle(tmp_path):
    rolled = sim_golden.SOLO + " space"
    tumbling = at(tmp_path / "tumbling", rolled)
    shown = screen_lines(tumbling.oled_pixels())
    assert shown[0].startswith("P1 Roll 1/3")  # the roll is made (the header counts it)
    assert saved(tmp_path / "tumbling")["game"]["rolls"] == 1
    assert not any("+" in line for line in shown[1:7]), shown  # no points yet
    from host_tools.simulator.screen import inverted_rows

    assert inverted_rows(tumbling.oled_pixels())[1:7] == [False] * 6  # nor the best box
    settled = screen_lines(at(tmp_path / "settled", rolled + " wait:400").oled_pixels())
    assert sum("+" in line for line in settled[1:7]) >= 1
    # OK at once (a quick player) stops the tumble: the LEDs show the faces the
    # confirmation scores, at the same moment.
    quick = at(tmp_path / "quick", rolled + " enter")
    assert screen_lines(quick.oled_pixels())[0] in ("Score this?", "Score a zero?")
    dice = saved(tmp_path / "quick")["game"]["dice"]
    assert dice_line(quick).split() == [str(face) for face in dice]


# -- the win meter from the first turn and after Continue -----------------------------
def test_the_win_meter_shows_in_round_one_and_right_after_continue(tmp_path, meter_tables):
    first = text_lines(play(tmp_path, sim_golden.TWO_HUMANS + " wait:4500", seed=4, tables=meter_tables).oled_pixels())
    assert first[0].startswith("P")
    assert "Roll 0/3" in first[0]
    assert first[7].count("%") == 1, first  # the opponent's chance before anyone scored
    play(tmp_path, sim_golden.HUMAN_TURN * 3, seed=4, tables=meter_tables)
    resumed = text_lines(play(tmp_path, "enter", seed=4, tables=meter_tables).oled_pixels())
    assert "Roll 0/3" in resumed[0], resumed
    assert resumed[7].count("%") == 1, resumed  # Continue


# -- a computer's summary names its bonuses -------------------------------------------
def _screens(code, cwd=None):
    """Run ``code`` (APP_ON_LOOPBACK and more) inside MicroPython; the ``dump()`` frames as
    text, and the other output lines."""
    proc = run_probe(code, cwd=cwd)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    frames, out = [], []
    for line in proc.stdout.splitlines():
        if line.startswith("FB "):
            buf = bytes.fromhex(line[3:])
            frames.append(
                text_lines([[(buf[(y >> 3) * 128 + x] >> (y & 7)) & 1 for x in range(128)] for y in range(64)])
            )
        else:
            out.append(line)
    return frames, out


# P2 (``kind``) to score five 6s with the Yahtzee box full (the forced joker: Sixes) and
# 45 in Aces..Fives: Sixes 30, the Yahtzee bonus 100 and the upper bonus 35.
FIVE_SIXES = r"""
import app as app_module
from ui import coach_screens, turn_screen
a.settings.players = 2
a.settings.rebuild()
p2 = [3, 6, 9, 12, 15, -1, -1, -1, -1, -1, -1, 50, -1, 0]
state = {"v": 1, "rules": rules.make_ruleset().name, "phase": game.TURN, "round": 6, "current": 1,
         "first": 0, "contenders": [0, 1], "dice": [6] * 5, "held": 0, "rolls": 1,
         "players": [["P1", "human", [0] * 7 + [-1] * 6 + [0]], ["P2", "KIND", p2]]}
a.resume(game.Game.from_state(state, hw.dice_source))
"""


def test_a_computers_summary_shows_the_yahtzee_and_upper_bonus_it_earned():
    from helpers.sim_helpers import APP_ON_LOOPBACK

    code = (
        APP_ON_LOOPBACK
        + FIVE_SIXES.replace("KIND", "cpu")
        + r"""
a.score(5)
print("SCREEN", a.screen == app_module.SUMMARY, a.game.total(1))
dump()
"""
    )
    (lines,), out = _screens(code)
    total = 45 + 30 + 50 + 100 + 35
    assert "SCREEN True %d" % total in out
    assert lines[0] == "P2 scored"
    assert lines[2].split() == ["6"] * 5
    assert [line.split() for line in lines[3:7]] == [
        ["Sixes", "30"],
        ["Yahtzee+", "100"],
        ["Upper", "bonus", "35"],
        ["Total", str(total)],
    ]
    assert lines[7] == "OK: go on"


def test_the_confirmation_shows_the_upper_bonus_a_box_would_earn():
    from helpers.sim_helpers import APP_ON_LOOPBACK

    code = (
        APP_ON_LOOPBACK
        + FIVE_SIXES.replace("KIND", "human")
        + r"""
turn_screen.ask_score(a, 5)
dump()
"""
    )
    (lines,), _out = _screens(code)
    assert lines[0] == "Score this?"
    assert [line.split() for line in lines[2:6]] == [
        ["Sixes", "30"],
        ["Yahtzee+", "100"],
        ["Upper", "bonus", "35"],
        ["Total", "then", str(45 + 30 + 50 + 100 + 35)],
    ]


# -- the coach with opponents ---------------------------------------------------------
def _far_behind_cards():
    from support import card_with
    from helpers.strategy_helpers import ME, THEM

    return card_with(**ME), card_with(**THEM)


# P1 to play 2-2-4-5-6 with two rolls left, 110 points behind P2 (test_win_level's
# position): max score keeps the 6, to win the 2s, and both show as 1 %.
FAR_BEHIND = _far_behind_cards() + ([2, 2, 4, 5, 6],)
# P1 with 1-2-1-2-2, P2 with only Aces open: max score takes the Full house now (2 %),
# to win keeps the three 2s and rolls (4 %).
CLOSER = (
    [3, 6, 9, 12, -1, 18, -1, -1, -1, 30, 40, -1, 22, 0],
    [3, -1, 9, 12, 15, 18, 30, 28, 25, 30, 40, 50, 24, 0],
    [1, 2, 1, 2, 2],
)

# Two humans, coach mode "turn", P1 on the turn with ``DICE`` after one roll.
POSITION = r"""
from drivers.buttons import OK, UP, DOWN
from ui import menu
import app as app_module
from ui import coach_screens, turn_screen
a.settings.players = 2
a.settings.kinds[1] = 0
a.settings.rebuild()
a.settings.coach = menu.COACH_TURN
g = game.Game(rules.make_ruleset(), [("P1", "human"), ("P2", "human")], hw.dice_source)
while g.phase == game.ROLLOFF:
    g.rolloff()
g.current = 0
g.players[0].card[:] = ME
g.players[1].card[:] = THEM
g.dice[:] = DICE
g.rolls = 1
g.held = 0
a.resume(g)
a.run(frames=100)
print("COACH", a.coach.adv is not None, a.coach.in_chance)
"""
# OK on every hint of the turn (holds while it says roll, then the box), then score.
FOLLOW = r"""
for step in range(3):
    coach_screens.open_hint(a)
    a.handle(OK)
    if (a.coach.win_box if a.coach.win_differs else a.coach.hint_box) >= 0:
        break
    a.roll()
    a.run(frames=100)
turn_screen.ask_score(a, a.cursor)
a.handle(OK)
print("REVIEW", a.screen == app_module.REVIEW, a.coach.cost, a.coach.lost_tenths())
dump()
"""


def _position(tmp_path, meter_tables, position, code):
    import os

    from helpers.sim_helpers import APP_ON_LOOPBACK

    for name, path in meter_tables.items():
        os.symlink(path, tmp_path / name)
    me, them, dice = position
    probe = APP_ON_LOOPBACK + "ME = %r\nTHEM = %r\nDICE = %r\n" % (me, them, dice) + POSITION + code
    frames, out = _screens(probe, cwd=str(tmp_path))
    assert "COACH True True" in out, out
    return frames, out


def test_the_hint_with_opponents_says_what_ok_takes_and_takes_either_move(tmp_path, meter_tables):
    frames, out = _position(
        tmp_path,
        meter_tables,
        CLOSER,
        r"""
a.cursor = 12
coach_screens.open_hint(a)
dump()
a.handle(OK)
print("TAKEN", a.game.held, a.cursor, a.screen == app_module.TURN)
a.set_holds(0)
coach_screens.open_hint(a)
a.handle(DOWN)
dump()
a.handle(OK)
print("TAKEN", a.game.held, a.cursor, a.screen == app_module.TURN)
""",
    )
    hint, picked = frames
    assert hint[0] == "Hint P1 Roll 1/3"
    assert hint[1].split() == ["Most", "points", "2%"], hint
    assert hint[4].split() == ["To", "win", "4%"], hint
    assert hint[2].strip() == "Full house"
    assert hint[5].split() == [".", "2", ".", "2", "2"]
    assert hint[6] == "OK = to win"
    assert hint[7] == "UP/DOWN: other"
    assert picked[6] == "OK = most points"
    taken = [line.split()[1:] for line in out if line.startswith("TAKEN ")]
    # to win: keep the 2s (the cursor stays); max score: the cursor on the Full house
    assert taken == [[str(0b11010), "12", "True"], ["0", "8", "True"]]


def test_equal_chances_show_one_line_the_to_win_move(tmp_path, meter_tables):
    (hint,), out = _position(
        tmp_path,
        meter_tables,
        FAR_BEHIND,
        r"""
coach_screens.open_hint(a)
dump()
a.handle(OK)
print("TAKEN", a.game.held)
""",
    )
    assert hint[2] == "Keep, then roll:", hint
    assert hint[3].split() == ["2", "2", ".", ".", "."], hint
    assert hint[5].startswith("Ends about")
    assert not any("%" in line for line in hint)
    assert "TAKEN %d" % 0b00011 in out


@pytest.mark.parametrize("position", ["far_behind", "closer"])
def test_following_the_hint_with_opponents_is_never_charged(tmp_path, meter_tables, position):
    frames, out = _position(tmp_path, meter_tables, FAR_BEHIND if position == "far_behind" else CLOSER, FOLLOW)
    assert [line for line in out if line.startswith("REVIEW ")] == ["REVIEW True 0 0"]
    assert frames[-1][2] == "Best play!"


# -- dismissing a "Score:" hint --------------------------------------------------------
def test_dismissing_a_score_hint_leaves_the_cursor_where_it_was(tmp_path):
    from host_tools.simulator.screen import inverted_rows

    tables = sim_golden.scene_tables("hint_box")
    _seed, keys = sim_golden.SCENES["hint_box"]  # three rolls, then the hint: "Score: Aces"
    before = keys[: keys.rindex(" m ")]
    moved = before + " down down"  # the cursor away from the best box first
    turn = play(tmp_path / "turn", moved, seed=4, tables=tables).oled_pixels()
    hint = screen_lines(play(tmp_path / "hint", moved + " m wait:120", seed=4, tables=tables).oled_pixels())
    assert hint[2] == "Score:"
    back = play(tmp_path / "back", moved + " m wait:120 1", seed=4, tables=tables).oled_pixels()
    assert inverted_rows(back) == inverted_rows(turn)
    assert screen_lines(back) == screen_lines(turn)
    taken = play(tmp_path / "taken", moved + " m wait:120 enter", seed=4, tables=tables).oled_pixels()
    row = inverted_rows(taken)[1:7].index(True) + 1  # OK: the cursor on the advised box
    assert screen_lines(taken)[row].strip().startswith(hint[3].strip())


def test_the_two_line_hint_allocates_nothing_per_frame(tmp_path, meter_tables):
    import os

    from helpers.sim_helpers import alloc_probe

    for name, path in meter_tables.items():
        os.symlink(path, tmp_path / name)
    me, them, dice = CLOSER
    probe = (
        r"""
import game, rules
from loopback_rig import Rig
from drivers.buttons import DOWN
rig = Rig({"seed": "5"})
a, press, measure, hw = rig.app, rig.press, rig.measure, rig.hw
a.run(frames=400)
"""
        + "ME = %r\nTHEM = %r\nDICE = %r\n" % (me, them, dice)
        + POSITION.replace("from drivers.buttons", "#")
        + r"""
coach_screens.open_hint(a)
print("TWO", a.coach.win_differs)
measure("hint2-idle", 400, False)
measure("hint2-redraw", 200, True)
press(DOWN, 20)
a.run(frames=40)
print("PICK", coach_screens.hint_pick)
measure("hint2-picked", 200, True)
"""
    )
    lines, allocs = alloc_probe(probe, cwd=str(tmp_path))
    assert "TWO True" in lines, lines
    assert "PICK 0" in lines, lines
    assert allocs == {"hint2-idle": 0, "hint2-redraw": 0, "hint2-picked": 0}, lines


# -- the dim shows in the simulator's front-end ----------------------------------------
def test_the_simulator_shows_the_dimmed_oled_and_the_waking_press_does_nothing_else(tmp_path):
    from host_tools.simulator import png, term
    from host_tools.simulator.backend import DIMMED
    from host_tools.simulator.screen import device_text

    awake = play(tmp_path / "awake", "enter wait:1000", seed=1)
    dim = play(tmp_path / "dim", "enter wait:61000", seed=1)
    assert DIMMED not in device_text(awake)
    assert DIMMED not in "".join(term.frame_lines(awake, 132, 44))
    text = device_text(dim)
    assert text.splitlines()[1] == "oled: " + DIMMED
    frame = term.frame_lines(dim, 132, 44)
    assert any(DIMMED in line and "\u250c" in line for line in frame)
    assert any(DIMMED in line for line in term.frame_lines(dim, 68, 23))  # braille layout too
    for device, lit, unlit in ((awake, png.OLED_ON, png.OLED_DIM), (dim, png.OLED_DIM, png.OLED_ON)):
        path = tmp_path / "shot.png"
        png.write_png(str(path), device)
        _w, _h, rows = png.read_png(str(path))
        pixels = {bytes(row[i : i + 3]) for row in rows for i in range(0, len(row), 3)}
        assert bytes(lit) in pixels
        assert bytes(unlit) not in pixels
    # The press that brightens it does nothing else: DOWN leaves the menu's cursor.
    woken = play(tmp_path / "woken", "enter wait:61000 down", seed=1)
    assert DIMMED not in device_text(woken)
    assert device_text(woken) == device_text(awake)
    moved = play(tmp_path / "moved", "enter wait:61000 down down", seed=1)
    assert device_text(moved) != device_text(awake)  # the second press moves it


# -- the menu's set-up is kept between power-ons --------------------------------------
# From "Start game": Players 2 -> 3, P2 CPU casual -> Human, then down to Joker (past P3
# and Card: forced -> in order) and Coach (past Yahtzee bonus and How to play: hints ->
# review).
SETUP_KEYS = "enter down enter down down enter down down down enter down down down enter"


def test_the_menu_set_up_is_kept_between_power_ons(tmp_path):
    play(tmp_path, SETUP_KEYS, seed=1)
    rebooted = screen_lines(play(tmp_path, "wait:1600", seed=1).oled_pixels())
    assert rebooted[1:6] == ["Start game", "Players        3", "P1 Human", "P2 Human", "P3 CPU casual"]
    rest = screen_lines(play(tmp_path, "wait:1600" + " up" * 8, seed=1).oled_pixels())  # scrolled to Joker
    assert [line.split() for line in rest if line.startswith(("Joker", "Coach"))] == [
        ["Joker", "in", "order"],
        ["Coach", "review"],
    ]
    fresh = screen_lines(play(tmp_path / "fresh", "wait:1600", seed=1).oled_pixels())
    assert fresh[2].split() == ["Players", "2"]
    assert fresh[4].split() == ["P2", "CPU", "casual"]


@pytest.mark.parametrize("damage", ["bytes", "shape"])
def test_a_damaged_set_up_gives_the_defaults_and_one_message(tmp_path, damage):
    import os

    import save_store

    play(tmp_path, SETUP_KEYS, seed=1)
    data = tmp_path / "data"
    if damage == "bytes":
        for name in os.listdir(data):
            if name.startswith("setup."):
                (data / name).write_bytes(b"YZ\x01\x00 not a save at all")
    else:
        for name in os.listdir(data):
            if name.startswith("setup."):
                os.remove(data / name)
        save_store.Store(str(data / "setup")).save(
            {"players": 9, "kinds": ["human"] * 4, "rules": "forced", "ybonus": 1, "coach": 1, "sound": 1, "leds": 8}
        )
    told = screen_lines(play(tmp_path, "wait:1600", seed=1).oled_pixels())
    assert told[0] == "Set-up damaged", told
    assert "Defaults used." in told, told
    after = screen_lines(play(tmp_path, "wait:1600", seed=1).oled_pixels())  # said once
    assert after[0].startswith("Setup")
    assert after[2].split() == ["Players", "2"]
    assert after[4].split() == ["P2", "CPU", "casual"]


# -- small screens ---------------------------------------------------------------------
def test_safe_mode_and_crash_screens_wrap_at_spaces(tmp_path):
    from host_tools.simulator.backend import DeviceExited

    device = SimDevice(flash_dir=str(tmp_path), seed=1, hold_at_boot=sim.hold_at_boot("ROLL"))
    try:
        sim.run_headless(device, "wait:1500")
    except DeviceExited:
        pass  # safe mode returns to the REPL: the unix port's process ends
    finally:
        device.close()
    safe = screen_lines(device.oled_pixels())
    assert safe[:5] == ["Safe mode", "ROLL held at", "power-on: game", "skipped, REPL", "ready."]
    import host_tools

    crash = r"""
from boards import sim
import main
hw = sim.build({"link": sim.Loopback(), "seed": "3"})
main.show_message(hw, "Crash", "MemoryError: memory allocation failed, allocating 2032 bytes")
print("FB", bytes(hw.oled.buffer).hex())
"""
    proc = host_tools.run_micropython(["-c", crash])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    buf = bytes.fromhex([line for line in proc.stdout.splitlines() if line.startswith("FB ")][0][3:])
    lines = screen_lines([[(buf[(y >> 3) * 128 + x] >> (y & 7)) & 1 for x in range(128)] for y in range(64)])
    assert lines[:7] == ["Crash", "MemoryError:", "memory", "allocation", "failed,", "allocating 2032", "bytes"]


def test_battery_low_says_which_button_goes_on(tmp_path):
    lines = screen_lines(play(tmp_path, "", seed=1, extra=("battery=3300",)).oled_pixels())
    assert lines[:5] == ["Battery low", "3.30 V", "Charge or change", "the batteries.", "Any key: go on"]
    assert screen_lines(play(tmp_path, "enter", seed=1, extra=("battery=3300",)).oled_pixels())[0] != "Battery low"


def test_roll_with_all_five_held_or_no_roll_left_says_why(tmp_path):
    held = sim_golden.SOLO + " space wait:500 1 2 3 4 5"
    footer = screen_lines(play(tmp_path / "held", held, seed=5).oled_pixels())[7]
    assert footer
    assert footer != "All dice held"  # round 1 without a table: the note
    said = screen_lines(play(tmp_path / "said", held + " space", seed=5).oled_pixels())
    assert said[0].startswith("P1 Roll 1/3")
    assert said[7] == "All dice held"
    assert saved(tmp_path / "said")["game"]["rolls"] == 1
    gone = screen_lines(play(tmp_path / "gone", held + " space wait:1600", seed=5).oled_pixels())
    assert gone[7] == footer  # for a moment only
    last = sim_golden.SOLO + " space wait:500" * 3 + " space"
    assert screen_lines(play(tmp_path / "last", last, seed=5).oled_pixels())[7] == "No rolls left"


def test_the_statistics_say_what_they_count_and_the_zoo_card_names_its_box(tmp_path):
    _seed, keys = sim_golden.SCENES["records_stats"]
    stats = screen_lines(play(tmp_path / "standard", keys, seed=9).oled_pixels())
    assert stats[0].startswith("All players")
    assert [line.rsplit(None, 1)[0] for line in stats[1:7]] == [
        "Games",
        "Scores",
        "Average",
        "Best",
        "Yahtzees",
        "Upper bonus",
    ]
    zoo_game = sim_golden.ZOO_SOLO + " space enter enter" * 11
    zoo = screen_lines(
        play(
            tmp_path / "zoo", zoo_game + " enter down enter up up enter enter enter up enter enter", seed=9
        ).oled_pixels()
    )
    assert zoo[0].startswith("All players"), zoo
    assert zoo[5].split()[:2] == ["Zoo", "Yahtzys"], zoo
    assert not any("Yahtzees" in line for line in zoo)

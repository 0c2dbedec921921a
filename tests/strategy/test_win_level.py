"""The ``win`` computer level (firmware/seat_win.py) and its numpy twin
(host_tools/solver/fast_win.py), which the head-to-head figures in the README use.

The twin must make the device's decisions one for one; the level itself must play
for the win where that matters (far behind late: gamble; far ahead: play safe).
"""

import os
import random

import numpy as np
import pytest

import strategy_advisor as A
import rules
import strategy_spread
import strategy_table
import seat_win
import host_tools
from host_tools.benches import win_meter as bench
from host_tools.solver import cache as solver_cache
from host_tools.solver import fast_play
from host_tools.solver import fast_win
from host_tools.solver import spread
from helpers.strategy_helpers import ME, THEM, card_state
from support import card_with

pytestmark = pytest.mark.slow

FORCED = rules.make_ruleset()


@pytest.fixture(scope="module")
def device():
    with (
        open(solver_cache.table(FORCED), "rb") as f,
        open(solver_cache.spread_table(FORCED, bench.DEVICE_BANDS), "rb") as g,
    ):
        adv = A.Advisor(FORCED, strategy_table.StrategyTable(f))
        opt = A.Advisor(FORCED, strategy_table.StrategyTable(f))
        yield seat_win.WinLevel(adv, strategy_spread.SpreadTable(g)), opt


@pytest.fixture(scope="module")
def host():
    fa, _fixed, _var = bench.load(FORCED)
    with open(solver_cache.spread_table(FORCED, bench.DEVICE_BANDS), "rb") as f:
        sd16 = spread.decode_sixteenths(f.read())
    return fast_win.FastWin(fa, sd16)


def _state(card):
    return card_state(card) + (rules.totals(FORCED, card)[4],)


def _score(card, dice, box):
    out = [0] * 13
    rules.score_options(FORCED, card, dice, out)
    card[rules.BONUS] += rules.yahtzee_bonus_for(FORCED, card, dice)
    card[box] = out[box]


def test_host_twin_makes_the_device_levels_decisions(device, host):
    """>= 1,000 decisions (holds with 2 and 1 rolls left, boxes) along two-player games
    of the device's win level against the device's optimal advisor."""
    level, opt = device
    rng = random.Random(4)
    codes, values = [0] * 32, [0] * 32
    rows = []
    for _game in range(10):
        cards = [rules.new_card(), rules.new_card()]
        for _round in range(13):
            for seat in (0, 1):
                card = cards[seat]
                dice = [rng.randint(1, 6) for _ in range(5)]
                if seat == 1:
                    opt.prepare(card)
                    for left in (2, 1):
                        opt.options(dice, left, codes, values)
                        dice = [d if codes[0] >> i & 1 else rng.randint(1, 6) for i, d in enumerate(dice)]
                    opt.options(dice, 0, codes, values)
                    _score(card, dice, codes[0])
                    continue
                level.prepare(card, [cards[1]])
                for _probe in range(3):  # more positions per prepared turn
                    probe = [rng.randint(1, 6) for _ in range(5)]
                    for left in (2, 1):
                        rows.append((_state(card), _state(cards[1]), list(probe), left, level.hold(probe, left)))
                    rows.append((_state(card), _state(cards[1]), list(probe), 0, level.box(probe)))
                for left in (2, 1):
                    hold = level.hold(dice, left)
                    dice = [d if hold >> i & 1 else rng.randint(1, 6) for i, d in enumerate(dice)]
                _score(card, dice, level.box(dice))
    assert len(rows) >= 1000
    me = tuple(np.array([r[0][i] for r in rows]) for i in range(4))
    opp = tuple(np.array([r[1][i] for r in rows]) for i in range(4))
    codes_arr = np.array([fast_play.dice_code(r[2]) for r in rows])
    k3, k2, ctx = host.prepare(me, [opp])
    holds = {2: host.hold(k2, codes_arr), 1: host.hold(k3, codes_arr)}
    boxes = host.box(ctx, codes_arr)[0]
    got = [int(boxes[i] if r[3] == 0 else holds[r[3]][i]) for i, r in enumerate(rows)]
    assert got == [r[4] for r in rows]


def _points(rng, card, box, best):
    """Legal points for ``box`` on ``card``: the best (or worst) of three random rolls."""
    out = [0] * 13
    got = []
    for _ in range(3):
        rules.score_options(FORCED, card, [rng.randint(1, 6) for _ in range(5)], out)
        got.append(max(out[box], 0))
    return max(got) if best else min(got)


def _lopsided(rng, level):
    """(my card, the opponent's) with one of us far ahead: the same number of boxes
    filled (5-11), one side scoring the best of three rolls per box and the other the
    worst, my Yahtzee box open; kept when my chance to win is 0.05-10 % or 90-99.95 %
    (decided enough to matter, not so far that every option's chance is the same)."""
    from host_tools import advise

    while True:
        filled = rng.randint(5, 11)
        ahead = rng.random() < 0.5
        me, them = rules.new_card(), rules.new_card()
        for b in rng.sample([b for b in range(13) if b != rules.YAHTZEE], filled):
            me[b] = _points(rng, me, b, ahead)
        for b in rng.sample(range(13), filled):
            them[b] = _points(rng, them, b, not ahead)
        chance = advise.chances(level.adv, level.spread, [me, them])[0]
        if 0.0005 < chance < 0.1 or 0.9 < chance < 0.9995:
            return me, them


def test_host_twin_agrees_on_lopsided_positions(device, host):
    """The positions where the device's final-roll pricing once differed from the twin's
    (it started every roll from the best zero, even a zero in the Yahtzee box with five
    of a kind: 2 % of these one-roll-left holds): one player far ahead, the Yahtzee box
    open, every five of a kind among the probes. The device prices only what rules
    allows, as the twin does, and so makes the same decision every time."""
    level, _opt = device
    rng = random.Random(7)
    rows = []
    for _position in range(100):
        card, other = _lopsided(rng, level)
        level.prepare(card, [other])
        probes = [[face] * 5 for face in range(1, 7)] + [[rng.randint(1, 6) for _ in range(5)] for _ in range(3)]
        for probe in probes:
            for left in (2, 1):
                rows.append((_state(card), _state(other), list(probe), left, level.hold(probe, left)))
            rows.append((_state(card), _state(other), list(probe), 0, level.box(probe)))
    me = tuple(np.array([r[0][i] for r in rows]) for i in range(4))
    opp = tuple(np.array([r[1][i] for r in rows]) for i in range(4))
    codes_arr = np.array([fast_play.dice_code(r[2]) for r in rows])
    k3, k2, ctx = host.prepare(me, [opp])
    holds = {2: host.hold(k2, codes_arr), 1: host.hold(k3, codes_arr)}
    boxes = host.box(ctx, codes_arr)[0]
    got = [int(boxes[i] if r[3] == 0 else holds[r[3]][i]) for i, r in enumerate(rows)]
    differ = [i for i, r in enumerate(rows) if got[i] != r[4]]
    assert not differ, "%d of %d decisions differ, e.g. %s" % (len(differ), len(rows), rows[differ[0]])


def test_a_game_already_won_keeps_and_scores_the_yahtzee_it_rolled(device, host, tmp_path):
    """Its card holds only small straight 0 and twos 2; the opponent is at 42 with only
    chance open: every way to play wins. Five 2s once went into four of a kind for 10
    (its chance 16366 against the Yahtzee's 16362 of 16384), and with a roll left all
    five were rolled again. Chances a few units apart count as equal, so the expected
    score decides: the Yahtzee is kept and scored, on the device, inside MicroPython and
    in the twin."""
    level, _opt = device
    me = card_with(small_straight=0, twos=2)
    them = card_with(
        aces=2,
        twos=4,
        threes=6,
        fours=8,
        fives=10,
        sixes=12,
        three_kind=0,
        four_kind=0,
        full_house=0,
        small_straight=0,
        large_straight=0,
        yahtzee=0,
    )
    assert rules.totals(FORCED, them)[4] == 42
    twos = [2] * 5
    level.prepare(me, [them])
    keep_all, yahtzee = 31, rules.BOX_IDS.index("yahtzee")
    assert [level.hold(twos, 2), level.hold(twos, 1), level.box(twos)] == [keep_all, keep_all, yahtzee]
    assert lopsided_decisions_inside_micropython(tmp_path, [(me, them)])[1] == [keep_all, keep_all, yahtzee]
    k3, k2, ctx = host.prepare(tuple(np.array([x]) for x in _state(me)), [tuple(np.array([x]) for x in _state(them))])
    code = np.array([fast_play.dice_code(twos)])
    assert [int(host.hold(k2, code)[0]), int(host.hold(k3, code)[0]), int(host.box(ctx, code)[0][0])] == [
        keep_all,
        keep_all,
        yahtzee,
    ]


MP_LOPSIDED = """
import sys, json, rules, strategy_advisor, strategy_table, strategy_spread, seat_win
R = rules.make_ruleset()
adv = strategy_advisor.Advisor(R, strategy_table.StrategyTable(open(sys.argv[1], "rb")))
level = seat_win.WinLevel(adv, strategy_spread.SpreadTable(open(sys.argv[2], "rb")))
for card, other in json.loads(open(sys.argv[3]).read()):
    level.prepare(card, [other])
    for face in range(1, 7):
        dice = [face] * 5
        print(level.hold(dice, 2), level.hold(dice, 1), level.box(dice))
"""


def lopsided_decisions_inside_micropython(tmp_path, positions, extra_path=()):
    """The device level's [hold with 2 left, with 1 left, box] for every five of a kind
    in each of ``positions``, run by the real MicroPython (native code compiled there)."""
    import json

    import host_tools

    (tmp_path / "positions.json").write_text(json.dumps(positions))
    (tmp_path / "mp_lopsided.py").write_text(MP_LOPSIDED)
    proc = host_tools.run_micropython(
        [
            str(tmp_path / "mp_lopsided.py"),
            solver_cache.table(FORCED),
            solver_cache.spread_table(FORCED, bench.DEVICE_BANDS),
            str(tmp_path / "positions.json"),
        ],
        heap="192K",
        extra_path=extra_path,
    )
    assert proc.returncode == 0, proc.stdout[-300:] + proc.stderr
    return [[int(w) for w in line.split()] for line in proc.stdout.splitlines()]


def test_inside_micropython_the_level_agrees_with_the_twin_on_five_of_a_kind(device, host, tmp_path):
    """The legal final-roll pricing is native code: on the real MicroPython the level
    makes the twin's decisions for every five of a kind in 100 lopsided positions (the
    old pricing differed on 1 of these 1,800)."""
    level, _opt = device
    rng = random.Random(7)
    positions = [_lopsided(rng, level) for _ in range(100)]
    got = lopsided_decisions_inside_micropython(tmp_path, positions)
    rows = [(card, other, face) for card, other in positions for face in range(1, 7)]
    me = tuple(np.array([_state(r[0])[i] for r in rows]) for i in range(4))
    opp = tuple(np.array([_state(r[1])[i] for r in rows]) for i in range(4))
    codes_arr = np.array([fast_play.dice_code([r[2]] * 5) for r in rows])
    k3, k2, ctx = host.prepare(me, [opp])
    want = np.stack([host.hold(k2, codes_arr), host.hold(k3, codes_arr), host.box(ctx, codes_arr)[0]], axis=1)
    assert got == want.tolist()


def test_far_behind_late_it_gambles_where_optimal_plays_safe(device):
    """Three of a kind, four of a kind and Yahtzee open, the opponent done 110 ahead:
    with 2-2-4-5-6 optimal play keeps the 6 (points in the kinds); the win level keeps
    the pair, the only way to the Yahtzee it needs. Ahead of a finished opponent it
    keeps what optimal keeps."""
    level, opt = device
    me = card_with(
        aces=3,
        twos=6,
        threes=9,
        fours=12,
        fives=15,
        sixes=18,
        full_house=25,
        small_straight=30,
        large_straight=40,
        chance=22,
    )
    dice = [2, 2, 4, 5, 6]
    codes, values = [0] * 32, [0] * 32
    opt.prepare(me)
    opt.options(dice, 2, codes, values)
    assert codes[0] == 0b10000
    ahead = card_with(
        aces=3,
        twos=6,
        threes=9,
        fours=12,
        fives=15,
        sixes=18,
        three_kind=30,
        four_kind=28,
        full_house=25,
        small_straight=30,
        large_straight=40,
        yahtzee=50,
        chance=24,
    )
    behind = card_with(
        aces=3,
        twos=6,
        threes=9,
        fours=12,
        fives=15,
        sixes=18,
        three_kind=0,
        four_kind=0,
        full_house=25,
        small_straight=30,
        large_straight=40,
        yahtzee=0,
        chance=10,
    )
    assert rules.totals(FORCED, ahead)[4] - rules.totals(FORCED, me)[4] == 110
    assert rules.totals(FORCED, behind)[4] - rules.totals(FORCED, me)[4] == -12
    level.prepare(me, [ahead])
    assert level.hold(dice, 2) == 0b00011
    level.prepare(me, [behind])
    assert level.hold(dice, 2) == 0b10000


# -- advise --to-win ------------------------------------------------------------------


def _link_tables(tmp_path, monkeypatch, ruleset, spread=True):
    """Make ``tmp_path`` the current folder, holding ``ruleset``'s strategy table and
    (``spread``) the standard spread table, under the names the device looks for."""
    import os

    os.symlink(solver_cache.table(ruleset), tmp_path / ("strategy-%s.bin" % ruleset.name))
    if spread:
        os.symlink(solver_cache.spread_table(FORCED, bench.DEVICE_BANDS), tmp_path / ("spread-%s.bin" % ruleset.name))
    monkeypatch.chdir(tmp_path)


def _open_coach(ruleset):
    import coach as coach_module

    coach = coach_module.Coach()
    assert coach.open(ruleset)
    return coach


def _game(ruleset, seats, seed, far_behind=False):
    """A game past its roll-off; ``far_behind``: seat 0 to move on the ME card with
    2-2-4-5-6 and one roll left, seat 1 done on THEM (110 ahead)."""
    import game as game_module

    g = game_module.Game(ruleset, seats, random.Random(seed))
    if far_behind:
        g.phase = game_module.TURN
        g.current = 0
        g.players[0].card[:] = card_with(**ME)
        g.players[1].card[:] = card_with(**THEM)
        g.dice[:] = [2, 2, 4, 5, 6]
        g.rolls = 1
    while g.phase == game_module.ROLLOFF:
        g.rolloff()
    return g


def _play_out(g, coach, each_turn, each_move=None):
    """Play ``g`` to its end with the app's own calls (seats.choose_hold/choose_box);
    ``each_turn(g)`` starts the coach's turn, ``each_move(g)`` runs after every hold
    decision."""
    import game as game_module
    import seats

    options = [0] * rules.N_BOXES
    while g.phase != game_module.OVER:
        each_turn(g)
        g.roll()
        while True:
            hold = seats.choose_hold(coach, g)
            if each_move is not None:
                each_move(g)
            if hold < 0:
                g.options(options)
                box = seats.choose_box(coach, g, options)
                assert options[box] >= 0
                g.score(box)
                break
            g.set_held(hold)
            g.roll()


def _readme_command(marker):
    import os
    import shlex

    with open(os.path.join(host_tools.REPO, "docs", "strategy.md")) as f:
        for line in f:
            line = line.strip()
            if line.startswith("$ python -m host_tools advise") and marker in line:
                return shlex.split(line[2:])[4:]
    raise AssertionError("docs/strategy.md shows no advise command with %s" % marker)


def test_readme_to_win_example(monkeypatch, tmp_path, capsys):
    """The README's advise --to-win command, run as shown (tables from the cache)."""
    import json

    from host_tools import advise

    examples = os.path.join(host_tools.REPO, "docs", "examples")
    with open(os.path.join(examples, "me.json")) as f, open(os.path.join(examples, "them.json")) as g:
        assert (json.load(f), json.load(g)) == (ME, THEM)  # the cards the README's command names ship
    monkeypatch.chdir(host_tools.REPO)
    monkeypatch.setattr(advise, "ensure_table", lambda ruleset, **kw: solver_cache.table(ruleset))
    monkeypatch.setattr(
        advise, "ensure_spread", lambda ruleset, **kw: solver_cache.spread_table(ruleset, bench.DEVICE_BANDS)
    )
    assert advise.main(_readme_command("--to-win")) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "chance to win now: you 0.5 %, opponent 1 99.5 %"
    assert lines[2].split()[:2] == ["2", "2"]  # keep the pair: the Yahtzee it needs
    assert advise.main(_readme_command("--to-win") + ["--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["best"]["hold"] == [2, 2]
    chances = [o["chance"] for o in result["options"]]
    assert chances == sorted(chances, reverse=True)
    assert advise.main(_readme_command("--to-win")[:-1] + ["--json"]) == 0  # without --to-win: max score
    assert json.loads(capsys.readouterr().out)["best"]["hold"] == [6]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--to-win"], "--to-win needs --opponents"),
        (["--opponents", "{}", "{}", "{}", "{}"], "at most 3 opponents"),
        (["--opponents", "{\"bogus\": 1}"], "bogus"),
    ],
)
def test_advise_to_win_bad_input(capsys, args, message):
    from host_tools import advise

    assert advise.main(["--table", solver_cache.table(FORCED)] + args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1
    assert message in err


# -- the seat on the device: seats.py and coach.py ----------------------------------
def test_cpu_win_seat_plays_through_players_and_coach(monkeypatch, tmp_path, host):
    """A two-player game, CPU win against CPU optimal, through the app's own calls
    (seats.choose_hold / choose_box with coach.Coach): every move of the win seat is
    the win level's, the game ends, and without the spread table the seat plays optimal."""
    import os

    import seats

    _link_tables(tmp_path, monkeypatch, FORCED)
    coach = _open_coach(FORCED)
    g = _game(FORCED, [("W", "win"), ("O", "optimal")], 9)
    win_moves = []

    def each_move(g):
        if g.players[g.current].kind == "win":
            win_moves.append(1)
            assert coach.win is not None

    _play_out(g, coach, lambda g: coach.start_turn(g.players[g.current].card), each_move)
    assert len(win_moves) >= 13
    # the level's choice in the far-behind position, through seats.py
    g2 = _game(FORCED, [("W", "win"), ("O", "optimal")], 1, far_behind=True)
    assert seats.choose_hold(coach, g2) == 0b00011
    coach.close()
    os.remove(tmp_path / "spread-forced.bin")
    assert coach.open(FORCED)
    assert seats.choose_hold(coach, g2) == 0b10000  # no spread table: plays optimal


def test_coach_shows_the_to_win_move_and_reviews_in_chance(monkeypatch, tmp_path):
    """Multi-player: the hint carries the max-score move and the to-win move with their
    chances when they differ; the review prices a max-score hold that gives up winning
    chances in percentage points. Solo: points, as before."""
    import game as game_module

    _link_tables(tmp_path, monkeypatch, FORCED)
    coach = _open_coach(FORCED)
    g = _game(FORCED, [("A", "human"), ("B", "human")], 1, far_behind=True)
    dice = [2, 2, 4, 5, 6]
    coach.start_turn(g.players[0].card, g)
    assert coach.hint(dice, 2) == 0b10000  # max score: keep the 6
    assert coach.win_differs
    assert coach.win_code == 0b00011
    assert coach.win_box == -1
    assert coach.win_chance > coach.hint_chance > 0
    coach.price_hold(dice, 2, 0b10000)  # the player keeps the 6
    assert coach.in_chance
    assert coach.worst_code == 0b00011
    assert coach.lost_tenths() == (1000 * (coach.win_chance - coach.hint_chance) + 8192) >> 14
    assert coach.hint(dice, 2) == 0b10000  # the advisor still answers after the win level ran
    solo = game_module.Game(FORCED, [("A", "human")], random.Random(1))
    solo.players[0].card[:] = card_with(**ME)
    coach.start_turn(solo.players[0].card, solo)
    coach.hint(dice, 2)
    assert not coach.win_differs
    assert not coach.in_chance
    coach.price_hold(dice, 2, 0b10000)
    assert coach.lost_tenths() == 0


@pytest.mark.parametrize("variant", ["exact", "compact"])
def test_card_view_shows_the_meter_in_the_simulator(tmp_path, variant):
    """Two humans, both tables in the flash: after six turns the card view's header shows
    the seat's chance to win, the number the host computes with the same code. Also
    with the compact table a Pico W holds (6-bit values: the meter's means come from it)."""
    import re

    import strategy_spread as spread_module
    from host_tools import advise
    from host_tools.simulator import golden as sim_golden
    from host_tools.simulator.screen import screen_lines
    from helpers.sim_helpers import play, saved

    tables = {
        "strategy-forced.bin": solver_cache.table(FORCED, variant),
        "spread-forced.bin": solver_cache.spread_table(FORCED, bench.DEVICE_BANDS),
    }
    keys = sim_golden.TWO_HUMANS + " wait:4500" + " space enter enter" * 6 + " m"
    screen = screen_lines(play(tmp_path, keys, seed=4, tables=tables).oled_pixels())
    header = re.match(r"P(\d) card +(\d+)% +(\d+)$", screen[0])
    assert header, screen[0]
    cards = [p[2] for p in saved(tmp_path)["game"]["players"]]
    adv = advise.open_advisor(FORCED, tables["strategy-forced.bin"])
    try:
        with open(tables["spread-forced.bin"], "rb") as f:
            chances = advise.chances(adv, spread_module.SpreadTable(f), cards)
    finally:
        adv.table_file.close()
    seat = int(header.group(1)) - 1
    assert int(header.group(2)) == W_percent(chances[seat])


def W_percent(fraction):
    import strategy_win_meter

    return strategy_win_meter.percent(int(round(fraction * strategy_win_meter.ONE)))


METER_PROBE = r"""
from loopback_rig import Rig
from drivers.buttons import ROLL, MENU
import game as game_module

rig = Rig({"seed": "5"})
a, press, measure = rig.app, rig.press, rig.measure
a.run(frames=400)
a.settings.players = 2
a.settings.kinds[1] = 0  # two humans
a.settings.rebuild()
a.new_game()
while a.game.phase == game_module.ROLLOFF:
    a.game.rolloff()
a.start_turn()
press(ROLL, 20)
a.run(frames=200)
a.win_known = True  # the meter as coach.meter leaves it (no tables in this rig)
a.win_chance[0] = 9000
a.win_chance[1] = 7384
print("SCREEN turn", a.screen, a.game.rolls)
measure("turn-redraw", 200, True)
press(MENU, 20)
a.run(frames=40)
print("SCREEN card", a.screen)
measure("card-redraw", 200, True)
"""


def test_meter_on_screen_allocates_nothing():
    """The turn screen's footer and the card header with the meter shown: frames that
    redraw every time allocate nothing (real MicroPython, loopback rig)."""
    import app
    from helpers.sim_helpers import alloc_probe

    lines, allocs = alloc_probe(METER_PROBE)
    assert "SCREEN turn %d 1" % app.TURN in lines
    assert "SCREEN card %d" % app.CARD in lines
    assert allocs == {"turn-redraw": 0, "card-redraw": 0}, allocs


def test_damaged_spread_table_turns_the_meter_and_the_win_level_off(monkeypatch, tmp_path):
    """A spread table with a flipped byte in a group the game reads: the coach drops it
    (meter off, hints and CPU win play on without it) instead of using a wrong figure;
    a header flip is refused at open. The value table and the game go on."""
    import seats

    with open(solver_cache.spread_table(FORCED, bench.DEVICE_BANDS), "rb") as f:
        good = f.read()
    _link_tables(tmp_path, monkeypatch, FORCED, spread=False)
    g = _game(FORCED, [("W", "win"), ("O", "optimal")], 1, far_behind=True)
    breakdowns = [rules.totals(FORCED, p.card) for p in g.players]
    out = [0] * 4

    def fresh_coach(data):
        (tmp_path / "spread-forced.bin").write_bytes(data)
        return _open_coach(FORCED)

    coach = fresh_coach(good)
    assert coach.meter(g, breakdowns, out)
    assert coach.win_level() is not None
    coach.close()
    # damage in the group of the seat's mask (the meter reads it) and in the group after
    # scoring 3 of a kind (the win level's turn programme reads it); the opponent is done
    mask = sum(1 << b for b in range(13) if g.players[0].card[b] != rules.OPEN)
    bad = bytearray(good)
    for group in {mask >> 3, (mask | 1 << rules.BOX_IDS.index("three_kind")) >> 3}:
        bad[strategy_spread.HEADER_SIZE + strategy_spread.group_start(group) * good[5] + group + 1] ^= 0x40
    coach = fresh_coach(bytes(bad))
    assert coach.start_turn(g.players[0].card, g)
    assert coach.in_chance  # the value table is fine
    assert coach.hint(g.dice, 2) >= 0  # the hint's win level meets the damaged group
    assert not coach.in_chance
    assert not coach.win_differs
    assert coach.win is None  # dropped
    assert not coach.meter(g, breakdowns, out)
    assert coach.win_level() is None
    assert seats.choose_hold(coach, g) == 0b10000  # plays optimal, as without the table
    coach.close()
    coach = fresh_coach(bytes(bad))
    assert not coach.meter(g, breakdowns, out)  # the meter meets it first: off as well
    assert coach.win_level() is None
    coach.close()
    head = bytearray(good)
    head[9] ^= 0x02
    coach = fresh_coach(bytes(head))
    assert coach.win_level() is None
    assert not coach.meter(g, breakdowns, out)
    coach.close()


def test_zoo_card_has_no_meter_and_cpu_win_plays_optimal(monkeypatch, tmp_path):
    """The spread table, the meter and the win level are for the 13-box cards: in a Zoo
    game (even with a file named spread-zoo.bin) the coach offers neither, a CPU win
    seat plays the Zoo table's optimal moves and the game ends normally."""
    import seats
    import seat_levels

    zoo = rules.make_ruleset(rules.ZOO)
    _link_tables(tmp_path, monkeypatch, zoo)  # spread-zoo.bin: the standard card's
    coach = _open_coach(zoo)
    g = _game(zoo, [("W", "win"), ("O", "optimal")], 3)
    breakdowns = [rules.totals(zoo, p.card) for p in g.players]
    assert not coach.meter(g, breakdowns, [0] * 4)
    assert coach.win_level() is None
    assert seats.level(coach, "win") == seat_levels.level_index("optimal")

    def each_turn(g):
        assert coach.start_turn(g.players[g.current].card, g)
        assert not coach.in_chance

    _play_out(g, coach, each_turn)
    assert coach.win is None
    assert all(p.card[b] != rules.OPEN for p in g.players for b in range(zoo.n_boxes))
    coach.close()

"""The computer player (seats.py's simple strategy): legal moves only, a reasonable score.

Plays whole solo games through the game engine with seeded dice. The strategy is simple
(keep the most common face or a straight draw, score the box furthest above its par), so
the bar is modest: an average well above random play (about 45) and above the ~170 of
"always take the highest-scoring box"; the optimal player averages 254.6 (docs/strategy.md).
"""

import os
import random

import seats
import game
import rules


def play_solo(seed, ruleset):
    source = random.Random(seed)
    g = game.Game(ruleset, [("C", "cpu")], source)
    options = [0] * 13
    while g.phase != game.OVER:
        card = g.players[0].card
        g.roll()
        while True:
            mask = seats.simple_hold(ruleset, card, g.dice, g.rolls)
            if mask < 0:
                g.options(options)
                box = seats.simple_box(ruleset, card, g.dice, options)
                assert options[box] >= 0  # legal
                g.score(box)
                break
            assert 0 <= mask < 31
            g.set_held(mask)
            g.roll()
    return g.total(0)


def test_computer_plays_legal_reasonable_games():
    for joker in rules.JOKERS:
        ruleset = rules.make_ruleset(joker=joker)
        scores = [play_solo(seed, ruleset) for seed in range(150)]
        mean = sum(scores) / len(scores)
        assert mean > 185, (joker, mean)
        assert min(scores) > 60


def test_choose_box_prefers_the_obvious():
    ruleset = rules.make_ruleset()
    card = rules.new_card()
    assert seats.simple_box(ruleset, card, [4, 4, 4, 4, 4]) == 11  # Yahtzee
    assert seats.simple_box(ruleset, card, [1, 2, 3, 4, 5]) == 10  # large straight
    assert seats.simple_hold(ruleset, card, [2, 3, 3, 4, 5], 1) == 0b11011  # small straight: go for large
    assert seats.simple_hold(ruleset, card, [6, 6, 1, 6, 2], 1) == 0b01011  # keep the sixes
    assert seats.simple_hold(ruleset, card, [3, 3, 2, 3, 3], 3) == -1  # no rolls left


def test_computer_plays_the_zoo_card_by_its_table():
    # Same code, the kids' card: 11 boxes, legal moves only (asserted in play_solo); the
    # seats' mean is well above greedy one-roll play (about 36 on this card).
    ruleset = rules.make_ruleset("zoo")
    scores = [play_solo(seed, ruleset) for seed in range(150)]
    assert sum(scores) / len(scores) > 70
    assert max(scores) <= 130  # the best Zoo card: 30 + 10 + 90
    card = rules.new_card(ruleset)
    assert seats.simple_box(ruleset, card, [4, 4, 4, 4, 4]) == 10  # Zoo Yahtzy
    assert seats.simple_box(ruleset, card, [6, 1, 3, 2, 5]) == 9  # all different
    assert seats.simple_hold(ruleset, card, [6, 1, 3, 2, 5], 1) == -1
    assert seats.simple_hold(ruleset, card, [6, 1, 3, 2, 2], 1) == 0b01111  # one of each
    assert seats.simple_hold(ruleset, card, [6, 6, 1, 6, 2], 1) == 0b01011


# -- the computer's turn on the device: driven by the app, not by the turn screen ------
# The real app on the sim board's loopback link, four computer seats (every level), the
# turn screen's tick taken out of the app's table: the turns still play (seats.play
# from App.tick). Each frame logs what it did: a decision step (the win level's set-up
# and programme, the hold, the box), a visible move, an OLED draw.
COMPUTER_TURNS_PROBE = r"""
from loopback_rig import Rig
import app as app_module
import game
import seats
import seat_win

rig = Rig({"seed": "5"})
a = rig.app
a.run(frames=400)  # splash, then the menu
kinds = ("optimal", "win", "good", "casual")
g = game.Game(a.settings.ruleset(), [("P%d" % (i + 1), kinds[i]) for i in range(4)], a.hw.dice_source)
while g.phase == game.ROLLOFF:
    g.rolloff()
a.resume(g)
import scheduler
while a.jobs.busy(scheduler.OPEN):  # its table opens a part a frame, then the win level
    a.run(frames=1)
print("LEVELS", a.coach.adv is not None, a.coach.win_level() is not None)
log = []
frame = [0]

def logged(kind, fn):
    def wrapper(*args):
        log.append((frame[0], kind))
        return fn(*args)
    return wrapper

screens = []
for i in range(len(app_module.SCREENS)):
    draw, handle, tick = app_module.SCREENS[i]
    screens.append((logged("draw", draw), handle, None if i == app_module.TURN else tick))
app_module.SCREENS = tuple(screens)  # the turn screen's own tick never runs
seats.choose_hold = logged("hold", seats.choose_hold)
seats.choose_box = logged("box", seats.choose_box)
seat_win.WinLevel._setup = logged("setup", seat_win.WinLevel._setup)
seat_win.WinLevel._programme = logged("programme", seat_win.WinLevel._programme)
for name in ("roll", "set_holds", "point_at", "score"):
    setattr(a, name, logged("move", getattr(a, name)))

hw = a.hw
while g.round < 2 and frame[0] < 20000:
    frame[0] += 1
    a.frame(hw.ticks_ms())
    hw.sleep_ms(5)
print("ROUND", g.round, "FILLED", " ".join(str(sum(1 for v in p.card[:13] if v >= 0)) for p in g.players))
for f, kind in log:
    print("LOG", f, kind)
"""


def test_the_app_plays_computer_turns_a_decision_step_a_frame(tmp_path):
    """Every level's turns play with the turn screen's tick gone, and
    no frame holds two decision steps, a step and a move, or a step and a redraw: the
    win level's programme (about 90 ms on the chip), its set-up and the hold each get
    a frame of their own (no stretch over 100 ms)."""
    from host_tools import sim
    from helpers.sim_helpers import run_probe

    for name, path in sim.device_tables().items():
        if name.startswith(("strategy-forced", "spread-forced")):
            (tmp_path / name).symlink_to(path)
    proc = run_probe(COMPUTER_TURNS_PROBE, cwd=str(tmp_path), timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    lines = proc.stdout.splitlines()
    assert "LEVELS True True" in lines, lines[:5]
    assert "ROUND 2 FILLED 2 2 2 2" in lines, [line for line in lines if line.startswith("ROUND")]
    frames = {}
    for line in lines:
        if line.startswith("LOG "):
            _tag, f, kind = line.split()
            frames.setdefault(int(f), []).append(kind)
    steps = ("setup", "programme", "hold", "box")
    for f, kinds in frames.items():
        decided = [k for k in kinds if k in steps]
        assert len(decided) <= 1, (f, kinds)
        if decided:
            assert "move" not in kinds, (f, kinds)
            assert "draw" not in kinds, (f, kinds)
    counts = {kind: sum(kinds.count(kind) for kinds in frames.values()) for kind in steps + ("move",)}
    assert counts["setup"] >= 2, counts  # two win turns
    assert counts["programme"] == counts["setup"], counts
    assert counts["hold"] >= 8, counts
    assert counts["box"] == 8, counts  # every turn scored a chosen box


def test_the_turn_screen_does_not_play_the_computer():
    """ui/turn_screen.py imports no strategy module and calls no game action of a
    computer's turn: seats.py (through App.tick) plays it."""
    import ast

    import host_tools

    path = os.path.join(host_tools.FIRMWARE, "ui", "turn_screen.py")
    with open(path) as f:
        tree = ast.parse(f.read())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"seats", "seat_levels", "seat_win", "strategy_advisor"}, imported
    called = {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
    }
    assert not called & {"choose_hold", "choose_box", "play", "point_at"}, called

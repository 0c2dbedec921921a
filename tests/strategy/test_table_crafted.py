"""Crafted tables: one field changed and every checksum recomputed.

A CRC catches damage by chance, not a file a buggy writer made or someone edited with
care. Each case below changes one header field, one rank entry or one block's
parameters of an intact table, then recomputes every CRC (strategy_helpers.crafted):
the readers must refuse them all by their range checks, against what the writer can
produce. Checked for the value table (both cards, exact and compact) and the spread
table, through the device readers (under CPython and inside the real MicroPython), the
host's whole-file check, ``advise`` (one line, exit 2), the coach (``Table damaged``,
the game plays on without the table) and a game in the headless simulator.
"""

import struct

import pytest

import strategy_advisor as A
import host_tools
import rules
import strategy_spread
import strategy_table as st
from host_tools import advise
from host_tools.benches import win_meter as bench
from host_tools.solver import cache as solver_cache
from host_tools.solver import spread as solver_spread
from host_tools.solver import table as solver_table
from helpers.strategy_helpers import crafted, recrc

pytestmark = pytest.mark.slow

CARDS = {"forced": rules.make_ruleset(), "zoo": rules.make_ruleset("zoo")}
FORCED = CARDS["forced"]


@pytest.fixture(scope="module")
def intact():
    """``{(card, variant): file bytes}`` of both cards' value tables and ``"spread"``."""
    tables = {}
    for card, ruleset in CARDS.items():
        for variant in ("exact", "compact"):
            with open(solver_cache.table(ruleset, variant), "rb") as f:
                tables[card, variant] = f.read()
    with open(solver_cache.spread_table(FORCED, bench.DEVICE_BANDS), "rb") as f:
        tables["spread"] = f.read()
    return tables


def _set_u32(at, delta):
    def change(out):
        struct.pack_into("<I", out, at, struct.unpack_from("<I", out, at)[0] + delta)

    return change


def _set(at, value):
    def change(out):
        out[at] = value(out[at]) if callable(value) else value

    return change


def _name(at, name):
    def change(out):
        out[at : at + st.NAME_SIZE] = name.ljust(st.NAME_SIZE, b"\x00")

    return change


def _rank(upper, up_of_row, value):
    """Rank entry ``[upper][up]`` := value; ``up_of_row(row)`` picks the subtotal."""

    def change(out):
        row = st.HEADER_SIZE + upper * 64
        out[row + up_of_row(out[row : row + 64])] = value

    return change


def _last_reachable(row):
    return max(up for up in range(64) if row[up] != 255)


def _swap_first_two(out):
    row = st.HEADER_SIZE + 1 * 64  # aces filled: subtotals 0..5
    out[row], out[row + 1] = out[row + 1], out[row]


def _mask1_param(word, value):
    """Compact: mask 1's (base, step): ``word`` 0 = base, 1 = step."""

    def change(out):
        struct.pack_into("<H", out, struct.unpack_from("<I", out, 24)[0] + 4 * st.block_number(1, 0) + 2 * word, value)

    return change


def _mask1_base(out):
    """Mask 1's base := 0xFFFF: compact, in its (base, step); exact, its 16 bits in the
    bit stream (after mask 0's base and its one state)."""
    if out[5] == st.COMPACT:
        _mask1_param(0, 0xFFFF)(out)
        return
    bit = st.BASE_BITS * st.block_number(1, 0) + out[18] * 1
    at = struct.unpack_from("<I", out, 20)[0]
    for i in range(st.BASE_BITS):
        out[at + ((bit + i) >> 3)] |= 1 << ((bit + i) & 7)


# name -> (change, variants it applies to or None for both)
VALUE_CASES = {
    "joker byte 9": (_set(6, 9), None),
    "another joker rule": (_set(6, lambda v: (v + 1) % len(rules.JOKERS)), None),
    "Yahtzee bonus flag 2": (_set(7, 2), None),
    "upper threshold 64": (_set(8, 64), None),
    "upper threshold one less": (_set(8, lambda v: v - 1), None),
    "upper bonus one more": (_set(9, lambda v: v + 1), None),
    "frac 0": (_set(10, 0), None),
    "frac 18": (_set(10, 18), None),
    "frac one finer": (_set(10, lambda v: v + 1), None),
    "frac one coarser": (_set(10, lambda v: v - 1), None),
    "relabelled as the other variant": (_set(5, lambda v: 3 - v), None),
    "one bit per value more": (_set(18, lambda v: v + 1), None),
    "5 bits per value": (_set(18, 5), None),
    "one state more": (_set_u32(12, 1), None),
    "values one byte later": (_set_u32(20, 1), None),
    "block parameters 4 bytes later": (_set_u32(24, 4), None),
    "checks one byte earlier": (_set_u32(56, -1), None),
    "file size one more": (_set_u32(52, 1), None),
    "empty card's figure one point more": (_set_u32(28, 65536), None),
    "name of another ruleset": (_name(36, b"ordered"), None),
    "name of no ruleset": (_name(36, b"bogus"), None),
    "name with a control byte": (_name(36, b"forced\x01"), None),
    "rank entry larger than its row": (_rank(63, _last_reachable, 200), None),
    "rank row without subtotal 0": (_rank(1, lambda row: 0, 255), None),
    "ranks out of order": (_swap_first_two, None),
    "a step of 0": (_mask1_param(1, 0), ("compact",)),
    "a base of 65535": (_mask1_base, None),
}
TABLES = [(card, variant) for card in CARDS for variant in ("exact", "compact")]
VALUE_PARAMS = [
    (card, variant, case)
    for card, variant in TABLES
    for case, (_c, only) in VALUE_CASES.items()
    if only is None or variant in only
]


def _crafted_value(intact, card, variant, case):
    data = crafted(intact[card, variant], VALUE_CASES[case][0])
    assert data != intact[card, variant]
    return data


def _first_turn(data, card):
    """What a game does with a table: open it, prepare the first turn on the empty card."""
    import io

    ruleset = CARDS[card]
    adv = A.Advisor(ruleset, st.StrategyTable(io.BytesIO(data)))
    adv.prepare(rules.new_card(ruleset))
    return adv


def test_the_helper_rebuilds_intact_tables_byte_for_byte(intact):
    """recrc is the writer's checksums: on an intact table it changes nothing."""
    for key, data in intact.items():
        assert recrc(data) == data, key


@pytest.mark.parametrize("card, variant, case", VALUE_PARAMS)
def test_the_device_reader_refuses_a_crafted_value_table(intact, card, variant, case):
    with pytest.raises(st.TableDamaged, match="^damaged: "):
        _first_turn(_crafted_value(intact, card, variant, case), card)


@pytest.mark.parametrize("card, variant, case", VALUE_PARAMS)
def test_the_host_check_refuses_a_crafted_value_table(intact, card, variant, case):
    with pytest.raises(ValueError, match="^strategy table damaged: "):
        solver_table.verify(_crafted_value(intact, card, variant, case))


@pytest.mark.parametrize("card, variant", TABLES)
def test_the_intact_tables_still_pass(intact, card, variant):
    solver_table.verify(intact[card, variant])
    adv = _first_turn(intact[card, variant], card)
    assert abs(A.to_points(adv.card_value()) - (254.59 if card == "forced" else 85.04)) < 0.01


@pytest.mark.parametrize("card, variant, case", [p for p in VALUE_PARAMS if p[1] == "exact" or p[0] == "forced"])
def test_advise_refuses_a_crafted_value_table_with_one_line(intact, tmp_path, capsys, card, variant, case):
    path = tmp_path / "table.bin"
    path.write_bytes(_crafted_value(intact, card, variant, case))
    assert (
        advise.main(["--rules", card, "--table", str(path), "--dice", "6", "1", "4", "2", "3", "--rolls-left", "2"])
        == 2
    )
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("advise: %s: strategy table damaged: " % path)


MP_VALUES = """
import gc, sys, rules, strategy_advisor, strategy_table
R = rules.make_ruleset(sys.argv[1])
for path in sys.argv[2:]:
    adv = None
    gc.collect()  # as the coach does before it builds an advisor
    f = open(path, "rb")
    try:
        adv = strategy_advisor.Advisor(R, strategy_table.StrategyTable(f))
        adv.prepare(rules.new_card(R))
        print("used", adv.expected_total())
    except strategy_table.TableDamaged as exc:
        print("refused", exc)
    f.close()
"""


@pytest.mark.parametrize("card, variant", TABLES)
def test_inside_micropython_every_crafted_value_table_is_refused(intact, tmp_path, card, variant):
    cases = [case for c, v, case in VALUE_PARAMS if (c, v) == (card, variant)]
    paths = []
    for i, case in enumerate(cases):
        path = tmp_path / ("case%d.bin" % i)
        path.write_bytes(_crafted_value(intact, card, variant, case))
        paths.append(str(path))
    (tmp_path / "intact.bin").write_bytes(intact[card, variant])
    script = tmp_path / "mp_crafted.py"
    script.write_text(MP_VALUES)
    proc = host_tools.run_micropython([str(script), card] + paths + [str(tmp_path / "intact.bin")], heap="128K")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == len(cases) + 1, proc.stdout
    for case, line in zip(cases, lines):
        assert line.startswith("refused damaged: "), (case, line)
    assert lines[-1] == "used %d" % _first_turn(intact[card, variant], card).expected_total()


# -- the spread table -------------------------------------------------------------------
def _spread_group_bytes(group, value):
    """Every sd byte of ``group`` (masks 8 * group ..) := ``value`` (the CRC-8 in front
    is recomputed by crafted())."""

    def change(out):
        bands = out[5]
        at = strategy_spread.HEADER_SIZE + strategy_spread.group_start(group) * bands + group + 1
        n = (strategy_spread.group_start(group + 1) - strategy_spread.group_start(group)) * bands
        out[at : at + n] = bytes([value]) * n

    return change


def _all_data(value):
    def change(out):
        for group in range(strategy_spread.N_GROUPS):
            _spread_group_bytes(group, value)(out)

    return change


def _one_byte(group, value):
    def change(out):
        at = strategy_spread.HEADER_SIZE + strategy_spread.group_start(group) * out[5] + group + 1
        out[at] = value

    return change


SPREAD_CASES = {
    "joker byte 9": _set(6, 9),
    "another joker rule": _set(6, 1),
    "Yahtzee bonus flag 2": _set(7, 2),
    "upper threshold one less": _set(8, 62),
    "upper bonus one more": _set(9, 36),
    "unit 1": _set(10, 1),
    "unit 0": _set(10, 0),
    "unit 4": _set(10, 4),
    "bands 0": _set(5, 0),
    "bands 17": _set(5, 17),
    "bands 3": _set(5, 3),
    "name of another ruleset": _name(28, b"ordered"),
    "name of the Zoo card": _name(28, b"zoo"),
    "name of no ruleset": _name(28, b"bogus"),
    "one block more": _set_u32(12, 1),
    "data one byte later": _set_u32(16, 1),
    "empty card's sd one point more": _set_u32(20, 65536),
    "file size one more": _set_u32(44, 1),
    "one group fewer": _set_u32(48, -1),
    "a reserved byte set": _set(52, 1),
    "all-0xFF data": _all_data(0xFF),
    "a group of 0xFF": _spread_group_bytes(1, 0xFF),  # masks 8..15: fours filled
    "an sd byte one above the largest": _one_byte(1, strategy_spread.MAX_SD_BYTE + 1),
}


def _crafted_spread(intact, case):
    data = crafted(intact["spread"], SPREAD_CASES[case])
    assert data != intact["spread"]
    return data


def _read_spread(data):
    """Open ``data`` as the device does and read the spread of every subtotal of mask 8
    (fours filled: the block a crafted group holds)."""
    import io

    table = strategy_spread.SpreadTable(io.BytesIO(data))
    if not table.matches(FORCED, rules.JOKERS):
        raise ValueError("for other rules")
    return [table.sd(8, up, 0) for up in range(0, 64, 4)]


@pytest.mark.parametrize("case", list(SPREAD_CASES))
def test_the_device_reader_refuses_a_crafted_spread_table(intact, case):
    with pytest.raises(st.TableDamaged, match="^spread table damaged: "):
        _read_spread(_crafted_spread(intact, case))


@pytest.mark.parametrize("case", list(SPREAD_CASES))
def test_the_host_check_refuses_a_crafted_spread_table(intact, case):
    with pytest.raises(ValueError, match="^spread table damaged: "):
        solver_spread.verify(_crafted_spread(intact, case))


def test_the_intact_spread_table_still_passes(intact):
    solver_spread.verify(intact["spread"])
    assert max(_read_spread(intact["spread"])) > 0


@pytest.mark.parametrize("case", list(SPREAD_CASES))
def test_advise_refuses_a_crafted_spread_table_with_one_line(intact, tmp_path, capsys, case):
    path = tmp_path / "spread.bin"
    path.write_bytes(_crafted_spread(intact, case))
    assert (
        advise.main(
            [
                "--table",
                solver_cache.table(FORCED),
                "--spread",
                str(path),
                "--opponents",
                '{"fours": 12}',
                "--card",
                '{"fours": 8}',
                "--dice",
                "4",
                "4",
                "1",
                "2",
                "6",
                "--rolls-left",
                "1",
                "--to-win",
            ]
        )
        == 2
    )
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("advise: %s: spread table damaged: " % path), err


MP_SPREAD = """
import sys, rules, strategy_spread, strategy_table
R = rules.make_ruleset()
for path in sys.argv[1:]:
    f = open(path, "rb")
    try:
        t = strategy_spread.SpreadTable(f)
        print("used", t.matches(R, rules.JOKERS), [t.sd(8, up, 0) for up in range(0, 64, 4)])
    except strategy_table.TableDamaged as exc:
        print("refused", exc)
    f.close()
"""


def test_inside_micropython_every_crafted_spread_table_is_refused(intact, tmp_path):
    paths = []
    for i, case in enumerate(SPREAD_CASES):
        path = tmp_path / ("case%d.bin" % i)
        path.write_bytes(_crafted_spread(intact, case))
        paths.append(str(path))
    (tmp_path / "intact.bin").write_bytes(intact["spread"])
    script = tmp_path / "mp_spread.py"
    script.write_text(MP_SPREAD)
    proc = host_tools.run_micropython([str(script)] + paths + [str(tmp_path / "intact.bin")], heap="128K")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == len(SPREAD_CASES) + 1, proc.stdout
    for case, line in zip(SPREAD_CASES, lines):
        assert line.startswith("refused spread table damaged: "), (case, line)
    assert lines[-1] == "used True %s" % _read_spread(intact["spread"])


# -- the coach and the game: "Table damaged", and play goes on ------------------------
def _coach_with(tmp_path, monkeypatch, value, spread=None):
    import coach as coach_module

    (tmp_path / "strategy-forced.bin").write_bytes(value)
    if spread is not None:
        (tmp_path / "spread-forced.bin").write_bytes(spread)
    monkeypatch.chdir(tmp_path)
    return coach_module.Coach()


def _two_player_game():
    import random

    import game as game_module

    g = game_module.Game(FORCED, [("A", "human"), ("W", "win")], random.Random(3))
    while g.phase == game_module.ROLLOFF:
        g.rolloff()
    g.roll()
    return g


@pytest.mark.parametrize(
    "case", ["joker byte 9", "rank entry larger than its row", "frac 0", "frac 18", "relabelled as the other variant"]
)
def test_the_coach_says_table_damaged_for_a_crafted_value_table(intact, tmp_path, monkeypatch, case):
    import coach as coach_module

    coach = _coach_with(tmp_path, monkeypatch, _crafted_value(intact, "forced", "exact", case))
    assert not coach.open(FORCED)
    assert coach.problem == coach_module.DAMAGED
    assert coach.adv is None


@pytest.mark.parametrize("case", ["joker byte 9", "unit 1", "all-0xFF data", "a group of 0xFF"])
def test_the_first_multi_player_turn_plays_on_without_a_crafted_spread_table(intact, tmp_path, monkeypatch, case):
    """The meter and the win level are off, the value table's hints and the CPU win
    seat (as optimal) go on."""
    import seats

    coach = _coach_with(tmp_path, monkeypatch, intact["forced", "exact"], _crafted_spread(intact, case))
    assert coach.open(FORCED)
    g = _two_player_game()
    g.current = 1  # the CPU win seat
    g.players[1].card[3] = 8  # fours filled: the crafted group is read
    out = [0] * 4
    assert not coach.meter(g, [rules.totals(FORCED, p.card) for p in g.players], out)
    assert coach.start_turn(g.players[1].card, g)
    assert not coach.in_chance
    assert seats.choose_hold(coach, g) >= -1
    assert coach.win_level() is None
    assert coach.hint(g.dice, 3 - g.rolls) >= 0


def test_any_exception_out_of_a_table_is_table_damaged(intact, tmp_path, monkeypatch, capsys):
    """Whatever a table's code raises (here an IndexError, as the old reader's joker
    lookup did) is damage: the coach says so and plays on; advise prints one line."""
    import coach as coach_module
    import strategy_win_meter

    def broken(*_args):
        raise IndexError("index out of range")

    coach = _coach_with(tmp_path, monkeypatch, intact["forced", "exact"], intact["spread"])
    monkeypatch.setattr(st.StrategyTable, "matches", broken)
    assert not coach.open(FORCED)
    assert coach.problem == coach_module.DAMAGED
    monkeypatch.undo()
    coach = _coach_with(tmp_path, monkeypatch, intact["forced", "exact"], intact["spread"])
    assert coach.open(FORCED)
    g = _two_player_game()
    monkeypatch.setattr(strategy_win_meter, "outlook", broken)  # the meter's reads, at the roll-off too
    assert not coach.meter(g, [rules.totals(FORCED, p.card) for p in g.players], [0] * 4)
    monkeypatch.setattr(coach.adv, "ensure", broken)  # a turn's reads
    assert not coach.start_turn(g.players[0].card, g)
    assert coach.problem == coach_module.DAMAGED
    monkeypatch.undo()
    capsys.readouterr()  # the coach's console lines
    monkeypatch.setattr(A.Advisor, "prepare", broken)
    assert advise.main(["--table", solver_cache.table(FORCED)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert "table damaged: index out of range" in err


def test_the_firmware_plays_on_without_a_crafted_table_and_says_so(intact, tmp_path):
    """A joker byte of 9 (the old reader crashed the game at its start): the headless
    simulator plays a solo game without the table and says why."""
    from host_tools.simulator import golden as sim_golden
    from host_tools.simulator.screen import screen_lines
    from helpers.sim_helpers import play

    table = tmp_path / "table.bin"
    table.write_bytes(_crafted_value(intact, "forced", "exact", "joker byte 9"))
    keys = sim_golden.SOLO + " space wait:500 m wait:120"  # a solo game, a roll, short MENU
    device = play(tmp_path / "flash", keys, seed=4, tables={"strategy-forced.bin": str(table)})
    screen = screen_lines(device.oled_pixels())
    assert screen[0].startswith("P1 card")  # no hint: MENU shows the card, as without a table
    device = play(tmp_path / "flash", "enter wait:300", seed=4, tables={"strategy-forced.bin": str(table)})
    assert screen_lines(device.oled_pixels())[7] == "Table damaged"

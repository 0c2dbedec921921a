"""A damaged strategy table is refused with a named message, never used.

The damage found first (a table cut at 4,160 or 1,000,000 bytes, a flipped variant
byte, damaged offsets, a flipped data byte) and a few more (a check byte, a rank row, a
byte too many) against every reader: the device reader under CPython and inside the real
MicroPython, ``advise`` (one line, exit 2), and the firmware in the headless simulator
(the "Table damaged" note, no hints: as without a table). The kids' Zoo table (layout 1)
goes through the same checks.
"""

import io
import struct
import zlib

import pytest

import strategy_advisor as A
import host_tools
import rules
import strategy_table
from host_tools import advise
from host_tools.simulator import golden as sim_golden
from host_tools.simulator.screen import screen_lines
from host_tools.solver import cache as solver_cache
from helpers.sim_helpers import play

pytestmark = pytest.mark.slow

FORCED = rules.make_ruleset()
ZOO = rules.make_ruleset("zoo")  # layout 1: the kids' card's 2,048 masks
CARDS = {"forced": FORCED, "zoo": ZOO}


@pytest.fixture(scope="module")
def intact():
    """``{(card, variant): file bytes}`` of both cards' tables."""
    tables = {}
    for card, ruleset in CARDS.items():
        for variant in ("exact", "compact"):
            with open(solver_cache.table(ruleset, variant), "rb") as f:
                tables[card, variant] = f.read()
    return tables


def _reader(data):
    return strategy_table.StrategyTable(io.BytesIO(data))


def _flip(data, at, bits=0x01):
    out = bytearray(data)
    out[at] ^= bits
    return bytes(out)


def _first_value_of_mask(data, mask):
    """Where ``mask``'s bytes start: exact, its block's base in the bit stream (byte 18
    holds the bits per value); compact, its first u8 value."""
    table = _reader(data)
    values_at = struct.unpack_from("<I", data, 20)[0]
    if table.variant == strategy_table.EXACT:
        bit = strategy_table.BASE_BITS * strategy_table.block_number(mask, 0) + data[18] * table.block_start(mask, 0)
        return values_at + (bit >> 3)
    return values_at + table.block_start(mask, 0)


def damaged(data, kind):
    """``data`` with one kind of damage; mask 1 (aces filled) is read on every first turn."""
    if kind == "cut at 4160":
        return data[:4160]
    if kind == "cut at 1000000":
        return data[:1000000] if len(data) > 1000000 else data[: len(data) * 5 // 6]
    if kind == "flipped variant byte":
        return _flip(data, 5, 0x03)
    if kind == "damaged offsets":
        values_at = struct.unpack_from("<I", data, 20)[0]
        return data[:20] + struct.pack("<I", values_at + 2) + data[24:]
    if kind == "flipped data byte":
        return _flip(data, _first_value_of_mask(data, 1) + 1, 0x40)
    if kind == "flipped check byte":
        return _flip(data, struct.unpack_from("<I", data, 56)[0] + 1)
    if kind == "flipped rank byte":
        return _flip(data, strategy_table.HEADER_SIZE + 1 * 64 + 2)
    if kind == "one byte too many":
        return data + b"\x00"
    raise ValueError(kind)


KINDS = (
    "cut at 4160",
    "cut at 1000000",
    "flipped variant byte",
    "damaged offsets",
    "flipped data byte",
    "flipped check byte",
    "flipped rank byte",
    "one byte too many",
)


def first_turn(data, card="forced"):
    """What a game does with a table: open it, prepare the first turn's card."""
    ruleset = CARDS[card]
    adv = A.Advisor(ruleset, _reader(data))
    adv.prepare(rules.new_card(ruleset))
    return adv


@pytest.mark.parametrize("card", list(CARDS))
@pytest.mark.parametrize("variant", ["exact", "compact"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_device_reader_refuses_every_kind_of_damage(intact, card, variant, kind):
    with pytest.raises(strategy_table.TableDamaged, match="^damaged: "):
        first_turn(damaged(intact[card, variant], kind), card)


@pytest.mark.parametrize("card", list(CARDS))
@pytest.mark.parametrize("variant", ["exact", "compact"])
def test_an_intact_table_passes_the_check_of_every_mask(intact, card, variant):
    table = _reader(intact[card, variant])
    assert table.n_masks == (strategy_table.N_MASKS if card == "forced" else strategy_table.ZOO_MASKS)
    for mask in range(table.n_masks):
        for yz in (0, 1) if mask >> 11 & 1 else (0,):
            table.load_block(mask, yz)  # a false alarm would raise TableDamaged
    assert first_turn(intact[card, variant], card).expected_total() > 0


def _relabelled(data, layout, n_blocks=None):
    """``data`` with another layout byte (and number of blocks) and header checks that
    agree: what a buggy writer would make, not damage a check byte could catch."""
    from host_tools.solver import table as solver_table

    head = bytearray(data[:60])
    head[11] = layout
    if n_blocks is not None:
        struct.pack_into("<H", head, 16, n_blocks)
    head[19] = solver_table.crc8(head[20:60], solver_table.crc8(head[0:19]))
    return bytes(head) + struct.pack("<I", zlib.crc32(head)) + data[64:]


@pytest.mark.parametrize("variant", ["exact", "compact"])
def test_the_reader_checks_the_layout_against_the_rest_of_the_file(intact, variant):
    zoo, standard = intact["zoo", variant], intact["forced", variant]
    assert _reader(zoo).layout == strategy_table.LAYOUT_ZOO
    assert _reader(standard).layout == strategy_table.LAYOUT_VALUES
    for data in (
        _relabelled(zoo, strategy_table.LAYOUT_VALUES),
        _relabelled(standard, strategy_table.LAYOUT_ZOO),
        _relabelled(zoo, strategy_table.LAYOUT_VALUES, strategy_table.N_BLOCKS),
        _relabelled(standard, strategy_table.LAYOUT_ZOO, strategy_table.ZOO_MASKS),
    ):
        with pytest.raises(strategy_table.TableDamaged, match="^damaged: "):
            _reader(data)
    for data in (zoo, standard):
        with pytest.raises(ValueError, match="layout 2") as refused:
            _reader(_relabelled(data, 2))
        assert not isinstance(refused.value, strategy_table.TableDamaged)  # another format, not damage
    from host_tools.solver import table as solver_table

    with pytest.raises(ValueError, match="layout 2 unknown"):
        solver_table.verify(_relabelled(zoo, 2))
    with pytest.raises(ValueError):  # each card's table is refused for the other card
        first_turn(zoo, "forced")
    with pytest.raises(ValueError):
        first_turn(standard, "zoo")


MP_SCRIPT = """
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


@pytest.mark.parametrize("card", list(CARDS))
def test_inside_micropython_every_damaged_table_is_refused(intact, tmp_path, card):
    paths = []
    for kind in KINDS:
        path = tmp_path / (kind.replace(" ", "_") + ".bin")
        path.write_bytes(damaged(intact[card, "exact"], kind))
        paths.append(str(path))
    good = tmp_path / "intact.bin"
    good.write_bytes(intact[card, "exact"])
    script = tmp_path / "mp_damage.py"
    script.write_text(MP_SCRIPT)
    proc = host_tools.run_micropython([str(script), card] + paths + [str(good)], heap="128K")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == len(KINDS) + 1
    for kind, line in zip(KINDS, lines):
        assert line.startswith("refused damaged: "), (kind, line)
    assert lines[-1] == "used %d" % first_turn(intact[card, "exact"], card).expected_total()


@pytest.mark.parametrize("card", list(CARDS))
@pytest.mark.parametrize("kind", KINDS)
def test_advise_refuses_a_damaged_table_with_one_line(intact, tmp_path, capsys, kind, card):
    path = tmp_path / ("strategy-%s.bin" % card)
    path.write_bytes(damaged(intact[card, "exact"], kind))
    assert (
        advise.main(["--rules", card, "--table", str(path), "--dice", "6", "1", "4", "2", "3", "--rolls-left", "2"])
        == 2
    )
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("advise: %s: strategy table damaged" % path)


def test_advise_rebuilds_a_table_of_an_older_format_in_its_folder(intact, tmp_path, monkeypatch):
    from host_tools import solve

    monkeypatch.setattr(solve, "build", lambda ruleset, variant: (intact["forced", variant], 0.0, None))  # no 5 s solve
    old = bytearray(intact["forced", "exact"])
    old[4] = strategy_table.FORMAT_VERSION - 1  # what the previous solver wrote
    path = tmp_path / "strategy-forced.bin"
    path.write_bytes(bytes(old))
    assert advise.ensure_table(FORCED, str(tmp_path), quiet=True) == str(path)
    assert path.read_bytes() == intact["forced", "exact"]


@pytest.mark.parametrize("kind", ["cut at 4160", "flipped data byte"])
def test_the_firmware_plays_on_without_a_damaged_table_and_says_so(intact, tmp_path, kind):
    table = tmp_path / "table.bin"
    table.write_bytes(damaged(intact["forced", "exact"], kind))
    keys = sim_golden.SOLO + " space wait:500 m wait:120"  # a solo game, a roll, short MENU
    device = play(tmp_path / "flash", keys, seed=4, tables={"strategy-forced.bin": str(table)})
    screen = screen_lines(device.oled_pixels())
    assert screen[0].startswith("P1 card")  # no hint: MENU shows the card, as without a table
    device = play(tmp_path / "flash", "enter wait:300", seed=4, tables={"strategy-forced.bin": str(table)})
    assert screen_lines(device.oled_pixels())[7] == "Table damaged"  # Continue: round 1's note

"""save_store.py under CPython: property tests, parser fuzzing, exhaustive power cuts and
full disks. The fake filesystem is the one from the shared cases (tests/shared)."""

import binascii
import os
import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import save_store
from fake_fs import FakeFs, PowerCut
from support import steps_of_save

pytestmark = pytest.mark.slow

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- strategies -----------------------------------------------------------------------
box_points = st.one_of(st.just(-1), st.integers(0, 50))
cards = st.lists(box_points, min_size=13, max_size=13).map(lambda c: c + [0]) | st.builds(
    lambda c, bonus: c + [bonus],
    st.lists(box_points, min_size=13, max_size=13),
    st.integers(0, 12).map(lambda n: n * 100),
)
names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
players = st.lists(
    st.tuples(names, st.sampled_from(["human", "easy", "hard"]), cards).map(list), min_size=1, max_size=4
)
game_states = st.fixed_dictionaries(
    {
        "id": st.integers(1, 2**30 - 1),
        "seed": st.integers(0, 2**30 - 1),
        "counts": st.lists(st.integers(0, 5000), min_size=6, max_size=6),
        "game": st.fixed_dictionaries(
            {
                "v": st.just(1),
                "rules": st.sampled_from(["forced", "ordered", "free", "none", "forced-nobonus"]),
                "phase": st.integers(0, 2),
                "round": st.integers(0, 13),
                "current": st.integers(0, 3),
                "first": st.integers(0, 3),
                "contenders": st.lists(st.integers(0, 3), min_size=1, max_size=4),
                "dice": st.lists(st.integers(0, 6), min_size=5, max_size=5),
                "held": st.integers(0, 31),
                "rolls": st.integers(0, 3),
                "players": players,
            }
        ),
    }
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1), names, st.binary(max_size=40))
plain = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=20), st.dictionaries(st.one_of(names, st.integers(-1000, 1000)), inner, max_size=10)
    ),
    max_leaves=60,
)


@FAST
@given(game_states)
def test_save_then_load_is_the_identity_for_game_states(state):
    fs = FakeFs()
    save_store.Store("data/game", fs).save(state)
    assert save_store.Store("data/game", fs.reboot()).load() == state


@settings(max_examples=80, deadline=None)
@given(plain)
def test_encode_decode_is_the_identity_for_plain_structures(value):
    assert save_store.decode(save_store.encode(value)) == value
    seq, back = save_store.unpack(save_store.pack(value, 7))
    assert (seq, back) == (7, value)


def test_tuples_come_back_as_lists_and_floats_are_refused():
    assert save_store.decode(save_store.encode((1, (2, 3)))) == [1, [2, 3]]
    for bad in (1.5, {1.5: 1}, {(1,): 2}, object(), 2**63, -(2**63) - 1):
        try:
            save_store.encode(bad)
        except (TypeError, ValueError):
            continue
        raise AssertionError("encoded %r" % (bad,))


@FAST
@given(st.binary(max_size=300))
def test_crc32_equals_zlib_crc32(data):
    assert save_store.crc32(data) == (binascii.crc32(data) & 0xFFFFFFFF).to_bytes(4, "little")


# --- fuzzing the parser ---------------------------------------------------------------
@settings(max_examples=600, deadline=None)
@given(st.binary(max_size=200))
def test_decoder_on_random_bytes_returns_a_value_or_the_named_error(data):
    try:
        save_store.decode(data)
    except save_store.SaveError as err:
        assert err.reason == save_store.CORRUPT


@settings(max_examples=600, deadline=None)
@given(st.binary(max_size=200))
def test_unpack_on_random_bytes_raises_only_the_named_error(data):
    try:
        save_store.unpack(data)
    except save_store.SaveError as err:
        assert err.reason in (save_store.CORRUPT, save_store.TRUNCATED, save_store.UNKNOWN_VERSION)
    else:
        raise AssertionError("random bytes passed the checksum")


@settings(max_examples=250, deadline=None)
@given(game_states, st.data())
def test_mutated_files_always_give_the_named_error(state, data):
    good = bytearray(save_store.pack(state, 3))
    bad = bytearray(good)
    how = data.draw(st.sampled_from(["flip", "set", "cut", "insert", "drop", "append"]))
    at = data.draw(st.integers(0, len(good) - 1))
    if how == "flip":
        bad[at] ^= 1 << data.draw(st.integers(0, 7))
    elif how == "set":
        bad[at] = data.draw(st.integers(0, 255).filter(lambda b: b != good[at]))
    elif how == "cut":
        del bad[at:]
    elif how == "insert":
        bad[at:at] = data.draw(st.binary(min_size=1, max_size=8))
    elif how == "drop":
        del bad[at : at + data.draw(st.integers(1, 8))]
    else:
        bad += data.draw(st.binary(min_size=1, max_size=8))
    try:
        save_store.unpack(bytes(bad))
    except save_store.SaveError:
        return
    raise AssertionError("%s at %d went unnoticed" % (how, at))


def test_hostile_nesting_and_counts_are_corrupt_not_crashes():
    deep = bytes([0x61] * 5000) + b"\x00"  # 5000 nested one-item lists
    huge = b"\xf6\xff\xff\xff\xff\x0f"  # a list claiming 2**32 items
    long_varint = b"\xf3" + b"\xff" * 20 + b"\x01"
    for data in (deep, huge, long_varint, b"\xf8", b"\x71\x61\x00\x00", b"\xf4\x02\xff\xfe"):
        try:
            save_store.decode(data)
        except save_store.SaveError as err:
            assert err.reason == save_store.CORRUPT
        else:
            raise AssertionError(data)


# --- power cuts and full disks over several saves -------------------------------------
def test_first_save_cut_anywhere_leaves_nothing_or_the_new_value():
    value = {"game": [1, 2, 3], "x": "y" * 50}
    total = steps_of_save(FakeFs(), value)
    for cut in range(total + 1):
        fs = FakeFs()
        fs.cut_at = cut
        try:
            save_store.Store("data/game", fs).save(value)
        except PowerCut:
            pass
        assert save_store.Store("data/game", fs.reboot()).load() in (None, value)


@settings(max_examples=60, deadline=None)
@given(st.lists(game_states, min_size=2, max_size=4), st.data())
def test_power_cut_anywhere_in_a_series_of_saves(states, data):
    fs = FakeFs()
    store = save_store.Store("data/game", fs)
    for state in states[:-1]:
        store.save(state)
    total = steps_of_save(fs, states[-1])
    fs = fs.reboot()
    fs.cut_at = data.draw(st.integers(0, total))
    try:
        save_store.Store("data/game", fs).save(states[-1])
    except PowerCut:
        pass
    assert save_store.Store("data/game", fs.reboot()).load() in (states[-2], states[-1])


def test_disk_full_at_every_size_keeps_the_previous_save():
    old, new = {"n": 1, "pad": "a" * 30}, {"n": 2, "pad": "b" * 60}
    base = FakeFs()
    save_store.Store("data/game", base).save(old)
    size = len(save_store.pack(new, 2))
    outcomes = set()
    for room in range(0, size + 2):
        fs = base.reboot()
        fs.capacity = fs.used() + room
        store = save_store.Store("data/game", fs)
        try:
            store.save(new)
            outcomes.add("saved")
        except save_store.SaveError as err:
            assert err.reason == save_store.FULL
            assert "data/game.tmp" not in fs.files
            outcomes.add("full")
        assert save_store.Store("data/game", fs.reboot()).load() in (old, new)
    assert outcomes == {"saved", "full"}


class _FailingFs(FakeFs):
    """Raises OSError(errno) at one named call, like littlefs at close or rename."""

    def __init__(self, fail_at, errno):
        super().__init__(dirs=["", "data"])
        self.fail_at = fail_at
        self.errno = errno

    def open(self, path, mode):
        f = super().open(path, mode)
        if "w" in mode and self.fail_at == "close":
            inner = f.close

            def close():
                inner()
                raise OSError(self.errno)

            f.close = close
        return f

    def rename(self, old, new):
        if self.fail_at == "rename":
            raise OSError(self.errno)
        super().rename(old, new)


def test_errors_at_close_or_rename_are_named_and_harmless():
    for where in ("close", "rename"):
        for errno, reason in ((28, save_store.FULL), (5, save_store.IO)):
            fs = _FailingFs(None, errno)
            store = save_store.Store("data/game", fs)
            store.save([1])
            fs.fail_at = where
            try:
                store.save([2])
            except save_store.SaveError as err:
                assert err.reason == reason
            else:
                raise AssertionError(where)
            assert "data/game.tmp" not in fs.files
            assert save_store.Store("data/game", fs.reboot()).load() == [1]


def test_real_filesystem_round_trip(tmp_path):
    base = os.path.join(str(tmp_path), "data", "game")
    store = save_store.Store(base)
    assert store.load() is None
    for n in range(5):
        store.save({"n": n})
    assert sorted(os.listdir(os.path.dirname(base))) == ["game.a", "game.b"]
    assert save_store.Store(base).load() == {"n": 4}
    with open(base + ".a", "r+b") as f:  # slots alternate from a: n=0 a, 1 b, 2 a, 3 b, 4 a
        f.seek(14)
        f.write(b"\x7f")
    again = save_store.Store(base)
    assert again.load() == {"n": 3}
    assert again.damaged == [(base + ".a", save_store.CORRUPT)]


def test_a_value_too_big_to_load_is_refused_when_saving():
    fs = FakeFs()
    store = save_store.Store("data/game", fs)
    store.save("small")
    try:
        store.save(b"x" * 16384)
    except save_store.SaveError as err:  # a SaveError like a full disk: every caller goes on
        assert err.reason == save_store.UNSAVABLE
    else:
        raise AssertionError("a file over 16 KiB was written")
    assert save_store.Store("data/game", fs.reboot()).load() == "small"
    store.save(b"x" * (16384 - 20))
    assert save_store.Store("data/game", fs.reboot()).load() == b"x" * (16384 - 20)


def test_real_filesystem_obstacles_are_moved_aside(tmp_path):
    # CPython's os, as the host tools use the store: a dangling link for the folder and a
    # folder for the temp file (FakeFs in tests/shared has no links).
    folder = tmp_path / "data"
    os.symlink(str(tmp_path / "gone"), str(folder))
    store = save_store.Store(str(folder / "game"))
    assert store.load() is None
    store.save({"n": 1})
    assert store.repaired == [str(folder)]
    assert os.path.islink(str(folder) + ".bad")
    os.mkdir(str(folder / "game.tmp"))
    again = save_store.Store(str(folder / "game"))
    again.save({"n": 2})
    assert again.repaired == [str(folder / "game.tmp")]
    assert save_store.Store(str(folder / "game")).load() == {"n": 2}

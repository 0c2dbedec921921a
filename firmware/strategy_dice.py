"""Dice combinatorics shared by the advisor (device) and the table builder (host).

A *keep* is a multiset of 0-5 dice; a *roll* is a keep of five. All 462 keeps get a
fixed index: by size, then by ``key`` (the face counts packed 3 bits per face, size in
bits 18+). Keeps 210..461 are the 252 rolls. Both sides build the same tables from this
module, so the solver's state layout and the advisor's lookups cannot drift apart.
Built once (allocation at construction only); the arrays are the hot-loop tables.
"""

from array import array
from micropython import const

N_KEEPS = const(462)
N_ROLLS = const(252)
FIRST_ROLL = const(210)  # keeps of 0-4 dice come first: 1 + 6 + 21 + 56 + 126
_SIZE_SHIFT = const(18)
_FACE_BITS = const(3)
_FACE_MASK = const(7)
_PART_CHILD = const(15)  # keeps filled per part of fill(), a frame each
_PART_ROLL = const(42)
_ALL_DICE = const(0x1F)  # game.ALL_HELD

# Index ranges of the keeps of each size: SIZE_START[n] .. SIZE_START[n + 1].
SIZE_START = (0, 1, 7, 28, 84, 210, 462)


def face_count(key, face):
    """How many dice showing ``face`` (1-6) the keep ``key`` holds."""
    return (key >> (_FACE_BITS * (face - 1))) & _FACE_MASK


def _all_keys():
    keys = []
    for c1 in range(6):
        for c2 in range(6 - c1):
            for c3 in range(6 - c1 - c2):
                for c4 in range(6 - c1 - c2 - c3):
                    for c5 in range(6 - c1 - c2 - c3 - c4):
                        for c6 in range(6 - c1 - c2 - c3 - c4 - c5):
                            size = c1 + c2 + c3 + c4 + c5 + c6
                            keys.append(
                                (size << _SIZE_SHIFT) | c1 | (c2 << 3) | (c3 << 6) | (c4 << 9) | (c5 << 12) | (c6 << 15)
                            )
    keys.sort()
    return keys


class Keeps:
    """The keep index and its transition tables.

    ``key[k]``: packed counts of keep k. ``child[k * 6 + f - 1]`` (k < 210): the keep with
    one more die showing f. ``parent[k * 5 + j]`` (k >= 1): the keeps with one die fewer,
    one per distinct face (``n_parents[k]`` of them), padded by repeating the first.
    """

    def __init__(self, later=False):
        """``later``: the tables are made but filled by ``fill()`` (a generator, one part
        a step: the advisor's set-up spread over frames)."""
        self.key = array("i", _all_keys())
        self.child = array("H", bytes(2 * 6 * FIRST_ROLL))
        self.parent = array("H", bytes(2 * 5 * N_KEEPS))
        self.n_parents = bytearray(N_KEEPS)  # distinct faces: the real entries of parent
        if not later:
            for _ in self.fill():
                pass

    def fill(self):
        """Fill the transition tables, yielding after each part (the keeps with a child
        cost about twice the others: parts of _PART_CHILD and _PART_ROLL keeps)."""
        k = 0
        while k < N_KEEPS:
            end = k + (_PART_CHILD if k < FIRST_ROLL else _PART_ROLL)
            self._fill(k, end if end < N_KEEPS else N_KEEPS)
            k = end
            yield

    def _fill(self, start, end):
        for k in range(start, end):
            key = self.key[k]
            if k < FIRST_ROLL:
                for face in range(1, 7):
                    self.child[k * 6 + face - 1] = self.index(
                        key + (1 << _SIZE_SHIFT) + (1 << (_FACE_BITS * (face - 1)))
                    )
            j = 0
            for face in range(1, 7):
                if face_count(key, face):
                    self.parent[k * 5 + j] = self.index(key - (1 << _SIZE_SHIFT) - (1 << (_FACE_BITS * (face - 1))))
                    j += 1
            self.n_parents[k] = j
            while 0 < j < 5:
                self.parent[k * 5 + j] = self.parent[k * 5]
                j += 1

    def index(self, key):
        """Index of the keep with packed counts ``key`` (binary search), or -1."""
        lo = 0
        hi = N_KEEPS - 1
        table = self.key
        while lo <= hi:
            mid = (lo + hi) >> 1
            if table[mid] < key:
                lo = mid + 1
            elif table[mid] > key:
                hi = mid - 1
            else:
                return mid
        return -1

    def of_dice(self, dice, mask=_ALL_DICE):
        """Keep index of the dice at the positions set in ``mask`` (bit i = dice[i])."""
        k = 0
        child = self.child
        for i in range(5):
            if mask >> i & 1:
                k = child[k * 6 + dice[i] - 1]
        return k

    def faces(self, k, out):
        """Write keep k's faces ascending into ``out``; returns how many."""
        key = self.key[k]
        n = 0
        for face in range(1, 7):
            for _ in range(face_count(key, face)):
                out[n] = face
                n += 1
        return n

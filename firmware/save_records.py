"""Records: high scores, player statistics and the dice fairness histogram.

Pure functions update plain structures (lists, dicts, ints, strings) from a finished
game; ``Records`` keeps each structure in its own ``save_store.Store`` under a folder, so a
damaged file costs only itself. Every update carries the game's id and is skipped when
that game was already counted, which makes the end-of-game sequence safe to repeat after
a power cut (see docs/architecture.md, Persistence). Integer math only. What only the
records pages need (summaries, the fairness test) is in save_records_view.py, so the end of a
game loads less code.
"""

from micropython import const

from save_bounds import MAX_ID, MAX_NAME, MAX_PLAYERS, MAX_TALLY, tally, within
import rules
import save_store

MAX_SCORES = const(10)
MAX_NAMES = const(16)  # statistics kept per name; the least played name makes room
_STANDARD = rules.make_ruleset()  # the card whose records keep the plain file names
# Statistics entry: [games, points, best, yahtzees, upper_bonus_games]
GAMES = const(0)
POINTS = const(1)
BEST = const(2)
YAHTZEES = const(3)
BONUSES = const(4)


# --- high scores: [[total, initials, game_id, seat], ...] best first -------------------
def score_place(scores, total, game_id=0, seat=0):
    """Index a new ``total`` would take in the table, or -1 when it does not enter.
    Equal totals go after the earlier ones; a tie with a full table's last does not enter.
    With a ``game_id``, also -1 when that game's ``seat`` is already in the table (asking
    for initials again after a power cut would be wrong)."""
    if game_id:
        for entry in scores:
            if entry[2] == game_id and entry[3] == seat:
                return -1
    place = 0
    while place < len(scores) and scores[place][0] >= total:
        place += 1
    return place if place < MAX_SCORES else -1


def game_places(scores, totals, game_id):
    """Where the seats of one game end in the table once all of them are in: ``totals``
    is per seat; returns ``[(seat, place), ...]`` best first, for the seats that enter
    (not those already in, nor those pushed out by the others). Entering them with
    ``add_score`` in this order gives exactly these places, so a place shown while
    asking for initials is the final one."""
    entering = []
    for seat in range(len(totals)):
        if score_place(scores, totals[seat], game_id, seat) >= 0:
            at = len(entering)  # best first; equal totals keep seat order
            while at > 0 and totals[entering[at - 1]] < totals[seat]:
                at -= 1
            entering.insert(at, seat)
    places = []
    for ahead in range(len(entering)):
        seat = entering[ahead]
        place = score_place(scores, totals[seat]) + ahead
        if place < MAX_SCORES:
            places.append((seat, place))
    return places


def add_score(scores, total, initials, game_id, seat):
    """Enters ``total`` with ``initials`` (3 letters); returns its index, or -1 when it
    does not qualify or this game's seat is already in the table."""
    if len(initials) != 3:
        raise ValueError("initials must be 3 letters")
    place = score_place(scores, total, game_id, seat)
    if place >= 0:
        scores.insert(place, [total, initials, game_id, seat])
        del scores[MAX_SCORES:]
    return place


# --- statistics: {"last": game_id, "games": n, "all": entry, "names": {name: entry}} ------
# An entry counts player results (a 3-player game adds 3 to "all"); "games" counts games.
def new_stats():
    return {"last": 0, "games": 0, "all": [0, 0, 0, 0, 0], "names": {}}


def games_played(stats):
    """Games counted. Files written before "games" was kept: the most results of one
    name, a lower bound (exact when one player played them all)."""
    games = stats.get("games")
    if isinstance(games, int):
        return games
    most = 0
    for entry in stats["names"].values():
        if entry[GAMES] > most:
            most = entry[GAMES]
    return most


def yahtzees_in(card, ruleset=_STANDARD):
    """Yahtzees scored on a card: the Yahtzee box at its points (50; a Zoo Yahtzy's 30)
    plus one per further-Yahtzee bonus."""
    box = ruleset.yahtzee_box
    found = 1 if card[box] > 0 and card[box] == ruleset.boxes[box][3] else 0
    if ruleset.yahtzee_bonus:
        found += card[ruleset.bonus_at] // ruleset.yahtzee_bonus
    return found


def upper_bonus_in(card, ruleset=_STANDARD):
    upper = 0
    for box in range(ruleset.n_upper):
        if card[box] > 0:
            upper += card[box]
    return upper >= ruleset.upper_threshold


def _count(entry, total, card, ruleset):
    # Every count saturates (save_bounds.tally): what this writes always passes entry_ok again.
    first = entry[GAMES] == 0
    entry[GAMES] = tally(entry[GAMES], 1)
    entry[POINTS] = tally(entry[POINTS], total)
    if total > entry[BEST] or first:
        entry[BEST] = total
    entry[YAHTZEES] = tally(entry[YAHTZEES], yahtzees_in(card, ruleset))
    if upper_bonus_in(card, ruleset):
        entry[BONUSES] = tally(entry[BONUSES], 1)


def add_game(stats, game_id, results, ruleset=_STANDARD):
    """Counts a finished game: ``results`` is ``[(name, total, card), ...]`` on cards of
    ``ruleset``. Returns False (and changes nothing) when ``game_id`` was the last game
    counted."""
    if game_id == stats["last"]:
        return False
    stats["games"] = tally(games_played(stats), 1)
    names = stats["names"]
    for name, total, card in results:
        _count(stats["all"], total, card, ruleset)
        if name not in names:
            if len(names) >= MAX_NAMES:
                least = None
                for other in names:
                    if least is None or names[other][GAMES] < names[least][GAMES]:
                        least = other
                del names[least]
            names[name] = [0, 0, 0, 0, 0]
        _count(names[name], total, card, ruleset)
    stats["last"] = game_id
    return True


# --- roll histogram: {"last": game_id, "faces": [n1..n6]} -----------------------------
def new_rolls():
    return {"last": 0, "faces": [0, 0, 0, 0, 0, 0]}


def add_rolls(histogram, game_id, counts):
    """Merges one game's ``counts`` into the histogram once; False if already merged."""
    if game_id == histogram["last"]:
        return False
    faces = histogram["faces"]
    for i in range(6):
        faces[i] = tally(faces[i], counts[i])
    histogram["last"] = game_id
    return True


# --- the three files ------------------------------------------------------------------
def _fresh(name):
    return [] if name == "scores" else new_stats() if name == "stats" else new_rolls()


class Records:
    """The records under ``folder``: ``scores``, ``stats`` and ``rolls``, each its own
    store. ``load()`` never raises: a damaged file is set aside, starts fresh and its
    name and reason go into ``problems`` for a short message.

    High scores and statistics are kept per card (``ruleset.card``), so a kids' 60 is
    never ranked against a Yahtzee 250: the standard card's files are ``scores`` and
    ``stats``, the Zoo card's ``zoo_scores`` and ``zoo_stats``. The joker options share
    the standard card's records; ``rolls`` (dice fairness) is shared by every card."""

    def __init__(self, folder=save_store.DATA_DIR, fs=None, ruleset=_STANDARD):
        self.ruleset = ruleset
        prefix = "" if ruleset.card == _STANDARD.card else ruleset.card + "_"
        # The card's own bounds (its box table): a Zoo file cannot hold a standard score.
        self.most_total, self.most_yahtzees = rules.card_bounds(ruleset.card)
        checks = {"scores": self._scores_ok, "stats": self._stats_ok, "rolls": rolls_ok}
        self.stores = {}
        for name in ("scores", "stats", "rolls"):
            self.stores[name] = save_store.Store(
                folder + "/" + ("" if name == "rolls" else prefix) + name, fs, checks[name]
            )
        self.scores = []
        self.stats = new_stats()
        self.rolls = new_rolls()
        self.problems = []  # [(file name, reason)]
        self.older = []  # names restored from their older copy
        self.unkept = []  # names whose damaged file could not be moved aside

    def load(self):
        """Loads the three files. A damaged file (bad frame or bad contents) is named in
        ``problems``, moved aside as ``*.bad`` (``unkept`` names those that could not be
        moved) and replaced by its older copy when that one is intact (``older`` names
        those), else by a fresh start."""
        self.problems = []
        self.older = []
        self.unkept = []
        for name in ("scores", "stats", "rolls"):
            store = self.stores[name]
            value = None
            try:
                value = store.load()
            except save_store.SaveError as err:
                self.problems.append((name, err.reason))
            else:
                if store.damaged:
                    self.problems.append((name, store.damaged[0][1]))
                    if value is not None:
                        self.older.append(name)
            if value is None:
                value = _fresh(name)
            bad = len(store.damaged)
            if bad and len(store.set_aside()) < bad:
                # Not movable (e.g. folders in the way of its .bad name): write over it
                # now, so the next boot does not find it and say the same again.
                self.unkept.append(name)
                try:
                    store.save(value)
                except save_store.SaveError:
                    pass  # the flash refuses: the next save of this file tries again
            setattr(self, name, value)

    def save(self, name):
        """Saves one of ``scores``/``stats``/``rolls``; a SaveError passes up, and the value
        goes back to what the flash holds, so trying the same game again counts it again
        (the updates skip a game id already counted)."""
        store = self.stores[name]
        try:
            return store.save(getattr(self, name))
        except save_store.SaveError:
            try:
                value = store.load()
            except save_store.SaveError:
                value = None  # no intact copy: what the load at boot starts with
            setattr(self, name, value if value is not None else _fresh(name))
            raise

    def finish_game(self, game_id, results, counts):
        """Counts a finished game in stats and rolls (each saved only if it changed).
        Returns the names of the files it could not save (full disk): play goes on."""
        failed = []
        self.count_game(game_id, results, failed)
        self.count_rolls(game_id, counts, failed)
        return failed

    def count_game(self, game_id, results, failed):
        """finish_game's first half (the statistics); a file it could not save goes in ``failed``."""
        if add_game(self.stats, game_id, results, self.ruleset):
            self._try_save("stats", failed)

    def count_rolls(self, game_id, counts, failed):
        """finish_game's second half (the dice rolled)."""
        if add_rolls(self.rolls, game_id, counts):
            self._try_save("rolls", failed)

    def add_high_score(self, total, initials, game_id, seat):
        """Enters and saves a high score; returns its index or -1."""
        place = add_score(self.scores, total, initials, game_id, seat)
        if place >= 0:
            self.save("scores")
        return place

    def _scores_ok(self, scores):
        return scores_ok(scores, self.most_total)

    def _stats_ok(self, stats):
        return stats_ok(stats, self.most_total, self.most_yahtzees)

    def _try_save(self, name, failed):
        try:
            self.save(name)
        except save_store.SaveError:
            failed.append(name)


# --- shapes: what every reader above relies on, checked at load like the frame -------
# A file with an intact frame but other contents (written by another version, by hand or
# by a bug) is damage: the store falls back to the older slot (save_store.Store ``check``).
# Unknown extra keys in a dict are allowed (a later version may add some); every key and
# item the code reads is checked here, against save_bounds.py and the card's own bounds
# (rules.card_bounds; the defaults are the standard card's), so whatever loads can be
# counted into and saved again.
_TOP, _YAHTZEES = rules.card_bounds(_STANDARD.card)


def _entry_ok(entry, top, yahtzees):
    if type(entry) is not list or len(entry) != 5:
        return False
    for n in entry:
        if not within(n, MAX_TALLY):
            return False
    games = entry[GAMES]
    # Per result at most: the card's best total, its Yahtzees, one upper bonus.
    return (
        entry[BEST] <= top
        and entry[BEST] <= entry[POINTS] <= games * top
        and entry[YAHTZEES] <= games * yahtzees
        and entry[BONUSES] <= games
    )


def scores_ok(scores, top=_TOP):
    if type(scores) is not list or len(scores) > MAX_SCORES:
        return False
    before = top
    for entry in scores:
        if type(entry) is not list or len(entry) != 4:
            return False
        total, initials, game_id, seat = entry
        if (
            not within(total, before)
            or type(initials) is not str
            or len(initials) != 3
            or not within(game_id, MAX_ID)
            or not within(seat, MAX_PLAYERS - 1)
        ):
            return False
        before = total  # best first
    return True


def stats_ok(stats, top=_TOP, yahtzees=_YAHTZEES):
    if (
        type(stats) is not dict
        or not within(stats.get("last"), MAX_ID)
        or not _entry_ok(stats.get("all"), top, yahtzees)
    ):
        return False
    if "games" in stats and not within(stats["games"], MAX_TALLY):
        return False
    names = stats.get("names")
    if type(names) is not dict or len(names) > MAX_NAMES:
        return False
    for name in names:
        if type(name) is not str or len(name) > MAX_NAME or not _entry_ok(names[name], top, yahtzees):
            return False
    return True


def rolls_ok(rolls):
    if type(rolls) is not dict or not within(rolls.get("last"), MAX_ID):
        return False
    faces = rolls.get("faces")
    if type(faces) is not list or len(faces) != 6:
        return False
    for n in faces:
        if not within(n, MAX_TALLY):
            return False
    return True

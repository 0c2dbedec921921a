"""The save layer: saves the game after every action, offers "Continue" at boot, keeps
the records at the end of a game, keeps the menu's set-up between power-ons
(``data/setup``), and says what the battery's warning saved.

``Session(hw).attach(app)`` makes it the app's save layer (``app.session``); the contract
between the two is docs/architecture.md's "The save layer". Its work runs as jobs of the
app's scheduler (scheduler.py), a part a frame: the boot, each action's save (packed, then
written), the menu's set-up, a game's end. It knows nothing of pixels or screens: what it
has to show is queued as plain data in ``asks`` (a message, a question, initials for a
seat, the records pages; the kinds below), which the UI shows over the app's screen
(ui/records_screens.py) and answers through ``answer``.
Saves go through ``save_store.Store`` (two slots, atomic rename), so a power cut at any
moment leaves the last or the previous action on flash. The dice position is saved with
``dice_source.position()``: saving never changes which dice come next.

RAM: during play only the save itself, power saving and this module stay loaded. The
records (save_records.py) are imported when needed - at boot, at the end of a game, when a
game is quit, for the records pages and for a message - and released (``release``) as soon
as nothing is asked any more, so their bytecode is garbage again (make bench: the 4-player
game's heap); the UI releases its screens for ``asks`` the same way.

End of a game, in the documented order (each step keyed by the game id, so a cut anywhere
is repaired by running the rest again at the next boot): 1. the final score is saved like
any action; 2. the game counted in the records, a part a step (job END: the records
loaded, the statistics, the dice rolled, the places: each writes at most one file); 3.
initials for each qualifying seat, then ``add_high_score``; 4. ``store.clear()``, once
every record is written (else the finished game stays saved for the next boot;
docs/architecture.md).
"""

import gc
import os
import sys
import time

from micropython import const

import game as game_module
import save_store

# What the save layer asks the UI to show (``asks``): tuples whose first item is the kind.
# Asks name their texts by catalog key (lang_en.py, the save layer's messages), with the
# values put into them: the UI words them in the language in use.
MESSAGE = const(0)  # (MESSAGE, title, text, values): any key closes it; answer None
CHOICE = const(1)  # (CHOICE, title, text, answers, values): answer the index picked
INITIALS = const(2)  # (INITIALS, name, total, place): a high score; answer three letters
RECORDS = const(3)  # (RECORDS, recs, page): the records pages of save_records.Records (page
# -1: all, from the first; else that page alone: the end of a game's); answer None

_COMPUTER_INITIALS = "CPU"
# Job ids (scheduler.py).
_BOOT_JOB = const(0)  # scheduler.BOOT
_SAVE_JOB = const(1)  # scheduler.SAVE
_SETUP_JOB = const(2)  # scheduler.SETUP
_END_JOB = const(3)  # scheduler.END
_RECORDS = "save_records"
_VIEW = "save_records_view"  # the records pages' summaries (ui/records_screens.py imports it)
_BOOT = "save_boot"  # the saved game at power-on, repairs: needed once per boot
_REPAIR = "save_repair"  # loaded by storage only when damage is found
_STATE = "game_state"  # a saved game's rebuilding and checks (game.Game.from_state): at boot
_BOUNDS = "save_bounds"  # the shape checks' table: records and save_boot import it
# The strategy code a game imports (coach.py): released once the app has closed the coach,
# so the records pages and the high-score entry find its room.
_STRATEGY = (
    "coach_advice",
    "seat_win",
    "seat_levels",
    "strategy_advisor",
    "strategy_dice",
    "strategy_spread",
    "strategy_table",
    "strategy_win_meter",
)


def use(name):
    """Imports module ``name`` (dotted: the submodule itself) for a while; ``release``
    lets it go again."""
    return __import__(name, None, None, ("*",))


def release(name):
    """Forgets module ``name``: once the caller holds no reference to it (nor to its
    functions, classes or instances) its bytecode is freed by the next collection."""
    if name in sys.modules:
        del sys.modules[name]
        dot = name.rfind(".")
        parent = sys.modules.get(name[:dot]) if dot > 0 else None
        if parent is not None and hasattr(parent, name[dot + 1 :]):
            delattr(parent, name[dot + 1 :])


def _release_strategy():
    for name in _STRATEGY:
        release(name)
    gc.collect()


def _new_game_id(avoid):
    """A nonzero 30-bit id from os.urandom (not from ``random``: the dice stream stays)."""
    try:
        raw = os.urandom(4)
        value = raw[0] | raw[1] << 8 | raw[2] << 16 | (raw[3] & 0x3F) << 24
    except (AttributeError, OSError, NotImplementedError):
        value = time.ticks_us() & 0x3FFFFFFF
    if value == 0 or value == avoid:
        value = (value + 1) & 0x3FFFFFFF or 1
    return value


class Session:
    def __init__(self, hw, folder=save_store.DATA_DIR, fs=None):
        self.hw = hw
        self.folder = folder
        if fs is None:
            fs = getattr(hw, "fs", None)  # the board's (boards/hardware.py), else os
        self.fs = fs
        self.store = save_store.Store(folder + "/game", fs)
        self.setup_saved = None  # the menu's set-up on flash (save_boot): only changes are written
        self._setup = None  # the set-up job SETUP writes
        self.recs = None  # save_records.Records while the records are in use (see records)
        self.last_id = 0  # the last game counted in the statistics: a new id avoids it
        self.jobs = None  # the app's scheduler (attach)
        self.asks = []  # what the UI is asked to show (MESSAGE...); the first one is on show
        self._news = False  # asks changed since the app last looked (news)
        self.game = None  # the game being saved
        self._over = None  # the last game whose end was handled (the app keeps showing it)
        self.game_id = 0
        self.counts = [0, 0, 0, 0, 0, 0]  # faces rolled in this game
        self._rolls_seen = 0
        self._turn = 0  # round << 2 | seat of the turn the last save was in
        self._position = None  # the dice position the game's saves store (see on_change)
        # A finished game whose records could not all be saved: [game, id, counts,
        # [(seat, initials), ...] high scores not saved]. Its save stays on flash (the next
        # boot finishes it) until they are written; a new game's saves wait for that
        # (save_boot.settle).
        self.kept = None
        self.unsaved = False  # the last save failed: the flash holds an older action
        self._warned_full = False
        self._pending = []  # seats still to enter the high scores: [(seat, place), ...]
        self._to_menu = False  # the high-score table after a game is on show: closing it, the menu
        self._asking = -1  # the seat whose initials are being entered
        self._on_choice = None
        self.saves = 0  # figures for tests and the bench
        self.bytes_saved = 0

    def attach(self, app):
        """Become ``app``'s save layer; the boot's work (the saved game, the records,
        repairs) is its scheduler's first job, with the presses waiting for it."""
        app.session = self
        self.jobs = app.jobs
        self.jobs.add(_BOOT_JOB, self.boot(app), True)
        return self

    # ----------------------------------------------------------------- app hooks
    def save_due(self):
        """True while a save (an action's, the set-up's, a step of a game's end) waits
        for its part (app.still)."""
        return self.jobs.busy(_BOOT_JOB, _END_JOB)

    def write_due(self, app):
        """Write the saves the last actions left for the next frames, if any, in order."""
        self.jobs.finish(_SAVE_JOB, _END_JOB)

    def news(self):
        """True once after ``asks`` changed (something queued or answered) or a game's end
        was counted (``scores_wait``): the app redraws."""
        news = self._news
        self._news = False
        return news

    def answer(self, app, value):
        """The UI's answer to ``asks[0]``, which it has closed: the index picked, the
        initials, or None."""
        kind = self.asks.pop(0)[0]
        self._news = True
        if kind == CHOICE:
            callback = self._on_choice
            self._on_choice = None
            callback(self, app, value)
        elif kind == INITIALS:
            self._enter(app, self._asking, value)
            self._asking = -1
            self._next_initials(app)
        elif kind == RECORDS and self._to_menu:
            self._to_menu = False
            app.ended()  # the high-score table after a game: then the menu
        self.tidy()

    def scores_wait(self):
        """True while high scores wait for initials (OK on the end screen enters them)."""
        return bool(self._pending)

    def end_ok(self, app):
        """OK on the end screen (the ranking was seen; its last score stands): the game's
        records counted if they are not yet (job END, queued once the last score could
        no longer be taken back), then step 3, the initials of each new high score, then
        the high-score table, then the menu (``app.ended``). True: the save layer shows
        what comes next."""
        self.write_due(app)  # the end's steps still to come: the places are known after
        self._next_initials(app)
        return True

    def _ask(self, item):
        self.asks.append(item)
        self._news = True

    def choose(self, title, text, answers, callback, values=()):
        """Ask a question (``answers``: the key of its choices' list); ``callback(session,
        app, index)`` takes the answer."""
        self._on_choice = callback
        self._ask((CHOICE, title, text, answers, values))

    def message(self, title, text, values=()):
        """A message: ``title`` and ``text`` are catalog keys, ``values`` what the text's
        ``%`` fields show (a save_store reason as its key: save_store.why)."""
        self._ask((MESSAGE, title, text, values))

    def open_records(self, app):
        # The records of the card picked in the menu (the Zoo card keeps its own).
        _release_strategy()  # the menu closed the coach
        self._ask((RECORDS, self.records(app, app.settings.ruleset()), -1))

    # ----------------------------------------------------------------- records
    def records(self, app, ruleset=None):
        """The records of ``ruleset``'s card (default: the game's, else the menu's),
        loaded from flash when not in use yet (a damaged file is set aside, with a
        message); ``tidy`` lets them and their code go again."""
        if ruleset is None:
            ruleset = self.game.rules if self.game is not None else app.settings.ruleset()
        if self.recs is not None and self.recs.ruleset.card != ruleset.card:
            self._drop_records()
        if self.recs is None:
            recs = use(_RECORDS).Records(self.folder, self.fs, ruleset)
            recs.load()
            self.recs = recs
            self.last_id = recs.stats["last"]
            if recs.problems:
                use(_BOOT).tell_problems(self, recs)
        return self.recs

    def tidy(self):
        """Releases the records and their code unless something is asked (high scores
        still to enter load them again)."""
        if self.asks:
            return
        release(_BOOT)
        release(_REPAIR)
        release(_STATE)
        self._drop_records()

    def _drop_records(self):
        self.recs = None
        release(_RECORDS)
        release(_VIEW)
        release(_BOUNDS)
        gc.collect()

    # ----------------------------------------------------------------- saving
    def on_change(self, app):
        """After every action that changes the game or the settings (app.py). The game's
        save is taken now, packed and written as the next parts of work (job SAVE); one
        still waiting is written first, so saves stay in order."""
        self.write_due(app)
        self._save_game(app)
        if app.in_menu():  # the set-up changes only there
            value = app.settings.saved()
            if value != self.setup_saved:
                self._setup = value
                self.jobs.add(_SETUP_JOB, self._keep_setup)  # a part of its own

    def _save_game(self, app):
        game = app.game
        if game is None:
            if self.game is not None:
                self.abandon(app)
            return
        if game is self._over:
            return  # a settings change after the end: that game is done
        if game is not self.game:  # a new game started
            if self.game is not None:
                self.abandon(app)
            self.begin(game, _new_game_id(self.last_id), [0, 0, 0, 0, 0, 0], None)
        held_only = game.phase == game_module.TURN and 0 < game.rolls == self._rolls_seen
        turn = game.round << 2 | game.current
        # Dice rolled in this turn since the last save: counted for fairness. A score
        # taken back comes back with its rolls, which were counted when they were rolled;
        # a challenge's dice are its code's, not the dice source's.
        if game.phase == game_module.TURN and game.rolls > self._rolls_seen and turn == self._turn and not game.code:
            count_roll(self.counts, game.dice, game.held)
        self._rolls_seen = game.rolls
        self._turn = turn
        if not held_only or self._position is None:
            # A hold change keeps the position of its roll: a computer's noisy decision
            # (seat_levels) drew from the stream since, and a resumed computer decides
            # again from the roll, drawing the same noise, so the dice that follow are the same.
            self._position = self.hw.dice_source.position()
        self.jobs.add(_SAVE_JOB, self._saving(app, self._value(app)))
        if game.phase == game_module.OVER and game.last is None:
            # After the final save, the records; not while its last score can still be
            # taken back (an undone score never reaches them): OK on the end screen.
            self.jobs.add(_END_JOB, self.ending(app))

    def _saving(self, app, value):
        """Job SAVE: ``value`` packed, then written, a part each (the packing and the
        flash's erase are two stretches, not one)."""
        try:
            data = self.store.prepare(value)
        except save_store.SaveError:
            data = b""  # the write packs it again and says why it failed
        yield
        self._write(app, value, data)

    def setup_store(self):
        """The menu's set-up store, made when used (not kept through a game's heap)."""
        return save_store.Store(self.folder + "/setup", self.fs)

    def _keep_setup(self):
        """Job SETUP: saves the menu's changed set-up: the next power-on starts from it."""
        value = self._setup
        store = self.setup_store()
        try:
            store.save(value)
            self.setup_saved = value
        except save_store.SaveError:
            pass  # a full flash: the game's save says so; tried again at the next change
        if store.repaired:  # the first save after damage (``data`` a dangling link...)
            use(_BOOT).tell_repairs(self, store)

    def begin(self, game, game_id, counts, position):
        """Save ``game`` from here on (a new one, or the saved one at boot) as ``game_id``,
        its dice so far ``counts``, its saves' dice ``position`` (None: the next one's)."""
        self.game = game
        self.game_id = game_id
        self.counts = counts
        self._rolls_seen = game.rolls
        self._turn = game.round << 2 | game.current
        self._position = position

    def save(self, app):
        """Saves the game now; any failure to save shows a note once, play goes on."""
        self.jobs.cancel(_SAVE_JOB)  # the game as it is now replaces a save still waiting
        self._write(app, self._value(app))

    def _value(self, app):
        if self._position is None:
            self._position = self.hw.dice_source.position()
        return {
            "id": self.game_id,
            "seed": self._position,
            "counts": list(self.counts),
            "game": self.game.to_state(),
            "coach": app.settings.coach,
        }

    def _write(self, app, value, data=None):
        try:
            if self.kept is not None and self.kept[0] is not self.game:
                use(_BOOT).settle(self, app)  # the last game's records first: its save is still needed
                if self.kept is not None:
                    raise save_store.SaveError(save_store.FULL)  # this save would replace it
            self.bytes_saved += self.store.save(value, data)
            self.saves += 1
            self.unsaved = False
            self._warned_full = False
        except save_store.SaveError as err:
            self.store.repaired = []  # a repair that did not help: no "Saving works"
            self.unsaved = True
            if not self._warned_full:
                self._warned_full = True
                if err.reason == save_store.FULL:
                    self.message("flash_full", "not_saved_full")
                elif err.reason == save_store.IO:  # even the repair (save_store.Store.repair) failed
                    self.message("save_failed", "not_saved_io", (save_store.why(err.reason),))
                else:
                    self.message("save_failed", "not_saved", (save_store.why(err.reason),))
        if self.store.repaired:
            use(_BOOT).tell_repairs(self, self.store)

    def abandon(self, app):
        """A game quit for another: no result, but its dice still count for fairness."""
        recs = self.records(app)
        if use(_RECORDS).add_rolls(recs.rolls, self.game_id, self.counts):
            try:
                recs.save("rolls")
            except save_store.SaveError:
                pass  # the histogram misses one game; nothing else is at stake
        if self.kept is None:  # else the store holds the kept game, not this one
            self.store.clear()
        self.game = None
        self.game_id = 0
        self.tidy()

    def before_sleep(self, app):
        """The device blanks (app.sleeping): what waits is written, an unsaved game saved."""
        self.write_due(app)
        if self.game is not None and self.unsaved:
            self.save(app)

    def battery_low(self, app, mv):
        """The battery went low (app.battery_low): the game saved now, and a message."""
        volts = (mv // 1000, mv % 1000 // 10)
        if self.game is None:
            self.message("battery_low", "battery_idle", volts)
            return
        self.save(app)
        self.message(
            "battery_low", "battery_text", volts + ("now_game_not_saved" if self.unsaved else "now_game_saved",)
        )

    # ----------------------------------------------------------------- boot
    def boot(self, app):
        """Job BOOT, two parts: the records checked, then the saved game: "Continue"
        offered, or the end of a game that ended just before a power cut completed;
        damaged files are set aside with a message."""
        use(_BOOT).finish_push(self.folder, self.fs)  # a push cut in its switch: its copy goes in first
        release(_BOOT)  # not in RAM with the records (the fullest moment of the heap)
        self.records(app)  # damaged files: set aside now, with a message
        self._drop_records()  # one module at a time: boot is the fullest moment of the heap
        yield
        boot = use(_BOOT)
        boot.repair_flash(self)  # ``data`` a file, a folder at game.tmp: aside now
        release(_REPAIR)
        boot.load_setup(self, app)  # the menu as it was left (a saved game's coach wins)
        saved = boot.load_game(self)
        if saved is not None:
            boot.saved_game(self, app, saved)
        self.tidy()

    # ----------------------------------------------------------------- end of a game
    def ending(self, app):
        """Job END, step 2 of a game's end, a part a step, each writing at most one file:
        the records loaded, the statistics, the dice rolled, then the places (all at once
        when something cannot wait: ``write_due``, and at boot for a game that ended just
        before a power cut)."""
        game = self.game
        # Room for the records first: the game's older slot is never needed again (its
        # newest holds the end), and a last save that failed gets one more try in it.
        self.store.drop_older()
        if self.unsaved:
            self.save(app)
            self.store.drop_older()
        failed = []  # the records that could not be saved (a full flash)
        results = game_results(game, app.settings.computer_name)
        self.records(app)
        yield
        self.records(app).count_game(self.game_id, results, failed)
        yield
        self.records(app).count_rolls(self.game_id, self.counts, failed)
        yield
        recs = self.records(app)
        if failed:
            self._keep(game)
        for name in recs.stores:
            store = recs.stores[name]
            if store.repaired and name not in failed:
                use(_BOOT).tell_repairs(self, store)
        self.last_id = recs.stats["last"]
        if failed:
            self.message("flash_full", "records_not_saved", (" ".join(failed),))
        # Places for all seats at once (best first), so the one shown is where it ends.
        self._pending = use(_RECORDS).game_places(recs.scores, [r[1] for r in results], self.game_id)
        self._news = True  # the end screen says whether high scores wait (scores_wait)
        if not self._pending:
            self._done()
        # step 3 starts when OK leaves the end screen (end_ok)
        self.tidy()

    def drop_end(self):
        """A game whose end cannot be completed (save_boot, its files set aside): done."""
        self._pending = []
        self.kept = None
        self._done()

    def _done(self):
        if self.kept is None:  # records all written: the game's save may go
            self.store.clear()
        self._over = self.game
        self.game = None
        self.game_id = 0

    def _next_initials(self, app):
        """Step 3 for the next seat that qualifies; step 4 when none is left, and the
        high-score table (closing it: the menu)."""
        _release_strategy()  # the end screen closed the coach (app.finish)
        recs = self.records(app, app.game.rules)
        score_place = use(_RECORDS).score_place
        while self._pending:
            seat, place = self._pending.pop(0)
            total = self.game.total(seat)
            if score_place(recs.scores, total, self.game_id, seat) < 0:
                continue
            player = self.game.players[seat]
            if app.settings.computer_name(player.kind) is not None:
                self._enter(app, seat, _COMPUTER_INITIALS)
                continue
            self._asking = seat
            self._ask((INITIALS, player.name, total, place))
            return
        if self.game is not None:
            self._done()
        self._to_menu = True
        self._ask((RECORDS, recs, 0))  # the high scores, as the end screen's OK promised

    def _enter(self, app, seat, initials):
        try:
            recs = self.records(app)
            recs.add_high_score(self.game.total(seat), initials, self.game_id, seat)
            store = recs.stores["scores"]
            if store.repaired:
                use(_BOOT).tell_repairs(self, store)
        except save_store.SaveError as err:
            self._keep(self.game)
            self.kept[3].append((seat, initials))
            self.message("flash_full", "score_not_saved", (save_store.why(err.reason),))

    def _keep(self, game):
        """Keeps ``game``'s save on flash until all its records are written (save_boot.settle)."""
        if self.kept is None or self.kept[0] is not game:
            self.kept = [game, self.game_id, self.counts, []]


def game_results(game, computer_name):
    """``[(name, total, card), ...]`` per seat, as records.finish_game counts them; a
    computer seat's name is ``computer_name(kind)`` (app.settings.computer_name: None
    for a human, whose own name counts)."""
    results = []
    for seat in range(len(game.players)):
        player = game.players[seat]
        name = computer_name(player.kind) or player.name
        results.append((name, game.total(seat), player.card))
    return results


def count_roll(counts, dice, held):
    """Adds the faces of the dice that were just rolled (not held) to ``counts`` (6 ints);
    held dice did not roll, so counting them would bias the fairness figure. Here, not in
    save_records.py, because it runs during play, when the records are not loaded."""
    for i in range(len(dice)):
        if not (held >> i) & 1 and 1 <= dice[i] <= 6:
            counts[dice[i] - 1] += 1

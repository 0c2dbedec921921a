"""The save layer: saves the game after every action, offers "Continue" at boot, keeps
the records at the end of a game, keeps the menu's set-up between power-ons
(``data/setup``), and runs power saving and the battery warning.

``Session(hw).attach(app)`` makes it the app's save layer (``app.session``; the interface
is in app.py's docstring and docs/architecture.md): ``on_change`` saves, ``frame`` runs power
saving once per frame (power.py), ``open_records`` and ``end_ok`` (high scores after the end).
It knows nothing of pixels or screens: what it has to show is queued as plain data in
``asks`` (a message, a question, initials for a seat, the records pages; the kinds below),
which the UI shows over the app's screen (ui/records_screens.py) and answers through
``answer``.
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
any action; 2. the game counted in the records, a frame a step (the records loaded, the
statistics, the dice rolled, the places: each writes at most one file); 3. initials for
each qualifying seat, then ``add_high_score``; 4. ``store.clear()``, once every record is
written (else the finished game stays saved for the next boot; docs/architecture.md).
"""

import gc
import os
import sys
import time

from micropython import const

import game as game_module
import power as power_module
import save_store

# What the save layer asks the UI to show (``asks``): tuples whose first item is the kind.
MESSAGE = const(0)  # (MESSAGE, title, text): any key closes it; answer None
CHOICE = const(1)  # (CHOICE, title, text, answers): answer the index picked
INITIALS = const(2)  # (INITIALS, name, total, place): a high score; answer three letters
RECORDS = const(3)  # (RECORDS, recs): the records pages of save_records.Records; answer None

_COMPUTER_INITIALS = "CPU"
# Step 2 of a game's end (``_end_step``), a frame each after the final save.
_END_NONE = const(0)
_END_LOAD = const(1)
_END_STATS = const(2)
_END_ROLLS = const(3)
_END_PLACES = const(4)
_RECORDS = "save_records"
_VIEW = "save_records_view"  # the records pages' summaries (ui/records_screens.py imports it)
_BOOT = "save_boot"  # the saved game at power-on, repairs: needed once per boot
_REPAIR = "save_repair"  # loaded by storage only when damage is found
_BOUNDS = "save_bounds"  # the shape checks' table: records and save_boot import it
# The strategy code a game imports (coach.py): released once the app has closed the coach,
# so the records pages and the high-score entry find its room.
_STRATEGY = (
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
    def __init__(self, hw, folder=save_store.DATA_DIR, fs=None, power=None):
        self.hw = hw
        self.folder = folder
        if fs is None:
            fs = getattr(hw, "fs", None)  # the board's (boards/hardware.py), else os
        self.fs = fs
        self.store = save_store.Store(folder + "/game", fs)
        self.setup_saved = None  # the menu's set-up on flash (save_boot): only changes are written
        self.recs = None  # save_records.Records while the records are in use (see _records)
        self.last_id = 0  # the last game counted in the statistics: a new id avoids it
        self.power = power if power is not None else power_module.Power(hw)
        self.power.on_sleep = self._before_sleep
        self.power.on_low = self._battery_low
        self.asks = []  # what the UI is asked to show (MESSAGE...); the first one is on show
        self._news = False  # asks changed since the app last looked (news)
        self.game = None  # the game being saved
        self._over = None  # the last game whose end was handled (the app keeps showing it)
        self.game_id = 0
        self.counts = [0, 0, 0, 0, 0, 0]  # faces rolled in this game
        self._rolls_seen = 0
        self._position = None  # the dice position the game's saves store (see on_change)
        # A finished game whose records could not all be saved: [game, id, counts,
        # [(seat, initials), ...] high scores not saved]. Its save stays on flash (the next
        # boot finishes it) until they are written; a new game's saves wait for that
        # (save_boot.settle).
        self._kept = None
        self.unsaved = False  # the last save failed: the flash holds an older action
        # The game's save of the last action, written at the next frame (write_due) so the
        # screen shows the action first: a save and a frame each stay one short stretch.
        self._due = None
        self._packed = None  # its file (save_store.Store.prepare), packed a frame before the write
        self._setup_due = None  # the menu's changed set-up, written in a frame of its own
        self._end = _END_NONE  # the next step of a game's end (_end_step), after its last save
        self._end_failed = []  # the records that step could not save (a full flash)
        self._end_results = None  # game_results of the game ending
        self._warned_full = False
        self._started = False
        self._pending = []  # seats still to enter the high scores: [(seat, place), ...]
        self._asking = -1  # the seat whose initials are being entered
        self._on_choice = None
        self.saves = 0  # figures for tests and the bench
        self.bytes_saved = 0

    def attach(self, app):
        app.session = self
        return self

    # ----------------------------------------------------------------- app hooks
    def frame(self, app, now):
        """Once per frame, before the buttons' events; True drops them (a waking press)."""
        if not self._started:
            self._started = True
            self.boot(app)
        # The save's packing, its write, the set-up's write and each step of a game's
        # end: a frame each, so no stretch holds two of them; power's timers wait for a
        # frame with none.
        if self._due is not None and self._packed is None:
            try:
                self._packed = self.store.prepare(self._due)
            except save_store.SaveError:
                self._packed = b""  # the write's frame packs it again and says why it failed
        elif self.save_due():
            self._write_one(app)
        else:
            return self.power.frame(app, now)
        return False

    def save_due(self):
        """True while the last action's save (or the set-up's, or a step of a game's end)
        waits for a frame (app.still)."""
        return self._due is not None or self._setup_due is not None or self._end != _END_NONE

    def write_due(self, app):
        """Write the saves the last action left for the next frames, if any, in order."""
        while self.save_due():
            self._write_one(app)

    def _write_one(self, app):
        value = self._due
        if value is None:
            if self._setup_due is not None:
                self._keep_setup(app)
            else:
                self._end_step(app)
            return
        data = self._packed
        self._due = None
        self._packed = None
        self._write(app, value, data)

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
            callback(app, value)
        elif kind == INITIALS:
            self._enter(app, self._asking, value)
            self._asking = -1
            self._next_initials(app)
        self._tidy()

    def scores_wait(self):
        """True while high scores wait for initials (OK on the end screen enters them)."""
        return bool(self._pending)

    def end_ok(self, app):
        """OK on the end screen: True when high scores wait for initials (step 3 starts:
        the ranking was seen), False lets the end screen go to the menu."""
        self.write_due(app)  # the end's steps still to come: the places are known after
        if not self._pending:
            return False
        self._next_initials(app)
        return True

    def _ask(self, item):
        self.asks.append(item)
        self._news = True

    def message(self, title, text):
        self._ask((MESSAGE, title, text))

    def open_records(self, app):
        # The records of the card picked in the menu (the Zoo card keeps its own).
        _release_strategy()  # the menu closed the coach
        self._ask((RECORDS, self._records(app, app.settings.ruleset())))

    # ----------------------------------------------------------------- records
    def _records(self, app, ruleset=None):
        """The records of ``ruleset``'s card (default: the game's, else the menu's),
        loaded from flash when not in use yet (a damaged file is set aside, with a
        message); ``_tidy`` lets them and their code go again."""
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
                use(_BOOT).tell_problems(self, app, recs)
        return self.recs

    def _tidy(self):
        """Releases the records and their code unless something is asked (high scores
        still to enter load them again)."""
        if self.asks:
            return
        release(_BOOT)
        release(_REPAIR)
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
        save is taken now and written at the next frame, before its events (``frame``);
        one still waiting is written first, so saves stay in order."""
        self.write_due(app)
        if app.in_menu():  # the set-up changes only there
            value = app.settings.saved()
            if value != self.setup_saved:
                self._setup_due = value  # written in a frame of its own (frame)
        game = app.game
        if game is None:
            if self.game is not None:
                self._abandon(app)
            return
        if game is self._over:
            return  # a settings change after the end: that game is done
        if game is not self.game:  # a new game started
            if self.game is not None:
                self._abandon(app)
            self._begin(game, _new_game_id(self.last_id), [0, 0, 0, 0, 0, 0], None)
        held_only = game.phase == game_module.TURN and 0 < game.rolls == self._rolls_seen
        if game.phase == game_module.TURN and game.rolls > self._rolls_seen:
            count_roll(self.counts, game.dice, game.held)
        self._rolls_seen = game.rolls
        if not held_only or self._position is None:
            # A hold change keeps the position of its roll: a computer's noisy decision
            # (seat_levels) drew from the stream since, and a resumed computer decides
            # again from the roll, drawing the same noise, so the dice that follow are the same.
            self._position = self.hw.dice_source.position()
        self._due = self._value(app)
        if game.phase == game_module.OVER:
            self._end = _END_LOAD  # after the final save, the records: a step a frame

    def setup_store(self):
        """The menu's set-up store, made when used (not kept through a game's heap)."""
        return save_store.Store(self.folder + "/setup", self.fs)

    def _keep_setup(self, app):
        """Saves the menu's changed set-up (``_setup_due``): the next power-on starts from it."""
        value = self._setup_due
        self._setup_due = None
        store = self.setup_store()
        try:
            store.save(value)
            self.setup_saved = value
        except save_store.SaveError:
            pass  # a full flash: the game's save says so; tried again at the next change
        if store.repaired:  # the first save after damage (``data`` a dangling link...)
            use(_BOOT).tell_repairs(self, app, store)

    def _begin(self, game, game_id, counts, position):
        self.game = game
        self.game_id = game_id
        self.counts = counts
        self._rolls_seen = game.rolls
        self._position = position

    def save(self, app):
        """Saves the game now; any failure to save shows a note once, play goes on."""
        self._due = None  # the game as it is now replaces a save still waiting
        self._packed = None
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
            if self._kept is not None and self._kept[0] is not self.game:
                use(_BOOT).settle(self, app)  # the last game's records first: its save is still needed
                if self._kept is not None:
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
                    self.message("Flash full", "Game not saved.\nPlay goes on; it\nsaves again when\nthere is room.")
                elif err.reason == save_store.IO:  # even the repair (save_store.Store.repair) failed
                    self.message(
                        "Save failed", "Game not saved\n(%s).\nPlay goes on.\nSee README:\nDamaged flash." % err.reason
                    )
                else:
                    self.message("Save failed", "Game not saved\n(%s).\nPlay goes on." % err.reason)
        if self.store.repaired:
            use(_BOOT).tell_repairs(self, app, self.store)

    def _abandon(self, app):
        """A game quit for another: no result, but its dice still count for fairness."""
        recs = self._records(app)
        if use(_RECORDS).add_rolls(recs.rolls, self.game_id, self.counts):
            try:
                recs.save("rolls")
            except save_store.SaveError:
                pass  # the histogram misses one game; nothing else is at stake
        if self._kept is None:  # else the store holds the kept game, not this one
            self.store.clear()
        self.game = None
        self.game_id = 0
        self._tidy()

    def _before_sleep(self, app):
        self.write_due(app)
        if self.game is not None and self.unsaved:
            self.save(app)

    def _battery_low(self, app, mv):
        saved = ""
        if self.game is not None:
            self.save(app)
            saved = "Game saved.\n" if not self.unsaved else "Game NOT saved.\n"
        self.message(
            "Battery low",
            "%d.%02d V\n%sCharge or change\nthe batteries.\nAny key: go on" % (mv // 1000, mv % 1000 // 10, saved),
        )

    # ----------------------------------------------------------------- boot
    def boot(self, app):
        """Load the records and the saved game: offer "Continue", or finish a game that
        ended just before a power cut; damaged files are set aside with a message."""
        boot = use(_BOOT)
        boot.finish_push(self.folder, self.fs)  # a push cut in its switch: its copy goes in first
        release(_BOOT)  # not in RAM with the records (the fullest moment of the heap)
        self._records(app)  # damaged files: set aside now, with a message
        self._drop_records()  # one module at a time: boot is the fullest moment of the heap
        boot = use(_BOOT)
        boot.repair_flash(self, app)  # ``data`` a file, a folder at game.tmp: aside now
        release(_REPAIR)
        boot.load_setup(self, app)  # the menu as it was left (a saved game's coach wins)
        boot.load_game(self, app)
        self._tidy()

    def _continue_or_not(self, app, chosen):
        if chosen == 0:
            app.resume(self.game)
        else:
            # The saved stream was restored at boot (seek cancels the first press's stir):
            # a new game gets this press's timing stirred in instead.
            self.hw.dice_source.stir(time.ticks_us())
            self._abandon(app)

    # ----------------------------------------------------------------- end of a game
    def _finish(self, app):
        """Step 2 of a game's end at once (the boot's, for a game that ended before a cut)."""
        self._end = _END_LOAD
        try:
            while self._end != _END_NONE:
                self._end_step(app)
        finally:
            self._end = _END_NONE

    def _end_step(self, app):
        """One step of the game's end (``_end``), each writing at most one file: a frame
        each after the final save (``frame``), all at once when something cannot wait
        (``write_due``)."""
        step = self._end
        self._end = step + 1 if step < _END_PLACES else _END_NONE
        game = self.game
        if step == _END_LOAD:
            # Room for the records first: the game's older slot is never needed again (its
            # newest holds the end), and a last save that failed gets one more try in it.
            self.store.drop_older()
            if self.unsaved:
                self.save(app)
                self.store.drop_older()
            self._end_failed = []
            self._end_results = game_results(game, app.settings.computer_name)
            self._records(app)
            return
        recs = self._records(app)
        results = self._end_results
        if step == _END_STATS:
            recs.count_game(self.game_id, results, self._end_failed)
            return
        if step == _END_ROLLS:
            recs.count_rolls(self.game_id, self.counts, self._end_failed)
            return
        failed = self._end_failed
        self._end_failed = []
        self._end_results = None
        if failed:
            self._keep(game)
        for name in recs.stores:
            store = recs.stores[name]
            if store.repaired and name not in failed:
                use(_BOOT).tell_repairs(self, app, store)
        self.last_id = recs.stats["last"]
        if failed:
            self.message(
                "Flash full", "Not saved:\n%s.\nThe game stays\nsaved; the next\nboot keeps them." % " ".join(failed)
            )
        # Places for all seats at once (best first), so the one shown is where it ends.
        self._pending = use(_RECORDS).game_places(recs.scores, [r[1] for r in results], self.game_id)
        self._news = True  # the end screen says whether high scores wait (scores_wait)
        if not self._pending:
            self._done()
        # else: step 3 starts when OK leaves the end screen (handle)
        self._tidy()

    def _done(self):
        if self._kept is None:  # records all written: the game's save may go
            self.store.clear()
        self._over = self.game
        self.game = None
        self.game_id = 0

    def _next_initials(self, app):
        """Step 3 for the next seat that qualifies; step 4 when none is left."""
        _release_strategy()  # the end screen closed the coach (app.finish)
        recs = self._records(app)
        score_place = use(_RECORDS).score_place
        while self._pending:
            seat, place = self._pending.pop(0)
            total = self.game.total(seat)
            if score_place(recs.scores, total, self.game_id, seat) < 0:
                continue
            player = self.game.players[seat]
            if player.kind != "human":
                self._enter(app, seat, _COMPUTER_INITIALS)
                continue
            self._asking = seat
            self._ask((INITIALS, player.name, total, place))
            return
        self._done()
        app.ended()  # where OK on the end screen goes
        self._tidy()

    def _enter(self, app, seat, initials):
        try:
            recs = self._records(app)
            recs.add_high_score(self.game.total(seat), initials, self.game_id, seat)
            store = recs.stores["scores"]
            if store.repaired:
                use(_BOOT).tell_repairs(self, app, store)
        except save_store.SaveError as err:
            self._keep(self.game)
            self._kept[3].append((seat, initials))
            self.message(
                "Flash full",
                "High score not\nsaved (%s).\nThe game stays\nsaved; the next\nboot asks again." % err.reason,
            )

    def _keep(self, game):
        """Keeps ``game``'s save on flash until all its records are written (save_boot.settle)."""
        if self._kept is None or self._kept[0] is not game:
            self._kept = [game, self.game_id, self.counts, []]


def game_results(game, computer_name):
    """``[(name, total, card), ...]`` per seat, as records.finish_game counts them; a
    computer seat's name is ``computer_name(kind)`` (app.settings.computer_name)."""
    results = []
    for seat in range(len(game.players)):
        player = game.players[seat]
        name = player.name if player.kind == "human" else computer_name(player.kind)
        results.append((name, game.total(seat), player.card))
    return results


def count_roll(counts, dice, held):
    """Adds the faces of the dice that were just rolled (not held) to ``counts`` (6 ints);
    held dice did not roll, so counting them would bias the fairness figure. Here, not in
    save_records.py, because it runs during play, when the records are not loaded."""
    for i in range(len(dice)):
        if not (held >> i) & 1 and 1 <= dice[i] <= 6:
            counts[dice[i] - 1] += 1

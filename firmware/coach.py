"""Advice from the strategy table during a game: hints, turn reviews, the advisor's life.

``Coach`` owns the optional advisor (strategy_advisor.py over ``strategy-<rules>.bin``) for the
game being played: ``open(ruleset)`` at game start (no table, or a table for other rules:
``adv`` stays None and hints, reviews and the advisor levels are off), ``start_turn(card)``
at each turn start (the one expensive call, ``adv.ensure``), then lookups only.

Hints and the turn review are priced by coach_advice.py, loaded with the table (its code
takes no RAM without one); this class keeps what they fill: the last hint (``hint_*``,
``win_*``) and the turn's review (``cost``, ``worst_*``).
"""

import gc

from micropython import const

HOLD = const(0)  # kinds of a remembered best move: a hold mask or a box index
BOX = const(1)
_N_OPTIONS = const(32)
# The device's flash root is the firmware's working directory at boot (and the flash
# folder in the simulator), so the table is opened relative to it.
TABLE_PATH = "strategy-%s.bin"
SPREAD_PATH = "spread-%s.bin"  # the spread table: the win level (seat_win.py) needs it
# Why open() gave no advisor (the advisor levels then play simply): keys of the screens'
# texts (lang.py), one OLED line each.
NO_TABLE = "no_table"
NO_RAM = "no_ram"
DAMAGED = "table_damaged"  # refused: cut short, flipped bytes (strategy_table.TableDamaged)


class Coach:
    def __init__(self):
        self.adv = None
        self.levels = None  # seat_levels, loaded with the advisor (seats.py)
        self.advice = None  # coach_advice, loaded with the advisor
        self.rules_name = None
        self.problem = ""  # why there is no advisor (NO_TABLE, NO_RAM, DAMAGED), for the OLED
        self._file = None
        self._spread_file = None
        self._spread_table = None  # strategy_spread.SpreadTable, opened on first use (spread())
        self._spread_bad = False  # refused (damaged, other rules): not tried again this game
        self.win = None  # seat_win.WinLevel once a "win" seat asked (win_level())
        self._tenths = None  # strategy_advisor.tenths
        self.codes = [0] * _N_OPTIONS
        self.values = [0] * _N_OPTIONS
        # The last hint: the best option with the rolls left it was asked for; in
        # multi-player games also the option with the best chance to win (win_*).
        self.hint_code = -1
        self.win_differs = False
        self.win_code = self.win_box = -1
        self.hint_chance = self.win_chance = 0
        self.in_chance = False  # the review is in chance to win (multi-player)
        self.coached = None  # the game whose turn is coached in chance to win (multi-player)
        self.hint_box = -1  # the box to score when the best move is to score now
        self.hint_value = 0
        self.hint_rolls_left = 0
        # Turn review.
        self.cost = 0
        self.worst_cost = -1
        self.worst_kind = HOLD
        self.worst_code = 0
        self.worst_dice = bytearray(5)
        self.worst_rolls_left = 0

    # ----------------------------------------------------------------- table
    def open(self, ruleset, path=None):
        """Load the advisor for ``ruleset``; False (and no advisor) without a usable table.
        The file stays open for the game: the advisor reads it every turn. All at once
        (a resumed game, tools); the app opens a new game's table a part a frame."""
        for _ in self.opening(ruleset, path):
            pass
        return self.adv is not None

    def opening(self, ruleset, path=None):
        """``open`` as a generator, a part a step (each a few tens of ms on the chip,
        about 20 in all); when it is over ``adv`` is ready, or None and ``problem`` says why."""
        if self.adv is not None and self.rules_name == ruleset.name:
            return
        self.close()
        self.problem = NO_TABLE
        try:
            f = open(path or TABLE_PATH % ruleset.name, "rb")
        except OSError:
            return
        self._file = f  # close() closes it, also when the game is quit half-way
        # Imported only with a table: the advisor's code is not worth its RAM without one.
        # Collecting first leaves whole free blocks for its arrays (up to 4.6 KB each).
        gc.collect()
        try:
            import strategy_table  # the advisor's imports first: a part each

            yield
            import strategy_advisor

            yield
            import seat_levels
            import coach_advice

            gc.collect()
            yield
            adv = strategy_advisor.Advisor(ruleset, strategy_table.StrategyTable(f, True), True)
            yield from adv.parts  # the table's checks first, then the advisor's parts
        except Exception as exc:
            # Another ruleset's table, a damaged one, or too little RAM: play without.
            adv = None
            self._file = None
            f.close()
            gc.collect()
            print("strategy table not used:", exc)
            # A plain ValueError: another ruleset's or format's table; anything else out
            # of the table (strategy_table.TableDamaged, OSError, ...): a damaged one.
            self.problem = NO_RAM if isinstance(exc, MemoryError) else NO_TABLE if type(exc) is ValueError else DAMAGED
            return
        self.adv = adv
        self.levels = seat_levels
        self.advice = coach_advice
        self._tenths = strategy_advisor.tenths
        self.rules_name = ruleset.name

    def spread(self):
        """The spread table (spread-<rules>.bin) beside the advisor, opened on first use;
        None without the advisor or a usable file, and on the Zoo card (the spread table,
        the win meter and the win level are for the 13-box cards)."""
        if self._spread_table is not None or self.adv is None:
            return self._spread_table
        if self.adv.rules.n_boxes != 13 or self._spread_bad:
            return None
        try:
            f = open(SPREAD_PATH % self.rules_name, "rb")
        except OSError:
            return None
        try:
            import strategy_spread

            spread = strategy_spread.SpreadTable(f, self.adv.rules)
        except Exception as exc:
            # Damaged (strategy_table.TableDamaged, or anything else out of the file),
            # another format or rules: as without.
            f.close()
            print("spread table not used:", exc)
            self._spread_bad = not isinstance(exc, MemoryError)
            return None
        self._spread_file = f
        self._spread_table = spread
        return spread

    def drop_spread(self, exc):
        """A block of the spread table failed its check (or the flash a read): the meter
        and the win level are off for the rest of the game, never on a wrong figure."""
        print("spread table dropped:", exc)
        self.win = None
        self._spread_table = None
        if self._spread_file is not None:
            self._spread_file.close()
            self._spread_file = None
        self._spread_bad = True
        self.coached = None
        self.in_chance = False

    def win_level(self):
        """The ``win`` level (seat_win.WinLevel) on the advisor and the spread table,
        loaded on first use; None without them (the seat then plays as CPU optimal)."""
        if self.win is not None:
            return self.win
        spread = self.spread()
        if spread is None:
            return None
        gc.collect()
        try:
            import seat_win

            self.win = seat_win.WinLevel(self.adv, spread)
        except MemoryError:
            return None
        return self.win

    def meter(self, game, breakdowns, out):
        """Every player's chance to win now (win_meter units, ONE = 16384) into ``out``
        (coach_advice.meter); False (``out`` untouched) in a solo game or without the
        tables. ``breakdowns``: rules.totals() of each seat (the app's cache)."""
        advice = self.advice
        return advice is not None and advice.meter(self, game, breakdowns, out)

    def close(self):
        self.win = None
        self._spread_table = None
        self._spread_bad = False
        if self._spread_file is not None:
            self._spread_file.close()
            self._spread_file = None
        self.adv = None
        self.levels = None
        self.advice = None
        self.rules_name = None
        if self._file is not None:
            self._file.close()
            self._file = None

    # ----------------------------------------------------------------- per turn
    def start_turn(self, card, game=None):
        """Prepare the advisor for the turn on ``card``; forget the last turn's review.
        With ``game`` (2-4 players) and the spread table, hints also show the choice that
        maximises the chance to win and reviews price in chance to win (``in_chance``).
        False when there is no advisor, or it was dropped now: a damaged table block
        (``problem`` says why; hints and advisor levels are off from here on)."""
        self.cost = 0
        self.worst_cost = -1
        self.hint_code = -1
        self.win_differs = False
        self.coached = None
        self.in_chance = False
        if self.adv is None:
            return False
        try:
            self.adv.ensure(card)
        except Exception as exc:
            # A block of the table failed its check (or the flash a read): from here on
            # the game goes on as without a table, never on a wrong figure.
            print("strategy table dropped:", exc)
            self.close()
            self.problem = NO_RAM if isinstance(exc, MemoryError) else DAMAGED
            return False
        if game is not None and len(game.players) > 1 and self.win_level() is not None:
            self.coached = game
            self.in_chance = True
        return True

    def hint(self, dice, rolls_left, held=0):
        """The best option now (coach_advice.hint): ``hint_code`` (a hold mask with rolls
        left, else a box), ``hint_box``, ``hint_value``; in multi-player games also the
        option with the best chance to win (``win_*``)."""
        return self.advice.hint(self, dice, rolls_left, held)

    # ----------------------------------------------------------------- turn review
    def price_hold(self, dice, rolls_left, held):
        """A roll with ``held`` kept and ``rolls_left`` (1 or 2) rolls left, before it."""
        self.advice.price_hold(self, dice, rolls_left, held)

    def price_box(self, dice, rolls_left, box):
        """Scoring ``box`` with ``rolls_left`` rolls still possible (0 on the last roll)."""
        self.advice.price_box(self, dice, rolls_left, box)

    def unprice_box(self):
        """The last box priced was taken back: the turn's review as it was before it."""
        if self.advice is not None:
            self.advice.unprice_box(self)

    def tenths(self, value):
        """A fixed-point value in whole tenths of a point (strategy_advisor.tenths; no floats)."""
        return self._tenths(value)

    def lost_tenths(self):
        """The turn's cost in tenths of a point of expected final score, or (multi-player,
        ``in_chance``) in tenths of a percentage point of the chance to win."""
        return self.advice.lost_tenths(self)


def prefer_held(dice, mask, held):
    """The hold ``mask`` keeps some faces; return a mask keeping the same faces that uses
    the ``held`` dice first (a held 2 is not swapped for another 2)."""
    out = 0
    for face in range(1, 7):
        wanted = 0
        for i in range(5):
            if mask >> i & 1 and dice[i] == face:
                wanted += 1
        for pass_held in (1, 0):
            for i in range(5):
                if wanted and dice[i] == face and (held >> i & 1) == pass_held and not out >> i & 1:
                    out |= 1 << i
                    wanted -= 1
    return out

"""Advice from the strategy table during a game: hints, turn reviews, the advisor's life.

``Coach`` owns the optional advisor (strategy_advisor.py over ``strategy-<rules>.bin``) for the
game being played: ``open(ruleset)`` at game start (no table, or a table for other rules:
``adv`` stays None and hints, reviews and the advisor levels are off), ``start_turn(card)``
at each turn start (the one expensive call, ``adv.ensure``), then lookups only.

Turn review (coach mode "turn"): every decision of a human turn is priced against the
best option at that moment, in the advisor's fixed point (expected final total): a roll
with the held dice against the best hold, the box against the best option of that roll.
``cost`` is the turn's sum, ``worst_*`` remember the decision that cost the most, so the
review can say what the best move there was. Solo games: what the player's own expected
final score lost. Multi-player games with the spread table: the chance to win lost (the
win level's model, seat_win.py), and the hint also shows the move that maximises the
chance to win when it differs from the max-score move.
"""

import gc

from micropython import const

HOLD = const(0)  # kinds of a remembered best move: a hold mask or a box index
BOX = const(1)
_SCORE_NOW = const(31)  # advisor hold code: keep all five = stop and score
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
        self.rules_name = None
        self.problem = ""  # why there is no advisor (NO_TABLE, NO_RAM, DAMAGED), for the OLED
        self._file = None
        self._spread_file = None
        self._spread_table = None  # strategy_spread.SpreadTable, opened on first use (_spread())
        self._spread_bad = False  # refused (damaged, other rules): not tried again this game
        self.win = None  # seat_win.WinLevel once a "win" seat asked (win_level())
        # The meter's inputs per seat (meter()): made once.
        self._m_total = [0] * 4
        self._m_mean = [0] * 4
        self._m_sd = [0] * 4
        self._m_used = [0] * 4
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
        self._game = None
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

            gc.collect()
            yield
            adv = strategy_advisor.Advisor(ruleset, strategy_table.StrategyTable(f, True), True)
            while adv.step():  # the table's checks first, then the advisor's parts
                yield
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
        self._tenths = strategy_advisor.tenths
        self.rules_name = ruleset.name

    def _spread(self):
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
        self._game = None
        self.in_chance = False

    def win_level(self):
        """The ``win`` level (seat_win.WinLevel) on the advisor and the spread table,
        loaded on first use; None without them (the seat then plays as CPU optimal)."""
        if self.win is not None:
            return self.win
        spread = self._spread()
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
        """Every player's chance to win now (win_meter units, ONE = 16384) into ``out``;
        False (``out`` untouched) in a solo game or without the tables (a damaged block
        drops the spread table). ``breakdowns``: rules.totals() of each seat (the app's
        cache)."""
        n = len(game.players)
        if n < 2 or n > 4:
            return False
        spread = self._spread()
        if spread is None:
            return False
        import strategy_win_meter

        table = self.adv.table
        try:
            for seat in range(n):
                card = game.players[seat].card
                self._m_total[seat] = breakdowns[seat][4]
                self._m_used[seat] = strategy_win_meter.outlook(table, spread, card, self._m_mean, self._m_sd, seat)
        except Exception as exc:  # any failure out of a table: off, never a wrong figure
            self.drop_spread(exc)
            return False
        strategy_win_meter.chances(n, self._m_total, self._m_mean, self._m_sd, self._m_used, out)
        return True

    def close(self):
        self.win = None
        self._spread_table = None
        self._spread_bad = False
        if self._spread_file is not None:
            self._spread_file.close()
            self._spread_file = None
        self.adv = None
        self.levels = None
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
        self._game = None
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
            self._game = game
            self.in_chance = True
        return True

    def _win_ready(self):
        """The win level prepared for the turn being coached (first use in the turn: the
        ~100 ms programme), or None in solo games / without the spread table."""
        game = self._game
        if game is None:
            return None
        others = [p.card for i, p in enumerate(game.players) if i != game.current]
        try:
            self.win.ensure(game.players[game.current].card, others)
        except Exception as exc:
            self.drop_spread(exc)
            return None
        return self.win

    def hint(self, dice, rolls_left, held=0):
        """The best option now: ``hint_code`` (a hold mask with rolls left, else a box),
        ``hint_box`` (the box when the best is to score now, else -1), ``hint_value``.
        A hold keeps the ``held`` dice where they show the same faces as the advice."""
        adv = self.adv
        adv.options(dice, rolls_left, self.codes, self.values)
        self.hint_rolls_left = rolls_left
        self.hint_code = self.codes[0]
        if rolls_left > 0 and self.hint_code != _SCORE_NOW:
            self.hint_code = prefer_held(dice, self.hint_code, held)
        self.hint_value = self.values[0]
        self.hint_box = -1
        if rolls_left == 0:
            self.hint_box = self.hint_code
        elif self.hint_code == _SCORE_NOW:
            adv.options(dice, 0, self.codes, self.values)
            self.hint_box = self.codes[0]
        self.win_differs = False
        win = self._win_ready()
        if win is not None:
            self._hint_to_win(win, dice, rolls_left, held)
        return self.hint_code

    def _hint_to_win(self, win, dice, rolls_left, held):
        """Multi-player: the option with the best chance to win, and the chance of each of
        the two hints (``hint_chance``, ``win_chance``: units of strategy_win_meter.ONE)."""
        if rolls_left == 0:
            code = box = win.box(dice)
        else:
            code = win.hold(dice, rolls_left)
            box = win.box(dice) if code == _SCORE_NOW else -1
            if code != _SCORE_NOW:  # the same faces as the max-score hold keeps the same dice
                code = prefer_held(dice, code, held)
        self.hint_chance = win.chance(self._key(win, dice, rolls_left, self.hint_code, self.hint_box))
        self.win_chance = win.chance(self._key(win, dice, rolls_left, code, box))
        self.win_code = code
        self.win_box = box
        self.win_differs = code != self.hint_code or box != self.hint_box

    def _key(self, win, dice, rolls_left, code, box):
        """The win level's key of a hold mask (rolls left) or of scoring ``box`` now."""
        if box >= 0:
            out = self.adv.out
            import rules

            rules.score_options(self.adv.rules, self.adv.card, dice, out)
            return win.box_key(box, out[box], rules.yahtzee_bonus_for(self.adv.rules, self.adv.card, dice))
        return win.hold_key(dice, rolls_left, code)

    # ----------------------------------------------------------------- turn review
    def price_hold(self, dice, rolls_left, held):
        """A roll with ``held`` kept and ``rolls_left`` (1 or 2) rolls left, before it."""
        win = self._win_ready()
        if win is not None:  # multi-player: in chance to win
            best_code = win.hold(dice, rolls_left)
            best = win.chance(win.hold_key(dice, rolls_left, best_code))
            chosen = win.chance(win.hold_key(dice, rolls_left, held))
            if best_code == _SCORE_NOW:
                self._record(best - chosen, BOX, win.box(dice), dice, rolls_left)
            else:
                self._record(best - chosen, HOLD, best_code, dice, rolls_left)
            return
        adv = self.adv
        adv.options(dice, rolls_left, self.codes, self.values)
        best = self.values[0]
        chosen = adv.hold_value(dice, rolls_left, held)
        if self.codes[0] == _SCORE_NOW:
            adv.options(dice, 0, self.codes, self.values)
            self._record(best - chosen, BOX, self.codes[0], dice, rolls_left)
        else:
            self._record(best - chosen, HOLD, self.codes[0], dice, rolls_left)

    def price_box(self, dice, rolls_left, box):
        """Scoring ``box`` with ``rolls_left`` rolls still possible (0 on the last roll)."""
        win = self._win_ready()
        if win is not None:  # multi-player: in chance to win
            best_box = win.box(dice)
            best = win.chance(self._key(win, dice, 0, -1, best_box))
            best_hold = _SCORE_NOW
            if rolls_left > 0:
                best_hold = win.hold(dice, rolls_left)
                if best_hold != _SCORE_NOW:  # score now: the best legal box, as the hint says
                    best = win.chance(win.hold_key(dice, rolls_left, best_hold))
            chosen = win.chance(self._key(win, dice, 0, -1, box))
            if best_hold == _SCORE_NOW:
                self._record(best - chosen, BOX, best_box, dice, rolls_left)
            else:
                self._record(best - chosen, HOLD, best_hold, dice, rolls_left)
            return
        adv = self.adv
        codes = self.codes
        values = self.values
        best = 0
        best_hold = _SCORE_NOW
        if rolls_left > 0:
            adv.options(dice, rolls_left, codes, values)
            best = values[0]
            best_hold = codes[0]
        n = adv.options(dice, 0, codes, values)
        if rolls_left == 0:
            best = values[0]
        chosen = values[0]
        for i in range(n):
            if codes[i] == box:
                chosen = values[i]
                break
        if best_hold == _SCORE_NOW:
            self._record(best - chosen, BOX, codes[0], dice, rolls_left)
        else:
            self._record(best - chosen, HOLD, best_hold, dice, rolls_left)

    def _record(self, cost, kind, code, dice, rolls_left):
        if cost < 0:
            cost = 0  # ties and rounding: never a gain
        self.cost += cost
        if cost > self.worst_cost:
            self.worst_cost = cost
            self.worst_kind = kind
            self.worst_code = code
            self.worst_rolls_left = rolls_left
            for i in range(5):
                self.worst_dice[i] = dice[i]

    def tenths(self, value):
        """A fixed-point value in whole tenths of a point (strategy_advisor.tenths; no floats)."""
        return self._tenths(value)

    def lost_tenths(self):
        """The turn's cost in tenths of a point of expected final score, or (multi-player,
        ``in_chance``) in tenths of a percentage point of the chance to win."""
        if self.in_chance:
            return (self.cost * 1000 + 8192) >> 14  # strategy_win_meter.ONE = 16384
        return self._tenths(self.cost)


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

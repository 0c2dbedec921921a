"""The game engine: players, who starts, turns, rolls, holds, scoring, ranking.

Knows nothing of buttons, pixels or files. The dice source is injected (anything with
``randint(a, b)``: MicroPython's ``random`` on the device, a seeded one in tests and
replays). Every illegal action raises ``GameError`` before changing anything. The whole
state converts to and from a plain structure (lists, ints, strings) for saves.
"""

from micropython import const

import rules as R

ROLLOFF = const(0)
TURN = const(1)
OVER = const(2)
ROUNDS = const(13)  # rounds of the standard card; a game plays ``rules.n_boxes`` (``rounds``)
_MAX_ROLLS = const(3)
ALL_HELD = const(0x1F)  # a hold mask (bit i holds die i) holding all five
_STATE_VERSION = const(1)


class GameError(ValueError):
    """An action the rules do not allow right now; the game is unchanged."""


class Player:
    def __init__(self, name, kind="human", card=None):
        self.name = name
        self.kind = kind
        self.card = card if card is not None else R.new_card()


class Game:
    def __init__(self, rules, players, dice_source):
        if not players:
            raise GameError("a game needs at least one player")
        self.rules = rules
        self.rounds = rules.n_boxes  # one round per box: 13, or 11 on the Zoo card
        self.players = [Player(name, kind, R.new_card(rules)) for name, kind in players]
        self.dice_source = dice_source
        self.dice = [0] * 5
        self.held = 0
        self.rolls = 0
        self.round = 0
        self.current = 0
        self.first = 0
        self.contenders = list(range(len(self.players)))
        # Solo play has nobody to roll off against.
        self.phase = ROLLOFF if len(self.players) > 1 else TURN
        self._options = [0] * R.N_BOXES

    # --- who starts -------------------------------------------------------------------
    def rolloff(self):
        """Everyone still contending rolls one die; returns [(player, face), ...]."""
        if self.phase != ROLLOFF:
            raise GameError("the starting player is already decided")
        rolled = [(p, self.dice_source.randint(1, 6)) for p in self.contenders]
        best = max(face for _p, face in rolled)
        tied = [p for p, face in rolled if face == best]
        if len(tied) == 1:
            self.current = self.first = tied[0]
            self.phase = TURN
        self.contenders = tied
        return rolled

    # --- a turn -------------------------------------------------------------------------
    def _need_turn(self):
        if self.phase == ROLLOFF:
            raise GameError("roll off for the first turn first")
        if self.phase == OVER:
            raise GameError("the game is over")

    def roll(self):
        self._need_turn()
        if self.rolls >= _MAX_ROLLS:
            raise GameError("no rolls left: choose a box")
        if self.held == ALL_HELD:
            raise GameError("all dice are held: release one to roll")
        dice = self.dice
        for i in range(5):
            if not (self.held >> i) & 1:
                dice[i] = self.dice_source.randint(1, 6)
        self.rolls += 1

    def _need_rolled(self):
        self._need_turn()
        if self.rolls == 0:
            raise GameError("roll the dice first")

    def toggle_hold(self, die):
        self._need_rolled()
        if self.rolls >= _MAX_ROLLS:
            raise GameError("no rolls left: choose a box")
        if not 0 <= die < 5:
            raise GameError("there is no die %r" % (die,))
        self.held ^= 1 << die

    def set_held(self, mask):
        self._need_rolled()
        if self.rolls >= _MAX_ROLLS:
            raise GameError("no rolls left: choose a box")
        if not 0 <= mask <= ALL_HELD:
            raise GameError("bad hold mask %r" % (mask,))
        self.held = mask

    def options(self, out=None):
        """Points the current dice score in each box, -1 where the box may not be filled."""
        self._need_rolled()
        if out is None:
            out = [0] * self.rules.n_boxes
        R.score_options(self.rules, self.players[self.current].card, self.dice, out)
        return out

    def score(self, box):
        """Fill ``box`` for the current player; returns (points, yahtzee bonus earned)."""
        self._need_rolled()
        rules = self.rules
        if not 0 <= box < rules.n_boxes:
            raise GameError("there is no box %r" % (box,))
        card = self.players[self.current].card
        options = self._options
        R.score_options(rules, card, self.dice, options)
        points = options[box]
        if points < 0:
            if card[box] != R.OPEN:
                raise GameError("%s is already filled" % rules.ids[box])
            allowed = [rules.ids[b] for b in range(rules.n_boxes) if options[b] >= 0]
            raise GameError("joker rule: this Yahtzee goes in %s" % " or ".join(allowed))
        bonus = R.yahtzee_bonus_for(rules, card, self.dice)
        card[box] = points
        card[rules.bonus_at] += bonus
        self._next_turn()
        return points, bonus

    def _next_turn(self):
        for i in range(5):
            self.dice[i] = 0
        self.held = 0
        self.rolls = 0
        self.current = (self.current + 1) % len(self.players)
        if self.current == self.first:
            self.round += 1
            if self.round >= self.rounds:
                self.phase = OVER

    # --- results ------------------------------------------------------------------------
    def total(self, player):
        return R.totals(self.rules, self.players[player].card)[4]

    def ranking(self):
        """[(place, player, total), ...] best first; equal totals share a place."""
        order = sorted(range(len(self.players)), key=lambda p: (-self.total(p), p))
        ranked = []
        for i, p in enumerate(order):
            total = self.total(p)
            place = ranked[-1][0] if ranked and ranked[-1][2] == total else i + 1
            ranked.append((place, p, total))
        return ranked

    def winners(self):
        return [p for place, p, _total in self.ranking() if place == 1]

    # --- plain data ---------------------------------------------------------------------
    def to_state(self):
        return {
            "v": _STATE_VERSION,
            "rules": self.rules.name,
            "phase": self.phase,
            "round": self.round,
            "current": self.current,
            "first": self.first,
            "contenders": list(self.contenders),
            "dice": list(self.dice),
            "held": self.held,
            "rolls": self.rolls,
            "players": [[p.name, p.kind, list(p.card)] for p in self.players],
        }

    @classmethod
    def from_state(cls, state, dice_source):
        """Rebuild a game; raises GameError naming what is wrong with a bad state."""
        try:
            if state["v"] != _STATE_VERSION:
                raise GameError("saved game has format %r, not %d" % (state["v"], _STATE_VERSION))
            rules = R.ruleset_from_name(state["rules"])
            players = state["players"]
            game = cls(rules, [(p[0], p[1]) for p in players], dice_source)
            for player, saved in zip(game.players, players):
                card = [int(x) for x in saved[2]]
                R.check_card(rules, card)
                player.card = card
            for name in ("phase", "round", "current", "first", "held", "rolls"):
                setattr(game, name, int(state[name]))
            game.contenders = [int(p) for p in state["contenders"]]
            game.dice = [int(d) for d in state["dice"]]
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            if isinstance(exc, GameError):
                raise
            raise GameError("saved game is damaged: %s" % (exc,))
        game._check()
        return game

    def _check(self):
        """Consistency of a rebuilt state: every counter in range, cards match the turn."""
        n = len(self.players)
        bad = None
        if self.phase not in (ROLLOFF, TURN, OVER):
            bad = "phase"
        elif not (0 <= self.current < n and 0 <= self.first < n):
            bad = "player index"
        elif not 0 <= self.rolls <= _MAX_ROLLS or not 0 <= self.held <= ALL_HELD:
            bad = "roll count or holds"
        elif len(self.dice) != 5 or any(not (0 <= d <= 6) for d in self.dice):
            bad = "dice"
        elif (self.rolls == 0) != (self.dice[0] == 0) or (self.rolls and 0 in self.dice):
            bad = "dice for the roll count"
        elif not self.contenders or any(not 0 <= p < n for p in self.contenders):
            bad = "roll-off contenders"
        elif not 0 <= self.round <= self.rounds or (self.phase == OVER) != (self.round == self.rounds):
            bad = "round"
        else:
            for seat in range(n):
                player = (self.first + seat) % n
                played = self.round + (1 if seat < (self.current - self.first) % n else 0)
                if self.phase == OVER:
                    played = self.rounds
                card = self.players[player].card
                filled = sum(1 for b in range(self.rules.n_boxes) if card[b] != R.OPEN)
                if filled != played:
                    bad = "card of player %d" % (player + 1)
        if bad:
            raise GameError("saved game is inconsistent: %s" % bad)

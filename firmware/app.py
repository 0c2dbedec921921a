"""The handheld's application: the frame loop, the state the screens share, and the
transitions and game actions they call.

Data flows one way: button events -> the screen on show (its ``handle``) -> game actions
here (game.py) -> caches -> the screen's ``draw`` -> drivers. Each screen is one small
unit (ui/__init__.py: ``(draw, handle, tick)``, plain functions of the app)
in ui/screens.py, ui/menu.py, ui/turn_screen.py, ui/scorecard.py, ui/coach_screens.py; ``SCREENS``
below is their table, indexed by the screen ids. A screen's own state (a menu line, a
confirmation's figures, whose card) lives in its module, set by its way in
(``screens.show_summary(...)``, ...); the app holds what several screens share. The app
knows the game only through its documented API and the hardware only through the board's
hardware object.

The save layer (save_session.py) plugs in as ``app.session`` (None without one: tests, probes),
an object with this interface (docs/architecture.md, App):

- ``on_change(app)``: after every action that changes the game or the settings (game
  start, roll-off roll, roll, hold change, score, settings change, quitting a game);
- ``frame(app, now)``: once per frame before the button events; True drops them (a press
  that woke the device); it packs the save ``on_change`` left in the next frame and writes
  it in the one after (the menu's set-up in a frame of its own);
- ``save_due()``: True while those wait (the frame loop does not sleep then);
- ``asks``: what it asks the UI to show, as plain data (save_session.py: a message, a question,
  initials for a seat, the records pages); while it is not empty, ui/records_screens.py
  shows the first over the app's screen and takes the keys, and hands each answer back
  with ``answer(app, value)``; ``news()`` is True once after ``asks`` changed or a game's
  end was counted (the app redraws);
- ``power.mv``: the battery in millivolts, -1 unknown (the menu's header shows it);
- ``open_records(app)``: the menu's "Records" line;
- ``end_ok(app)``: OK on the end screen; True when the save layer goes on itself (high
  scores to enter first), False lets the end screen go to the menu; ``scores_wait()``: True
  while high scores wait (the end screen's last line says so).

It asks the app ``in_menu()`` (the set-up changes only there), calls ``ended()`` once
a game's end is complete (its high scores entered: the menu), and reads ``settings``.

Advice (coach.py: hints, turn reviews) and the computer levels (seats.py) come from the
optional strategy table; without it the game plays on with the simple computer.

Frame loop: every 5 ms the buttons are polled; latched events are handled, timers advance
(animations, computer moves), and the OLED / dice are redrawn only when something changed.
After warm-up a frame allocates nothing (tests/firmware/test_ui_alloc.py measures it).
"""

from micropython import const
import gc
import time

from drivers.buttons import LONG
import coach as coach_module
import game as game_module
import seats
import lang
import rules
from ui import coach_screens
from ui import draw
from ui import menu
from ui import scorecard
from ui import screens
from ui import turn_screen

# Screen ids, indexes into SCREENS (ui/__init__.py); part of the app's API (power.py, tests),
# re-exported: the screens that open them use ui's own.
from ui import SPLASH, MENU_SCREEN, ROLLOFF, TURN, CONFIRM_SCORE, CARD, END  # noqa: F401
from ui import CONFIRM_QUIT, HINT, REVIEW, SUMMARY  # noqa: F401

FRAME_MS = const(5)
_IDLE_MS = const(50)  # the longest idle sleep (hw.idle): a button's interrupt ends it
_SPLASH_MS = const(1500)
_MENU_BY_MS = const(1400)
_TUMBLE_MS = const(400)
_TUMBLE_STEP_MS = const(50)
_ROLLOFF_SHOW_MS = const(1200)
_SUMMARY_MS = const(1500)  # what a computer kept and scored, before the next turn
_MAX_BOXES = const(13)  # the most boxes a card has (rules.N_BOXES); a ruleset says its own
_LIST_ROWS = const(6)
_KIND_MASK = const(0xF0)
# The table's opening at Start game and Continue (coach_pending), a stage a frame: none,
# the first screen drawn first, the table's parts, then in a multi-player game the win
# meter (and its spread table) and the win level its first turn needs.
_OPENED = const(0)
_DRAW_FIRST = const(2)
_PARTS = const(1)
_METER = const(-2)
_WIN_LEVEL = const(-1)
_BUTTON_MASK = const(0x0F)

# The screens, indexed by the ids above: (draw, handle, tick) each (ui/__init__.py).
SCREENS = (
    screens.splash,
    menu.setup,
    screens.rolloff,
    turn_screen.turn,
    turn_screen.confirm_score,
    scorecard.card,
    screens.end,
    screens.confirm_quit,
    coach_screens.hint,
    coach_screens.review,
    screens.summary,
)
_DRAW = const(0)
_HANDLE = const(1)
_TICK = const(2)


class App:
    def __init__(self, hw, cfg):
        self.hw = hw
        self.fb = hw.oled
        self.settings = menu.Settings(cfg)
        self.session = None  # the save layer (see above): save_session.Session(hw).attach(app)
        self.screen = SPLASH
        self.running = True
        self.dirty = True
        self.dice_dirty = True
        self.game = None
        self.faces = [0, 0, 0, 0, 0]
        self.held = 0
        self.options = [-1] * _MAX_BOXES
        # Per seat: rules.totals() of its card (upper, upper bonus, lower, Yahtzee bonus,
        # grand total), refreshed after each score so the screens need not add up cards.
        self.breakdowns = [(0, 0, 0, 0, 0)] * 4
        self.win_chance = [0] * 4  # win_meter units per seat, valid when win_known
        self.win_known = False
        self.cursor = 0
        self.top = 0
        self.rolling = False
        self.tumble_until = 0
        self.tumble_next = 0
        self.timer_on = False
        self.timer_at = 0
        self.starter = -1
        self.tie = False
        self.coach = coach_module.Coach()  # hints, turn reviews, advisor levels (coach.py)
        self.note = ""  # one line shown on the roll-off screen and through round 1
        self.turn_msg = ""  # the turn screen's footer for a moment: why ROLL did nothing
        self.turn_msg_until = 0
        self.scratch_faces = [0, 0, 0, 0, 0]  # faces shown while tumbling or blinking
        self._steady = 0
        self._anim_state = 0x2545F491  # xorshift for the tumbling faces (not the dice source)
        self._pressed_once = False
        # Start game and Continue: the strategy table is opened a part a frame (coach.opening,
        # the stages above) from the frame after the first screen is drawn, so the screen
        # reacts at once (tick).
        self.coach_pending = _OPENED
        self._coach_parts = None
        # A turn's advisor preparation waits for a frame of its own after the turn screen
        # is drawn (and after a save the frame before): see start_turn, frame.
        self.prepare_pending = False
        # After a score the win meter waits for a frame of its own (refresh_totals): the
        # score's frame draws the next screen, its chances shown once they are known.
        self.meter_pending = False
        self.now = 0
        self.apply_settings()

    # ----------------------------------------------------------------- frame loop
    def run(self, frames=-1):
        """Run until ``running`` is cleared (or for ``frames`` frames, for tests)."""
        hw = self.hw
        deadline = hw.ticks_ms()
        self.timer_at = deadline
        # The splash ends by _MENU_BY_MS after power-on (ticks_ms counts from there), not
        # _SPLASH_MS after the boot's own work: with its drawing the menu is up by 1.5 s.
        left = time.ticks_diff(_MENU_BY_MS, deadline)
        self.start_timer(deadline, left if 0 < left <= _SPLASH_MS else 0)
        behind = False
        while self.running and frames != 0:
            self.frame(hw.ticks_ms())
            deadline = time.ticks_add(deadline, FRAME_MS)
            wait = time.ticks_diff(deadline, hw.ticks_ms())
            collected = wait > 0 and behind
            if collected:
                # Long work leaves its garbage: collect it now, in a frame with time to
                # spare, so the heap's automatic collection does not land in the next one.
                gc.collect()
                wait = time.ticks_diff(deadline, hw.ticks_ms())
            behind = False
            if wait > 0 and hw.idle is not None and self.still():
                hw.idle(_IDLE_MS)  # nothing moves: sleep until a press (or the power timers)
                deadline = hw.ticks_ms()
            elif wait > 0:
                hw.sleep_ms(wait)
            else:
                # Fell behind (an OLED refresh, a save): don't race to catch up, but yield,
                # so a frame's drawing and the next frame's save are two stretches, not one.
                hw.sleep_ms(0)
                deadline = hw.ticks_ms()
                # A collection's own overrun leaves no garbage: counted as behind, every
                # frame after it would collect again, and the idle loop would never sleep.
                behind = not collected
            if frames > 0:
                frames -= 1

    def still(self):
        """Nothing on screen moves by itself: no animation, timer, sound or deferred work
        (the hint's dice blink). The power timers need no finer step than _IDLE_MS."""
        buzzer = self.hw.buzzer
        session = self.session
        return not (
            self.rolling
            or self.timer_on
            or self.coach_pending
            or self.prepare_pending
            or self.meter_pending
            or self.dirty
            or self.dice_dirty
            or self.screen == HINT
            or (buzzer is not None and buzzer.busy)
            or self.hw.buttons.settling()
            or (session is not None and session.save_due())
        )

    def frame(self, now):
        self.now = now
        hw = self.hw
        buttons = hw.buttons
        buttons.poll(now)
        session = self.session
        saving = session is not None and session.save_due()
        if session is not None and session.frame(self, now):
            buttons.clear()
        if self.meter_pending and not saving:
            self._refresh_meter()  # a frame of its own; the turn's preparation the next
        elif self.prepare_pending and not saving:
            self._prepare_turn()
        event = self._next_event(buttons)
        while event >= 0:
            if self.prepare_pending:
                self._prepare_turn()  # a press before the preparation's own frame came
            if not self._pressed_once:
                self._pressed_once = True
                hw.dice_source.first_press(time.ticks_us())
            if session is None or not session.asks:
                self.handle(event)
            else:
                # The screens that show the save layer's asks: imported only while it has
                # some (the module releases itself once they are answered).
                __import__("ui.records_screens", None, None, ("*",)).handle(self, event)
            event = self._next_event(buttons)
        self.tick(now, saving)
        if hw.buzzer is not None:
            hw.buzzer.update(now)
        if session is not None and session.news():
            self.dirty = True
        if self.dirty:
            self.dirty = False
            SCREENS[self.screen][_DRAW](self, self.fb)
            if session is not None:
                if session.asks:
                    __import__("ui.records_screens", None, None, ("*",)).paint(self, self.fb)
                elif self.screen == MENU_SCREEN:
                    draw.battery(self.fb, session.power.mv)
            self.fb.show()
        if self.dice_dirty and not self.rolling:
            self.dice_dirty = False
            hw.dice.show(self.faces, self.held)

    def _next_event(self, buttons):
        # A game's first turn takes no press before its table is open (a solo Start game,
        # Continue): they wait, latched, and come in order once it is.
        return -1 if self.coach_pending and self.screen == TURN else buttons.get()

    def handle(self, event):
        """A button event for the screen on show."""
        handle = SCREENS[self.screen][_HANDLE]
        if handle is not None:
            handle(self, event & _BUTTON_MASK, event & _KIND_MASK == LONG)

    def tick(self, now, saving=False):
        """Animations and the screen's timers; ``saving``: this frame wrote a save, so the
        screen's timed work (a computer's move, a turn's start) waits for the next frame."""
        if self.rolling:
            self._tumble(now)
        if self.coach_pending and not (saving or self.dirty):  # a part, or a redraw: not both
            self._coach_step()
        if saving or self.prepare_pending or self.coach_pending and self.screen == TURN:
            return
        tick = SCREENS[self.screen][_TICK]
        if tick is not None:
            tick(self, now)
        if self.screen == TURN and self.game is not None and self.computer_turn():
            seats.play(self, now)  # the computer's turn: played here, the screen draws it

    def _coach_step(self):
        pending = self.coach_pending
        coach = self.coach
        if pending == _DRAW_FIRST:
            self.coach_pending = _PARTS
        elif pending == _METER:
            self.coach_pending = _WIN_LEVEL
            self._refresh_meter()
        elif pending == _WIN_LEVEL:
            self.coach_pending = _OPENED
            coach.win_level()
            self.prepare_pending = self.screen == TURN  # its turn next frame, the level loaded
        else:
            try:
                next(self._coach_parts)
                return
            except StopIteration:
                pass
            self._coach_parts = None
            self.coach_pending = _METER if coach.adv is not None and len(self.game.players) > 1 else _OPENED
            self._coach_opened()
            if self.screen == TURN and not self.coach_pending:  # solo: the turn next frame
                self.prepare_pending = coach.adv is not None

    def start_timer(self, now, ms):
        self.timer_on = True
        self.timer_at = time.ticks_add(now, ms)

    def timer_due(self, now):
        if self.timer_on and time.ticks_diff(now, self.timer_at) >= 0:
            self.timer_on = False
            return True
        return False

    def changed(self):
        if self.session is not None:
            self.session.on_change(self)

    def beep(self, freq, ms):
        buzzer = self.hw.buzzer
        if buzzer is not None and self.settings.sound:
            buzzer.tone(freq, ms)

    # ----------------------------------------------------------------- transitions
    def show(self, screen):
        self.screen = screen
        self.dirty = True
        if screen == MENU_SCREEN:
            if self.coach.adv is not None or self.coach_pending:
                self.coach.close()  # out of a game: its RAM goes back to the records pages
            self.coach_pending = _OPENED  # a game quit before its table opened: none to open
            self._coach_parts = None
            self.prepare_pending = False  # nor a turn to prepare
            faces = self.faces  # no game on the dice in the menu (quit, or after the end)
            for i in range(5):
                faces[i] = 0
            self.held = 0
            self.dice_dirty = True
            self.meter_pending = False
            menu.home(self.settings)

    def apply_settings(self):
        hw = self.hw
        hw.dice.brightness(self.settings.leds)
        if hw.buzzer is not None:
            hw.buzzer.muted = not self.settings.sound

    def coach_mode(self):
        """The coach mode for this turn: COACH_OFF without a table or on a computer's turn.
        Not off: short MENU gives a hint; COACH_TURN: the turn is priced for a review."""
        if self.coach.adv is None or self.computer_turn():
            return menu.COACH_OFF
        return self.settings.coach

    # ----------------------------------------------------------------- game actions
    def new_game(self):
        settings = self.settings
        game = game_module.Game(settings.ruleset(), settings.player_list(), self.hw.dice_source)
        solo = game.phase == game_module.TURN  # nobody to roll off against
        self._begin(game, defer=True)
        if not solo:
            self._roll_off()  # before the save: one save, one flash write, for both
        self.changed()
        if solo:
            self.start_turn()  # prepared once the table is open (tick)
            return
        self.show(ROLLOFF)

    def resume(self, game):
        """Continue ``game`` (e.g. rebuilt by the save layer) on the screen its phase needs."""
        # The table opens a part a frame as at Start game (coach_pending): the turn screen
        # first, presses held till it is open; an ended game needs none.
        self._begin(game, defer=game.phase != game_module.OVER)
        if game.phase == game_module.OVER:
            self.finish()
        elif game.phase == game_module.ROLLOFF:
            self.show(ROLLOFF)
            self.rolloff_round()
        else:
            self.start_turn()
            if game.rolls > 0:
                game.options(self.options)
                self.cursor = self.best_box()
                self.scroll_cursor()

    def _begin(self, game, defer=False):
        """Take ``game`` on: its box names in the chosen language (lang.card), animals on
        the dice for the Zoo card, its totals, and the strategy table when the coach or an
        advisor level needs it (its RAM is held while a game runs; without one, say so through
        round 1: ``note``). ``defer``: open it a part a frame from the frame after the
        next drawn one (``coach_pending``); the roll-off waits for it (ui/screens.py)."""
        self.game = game
        lang.card(game.rules)
        self.hw.dice.animals(game.rules.faces is not None)  # the Zoo card's pictures
        self.starter = -1
        self.tie = False
        wanted = self.settings.coach != menu.COACH_OFF
        for player in game.players:
            if player.kind != menu.KIND_NAMES[menu.HUMAN] and player.kind in menu.KIND_NAMES:
                wanted = True
        self.note = ""
        if not wanted:
            self.coach.close()
        elif defer:
            self._coach_parts = self.coach.opening(game.rules)
            self.coach_pending = _DRAW_FIRST
            self.win_known = False
            self._totals()  # a resumed game's totals on its first screen; the meter once open
        else:
            self.coach.open(game.rules)  # at once
            self._coach_opened()

    def _coach_opened(self):
        """The strategy table's opening is over (the longest work the game does, spread
        over frames while the roll-off tumbles): the note if there is no advisor, and
        the win meter."""
        if self.coach.adv is None:
            self.note = self.coach.problem
            self.dirty = True
        if not self.coach_pending:
            self.refresh_totals()  # solo, or no table: no meter to wait for

    def rolloff_round(self):
        self._roll_off()
        self.changed()

    def _roll_off(self):
        rolled = self.game.rolloff()
        for seat in range(5):
            self.faces[seat] = 0
        for seat, face in rolled:
            self.faces[seat] = face
        self.held = 0
        self._start_tumble(0)
        self.tie = self.game.phase != game_module.TURN
        self.start_timer(self.now, _ROLLOFF_SHOW_MS)
        self.beep(660, 40)

    def start_turn(self, defer=False):
        """The turn of the player on turn; ``defer``: its advisor is prepared in a frame of
        its own after the turn screen shows (prepare_pending), before any press or timer."""
        self.cursor = 0
        self.top = 0
        seats.new_turn()
        self.prepare_pending = defer and self.coach.adv is not None
        if not self.prepare_pending:
            self._prepare_turn()
        self.sync_dice()
        self.show(TURN)
        if self.computer_turn():
            self.start_timer(self.now, seats.CPU_STEP_MS)
        else:
            self.timer_on = False

    def _prepare_turn(self):
        self.prepare_pending = False
        game = self.game
        if self.coach.adv is not None and not self.coach.start_turn(game.players[game.current].card, game):
            self.note = self.coach.problem  # the table failed a check: played without from here
            self.dirty = True

    def roll(self):
        game = self.game
        if game.rolls > 0 and self.coach_mode() == menu.COACH_TURN:
            self.coach.price_hold(game.dice, 3 - game.rolls, game.held)
        game.roll()
        game.options(self.options)
        self.cursor = self.best_box()
        self.scroll_cursor()
        self.sync_dice()
        self._start_tumble(game.held)
        self.dirty = True
        self.beep(440, 30)
        self.changed()

    def score(self, box):
        game = self.game
        review = self.coach_mode() == menu.COACH_TURN
        computer = self.computer_turn()
        if review:
            self.coach.price_box(game.dice, 3 - game.rolls, box)
        seat = game.current
        upper_before = self.breakdowns[seat][1]
        points, bonus = game.score(box)  # and the Yahtzee bonus it earned
        self.refresh_totals(later=True)
        self.beep(880, 60)
        self.changed()
        if review:
            coach_screens.show_review(self, seat)  # OK goes on (next_turn)
        elif computer:
            # The dice stay lit as scored; OK or the timer goes on.
            screens.show_summary(self, seat, box, points, bonus, self.breakdowns[seat][1] - upper_before)
            self.start_timer(self.now, _SUMMARY_MS)
        else:
            self.next_turn()

    def next_turn(self):
        """After a score (and its review or summary): the next turn, or the end screen."""
        if self.game.phase == game_module.OVER:
            self.finish()
        else:
            self.start_turn(defer=True)

    def finish(self):
        # The game is over: the strategy code makes room for the records pages and the
        # high-score entry, which load next.
        self.coach.close()
        self.meter_pending = False  # no chances after the last score
        self.sync_dice()
        self.timer_on = False
        screens.show_end(self)

    def refresh_totals(self, later=False):
        """Every seat's totals; the win meter now, or with ``later`` in a frame of its
        own (meter_pending), kept out of the score's redraw."""
        game = self._totals()
        if later and len(game.players) > 1 and self.coach.adv is not None:
            self.win_known = False  # no chance shown until it is the one after this score
            self.meter_pending = True
        else:
            self._refresh_meter()

    def _totals(self):
        game = self.game
        for seat in range(len(game.players)):
            self.breakdowns[seat] = rules.totals(game.rules, game.players[seat].card)
        return game

    def _refresh_meter(self):
        # The win meter (coach.meter): every seat's chance to win after this turn, shown
        # in the card view's header and the turn screen's opponents' line (ui/scorecard.py);
        # False without the tables or solo.
        self.meter_pending = False
        self.win_known = self.coach.meter(self.game, self.breakdowns, self.win_chance)
        if self.win_known:
            self.dirty = True  # the chances on the screen

    def best_box(self):
        """Default cursor after a roll: the legal box with the most points (first on ties)."""
        best = -1
        options = self.options
        for box in range(self.game.rules.n_boxes):
            if options[box] >= 0 and (best < 0 or options[box] > options[best]):
                best = box
        return best

    def move_cursor(self, step):
        box = self.cursor
        n = self.game.rules.n_boxes
        for _ in range(n):
            box = (box + step) % n
            if self.options[box] >= 0:
                break
        self.cursor = box
        self.scroll_cursor()
        self.dirty = True

    def point_at(self, box):
        """The turn screen's cursor on ``box`` (a computer shows the box it scores next)."""
        self.cursor = box
        self.scroll_cursor()
        self.dirty = True

    def scroll_cursor(self):
        if self.cursor < self.top + 1:
            self.top = self.cursor - 1 if self.cursor > 0 else 0
        elif self.cursor > self.top + _LIST_ROWS - 2:
            self.top = self.cursor - _LIST_ROWS + 2
        last_top = self.game.rules.n_boxes - _LIST_ROWS
        if self.top > last_top:
            self.top = last_top

    def set_holds(self, mask):
        """Hold exactly the dice in ``mask`` (a hint taken, a computer's choice)."""
        self.game.set_held(mask)
        self.sync_dice()
        self.changed()

    def sync_dice(self):
        game = self.game
        dice = game.dice
        for i in range(5):
            self.faces[i] = dice[i]
        self.held = game.held
        self.dice_dirty = True
        self.dirty = True

    def computer_turn(self):
        """Whether the player on turn is a computer (from the game, so a resumed game works)."""
        game = self.game
        return game.players[game.current].kind != menu.KIND_NAMES[menu.HUMAN]

    def ended(self):
        """The save layer is done with the end of a game (high scores entered): the menu."""
        self.show(MENU_SCREEN)

    def in_menu(self):
        """The menu is on show: the save layer keeps the set-up when it changes there."""
        return self.screen == MENU_SCREEN

    def moving(self):
        """The game moves by itself (a roll's tumble, the roll-off, a computer's turn): for
        power.py, which counts that as activity."""
        return (
            self.rolling
            or self.screen == ROLLOFF
            or (self.screen == TURN and self.game is not None and self.computer_turn())
        )

    # ----------------------------------------------------------------- dice animation
    def _start_tumble(self, steady_mask):
        self.rolling = True
        self._steady = steady_mask
        self.tumble_until = time.ticks_add(self.now, _TUMBLE_MS)
        self.tumble_next = self.now

    def _tumble(self, now):
        """Random faces on the dice that are rolling; the real faces when it ends."""
        if time.ticks_diff(now, self.tumble_until) >= 0:
            self.rolling = False
            self.dice_dirty = True  # the real faces (roll-off faces, or the game's dice)
            self.dirty = True
            return
        if time.ticks_diff(now, self.tumble_next) < 0:
            return
        self.tumble_next = time.ticks_add(now, _TUMBLE_STEP_MS)
        state = self._anim_state
        faces = self.scratch_faces
        for i in range(5):
            state ^= (state << 13) & 0x3FFFFFFF
            state ^= state >> 17
            state ^= (state << 5) & 0x3FFFFFFF
            if self._steady & (1 << i) or (self.screen == ROLLOFF and self.faces[i] == 0):
                faces[i] = self.faces[i]
            else:
                faces[i] = state % 6 + 1
        self._anim_state = state
        self.hw.dice.show(faces, self._steady)

"""The handheld's application: the UI state machine and the frame loop.

Data flows one way: button events -> game actions (game.py) -> caches -> screens
(ui/screens.py) -> drivers. The app knows the game only through its documented API and
the hardware only through the board's hardware object. ``on_change`` is the hook for the
save layer: it is called after every action that changes the game or the settings.
Advice (coach.py: hints, turn reviews) and the computer levels (players.py) come from the
optional strategy table; without it the game plays on with the simple computer.

Frame loop: every 5 ms the buttons are polled; latched events are handled, timers advance
(animations, computer moves), and the OLED / dice are redrawn only when something changed.
After warm-up a frame allocates nothing (tests/test_ui_alloc.py measures it).
"""
from micropython import const
import time

from drivers.buttons import HOLD1, ROLL, UP, DOWN, OK, MENU, LONG
import coach as coach_module
import game as game_module
import players
import rules
from ui import coach_screens
from ui import menu
from ui import scorecard
from ui import screens

FRAME_MS = const(5)
_SPLASH_MS = const(1500)
_TUMBLE_MS = const(400)
_TUMBLE_STEP_MS = const(50)
_ROLLOFF_SHOW_MS = const(1200)
_STARTER_SHOW_MS = const(1500)
_CPU_STEP_MS = const(600)
_SUMMARY_MS = const(1500)  # what a computer kept and scored, before the next turn
_BLINK_MS = const(250)  # hint: the dice to re-roll blink at 2 Hz
_N_BOXES = const(13)
_ALL_HELD = const(0x1F)
_LIST_ROWS = const(6)
_KIND_MASK = const(0xF0)
_BUTTON_MASK = const(0x0F)

# Screens
SPLASH = const(0)
MENU_SCREEN = const(1)
ROLLOFF = const(2)
TURN = const(3)
CONFIRM_SCORE = const(4)  # the box, its points and the total it makes: OK scores
CONFIRM_ZERO = CONFIRM_SCORE  # its older name (it asked for zeros only)
CARD = const(5)
END = const(6)
CONFIRM_QUIT = const(7)
FAULT = const(8)
HINT = const(9)
REVIEW = const(10)
SUMMARY = const(11)  # after a computer's turn: its dice, box and points (OK skips)

# What OK does on the end screen (app.end_ok), for its last line.
END_MENU = "OK: menu"
END_SCORES = "OK: high scores"

_DRAW = (
    screens.splash, screens.menu_screen, screens.rolloff, screens.turn, screens.confirm_score,
    scorecard.card, screens.end, screens.confirm_quit, screens.fault, coach_screens.hint,
    coach_screens.review, screens.summary,
)


class App:
    def __init__(self, hw, cfg):
        self.hw = hw
        self.fb = hw.oled
        self.settings = menu.Settings(cfg)
        self.on_change = None  # save hook: on_change(app) after each state-changing action
        # Extensions (session.py): ext.frame(app, now) -> True drops this frame's button
        # events (a waking press); ext.handle(app, event) -> True when one of its screens
        # took the event; ext.draw(app, fb) after the screen; ext.open_records(app).
        self.ext = None
        self.screen = SPLASH
        self.running = True
        self.dirty = True
        self.dice_dirty = True
        self.game = None
        self.faces = [0, 0, 0, 0, 0]
        self.held = 0
        self.options = [-1] * _N_BOXES
        # Per seat: rules.totals() of its card (upper, upper bonus, lower, Yahtzee bonus,
        # grand total), refreshed after each score so the screens need not add up cards.
        self.breakdowns = [(0, 0, 0, 0, 0)] * 4
        self.ranking = []
        self.cursor = 0
        self.top = 0
        self.menu_cursor = self.settings.items.index(menu.START)  # first line, set-up below
        self.menu_top = 0
        self.card_seat = 0
        self.confirm_box = -1  # the box OK offered to score: its points, the total after
        self.confirm_points = 0
        self.confirm_bonus = 0
        self.confirm_total = 0
        self._scratch_card = rules.new_card()
        self.back_screen = TURN
        self.rolling = False
        self.tumble_until = 0
        self.tumble_next = 0
        self.timer_on = False
        self.timer_at = 0
        self.starter = -1
        self.tie = False
        self.fault = ""
        self.coach = coach_module.Coach()  # hints, turn reviews, advisor levels (coach.py)
        self.note = ""  # one line shown on the roll-off screen and through round 1
        # What OK on the end screen does: the save layer sets END_SCORES while high
        # scores wait for initials (session.py), else OK goes to the menu.
        self.end_ok = END_MENU
        self.review_seat = 0  # whose turn the review screen is about
        self.summary_seat = 0  # the computer turn the summary shows: seat, box, points
        self.summary_box = 0
        self.summary_points = 0
        self._plan_rolls = -1  # the computer's decision is made once per roll
        self._plan_mask = -1
        self._plan_box = -1
        self._blink_next = 0
        self._blink_off = False
        self._tumble_faces = [0, 0, 0, 0, 0]
        self._steady = 0
        self._anim_state = 0x2545F491  # xorshift for the tumbling faces (not the dice source)
        self._pressed_once = False
        self._now = 0
        self._scroll_menu()
        self.apply_settings()

    # ----------------------------------------------------------------- frame loop
    def run(self, frames=-1):
        """Run until ``running`` is cleared (or for ``frames`` frames, for tests)."""
        hw = self.hw
        deadline = hw.ticks_ms()
        self.timer_at = deadline
        self._start_timer(deadline, _SPLASH_MS)
        while self.running and frames != 0:
            self.frame(hw.ticks_ms())
            deadline = time.ticks_add(deadline, FRAME_MS)
            wait = time.ticks_diff(deadline, hw.ticks_ms())
            if wait > 0:
                hw.sleep_ms(wait)
            else:
                deadline = hw.ticks_ms()  # fell behind (an OLED refresh): don't race to catch up
            if frames > 0:
                frames -= 1

    def frame(self, now):
        self._now = now
        hw = self.hw
        buttons = hw.buttons
        buttons.poll(now)
        ext = self.ext
        if ext is not None and ext.frame(self, now):
            buttons.clear()
        event = buttons.get()
        while event >= 0:
            if not self._pressed_once:
                self._pressed_once = True
                hw.dice_source.first_press(time.ticks_us())
            if ext is None or not ext.handle(self, event):
                self.handle(event)
            event = buttons.get()
        self.tick(now)
        if hw.buzzer is not None:
            hw.buzzer.update(now)
        if self.dirty:
            self.dirty = False
            _DRAW[self.screen](self, self.fb)
            if ext is not None:
                ext.draw(self, self.fb)
            self.fb.show()
        if self.dice_dirty and not self.rolling:
            self.dice_dirty = False
            hw.dice.show(self.faces, self.held)

    def _start_timer(self, now, ms):
        self.timer_on = True
        self.timer_at = time.ticks_add(now, ms)

    def _timer_due(self, now):
        if self.timer_on and time.ticks_diff(now, self.timer_at) >= 0:
            self.timer_on = False
            return True
        return False

    def _changed(self):
        if self.on_change is not None:
            self.on_change(self)

    def _beep(self, freq, ms):
        buzzer = self.hw.buzzer
        if buzzer is not None and self.settings.sound:
            buzzer.tone(freq, ms)

    # ----------------------------------------------------------------- events
    def handle(self, event):
        button = event & _BUTTON_MASK
        long = event & _KIND_MASK == LONG
        screen = self.screen
        if screen == SPLASH:
            self.show(MENU_SCREEN)
        elif screen == MENU_SCREEN:
            self._menu_event(button)
        elif screen == TURN:
            self._turn_event(button, long)
        elif screen == CONFIRM_SCORE:
            if button == OK:
                self._score(self.confirm_box)
            else:
                self.show(TURN)
        elif screen == CONFIRM_QUIT:
            if button == OK:
                self.game = None
                self._changed()
                self.show(MENU_SCREEN)
            else:
                self.show(self.back_screen)
        elif screen == CARD:
            self._card_event(button)
        elif screen == HINT:
            self._hint_event(button, long)
        elif screen == REVIEW:
            if button == OK or button == ROLL:
                self._after_review()
        elif screen == SUMMARY:
            if button == OK:
                self.timer_on = False
                self._after_review()  # skip the rest of the 1.5 s
            elif button == MENU and long:
                self._ask_quit(SUMMARY)
        elif screen == ROLLOFF:
            if button == OK and self.timer_on:
                self.timer_at = self._now  # skip the wait
            elif button == MENU and long:
                self._ask_quit(ROLLOFF)
        elif screen == END:
            if button == OK:
                self.show(MENU_SCREEN)

    def show(self, screen):
        self.screen = screen
        self.dirty = True
        if screen == MENU_SCREEN:
            self._dark_dice()  # no game on the dice in the menu (quit, or after the end)
            self.menu_cursor = self.settings.items.index(menu.START)
            self.menu_top = 0  # "Start game" and the players' set-up below it
            if self.coach.adv is not None:
                self.coach.close()  # out of a game: its ~23 KB go back to the records pages

    def _dark_dice(self):
        faces = self.faces
        for i in range(5):
            faces[i] = 0
        self.held = 0
        self.dice_dirty = True

    def _ask_quit(self, back):
        self.back_screen = back
        self.show(CONFIRM_QUIT)

    def _menu_event(self, button):
        settings = self.settings
        if button == UP or button == DOWN:
            step = 1 if button == DOWN else -1
            self.menu_cursor = (self.menu_cursor + step) % len(settings.items)
            self._scroll_menu()
        elif button == OK or button == ROLL:
            item = settings.items[self.menu_cursor]
            if item == menu.START:
                self.new_game()
                return
            if item == menu.RECORDS:
                if self.ext is not None:
                    self.ext.open_records(self)
                return
            if settings.change(item):
                self.menu_cursor = settings.items.index(item)
            self.apply_settings()
            self._scroll_menu()
            self._changed()
        self.dirty = True

    def _scroll_menu(self):
        if self.menu_cursor < self.menu_top:
            self.menu_top = self.menu_cursor
        elif self.menu_cursor > self.menu_top + 6:
            self.menu_top = self.menu_cursor - 6

    def apply_settings(self):
        hw = self.hw
        hw.dice.brightness(self.settings.leds)
        if hw.buzzer is not None:
            hw.buzzer.muted = not self.settings.sound

    def _turn_event(self, button, long):
        game = self.game
        if button == MENU:
            if long:
                self._ask_quit(TURN)
            elif self._coach_mode() != menu.COACH_OFF and game.rolls > 0:
                self._show_hint()
            else:
                self._show_card()
            return
        if self._computer_turn():
            return  # the computer is playing this turn
        if button == ROLL:
            if game.rolls < 3 and game.held != _ALL_HELD:
                self._roll()
            else:
                self._beep(220, 80)  # no roll left, or nothing to roll: choose a box
        elif button < ROLL:  # HOLD1..HOLD5
            if 0 < game.rolls < 3:
                game.toggle_hold(button - HOLD1)
                self._sync_dice()
                self._changed()
        elif button == UP or button == DOWN:
            if game.rolls > 0:
                self._move_cursor(1 if button == DOWN else -1)
        elif button == OK:
            if game.rolls > 0 and self.options[self.cursor] >= 0:
                self._ask_score(self.cursor)

    def _ask_score(self, box):
        """Scoring takes two presses: OK shows the box, its points and the total it makes
        (a zero says so), OK again scores, any other button goes back. A first OK never
        changes the game, so an OK pressed out of habit only shows what a second would do."""
        game = self.game
        card = game.players[game.current].card
        scratch = self._scratch_card
        for i in range(len(card)):
            scratch[i] = card[i]
        self.confirm_bonus = rules.yahtzee_bonus_for(game.rules, card, game.dice)
        self.confirm_points = self.options[box]
        scratch[box] = self.confirm_points
        scratch[rules.BONUS] += self.confirm_bonus
        self.confirm_total = rules.totals(game.rules, scratch)[4]
        self.confirm_box = box
        self.show(CONFIRM_SCORE)

    def _show_card(self):
        self.card_seat = self.game.current
        self.show(CARD)

    def _coach_mode(self):
        """The coach mode for this turn: COACH_OFF without a table or on a computer's turn.
        Not off: short MENU gives a hint; COACH_TURN: the turn is priced for a review."""
        if self.coach.adv is None or self._computer_turn():
            return menu.COACH_OFF
        return self.settings.coach

    def _show_hint(self):
        game = self.game
        coach = self.coach
        coach.hint(game.dice, 3 - game.rolls, game.held)
        if coach.hint_box >= 0:  # the box to score: the turn screen highlights it
            self.cursor = coach.hint_box
            self._scroll_cursor()
        self._blink_off = False
        self._blink_next = self._now
        self.show(HINT)

    def _hint_event(self, button, long):
        if button == MENU:
            self.dice_dirty = True  # back to the steady dice
            if long:
                self._ask_quit(TURN)
            else:
                self._show_card()
            return
        self.dice_dirty = True
        self.show(TURN)
        coach = self.coach
        if button == OK and coach.hint_box < 0 and coach.hint_code >= 0:  # OK: take the hold
            game = self.game
            if coach.hint_code != game.held and 0 < game.rolls < 3:
                self._set_holds(coach.hint_code)

    def _blink(self, now):
        """Hint screen: the dice to re-roll blink (the OLED's ``.``), the ones to keep stay
        steady like held dice; a hint to score now blinks nothing."""
        if time.ticks_diff(now, self._blink_next) < 0:
            return
        self._blink_next = time.ticks_add(now, _BLINK_MS)
        self._blink_off = not self._blink_off
        reroll = ~self.coach.hint_code & _ALL_HELD if self.coach.hint_box < 0 else 0
        faces = self._tumble_faces
        for i in range(5):
            faces[i] = 0 if self._blink_off and reroll & (1 << i) else self.faces[i]
        self.hw.dice.show(faces, self.held)

    def _card_event(self, button):
        n = len(self.game.players)
        if button == ROLL or button == DOWN or button == UP:
            # The whole card is on one screen: ROLL / DOWN next player, UP the previous
            step = n - 1 if button == UP else 1
            self.card_seat = (self.card_seat + step) % n
        elif button < ROLL:  # HOLD1..HOLD4: that player's card
            if button - HOLD1 < n:
                self.card_seat = button - HOLD1
        else:
            self.show(TURN if self.game.phase == game_module.TURN else END)
        self.dirty = True

    # ----------------------------------------------------------------- game actions
    def new_game(self):
        settings = self.settings
        self.game = game_module.Game(settings.ruleset(), settings.player_list(), self.hw.dice_source)
        self._open_advisor()
        self.starter = -1
        self.tie = False
        self._refresh_totals()
        self._changed()
        if self.game.phase == game_module.TURN:  # solo: nobody to roll off against
            self._start_turn()
            return
        self.show(ROLLOFF)
        self._rolloff_round()

    def resume(self, game):
        """Continue ``game`` (e.g. rebuilt by the save layer) on the screen its phase needs."""
        self.game = game
        self._open_advisor()
        self.starter = -1
        self.tie = False
        self._refresh_totals()
        if game.phase == game_module.OVER:
            self._finish()
        elif game.phase == game_module.ROLLOFF:
            self.show(ROLLOFF)
            self._rolloff_round()
        else:
            self._start_turn()
            if game.rolls > 0:
                game.options(self.options)
                self.cursor = self._best_box()
                self._scroll_cursor()

    def _open_advisor(self):
        """Load the strategy table when the coach or an advisor level needs it (about
        23 KB while a game runs); without one, say so through round 1 (``note``)."""
        game = self.game
        wanted = self.settings.coach != menu.COACH_OFF
        for player in game.players:
            if player.kind != menu.KIND_NAMES[menu.HUMAN] and player.kind in menu.KIND_NAMES:
                wanted = True
        self.note = ""
        if not wanted:
            self.coach.close()
        elif not self.coach.open(game.rules):
            self.note = self.coach.problem

    def _rolloff_round(self):
        rolled = self.game.rolloff()
        for seat in range(5):
            self.faces[seat] = 0
        for seat, face in rolled:
            self.faces[seat] = face
        self.held = 0
        self._start_tumble(0)
        self.tie = self.game.phase != game_module.TURN
        self._start_timer(self._now, _ROLLOFF_SHOW_MS)
        self._changed()
        self._beep(660, 40)

    def _start_turn(self):
        game = self.game
        self.cursor = 0
        self.top = 0
        self._plan_rolls = -1
        if self.coach.adv is not None:
            self.coach.start_turn(game.players[game.current].card)  # the turn's one slow call
        self._sync_dice()
        self.show(TURN)
        if self._computer_turn():
            self._start_timer(self._now, _CPU_STEP_MS)
        else:
            self.timer_on = False

    def _roll(self):
        game = self.game
        if game.rolls > 0 and self._coach_mode() == menu.COACH_TURN:
            self.coach.price_hold(game.dice, 3 - game.rolls, game.held)
        game.roll()
        game.options(self.options)
        self.cursor = self._best_box()
        self._scroll_cursor()
        self._sync_dice()
        self._start_tumble(game.held)
        self.dirty = True
        self._beep(440, 30)
        self._changed()

    def _score(self, box):
        game = self.game
        review = self._coach_mode() == menu.COACH_TURN
        computer = self._computer_turn()
        if review:
            self.coach.price_box(game.dice, 3 - game.rolls, box)
            self.review_seat = game.current
        self.summary_seat = game.current
        self.summary_box = box
        self.summary_points = self.options[box]
        game.score(box)
        self._refresh_totals()
        self._beep(880, 60)
        self._changed()
        if review:
            self.show(REVIEW)  # OK goes on (_after_review)
        elif computer:
            self.show(SUMMARY)  # the dice stay lit as scored; OK or the timer goes on
            self._start_timer(self._now, _SUMMARY_MS)
        else:
            self._after_review()

    def _after_review(self):
        if self.game.phase == game_module.OVER:
            self._finish()
        else:
            self._start_turn()

    def _finish(self):
        self.ranking = self.game.ranking()  # [(place, seat, total), ...]
        self._sync_dice()
        self.timer_on = False
        self.show(END)

    def _refresh_totals(self):
        game = self.game
        for seat in range(len(game.players)):
            self.breakdowns[seat] = rules.totals(game.rules, game.players[seat].card)

    def _best_box(self):
        """Default cursor after a roll: the legal box with the most points (first on ties)."""
        best = -1
        options = self.options
        for box in range(_N_BOXES):
            if options[box] >= 0 and (best < 0 or options[box] > options[best]):
                best = box
        return best

    def _move_cursor(self, step):
        box = self.cursor
        for _ in range(_N_BOXES):
            box = (box + step) % _N_BOXES
            if self.options[box] >= 0:
                break
        self.cursor = box
        self._scroll_cursor()
        self.dirty = True

    def _scroll_cursor(self):
        if self.cursor < self.top + 1:
            self.top = self.cursor - 1 if self.cursor > 0 else 0
        elif self.cursor > self.top + _LIST_ROWS - 2:
            self.top = self.cursor - _LIST_ROWS + 2
        if self.top > _N_BOXES - _LIST_ROWS:
            self.top = _N_BOXES - _LIST_ROWS

    def _set_holds(self, mask):
        """Hold exactly the dice in ``mask`` (a hint taken, a computer's choice)."""
        self.game.set_held(mask)
        self._sync_dice()
        self._changed()

    def _sync_dice(self):
        game = self.game
        dice = game.dice
        for i in range(5):
            self.faces[i] = dice[i]
        self.held = game.held
        self.dice_dirty = True
        self.dirty = True

    # ----------------------------------------------------------------- timers
    def _start_tumble(self, steady_mask):
        self.rolling = True
        self._steady = steady_mask
        self.tumble_until = time.ticks_add(self._now, _TUMBLE_MS)
        self.tumble_next = self._now

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
        faces = self._tumble_faces
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

    def tick(self, now):
        if self.rolling:
            self._tumble(now)
        screen = self.screen
        if screen == SPLASH:
            if self._timer_due(now):
                self.show(MENU_SCREEN)
        elif screen == ROLLOFF:
            if not self.rolling and self._timer_due(now):
                if self.starter >= 0:
                    self._start_turn()
                elif self.game.phase == game_module.TURN:
                    self.starter = self.game.current
                    self.dirty = True
                    self._start_timer(now, _STARTER_SHOW_MS)
                else:
                    self._rolloff_round()
        elif screen == HINT:
            self._blink(now)
        elif screen == SUMMARY:
            if self._timer_due(now):
                self._after_review()
        elif screen == TURN and self.game is not None:
            if self._computer_turn() and not self.rolling:
                if self._timer_due(now):
                    self._computer_step()
                    if self.screen == TURN:
                        self._start_timer(now, _CPU_STEP_MS)

    def _computer_turn(self):
        """Whether the player on turn is a computer (from the game, so a resumed game works)."""
        game = self.game
        return game.players[game.current].kind != menu.KIND_NAMES[menu.HUMAN]

    def _computer_step(self):
        """One visible step of a computer turn: roll, set holds, point at a box, score."""
        game = self.game
        if game.rolls == 0:
            self._roll()
            return
        if self._plan_rolls != game.rolls:  # decide once per roll (levels draw randomness)
            self._plan_rolls = game.rolls
            self._plan_mask = players.choose_hold(self.coach, game)
            if self._plan_mask < 0:
                self._plan_box = players.choose_box(self.coach, game, self.options)
        mask = self._plan_mask
        if mask < 0:
            box = self._plan_box
            if self.cursor != box:
                self.cursor = box
                self._scroll_cursor()
                self.dirty = True
            else:
                self._score(box)
            return
        if mask != game.held:
            self._set_holds(mask)
        else:
            self._roll()

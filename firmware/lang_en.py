"""English: every text the handheld shows, and every other language's fallback; and the
code that resolves a language (lang.use) and lists the languages (codes), which is
loaded with English only while it runs.

One line a text, ``key = text``, in a string a part of the screens; ``|`` separates the
items of a list (a box's long and short name, the computer levels, the two texts of a
yes/no). Lines starting with ``#`` are notes. lang.py says how the texts are resolved;
tests/shared/test_lang_cases.py draws every text of every catalog on the screen that
shows it and fails on one that does not fit.
"""

import gc
import sys

from micropython import const

TEXTS = (
    # The boxes by id: long name|short name. The short one fits the turn list and the card
    # view (11 columns); the long one a line of its own (16). The Zoo card's animals and
    # combinations show as pictures: one name each, for the rules pages.
    # The bonuses, long|short (the short one beside a number of up to four digits).
    """
lang_name = English
aces = Aces|Aces
twos = Twos|Twos
threes = Threes|Threes
fours = Fours|Fours
fives = Fives|Fives
sixes = Sixes|Sixes
three_kind = Three of a kind|3 of a kind
four_kind = Four of a kind|4 of a kind
full_house = Full house|Full house
small_straight = Small straight|Sm straight
large_straight = Large straight|Lg straight
yahtzee = Yahtzee|Yahtzee
chance = Chance|Chance
monkey = Monkey
elephant = Elephant
giraffe = Giraffe
rhino = Rhino
bear = Bear
lion = Lion
three_same = Three the same
four_same = Four the same
all_different = All different
zoo_yahtzy = Zoo Yahtzy
yahtzee_bonus = Yahtzee bonus|Yahtzee+
upper_bonus = Upper bonus|Bonus
""",
    # The players: the seats' short names, the computer levels (human first).
    """
seats = P1|P2|P3|P4
kinds = Human|CPU optimal|CPU win|CPU good|CPU casual
human_cpu = Human|CPU
""",
    # The menu: a line's name, its value at the right.
    """
menu = Setup
start_game = Start game
challenge = Challenge
players = Players
card_line = Card
cards = standard|Zoo (kids)
joker = Joker
jokers = forced|in order|free|off
coach = Coach
coach_modes = off|hints|review
sound = Sound
brightness = Brightness
language = Language
how_to_play = How to play
records = Records
""",
    # Around a game.
    """
one_to_four = 1-4 players
who_starts = Who starts?
die = die
starts = starts!
tie_again = Tie: roll again
quit_game = Quit this game?
quit_keys = OK    = quit|other = play on
scored = scored
total = Total
ok_go_on = OK: go on
take_back = UP: take back
game_over = Game over
final_score = Final score
winner = Winner:
tie = Tie:
end_keys = OK: high scores|OK: menu
""",
    # The turn.
    """
roll = Roll
upper = Upper
no_rolls_left = No rolls left
all_held = All dice held
score_ask = Score this?|Score a zero?
total_then = Total then
score_keys = OK    = score|other = back
card = card
need = need
""",
    # Hints and reviews.
    # Why there are no hints (coach.py's reasons).
    """
hint = Hint
hint_moves = Most points|To win
hint_ok = OK = most points|OK = to win
other_move = UP/DOWN: other
score_now = Score now:|Score:
keep_then_roll = Keep, then roll:
ends_about = Ends about
menu_card = MENU: card
take_it = OK: take it
turn_review = turn review
best_play = Best play!
better_score = Best: score
right_away = (right away)
better_keep = Best: keep, roll
you_lost = You lost
lost_what = points|of win chance
no_table = No advice table
no_ram = Too little RAM
table_damaged = Table damaged
""",
    # Records.
    """
new_high_score = New high score!
place = Place
letter_keys = UP/DOWN: letter|OK: next
high_scores = High scores|Zoo top scores
next_page = OK: next page
none_yet = none yet
all_players = All players
who_keys = UP/DOWN: player
stats = Games|Scores|Average|Best|Yahtzees|Upper bonus
zoo_yahtzys = Zoo Yahtzys
fairness = Fair dice?
verdicts = Too few rolls|Looks fair|Maybe unfair|Unfair dice!
""",
    # The save layer's messages (ui/records_screens.py): a title of at most 16 characters,
    # then a text wrapped at spaces into at most 7 lines of 16, "~" starting a line; %d
    # and %s show the values the save layer gives (a why_ key words a reason).
    """
crash = Crash
reflash = Reflash needed
flash_full = Flash full
save_failed = Save failed
save_damaged = Save damaged
records_damaged = Records damaged
flash_repaired = Flash repaired
setup_damaged = Set-up damaged
battery_low = Battery low
saved_game = Saved game
continue_new = Continue|New game
saved_where = Round %d, %s
not_saved_full = Game not saved.~Play goes on; it~saves again when~there is room.
not_saved_io = Game not saved~(%s).~Play goes on.~See README:~Damaged flash.
not_saved = Game not saved~(%s).~Play goes on.
records_not_saved = Not saved:~%s.~The game stays~saved; the next~boot keeps them.
score_not_saved = High score not~saved (%s).~The game stays~saved; the next~boot asks again.
battery_text = %d.%02d V~%s~Charge or change~the batteries.~Any key: go on
now_game_saved = Game saved.
now_game_not_saved = Game NOT saved.
battery_idle = %d.%02d V~Charge or change~the batteries.~Any key: go on
records_text = %s:~%s,~%s,~%s
now_kept_bad = kept as .bad
now_not_moved = not moved aside
now_older_copy = older copy used.
now_afresh = started afresh.
repaired_text = %s~was in the way:~kept as .bad.~Saving works.
setup_text = Menu set-up:~%s.~Defaults used.
save_damaged_text = Saved game:~%s.~%s~New game.
now_kept_bad_line = Kept as .bad.
now_not_moved_line = Not moved aside.
inconsistent_text = Saved game is~inconsistent.~Kept as .bad.~New game.
why_truncated = truncated
why_corrupt = corrupt
why_version = unknown version
why_bad_contents = bad contents
why_full = full
why_io_error = io error
why_unsavable = unsavable
why_no_memory = no memory
""",
    # The rules pages (the menu's How to play; ui/pages.py): each text wrapped to the
    # screen's 16 columns as it is drawn (a "|" starts a new line), at most 255
    # characters; rules_title at most 9 (the battery's figure shows beside it).
    """
rules_title = Rules
rules_turn = Roll up to 3 times. A die's button keeps it; ROLL rolls the rest. Then pick a box (UP, DOWN) and press OK twice. Once the card is full, the most points wins.
rules_upper = Aces to Sixes: add the dice of that number. 63 or more in these six boxes: 35 bonus points.
rules_lower = Three of a kind, Four of a kind, Chance: add all dice. Full house (3 + 2 the same): 25. Small straight (4 in a row): 30. Large straight (5 in a row): 40. Yahtzee (5 the same): 50.
rules_more = Another Yahtzee: 100 bonus points; the Joker line says where it goes. Nothing fits: a box scores 0.
rules_zoo = Each animal: 1 point a die.
rules_zoo_bonus = Animals together 18 or more: 10 bonus points.
""",
)


# The resolver (lang.py says what a language resolves to). While it runs, T's entries hold
# where each text is in its catalog: part << _PART | start << _SPAN | end, in characters
# of a part of its catalog (of up to 4,095), _CHOSEN set when it is the chosen language's.
# The catalogs are read line by line and no dict of texts is made, so the heap it needs
# at most is the two catalogs' strings and the blob.
_SPAN = const(12)
_PLACE = const(0xFFF)
_PART = const(24)
_CHOSEN = const(1 << 28)
_COUNTED = const(1 << 29)  # its length is in the blob's size (a key given twice: once)


def resolve(want):
    """``(blob, code)``: the texts of language ``want``, English where it has none, as
    glyph numbers, with a handle on lang.T for each key; English when ``want`` has no
    catalog on this device (make flash LANG=...)."""
    import lang

    T = lang.T
    english = _parts(TEXTS)
    for key, span in _lines(english):
        setattr(T, key, span)
    code = lang.ENGLISH
    chosen = None
    if want != code:
        name = "lang_" + want
        try:
            chosen = _parts(__import__(name).TEXTS)
            code = want
        except ImportError:
            pass
        finally:
            if name in sys.modules:
                del sys.modules[name]
    if chosen is not None:
        for key, span in _lines(chosen):
            if hasattr(T, key):
                setattr(T, key, _CHOSEN | span)
    size = 0
    for key, _span in _lines(english):
        span = getattr(T, key)
        if not span & _COUNTED:
            size += (span & _PLACE) - (span >> _SPAN & _PLACE)
            setattr(T, key, span | _COUNTED)
    gc.collect()  # the lines' garbage out of the way of the blob
    blob = bytearray(size)
    at = 0
    glyph = lang.glyph
    for key, _span in _lines(english):
        span = getattr(T, key)
        if not span & _COUNTED:
            continue  # resolved already: the key's second line
        start, end = span >> _SPAN & _PLACE, span & _PLACE
        part = (chosen if span & _CHOSEN else english)[span >> _PART & 0xF]
        for char in part[start:end]:
            blob[at] = glyph(char)
            at += 1
        setattr(T, key, (at - end + start) << 8 | (end - start))
    return blob, code


def _parts(texts):
    return (texts,) if type(texts) is str else texts  # a small catalog: one string


def _lines(source):
    """``(key, span)`` of each ``key = text`` line of a catalog's parts, the text's place
    (a later line with the same key wins, as it is set later)."""
    for part in range(len(source)):
        lines = source[part]
        start = 0
        while start < len(lines):
            end = lines.find("\n", start)
            if end < 0:
                end = len(lines)
            eq = lines.find(" = ", start, end)
            if eq > start and lines[start] != "#":
                yield lines[start:eq], part << _PART | (eq + 3) << _SPAN | end
            start = end + 1


def codes():
    """The languages on this device, English first, then by code: every catalog module
    (``lang_<code>.py`` or ``.mpy``, ``is_code``) in a folder on the import path."""
    import os

    found = []
    for folder in sys.path:
        try:
            files = os.listdir(folder or ".")
        except OSError:
            continue
        for file in files:
            dot = file.find(".")
            name = file[5:dot]
            if file.startswith("lang_") and file[dot:] in (".py", ".mpy") and is_code(name) and name not in found:
                found.append(name)
    found.sort()
    if "en" in found:
        found.remove("en")
    return ["en"] + found


def next_code(current, step=1):
    """The language after ``current`` in ``codes()`` (wrapping; ``step`` -1: before)."""
    found = codes()
    at = found.index(current) if current in found else 0
    return found[(at + step) % len(found)]


def is_code(name):
    """A language's code: two or three lower-case letters (``nl``, ``de``)."""
    if not 2 <= len(name) <= 3:
        return False
    for char in name:
        if not "a" <= char <= "z":
            return False
    return True

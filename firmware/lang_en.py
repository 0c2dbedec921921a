"""English: every text the handheld shows, and every other language's fallback.

One line a text, ``key = text``; ``|`` separates the items of a list (a box's long and
short name, the computer levels, the two texts of a yes/no). Lines starting with ``#``
are notes. lang.py says how the texts are resolved; tests/shared/test_lang_cases.py
draws every text of every catalog on the screen that shows it and fails on one that
does not fit.
"""

TEXTS = """
lang_name = English
# The boxes by id: long name|short name. The short one fits the turn list and the card
# view (11 columns); the long one a line of its own (16).
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
fish = Fish|Fish
bird = Bird|Bird
cat = Cat|Cat
dog = Dog|Dog
horse = Horse|Horse
elephant = Elephant|Elephant
three_same = Three the same|3 the same
four_same = Four the same|4 the same
all_different = All different|5 different
zoo_yahtzy = Zoo Yahtzy|Zoo Yahtzy
# The bonuses, long|short (the short one beside a number of up to four digits).
yahtzee_bonus = Yahtzee bonus|Yahtzee+
upper_bonus = Upper bonus|Bonus
# The players: the seats' short names, the computer levels (human first).
seats = P1|P2|P3|P4
kinds = Human|CPU optimal|CPU win|CPU good|CPU casual
human_cpu = Human|CPU
# The menu: a line's name, its value at the right.
menu = Setup
start_game = Start game
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
records = Records
# Around a game.
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
game_over = Game over
final_score = Final score
winner = Winner:
tie = Tie:
end_keys = OK: high scores|OK: menu
# The turn.
roll = Roll
upper = Upper
no_rolls_left = No rolls left
all_held = All dice held
score_ask = Score this?|Score a zero?
total_then = Total then
score_keys = OK    = score|other = back
card = card
need = need
# Hints and reviews.
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
# Why there are no hints (coach.py's reasons).
no_table = No advice table
no_ram = Too little RAM
table_damaged = Table damaged
# Records.
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
"""

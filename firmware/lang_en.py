"""English: every text the handheld shows, and every other language's fallback.

One line a text, ``key = text``; ``|`` separates the items of a list (a box's long and
short name, the computer levels). Lines starting with ``#`` are notes. lang.py says how
the texts are resolved; tests/shared/test_lang_cases.py draws every text of every
catalog on the screen that shows it.
"""

TEXTS = """
# The boxes by id: long name|short name (the short one fits the turn list and the card view).
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
# Names: the seats, the computer levels (menu.KIND_NAMES order), the Zoo animals.
seats = P1|P2|P3|P4
kinds = Human|CPU optimal|CPU win|CPU good|CPU casual
human = Human
computer = CPU
# The menu.
setup = Setup
start_game = Start game
players = Players
joker = Joker
jokers = forced|ordered|free|none|Zoo (kids)
rules = Rules
yahtzee_bonus = Y.bonus
coach = Coach
coach_modes = off|hint|turn
sound = Sound
brightness = LEDs
records = Records
on_off = off|on
# Around a game.
title =     YAHTZEE
one_to_four = 1-4 players
who_starts = Who starts?
die = die
starts = starts!
tie_again = Tie: roll again
quit_game = Quit this game?
ok_quit = OK    = quit
other_play_on = other = play on
scored = scored
total = Total
ok_go_on = OK: go on
game_over = Game over
final_score = Final score
winner = Winner:
tie = Tie:
ok_high_scores = OK: high scores
ok_menu = OK: menu
yahtzee_bonus_short = Y.bonus
upper_bonus = Up.bonus
# The turn.
roll = Roll
upper = Upper
no_rolls_left = No rolls left
all_held = All dice held
score_zero = Score a zero?
score_this = Score this?
total_then = Total then
ok_score = OK    = score
other_back = other = back
# The card view.
card = card
bonus = Bonus
need = need
# Hints and reviews.
hint = Hint
max_score = Max score
to_win = To win
ok_to_win = OK = to win
ok_max_score = OK = max score
hint_keys_two = ^v:other M:card
score_now = Score now:
score = Score:
keep_then_roll = Keep, then roll:
expect = Expect
hint_keys = OK:take M:card
turn_review = turn review
best_play = Best play!
best = Best:
best_score_now = (score now)
best_keep = Best: keep, roll
you_lost = You lost
points_of_chance = pp
# Why there are no hints (coach.py's reasons).
no_table = No strat. table
no_ram = No RAM: simple
table_damaged = Table damaged
# Records.
new_high_score = New high score!
place = Place
letter_keys = UP/DOWN letter
ok_next = OK next
high_scores = High scores
zoo_high_scores = Zoo high scores
pages_keys = OK next MENU end
none_yet = none yet
all_players = All players
who_keys = UP/DOWN who  OK>
games_played = Games played
player_games = Player games
average = Average
best_total = Best
yahtzees = Yahtzees
zoo_yahtzys = Zoo Yahtzys
upper_bonuses = Up.bonus
fairness = Dice  chi2
verdicts = too few rolls|looks fair|doubtful (5%)|unfair (1%)
"""

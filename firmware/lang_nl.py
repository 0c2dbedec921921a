"""Nederlands (Dutch): the handheld's texts; English (lang_en.py) fills in any key that is
missing. The box names are those of the Dutch rule pages (Enen .. Kans); the format is
lang.py's."""

TEXTS = (
    """
lang_name = Nederlands
aces = Enen|Enen
twos = Tweeën|Tweeën
threes = Drieën|Drieën
fours = Vieren|Vieren
fives = Vijven|Vijven
sixes = Zessen|Zessen
three_kind = Drie gelijke|3 gelijke
four_kind = Vier gelijke|4 gelijke
full_house = Full house|Full house
small_straight = Kleine straat|Kl. straat
large_straight = Grote straat|Gr. straat
yahtzee = Yahtzee|Yahtzee
chance = Kans|Kans
fish = Vis|Vis
bird = Vogel|Vogel
cat = Kat|Kat
dog = Hond|Hond
horse = Paard|Paard
elephant = Olifant|Olifant
three_same = Drie dezelfde|3 dezelfde
four_same = Vier dezelfde|4 dezelfde
all_different = Allemaal anders|5 anders
zoo_yahtzy = Zoo Yahtzy|Zoo Yahtzy
yahtzee_bonus = Yahtzee-bonus|Yahtzee+
upper_bonus = Bonus boven|Bonus
""",
    # S: speler.
    """
seats = S1|S2|S3|S4
kinds = Mens|CPU optimaal|CPU winnaar|CPU goed|CPU losjes
human_cpu = Mens|CPU
""",
    """
menu = Menu
start_game = Start het spel
challenge = Uitdaging
players = Spelers
card_line = Kaart
cards = standaard|Zoo Yahtzy
joker = Joker
jokers = verplicht|volgorde|vrij|uit
coach = Coach
coach_modes = uit|tips|terugblik
sound = Geluid
brightness = Helderheid
language = Taal
records = Records
""",
    """
one_to_four = 1-4 spelers
who_starts = Wie begint?
die = steen
starts = begint!
tie_again = Gelijk: nog eens
quit_game = Spel stoppen?
quit_keys = OK    = stoppen|ander = verder
scored = scoorde
total = Totaal
ok_go_on = OK: verder
take_back = UP: terugnemen
game_over = Einde spel
final_score = Eindscore
winner = Winnaar:
tie = Gelijk:
end_keys = OK: topscores|OK: menu
""",
    """
roll = Worp
upper = Boven
no_rolls_left = Geen worp meer
all_held = Alles ligt vast
score_ask = Dit invullen?|Nul invullen?
total_then = Totaal dan
score_keys = OK    = vul in|ander = terug
card = kaart
need = nog
""",
    """
hint = Tip
hint_moves = Veel punten|Om te winnen
hint_ok = OK = veel punten|OK = winnen
other_move = UP/DOWN: andere
score_now = Nu invullen:|Invullen:
keep_then_roll = Houd, gooi dan:
ends_about = Eindigt op
menu_card = MENU: kaart
take_it = OK: overnemen
turn_review = terugblik
best_play = Beste zet!
better_score = Beter: vul in
right_away = (meteen)
better_keep = Beter: houd vast
you_lost = Je verloor
lost_what = punten|van je winkans
no_table = Geen tipstabel
no_ram = Geheugen vol
table_damaged = Tabel beschadigd
""",
    """
new_high_score = Nieuwe topscore!
place = Plaats
letter_keys = UP/DOWN: letter|OK: volgende
high_scores = Topscores|Zoo-topscores
next_page = OK: volgende
none_yet = nog geen
all_players = Alle spelers
who_keys = UP/DOWN: speler
stats = Spellen|Scores|Gemiddeld|Beste|Yahtzees|Bonus boven
zoo_yahtzys = Zoo Yahtzy's
fairness = Eerlijke stenen?
verdicts = Te weinig worpen|Lijkt eerlijk|Twijfelachtig|Oneerlijk!
""",
)

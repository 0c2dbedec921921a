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
monkey = Aap
elephant = Olifant
giraffe = Giraf
rhino = Neushoorn
bear = Beer
lion = Leeuw
three_same = Drie dezelfde
four_same = Vier dezelfde
all_different = Allemaal anders
zoo_yahtzy = Zoo Yahtzy
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
how_to_play = Spelregels
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
    """
crash = Vastgelopen
reflash = Opnieuw flashen
flash_full = Geheugen vol
save_failed = Niet bewaard
save_damaged = Spel beschadigd
records_damaged = Records kapot
flash_repaired = Opslag hersteld
setup_damaged = Instelling kapot
battery_low = Batterij zwak
saved_game = Bewaard spel
continue_new = Verder spelen|Nieuw spel
saved_where = Ronde %d, %s
not_saved_full = Spel niet bewaard.~Het spel gaat~door; het wordt~bewaard als er~weer plek is.
not_saved_io = Niet bewaard~(%s).~Het spel gaat~door. Zie README:~Damaged flash.
not_saved = Spel niet bewaard~(%s).~Het spel gaat~door.
records_not_saved = Niet bewaard:~%s.~Het spel blijft~bewaard; bij de~volgende start~lukt het alsnog.
score_not_saved = Topscore niet~bewaard (%s).~De volgende~start vraagt~het weer.
battery_text = %d.%02d V~%s~Laad of vervang~de batterijen.~Knop: verder
battery_idle = %d.%02d V~Laad of vervang~de batterijen.~Knop: verder
now_game_saved = Spel bewaard.
now_game_not_saved = Spel NIET bewaard.
records_text = %s:~%s,~%s,~%s
now_kept_bad = bewaard als .bad
now_not_moved = niet verplaatst
now_older_copy = oudere kopie.
now_afresh = opnieuw begonnen.
repaired_text = %s~zat in de weg:~bewaard als .bad.~Opslaan werkt.
setup_text = Menu-instelling:~%s.~Standaard gebruikt.
save_damaged_text = Bewaard spel:~%s.~%s~Nieuw spel.
now_kept_bad_line = Bewaard als .bad.
now_not_moved_line = Niet verplaatst.
inconsistent_text = Bewaard spel~klopt niet.~Bewaard als .bad.~Nieuw spel.
why_truncated = afgebroken
why_corrupt = beschadigd
why_version = onbekende versie
why_bad_contents = foute inhoud
why_full = vol
why_io_error = schrijffout
why_unsavable = te groot
why_no_memory = geen geheugen
""",
    """
rules_title = Regels
rules_turn = Gooi tot 3 keer. De knop onder een steen houdt hem vast; ROLL gooit de rest. Kies dan een vak (UP, DOWN) en druk twee keer op OK. Is de kaart vol, dan wint wie de meeste punten heeft.
rules_upper = Enen tot Zessen: tel de stenen met dat getal op. 63 of meer in deze zes vakken: 35 bonuspunten.
rules_lower = Drie gelijke, Vier gelijke, Kans: tel alle stenen op. Full house (3 + 2 dezelfde): 25. Kleine straat (4 op een rij): 30. Grote straat (5 op een rij): 40. Yahtzee (5 dezelfde): 50.
rules_more = Nog een Yahtzee: 100 bonuspunten; de regel Joker zegt waar hij mag. Past niets: een vak krijgt 0.
rules_zoo = Elk dier: 1 punt per steen.
rules_zoo_bonus = Dieren samen 18 of meer: 10 bonuspunten.
""",
)

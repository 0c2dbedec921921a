"""Deutsch (German): the handheld's texts; English (lang_en.py) fills in any key that is
missing. The box names are those of the German rule page (Einsen .. Chance); the format
is lang.py's."""

TEXTS = (
    """
lang_name = Deutsch
aces = Einsen|Einsen
twos = Zweien|Zweien
threes = Dreien|Dreien
fours = Vieren|Vieren
fives = Fünfen|Fünfen
sixes = Sechsen|Sechsen
three_kind = Dreierpasch|Dreierpasch
four_kind = Viererpasch|Viererpasch
full_house = Full House|Full House
small_straight = Kleine Straße|Kl. Straße
large_straight = Große Straße|Gr. Straße
yahtzee = Yahtzee|Yahtzee
chance = Chance|Chance
monkey = Affe
elephant = Elefant
giraffe = Giraffe
rhino = Nashorn
bear = Bär
lion = Löwe
three_same = Drei gleiche
four_same = Vier gleiche
all_different = Alle anders
zoo_yahtzy = Zoo Yahtzy
yahtzee_bonus = Yahtzee-Bonus|Yahtzee+
upper_bonus = Bonus oben|Bonus
""",
    # S: Spieler.
    """
seats = S1|S2|S3|S4
kinds = Mensch|CPU optimal|CPU Sieger|CPU gut|CPU locker
human_cpu = Mensch|CPU
""",
    """
menu = Menü
start_game = Spiel starten
challenge = Duell
players = Spieler
card_line = Karte
cards = Standard|Kinder-Zoo
joker = Joker
jokers = Pflicht|geordnet|frei|aus
coach = Hilfe
coach_modes = aus|Tipps|Rückblick
sound = Ton
brightness = Helligkeit
language = Sprache
how_to_play = Spielregeln
records = Rekorde
""",
    """
one_to_four = 1-4 Spieler
who_starts = Wer beginnt?
die = Würfel
starts = beginnt!
tie_again = Gleich: nochmal
quit_game = Spiel beenden?
quit_keys = OK    = beenden|sonst = weiter
scored = notiert
total = Summe
ok_go_on = OK: weiter
take_back = UP: zurücknehmen
game_over = Spielende
final_score = Endstand
winner = Sieger:
tie = Remis:
end_keys = OK: Bestenliste|OK: Menü
""",
    """
roll = Wurf
upper = Oben
no_rolls_left = Kein Wurf mehr
all_held = Alle gehalten
score_ask = Eintragen?|Null eintragen?
total_then = Summe dann
score_keys = OK = eintragen|sonst = zurück
card = Karte
need = noch
""",
    """
hint = Tipp
hint_moves = Viele Punkte|Zum Sieg
hint_ok = OK = Punkte|OK = zum Sieg
other_move = UP/DOWN: andere
score_now = Jetzt eintragen:|Eintragen:
keep_then_roll = Halten, würfeln:
ends_about = Ende etwa
menu_card = MENU: Karte
take_it = OK: übernehmen
turn_review = Rückblick
best_play = Bester Zug!
better_score = Besser: notieren
right_away = (sofort)
better_keep = Besser: halten
you_lost = Verloren
lost_what = Punkte|Siegchance
no_table = Ohne Tipptabelle
no_ram = Speicher voll
table_damaged = Tabelle defekt
""",
    """
new_high_score = Neuer Rekord!
place = Platz
letter_keys = UP/DOWN: Zeichen|OK: weiter
high_scores = Bestenliste|Zoo-Rekorde
next_page = OK: weiter
none_yet = noch keine
all_players = Alle Spieler
who_keys = UP/DOWN: Spieler
stats = Spiele|Ergebnisse|Schnitt|Bestes|Yahtzees|Bonus oben
zoo_yahtzys = Zoo Yahtzys
fairness = Faire Würfel?
verdicts = Zu wenig Würfe|Wirkt fair|Fraglich|Unfair!
""",
    """
crash = Absturz
reflash = Neu flashen
flash_full = Speicher voll
save_failed = Nicht gesichert
save_damaged = Spiel beschädigt
records_damaged = Rekorde defekt
flash_repaired = Repariert
setup_damaged = Setup defekt
battery_low = Batterie schwach
saved_game = Spielstand
continue_new = Weiterspielen|Neues Spiel
saved_where = Runde %d, %s
not_saved_full = Nicht gespeichert.~Es geht weiter;~gespeichert wird,~wenn Platz ist.
not_saved_io = Nicht gespeichert~(%s).~Es geht weiter.~Siehe README:~Damaged flash.
not_saved = Nicht gespeichert~(%s).~Es geht weiter.
records_not_saved = Nicht gesichert:~%s.~Das Spiel bleibt~gesichert; der~nächste Start~holt es nach.
score_not_saved = Rekord nicht~gesichert (%s).~Der nächste~Start fragt~noch mal.
battery_text = %d.%02d V~%s~Batterien laden~oder tauschen.~Taste: weiter
battery_idle = %d.%02d V~Batterien laden~oder tauschen.~Taste: weiter
now_game_saved = Spiel gespeichert.
now_game_not_saved = Spiel NICHT gespeichert.
records_text = %s:~%s,~%s,~%s
now_kept_bad = als .bad behalten
now_not_moved = nicht verschoben
now_older_copy = ältere Kopie genutzt.
now_afresh = neu angefangen.
repaired_text = %s~war im Weg:~als .bad behalten.~Speichern geht.
setup_text = Einstellungen:~%s.~Standard genutzt.
save_damaged_text = Gespeichertes~Spiel: %s.~%s~Neues Spiel.
now_kept_bad_line = Als .bad behalten.
now_not_moved_line = Nicht verschoben.
inconsistent_text = Gespeichertes~Spiel passt~nicht zusammen.~Als .bad behalten.~Neues Spiel.
why_truncated = abgeschnitten
why_corrupt = beschädigt
why_version = unbekannte Version
why_bad_contents = falscher Inhalt
why_full = voll
why_io_error = Schreibfehler
why_unsavable = zu groß
why_no_memory = kein Speicher
""",
    """
rules_title = Regeln
rules_turn = Bis zu 3-mal würfeln. Die Taste unter einem Würfel hält ihn; ROLL würfelt den Rest. Dann ein Feld wählen (UP, DOWN) und zweimal OK drücken. Ist die Karte voll, gewinnt, wer die meisten Punkte hat.
rules_upper = Einsen bis Sechsen: die Würfel dieser Zahl zusammenzählen. 63 oder mehr in diesen sechs Feldern: 35 Bonuspunkte.
rules_lower = Dreierpasch (3 gleiche), Viererpasch (4 gleiche), Chance: alle Augen zählen. Full House (3 + 2 gleiche): 25. Kleine Straße (4 in Folge): 30. Große Straße (5 in Folge): 40. Yahtzee (5 gleiche): 50.
rules_more = Noch ein Yahtzee: 100 Bonuspunkte; die Zeile Joker sagt, wohin er darf. Passt nichts: ein Feld bekommt 0.
rules_zoo = Jedes Tier: 1 Punkt pro Würfel.
rules_zoo_bonus = Tiere zusammen 18 oder mehr: 10 Bonuspunkte.
""",
)

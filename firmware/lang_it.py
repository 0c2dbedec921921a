"""Italiano (Italian): the handheld's texts; English (lang_en.py) fills in any key that is
missing. The box names are those of the Italian rule page (Uno .. Chance); the format is
lang.py's."""

TEXTS = (
    """
lang_name = Italiano
aces = Uno|Uno
twos = Due|Due
threes = Tre|Tre
fours = Quattro|Quattro
fives = Cinque|Cinque
sixes = Sei|Sei
three_kind = Tris|Tris
four_kind = Poker|Poker
full_house = Full|Full
small_straight = Scala piccola|Sc. piccola
large_straight = Scala grande|Sc. grande
yahtzee = Yahtzee|Yahtzee
chance = Chance|Chance
monkey = Scimmia
elephant = Elefante
giraffe = Giraffa
rhino = Rinoceronte
bear = Orso
lion = Leone
three_same = Tre uguali
four_same = Quattro uguali
all_different = Tutti diversi
zoo_yahtzy = Zoo Yahtzy
yahtzee_bonus = Bonus Yahtzee|Yahtzee+
upper_bonus = Bonus sopra|Bonus
""",
    # G: giocatore.
    """
seats = G1|G2|G3|G4
kinds = Umano|CPU ottimo|CPU vincente|CPU bravo|CPU facile
human_cpu = Umano|CPU
""",
    """
menu = Menu
start_game = Inizia partita
challenge = Sfida
players = Giocatori
card_line = Scheda
cards = standard|Zoo bimbi
joker = Jolly
jokers = obbligato|in ordine|libero|no
coach = Aiuto
coach_modes = no|consigli|revisione
sound = Suono
brightness = Luminosità
language = Lingua
how_to_play = Come si gioca
records = Record
""",
    """
one_to_four = 1-4 giocatori
who_starts = Chi inizia?
die = dado
starts = inizia!
tie_again = Pari: di nuovo
quit_game = Chiudi partita?
quit_keys = OK    = esci|altro = gioca
scored = segna
total = Totale
ok_go_on = OK: avanti
take_back = UP: annulla
game_over = Fine partita
final_score = Punteggio
winner = Vince:
tie = Pari:
end_keys = OK: record|OK: menu
""",
    """
roll = Tiro
upper = Sopra
no_rolls_left = Niente più tiri
all_held = Tutti tenuti
score_ask = Segnare questo?|Segnare zero?
total_then = Totale poi
score_keys = OK    = segna|altro = torna
card = punti
need = ancora
""",
    """
hint = Idea
hint_moves = Più punti|Per vincere
hint_ok = OK = più punti|OK = per vincere
other_move = UP/DOWN: l'altra
score_now = Segna ora:|Segna:
keep_then_roll = Tieni, poi tira:
ends_about = Fine circa
menu_card = MENU: scheda
take_it = OK: accetta
turn_review = revisione
best_play = Mossa perfetta!
better_score = Meglio: segna
right_away = (subito)
better_keep = Meglio: tieni
you_lost = Hai perso
lost_what = punti|di possibilità
no_table = Senza tabella
no_ram = Memoria piena
table_damaged = Tabella rovinata
""",
    """
new_high_score = Nuovo record!
place = Posto
letter_keys = UP/DOWN: lettera|OK: avanti
high_scores = Record|Record Zoo
next_page = OK: avanti
none_yet = ancora nessuno
all_players = Tutti
who_keys = UP/DOWN: chi
stats = Partite|Punteggi|Media|Migliore|Yahtzee|Bonus sopra
zoo_yahtzys = Zoo Yahtzy
fairness = Dadi onesti?
verdicts = Pochi lanci|Sembra onesto|Dubbio|Truccati!
""",
    """
crash = Errore grave
reflash = Riflashare
flash_full = Memoria piena
save_failed = Non salvato
save_damaged = Partita rovinata
records_damaged = Record rovinati
flash_repaired = Memoria riparata
setup_damaged = Menu rovinato
battery_low = Batteria scarica
saved_game = Partita salvata
continue_new = Continua|Nuova partita
saved_where = Turno %d, %s
not_saved_full = Non salvata.~Si continua; si~salva di nuovo~quando c'è posto.
not_saved_io = Non salvata~(%s).~Si continua.~Vedi README:~Damaged flash.
not_saved = Non salvata~(%s).~Si continua.
records_not_saved = Non salvati:~%s.~La partita resta~salvata; il~prossimo avvio~li salva.
score_not_saved = Record non~salvato (%s).~Il prossimo~avvio lo richiede.
battery_text = %d.%02d V~%s~Ricarica o cambia~le batterie.~Un tasto: avanti
battery_idle = %d.%02d V~Ricarica o cambia~le batterie.~Un tasto: avanti
now_game_saved = Partita salvata.
now_game_not_saved = Partita NON salvata.
records_text = %s:~%s,~%s,~%s
now_kept_bad = tenuto come .bad
now_not_moved = non spostato
now_older_copy = copia vecchia.
now_afresh = ripartito da zero.
repaired_text = %s~era d'intralcio:~tenuto come .bad.~Il salvataggio va.
setup_text = Impostazioni:~%s.~Si usano quelle~di base.
save_damaged_text = Partita salvata:~%s.~%s~Nuova partita.
now_kept_bad_line = Tenuta come .bad.
now_not_moved_line = Non spostata.
inconsistent_text = Partita salvata~incoerente.~Tenuta come .bad.~Nuova partita.
why_truncated = troncato
why_corrupt = rovinato
why_version = versione ignota
why_bad_contents = contenuto errato
why_full = piena
why_io_error = errore di scrittura
why_unsavable = troppo grande
why_no_memory = memoria esaurita
""",
    """
rules_title = Regole
rules_turn = Tira fino a 3 volte. Il tasto sotto un dado lo tiene; ROLL tira gli altri. Poi scegli una casella (UP, DOWN) e premi OK due volte. A scheda piena vince chi ha più punti.
rules_upper = Da Uno a Sei: somma i dadi di quel numero. 63 o più in queste sei caselle: 35 punti bonus.
rules_lower = Tris (3 uguali), Poker (4 uguali), Chance: somma tutti i dadi. Full (3 + 2 uguali): 25. Scala piccola (4 in fila): 30. Scala grande (5 in fila): 40. Yahtzee (5 uguali): 50.
rules_more = Un altro Yahtzee: 100 punti bonus; la riga Jolly dice dove va. Se niente va bene: una casella prende 0.
rules_zoo = Ogni animale: 1 punto per dado.
rules_zoo_bonus = Animali insieme 18 o più: 10 punti bonus.
""",
)

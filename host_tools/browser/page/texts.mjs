// Every text the page itself shows or says (the firmware draws its own on the OLED), in
// one table keyed by language. English is complete; another language falls back to it
// key by key. {0}, {1} ... are filled in by t().
export const TEXTS = {
  en: {
    today: "Today's challenge: {0}",
    challengeOn: "Challenge {0}: the games you start in the menu roll this code's dice, the same for everyone who plays it.",
    challengeBad: "\"{0}\" is not a challenge code (four letters A-Z): the dice are random.",
    share: "My challenge {0}: {1} points. Play the same dice:",
    language: "Language",
    starting: "Starting MicroPython...",
    ready: "Ready. Your records stay in this browser.",
    readyNoTable: "Ready (no strategy table in this build: hints off).",
    keys: "Keys: 1-5 hold, Space roll, \u2191/\u2193, Enter OK, M menu. To quit a game, hold M (or MENU) until it asks.",
    download: "Download records",
    upload: "Upload records",
    playHere: "Play here",
    hold: "HOLD",
    holdDie: "hold die {0}",
    roll: "ROLL", up: "UP", down: "DOWN", ok: "OK", menu: "MENU",
    oledLabel: "the handheld's screen",
    selected: "{0} (selected)",
    diceLabel: "the five dice",
    dice: "Dice: {0}.",
    held: "Held: {0}.",
    noneHeld: "None held.",
    blank: "blank",
    otherTab: "This game is open in another tab, which keeps its saves. Press Play here to play in this tab instead (the other one stops).",
    movedAway: "This game is now played in another tab, which keeps its saves. Press Play here to take it back.",
    saveFull: "Not saved: this browser's storage for the site is full. Free some space (the browser's settings, site data), and the game saves again. The game goes on.",
    saveRemoved: "The stored game data was removed (by the browser or another page); everything is saved again now.",
    saveNewer: "Not saved: a newer version of the game is open in another tab. Reload this page to go on saving.",
    saveBlocked: "Not saved: this browser does not let the site keep data (site data or cookies are blocked for it). Allow them for this site to keep your games and records. The game goes on.",
    saveFailed: "Not saved: the browser's storage failed ({0}). The game goes on; reload the page if it keeps failing.",
    saveOk: "Saving works again.",
    refused: "Some stored data was damaged and left out ({0}); the rest was kept.",
    swBlocked: "This browser does not let the site run its service worker, which the handheld needs: site data (cookies) are blocked for {0}. Allow site data for this site in the browser's settings, then reload.",
    swMissing: "This browser has no service worker support, which the handheld needs. Open the page in a current browser (Chrome, Edge, Firefox, Safari).",
    plainHttp: "This page came over plain http from {0}. Browsers run the service worker the handheld needs only on https pages or on this computer's own address. Open it over https, or as http://localhost:{1}/ on the computer that serves it.",
    swFailed: "The site's service worker did not start ({0}). Reload the page; if it keeps failing, allow site data for this site.",
    newBuild: "A new version of the game was published: reload the page to play it.",
    stale: "A new version of the game was published while this page loaded: reloading.",
    stopped: "The firmware stopped: {0}. Reload to restart.",
    downloaded: "Records downloaded (the JSON of python -m host_tools pull --json).",
    downloadFailed: "Download failed: {0}",
    uploaded: "Records uploaded ({0}); the handheld restarted with them.",
    uploadRefused: "Upload refused, nothing changed: {0}",
    uploadTooBig: "the file is {0} KiB; records are at most 1024 KiB",
    uploadNotOwner: "the game is played in another tab: press Play here first",
  },
  nl: {
    today: "Uitdaging van vandaag: {0}",
    challengeOn: "Uitdaging {0}: de spellen die je in het menu start gooien de stenen van deze code, voor iedereen dezelfde.",
    challengeBad: "\"{0}\" is geen uitdagingscode (vier letters A-Z): de stenen zijn willekeurig.",
    share: "Mijn uitdaging {0}: {1} punten. Gooi dezelfde stenen:",
    language: "Taal",
    starting: "MicroPython start...",
    ready: "Klaar. Je records blijven in deze browser.",
    readyNoTable: "Klaar (geen strategietabel in deze versie: geen tips).",
    keys: "Toetsen: 1-5 vasthouden, spatie gooien, \u2191/\u2193, Enter OK, M menu. Een spel stoppen: houd M (of MENU) ingedrukt tot het spel het vraagt.",
    download: "Records downloaden",
    upload: "Records uploaden",
    playHere: "Speel hier",
    hold: "VAST",
    holdDie: "dobbelsteen {0} vasthouden",
    roll: "GOOI", up: "OP", down: "NEER", ok: "OK", menu: "MENU",
    oledLabel: "het scherm van het spel",
    selected: "{0} (gekozen)",
    diceLabel: "de vijf dobbelstenen",
    dice: "Dobbelstenen: {0}.",
    held: "Vast: {0}.",
    noneHeld: "Geen vast.",
    blank: "leeg",
    otherTab: "Dit spel is open in een ander tabblad, dat de opslag bewaart. Druk op Speel hier om in dit tabblad te spelen (het andere stopt).",
    movedAway: "Dit spel wordt nu in een ander tabblad gespeeld. Druk op Speel hier om het terug te nemen.",
    saveFull: "Niet opgeslagen: de opslag van deze browser is vol. Maak ruimte vrij, dan wordt er weer opgeslagen. Het spel gaat door.",
    saveOk: "Opslaan werkt weer.",
    newBuild: "Er is een nieuwe versie van het spel: laad de pagina opnieuw om die te spelen.",
  },
  de: {
    today: "Duell des Tages: {0}",
    challengeOn: "Duell {0}: Die Spiele, die du im Men\u00fc startest, w\u00fcrfeln die W\u00fcrfel dieses Codes, f\u00fcr alle gleich.",
    challengeBad: "\"{0}\" ist kein Duell-Code (vier Buchstaben A-Z): die W\u00fcrfel sind zuf\u00e4llig.",
    share: "Mein Duell {0}: {1} Punkte. W\u00fcrfle dieselben W\u00fcrfel:",
    language: "Sprache",
    starting: "MicroPython startet...",
    ready: "Bereit. Deine Rekorde bleiben in diesem Browser.",
    readyNoTable: "Bereit (keine Strategietabelle in dieser Version: keine Tipps).",
    keys: "Tasten: 1-5 halten, Leertaste w\u00fcrfeln, \u2191/\u2193, Enter OK, M Men\u00fc. Ein Spiel beenden: M (oder MEN\u00dc) gedr\u00fcckt halten, bis die Frage kommt.",
    download: "Rekorde herunterladen",
    upload: "Rekorde hochladen",
    playHere: "Hier spielen",
    hold: "HALTEN",
    holdDie: "W\u00fcrfel {0} halten",
    roll: "W\u00dcRFELN", up: "HOCH", down: "RUNTER", ok: "OK", menu: "MEN\u00dc",
    oledLabel: "der Bildschirm des Spiels",
    selected: "{0} (ausgew\u00e4hlt)",
    diceLabel: "die f\u00fcnf W\u00fcrfel",
    dice: "W\u00fcrfel: {0}.",
    held: "Gehalten: {0}.",
    noneHeld: "Keiner gehalten.",
    blank: "leer",
    otherTab: "Dieses Spiel ist in einem anderen Tab offen, der die Spielst\u00e4nde speichert. Dr\u00fccke Hier spielen, um in diesem Tab zu spielen (der andere h\u00e4lt an).",
    movedAway: "Dieses Spiel l\u00e4uft jetzt in einem anderen Tab. Dr\u00fccke Hier spielen, um es zur\u00fcckzuholen.",
    saveFull: "Nicht gespeichert: der Speicher des Browsers ist voll. Gib Platz frei, dann wird wieder gespeichert. Das Spiel geht weiter.",
    saveOk: "Speichern geht wieder.",
    newBuild: "Eine neue Version des Spiels ist da: lade die Seite neu, um sie zu spielen.",
  },
  it: {
    today: "Sfida del giorno: {0}",
    challengeOn: "Sfida {0}: le partite che inizi dal menu lanciano i dadi di questo codice, uguali per tutti.",
    challengeBad: "\"{0}\" non \u00e8 un codice sfida (quattro lettere A-Z): i dadi sono casuali.",
    share: "La mia sfida {0}: {1} punti. Gioca gli stessi dadi:",
    language: "Lingua",
    starting: "Avvio di MicroPython...",
    ready: "Pronto. I tuoi record restano in questo browser.",
    readyNoTable: "Pronto (nessuna tabella di strategia: niente suggerimenti).",
    keys: "Tasti: 1-5 tieni, Spazio lancia, \u2191/\u2193, Invio OK, M menu. Per uscire da una partita tieni premuto M (o MENU) finch\u00e9 lo chiede.",
    download: "Scarica i record",
    upload: "Carica i record",
    playHere: "Gioca qui",
    hold: "TIENI",
    holdDie: "tieni il dado {0}",
    roll: "LANCIA", up: "SU", down: "GI\u00d9", ok: "OK", menu: "MENU",
    oledLabel: "lo schermo del gioco",
    selected: "{0} (selezionato)",
    diceLabel: "i cinque dadi",
    dice: "Dadi: {0}.",
    held: "Tenuti: {0}.",
    noneHeld: "Nessuno tenuto.",
    blank: "vuoto",
    otherTab: "Questo gioco \u00e8 aperto in un'altra scheda, che tiene i salvataggi. Premi Gioca qui per giocare in questa scheda (l'altra si ferma).",
    movedAway: "Questo gioco ora si gioca in un'altra scheda. Premi Gioca qui per riprenderlo.",
    saveFull: "Non salvato: lo spazio del browser \u00e8 pieno. Libera spazio e il gioco salva di nuovo. Il gioco continua.",
    saveOk: "Il salvataggio funziona di nuovo.",
    newBuild: "\u00c8 uscita una nuova versione del gioco: ricarica la pagina per giocarla.",
  },
};
export const LANGUAGES = { en: "English", nl: "Nederlands", de: "Deutsch", it: "Italiano" };

// The first of the browser's preferred languages the page has, else English.
export function preferred(list) {
  for (const tag of list || []) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (code in TEXTS) return code;
  }
  return "en";
}

let current = "en";
export function setLanguage(code) {
  current = code in TEXTS ? code : "en";
  document.documentElement.lang = current;
}
export function language() {
  return current;
}
export function t(key, ...args) {
  const text = key in TEXTS[current] ? TEXTS[current][key] : TEXTS.en[key];
  if (typeof text !== "string") return text;
  return text.replace(/\{(\d)\}/g, (_m, i) => String(args[Number(i)]));
}

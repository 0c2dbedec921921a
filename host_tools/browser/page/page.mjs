// The page: draws the handheld (OLED frame buffer, five MAX7219 8x8 dice), turns
// pointer, touch and keyboard into button levels, plays the buzzer through WebAudio,
// tells the screen's text and the dice to screen readers (a live region), and keeps
// data/ in IndexedDB (store.mjs). The firmware itself runs in worker.mjs. Every file is
// named with this build's version ("?v=..."), so the page never mixes two builds.
import { Saves, SCOPE, dataEntries, MAX_TOTAL } from "./store.mjs?v=dev";
import { LANGUAGES, language, preferred, setLanguage, t } from "./texts.mjs?v=dev";

const VERSION = new URL(import.meta.url).searchParams.get("v") || "dev";
const $ = (id) => document.getElementById(id);
const status = (text) => { $("status").textContent = text; };
const notice = (text) => { $("notice").textContent = text; };
const state = { marks: {}, frames: 0, firstFrameMs: null, busyMax: 0, busy: [], console: [], started: null,
  said: [], screen: [], version: VERSION, paused: false };
window.handheld = state;

// --- the language of the page's own texts: the player's choice, else the browser's
function storedLanguage() {
  try {
    return localStorage.getItem("pico-yahtzee language " + SCOPE);
  } catch (e) {
    return null; // site data blocked
  }
}
function applyTexts() {
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
  document.querySelectorAll("[data-t-label]").forEach((el) => el.setAttribute("aria-label", t(el.dataset.tLabel)));
  $("dice").setAttribute("aria-label", t("diceLabel"));
  document.querySelectorAll(".btn.hold").forEach((b) => {
    b.textContent = t("hold");
    b.setAttribute("aria-label", t("holdDie", Number(b.dataset.button) + 1));
  });
}
function wireLanguage() {
  const select = $("language");
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.lang = code;
    select.appendChild(option);
  }
  setLanguage(storedLanguage() || preferred(navigator.languages));
  select.value = language();
  select.addEventListener("change", () => {
    setLanguage(select.value);
    try {
      localStorage.setItem("pico-yahtzee language " + SCOPE, select.value);
    } catch (e) {
      // site data blocked: the choice lasts this visit
    }
    applyTexts();
    showChallenge();
    if (lastStatus) status(t(...lastStatus));
  });
}
// --- challenges: ?challenge=CODE makes the games started in the menu roll that code's
// dice (firmware/game.py challenge_die), the same as on a handheld or in the simulator.
const CODE_LETTERS = /^[A-Za-z]{4}$/;
const asked = new URL(location.href).searchParams.get("challenge");
const challenge = asked && CODE_LETTERS.test(asked) ? asked.toUpperCase() : null;
// The day's challenge: the same four letters for everybody on a UTC date, another each
// day (7919 is prime to 26**4 = 2**4 * 13**4, so 26**4 days pass before one comes back).
export function dayCode(ms) {
  let n = (Math.floor(ms / 86400000) * 7919 + 1234) % 456976;
  let code = "";
  for (let i = 0; i < 4; i++, n = Math.floor(n / 26)) code = String.fromCharCode(65 + (n % 26)) + code;
  return code;
}
const challengeLink = (code) => location.origin + location.pathname + "?challenge=" + code;
let result = null; // [code, totals]: the last challenge game's end, from the firmware's console
function showChallenge() {
  const today = dayCode(Date.now());
  $("today").textContent = t("today", today);
  $("today").href = "?challenge=" + today;
  $("challengeSaid").textContent = challenge ? t("challengeOn", challenge)
    : asked !== null ? t("challengeBad", asked.slice(0, 20)) : "";
  if (result) {
    $("shareText").textContent = t("share", result[0], result[1].join(", "));
    $("shareLink").textContent = $("shareLink").href = challengeLink(result[0]);
    $("share").hidden = false;
  }
}
let lastStatus = null;
const say = (...key) => { lastStatus = key; status(t(...key)); };

// --- the saves (store.mjs): one tab owns them
const saves = new Saves({
  onProblem: (kind, error) => {
    const key = { full: "saveFull", removed: "saveRemoved", newer: "saveNewer", blocked: "saveBlocked", ok: "saveOk" }[kind];
    notice(key ? t(key) : t("saveFailed", (error && (error.name || error.message)) || "?"));
  },
  onLost: () => {
    stopGame();
    notice(t("movedAway"));
    $("takeover").hidden = false;
  },
});
state.saves = 0;
state.files = async () => Object.fromEntries(Object.entries(dataEntries(await saves.read()).files).map(([k, v]) => [k, Array.from(v)]));
let saving = Promise.resolve();
function keep(files) {
  saving = saving.then(() => saves.store(files)).then(() => { state.saves = saves.saves; });
}
// The stored folder for this tab, which owns the saves; damaged entries are left out and
// named once.
async function loadSaves() {
  let record;
  try {
    record = await saves.claim();
  } catch (e) {
    saves.problem(e);
    return {};
  }
  const { files, refused } = dataEntries(record);
  if (refused.length) notice(t("refused", refused.map(([name, why]) => JSON.stringify(name) + ": " + why).join(", ")));
  return files;
}

// --- isolation: SharedArrayBuffer needs COOP/COEP; sw.js adds them on any static host
function coiReloaded(set) {
  try {
    const key = "coi-reload " + SCOPE;
    if (set === undefined) return sessionStorage.getItem(key);
    if (set) sessionStorage.setItem(key, "1");
    else sessionStorage.removeItem(key);
  } catch (e) {
    return null;
  }
  return null;
}
async function isolate() {
  if (crossOriginIsolated) {
    coiReloaded(false);
    return true;
  }
  if (!window.isSecureContext) {
    say("plainHttp", location.host, location.port || (location.protocol === "https:" ? 443 : 80));
    return false;
  }
  if (!("serviceWorker" in navigator)) {
    say("swMissing");
    return false;
  }
  let registration;
  try {
    registration = await navigator.serviceWorker.register("sw.js?v=" + VERSION);
  } catch (e) {
    const denied = /denied|security|not allowed/i.test(String(e && e.message)) || (e && e.name === "SecurityError");
    if (denied) say("swBlocked", location.host);
    else say("swFailed", (e && e.message) || String(e));
    return false;
  }
  const failed = new Promise((resolve) => {
    const worker = registration.installing || registration.waiting;
    if (worker) worker.addEventListener("statechange", () => { if (worker.state === "redundant") resolve("redundant"); });
  });
  const how = await Promise.race([navigator.serviceWorker.ready.then(() => "ready"), failed]);
  if (how !== "ready") {
    say("swFailed", how);
    return false;
  }
  if (!coiReloaded()) {
    coiReloaded(true);
    location.reload(); // once: this load's document came without the headers
    return new Promise(() => {});
  }
  say("swFailed", "the page loaded without it"); // reloaded and still not isolated (a forced reload)
  return false;
}

// A newer build on the host: its service worker caches it whole in the background; this
// page plays on with its own build and says that reloading brings the new one.
async function checkForNewBuild() {
  try {
    const latest = await (await fetch("site.json?latest=" + Date.now(), { cache: "no-store" })).json();
    if (latest.version === VERSION) return;
    state.newBuild = latest.version;
    const ready = () => {
      const active = navigator.serviceWorker.controller;
      if (active && new URL(active.scriptURL).searchParams.get("v") === latest.version) notice(t("newBuild"));
    };
    navigator.serviceWorker.addEventListener("controllerchange", ready);
    await navigator.serviceWorker.register("sw.js?v=" + latest.version);
    ready();
  } catch (e) {
    // offline: nothing to learn
  }
}
// A file of this build; a 409 means the host moved on to a newer build while this page
// loaded and this build's files are gone: reload into the new one.
async function buildFile(name) {
  const response = await fetch(name + "?v=" + VERSION);
  if (response.status === 409) {
    say("stale");
    setTimeout(() => location.reload(), 500);
    throw new Error("stale build");
  }
  return response;
}

// --- the OLED and the dice
const oled = $("oled").getContext("2d");
const image = oled.createImageData(128, 64);
let panelOn = true;
let lastFrame = new Uint8Array(1024);
function drawOled() {
  const px = image.data;
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 128; x++) {
      const on = panelOn && (lastFrame[(y >> 3) * 128 + x] >> (y & 7)) & 1;
      const i = (y * 128 + x) * 4;
      px[i] = on ? 120 : 0; px[i + 1] = on ? 210 : 0; px[i + 2] = on ? 255 : 0; px[i + 3] = 255;
    }
  }
  oled.putImageData(image, 0, 0);
}

const N_DICE = 5;
const chips = Array.from({ length: N_DICE }, () => ({ rows: new Array(8).fill(0), intensity: 0, scan: 0, shutdown: true, test: false }));
let words = new Array(N_DICE).fill(0);
let pending = -1;
const diceCanvases = [];
for (let i = 0; i < N_DICE; i++) {
  const c = document.createElement("canvas");
  c.width = c.height = 80;
  c.setAttribute("aria-hidden", "true");
  $("dice").appendChild(c);
  diceCanvases.push(c.getContext("2d"));
}
function spi(bytes) {
  // MAX7219 chain: 16-bit words shift in at chip 0 and on towards the last chip.
  for (const b of bytes) {
    if (pending < 0) { pending = b; continue; }
    words = [(pending << 8) | b, ...words.slice(0, N_DICE - 1)];
    pending = -1;
  }
}
function latch() {
  chips.forEach((chip, i) => {
    const reg = (words[i] >> 8) & 0x0f, data = words[i] & 0xff;
    if (reg >= 1 && reg <= 8) chip.rows[reg - 1] = data;
    else if (reg === 0x0a) chip.intensity = data & 0x0f;
    else if (reg === 0x0b) chip.scan = data & 7;
    else if (reg === 0x0c) chip.shutdown = !(data & 1);
    else if (reg === 0x0f) chip.test = !!(data & 1);
  });
  pending = -1;
  drawDice();
}
function litRows(chip) {
  return chip.rows.map((row, r) => (chip.test ? 0xff : chip.shutdown || r > chip.scan ? 0 : row));
}
state.oled = () => lastFrame; // for tests and screenshots: what the panel shows
state.dice = () => chips.map(litRows);
// A lit LED against an unlit one: at the default brightness (8) the contrast is 3.9:1
// (WCAG's 3:1 for graphics), 2.5:1 at the dimmed brightness (1).
const ledColour = (intensity) => `rgb(${150 + intensity * 7},${40 + intensity * 3},${40 + intensity * 3})`;
const UNLIT = "#1e1010";
state.ledColours = (intensity) => [ledColour(intensity), UNLIT];
function drawDice() {
  chips.forEach((chip, i) => {
    const g = diceCanvases[i];
    g.fillStyle = "#111";
    g.fillRect(0, 0, 80, 80);
    const lit = ledColour(chip.intensity);
    litRows(chip).forEach((row, r) => {
      for (let x = 0; x < 8; x++) {
        g.fillStyle = (row >> (7 - x)) & 1 ? lit : UNLIT;
        g.beginPath();
        g.arc(x * 10 + 5, r * 10 + 5, 4, 0, 2 * Math.PI);
        g.fill();
      }
    });
  });
}

// --- what the screen says and the dice show, for screen readers (from the firmware's own
// strings and faces: boards/web.py "O" and "D"). Said once things settle (a roll's tumble
// or the roll-off is not read frame by frame): a new screen whole, else the lines that
// changed, and the dice when they changed.
let screenLines = [], toldLines = [];
let diceState = null, toldDice = null;
let settle = null;
const shownLine = (line) => (line.startsWith("\x01") ? t("selected", line.slice(1)) : line);
const plain = (line) => line.replace(/^\x01/, "");
const SETTLE_MS = 350;
function announce(text) {
  state.said.push(text);
  const region = $("said");
  region.textContent = "";
  setTimeout(() => { region.textContent = text; }, 30); // a new node each time: read even when repeated
}
function diceWords(d) {
  const name = (f) => (f === 0 ? t("blank") : d.animals ? (info.animals[language()] || info.animals.en)[f - 1] : String(f));
  const held = d.faces.map((_f, i) => i + 1).filter((i) => (d.held >> (i - 1)) & 1);
  return { faces: t("dice", d.faces.map(name).join(", ")), held: held.length ? t("held", held.join(", ")) : t("noneHeld") };
}
function tell() {
  settle = null;
  const parts = [];
  const lines = screenLines, before = new Set(toldLines);
  const newScreen = !toldLines.length || plain(lines[0] || "") !== plain(toldLines[0] || "");
  const changed = newScreen ? lines : lines.filter((l) => !before.has(l) && !before.has("\x01" + l));
  if (changed.length) parts.push(changed.map(shownLine).join(". "));
  toldLines = lines;
  if (diceState && !diceState.faces.every((f) => f === 0)) {
    const words = diceWords(diceState);
    // The dice with every new screen (a roll that gave the same faces is still heard).
    if (newScreen || !toldDice || toldDice.faces.join() !== diceState.faces.join()) parts.push(words.faces + " " + (diceState.held ? words.held : ""));
    else if (toldDice.held !== diceState.held) parts.push(words.held);
  }
  toldDice = diceState;
  if (parts.length) announce(parts.join(" ").trim());
}
function changedSoon() {
  clearTimeout(settle);
  settle = setTimeout(tell, SETTLE_MS);
}
function screenText(text) {
  screenLines = text ? text.split("\n") : [];
  state.screen = screenLines.map(shownLine);
  $("oled").setAttribute("aria-label", t("oledLabel") + ": " + state.screen.join(". "));
  changedSoon();
}
function diceShown(bytes) {
  diceState = { faces: Array.from(bytes.subarray(0, 5)), held: bytes[5], animals: bytes[6] };
  document.querySelectorAll(".btn.hold").forEach((b) => {
    b.setAttribute("aria-pressed", (diceState.held >> Number(b.dataset.button)) & 1 ? "true" : "false");
  });
  $("dice").setAttribute("aria-label", t("diceLabel") + ": " + diceWords(diceState).faces);
  changedSoon();
}
state.diceState = () => diceState;

// --- the buzzer through WebAudio, started by the first touch or key (browsers' rule).
// Between tones the audio context is suspended: a running one costs a few % of a core
// even when silent.
let audio = null, osc = null, gain = null, unlocked = false, quiet = null;
function startAudio() {
  if (audio) return;
  try {
    audio = new AudioContext();
    osc = audio.createOscillator();
    gain = audio.createGain();
    osc.type = "square";
    gain.gain.value = 0;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    audio.addEventListener("statechange", () => { if (audio.state === "running") unlocked = true; });
    quiet = setTimeout(() => audio.suspend(), 500);
  } catch (e) {
    audio = null;
  }
}
// "running" once a touch or key let it play (suspended between tones on purpose).
state.audio = () => (!audio ? "none" : unlocked && audio.state !== "closed" ? "running" : audio.state);
state.audioState = () => (audio ? audio.state : "none");
state.tones = 0; // tones the buzzer started (duty > 0)
function tone(freq, duty) {
  state.tone = [freq, duty];
  if (duty) state.tones++;
  if (!audio) return;
  clearTimeout(quiet);
  if (duty) {
    if (audio.state === "suspended") audio.resume();
    osc.frequency.setValueAtTime(freq, audio.currentTime);
  } else {
    quiet = setTimeout(() => audio.suspend(), 500);
  }
  gain.gain.setTargetAtTime(duty ? 0.05 : 0, audio.currentTime, 0.003);
}

// The board's messages (boards/sim_protocol.py, the one definition; its kinds come in
// site.json's "wire").
function decode(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const K = info.wire.kinds, header = info.wire.header;
  let frame = false;
  for (let at = 0; at + header <= bytes.length;) {
    const kind = bytes[at], n = view.getUint16(at + 1, true), p = at + header;
    if (kind === K.FRAME) {
      lastFrame = bytes.slice(p, p + n);
      state.frames++;
      if (state.firstFrameMs === null) state.firstFrameMs = performance.now();
      frame = true;
    } else if (kind === K.POWER) { panelOn = !!bytes[p]; frame = true; }
    else if (kind === K.CONTRAST) $("oled").style.filter = `brightness(${0.55 + bytes[p] / 570})`;
    else if (kind === K.SPI) spi(bytes.subarray(p, p + n));
    else if (kind === K.CS) { if (bytes[p]) latch(); }
    else if (kind === K.TONE) tone(view.getUint32(p, true), view.getUint16(p + 4, true));
    else if (kind === K.TEXT) screenText(new TextDecoder().decode(bytes.subarray(p, p + n)));
    else if (kind === K.DICE) diceShown(bytes.subarray(p, p + n));
    at = p + n;
  }
  if (frame) drawOled();
}

// --- buttons: level bits in the shared buffer (word 0); a tap lasts at least pressMs.
// Notifying word 0 ends the firmware's idle sleep at once.
const LEVELS = 0, HIDDEN = 2;
let shared = null;
const pressedAt = {};
const pointedAt = {};
const releaseTimers = {};
function setLevel(button, down) {
  if (down) Atomics.or(shared, LEVELS, 1 << button);
  else Atomics.and(shared, LEVELS, ~(1 << button));
  Atomics.notify(shared, LEVELS);
}
function press(button) {
  startAudio();
  clearTimeout(releaseTimers[button]);
  pressedAt[button] = performance.now();
  setLevel(button, true);
  document.querySelectorAll(`[data-button="${button}"]`).forEach((b) => b.classList.add("down"));
}
function release(button) {
  if (pressedAt[button] === undefined) return;
  const left = pressedAt[button] + info.pressMs - performance.now();
  delete pressedAt[button];
  releaseTimers[button] = setTimeout(() => {
    setLevel(button, false);
    document.querySelectorAll(`[data-button="${button}"]`).forEach((b) => b.classList.remove("down"));
  }, Math.max(0, left));
}
function wireButtons() {
  for (let i = 0; i < N_DICE; i++) {
    const b = document.createElement("button");
    b.className = "btn hold";
    b.dataset.button = String(i);
    b.setAttribute("aria-pressed", "false");
    $("holds").appendChild(b);
  }
  applyTexts();
  document.querySelectorAll("[data-button]").forEach((b) => {
    const n = Number(b.dataset.button);
    b.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      pointedAt[n] = performance.now();
      press(n);
      try {
        b.setPointerCapture(e.pointerId); // the release comes here even if the finger slides off
      } catch (err) {
        // a synthetic event has no pointer to capture
      }
    });
    for (const end of ["pointerup", "pointercancel"]) b.addEventListener(end, () => release(n));
    b.addEventListener("contextmenu", (e) => e.preventDefault());
    b.addEventListener("mousedown", (e) => e.preventDefault()); // a click leaves the keys to the game
    // A click with no pointer before it (a screen reader's activation, Enter or Space on
    // a focused button): one tap. The click a pointer's press ends with is not another.
    b.addEventListener("click", () => {
      if (performance.now() - (pointedAt[n] || -1e9) < 2000 || pressedAt[n] !== undefined) return;
      press(n);
      release(n);
    });
  });
  // The simulator's keys (host_tools/simulator/keys.py), from site.json; keys typed into
  // the page's own controls (a focused button, the language list) stay theirs.
  const keyName = (e) => (e.key === " " ? "space" : e.key === "ArrowUp" ? "up" : e.key === "ArrowDown" ? "down"
    : e.key === "Enter" ? "enter" : e.key.toLowerCase());
  const own = (e) => e.target instanceof Element && e.target.closest("button, select, input, label");
  addEventListener("keydown", (e) => {
    const n = info.buttons.indexOf(keyName(e));
    if (n < 0 || e.ctrlKey || e.metaKey || e.altKey || own(e)) return;
    e.preventDefault();
    if (!e.repeat) press(n);
  });
  addEventListener("keyup", (e) => {
    const n = info.buttons.indexOf(keyName(e));
    if (n >= 0) release(n);
  });
  // A hidden page does nothing: the firmware stops at its next sleep (worker.mjs).
  const visibility = () => {
    Atomics.store(shared, HIDDEN, document.hidden ? 1 : 0);
    Atomics.notify(shared, HIDDEN);
  };
  document.addEventListener("visibilitychange", visibility);
  visibility();
}

// --- the firmware's worker
let info = null, treeBuffer = null, extras = null, game = null;
let early = null; // the game's worker, made before the tree arrives so the port loads meanwhile
const newWorker = () => new Worker("worker.mjs?v=" + VERSION, { type: "module" });
function worker(mode, data, extra = {}) {
  const w = early || newWorker();
  early = null;
  w.postMessage({ mode, sab: shared.buffer, tree: treeBuffer, index: info.tree, extras, data, words: mode === "game" ? "lang=" + language() : "", dataDir: info.dataDir, ...extra });
  return w;
}
function stopGame() {
  if (game) game.terminate();
  game = null;
}
function startGame(data) {
  stopGame();
  // The page's language (as worker() passes it), and the link's challenge code.
  game = worker("game", data, { words: "lang=" + language() + (challenge ? " challenge=" + challenge : "") });
  game.onmessage = ({ data: m }) => {
    if (m.type === "out") {
      state.busyMax = Math.max(state.busyMax, m.busyMax);
      state.busy.push(...m.bursts);
      decode(m.bytes);
    } else if (m.type === "saved") keep(m.files);
    else if (m.type === "paused") state.paused = m.paused;
    else if (m.type === "mark") state.marks[m.name] = m.at - performance.timeOrigin; // page-relative ms
    else if (m.type === "console") {
      state.console.push(m.text);
      console.log(m.text);
      const end = /^challenge ([A-Z]{4}) ([\d ]+)$/.exec(m.text); // app.finish: a challenge's code and P1's total
      if (end) {
        result = [end[1], end[2].split(" ")];
        showChallenge();
      }
    }
    else if (m.type === "exit") say("stopped", m.error || "see the console");
  };
}
const lastLine = (text) => String(text || "?").split("\n").filter((l) => l.trim()).pop();
function runTool(mode, data, extra) {
  return new Promise((resolve) => {
    const w = worker(mode, data, extra);
    let files = null;
    w.onmessage = ({ data: m }) => {
      if (m.type === "saved") files = m.files;
      if (m.type === "exit") { w.terminate(); resolve({ result: m.result, error: m.error && lastLine(m.error), files }); }
    };
  });
}
function wireRecords() {
  $("download").addEventListener("click", async () => {
    let record = {};
    try {
      record = await saves.read();
    } catch (e) {
      saves.problem(e);
    }
    const { result, error } = await runTool("export", dataEntries(record).files);
    if (!result) return say("downloadFailed", error);
    const text = JSON.stringify(JSON.parse(result), null, 1);
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text + "\n"], { type: "application/json" }));
    a.download = "pico-yahtzee-records.json";
    a.click();
    say("downloaded");
  });
  $("upload").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    e.target.value = "";
    if (!file) return;
    if (!saves.owner) return say("uploadRefused", t("uploadNotOwner"));
    // Bounded as pull is: the size is known before a byte is read.
    if (file.size > MAX_TOTAL) return say("uploadRefused", t("uploadTooBig", Math.ceil(file.size / 1024)));
    const data = await loadSaves();
    const { result, error, files } = await runTool("import", data, { text: await file.text() });
    if (!result || !result.startsWith("OK")) return say("uploadRefused", result ? result.slice(4) : error);
    stopGame(); // first: a save it sends now must not land over the uploaded records
    await saving;
    await saves.store(files);
    state.saves = saves.saves;
    startGame(files);
    say("uploaded", result.slice(3));
  });
  $("takeover").addEventListener("click", async () => {
    $("takeover").hidden = true;
    await saves.own(true);
    notice("");
    startGame(await loadSaves());
    say(info.hasTable ? "ready" : "readyNoTable");
  });
}

async function main() {
  state.started = performance.now();
  wireLanguage();
  applyTexts();
  showChallenge();
  // An isolated load (the usual one, after the first visit) starts the worker, the tree
  // and the claim on the saves at once, in parallel with site.json.
  const isolated = crossOriginIsolated;
  if (isolated) early = newWorker();
  const treeFetch = isolated ? buildFile("tree.bin").then((r) => r.arrayBuffer()) : null;
  const owned = isolated ? saves.own() : null;
  drawOled();
  drawDice();
  info = await (await buildFile("site.json")).json();
  state.marks.info = performance.now();
  if (!(await isolate()) || typeof SharedArrayBuffer === "undefined") return;
  shared = new Int32Array(new SharedArrayBuffer(16));
  if (!early) early = newWorker();
  wireButtons();
  const [tree, ...ports] = await Promise.all([
    treeFetch || buildFile("tree.bin").then((r) => r.arrayBuffer()),
    ...info.extras.map((n) => buildFile("port/" + n).then((r) => r.arrayBuffer()).then((b) => [n, new Uint8Array(b)])),
  ]);
  state.marks.fetched = performance.now();
  treeBuffer = tree;
  extras = ports;
  wireRecords();
  if (!(await (owned || saves.own()))) {
    notice(t("otherTab"));
    $("takeover").hidden = false;
    status("");
    early.terminate();
    early = null;
    return;
  }
  startGame(await loadSaves());
  say(info.hasTable ? "ready" : "readyNoTable");
  checkForNewBuild();
}
main();

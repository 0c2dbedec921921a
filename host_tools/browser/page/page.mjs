// The page: draws the handheld (OLED frame buffer, five MAX7219 8x8 dice), turns
// pointer, touch and keyboard into button levels, plays the buzzer through WebAudio and
// keeps data/ in IndexedDB. The firmware itself runs in worker.mjs.
const $ = (id) => document.getElementById(id);
const status = (text) => { $("status").textContent = text; };
const state = { marks: {}, frames: 0, firstFrameMs: null, busyMax: 0, busy: [], console: [], saves: 0, started: null };
window.handheld = state;
state.files = async () => Object.fromEntries(Object.entries(await loadData()).map(([k, v]) => [k, Array.from(v)]));

// --- isolation: SharedArrayBuffer needs COOP/COEP; sw.js adds them on any static host
async function isolate(info) {
  if (!("serviceWorker" in navigator)) return crossOriginIsolated;
  const registered = navigator.serviceWorker.register("sw.js?v=" + info.version);
  if (crossOriginIsolated) {
    sessionStorage.removeItem("coi-reload");
    registered.catch(() => undefined); // a new build's worker installs in the background
    return true;
  }
  await registered;
  await navigator.serviceWorker.ready;
  if (!sessionStorage.getItem("coi-reload")) {
    sessionStorage.setItem("coi-reload", "1");
    location.reload(); // once: this load's document came without the headers
    return new Promise(() => {});
  }
  return false;
}

// --- IndexedDB: data/ as one record, replaced whole (as the flash holds it)
function db() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("pico-yahtzee", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("flash");
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}
async function loadData() {
  const d = await db();
  return new Promise((resolve) => {
    const get = d.transaction("flash").objectStore("flash").get("data");
    get.onsuccess = () => resolve(get.result || {});
    get.onerror = () => resolve({});
  });
}
async function storeData(files) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const tx = d.transaction("flash", "readwrite");
    tx.objectStore("flash").put(files, "data");
    tx.oncomplete = () => { state.saves++; resolve(); };
    tx.onerror = () => reject(tx.error);
  });
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
function drawDice() {
  chips.forEach((chip, i) => {
    const g = diceCanvases[i];
    g.fillStyle = "#111";
    g.fillRect(0, 0, 80, 80);
    const level = 90 + chip.intensity * 11;
    litRows(chip).forEach((row, r) => {
      for (let x = 0; x < 8; x++) {
        g.fillStyle = (row >> (7 - x)) & 1 ? `rgb(${level},16,16)` : "#2a1414";
        g.beginPath();
        g.arc(x * 10 + 5, r * 10 + 5, 4, 0, 2 * Math.PI);
        g.fill();
      }
    });
  });
}

// --- the buzzer through WebAudio, started by the first touch or key (browsers' rule)
let audio = null, osc = null, gain = null;
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
  } catch (e) {
    audio = null;
  }
}
state.audio = () => (audio ? audio.state : "none");
state.tones = 0; // tones the buzzer started (duty > 0)
function tone(freq, duty) {
  state.tone = [freq, duty];
  if (duty) state.tones++;
  if (!audio) return;
  if (duty) osc.frequency.setValueAtTime(freq, audio.currentTime);
  gain.gain.setTargetAtTime(duty ? 0.05 : 0, audio.currentTime, 0.003);
}

// The board's messages (boards/sim_protocol.py, the one definition; its kinds come in
// site.json's "wire").
function decode(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const K = info.wire.kinds, header = info.wire.header;
  for (let at = 0; at + header <= bytes.length;) {
    const kind = bytes[at], n = view.getUint16(at + 1, true), p = at + header;
    if (kind === K.FRAME) {
      lastFrame = bytes.slice(p, p + n);
      state.frames++;
      if (state.firstFrameMs === null) state.firstFrameMs = performance.now();
      drawOled();
    } else if (kind === K.POWER) { panelOn = !!bytes[p]; drawOled(); }
    else if (kind === K.CONTRAST) $("oled").style.filter = `brightness(${0.55 + bytes[p] / 570})`;
    else if (kind === K.SPI) spi(bytes.subarray(p, p + n));
    else if (kind === K.CS) { if (bytes[p]) latch(); }
    else if (kind === K.TONE) tone(view.getUint32(p, true), view.getUint16(p + 4, true));
    at = p + n;
  }
}

// --- buttons: level bits in the shared buffer; a tap lasts at least pressMs
let shared = null;
const pressedAt = {};
const releaseTimers = {};
function press(button) {
  startAudio();
  clearTimeout(releaseTimers[button]);
  pressedAt[button] = performance.now();
  Atomics.or(shared, 0, 1 << button);
  document.querySelectorAll(`[data-button="${button}"]`).forEach((b) => b.classList.add("down"));
}
function release(button) {
  if (pressedAt[button] === undefined) return;
  const left = pressedAt[button] + info.pressMs - performance.now();
  delete pressedAt[button];
  releaseTimers[button] = setTimeout(() => {
    Atomics.and(shared, 0, ~(1 << button));
    document.querySelectorAll(`[data-button="${button}"]`).forEach((b) => b.classList.remove("down"));
  }, Math.max(0, left));
}
function wireButtons() {
  for (let i = 0; i < N_DICE; i++) {
    const b = document.createElement("button");
    b.className = "btn hold";
    b.dataset.button = String(i);
    b.textContent = "HOLD";
    b.setAttribute("aria-label", "hold die " + (i + 1));
    $("holds").appendChild(b);
  }
  document.querySelectorAll("[data-button]").forEach((b) => {
    const n = Number(b.dataset.button);
    b.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      press(n);
      try {
        b.setPointerCapture(e.pointerId); // the release comes here even if the finger slides off
      } catch (err) {
        // a synthetic event has no pointer to capture
      }
    });
    for (const end of ["pointerup", "pointercancel"]) b.addEventListener(end, () => release(n));
    b.addEventListener("contextmenu", (e) => e.preventDefault());
  });
  // The simulator's keys (host_tools/simulator/keys.py), from site.json.
  const keyName = (e) => (e.key === " " ? "space" : e.key === "ArrowUp" ? "up" : e.key === "ArrowDown" ? "down"
    : e.key === "Enter" ? "enter" : e.key.toLowerCase());
  addEventListener("keydown", (e) => {
    const n = info.buttons.indexOf(keyName(e));
    if (n < 0 || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    if (!e.repeat) press(n);
  });
  addEventListener("keyup", (e) => {
    const n = info.buttons.indexOf(keyName(e));
    if (n >= 0) release(n);
  });
}

// --- the firmware's worker
let info = null, treeBuffer = null, extras = null, game = null;
let early = null; // the game's worker, made before the tree arrives so the port loads meanwhile
function worker(mode, data, extra = {}) {
  const w = early || new Worker("worker.mjs", { type: "module" });
  early = null;
  w.postMessage({ mode, sab: shared.buffer, tree: treeBuffer, index: info.tree, extras, data, words: "", dataDir: info.dataDir, ...extra });
  return w;
}
function startGame(data) {
  if (game) game.terminate();
  game = worker("game", data);
  game.onmessage = ({ data: m }) => {
    if (m.type === "out") {
      state.busyMax = Math.max(state.busyMax, m.busyMax);
      state.busy.push(...m.bursts);
      decode(m.bytes);
    } else if (m.type === "saved") storeData(m.files);
    else if (m.type === "mark") state.marks[m.name] = m.at - performance.timeOrigin; // page-relative ms
    else if (m.type === "console") { state.console.push(m.text); console.log(m.text); }
    else if (m.type === "exit") status("The firmware stopped: " + (m.error || "see the console") + ". Reload to restart.");
  };
}
function runTool(mode, data, extra) {
  return new Promise((resolve) => {
    const w = worker(mode, data, extra);
    let files = null;
    w.onmessage = ({ data: m }) => {
      if (m.type === "saved") files = m.files;
      if (m.type === "exit") { w.terminate(); resolve({ result: m.result, error: m.error, files }); }
    };
  });
}
function wireRecords() {
  $("download").addEventListener("click", async () => {
    const { result, error } = await runTool("export", await loadData());
    if (!result) return status("Download failed: " + error);
    const text = JSON.stringify(JSON.parse(result), null, 1);
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text + "\n"], { type: "application/json" }));
    a.download = "pico-yahtzee-records.json";
    a.click();
    status("Records downloaded (the JSON of python -m host_tools pull --json).");
  });
  $("upload").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    e.target.value = "";
    if (!file) return;
    const { result, error, files } = await runTool("import", await loadData(), { text: await file.text() });
    if (!result || !result.startsWith("OK")) return status("Upload refused: " + (result ? result.slice(4) : error) + " (nothing changed)");
    game.terminate(); // first: a save it sends now must not land over the uploaded records
    game = null;
    await storeData(files);
    startGame(files);
    status("Records uploaded (" + result.slice(3) + "); the handheld restarted with them.");
  });
}

async function main() {
  state.started = performance.now();
  // An isolated load (the usual one, after the first visit) starts the worker, the tree
  // and the saves at once, in parallel with site.json.
  if (crossOriginIsolated) early = new Worker("worker.mjs", { type: "module" });
  const treeFetch = crossOriginIsolated ? fetch("tree.bin").then((r) => r.arrayBuffer()) : null;
  const dataLoad = crossOriginIsolated ? loadData() : null;
  drawOled();
  drawDice();
  info = await (await fetch("site.json")).json();
  state.marks.info = performance.now();
  if (!(await isolate(info)) || typeof SharedArrayBuffer === "undefined") {
    status("This browser did not allow the page's service worker, which the handheld needs (cross-origin isolation). Open it over http(s) in a current browser.");
    return;
  }
  shared = new Int32Array(new SharedArrayBuffer(8));
  if (!early) early = new Worker("worker.mjs", { type: "module" });
  wireButtons();
  const [tree, data, ...ports] = await Promise.all([
    treeFetch || fetch("tree.bin").then((r) => r.arrayBuffer()), dataLoad || loadData(),
    ...info.extras.map((n) => fetch("port/" + n).then((r) => r.arrayBuffer()).then((b) => [n, new Uint8Array(b)])),
  ]);
  state.marks.fetched = performance.now();
  treeBuffer = tree;
  extras = ports;
  wireRecords();
  startGame(data);
  status(info.hasTable ? "Ready. Your records stay in this browser." : "Ready (no strategy table in this build: hints off).");
}
main();

// The page's Web Worker: the firmware runs here, so its never-ending loop cannot freeze
// the page. Sleeps wait on Atomics.wait over a SharedArrayBuffer, paced so the firmware's
// virtual clock keeps up with real time. The buffer's words: 0 the button levels the page
// sets (it notifies on a change, which ends an idle sleep at once), 1 a word nobody
// changes (a plain sleep), 2 set while the page is hidden: the firmware then stops at its
// next idle sleep (or a second later at any sleep) and its clock stands still.
// mode "game": main.py; mode "export" / "import": pull's JSON of data/ (records_json.py).
// Files are named with the build's version ("?v=..."), as the page that made the worker.
import { loadPort, startFirmware } from "./host.mjs?v=dev";
import { loadMicroPython } from "./micropython.mjs?v=dev";

const LEVELS = 0, STILL = 1, HIDDEN = 2;
const WASM = new URL("micropython.wasm?v=dev", import.meta.url).href;

const EXPORT = `
import json, os, records_json
try:
    os.stat("data")
    found = records_json.read_folder("data")
except OSError:
    found = {}
webhost.result(json.dumps(records_json.jsonable(found)))
`;

// Every store is checked (records_json.checked_values: the firmware's own checks, as
// push does) before anything is written; any problem is one line per store.
const IMPORT = `
import json, records_json
try:
    values = records_json.checked_values(json.loads(webhost.text()))
except records_json.BadRecords as exc:
    webhost.result("BAD " + str(exc))
except (ValueError, TypeError, KeyError, IndexError, MemoryError, RuntimeError) as exc:
    webhost.result("BAD not pull's JSON (%s)" % type(exc).__name__)
else:
    records_json.write_folder("data", values)
    webhost.result("OK " + " ".join(sorted(values)))
`;

// The port loads (wasm compiled, interpreter made) while the page still fetches the tree.
const print = (text) => postMessage({ type: "console", text });
const port = loadPort(loadMicroPython, print, WASM);

onmessage = async (event) => {
  const msg = event.data;
  const shared = new Int32Array(msg.sab);
  const blob = new Uint8Array(msg.tree);
  const tree = msg.index.map(([p, at, n]) => [p, blob.subarray(at, at + n)]);
  let start = performance.now();
  let virtual = 0;
  let woke = performance.now();
  let busyMax = 0;
  let result = null;
  let hiddenSeen = null;
  let bursts = []; // computing stretches over 1 ms between two sleeps (the page's figures)
  const post = (bytes) => {
    const busy = performance.now() - woke;
    if (busy > busyMax) busyMax = busy;
    if (busy > 1) bursts.push(Math.round(busy * 10) / 10);
    if (bytes.length) {
      postMessage({ type: "out", bytes, bursts, busyMax }, [bytes.buffer]);
      bursts = [];
    }
  };
  // A hidden page: stop here until it shows again; the firmware's clock stands still.
  const pauseWhileHidden = (idle) => {
    if (!Atomics.load(shared, HIDDEN)) {
      hiddenSeen = null;
      return;
    }
    hiddenSeen = hiddenSeen === null ? performance.now() : hiddenSeen;
    if (!idle && performance.now() - hiddenSeen < 1000) return; // a save in hand ends first
    postMessage({ type: "paused", paused: true });
    while (Atomics.load(shared, HIDDEN)) Atomics.wait(shared, HIDDEN, 1);
    postMessage({ type: "paused", paused: false });
    hiddenSeen = null;
    start = performance.now() - virtual;
  };
  const catchUp = () => {
    if (start + virtual - performance.now() < -250) start = performance.now() - virtual; // fell far behind: re-anchor
  };
  const opts = {
    loadMicroPython, mp: port, tree, extras: msg.extras, data: msg.data, words: msg.words, dataDir: msg.dataDir,
    wasmUrl: WASM,
    output: post,
    wait: (ms, bytes) => {
      post(bytes);
      pauseWhileHidden(false);
      virtual += ms;
      catchUp();
      const ahead = start + virtual - performance.now();
      if (ahead > 0) Atomics.wait(shared, STILL, Atomics.load(shared, STILL), ahead);
      woke = performance.now();
      return Atomics.load(shared, LEVELS);
    },
    // Nothing moves: sleep until a press (the page notifies) or ms, and say how long.
    idle: (ms, bytes) => {
      post(bytes);
      pauseWhileHidden(true);
      catchUp();
      const levels = Atomics.load(shared, LEVELS);
      const left = start + virtual + ms - performance.now();
      if (left > 0) Atomics.wait(shared, LEVELS, levels, left);
      const slept = Math.max(0, Math.min(ms, Math.round(performance.now() - (start + virtual))));
      virtual += slept;
      woke = performance.now();
      return slept * 1024 + Atomics.load(shared, LEVELS); // not <<: a long idle would wrap at 32 bits
    },
    saved: (files) => postMessage({ type: "saved", files }),
    stdout: print,
  };
  opts.mark = (name) => postMessage({ type: "mark", name, at: performance.timeOrigin + performance.now() });
  if (msg.mode !== "game") {
    opts.code = msg.mode === "export" ? EXPORT : IMPORT;
    opts.module = { result: (text) => { result = text; }, text: () => msg.text || "" };
  }
  try {
    await startFirmware(opts);
    postMessage({ type: "exit", result });
  } catch (e) {
    postMessage({ type: "exit", result, error: String(e && e.message ? e.message : e) });
  }
};

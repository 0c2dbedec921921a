// The page's Web Worker: the firmware runs here, so its never-ending loop cannot freeze
// the page. Sleeps wait on Atomics.wait over a SharedArrayBuffer (the page's button
// levels live in it too), paced so the firmware's virtual clock keeps up with real time.
// mode "game": main.py; mode "export" / "import": pull's JSON of data/ (records_json.py).
import { loadPort, startFirmware } from "./host.mjs";
import { loadMicroPython } from "./micropython.mjs";

const EXPORT = `
import json, os, records_json
try:
    os.stat("data")
    found = records_json.read_folder("data")
except OSError:
    found = {}
webhost.result(json.dumps(records_json.jsonable(found)))
`;

const IMPORT = `
import json, records_json
try:
    values = records_json.values_of(json.loads(webhost.text()))
except (ValueError, TypeError) as exc:
    webhost.result("BAD " + str(exc))
else:
    records_json.write_folder("data", values)
    webhost.result("OK " + " ".join(sorted(values)))
`;

// The port loads (wasm compiled, interpreter made) while the page still fetches the tree.
const print = (text) => postMessage({ type: "console", text });
const port = loadPort(loadMicroPython, print, new URL("micropython.wasm", import.meta.url).href);

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
  const opts = {
    loadMicroPython, mp: port, tree, extras: msg.extras, data: msg.data, words: msg.words, dataDir: msg.dataDir,
    wasmUrl: new URL("micropython.wasm", import.meta.url).href,
    output: post,
    wait: (ms, bytes) => {
      post(bytes);
      virtual += ms;
      let ahead = start + virtual - performance.now();
      if (ahead < -250) {
        start = performance.now() - virtual; // fell far behind (a long computation): re-anchor
        ahead = 0;
      }
      if (ahead > 0) Atomics.wait(shared, 1, Atomics.load(shared, 1), ahead);
      woke = performance.now();
      return Atomics.load(shared, 0);
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

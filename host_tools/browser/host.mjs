// The web host: boots the unmodified firmware (main.py on board=web) in MicroPython's
// WebAssembly port. Shared by the page's worker (worker.mjs) and the Node runner of the
// tests (node_run.mjs), so both run the same start-up: the compiled tree and the saved
// data/ written into the port's in-memory filesystem, webport.py installed (errno fix,
// change tracking, sys.argv), then main.py. The board (boards/web.py) calls the module
// `webhost` registered here; `wait` gets the board's batched output, a snapshot of data/
// when a file changed since the last wait, and returns the button levels; `idle` likewise,
// ended early by a press, answers (ms slept << 10) | levels. Only plain names of the saved
// data/ are written (the page checks them, and says what it left out, first).

export const FLASH = "/flash";
export const PORT_DIR = "/port";

function makeDirs(FS, path) {
  let at = "";
  for (const part of path.split("/").slice(1, -1)) {
    at += "/" + part;
    try {
      FS.mkdir(at);
    } catch (e) {
      if (!FS.analyzePath(at).exists) throw e;
    }
  }
}

// Files under `folder` as {relative name: Uint8Array} (the saves and records).
export function readTree(FS, folder) {
  const out = {};
  if (!FS.analyzePath(folder).exists) return out;
  const walk = (dir, prefix) => {
    for (const name of FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const path = dir + "/" + name;
      if (FS.isDir(FS.stat(path).mode)) walk(path, prefix + name + "/");
      else out[prefix + name] = FS.readFile(path);
    }
  };
  walk(folder, "");
  return out;
}

export function loadPort(loadMicroPython, print, wasmUrl) {
  return loadMicroPython({ stdout: print, stderr: print, heapsize: 4 * 1024 * 1024, url: wasmUrl });
}

// tree: [[device path, Uint8Array]] (device paths as flash writes them: "/main.py");
// extras: [[path, Uint8Array]] for /port; data: {name: Uint8Array} under data/.
export async function startFirmware(opts) {
  const { loadMicroPython, tree, extras, data, words, dataDir, wait, output, saved } = opts;
  const print = opts.stdout || ((text) => console.log(text));
  // opts.mp: a port the caller started loading early (the page's worker does, to save time).
  const mp = opts.mp ? await opts.mp : await loadPort(loadMicroPython, print, opts.wasmUrl);
  const mark = opts.mark || (() => {});
  mark("wasm");
  const FS = mp.FS;
  const M = mp._module;
  for (const [path, bytes] of tree) {
    makeDirs(FS, FLASH + path);
    FS.writeFile(FLASH + path, bytes);
  }
  for (const [path, bytes] of extras) {
    makeDirs(FS, PORT_DIR + "/" + path);
    FS.writeFile(PORT_DIR + "/" + path, bytes);
  }
  const dataPath = FLASH + "/" + dataDir;
  for (const [name, bytes] of Object.entries(data || {})) {
    if (!/^[^/\\\u0000-\u001f]{1,64}$/.test(name) || name === "." || name === ".." || !(bytes instanceof Uint8Array)) continue;
    makeDirs(FS, dataPath + "/" + name);
    FS.writeFile(dataPath + "/" + name, bytes);
  }
  let dirty = false;
  const take = (addr, n) => {
    const bytes = new Uint8Array(n);
    for (let i = 0; i < n; i++) bytes[i] = M.getValue(addr + i, "i8");
    return bytes;
  };
  const snapshot = () => {
    if (dirty) {
      dirty = false;
      saved(readTree(FS, dataPath));
    }
  };
  // Without an idle of its own (the Node runner), the host's idle is one 5 ms frame's
  // wait, so a run keeps the unix port's 5 ms frames.
  const idle = opts.idle || ((ms, bytes) => {
    const step = Math.min(ms, 5);
    return step * 1024 + wait(step, bytes);
  });
  mp.registerJsModule("webhost", {
    ...(opts.module || {}),
    output: (addr, n) => output(take(addr, n)),
    wait: (ms, addr, n) => {
      snapshot();
      return wait(ms, take(addr, n));
    },
    idle: (ms, addr, n) => {
      snapshot();
      return idle(ms, take(addr, n));
    },
    changed: () => {
      dirty = true;
    },
  });
  mp.runPython(
    "import sys\nsys.path.insert(0, " + JSON.stringify(PORT_DIR) + ")\nimport webhost, webport\n" +
      "webport.install(webhost, " + JSON.stringify(FLASH) + ", " + JSON.stringify(words || "") + ")\n",
  );
  mark("installed");
  // opts.code: Python to run instead of main.py (the page's records download and upload).
  const main = opts.code || new TextDecoder().decode(FS.readFile(FLASH + "/main.py"));
  try {
    mp.runPython(main);
  } catch (e) {
    if (e.name !== "PythonError" || e.type !== "SystemExit") throw e;
  }
  if (dirty) saved(readTree(FS, dataPath));
  return mp;
}

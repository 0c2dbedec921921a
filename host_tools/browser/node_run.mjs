// The web firmware under Node, for the tests (host_tools/browser/device.py): the built
// site's tree booted by host.mjs as the page's worker boots it, on the simulator's wire
// (boards/sim_protocol.py; its kinds in site.json's "wire"). stdout carries the board's
// messages, then a wait message (WAIT, ms (4, LE)) at each wait;
// stdin answers each wait with the button levels (2 bytes, LE); the firmware's console
// goes to stderr. The saved data/ is mirrored into DATA_DIR at each wait after a change,
// as the page keeps it in IndexedDB, and read from there at start.
// usage: node node_run.mjs SITE_DIR DATA_DIR [key=value ...]
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";

const [siteDir, dataDir, ...words] = process.argv.slice(2);
const { startFirmware } = await import(pathToFileURL(path.join(siteDir, "host.mjs")).href);
const { loadMicroPython } = await import(pathToFileURL(path.join(siteDir, "micropython.mjs")).href);
const site = JSON.parse(fs.readFileSync(path.join(siteDir, "site.json"), "utf8"));
const blob = fs.readFileSync(path.join(siteDir, "tree.bin"));
const tree = site.tree.map(([p, at, n]) => [p, new Uint8Array(blob.buffer, blob.byteOffset + at, n)]);
const extras = site.extras.map((name) => [name, fs.readFileSync(path.join(siteDir, "port", name))]);
const data = {};
fs.mkdirSync(dataDir, { recursive: true });
for (const name of fs.readdirSync(dataDir)) data[name] = fs.readFileSync(path.join(dataDir, name));

// The test closed the pipe: the run is over (as the sim board's SystemExit at EOF).
function write(bytes) {
  try {
    fs.writeSync(1, bytes);
  } catch (e) {
    if (e.code === "EPIPE") process.exit(0);
    throw e;
  }
}

const reply = Buffer.alloc(2);
const head = Buffer.alloc(site.wire.header + 4);
function wait(ms, bytes) {
  if (bytes.length) write(bytes);
  head[0] = site.wire.kinds.WAIT;
  head.writeUInt16LE(4, 1);
  head.writeUInt32LE(ms, site.wire.header);
  write(head);
  let got = 0;
  while (got < 2) {
    let n;
    try {
      n = fs.readSync(0, reply, got, 2 - got, null);
    } catch (e) {
      if (e.code === "EAGAIN") continue;
      throw e;
    }
    if (!n) process.exit(0); // the test closed the pipe
    got += n;
  }
  return reply.readUInt16LE(0);
}

function saved(files) {
  for (const name of fs.readdirSync(dataDir)) if (!(name in files)) fs.rmSync(path.join(dataDir, name));
  for (const [name, bytes] of Object.entries(files)) {
    const temp = path.join(dataDir, "." + name + ".tmp");
    fs.writeFileSync(temp, bytes);
    fs.renameSync(temp, path.join(dataDir, name));
  }
}

await startFirmware({
  loadMicroPython, tree, extras, data, words: words.join(" "), dataDir: site.dataDir,
  output: write,
  wait, saved,
  stdout: (text) => fs.writeSync(2, text + "\n"),
});

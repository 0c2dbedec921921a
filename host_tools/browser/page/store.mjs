// The saves: the firmware's data/ folder kept in IndexedDB as one record, replaced whole
// at each save, as the flash holds it.
// - One tab owns the saves (a Web Lock held for the tab's life). Another tab of the same
//   copy of the site does not start the firmware; it can take over, which re-reads the
//   record. The record carries its owner, and a save checks it in the same transaction,
//   so a save of a tab that lost the saves can never land after the new owner read them:
//   taking over is a power cut for the other tab, which the firmware survives at any
//   moment.
// - Storage that fails (quota, the database deleted or upgraded while open, site data
//   blocked) is reported through `onProblem`; the game goes on.
// - What was stored is untrusted: entries are checked one by one (dataEntries).
// - Keys are the copy's own path: two copies of the site on one origin keep apart.
export const SCOPE = new URL(".", location.href).pathname;
const NAME = "pico-yahtzee " + SCOPE;
// How long a new page waits for the saves before it says another tab has them (a reload
// or a closed tab gives them up a moment after the new page asks).
const HANDOVER_MS = 1500;
const DB_VERSION = 1;

// The bounds pull sets on a device's data/ (host_tools/flashing/untrusted.py): a plain
// name, 64 KiB a file, 1 MiB in all, 256 entries.
export const MAX_NAME = 64;
export const MAX_FILE = 64 * 1024;
export const MAX_TOTAL = 1024 * 1024;
export const MAX_ENTRIES = 256;

// Why `name` is not a plain file name, or null.
export function nameProblem(name) {
  if (typeof name !== "string" || name === "" || name === "." || name === "..") return "not a file name";
  if (/[/\\]/.test(name) || name.startsWith("~")) return "a path";
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) return "control characters";
  if (name.length > MAX_NAME) return "too long";
  return null;
}

// {files: {name: Uint8Array}, refused: [[name, why]]} of a stored record.
export function dataEntries(record) {
  const files = {}, refused = [];
  if (record === undefined || record === null) return { files, refused };
  if (typeof record !== "object" || Array.isArray(record) || record instanceof ArrayBuffer || ArrayBuffer.isView(record)) {
    return { files, refused: [["(the whole record)", "not a folder"]] };
  }
  let total = 0, count = 0;
  for (const [name, value] of Object.entries(record)) {
    count++;
    let why = count > MAX_ENTRIES ? "too many entries" : nameProblem(name);
    let bytes = null;
    if (!why) {
      if (value instanceof Uint8Array) bytes = value;
      else if (value instanceof ArrayBuffer) bytes = new Uint8Array(value);
      else why = value === null ? "empty (null)" : "not a file's bytes";
    }
    if (!why && bytes.length > MAX_FILE) why = "larger than 64 KiB";
    if (!why && total + bytes.length > MAX_TOTAL) why = "over 1 MiB in all";
    if (why) refused.push([String(name).slice(0, MAX_NAME), why]);
    else {
      files[name] = bytes;
      total += bytes.length;
    }
  }
  return { files, refused };
}

export class Saves {
  // onProblem(kind, error): kind "full", "removed", "newer", "blocked", "failed", "ok" (works again)
  // onLost(): another tab took the saves over
  constructor({ onProblem, onLost }) {
    this.onProblem = onProblem;
    this.onLost = onLost;
    this.connection = null;
    this.owner = false;
    this.lost = false;
    this.failing = null;
    this.saves = 0;
    this.tab = Math.random().toString(36).slice(2) + Date.now().toString(36);
  }

  open() {
    if (this.connection) return Promise.resolve(this.connection);
    return new Promise((resolve, reject) => {
      let request;
      try {
        request = indexedDB.open(NAME, DB_VERSION);
      } catch (e) {
        reject(e);
        return;
      }
      request.onupgradeneeded = () => request.result.createObjectStore("flash");
      request.onsuccess = () => {
        const d = request.result;
        // Another page deletes or upgrades the database: let it (close), and open it
        // again at the next save, which writes the whole folder anew.
        d.onversionchange = () => {
          d.close();
          if (this.connection === d) this.connection = null;
          this.reopened = true;
        };
        d.onclose = () => {
          if (this.connection === d) this.connection = null;
          this.reopened = true;
        };
        this.connection = d;
        resolve(d);
      };
      request.onerror = () => reject(request.error);
      request.onblocked = () => undefined; // an older tab closes on its versionchange
    });
  }

  // True when this tab got the saves (or nothing can tell: no Web Locks); `steal` takes
  // them from the tab that has them.
  own(steal = false) {
    let locks = null;
    try {
      locks = navigator.locks;
    } catch (e) {
      locks = null;
    }
    if (!locks) return Promise.resolve((this.owner = true));
    return new Promise((resolve) => {
      const options = steal ? { steal: true } : { signal: AbortSignal.timeout(HANDOVER_MS) };
      locks.request(NAME, options, (lock) => {
        this.owner = true;
        this.lost = false;
        resolve(true);
        return new Promise(() => {}); // held while the tab lives
      }).catch((e) => {
        const name = e && e.name;
        if (name === "TimeoutError") resolve(false); // a live tab keeps them
        else if (name === "AbortError") this.loseOwnership(); // stolen
        else resolve((this.owner = true)); // locks refused (site data blocked): play on alone
      });
    });
  }

  loseOwnership() {
    if (this.lost) return;
    this.lost = true;
    this.owner = false;
    this.onLost();
  }

  // The stored folder, for the owner: marks this tab as the record's owner in the same
  // transaction, so no save of an earlier owner lands after this read.
  async claim() {
    return this.transact("readwrite", (store, done) => {
      store.put(this.tab, "owner");
      const get = store.get("data");
      get.onsuccess = () => done(get.result);
    });
  }

  // The stored folder, read only (download).
  async read() {
    return this.transact("readonly", (store, done) => {
      const get = store.get("data");
      get.onsuccess = () => done(get.result);
    });
  }

  // Save the folder whole; false when not saved (reported through onProblem / onLost).
  async store(files) {
    if (this.lost) return false;
    let stolen = false;
    try {
      await this.transact("readwrite", (store, done, tx) => {
        const owner = store.get("owner");
        owner.onsuccess = () => {
          if (owner.result !== undefined && owner.result !== this.tab) {
            stolen = true;
            tx.abort();
            return;
          }
          store.put(this.tab, "owner");
          store.put(files, "data");
          done();
        };
      });
    } catch (e) {
      if (stolen) {
        this.loseOwnership();
        return false;
      }
      this.problem(e);
      return false;
    }
    this.saves++;
    if (this.failing || this.reopened) this.onProblem(this.failing ? "ok" : "removed");
    this.failing = null;
    this.reopened = false;
    return true;
  }

  problem(e) {
    const name = (e && e.name) || "";
    const refused = name === "UnknownError" || name === "SecurityError" || (name === "InvalidStateError" && !this.connection);
    const kind = name === "QuotaExceededError" ? "full" : name === "VersionError" ? "newer" : refused ? "blocked" : "failed";
    if (this.failing !== kind) this.onProblem(kind, e);
    this.failing = kind;
  }

  // One transaction on the "flash" store; `body(store, done, tx)` calls done(value).
  // Rejects with the transaction's error (QuotaExceededError ...) or the open's.
  async transact(mode, body) {
    let d = await this.open();
    let tx;
    try {
      tx = d.transaction("flash", mode);
    } catch (e) {
      // closed under us (versionchange): open again once
      this.connection = null;
      d = await this.open();
      tx = d.transaction("flash", mode);
    }
    return new Promise((resolve, reject) => {
      let value;
      body(tx.objectStore("flash"), (v) => { value = v; }, tx);
      tx.oncomplete = () => resolve(value);
      tx.onabort = () => reject(tx.error || new DOMException("aborted", "AbortError"));
      tx.onerror = (event) => event.preventDefault(); // reported by onabort
    });
  }
}

// Runs Python on the pinned MicroPython WebAssembly port in Node, with the site's
// firmware.bin unpacked as the page does it: the browser-free half of the web tests.
//
//   node tools/rigs/node_run.mjs SITE [--file x.py ...] [--heap BYTES] -- SCRIPT [SCRIPT ...]
//
// Each SCRIPT (Python source file) runs in a fresh interpreter, one after the other, like
// page loads: they share the `host` module's storage (a Map standing in for the page's
// localStorage), so a later one sees what an earlier one saved. The host also gives
// entropy, records tones and messages, and can be told to refuse writes (a full store).
// Exit status 1 when a script raises; its traceback is printed.
import { readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { randomFillSync } from "node:crypto";
import { unpack } from "../web/bundle.mjs";

const args = process.argv.slice(2);
const site = args.shift();
const extra = [];
let heap = 512 * 1024;
while (args.length && args[0] !== "--") {
  const flag = args.shift();
  if (flag === "--file") extra.push(args.shift());
  else if (flag === "--heap") heap = Number(args.shift());
  else throw new Error("unknown flag " + flag);
}
args.shift();

const { loadMicroPython } = await import(
  pathToFileURL(resolve(site, "mp", "micropython.mjs")).href);
const firmware = readFileSync(join(site, "firmware.bin"));
const storage = new Map();
const host = {
  full: false,
  tones: [],
  messages: [],
  storage_names: () => [...storage.keys()].join("\n"),
  storage_get: (k) => (storage.has(k) ? storage.get(k) : null),
  storage_size: (k) => (storage.has(k) ? storage.get(k).length : -1),
  storage_put(k, v) {
    if (host.full) return false;
    storage.set(k, v);
    return true;
  },
  storage_remove: (k) => { storage.delete(k); },
  storage_set_raw: (k, v) => { storage.set(k, v); },
  // a long value made here: as a Python string it would not fit the port's heap
  storage_set_repeat: (k, v, n) => { storage.set(k, v.repeat(n)); },
  random_hex(n) {
    const b = new Uint8Array(n);
    randomFillSync(b);
    return Buffer.from(b).toString("hex");
  },
  tone: (hz, duty) => { host.tones.push([hz, duty]); },
  message: (kind, text) => { host.messages.push(kind + " " + text); },
  now: () => Math.floor(performance.now()) & 0x3fffffff,
  cpu_us() { // this process's CPU time: a pass's cost, whatever else the machine runs
    const u = process.cpuUsage();
    return (u.user + u.system) & 0x3fffffff;
  },
};

let failed = false;
for (const script of args) {
  const mp = await loadMicroPython({
    heapsize: heap,
    stdout: (line) => process.stdout.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
  });
  unpack(mp.FS, firmware);
  for (const f of extra) mp.FS.writeFile("/lib/" + basename(f), readFileSync(f));
  mp.registerJsModule("host", host);
  try {
    mp.runPython(readFileSync(script, "utf8"));
  } catch (e) {
    if (e.name !== "PythonError") throw e;
    process.stdout.write("TRACEBACK " + script + "\n" + e.message + "\n");
    failed = true;
    break;
  }
}
process.exit(failed ? 1 : 0);

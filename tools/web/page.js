// The browser board's page side: loads MicroPython's WebAssembly port, unpacks the
// firmware into its filesystem, and drives Runner.step() through board_web.pump once an
// animation frame (never the blocking Runner.run()). It gives the board the time, the raw
// button levels (on-screen buttons and keys), entropy, WebAudio tones and storage, draws
// the panel's RAM on a canvas, and says in words what went wrong.
const W = 128;
const H = 64;
const HEAP = 512 * 1024;
const KEY_PREFIX = "picoyacht:"; // one storage key per saved file
const OPT_PREFIX = "picoyacht-option:";
const MIN_PRESS_MS = 60; // a click shorter than the debouncer's window still counts
const LIT = [150, 220, 255]; // an SSD1306's blue-white
const DIM = [70, 104, 122]; // the firmware's dimmed contrast
const OFF = [4, 7, 10];
// The simulator's keys (tools/sim/board_term.py), plus arrows and Esc; the 4-button build
// takes the keys of the buttons it has. host_tests/test_keys.py checks the legends.
const KEYS_FULL = { "1": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, " ": 6, r: 6, w: 7, k: 7,
  arrowup: 7, s: 8, j: 8, arrowdown: 8, enter: 9, o: 9, a: 9, m: 10, b: 10, backspace: 10,
  escape: 10 };
const KEYS_FOUR = Object.fromEntries(Object.entries(KEYS_FULL).filter(([, b]) => b >= 7));
const NAV_KEYS = "<kbd>W</kbd>/<kbd>S</kbd>, <kbd>K</kbd>/<kbd>J</kbd> or arrows up/down, " +
  "<kbd>Enter</kbd>, <kbd>O</kbd> or <kbd>A</kbd>";
const MENU_KEYS = "<kbd>M</kbd>, <kbd>B</kbd>, <kbd>Backspace</kbd> or <kbd>Esc</kbd>";
const LONG = ". Hold a key (or a button) for a long press.";
const LEGEND_FULL = "Keys: <kbd>1</kbd>-<kbd>6</kbd> hold (<kbd>1</kbd>-<kbd>5</kbd> with 5 dice), <kbd>Space</kbd> or <kbd>R</kbd> " +
  "roll, " + NAV_KEYS + " OK, " + MENU_KEYS + " menu" + LONG;
const LEGEND_FOUR = "Keys: " + NAV_KEYS + " = A, " + MENU_KEYS + " = B" + LONG;

const $ = (id) => document.getElementById(id);
const state = { board: null, mp: null, frames: 0, lastWrites: -1, fetching: false,
  stopped: false, title: 0 };
window.picoyacht = state; // for the tests and the bench

// Wipe is wired before anything can fail: whatever is stored, the player can clear it.
const store = openStorage();
$("wipe").addEventListener("click", wipe);

// ------------------------------------------------------------------ messages
function say(id, text, bad = false) {
  let p = document.querySelector(`#messages p[data-id="${id}"]`);
  if (!text) {
    if (p) p.remove();
    return;
  }
  if (!p) {
    p = document.createElement("p");
    p.dataset.id = id;
    $("messages").append(p);
  }
  p.className = bad ? "bad" : "";
  p.textContent = text;
}

function loading(text, fraction) {
  const box = $("loading");
  box.hidden = text === "";
  $("loading-text").textContent = text;
  const bar = $("loading-bar");
  if (fraction === undefined) bar.removeAttribute("value");
  else bar.value = fraction;
}

// ------------------------------------------------------------------ options
function option(name, fallback) {
  try {
    return localStorage.getItem(OPT_PREFIX + name) ?? fallback;
  } catch {
    return fallback;
  }
}

function setOption(name, value) {
  try {
    localStorage.setItem(OPT_PREFIX + name, value);
  } catch {
    // storage off or full: the option lasts until the page is left
  }
}

// ------------------------------------------------------------------ storage
// localStorage when the browser lets the page keep data; otherwise a Map, and play goes on
// with saves that last until the page is left.
function openStorage() {
  try {
    const probe = KEY_PREFIX + "probe";
    localStorage.setItem(probe, "1");
    localStorage.removeItem(probe);
    return localStorage;
  } catch (e) {
    say("storage", "This browser does not let the page keep data (" + e.name + "), so " +
      "saves, settings and records last only until you leave the page. You can still play.");
    const map = new Map();
    return {
      get length() { return map.size; },
      key: (i) => [...map.keys()][i] ?? null,
      getItem: (k) => (map.has(k) ? map.get(k) : null),
      setItem: (k, v) => map.set(k, String(v)),
      removeItem: (k) => map.delete(k),
    };
  }
}

function wipe() {
  if (!confirm("Wipe PicoYacht's saved game, settings and records from this browser?")) {
    return;
  }
  state.stopped = true; // no save may land between the wipe and the reload
  for (const name of storedNames(store)) store.removeItem(KEY_PREFIX + name);
  location.reload();
}

function storedNames(store) {
  const out = [];
  for (let i = 0; i < store.length; i++) {
    const k = store.key(i);
    if (k && k.startsWith(KEY_PREFIX)) out.push(k.slice(KEY_PREFIX.length));
  }
  return out;
}

// ------------------------------------------------------------------ sound
// The firmware's Player calls tone(freq, duty_u16) from its own cue tables, as it drives
// the piezo's PWM: a square wave at that frequency, louder the nearer the duty is to half.
const sound = { ctx: null, osc: null, gain: null, muted: option("muted", "0") === "1",
  hz: 0, level: 0 };

function unlockAudio() {
  if (sound.ctx || !window.AudioContext) return;
  try {
    sound.ctx = new AudioContext();
    sound.gain = sound.ctx.createGain();
    sound.gain.gain.value = 0;
    sound.gain.connect(sound.ctx.destination);
    sound.osc = sound.ctx.createOscillator();
    sound.osc.type = "square";
    sound.osc.connect(sound.gain);
    sound.osc.start();
  } catch {
    sound.ctx = null;
  }
}

function tone(hz, duty) {
  sound.hz = hz;
  sound.level = hz > 0 ? Math.min(duty, 65535 - duty) / 32768 : 0;
  applyTone();
}

function applyTone() {
  if (!sound.ctx) return;
  const t = sound.ctx.currentTime;
  if (sound.hz > 0) sound.osc.frequency.setValueAtTime(sound.hz, t);
  sound.gain.gain.setValueAtTime(sound.muted ? 0 : 0.15 * sound.level, t);
}

function showMute() {
  $("mute").textContent = sound.muted ? "Sound off" : "Sound on";
  $("mute").setAttribute("aria-pressed", String(sound.muted));
}

// ------------------------------------------------------------------ buttons
const input = { held: 0, until: new Array(11).fill(0) };

function press(btn, down) {
  const bit = 1 << btn;
  if (down) {
    input.held |= bit;
    input.until[btn] = performance.now() + MIN_PRESS_MS;
  } else {
    input.held &= ~bit;
  }
  const el = document.querySelector(`button[data-button="${btn}"]`);
  if (el) el.classList.toggle("down", down);
}

function rawButtons(now) {
  let raw = input.held;
  for (let i = 0; i < 11; i++) if (now < input.until[i]) raw |= 1 << i;
  return raw;
}

function wireButtons(four) {
  for (const el of document.querySelectorAll("button[data-button]")) {
    const btn = Number(el.dataset.button);
    const pointers = new Set();
    const up = (e) => {
      if (!pointers.delete(e.pointerId)) return;
      if (pointers.size === 0) press(btn, false);
    };
    el.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      unlockAudio();
      el.setPointerCapture(e.pointerId);
      pointers.add(e.pointerId);
      press(btn, true);
    });
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
    el.addEventListener("contextmenu", (e) => e.preventDefault());
  }
  const keys = four ? KEYS_FOUR : KEYS_FULL;
  const keyOf = (e) => keys[e.key.toLowerCase()];
  window.addEventListener("keydown", (e) => {
    const btn = keyOf(e);
    if (btn === undefined || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    unlockAudio();
    if (!e.repeat) press(btn, true);
  });
  window.addEventListener("keyup", (e) => {
    const btn = keyOf(e);
    if (btn !== undefined) press(btn, false);
  });
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) tone(0, 0); // no note left sounding while the loop sleeps
  });
  window.addEventListener("blur", () => {
    for (let i = 0; i < 11; i++) if (input.held & (1 << i)) press(i, false);
  });
  $("keys").innerHTML = four ? LEGEND_FOUR : LEGEND_FULL;
}

// ------------------------------------------------------------------ the panel
const panel = { ctx: null, image: null };

function fitPanel() {
  // Whole device pixels per OLED pixel, so every pixel is the same square; as large as the
  // frame's glass allows across, and as tall as leaves every button in view.
  const dpr = window.devicePixelRatio || 1;
  const canvas = $("panel");
  const glass = $("screen");
  const inset = 8; // the case's edge stays visible either side of the panel
  const across = glass.clientWidth - 2 * inset;
  const device = $("device").getBoundingClientRect();
  const others = device.bottom + window.scrollY - canvas.getBoundingClientRect().height;
  const down = window.innerHeight - others - 4;
  const scale = Math.max(1, Math.min(Math.floor((across * dpr) / W),
    Math.floor((down * dpr) / H)));
  canvas.style.width = (scale * W) / dpr + "px";
  canvas.style.height = (scale * H) / dpr + "px";
}

function draw(status) {
  const ram = state.mp._module.HEAPU8; // re-read: a grown heap is a new buffer
  const at = state.ramAt;
  const px = panel.image.data;
  const lit = status & 0x10000;
  const on = lit ? (status & 0x20000 ? DIM : LIT) : OFF;
  for (let y = 0; y < H; y++) {
    const row = at + (y >> 3) * W;
    const bit = 1 << (y & 7);
    for (let x = 0; x < W; x++) {
      const c = lit && ram[row + x] & bit ? on : OFF;
      const i = (y * W + x) * 4;
      px[i] = c[0];
      px[i + 1] = c[1];
      px[i + 2] = c[2];
      px[i + 3] = 255;
    }
  }
  panel.ctx.putImageData(panel.image, 0, 0);
  state.frames++;
  if (!state.title) state.title = performance.now(); // since navigation began
}

// A hold button for each of the game's dice: no sixth one in a 5-dice game. And the rules
// panel opens the game being played (or set up).
function showHolds() {
  const rid = state.board.rules_id();
  if (rid !== state.rulesShown) {
    state.rulesShown = rid;
    for (const d of document.querySelectorAll("#rules details")) {
      d.open = Number(d.dataset.rules) === rid;
    }
  }
  const five = state.board.dice() === 5;
  if (document.body.classList.contains("five") === five) return;
  document.body.classList.toggle("five", five);
  fitPanel();
}

// ------------------------------------------------------------------ how to play
// rules.json is built from the firmware's box_help (the device's own help on a box): a
// panel per game with its boxes, what each needs and scores, and its other rules.
async function showRules() {
  let games;
  try {
    games = await (await fetch("rules.json")).json();
  } catch {
    return; // the page plays on without its rules panel
  }
  const el = (tag, text) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const box = $("rules");
  for (const g of games) {
    const d = el("details");
    d.dataset.rules = g.id;
    d.append(el("summary", `${g.name}: ${g.dice} dice, ${g.boxes.length} boxes`));
    const table = el("table");
    const head = el("tr");
    for (const h of ["box", "the dice must show", "score"]) head.append(el("th", h));
    table.append(head);
    for (const row of g.boxes) {
      const tr = el("tr");
      for (const cell of row) tr.append(el("td", cell));
      table.append(tr);
    }
    const notes = el("ul");
    for (const n of g.notes) notes.append(el("li", n));
    d.append(table, notes);
    box.append(d);
  }
  state.rulesShown = -1;
  if (state.board) showHolds(); // else the first frame opens the game's panel
}

// The service worker (sw.js) keeps the site and the tables it fetched: the next visit
// plays offline. 127.0.0.1 counts as a secure origin; file:// has none.
function keepOffline() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("sw.js").catch((e) => {
    console.warn("no offline copy: " + e.message);
  });
}

// ------------------------------------------------------------------ Expert's tables
let tableSizes = null;

async function fetchTable(wanted) {
  state.fetching = true;
  try {
    if (!tableSizes) tableSizes = await (await fetch("tables.json")).json();
    const name = wanted.split(" ").find((n) => n in tableSizes);
    if (!name) {
      say("table", "This site has no Expert table for these rules, so Expert and the " +
        "coach play as Normal here.");
      return;
    }
    const size = tableSizes[name];
    const kb = Math.round(size / 1024);
    loading(`Loading Expert's table (${kb} KB)…`, 0);
    const res = await fetch("tables/" + name);
    if (!res.ok) throw new Error(res.status + " " + res.statusText);
    const data = new Uint8Array(size);
    const reader = res.body.getReader();
    let got = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      data.set(value.subarray(0, Math.max(0, size - got)), got);
      got += value.length;
      loading(`Loading Expert's table (${kb} KB)…`, Math.min(1, got / size));
    }
    if (got !== size) throw new Error(`got ${got} of ${size} bytes`);
    state.mp.FS.writeFile("/tables/" + name, data);
    say("table", "");
  } catch (e) {
    say("table", "Expert's table could not be loaded (" + e.message + "): Expert and the " +
      "coach play as Normal in this game.", true);
  } finally {
    loading("");
    state.fetching = false;
    state.board.table_ready();
  }
}

// ------------------------------------------------------------------ the loop
function frame() {
  if (state.stopped) return;
  const now = performance.now();
  let status;
  try {
    status = state.board.pump(Math.floor(now) & 0x3fffffff, rawButtons(now));
  } catch (e) {
    // Runner.step keeps the game through its own faults; this is the port itself failing.
    state.stopped = true;
    tone(0, 0);
    say("stopped", "The firmware stopped (" + e.message.trim().split("\n").pop() +
      "). Reload the page to go on from the last save.", true);
    return;
  }
  if ((status & 0xffff) !== state.lastWrites || state.frames === 0) {
    state.lastWrites = status & 0xffff;
    draw(status);
    showHolds();
  }
  if (status & 0x40000 && !state.fetching) fetchTable(state.board.wanted);
  requestAnimationFrame(frame);
}

// ------------------------------------------------------------------ start
function storageMessage(kind, text) {
  if (kind === "refused") {
    const [name, size] = text.split(" ");
    say("refused-" + name, `Stored data for ${name} was too long to be a save (${size} ` +
      "characters), so it was not read and counts as damaged: the game used its other " +
      "copies. Wipe saves and records to clear it.", true);
    return;
  }
  if (kind === "save") {
    if (text.includes("full")) {
      say("save", "Browser storage is full: the game could not be saved, and plays on. " +
        "Wipe PicoYacht's saves or free some site data to save again.", true);
    } else if (text) {
      say("save", "The game could not be saved (" + text + "); it plays on.", true);
    } else {
      say("save", "");
    }
    return;
  }
  const what = text.includes("using backup") ? " The backup copy was used."
    : text.includes("lost") ? " It could not be recovered." : "";
  say("load-" + text.split(":")[0], "A stored save was damaged or unreadable (" + text +
    ")." + what, true);
}

async function main() {
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
    loading("");
    say("wasm", "This browser cannot run WebAssembly, which PicoYacht's MicroPython needs. " +
      "Try a current Firefox, Chrome, Safari or Edge (or turn WebAssembly back on).", true);
    return;
  }
  const four = option("buttons", "11") === "4";
  document.body.classList.toggle("four", four);
  $("four").checked = four;
  showMute();
  fitPanel();
  window.addEventListener("resize", fitPanel);
  panel.ctx = $("panel").getContext("2d");
  panel.image = panel.ctx.createImageData(W, H);

  const host = {
    storage_size(k) { // the board reads a value only if it can be a save
      const v = store.getItem(KEY_PREFIX + k);
      return v === null ? -1 : v.length;
    },
    storage_get: (k) => store.getItem(KEY_PREFIX + k),
    storage_put(k, v) {
      try {
        store.setItem(KEY_PREFIX + k, v);
        return true;
      } catch {
        return false; // QuotaExceededError: the store reports "flash full"
      }
    },
    storage_remove: (k) => store.removeItem(KEY_PREFIX + k),
    random_hex(n) {
      const b = crypto.getRandomValues(new Uint8Array(n));
      return Array.from(b, (v) => v.toString(16).padStart(2, "0")).join("");
    },
    tone,
    message: storageMessage,
  };

  let mp;
  try {
    const [{ loadMicroPython }, { unpack }, firmware] = await Promise.all([
      import("./mp/micropython.mjs"),
      import("./bundle.mjs"),
      fetch("firmware.bin").then((r) => {
        if (!r.ok) throw new Error("firmware.bin: " + r.status);
        return r.arrayBuffer();
      }),
    ]);
    mp = await loadMicroPython({ heapsize: HEAP, url: "mp/micropython.wasm",
      stdout: (line) => console.log(line), stderr: (line) => console.warn(line) });
    unpack(mp.FS, new Uint8Array(firmware));
  } catch (e) {
    loading("");
    say("wasm", "MicroPython could not start here (" + e.message + ").", true);
    return;
  }
  mp.registerJsModule("host", host);
  state.mp = mp;
  const start = mp.pyimport("board_web").start;
  state.board = start(host, four ? 4 : 11, Math.floor(performance.now()) & 0x3fffffff);
  state.ramAt = state.board.ram_address();
  loading("");
  wireButtons(four);
  $("mute").addEventListener("click", () => {
    unlockAudio();
    sound.muted = !sound.muted;
    setOption("muted", sound.muted ? "1" : "0");
    showMute();
    applyTone();
  });
  $("four").addEventListener("change", (e) => {
    setOption("buttons", e.target.checked ? "4" : "11");
    location.reload();
  });
  requestAnimationFrame(frame);
}

// Whatever fails while starting is said on the page; Wipe (wired above) still works.
main().catch((e) => {
  state.stopped = true;
  loading("");
  tone(0, 0);
  const why = String(e && e.message ? e.message : e).trim().split("\n").pop();
  say("start", "PicoYacht could not start (" + why + "). Reload to try again; if it " +
    "fails at every load, Wipe saves and records below, then reload.", true);
});
showRules();
keepOffline();

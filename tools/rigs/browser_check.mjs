// The browser half of the web tests (host_tests/test_web.py), and the bench's page runs:
// Debian's chromium, headless, plays the built site as a person would, through its keys
// and its on-screen buttons, and reports what it saw as one JSON object per line.
//
//   node tools/rigs/browser_check.mjs NODE_MODULES URL SCENARIO [SCENARIO ...]
//
// Scenarios: frames (the canvas along the golden frames' path), keyboard (a whole game by
// keys), table (a CPU seat's game fetches Expert's table, with progress), clicks (a 4-button game by clicking, reloaded after
// two boxes: the resume screen), faults (no WebAssembly, storage off, storage full, a
// damaged save), storage (values too long to be a save, a start that fails; then Wipe),
// viewports (every phone size: the panel and the buttons' boxes),
// offline (installed, the network off, a game with an Expert seat to its end), bench (load time, site bytes, the longest loop pass while a CPU thinks),
// shot PATH (a screenshot for the README).
import { launch } from "../web/chromium.mjs";

const [nodeModules, url, ...scenarios] = process.argv.slice(2);
const PRESS_MS = 50;
const { context, close } = await launch(nodeModules);
const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

// What a player sees, read from the firmware through the port (test eyes only: the
// playing itself goes through keys and buttons).
const LOOK = `
import json
from picoyacht import menus, newgame
def _look(b):
    app = b.app
    sc = app.screen
    g = app.turn.game
    d = {"screen": sc.NAME, "wanted": b.wanted}
    items = getattr(sc, "items", None)
    if isinstance(items, (bytes, bytearray)) and len(items):
        d["item"] = items[sc.sel]
    if sc.NAME == "play":
        d["cursor"] = sc.cursor
        d["items"] = sc.items()
    if sc.NAME == "card":
        d["confirm"] = sc.confirm
    s = app.settings
    d["players"] = s.nplayers
    d["kinds"] = list(s.kinds)
    d["T_NEW"], d["R_PLAYERS"], d["R_START"] = menus.T_NEW, newgame.R_PLAYERS, newgame.R_START
    d["R_KIND"], d["R_NAME"] = newgame.R_KIND, newgame.R_NAME
    if g is not None:
        d["game"] = {"current": g.current, "cpu": g.kinds[g.current], "rolls": g.rolls_used,
                     "dice": len(g.dice), "over": g.over, "turn": g.turn,
                     "seats": g.nseats, "seed": g.seed}
    return json.dumps(d)
`;

async function open(opts = {}) {
  const page = await context.newPage();
  if (opts.viewport) await page.setViewportSize(opts.viewport);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("dialog", (d) => d.accept());
  if (opts.init) await page.addInitScript(opts.init);
  await page.goto(url);
  if (opts.clear) {
    await page.evaluate(() => localStorage.clear());
    await page.reload();
  }
  if (opts.wait !== false) await booted(page);
  return { page, errors };
}

async function booted(page) {
  await page.waitForFunction(() => window.picoyacht && window.picoyacht.frames > 0, null,
    { timeout: 30000 });
  await page.evaluate((src) => {
    window.picoyacht.mp.runPython(src);
    window.picoyacht.look = window.picoyacht.mp.globals.get("_look");
  }, LOOK);
}

const look = async (page) => JSON.parse(await page.evaluate(() =>
  window.picoyacht.look(window.picoyacht.board)));

// The panel as the golden files store it: 8 pages of 128 column bytes, bit 0 on top.
const canvasHex = (page) => page.evaluate(() => {
  const px = document.getElementById("panel").getContext("2d")
    .getImageData(0, 0, 128, 64).data;
  const ram = new Uint8Array(1024);
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 128; x++) {
      if (px[(y * 128 + x) * 4 + 2] > 128) ram[(y >> 3) * 128 + x] |= 1 << (y & 7);
    }
  }
  return Array.from(ram, (v) => v.toString(16).padStart(2, "0")).join("");
});

const KEY = { 6: " ", 7: "ArrowUp", 8: "ArrowDown", 9: "Enter", 10: "m" };

function presser(page, how) {
  const sleep = (ms) => page.waitForTimeout(ms);
  return async (btn) => {
    if (how === "keys") {
      const key = KEY[btn] ?? String(btn + 1);
      await page.keyboard.down(key);
      await sleep(PRESS_MS);
      await page.keyboard.up(key);
    } else {
      const box = await page.locator(`button[data-button="${btn}"]`).boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await sleep(PRESS_MS);
      await page.mouse.up();
    }
    await sleep(PRESS_MS);
  };
}

async function select(page, press, code) {
  for (let i = 0; i < 40; i++) {
    if ((await look(page)).item === code) return;
    await press(8);
  }
  throw new Error("menu item " + code + " not found");
}

// One human seat (and a CPU if asked) from the title, through the setup screen's items.
async function newGame(page, press, cpu, level = 2) {
  let s = await look(page);
  await select(page, press, s.T_NEW);
  await press(9);
  s = await look(page);
  const want = cpu ? 2 : 1;
  for (let i = 0; i < 8 && s.players !== want; i++) {
    await select(page, press, s.R_PLAYERS);
    await press(9);
    s = await look(page);
  }
  if (cpu) {
    for (let i = 0; i < 4 && s.kinds[1] !== level; i++) {
      await select(page, press, s.R_KIND + 1);
      await press(9);
      s = await look(page);
    }
  }
  await select(page, press, s.R_START);
  await press(9);
}

// Play on through the buttons: roll once, then score the row the card offers first.
async function play(page, press, { four = false, stopAfter = 1e9, onScore = null } = {}) {
  let scored = 0;
  for (let step = 0; step < 3000; step++) {
    const s = await look(page);
    const g = s.game;
    if (s.screen === "over") return { scored, over: true };
    if (s.wanted || (g && g.cpu && (s.screen === "play" || s.screen === "handover"))) {
      await page.waitForTimeout(100); // a table on its way, or a CPU at its own pace
    } else if (s.screen === "play" && g.rolls === 0) {
      if (four) await cursorTo(page, press, g.dice);
      await press(four ? 9 : 6);
      await page.waitForTimeout(350); // the roll's animation
    } else if (s.screen === "play") {
      await cursorTo(page, press, g.dice + 1);
      await press(9);
    } else if (s.screen === "card") {
      const turn = g.turn;
      await press(9);
      if ((await look(page)).confirm) await press(9);
      if ((await look(page)).game.turn !== turn) {
        scored++;
        if (onScore) await onScore(scored);
        if (scored >= stopAfter) return { scored, over: false };
      }
    } else {
      await press(9); // hand-over, a note: OK
    }
  }
  throw new Error("the game did not end");
}

async function cursorTo(page, press, target) {
  for (let i = 0; i < 20; i++) {
    const s = await look(page);
    if (s.cursor === target) return;
    const n = s.items;
    const fwd = (target - s.cursor + n) % n;
    await press(fwd <= n - fwd ? 8 : 7);
  }
  throw new Error("cursor stuck");
}

// The panel's width and each visible on-screen button's smaller side, in CSS pixels.
const layoutSizes = (page) => page.evaluate(() => {
  const panel = document.getElementById("panel").getBoundingClientRect();
  const buttons = [...document.querySelectorAll("button[data-button]")]
    .filter((b) => b.offsetParent !== null)
    .map((b) => Math.min(b.getBoundingClientRect().width, b.getBoundingClientRect().height));
  return { panelWidth: panel.width, page: window.innerWidth, buttons };
});

const messages = (page) => page.locator("#messages p").allTextContents();

// ------------------------------------------------------------------ scenarios
async function frames() {
  // The golden frames' path (tools/rigs/shots_mp.py), by keys, on a fresh page with the
  // headless board's entropy (the goldens were made with it).
  const init = () => {
    crypto.getRandomValues = (a) => {
      a.fill(0);
      a[0] = 0x2a;
      return a;
    };
  };
  const { page, errors } = await open({ init, clear: true });
  const press = presser(page, "keys");
  const shots = {};
  const shot = async (name) => {
    await page.waitForTimeout(60);
    shots[name] = await canvasHex(page);
  };
  await shot("title");
  const s = await look(page);
  await press(9);
  await shot("setup");
  await select(page, press, s.R_NAME);
  await press(9);
  await press(7);
  await shot("name");
  await press(8);
  await press(10);
  await select(page, press, s.R_KIND + 1);
  await press(9);
  await select(page, press, s.R_START);
  await press(8);
  await press(7);
  await shot("setup_start");
  await press(9);
  await page.waitForFunction(() => !window.picoyacht.board.wanted);
  await shot("handover");
  await press(9);
  await shot("play_ready");
  out({ check: "frames", shots, errors });
  await page.close();
}

async function keyboard() {
  const { page, errors } = await open({ clear: true, viewport: { width: 390, height: 844 } });
  const sizes = await layoutSizes(page);
  // A held key is a held button: the firmware's debouncer repeats Down on the title list.
  let item = (await look(page)).item;
  let moves = 0;
  await page.keyboard.down("ArrowDown");
  const until = Date.now() + 1500;
  while (Date.now() < until) {
    const now = (await look(page)).item;
    if (now !== item) moves++;
    item = now;
    await page.waitForTimeout(20);
  }
  await page.keyboard.up("ArrowDown");
  await page.waitForTimeout(100);
  const press = presser(page, "keys");
  await newGame(page, press, false);
  await page.waitForTimeout(100);
  const holdsShown = await page.locator("button.hold:visible").count();
  const result = await play(page, press);
  out({ check: "keyboard", ...result, sizes, moves, holdsShown,
    messages: await messages(page), errors });
  await page.close();
}

async function table() {
  // A game with a CPU seat needs Expert's table: the page fetches it, showing progress,
  // before the game goes on.
  const { page, errors } = await open({ clear: true });
  let progress = 0;
  await page.exposeFunction("sawProgress", () => { progress++; });
  await page.evaluate(() => {
    new MutationObserver(() => {
      if (!document.getElementById("loading").hidden) window.sawProgress();
    }).observe(document.getElementById("loading"), { attributes: true, subtree: true });
  });
  const press = presser(page, "keys");
  await newGame(page, press, true);
  await page.waitForFunction(() => !window.picoyacht.board.wanted, null, { timeout: 30000 });
  const tableFiles = await page.evaluate(() =>
    window.picoyacht.mp.FS.readdir("/tables").filter((n) => !n.startsWith(".")));
  out({ check: "table", progress, tableFiles, messages: await messages(page), errors,
    screen: (await look(page)).screen });
  await page.close();
}

async function clicks() {
  const { page, errors } = await open({ clear: true, viewport: { width: 390, height: 844 } });
  await page.locator("#four").check();
  await booted(page); // the option reloads the page
  const sizes = await layoutSizes(page);
  let press = presser(page, "clicks");
  await newGame(page, press, false);
  const first = await play(page, press, { four: true, stopAfter: 2 });
  await page.reload();
  await booted(page);
  const resumed = await look(page);
  const resumeShot = await canvasHex(page);
  press = presser(page, "clicks");
  await press(9); // OK: resume
  const rest = await play(page, press, { four: true });
  out({ check: "clicks", sizes, first, resumed, resumeShot, rest,
    four: await page.evaluate(() => document.body.classList.contains("four")), errors });
  await page.close();
}

async function faults() {
  const result = { check: "faults" };
  {
    const { page } = await open({ wait: false, init: () => { delete window.WebAssembly; } });
    await page.waitForSelector("#messages p");
    result.noWasm = await messages(page);
    await page.close();
  }
  {
    const init = () => {
      Object.defineProperty(window, "localStorage", {
        get() { throw new DOMException("storage is off", "SecurityError"); },
      });
    };
    const { page, errors } = await open({ init });
    const press = presser(page, "keys");
    await newGame(page, press, false);
    result.storageOff = { messages: await messages(page), screen: (await look(page)).screen,
      errors };
    await page.close();
  }
  {
    const init = () => {
      const put = Storage.prototype.setItem;
      Storage.prototype.setItem = function (k, v) {
        if (k.startsWith("picoyacht:") && localStorage.getItem("fill-up")) {
          throw new DOMException("full", "QuotaExceededError");
        }
        return put.call(this, k, v);
      };
    };
    const { page, errors } = await open({ init, clear: true });
    await page.evaluate(() => localStorage.setItem("fill-up", "1"));
    const press = presser(page, "keys");
    await newGame(page, press, false);
    const r = await play(page, press, { stopAfter: 1 });
    result.storageFull = { scored: r.scored, messages: await messages(page),
      screen: (await look(page)).screen, errors };
    await page.close();
  }
  {
    const { page, errors, turn } = await threeBoxesSaved();
    await page.evaluate(() => {
      const k = "picoyacht:/saves/game.dat";
      const v = localStorage.getItem(k);
      localStorage.setItem(k, v.slice(0, 40) + (v[40] === "0" ? "1" : "0") + v.slice(41));
    });
    await page.reload();
    await booted(page);
    const s = await look(page);
    result.damaged = { messages: await messages(page), screen: s.screen,
      turnBefore: turn, turnAfter: s.game && s.game.turn, errors };
    result.wiped = await wipeAndLook(page, errors);
    await page.close();
  }
  out(result);
}

// A fresh page's one-player game with three boxes scored, so a backup is stored too.
async function threeBoxesSaved() {
  const { page, errors } = await open({ clear: true });
  const press = presser(page, "keys");
  await newGame(page, press, false);
  await play(page, press, { stopAfter: 3 });
  return { page, errors, turn: (await look(page)).game.turn };
}

// What a wipe leaves: the screen, the game and the keys still under the page's prefix.
async function wipeAndLook(page, errors) {
  await page.click("#wipe"); // confirmed (open() accepts dialogs); the page reloads
  await page.waitForLoadState("load");
  await booted(page);
  const w = await look(page);
  return { screen: w.screen, game: w.game || null, errors,
    stored: await page.evaluate(() => Object.keys(localStorage)
      .filter((k) => k.startsWith("picoyacht:"))) };
}

const ENDS_START = ["wasm", "start", "stopped"].map((id) =>
  `#messages p.bad[data-id="${id}"]`).join(", ");

async function storage() {
  // Values no save can be (600 K characters) under the game's own keys and an unknown one,
  // then a start that fails outright: each said on the page, and Wipe clears it.
  const result = { check: "storage" };
  {
    const { page, errors, turn } = await threeBoxesSaved();
    await page.evaluate(() => {
      const long = "0".repeat(600000);
      localStorage.setItem("picoyacht:/saves/game.dat", long);
      localStorage.setItem("picoyacht:/saves/game.tmp", long);
      localStorage.setItem("picoyacht:/saves/unknown.dat", long);
    });
    await page.reload();
    // The refusals are said before the first frame, so only a message that ends the start
    // (no MicroPython, a failed start, a stop) may end the wait early.
    await page.waitForFunction((ends) => (window.picoyacht && window.picoyacht.frames > 0) ||
      document.querySelector(ends), ENDS_START, { timeout: 30000 });
    const booted_ = await page.evaluate(() => window.picoyacht.frames > 0);
    const s = booted_ ? (await booted(page), await look(page)) : {};
    result.oversized = { booted: booted_, messages: await messages(page), screen: s.screen,
      turnBefore: turn, turnAfter: s.game && s.game.turn, errors };
    result.oversizedWiped = await wipeAndLook(page, errors);
    await page.close();
  }
  {
    const init = () => {
      const get = Storage.prototype.getItem;
      Storage.prototype.getItem = function (k) {
        if (k.startsWith("picoyacht:/saves/") && "picoyacht:break" in this) {
          throw new DOMException("planted failure", "InvalidStateError");
        }
        return get.call(this, k);
      };
    };
    const { page, errors } = await open({ init, clear: true });
    await page.evaluate(() => localStorage.setItem("picoyacht:break", "1"));
    await page.reload();
    await page.waitForSelector("#messages p.bad", { timeout: 30000 });
    result.failedStart = { messages: await messages(page),
      loading: await page.evaluate(() => !document.getElementById("loading").hidden) };
    result.failedWiped = await wipeAndLook(page, errors);
    await page.close();
  }
  out(result);
}

// Installed and offline: the service worker keeps the site and the table a game with an
// Expert seat fetched; with the network off a reload comes back, resumes, and the game
// plays to its end. Also the page's manifest, icon, version and rules panel.
async function offline() {
  const { page, errors } = await open({ clear: true });
  await page.evaluate(() => navigator.serviceWorker.ready);
  const press = presser(page, "keys");
  await newGame(page, press, true, 3);
  await page.waitForFunction(() => !window.picoyacht.board.wanted, null, { timeout: 30000 });
  const first = await play(page, press, { stopAfter: 1 });
  await context.setOffline(true);
  await page.reload();
  await booted(page);
  const resumed = await look(page);
  await press(9); // OK: resume
  await page.waitForFunction(() => !window.picoyacht.board.wanted, null, { timeout: 30000 });
  const rest = await play(page, press);
  const after = await look(page);
  const facts = await page.evaluate(async () => {
    const man = document.querySelector('link[rel="manifest"]');
    const manifest = await (await fetch(man.href)).json();
    const icon = await fetch(manifest.icons[0].src);
    return {
      online: navigator.onLine,
      controlled: !!navigator.serviceWorker.controller,
      manifest: { name: manifest.short_name, display: manifest.display,
        icons: manifest.icons.map((i) => i.sizes) },
      iconType: icon.headers.get("content-type"),
      iconBytes: (await icon.arrayBuffer()).byteLength,
      version: document.querySelector("[data-version]").dataset.version,
      links: [...document.querySelectorAll("#about a")].map((a) => a.getAttribute("href")),
      rules: [...document.querySelectorAll("#rules details")].map((d) => ({
        name: d.querySelector("summary").textContent, open: d.open,
        rows: d.querySelectorAll("tr").length - 1 })),
    };
  });
  await context.setOffline(false);
  out({ check: "offline", first, resumed: resumed.screen, rest, expert: after.kinds[1],
    messages: await messages(page), errors, ...facts });
  await page.close();
}

// Every phone, upright and on its side, and a desktop: where the panel, its frame and each
// on-screen button land, for both builds, with no scrolling.
const VIEWPORTS = [[320, 568], [360, 640], [375, 667], [390, 844], [414, 896], [430, 932],
  [568, 320], [640, 360], [667, 375], [844, 390], [896, 414], [932, 430], [1280, 800]];

async function viewports() {
  const seen = [];
  for (const four of [false, true]) {
    for (const [width, height] of VIEWPORTS) {
      const init = (f) => localStorage.setItem("picoyacht-option:buttons", f ? "4" : "11");
      const page = await context.newPage();
      await page.setViewportSize({ width, height });
      await page.addInitScript(init, four);
      await page.goto(url);
      await booted(page);
      const boxes = await page.evaluate(() => {
        const box = (el) => {
          const r = el.getBoundingClientRect();
          return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
        };
        const frame = document.getElementById("device");
        const edge = parseFloat(getComputedStyle(frame).borderLeftWidth);
        const f = box(frame);
        return {
          panel: box(document.getElementById("panel")),
          inside: { left: f.left + edge, top: f.top + edge, right: f.right - edge,
            bottom: f.bottom - edge },
          buttons: [...document.querySelectorAll("button[data-button]")]
            .filter((b) => b.offsetParent !== null).map(box),
          scrollX: window.scrollX, scrollY: window.scrollY,
          five: document.body.classList.contains("five"),
        };
      });
      seen.push({ four, width, height, ...boxes });
      await page.close();
    }
  }
  out({ check: "viewports", seen });
}

async function bench() {
  // Load: navigation start to the first frame on the canvas; the first load is cold (an
  // empty cache), the rest warm.
  const loads = [];
  for (let i = 0; i < 5; i++) {
    const { page } = await open({ wait: false });
    await page.waitForFunction(() => window.picoyacht && window.picoyacht.title > 0, null,
      { timeout: 30000 });
    loads.push(await page.evaluate(() => window.picoyacht.title));
    await page.close();
  }
  // While CPUs think: a demo game (every seat a CPU) from the title menu. The longest
  // loop pass (Runner.step) per half second, and the frames the browser drew meanwhile.
  const { page } = await open({ clear: true });
  const press = presser(page, "keys");
  await press(8);
  await press(8);
  await press(9);
  await page.evaluate(() => {
    window.picoyacht.board.take_longest_us();
    window.rafCount = 0;
    const tick = () => { window.rafCount++; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  const longestUs = [];
  const t0 = Date.now();
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(500);
    longestUs.push(await page.evaluate(() => window.picoyacht.board.take_longest_us()));
  }
  const fps = (await page.evaluate(() => window.rafCount)) / ((Date.now() - t0) / 1000);
  const s = await look(page);
  out({ check: "bench", loads, longestUs, fps, screen: s.screen, game: s.game || null });
  await page.close();
}

async function shot(path) {
  const { page } = await open({ clear: true, viewport: { width: 600, height: 640 } });
  const press = presser(page, "keys");
  await newGame(page, press, false);
  await press(9);
  await press(6);
  await page.waitForTimeout(500);
  await press(1);
  await press(3);
  await page.waitForTimeout(200);
  await page.screenshot({ path, type: "png", fullPage: true });
  out({ check: "shot", path });
  await page.close();
}

try {
  for (let i = 0; i < scenarios.length; i++) {
    const name = scenarios[i];
    if (name === "shot") await shot(scenarios[++i]);
    else await { frames, keyboard, table, clicks, faults, storage, viewports, offline, bench }[name]();
  }
} finally {
  await close();
}

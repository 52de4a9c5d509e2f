// The one driver of the emulated Pico (tools/emu/emulator.py runs it): a JSON job in (argv[2]), a JSON
// result out (the last line of stdout). Node is only the hands and the eyes: it boots the real
// rp2 firmware (build/rp2emu, rp2040js 1.4.1) or a PicoYacht .uf2, loads a littlefs flash
// image (built once by uploading the `make flash` layout over the raw REPL, then cached) or
// none, runs Python on the device, presses buttons when the device-side player asks for
// them (a GPIO handshake timed on the emulated clock, so a run is deterministic), sends
// Ctrl-C like mpremote, takes frames off the SSD1306 model and counts I2C bytes.
//
// Job fields: uf2, image (none: an empty filesystem), files ([[local, remote]...], used when
// the image is missing), seed, boot:
//   "repl": to the raw REPL, then `setup` ([code]) and `run` (code);
//   "main": power on and let main.py (or the .uf2's frozen entry) run for `bootMs` of
//           emulated time; `presses` ([[atMs, gpio, holdMs]...]) and `shotsAtMs` on the way;
//   "file": power on, Ctrl-C to the friendly REPL, then `steps` ([{put: [path, text]} or
//           {exec: code}], exec output in result.execs), then a soft reset that runs the
//           drive's /main.py on a clean heap, until the console matches `until` (a regex)
//           or `simS` seconds of emulated time have passed.
// Also: timeoutS (wall), holdMs, scratch (the watchdog's eight scratch registers at power-on,
// as a watchdog reset leaves them: the emulator has no reset of its own, so a boot "main"
// ends when the watchdog fires, with result.watchdog = {simMs, scratch}), ctrlc ({delaysMs: [...]}: Ctrl-C this long after the device
// raises ARM_PIN; with boot "main", after `atMs`), flashStall and taps (below).
// `node emulator.mjs --cuts MPYDIR [...]` is the power-cut sweep at the end of this file.
import { readFileSync, writeFileSync, existsSync, mkdirSync, renameSync, mkdtempSync, rmSync }
  from 'fs';
import { tmpdir } from 'os';
import { dirname, join, resolve } from 'path';
import { pathToFileURL } from 'url';

if (process.argv[2] === '--cuts') {
  await cutSweep(process.argv.slice(3));
  process.exit(0);
}
const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const emuDir = resolve(job.emuDir);
const { PicoEmu, SSD1306, suppressed } = await import(pathToFileURL(resolve(emuDir, 'pico-emu.mjs')).href);

// The handshake pins (see tools/rigs/pico_probe.py): five data pins carry a GPIO number + 1 and
// REQ_PIN toggles to ask for a press of that GPIO (for holdMs; with HELD_PIN high, until it falls);
// ARM_PIN high asks for the job's Ctrl-C; SHOT_PIN toggles to ask for a copy of the panel.
const DATA_PINS = [17, 18, 19, 20, 21];
const REQ_PIN = 22;
const HELD_PIN = 2;
const ARM_PIN = 26;
const SHOT_PIN = 27;
const HIGH = 1;

const log = (m) => process.stderr.write(`[pico] ${m}\n`);
const wall0 = Date.now();
const deadline = wall0 + (job.timeoutS ?? 600) * 1000;
const result = { ok: false, out: '', err: '', presses: 0, shots: [], ctrlc: [], i2c: {},
  execs: [] };

async function makeImage() {
  const emu = new PicoEmu({ firmware: job.uf2, seed: job.seed ?? 0x12345678 });
  await emu.boot();
  await emu.execOk(`import os\ndef _mk(p):\n    try: os.mkdir(p)\n    except OSError: pass`);
  const made = new Set();
  for (const [local, remote] of job.files) {
    const parts = remote.split('/');
    for (let i = 1; i < parts.length; i++) {
      const d = '/' + parts.slice(0, i).join('/');
      if (!made.has(d)) { made.add(d); await emu.execOk(`_mk(${JSON.stringify(d)})`); }
    }
    await emu.putFile('/' + remote, readFileSync(local), { chunk: 1024 });
  }
  await emu.execOk('import os; os.sync() if hasattr(os, "sync") else None');
  mkdirSync(dirname(job.image), { recursive: true });
  // written aside, then renamed: a parallel test run may be making the same image
  const part = `${job.image}.${process.pid}.part`;
  writeFileSync(part, emu.dumpFs());
  renameSync(part, job.image);
  emu.stop();
  log(`flash image ${job.image} (${job.files.length} files) in ${Date.now() - wall0} ms`);
}

if (job.image && !existsSync(job.image)) await makeImage();

// The whole 2 MB flash image is what loadFlashImage expects at the filesystem offset.
const emu = new PicoEmu({ firmware: job.uf2, littlefs: job.image ?? null,
  seed: job.seed ?? 0x12345678 });
const watchdog = emu.mcu.peripherals[0x40058];
if (job.scratch) watchdog.scratchData.set(job.scratch);
watchdog.onWatchdogTrigger = () => {
  result.watchdog ??= { simMs: +emu.simMs.toFixed(3), scratch: Array.from(watchdog.scratchData),
    frame: Buffer.from(oled.fb).toString('hex') };
};
const oled = new SSD1306();
let firstFrameMs = null;
let dataBytes = 0;
// The first picture: the data writes that follow the panel's RAM first turning non-blank
// (one flush is a burst of writes; a later frame comes after a loop pass, >= 2 ms on).
let titleStart = null;
let titleMs = null;
emu.addI2CDevice(0, 0x3c, {
  onTransaction: (t) => {
    oled.onTransaction(t);
    if (t.mode === 'w' && t.data[0] & 0x40) {
      dataBytes += t.data.length - 1;
      if (firstFrameMs === null && dataBytes >= 1024) firstFrameMs = emu.simMs;
      if (titleStart === null && oled.fb.some((x) => x !== 0)) titleStart = emu.simMs;
      if (titleStart !== null && titleMs === null) titleMs = emu.simMs;
      else if (titleStart !== null && emu.simMs - titleMs < 2) titleMs = emu.simMs;
    }
  },
});

const pinOut = (i) => emu.mcu.gpio[i].value === HIGH;
const holdMs = job.holdMs ?? 40;
let heldGpio = -1;  // a held press's GPIO, down until HELD_PIN falls
// only a probe that drives HELD_PIN asks (a rig may use the pin otherwise, as an input)
const heldAsked = () => emu.mcu.gpio[HELD_PIN].outputEnable && pinOut(HELD_PIN);
emu.onPinChange(REQ_PIN, () => {
  let gpio = 0;
  DATA_PINS.forEach((p, k) => { if (pinOut(p)) gpio |= 1 << k; });
  gpio -= 1;
  if (gpio < 0) return;
  result.presses++;
  emu.press(gpio);
  if (heldAsked()) heldGpio = gpio; else emu.at(emu.simMs + holdMs, () => emu.release(gpio));
});
emu.onPinChange(HELD_PIN, () => { if (!pinOut(HELD_PIN) && heldGpio >= 0) emu.release(heldGpio); });
let shotLevel = false;
emu.onPinChange(SHOT_PIN, () => {
  const v = pinOut(SHOT_PIN);
  if (v === shotLevel) return;
  shotLevel = v;
  result.shots.push({ simMs: +emu.simMs.toFixed(3), hex: Buffer.from(oled.fb).toString('hex') });
});

// Flash timing (job.flashStall: {eraseMs, pageMs}). rp2040js erases and programs at once.
// The rp2 port runs both with the interrupts off (rp2_flash.c, begin_critical_flash_section)
// and nothing can run from flash meanwhile, so a real chip holds the core for its erase
// (per 4096-byte sector) or program (per 256-byte page) time. Modelled here: after the write,
// the clock runs on for that time with the core held. Timer alarms fall due and pend (the
// IRQ runs when the port turns interrupts back on), pins change as the host drives them.
const stalls = []; // [simMs, ms, 'e' | 'p']
const tapState = { busyUntil: 0, k: 0, saves: 0, erases: 0 };
if (job.flashStall) {
  const { eraseMs = 45, pageMs = 0.4 } = job.flashStall;
  const mcu = emu.mcu;
  const inner = mcu.onBreak;
  mcu.onBreak = (imm) => {
    const r = mcu.core.registers;
    let ms = 0;
    if (imm === 0xe0) ms = eraseMs * Math.ceil((r[1] >>> 0) / 4096);
    else if (imm === 0xe1) ms = pageMs * Math.ceil((r[2] >>> 0) / 256);
    const t = emu.simMs;
    const res = inner(imm);
    if (ms > 0) {
      stalls.push([+t.toFixed(3), ms, imm === 0xe0 ? 'e' : 'p']);
      if (imm === 0xe0 && job.taps && saving) {
        const off = job.taps.eraseOffsetsMs[tapState.erases++ % job.taps.eraseOffsetsMs.length];
        tap(off >= 0 ? t + off : t + ms + off); // < 0: that long before the stall ends
      }
      emu.clock.tick(ms * 1e6);
    }
    return res;
  };
}
// Taps timed on the device's saves (job.taps: {gpios, holdsMs, saveOffsetsMs, eraseOffsetsMs,
// gapMs}): one tap at each save's start + an offset, one at each erase's start + an offset
// (a negative one: before the erase's end),
// never two at once (a tap waits gapMs after the one before). Buttons and holds in turn.
const taps = []; // {gpio, p, r}: pressed and released, emulated ms
const saveWindows = []; // [start, end] of every save (SAVE_PIN high)
let saving = false;
function tap(at) {
  const { gpios, holdsMs, gapMs = 30 } = job.taps;
  at = Math.max(at, tapState.busyUntil + gapMs);
  const gpio = gpios[tapState.k % gpios.length];
  const hold = holdsMs[tapState.k % holdsMs.length];
  tapState.k++;
  emu.at(at, () => emu.press(gpio));
  emu.at(at + hold, () => emu.release(gpio));
  tapState.busyUntil = at + hold;
  taps.push({ gpio, p: +at.toFixed(3), r: +(at + hold).toFixed(3) });
}
if (job.taps) {
  const SAVE_PIN = job.taps.savePin ?? 28;
  emu.onPinChange(SAVE_PIN, () => {
    const v = pinOut(SAVE_PIN);
    if (v === saving) return;
    saving = v;
    if (v) {
      saveWindows.push([+emu.simMs.toFixed(3), null]);
      const offs = job.taps.saveOffsetsMs;
      tap(emu.simMs + offs[tapState.saves++ % offs.length]);
    } else if (saveWindows.length) {
      saveWindows[saveWindows.length - 1][1] = +emu.simMs.toFixed(3);
    }
  });
}

const ctrlcDelays = [...(job.ctrlc?.delaysMs ?? [])];
// Ctrl-C as mpremote sends it; then watch, on the emulated clock, for the REPL to answer
// (the raw REPL's end-of-output mark, or the friendly prompt), and try again each second.
function sendCtrlC(tries = 1, first = null) {
  const c = first ?? { sentMs: +emu.simMs.toFixed(3), outAt: emu.out.length, tries: 0, replMs: null };
  if (!first) result.ctrlc.push(c);
  c.tries = tries;
  emu.write('\r\x03'); // what mpremote's enter_raw_repl writes first
  const t0 = emu.simMs;
  const check = () => {
    const tail = emu.out.slice(c.outAt);
    if (tail.includes('\x04>') || tail.includes('>>> ')) {
      c.replMs = +(emu.simMs - c.sentMs).toFixed(3);
      return;
    }
    if (emu.simMs - t0 >= 1000) { if (tries < 20) sendCtrlC(tries + 1, c); return; }
    emu.at(emu.simMs + 2, check);
  };
  emu.at(emu.simMs + 2, check);
}
let armed = false;
emu.onPinChange(ARM_PIN, () => {
  if (armed || !pinOut(ARM_PIN) || !ctrlcDelays.length) return;
  armed = true;
  emu.at(emu.simMs + ctrlcDelays.shift(), () => sendCtrlC());
});

const until = async (cond, what) => {
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`wall timeout waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

try {
  if (job.boot === 'main') {
    // Power on with main.py on the flash, as the hobbyist's Pico does.
    emu.start();
    await until(() => emu.connected, 'USB');
    if (job.ctrlc) emu.at(job.ctrlc.atMs, () => sendCtrlC());
    for (const [at, gpio, hold] of job.presses ?? []) {
      emu.at(at, () => emu.press(gpio));
      emu.at(at + hold, () => emu.release(gpio));
    }
    for (const at of job.shotsAtMs ?? []) {
      emu.at(at, () => result.shots.push({ simMs: at, hex: Buffer.from(oled.fb).toString('hex') }));
    }
    const end = job.bootMs ?? 2000;
    emu.at(end, () => {}); // an alarm keeps the clock going to the end at an idle REPL
    // At an idle REPL the emulated clock stops: a Ctrl-C that got there ends the run.
    const answered = () => result.ctrlc.length && result.ctrlc.every((c) => c.replMs !== null);
    await until(() => emu.simMs >= end || answered() || result.watchdog,
      `${end} ms of emulated time`);
    result.out = emu.out;
  } else if (job.boot === 'file') {
    emu.start();
    const sim = async (cond, ms, step, what) => {
      for (const end = emu.simMs + ms; !cond() && emu.simMs < end;) {
        if (Date.now() > deadline) throw new Error(`wall timeout waiting for ${what}`);
        await emu.sleepSim(step);
      }
      return cond();
    };
    await sim(() => emu.connected && oled.frames > 0, 20000, 200, 'the first frame');
    await emu.sleepSim(500);
    const atPrompt = () => emu.out.endsWith('>>> ');
    for (let i = 0; i < 40 && !atPrompt(); i++) { emu.write('\x03'); await emu.sleepSim(250); }
    if (!atPrompt()) throw new Error('no REPL after Ctrl-C:\n' + emu.out.slice(-400));
    for (const step of job.steps ?? []) {
      if (step.put) await emu.putFile(step.put[0], step.put[1]);
      else result.execs.push(await emu.exec(step.exec));
    }
    const from = emu.out.length;
    emu.write('\x02\x04'); // friendly REPL, soft reset: /main.py runs on a clean heap
    const done = new RegExp(job.until ?? 'DONE|Traceback');
    const t0 = emu.simMs;
    await sim(() => done.test(emu.out.slice(from)), (job.simS ?? 600) * 1000, 500, job.until);
    result.runMs = emu.simMs - t0;
    result.out = emu.out.slice(from);
  } else {
    await emu.boot({ timeoutMs: 60000 });
    for (const code of job.setup ?? []) await emu.execOk(code);
    const t0 = emu.simMs;
    const r = await emu.exec(job.run, { timeoutMs: Math.max(1000, deadline - Date.now()) });
    result.runMs = emu.simMs - t0;
    result.out = r.out;
    result.err = r.err;
    // At the idle REPL the emulated clock stops, so the watcher may not have run: the
    // clock now is when the device got there.
    for (const c of result.ctrlc) {
      if (c.replMs === null && emu.out.slice(c.outAt).includes('\x04>')) c.replMs = +(emu.simMs - c.sentMs).toFixed(3);
    }
  }
  result.ok = true;
} catch (e) {
  result.error = String(e.message ?? e);
  result.out = result.out || emu.out.slice(-4000);
}
const writes = emu.i2cLog.filter((t) => t.mode === 'w');
result.i2c = { writes: writes.length, bytes: writes.reduce((a, t) => a + t.data.length + 1, 0) };
result.firstFrameMs = firstFrameMs;
result.titleMs = titleMs;
result.simMs = emu.simMs;
result.wallMs = Date.now() - wall0;
result.frame = Buffer.from(oled.fb).toString('hex');
result.displayOn = oled.on;
result.sioWarnings = suppressed.sioWarnings;
if (job.flashStall) result.stalls = stalls;
if (job.taps) { result.taps = taps; result.saveWindows = saveWindows; }
emu.stop();
process.stdout.write('\n' + JSON.stringify(result) + '\n');
process.exit(0);

// Power cuts at every flash erase and program of every save, on the real rp2 firmware: no
// cut may lose both copies of a save or leave one that loads wrong. The emulated Pico (build/rp2emu, a copy of ../shared/rp2emu) runs
// MicroPython v1.28.0 with its own _boot.py, which mounts littlefs on the flash with the
// Pico's geometry (4096-byte blocks, 256-byte program). A session of saves (settings, two
// games of many boxes each -- one small enough for littlefs to inline, one that is not --
// and records) runs once while every flash operation is recorded. Then for each cut point
// the flash is rebuilt as the power left it -- every operation before the cut, and
// optionally the cut operation torn (half programmed, half erased) -- and the emulator
// boots that image through _boot.py (a fresh emulator every --cold cut points, else a soft
// reset of one with the image written to its flash), reads the saves with the app's store
// and checks:
// the game is the last completed save or the one in progress (none only before the first
// save), settings and records likewise; the resumed game validates, plays one more box and
// saves it.
//
//   node tools/emu/emulator.mjs --cuts MPYDIR [--games 2] [--boxes 6] [--stride 1] [--torn 1] [--cold 8]
//                                        [--broken 1]
//
// --broken 1 is the negative control: a store that removes a kind's copies before it writes
// the new one, which these checks must catch (FAILURES above 0).
//
// MPYDIR holds picoyacht/*.mpy (tools/stress/stress.py builds it). Prints "KEY value" lines like
// the stress scripts (FAILURES must be 0).

async function cutSweep(args) {
  const EMU = resolve(new URL('../..', import.meta.url).pathname, 'build/rp2emu');
  const { PicoEmu, MPY_FS_FLASH_OFFSET } = await import(join(EMU, 'pico-emu.mjs'));
  const FIRMWARE = join(EMU, 'firmware/RPI_PICO-v1.28.0.uf2');
  const FS_SIZE = 352 * 4096;
  const MODULES = ['__init__', 'rules', 'game', 'snapshot', 'invariants', 'reachable', 'score_rows', 'store'];

  const mpyDir = args[0];
  const opt = (name, dflt) => {
    const i = args.indexOf('--' + name);
    return i >= 0 ? Number(args[i + 1]) : dflt;
  };
  const GAMES = opt('games', 2);
  const BOXES = opt('boxes', 6);
  const STRIDE = opt('stride', 1);
  const TORN = opt('torn', 1);
  const COLD = opt('cold', 8); // every COLD-th cut point boots a fresh emulator
  const BROKEN = opt('broken', 0); // 1: the negative control, whose checks must fail
  const out = (k, ...v) => console.log(k, ...v);

  // Device code shared by the session and the checks: the store as the app builds it, the
  // app's check for the game file, and a deterministic roller.
  const COMMON = `
from picoyacht.store import OsFs, Store
from picoyacht.game import Game
from picoyacht import invariants
class R:
    def __init__(s, x):
        s.x = x
    def d6(s):
        s.x = (s.x * 75 + 74) % 65537
        return s.x % 6 + 1
class RemoveFirst(Store):  # --broken 1: the old copies go before the new one is whole
    def save(s, kind, payload):
        for p in (".dat", ".bak"):
            try:
                s.fs.remove(s.root + kind + p)
            except OSError:
                pass
        s._slots.pop(kind, None)
        return Store.save(s, kind, payload)
st = (RemoveFirst if ${BROKEN} else Store)(OsFs(), "/saves")
def chk(p):
    return Game.restore(p) is not None
def one_box(g):
    g.roll()
    for b in range(g.rs.nboxes):
        if g.allowed() >> b & 1:
            g.score(b)
            return
  `;

  function newEmu(image) {
    let path = null;
    if (image) {
      const dir = mkdtempSync(join(tmpdir(), 'saves-emu-'));
      path = join(dir, 'fs.img');
      writeFileSync(path, image);
    }
    const emu = new PicoEmu({ firmware: FIRMWARE, littlefs: path });
    if (path) rmSync(path, { force: true });
    return emu;
  }

  // Record every erase and program (offset, bytes) while `emu.recording` is set.
  function recordFlash(emu) {
    const mcu = emu.mcu;
    const inner = mcu.onBreak;
    emu.ops = [];
    mcu.onBreak = (imm) => {
      const r = mcu.core.registers;
      if (emu.recording && imm === 0xe0) {
        emu.ops.push({ erase: true, addr: r[0] >>> 0, count: r[1] >>> 0 });
      } else if (emu.recording && imm === 0xe1) {
        const addr = r[0] >>> 0, data = r[1] >>> 0, count = r[2] >>> 0;
        const bytes = new Uint8Array(count);
        for (let i = 0; i < count; i++) bytes[i] = mcu.readUint8(data + i);
        emu.ops.push({ erase: false, addr, count, bytes });
      }
      return inner(imm);
    };
  }

  function apply(image, op, fraction = 1) {
    const start = op.addr - MPY_FS_FLASH_OFFSET;
    const n = Math.floor(op.count * fraction);
    if (start < 0 || start + op.count > FS_SIZE) throw new Error('flash op outside the filesystem');
    for (let i = 0; i < n; i++) {
      if (op.erase) image[start + i] = 0xff;
      else image[start + i] &= op.bytes[i];
    }
  }

  async function session() {
    const emu = newEmu(null);
    recordFlash(emu);
    await emu.boot();
    await emu.execOk('import os\nos.mkdir("/picoyacht")\nos.mkdir("/saves")');
    for (const m of MODULES) {
      await emu.putFile(`/picoyacht/${m}.mpy`, readFileSync(join(mpyDir, 'picoyacht', m + '.mpy')));
    }
    await emu.execOk(COMMON);
    const base = Buffer.from(emu.dumpFs());
    emu.recording = true;
    const saves = []; // {kind, payload (hex) or null, first op, end op}
    const save = async (kind, code) => {
      const first = emu.ops.length;
      const o = await emu.execOk(code);
      const m = /^(True|False) (\S*)/.exec(o.trim());
      if (!m || m[1] !== 'True') throw new Error(`save failed: ${o}`);
      saves.push({ kind, payload: m[2] === '-' ? null : m[2], first, end: emu.ops.length });
    };
    const hexSave = (kind, expr) =>
      `p = ${expr}\nprint(st.save("${kind}", p), bytes(p).hex())`;
    await save('settings', hexSave('settings', 'b"settings-1"'));
    const setups = [
      'Game(0, ["Ann", "Bob"], bytearray(2), None, R(7), 7)', // inline in littlefs metadata
      'Game(4, ["ABCDEFGH"] * 6, bytearray(6), None, R(9), 9)', // Maxi, 6 long names
    ];
    for (let gi = 0; gi < GAMES; gi++) {
      await emu.execOk(`g = ${setups[gi % setups.length]}`);
      for (let b = 0; b < BOXES; b++) {
        await save('game', `one_box(g)\n${hexSave('game', 'g.snapshot()')}`);
      }
    }
    await save('records', hexSave('records', 'b"records-1"'));
    await save('game', 'print(st.delete("game"), "-")');
    emu.stop();
    const erase = emu.ops.filter((o) => o.erase).length;
    return { base, ops: emu.ops, saves, erase, program: emu.ops.length - erase };
  }

  // What a boot may find after a cut before op `n` (n ops applied): per kind, the payloads.
  function allowed(saves, n) {
    const ok = { settings: [null], records: [null], game: [null] };
    for (const s of saves) {
      if (s.end <= n) ok[s.kind] = [s.payload];
      else if (s.first <= n) ok[s.kind].push(s.payload);
    }
    return ok;
  }

  const CHECK = `
res = {}
for k in ("settings", "records", "game"):
    p = st.load(k, chk if k == "game" else None)
    print("LOAD", k, bytes(p).hex() if p else "-", st.last_error.replace(" ", "_") or "ok")
    res[k] = p
if res["game"]:
    g = Game.restore(res["game"], R(3))
    invariants.validate(g)
    if not g.over:
        one_box(g)
        print("PLAYED_ON", st.save("game", g.snapshot()), st.last_error.replace(" ", "_"))
        invariants.validate(Game.restore(st.load("game", chk)))
        print("RELOADED", bytes(st.load("game")).hex() == bytes(g.snapshot()).hex())
  `;

  // A booted emulator for the checks: each check either boots a fresh one on the image
  // (cold) or writes the image into its flash and soft-resets it, which runs _boot.py and
  // mounts the filesystem afresh as well, in a fraction of the time.
  let checker = null;

  async function boot(image, cold) {
    if (cold || !checker) {
      if (checker) checker.stop();
      checker = newEmu(image);
      await checker.boot();
      await checker.enterRaw();
      return checker;
    }
    checker.mcu.flash.set(image, MPY_FS_FLASH_OFFSET);
    const from = checker.out.length;
    checker.write('\x04'); // Ctrl-D at the raw REPL: soft reset
    await checker.waitFor('soft reboot', { from });
    await checker.waitFor('raw REPL; CTRL-B to exit\r\n>', { from });
    return checker;
  }

  async function bootAndCheck(image, ok, tally, where, cold) {
    try {
      const emu = await boot(image, cold);
      if (cold) tally.cold++;
      const o = await emu.exec(COMMON + CHECK, { timeoutMs: 120000 });
      if (o.err) throw new Error(o.err);
      const got = {};
      for (const line of o.out.split(/\r?\n/)) {
        const w = line.trim().split(' ');
        if (w[0] === 'LOAD') got[w[1]] = { payload: w[2] === '-' ? null : w[2], msg: w[3] };
        if (w[0] === 'PLAYED_ON' && w[1] !== 'True') tally.fail(`${where}: could not save after resume ${w[2]}`);
        if (w[0] === 'RELOADED' && w[1] !== 'True') tally.fail(`${where}: the save after resume did not load`);
        if (w[0] === 'PLAYED_ON') tally.playedOn++;
      }
      for (const k of ['settings', 'records', 'game']) {
        if (!got[k]) { tally.fail(`${where}: no result for ${k}`); continue; }
        const i = ok[k].indexOf(got[k].payload);
        if (i < 0) tally.fail(`${where}: ${k} is neither the last nor the save in progress`);
        if (k === 'game') {
          if (got[k].payload === null) tally.noGame++;
          else if (got[k].payload === ok[k][ok[k].length - 1] && ok[k].length > 1) tally.last++;
          else tally.previous++;
        }
        if (got[k].msg !== 'ok') tally.messages[got[k].msg] = (tally.messages[got[k].msg] || 0) + 1;
      }
    } catch (e) {
      tally.fail(`${where}: ${String(e.message || e).slice(0, 300)}`);
      if (checker) checker.stop();
      checker = null;
    }
  }

  const tally = {
    failures: 0, last: 0, previous: 0, noGame: 0, playedOn: 0, cold: 0, messages: {},
    fail(what) {
      this.failures++;
      if (this.failures <= 10) console.log('FAIL', what);
    },
  };
  const t0 = Date.now();
  const s = await session();
  out('EMU_SESSION_SECONDS', Math.round((Date.now() - t0) / 1000));
  out('EMU_SAVES', s.saves.length);
  out('EMU_FLASH_ERASES', s.erase);
  out('EMU_FLASH_PROGRAMS', s.program);
  out('EMU_GAME_BYTES_MAX', Math.max(...s.saves.filter((x) => x.payload).map((x) => x.payload.length / 2)));
  let cuts = 0, torn = 0;
  const image = Buffer.from(s.base);
  for (let n = 0; n < s.ops.length; n++) {
    if (n % STRIDE === 0) {
      const ok = allowed(s.saves, n);
      await bootAndCheck(image, ok, tally, `cut before op ${n}`, cuts % COLD === 0);
      cuts++;
      if (TORN) {
        const t = Buffer.from(image);
        apply(t, s.ops[n], 0.5);
        await bootAndCheck(t, ok, tally, `op ${n} torn`, false);
        torn++;
      }
    }
    apply(image, s.ops[n]);
  }
  await bootAndCheck(image, allowed(s.saves, s.ops.length), tally, 'after the session', true);
  if (checker) checker.stop();
  out('EMU_CUT_POINTS', cuts);
  out('EMU_TORN_OPS', torn);
  out('EMU_BOOTS', cuts + torn + 1);
  out('EMU_COLD_BOOTS', tally.cold);
  out('EMU_RESUMED_LAST', tally.last);
  out('EMU_RESUMED_PREVIOUS', tally.previous);
  out('EMU_NO_GAME', tally.noGame);
  out('EMU_PLAYED_ON', tally.playedOn);
  for (const [m, c] of Object.entries(tally.messages)) out('MESSAGE', c, m);
  out('EMU_SECONDS', Math.round((Date.now() - t0) / 1000));
  out('FAILURES', tally.failures);
}

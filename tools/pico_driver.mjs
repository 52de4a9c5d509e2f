// One run of the emulated Pico for tools/pico.py: a JSON job in (argv[2]), a JSON result out
// (the last line of stdout). Node is only the hands and the eyes: it boots the real rp2
// firmware (build/rp2emu, rp2040js 1.4.1), loads a littlefs flash image (built once by
// uploading the `make flash` layout over the raw REPL, then cached), runs Python on the
// device, presses buttons when the device-side player asks for them (a GPIO handshake timed
// on the emulated clock, so a run is deterministic), sends Ctrl-C like mpremote, takes
// frames off the SSD1306 model and counts I2C bytes.
//
// Job fields: uf2, image, files ([[local, remote]...], used when the image is missing),
// seed, boot ("repl": to the REPL, then `setup` and `run` in the raw REPL; "main": power on
// and let main.py run, for `bootMs` of emulated time), setup ([code]), run (code),
// timeoutS (wall), holdMs, ctrlc ({delaysMs: [...]}: Ctrl-C this long after the device
// raises ARM_PIN; with boot "main", after `atMs`), shots (frames on SHOT_PIN strobes).
import { readFileSync, writeFileSync, existsSync, mkdirSync, renameSync } from 'fs';
import { dirname, resolve } from 'path';
import { pathToFileURL } from 'url';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const emuDir = resolve(job.emuDir);
const { PicoEmu, SSD1306, suppressed } = await import(pathToFileURL(resolve(emuDir, 'pico-emu.mjs')).href);

// The handshake pins (see tools/pico_probe.py): five data pins carry a GPIO number + 1 and
// REQ_PIN toggles to ask for a press of that GPIO; ARM_PIN high asks for the job's Ctrl-C;
// SHOT_PIN toggles to ask for a copy of the panel.
const DATA_PINS = [17, 18, 19, 20, 21];
const REQ_PIN = 22;
const ARM_PIN = 26;
const SHOT_PIN = 27;
const HIGH = 1;

const log = (m) => process.stderr.write(`[pico] ${m}\n`);
const wall0 = Date.now();
const deadline = wall0 + (job.timeoutS ?? 600) * 1000;
const result = { ok: false, out: '', err: '', presses: 0, shots: [], ctrlc: [], i2c: {} };

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

if (!existsSync(job.image)) await makeImage();

// The whole 2 MB flash image is what loadFlashImage expects at the filesystem offset.
const emu = new PicoEmu({ firmware: job.uf2, littlefs: job.image, seed: job.seed ?? 0x12345678 });
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
emu.onPinChange(REQ_PIN, () => {
  let gpio = 0;
  DATA_PINS.forEach((p, k) => { if (pinOut(p)) gpio |= 1 << k; });
  gpio -= 1;
  if (gpio < 0) return;
  result.presses++;
  emu.press(gpio);
  emu.at(emu.simMs + holdMs, () => emu.release(gpio));
});
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
    const end = job.bootMs ?? 2000;
    // At an idle REPL the emulated clock stops: a Ctrl-C that got there ends the run.
    const answered = () => result.ctrlc.length && result.ctrlc.every((c) => c.replMs !== null);
    await until(() => emu.simMs >= end || answered(), `${end} ms of emulated time`);
    result.out = emu.out;
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
result.sioWarnings = suppressed.sioWarnings;
if (job.flashStall) result.stalls = stalls;
if (job.taps) { result.taps = taps; result.saveWindows = saveWindows; }
emu.stop();
process.stdout.write('\n' + JSON.stringify(result) + '\n');
process.exit(0);

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
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'fs';
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
  writeFileSync(job.image, emu.dumpFs());
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
emu.stop();
process.stdout.write('\n' + JSON.stringify(result) + '\n');
process.exit(0);

// Boots a PicoYacht .uf2 on the emulated Pico (../shared/rp2emu, RP2040 only) and plays it.
// Self-contained on purpose: one file to point at a shared emulator API later.
//
//   node tools/uf2/emu.mjs boot UF2
//       empty filesystem, the frozen entry point runs: prints JSON with the console, the
//       title frame (hex of the SSD1306 RAM) and the frame after pressing OK (GP15)
//   node tools/uf2/emu.mjs game UF2 [--free BYTES] [--seats N] [--rules R] [--coach C]
//                                   [--config TEXT]
//       Ctrl-C to the REPL, then a /main.py harness on the drive (the frozen entry runs it
//       instead of the game): leaves BYTES of heap free with a blocker, then runs the real
//       board and loop with an all-Expert game of N seats, coach C (0 off, 1 hints, 2 tips:
//       every move judged). Prints JSON: completed, the heap left by the blocker, the first
//       failure, the frozen-module check.
//   node tools/uf2/emu.mjs exec UF2 --code TEXT
//       empty filesystem, Ctrl-C to the REPL, then TEXT as /main.py after a soft reset (a
//       clean heap; the frozen entry runs it): prints JSON with its console output. TEXT
//       ends by printing DONE.
// RP2EMU names the emulator folder (default build/rp2emu, set up by `make uf2-emu`).
import { readFileSync } from 'fs';
import { dirname, resolve } from 'path';
import { fileURLToPath } from 'url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const EMU = resolve(process.env.RP2EMU ?? `${ROOT}/build/rp2emu`);
const { PicoEmu, SSD1306 } = await import(`${EMU}/pico-emu.mjs`);

const OK_PIN = 15; // config.py's "ok" button
const hex = (a) => Buffer.from(a).toString('hex');

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
}

function makeEmu(uf2) {
  const emu = new PicoEmu({ firmware: uf2, littlefs: null });
  const oled = new SSD1306();
  emu.addI2CDevice(0, 0x3c, oled);
  return { emu, oled };
}

// Run device time until the console has `text` (or `bad`), at most `ms` of device time.
async function until(emu, test, ms, step = 200) {
  const end = emu.simMs + ms;
  while (emu.simMs < end) {
    if (test()) return true;
    await emu.sleepSim(step);
  }
  return test();
}

async function boot(uf2) {
  const { emu, oled } = makeEmu(uf2);
  emu.start();
  // (What the entry point prints before the host opens the USB port is lost, as on a Pico.)
  await until(emu, () => oled.frames > 0, 20000, 1);
  const displayMs = emu.simMs; // power-on to the panel's first frame
  // the title settles: titleMs is when the panel last changed (2 ms resolution)
  let seen = hex(oled.fb);
  let titleMs = displayMs;
  for (const end = emu.simMs + 1500; emu.simMs < end;) {
    await emu.sleepSim(2);
    const now = hex(oled.fb);
    if (now !== seen) {
      seen = now;
      titleMs = emu.simMs;
    }
  }
  const title = hex(oled.fb);
  emu.at(emu.simMs + 10, () => emu.press(OK_PIN));
  emu.at(emu.simMs + 110, () => emu.release(OK_PIN));
  await emu.sleepSim(800);
  const next = hex(oled.fb);
  emu.stop();
  return { console: emu.out, title, next, on: oled.on, displayMs, titleMs };
}

// The drive's /main.py for `game`: PicoYacht's own board and loop, a game set up the way
// the setup screen's START does, after a blocker that leaves `free` bytes of heap.
function harness({ free, seats, rules, coach }) {
  return `import gc, sys
gc.collect()
_blocker = bytearray(max(16, gc.mem_free() - ${free} - 48)) if ${free} else None
gc.collect()
print("HEAP_LEFT", gc.mem_free())
from picoyacht.board_pico import make_board
from picoyacht import app as A
board = make_board()
runner = A.Runner(board)
app = runner.app
s = app.settings
s.rid = ${rules}
s.nplayers = ${seats}
s.coach = ${coach}
for i in range(${seats}):
    s.kinds[i] = 3
_fault = app.fault


def fault(e):  # where it failed, then the app's own handling
    sys.print_exception(e)
    _fault(e)


app.fault = fault
app.new_game()  # what setup's Start does once its key handler has returned
try:
    runner.run()
finally:
    board.restore()
`;
}

// Every module of the package must come from the firmware, not from a file.
const FROZEN_CHECK = `import os, sys
bad = []
for n in sorted(os.listdir('/rom/tables')):
    print('ROM', n, os.stat('/rom/tables/' + n)[6])
from picoyacht import version, strategy_table
t = strategy_table.Table.open('/rom/tables/yatzy.bin')
print('TABLE', t.rid, t.nb, t.f)
print('VERSION', version.VERSION)
def on_drive(mod):
    try:
        return os.stat(mod.__file__) and mod.__file__
    except OSError:  # frozen: its __file__ names no file (the drive has no copies here)
        return None
for m in MODULES:
    f = on_drive(__import__('picoyacht.' + m, None, None, [m]))
    if f:
        bad.append(f)
import config
print('FROZEN_BAD', bad, on_drive(config))
`;

// A game that "completes" reached its end with none of these on the console.
const FAILURE = /Traceback|MemoryError|cpu_error|save_error|"ev":"fault"/;

async function toRepl(emu) {
  for (let i = 0; i < 40 && !emu.out.endsWith('>>> '); i++) {
    emu.write('\x03');
    await emu.sleepSim(250);
  }
  if (!emu.out.endsWith('>>> ')) throw new Error('no REPL after Ctrl-C:\n' + emu.out.slice(-400));
}

async function game(uf2) {
  const opts = { free: +arg('--free', 0), seats: +arg('--seats', 4), rules: +arg('--rules', 0),
    coach: +arg('--coach', 0) };
  const modules = JSON.parse(arg('--modules', '[]'));
  const config = arg('--config', null);
  const { emu, oled } = makeEmu(uf2);
  emu.start();
  await until(emu, () => emu.connected && oled.frames > 0, 20000);
  await emu.sleepSim(500);
  await toRepl(emu);
  const check = await emu.exec(`MODULES = ${JSON.stringify(modules)}\n` + FROZEN_CHECK);
  if (config !== null) await emu.putFile('/config.py', config);
  await emu.putFile('/main.py', harness(opts));
  const cfg = config === null ? null
    : await emu.exec('from picoyacht.board_pico import load_config\nc = load_config()\n' +
                     'print(c.WDT_MS, c.SAMPLE_MS, c.SDA, c.OLED_ADDR)');
  const from = emu.out.length;
  emu.write('\x02\x04'); // friendly REPL, soft reset: the frozen entry runs /main.py
  const log = () => emu.out.slice(from);
  const failed = () => FAILURE.test(log());
  const t0 = emu.simMs;
  const done = await until(emu, () => log().includes('"ev":"end"') || failed(), 1800000, 1000);
  emu.stop();
  const out = log();
  const left = /HEAP_LEFT (\d+)/.exec(out);
  const fail = new RegExp(`.*(${FAILURE.source}).*(\\r?\\n.*){0,12}`).exec(out);
  return {
    completed: done && out.includes('"ev":"end"') && !failed(),
    heap_left: left ? +left[1] : null,
    sim_s: Math.round((emu.simMs - t0) / 1000),
    failure: fail ? fail[0] : null,
    check: check.out + check.err,
    config: cfg ? cfg.out + cfg.err : null,
    frames: oled.frames,
    tail: out.slice(-600),
  };
}

async function execCode(uf2) {
  const { emu, oled } = makeEmu(uf2);
  emu.start();
  await until(emu, () => emu.connected && oled.frames > 0, 20000);
  await emu.sleepSim(500);
  await toRepl(emu);
  await emu.putFile('/main.py', arg('--code', 'print("DONE")'));
  const from = emu.out.length;
  emu.write('\x02\x04');
  await until(emu, () => /DONE|Traceback/.test(emu.out.slice(from)), 600000, 500);
  emu.stop();
  return { out: emu.out.slice(from) };
}

const [mode, uf2] = process.argv.slice(2);
const result = mode === 'boot' ? await boot(uf2) : mode === 'exec' ? await execCode(uf2)
  : await game(uf2);
console.log(JSON.stringify(result));
process.exit(0);

// Power cuts at every flash erase and program of every save, on the real rp2 firmware
// (issue 10, item 5). The emulated Pico (build/rp2emu, a copy of ../shared/rp2emu) runs
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
//   node tools/saves_emu.mjs MPYDIR [--games 2] [--boxes 6] [--stride 1] [--torn 1] [--cold 8]
//                                   [--broken 1]
//
// --broken 1 is the negative control: a store that removes a kind's copies before it writes
// the new one, which these checks must catch (FAILURES above 0).
//
// MPYDIR holds picoyacht/*.mpy (tools/stress.py builds it). Prints "KEY value" lines like
// the stress scripts (FAILURES must be 0). Self-contained: meant to move onto a shared
// emulator API later.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const HERE = new URL('..', import.meta.url).pathname;
const EMU = resolve(HERE, 'build/rp2emu');
const { PicoEmu, MPY_FS_FLASH_OFFSET } = await import(join(EMU, 'pico-emu.mjs'));
const FIRMWARE = join(EMU, 'firmware/RPI_PICO-v1.28.0.uf2');
const FS_SIZE = 352 * 4096;
const MODULES = ['__init__', 'rules', 'game', 'snapshot', 'invariants', 'reachable', 'score_rows', 'store'];

const args = process.argv.slice(2);
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
process.exit(0);

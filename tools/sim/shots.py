"""`make shots`: PNG screenshots of every screen, from the real framebuffer.

Runs tools/rigs/shots_mp.py under the MicroPython unix port (the firmware as .mpy, as on the
Pico), then scales each 128x64 frame up with an OLED look: lit pixels in pale cyan on
near-black, with a faint gap between pixels. PNGs are written with zlib + struct only.
Output: build/shots/*.png, and docs/shots/ (small files the README shows). A screen whose
values were pinned for a stable picture (CAPTIONS) gets a line under the panel saying so.
"""

import struct
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
from paths import RIGS, ROOT, TOOLS

SCALE = 4
ON = (170, 235, 255)
ON_EDGE = (110, 170, 200)
OFF = (8, 10, 14)
OFF_EDGE = (14, 16, 22)
BORDER = 6
CAPTION_INK = (255, 190, 90)
# Screens showing pinned, not measured, values (shots_mp.py pins them for the goldens).
CAPTIONS = {"diagnostics": "Sample values only"}


def frames_from_micropython(heap="256k", out=ROOT / "build" / "shots-mpy"):
    """Every screen's framebuffer, drawn by the firmware under MicroPython (shots_mp)."""
    import mpy_run

    out = mpy_run.build(out, (TOOLS / "sim" / "board_sim.py", RIGS / "shots_mp.py"))
    r = mpy_run.run(mpy_run.call("shots_mp"), [out], heap, timeout=300)
    if r.returncode:
        raise SystemExit("shots_mp failed:\n" + r.stdout[-2000:] + r.stderr)
    return parse(r.stdout)


def parse(text):
    frames = []
    for line in text.splitlines():
        if line.startswith("FRAME "):
            _, name, hx = line.split(" ")
            frames.append((name, bytes.fromhex(hx)))
    return frames


def pixel(frame, x, y):
    return frame[(y >> 3) * 128 + x] >> (y & 7) & 1


def caption_page(text):
    """One 128x8 MONO_VLSB page with text centred in the firmware's own font."""
    from picoyacht import font

    page = bytearray(128)
    x = (128 - len(text) * font.CELL) // 2
    for ch in text:
        code = ord(ch) if ord(ch) < 128 else 63
        page[x:x + font.WIDTH] = font.GLYPHS[code * font.WIDTH:(code + 1) * font.WIDTH]
        x += font.CELL
    return page


def png(frame, scale=SCALE, caption=None):
    """An RGB PNG of one frame, each OLED pixel a scale x scale square; a caption goes in
    its own band under the panel, in another colour, so it is never taken for the screen."""
    w = 128 * scale + 2 * BORDER
    h = 64 * scale + 2 * BORDER
    rows = []
    blank = bytes(OFF) * w
    for _ in range(BORDER):
        rows.append(b"\x00" + blank)
    for y in range(64):
        for sy in range(scale):
            edge_y = sy == scale - 1
            line = bytearray(bytes(OFF) * BORDER)
            for x in range(128):
                on = pixel(frame, x, y)
                for sx in range(scale):
                    edge = edge_y or sx == scale - 1
                    if on:
                        line += bytes(ON_EDGE if edge else ON)
                    else:
                        line += bytes(OFF_EDGE if edge else OFF)
            line += bytes(OFF) * BORDER
            rows.append(b"\x00" + bytes(line))
    for _ in range(BORDER):
        rows.append(b"\x00" + blank)
    if caption:
        page = caption_page(caption)
        half = max(1, scale // 2)  # the caption at half the panel's pixel size
        for y in range(8):
            line = bytearray(bytes(OFF) * ((w - 128 * half) // 2))
            for x in range(128):
                line += bytes(CAPTION_INK if page[x] >> y & 1 else OFF) * half
            line += bytes(OFF) * (w - len(line) // 3)
            for _ in range(half):
                rows.append(b"\x00" + bytes(line))
        for _ in range(BORDER):
            rows.append(b"\x00" + blank)
        h += 8 * half + BORDER
    return encode_png(w, h, rows)


def encode_png(w, h, rows):
    """An 8-bit RGB PNG from its rows, each a filter byte (0) and w RGB triples."""
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    hdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", hdr) + chunk(b"IDAT", raw) + chunk(
        b"IEND", b"")


def main():
    frames = frames_from_micropython()
    outs = [ROOT / "build" / "shots", ROOT / "docs" / "shots"]
    for d in outs:
        d.mkdir(parents=True, exist_ok=True)
    for name, frame in frames:
        data = png(frame, caption=CAPTIONS.get(name))
        for d in outs:
            (d / (name + ".png")).write_bytes(data)
    print("%d screens -> %s" % (len(frames), ", ".join(str(d.relative_to(ROOT)) for d in outs)))


if __name__ == "__main__":
    main()

"""Golden framebuffers of every screen, the font table, and PNG output.

Frames come from tools/rigs/shots_mp.py under the MicroPython unix port: real button presses
on the headless board, captured from the emulated panel (what the driver sent). Regenerate
after an intended UI change with:  UPDATE_GOLDEN=1 .venv/bin/pytest host_tests/test_ui.py
"""

import os
import struct
import subprocess
import sys
import zlib

import mpy_run
import pytest

from conftest import HOST_TESTS, RIGS, ROOT, compiled_firmware

GOLDEN = HOST_TESTS / "golden"
SCREENS = {
    "title", "setup", "name", "setup_start", "handover", "play_ready", "play_rolling",
    "play_rolled", "play_held", "card_p1", "card_p2", "card_confirm_zero", "menu", "scores",
    "scores_grid", "scores_casino", "rolloff",
    "card_fullhouse", "handover_cpu", "play_cpu", "game_over", "ratings", "records",
    "records_names", "four_ready", "four_cursor", "four_hint", "boot_corrupt", "diagnostics",
    "game_over_coach", "play_tip", "game_over_solo", "handover_drawn", "setup_no_table",
    "handover_tip", "menu_over", "card_casino", "game_over_casino", "records_wallets", "bank",
    "box_help",
}


@pytest.fixture(scope="module")
def frames():
    out = mpy_run.compile_scripts(compiled_firmware(), (
        ROOT / "tools" / "sim" / "board_sim.py", RIGS / "shots_mp.py"))
    r = mpy_run.run(mpy_run.call("shots_mp"), [out], "320k", timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    import shots

    return dict(shots.parse(r.stdout))


def art(frame):
    rows = []
    for y in range(64):
        rows.append("".join("#" if frame[(y >> 3) * 128 + x] >> (y & 7) & 1 else "."
                            for x in range(128)))
    return "\n".join(rows)


def test_every_screen_is_captured(frames):
    assert set(frames) == SCREENS
    for name, f in frames.items():
        assert len(f) == 1024 and any(f), name


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_golden(frames, name):
    path = GOLDEN / (name + ".hex")
    got = frames[name]
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        path.write_text(got.hex() + "\n")
        if not os.environ.get("UPDATE_GOLDEN"):
            pytest.skip("golden written: " + path.name)
    want = bytes.fromhex(path.read_text().strip())
    if got != want:
        pytest.fail("frame %s differs from its golden\n--- golden\n%s\n--- now\n%s" % (
            name, art(want), art(got)))


def test_distinct_box_states_in_monochrome(frames):
    """The four box states use four different marks (lock, check, plus, cross)."""
    from picoyacht import card, font

    marks = card.STATE_MARK
    assert len(set(marks)) == 4
    glyphs = {bytes(font.GLYPHS[m * 5:m * 5 + 5]) for m in marks}
    assert len(glyphs) == 4 and bytes(5) not in glyphs


def test_font_is_generated_from_its_source():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "deploy" / "mkfont.py"), "--check"])
    assert r.returncode == 0, "run: python tools/deploy/mkfont.py"


def test_png_writer_makes_a_valid_png(frames):
    import shots

    data = shots.png(frames["title"], scale=2)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    n = struct.unpack(">I", data[8:12])[0]
    w, h = struct.unpack(">II", data[16:24])
    assert data[12:16] == b"IHDR" and n == 13
    assert (w, h) == (256 + 2 * shots.BORDER, 128 + 2 * shots.BORDER)
    pos = 8 + 12 + n
    ln = struct.unpack(">I", data[pos:pos + 4])[0]
    raw = zlib.decompress(data[pos + 8:pos + 8 + ln])
    assert len(raw) == h * (1 + 3 * w)


def test_pinned_screens_are_captioned_as_samples(frames):
    """diagnostics.png shows pinned heap and versions: its PNG says they are a sample."""
    import shots

    assert set(shots.CAPTIONS) <= set(frames) and "diagnostics" in shots.CAPTIONS
    plain = shots.png(frames["diagnostics"], scale=2)
    data = shots.png(frames["diagnostics"], scale=2, caption=shots.CAPTIONS["diagnostics"])
    w, h = struct.unpack(">II", data[16:24])
    assert h == struct.unpack(">II", plain[16:24])[1] + 8 + shots.BORDER
    n = struct.unpack(">I", data[8:12])[0]
    pos = 8 + 12 + n
    ln = struct.unpack(">I", data[pos:pos + 4])[0]
    raw = zlib.decompress(data[pos + 8:pos + 8 + ln])
    assert len(raw) == h * (1 + 3 * w)
    band = raw[(h - 8 - shots.BORDER) * (1 + 3 * w):]
    assert bytes(shots.CAPTION_INK) in band  # the words are there, in the caption colour
    page = shots.caption_page("Sample values only")
    assert page == shots.caption_page(shots.CAPTIONS["diagnostics"]) and any(page)

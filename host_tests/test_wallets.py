"""Casino's wallets (RULES.md section 3): credits per player name, kept with the records;
each seat stakes the bet, the winner takes the pot (split on a tie), the bank pays the
first-roll rewards. Settled once, when the records count the finished game: never twice,
never for a game left unfinished, never by the demo; a file with impossible wallets is
refused without losing the game.

A twin module: tests marked micropython run on both interpreters (host_tests/mp/README.md);
the ones through the App and the property tests stay on CPython."""

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from records_files import records_v4

from picoyacht import rules
from picoyacht.game import HUMAN, Game
from picoyacht.rules import BETS, CASINO5, CASINO6, YAHTZEE, Options
from picoyacht.saves import WALLET_MAX, WALLETS, Records
from picoyacht.wallets import WALLET_START

from scripted import LcgRoller

if sys.implementation.name != "micropython":  # the App on the headless board
    from test_saves import Rig as SavesRig
    from test_surprises import Rig
    from test_ux import finish, numbers, words

    from picoyacht import buttons as K

NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve", "Finn")
PLAYED = {CASINO5: (1, 0, 0, [])}  # wallets load only beside a Casino game counted


def with_wallets(wallets):
    """Records holding these (credits, name) wallets, as a file would bring them."""
    return Records.unpack(records_v4(PLAYED, wallets=wallets))


def wallets(rec):
    """{name: credits} of every wallet, and their order (the latest players first)."""
    out = []
    for i in range(WALLETS):
        credits, pos, n = rec.wallet(i)
        if n:
            out.append((str(bytes(rec.data[pos:pos + n]), "utf-8"), credits))
    return out


def opened(rec):
    """The first two seats' wallets as the game in play opened them."""
    return [rec.opening(s) for s in range(2)]


def counted(rid, names, credits, bet, seed=1):
    """A Casino game as the records count it: its seats' net credits (minus the stake,
    plus rewards and the pot's share) set by hand."""
    g = Game(rid, list(names), options=Options(bet=bet), seed=seed)
    for s in range(len(names)):
        g.credits[s] = credits[s]
    return g


# ---------------------------------------------------------------- opening and settling
@pytest.mark.micropython
def test_a_wallet_opens_at_its_credits_or_the_bank_fills_it():
    """Every bet against a missing wallet and ones just under, at and over the bet: a new
    player opens at WALLET_START (no refill to say), one short of the bet is filled to it
    (and said), any other opens at its credits. Breaks if a short wallet plays on below
    the bet, or a new player is reported as a refill."""
    for bet in BETS:
        for have in (None, 0, 1, bet - 1, bet, bet + 1, WALLET_MAX):
            rec = with_wallets([] if have is None else [(have, "Ann")])
            g = counted(CASINO5, ["Bob", "Ann"], [0, 0], bet)
            filled = rec.open(g)
            short = have is not None and have < bet
            want = WALLET_START if have is None or short else have
            assert opened(rec) == [WALLET_START, want], (bet, have)
            assert filled == (2 if short else 0), (bet, have)


@pytest.mark.micropython
def test_settling_adds_the_net_credits_to_the_opening_wallet_within_its_bounds():
    """Exhaustive over small nets: each seat's wallet ends at its opening plus its net,
    held to 0..WALLET_MAX; the wallets a game leaves untouched keep their credits. Breaks
    if the stake is taken twice (opening - bet + net), the net is left out, or the
    bounds go."""
    bet = 10
    for start in (bet, 55, WALLET_MAX - 5):
        for a in range(-bet, 3 * bet + 1, 5):
            for b in (-bet, 0, 2 * bet):
                rec = with_wallets([(start, "Ann"), (77, "Zed")])
                rec.add(counted(CASINO5, ["Ann", "Bob"], [a, b], bet))
                want = [("Ann", min(max(start + a, 0), WALLET_MAX)),
                        ("Bob", WALLET_START + b), ("Zed", 77)]
                assert wallets(rec) == want, (start, a, b)


@pytest.mark.micropython
def test_the_latest_players_come_first_and_the_oldest_drop_off():
    """Six wallets and a game of a new player and an old one: those two first, the rest
    in their order, the oldest gone. Seats of one name share one wallet. Breaks if a new
    player cannot get a wallet when all are taken, or if a shared name is settled twice
    from its opening."""
    old = [(100 + i, NAMES[i]) for i in range(WALLETS)]
    rec = with_wallets(old)
    rec.add(counted(CASINO5, ["Gus", "Cleo"], [5, -10], 10))
    assert wallets(rec) == [("Gus", 105), ("Cleo", 92), ("Ann", 100), ("Bob", 101),
                            ("Dan", 103), ("Eve", 104)]
    rec = with_wallets([(50, "Ann")])
    rec.add(counted(CASINO5, ["Ann", "Ann"], [20, -10], 10, seed=2))
    assert wallets(rec) == [("Ann", 60)]


@pytest.mark.micropython
def test_a_game_counted_once_is_not_settled_again():
    """The same finished game counted twice (as a resume of a game whose delete failed
    would): the second count changes nothing. Breaks without Records.add's check."""
    rec = with_wallets([(40, "Ann")])
    g = counted(CASINO5, ["Ann", "Bob"], [30, -10], 10)
    rec.add(g)
    once = rec.pack()
    assert not rec.add(g)
    assert rec.pack() == once and rec.games(CASINO5) == 2


@pytest.mark.micropython
def test_the_wallets_code_leaves_the_heap_after_its_work():
    """Only a Casino game's start and end need picoyacht.wallets: as .mpy its code is heap,
    so it is dropped after each. Breaks without saves' forget after open and settle."""
    rec = with_wallets([(40, "Ann")])
    g = counted(CASINO5, ["Ann", "Bob"], [30, -10], 10)
    rec.open(g)
    assert "picoyacht.wallets" not in sys.modules
    rec.add(g)
    assert "picoyacht.wallets" not in sys.modules and wallets(rec)[0] == ("Ann", 70)


def rewarding(seed, rid, nseats, bet):
    """A Casino game played to its end by a seeded player that often loads the first roll
    (a Yatzy, a full house, a large straight) and then likes a paying box; with what the
    bank paid each seat, worked out from RULES.md's table here, apart from the Game's."""
    pick = LcgRoller(seed * 7 + 1)
    g = Game(rid, list(NAMES[:nseats]), options=Options(bet=bet),
             roller=LcgRoller(seed), seed=seed)
    rs = g.rs
    pays = {rs.large_straight_box: bet // 2, rs.full_house_box: bet, rs.yahtzee_box: 2 * bet}
    n = rs.ndice
    loaded = ([4] * n, [3, 3, 3, 5, 5, 5][:n] if n == 6 else [3, 3, 3, 5, 5],
              [2, 3, 4, 5, 6, 1][:n], [1, 2, 3, 4, 5, 6][:n])
    paid = [0] * nseats
    while not g.over:
        g.roll()
        if pick.d6() <= 3:
            g.dice[:] = bytes(loaded[pick.d6() % len(loaded)])
        elif pick.d6() <= 2:
            g.roll()
        seat = g.current
        mask = g.allowed()
        boxes = [b for b in range(rs.nboxes) if mask >> b & 1]
        first = g.rolls_used == 1
        paying = [b for b in boxes if b in pays and g.preview(b) > 0]
        box = paying[0] if first and paying else boxes[pick.d6() * 7 % len(boxes)]
        if first and box in pays and g.preview(box) > 0:
            paid[seat] += pays[box]
        g.score(box)
    return g, paid


def check_settled(seed, rid, nseats, bet, have):
    """Play a rewarding game over wallets `have` (None: no wallet yet); every wallet then
    holds its opening, less the stake, plus what the bank paid and its share of the pot;
    with no bound reached, the wallets gained together exactly what the bank paid (a split
    pot's odd credits go to its first winners in playing order). Returns how much the bank
    paid (so tests know they saw some)."""
    rec = with_wallets([(have[s], NAMES[s]) for s in range(nseats) if have[s] is not None])
    g, paid = rewarding(seed, rid, nseats, bet)
    top = max(g.total(s) for s in range(nseats))
    won = [s for s in range(nseats) if g.total(s) == top]
    pot = bet * nseats
    opening = [WALLET_START if h is None or h < bet else h for h in have[:nseats]]
    rec.add(g)
    after = dict(wallets(rec))
    odd = [s for s in g.order if s in won][:pot % len(won)]  # first in playing order
    want = [opening[s] - bet + paid[s] + (pot // len(won) + (s in odd) if s in won else 0)
            for s in range(nseats)]
    for s in range(nseats):
        assert after[NAMES[s]] == min(want[s], WALLET_MAX), (seed, s, want, after)
    if max(want) <= WALLET_MAX:
        assert sum(want) - sum(opening) == sum(paid)  # every staked credit paid out
    return sum(paid)


@pytest.mark.micropython
def test_the_pot_and_the_rewards_settle_as_the_rules_say():
    """Fixed seeds of both Casino rule sets, 1 to 6 seats, every bet. Breaks if the pot
    is not split on a tie, a reward is paid at the wrong rate, or the stake is kept."""
    bank = 0
    for seed in range(1, 13):
        rid = CASINO5 if seed % 2 else CASINO6
        bet = BETS[seed % len(BETS)]
        have = [None, 3, 250, WALLET_MAX - 1, bet, 0]
        bank += check_settled(seed, rid, 1 + seed % 6, bet, have)
    assert bank > 0  # the bank paid something: the rewards were tried


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10 ** 6), st.sampled_from((CASINO5, CASINO6)), st.integers(1, 6),
       st.sampled_from(BETS),
       st.lists(st.one_of(st.none(), st.integers(0, WALLET_MAX)), min_size=6, max_size=6))
def test_any_casino_game_settles_as_the_rules_say(seed, rid, nseats, bet, have):
    """The same property over any seed, seats, bet and wallets (CPython's hypothesis)."""
    check_settled(seed, rid, nseats, bet, have)


# ---------------------------------------------------------------- files
@pytest.mark.micropython
@pytest.mark.parametrize("wallets_in, blocks", [
    ([(WALLET_MAX + 1, "Ann")], PLAYED),  # more than a wallet holds
    ([(50, "Ann"), (60, "Ann")], PLAYED),  # one name twice
    ([(50, "Ann")], {YAHTZEE: (1, 0, 0, [])}),  # a wallet with no Casino game
    ([(50, "Gus")] + [(50, n) for n in NAMES], PLAYED),  # seven wallets
    ([(50, b"An\x01")], PLAYED),  # a control byte in a name
    ([(50, b"\x7f\x7f")], PLAYED),  # DEL: drawn as "?", a name nobody typed
    ([(50, "\x85\x9b".encode())], PLAYED),  # C1 controls (NEL, CSI) as UTF-8
    ([(50, b"\xff\xfe")], PLAYED),  # a name that does not decode
    ([(50, b"")], PLAYED),  # a wallet with no name
])
def test_impossible_wallets_are_refused(wallets_in, blocks):
    """Each file breaks one rule real games keep; the good one loads and packs back the
    same. Breaks if a check in record_check._check_wallets goes."""
    good = records_v4(PLAYED, wallets=[(130, "Ann"), (0, "Bob")])
    assert Records.unpack(good).pack() == good
    with pytest.raises(ValueError):
        Records.unpack(records_v4(blocks, wallets=wallets_in))
    for cut in (good[:-1], good + b"\x00"):
        with pytest.raises(ValueError):
            Records.unpack(cut)


@pytest.mark.micropython
def test_format_3_records_load_with_no_wallets():
    """Last session's files (format 3) keep loading: no wallets, everyone opens new.
    Breaks if format 3 is refused now that wallets follow the last game."""
    old = b"R\x03" + records_v4(PLAYED)[2:-1]
    rec = Records.unpack(old)
    assert rec.games(CASINO5) == 1 and wallets(rec) == []
    assert rec.pack()[:2] == b"R\x04"


# ---------------------------------------------------------------- through the App
def _casino(r, names=("Ann", "Bob")):
    s = r.app.settings
    s.names[:len(names)] = list(names)
    g = r.new_game((HUMAN,) * len(names), CASINO5)
    r.d.run_ms(100)  # its first save
    return g


def play_to(r, boxes_left):
    """Score boxes, the loop saving after each, until boxes_left remain (test_saves')."""
    SavesRig.play_to(r, boxes_left)


def _settled(g, opening):
    return [(g.names[s], opening[s] + g.credits[s]) for s in range(g.nseats)]


def test_each_finished_game_is_settled_once_through_resume_and_play_again():
    """A game half played, a power cut, its resume and its end: settled once, from the
    wallets it opened with; a reboot after it changes nothing; Play again opens at the
    settled wallets and settles its own game on top. Breaks if the stake moves at the
    start (the resume would take it again) or game over settles twice."""
    r = Rig()
    g = _casino(r)
    play_to(r, 6)
    assert wallets(r.app.records) == []  # nothing moves until the end
    r = r.reboot()
    assert r.screen == "message"
    r.d.press(K.B_OK)  # resume
    g = r.app.turn.game
    assert opened(r.app.records) == [WALLET_START] * 2
    finish(r.app)
    first = _settled(g, [WALLET_START] * 2)
    assert sorted(wallets(r.app.records)) == sorted(first)
    r = r.reboot()
    assert r.screen == "title" and sorted(wallets(r.app.records)) == sorted(first)
    g = _casino(r)
    finish(r.app)
    kept = dict(first)
    opening = [kept[n] if kept[n] >= g.options.bet else WALLET_START for n in g.names]
    again = _settled(g, opening)
    r.app.show(r.app.turn.play_again())
    assert sorted(wallets(r.app.records)) == sorted(again)
    assert opened(r.app.records) == [dict(again)[n] for n in r.app.turn.game.names]


def test_a_game_left_unfinished_costs_nothing():
    """Stakes move only at the end: quit half way and start another game (replacing the
    saved one), and no wallet has moved. Breaks if the stake is taken at the start."""
    r = Rig()
    r.app.records = with_wallets([(60, "Ann")])
    _casino(r)
    play_to(r, 10)
    r.d.press(K.B_MENU)
    r.app.turn.quit()
    r.app.home()
    assert wallets(r.app.records) == [("Ann", 60)]


def test_the_demo_never_touches_a_wallet():
    """A Casino game set aside, a whole demo played to its end: the records' bytes and the
    parked game's opening wallets are as they were. Breaks if the demo's end is counted."""
    r = Rig()
    r.app.records = with_wallets([(60, "Ann"), (20, "Bob")])
    _casino(r)
    before = r.app.records.pack()
    opening = opened(r.app.records)
    r.app.show(r.app.turn.start_demo())
    finish(r.app)
    assert r.app.screen.NAME == "over" and r.app.records.pack() == before
    r.app.turn.quit()
    r.app.home()
    assert r.app.turn.game.rs.id == CASINO5 and opened(r.app.records) == opening


def test_the_bank_says_when_it_fills_a_short_wallet():
    """Ann has 3 credits against a bet of 10: the game opens on the bank's screen naming
    her, then its first turn, with her wallet at WALLET_START. Breaks if she plays on
    below the bet, or silently."""
    r = Rig()
    r.app.records = with_wallets([(3, "Ann"), (40, "Bob")])
    _casino(r)
    assert r.screen == "bank"
    w = " ".join(words(r.app))
    assert "Bank" in w and "Ann" in w and "Bob" not in w
    r.d.press(K.B_OK)
    assert r.screen == "handover"
    assert opened(r.app.records) == [WALLET_START, 40]


def test_impossible_wallets_on_flash_lose_neither_the_game_nor_the_boot():
    """The records file says Ann holds more than a wallet can: the boot refuses it (and
    says so), and the saved game is still offered. Breaks if the check is skipped or a
    refused records file takes the game with it."""
    r = Rig()
    _casino(r)
    play_to(r, 20)
    bad = records_v4(PLAYED, wallets=[(WALLET_MAX + 1, "Ann")])
    r.app.store.delete("records")
    assert r.app.store.save("records", bad)
    r = r.reboot()
    assert wallets(r.app.records) == []
    seen = []
    for _ in range(3):
        seen += words(r.app)
        if r.screen != "message":
            break
        r.d.press(K.B_OK)
    assert "Saved game" in seen and r.app.turn.game.rs.id == CASINO5
    assert r.screen in ("handover", "play")


def test_the_records_screen_shows_every_wallet():
    """The last records page lists each wallet's name and credits, the latest players
    first; with none it says where they come from. Breaks if the page is missing."""
    r = Rig()
    r.app.show("records")
    scr = r.app.screen
    scr.page = scr.pages() - 1
    r.app.dirty = True
    assert "Wallet credits" in words(r.app) and "Casino games open" in words(r.app)
    r.app.records = with_wallets([(130, "Ann"), (7, "Bob")])
    w = words(r.app)
    assert "Wallet credits" in w
    shown = [(n, y) for n, xr, y in numbers(r.app, "rnum") if xr == 128 and y >= 16]
    assert shown == [(130, 16), (7, 24)]
    assert scr.pages() == 2 + rules.COUNT

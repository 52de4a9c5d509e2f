"""Casino's wallets, kept in saves.Records: what each seat's wallet opens a game with, and
the game's credits onto them once the records count it. Loaded for a Casino game's start
and end only, and dropped after (as .mpy its code is heap).

A new player's wallet opens with WALLET_START credits, and the bank fills a wallet short
of the bet back to it; a wallet holds at most rec.WALLET_MAX. The records' layout is rec's
(saves loads this module, so it cannot import saves).
"""

from micropython import const

WALLET_START = const(100)


def find(rec, b):
    """The index of the wallet named b (bytes), -1 if there is none."""
    d = rec.data
    for i in range(rec.WALLETS):
        v, pos, n = rec.wallet(i)
        if n and n == len(b) and d[pos:pos + n] == b:
            return i
    return -1


def open(rec, game, names):
    """Each seat's wallet as the game opens it, for rec.opening(): its credits, or
    WALLET_START for a new player and for one short of the bet (the bank fills it).
    names: the seats' names as the records keep them (bytes). Returns the seats the bank
    filled, a bit each. It only reads the wallets: the stakes move when the game is
    counted (settle), so a game left unfinished costs nothing."""
    bet = game.options.bet
    filled = 0
    for s in range(game.nseats):
        i = find(rec, names[s])
        have = rec.wallet(i)[0] if i >= 0 else WALLET_START
        if have < bet:
            have = WALLET_START
            if i >= 0:
                filled |= 1 << s
        rec.put_opening(s, have)
    return filled


def settle(rec, game, names):
    """Every seat's net credits (game.credits: minus the stake, plus the bank's rewards
    and its share of the pot) onto its wallet as the game opened it. Seats of one name
    share a wallet. The game's players go first; the oldest of the others drop off past
    the last wallet."""
    open(rec, game, names)
    after = []  # (credits, name) in their new order
    for s in range(game.nseats):
        if names[s] in names[:s]:
            continue
        v = rec.opening(s)
        for t in range(s, game.nseats):
            if names[t] == names[s]:
                v += game.credits[t]
        after.append((min(max(v, 0), rec.WALLET_MAX), names[s]))
    for i in range(rec.WALLETS):
        v, pos, n = rec.wallet(i)
        b = bytes(rec.data[pos:pos + n])
        if n and b not in names:
            after.append((v, b))
    for i in range(rec.WALLETS):
        v, b = after[i] if i < len(after) else (0, b"")
        rec.put_wallet(i, v, b)

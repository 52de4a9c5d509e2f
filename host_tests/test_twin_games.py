"""The twin's seeded games with common dice (tools/tables/twin_games.py), and the tool that
plays Normal of this tree against an older tree's over them (tools/tables/normal_vs_ref.py).

Common dice make a game's dice depend only on its number, turn and throw: the same game
played alone or beside others, or by two policies that hold the same dice, sees the same
dice. That is what makes the tool's per-game differences a paired comparison."""

import normal_vs_ref
import numpy as np
import pytest
import strategy_np as sn
import twin_games

from picoyacht import rules, strategy


def test_common_dice_are_a_games_own():
    dice = twin_games.CommonDice(5)
    beside = dice(np.array([2, 7, 11]), 3, 1, 6)
    assert (dice(np.array([7]), 3, 1, 6) == beside[1]).all()
    assert (dice(np.array([11, 2]), 3, 1, 6) == beside[[2, 0]]).all()
    assert ((beside >= 1) & (beside <= 6)).all()
    # each key changes the dice: turn, throw, seed
    assert (dice(np.array([7]), 4, 1, 6) != beside[1]).any()
    assert (dice(np.array([7]), 3, 2, 6) != beside[1]).any()
    assert (twin_games.CommonDice(6)(np.array([7]), 3, 1, 6) != beside[1]).any()


def test_common_dice_are_fair():
    faces = twin_games.CommonDice(1)(np.arange(60_000), 0, 0, 1).ravel()
    counts = np.bincount(faces, minlength=7)[1:]
    assert abs(counts - 10_000).max() < 400  # 4 standard deviations


@pytest.mark.parametrize("rid", [rules.YAHTZEE, rules.MAXI])
def test_a_game_plays_the_same_alone_or_beside_others(rid):
    """Each game played alone gives the total it gives among the others (the games beside
    it throw other dice at other times, the holds differ). Negative control: the bench's
    sequential dice (one generator) give other totals."""
    twin = sn.Twin(rid, rules.Options(), strategy.NORMAL)
    together = twin_games.play(twin, 8, twin_games.CommonDice(3))
    alone = [twin_games.play(twin, 1, twin_games.CommonDice(3), first=k)[0] for k in range(8)]
    assert list(together) == alone
    seq = [twin_games.play(twin, 1, twin_games.SequentialDice(3))[0] for _ in range(8)]
    assert list(twin_games.play(twin, 8, twin_games.SequentialDice(3))) != seq


def test_the_bench_seeds_play_as_before():
    """strategy_np.play keeps its generator's draws: a known seed's totals are the sequential
    source's."""
    twin = sn.Twin(rules.YATZY, rules.Options(), strategy.NORMAL)
    assert list(sn.play(twin, 5, 11)) == list(
        twin_games.play(twin, 5, twin_games.SequentialDice(11)))


def test_the_worker_plays_the_trees_twin_on_common_dice():
    """The tool's subprocess (its tree put first on the path) gives the totals this tree's
    twin gives in-process on the same common dice."""
    twin = sn.Twin(rules.CASINO6, rules.Options(), strategy.NORMAL)
    here = twin_games.play(twin, 6, twin_games.CommonDice(9))
    assert list(normal_vs_ref.totals(normal_vs_ref.ROOT, rules.CASINO6, 6, 9)) == list(here)

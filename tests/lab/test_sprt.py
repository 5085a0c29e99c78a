"""Elo, its interval, the LOS and the SPRT against known values and synthetic streams."""

from __future__ import annotations

import math

import pytest

from regalia.lab.sprt import (
    PENTANOMIAL,
    TRINOMIAL,
    SprtSpec,
    elo_to_score,
    estimate,
    llr,
    llr_normal,
    los_of_games,
    parse_sprt,
    run_sprt,
    score_to_elo,
    sprt_bounds,
)


@pytest.mark.parametrize(
    ("score", "elo"),
    [(0.5, 0.0), (0.75, 190.85), (0.25, -190.85), (0.9, 381.70), (10 / 11, 400.0), (0.6, 70.44)],
)
def test_elo_of_a_score(score: float, elo: float) -> None:
    assert score_to_elo(score) == pytest.approx(elo, abs=0.01)
    assert elo_to_score(elo) == pytest.approx(score, abs=1e-4)


def test_elo_at_the_edges() -> None:
    assert score_to_elo(1.0) == math.inf and score_to_elo(0.0) == -math.inf


@pytest.mark.parametrize(
    ("wins", "losses", "los"),
    [(0, 0, 0.5), (10, 10, 0.5), (10, 5, 0.9016), (5, 10, 0.0984), (30, 20, 0.9214), (100, 70, 0.9893)],
)
def test_los_known_values(wins: int, losses: int, los: float) -> None:
    # LOS = Phi((W - L) / sqrt(W + L)): e.g. 10-5 is Phi(1.291) = 0.9016
    assert los_of_games(wins, losses) == pytest.approx(los, abs=1e-4)


def test_trinomial_estimate() -> None:
    # 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16 -> stderr 0.04
    est = estimate(TRINOMIAL, [20, 20, 60])
    assert est.units == 100
    assert est.score == pytest.approx(0.7)
    assert est.stderr == pytest.approx(0.04)
    assert est.elo == pytest.approx(147.19, abs=0.01)
    assert est.elo_low == pytest.approx(score_to_elo(0.7 - 1.959964 * 0.04), abs=0.01)
    assert est.elo_high == pytest.approx(score_to_elo(0.7 + 1.959964 * 0.04), abs=0.01)
    assert est.elo_low < est.elo < est.elo_high
    # the normal LOS agrees with the classical formula when draws are few
    assert est.los == pytest.approx(1.0, abs=1e-4)
    even = estimate(TRINOMIAL, [30, 40, 30])
    assert (even.elo, even.los) == (0.0, 0.5)


def test_pentanomial_interval_is_narrower_for_correlated_pairs() -> None:
    # 100 pairs, all "one win, one loss" (each side wins with its seat): score 1/2 exactly
    pairs = estimate(PENTANOMIAL, [0, 0, 100, 0, 0])
    assert pairs.stderr == 0.0 and pairs.elo == 0.0 and pairs.los == 0.5
    # the same 200 games seen as single games: 100 wins, 100 losses, a wide interval
    games = estimate(TRINOMIAL, [100, 0, 100])
    assert games.stderr == pytest.approx(0.5 / math.sqrt(200))
    assert games.elo_low < -40 and games.elo_high > 40


def test_bounds() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944439, abs=1e-6) and upper == pytest.approx(2.944439, abs=1e-6)
    lower, upper = sprt_bounds(0.05, 0.1)
    assert lower == pytest.approx(math.log(0.1 / 0.95)) and upper == pytest.approx(math.log(0.9 / 0.05))


def test_llr_matches_the_normal_approximation_on_large_samples() -> None:
    for counts, elo0, elo1 in [([400, 900, 700], 0, 10), ([700, 900, 400], 0, 10), ([500, 1000, 500], -5, 5)]:
        assert llr(TRINOMIAL, counts, elo0, elo1) == pytest.approx(
            llr_normal(TRINOMIAL, counts, elo0, elo1),
            abs=0.05 * max(1, abs(llr_normal(TRINOMIAL, counts, elo0, elo1))),
        )
    penta = [20, 150, 300, 180, 30]
    assert llr(PENTANOMIAL, penta, 0, 10) == pytest.approx(llr_normal(PENTANOMIAL, penta, 0, 10), rel=0.05)
    # a balanced sample halfway between the hypotheses: LLR 0
    assert llr(TRINOMIAL, [100, 0, 100], -10, 10) == pytest.approx(0.0, abs=1e-9)


def test_sprt_decides_on_synthetic_streams() -> None:
    spec = SprtSpec(elo0=0, elo1=10)
    wins = run_sprt(spec, TRINOMIAL, [2] * 1000)
    assert wins.decision == "H1" and wins.llr >= spec.bounds[1]
    losses = run_sprt(spec, TRINOMIAL, [0] * 1000)
    assert losses.decision == "H0" and losses.llr <= spec.bounds[0]
    balanced = run_sprt(spec, TRINOMIAL, [0, 1, 2] * 10)
    assert balanced.decision == "" and balanced.units == 30
    assert spec.bounds[0] < balanced.llr < spec.bounds[1]
    # wins decide fast against a wide gap, slowly against a narrow one
    assert run_sprt(SprtSpec(0, 50), TRINOMIAL, [2] * 1000).units < wins.units
    # pairs: a stream of WW pairs accepts H1, LL pairs H0, WL pairs stay undecided for a while
    assert run_sprt(spec, PENTANOMIAL, [4] * 1000).decision == "H1"
    assert run_sprt(spec, PENTANOMIAL, [0] * 1000).decision == "H0"
    assert run_sprt(spec, PENTANOMIAL, [2, 1, 3] * 5).decision == ""
    # the cap
    assert run_sprt(spec, TRINOMIAL, [2] * 1000, cap=5).units == 5


def test_parse_sprt() -> None:
    assert parse_sprt("elo0=0,elo1=10") == SprtSpec(0, 10, 0.05, 0.05)
    assert parse_sprt(" elo0=-5 , elo1=5, alpha=0.1,beta=0.2") == SprtSpec(-5, 5, 0.1, 0.2)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("elo0=x,elo1=10", "elo0='x' is not a number"),
        ("elo0=10,elo1=0", "elo1 must be greater than elo0"),
        ("elo0=0,elo1=0", "elo1 must be greater than elo0"),
        ("elo0=0,elo1=10,alpha=0", "alpha must be between 0 and 1"),
        ("elo0=0,elo1=10,alpha=1.5", "alpha must be between 0 and 1"),
        ("elo0=0,elo1=10,beta=-1", "beta must be between 0 and 1"),
        ("elo1=10", "give elo0"),
        ("elo0=0,elo1=10,gamma=1", "unknown SPRT parameter 'gamma'"),
        ("elo0=0,elo1", "give NAME=VALUE"),
        ("elo0=0,elo1=inf", "finite"),
    ],
)
def test_bad_sprt_texts(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        parse_sprt(text)

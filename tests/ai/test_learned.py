"""The evaluation as weighted features, the learnt weights the hard level uses, and the
fit that learns them (``tools/fit_weights.py``)."""

from __future__ import annotations

import random

import pytest

from ai.pyramids.evaluate import DEFAULT_WEIGHTS, FEATURES, TERMS, Weights, scores, seat_features
from ai.pyramids.hard import hard_weights
from ai.pyramids.learned import FITTED_BY, FITTED_ON, LEARNED
from rules import pyramids
from rules.pyramids.state import GameState
from tools.fit_weights import TABLES, Sample, fit, loss_and_gradient, render


def play_random(g: GameState, rng: random.Random, steps: int) -> None:
    """``steps`` random legal actions (fewer if the game ends)."""
    for _ in range(steps):
        if g.over:
            return
        seat = g.deciders()[0].seat
        g.apply(seat, rng.choice(g.legal_actions(seat)))


@pytest.mark.parametrize("w", [DEFAULT_WEIGHTS, *LEARNED.values()])
def test_weights_and_their_coefficients_are_one_and_the_same(w: Weights) -> None:
    assert len(w.coefficients()) == len(FEATURES)
    assert Weights.from_coefficients(w.coefficients(), w.closeness, w.second_target) == w


@pytest.mark.parametrize("variant", ["european_war", "world_war_5"])
def test_the_hard_level_uses_the_weights_learnt_for_its_variant(variant: str) -> None:
    for players in (3, 4):
        assert hard_weights(variant, players) is LEARNED[variant]
    assert hard_weights(variant, 2) is LEARNED.get(f"{variant}/2", LEARNED[variant])
    assert hard_weights("no such game", 2) is DEFAULT_WEIGHTS


@pytest.mark.parametrize("key", sorted(LEARNED))
def test_every_set_of_weights_says_how_it_was_fitted(key: str) -> None:
    games, positions, before, after = FITTED_ON[key]
    assert games > 0 and positions > 0 and after < before, "the fit predicts unseen games better"
    assert FITTED_BY[key].startswith(".venv/bin/python tools/fit_weights.py ")
    assert key in TABLES


def test_two_players_get_the_weights_learnt_from_two_player_games() -> None:
    # a two-player table of European War is held by the weights fitted on its own games
    g, _ = pyramids.new_game("european_war", [None, None], 4)
    while g.phase == "setup":
        d = g.deciders()[0]
        g.apply(d.seat, g.legal_actions(d.seat)[0])
    assert LEARNED["european_war/2"] != LEARNED["european_war"]
    assert hard_weights(g.variant, len(g.seats)) is LEARNED["european_war/2"]


@pytest.mark.parametrize("variant", ["european_war", "world_war_5"])
def test_a_score_is_its_features_weighted_and_its_terms_add_up(variant: str) -> None:
    rng = random.Random(5)
    for seed in range(4):
        g, _ = pyramids.new_game(variant, [None] * 4, seed, pyramids.Options(), arranged=True)
        play_random(g, rng, 12 + 7 * seed)
        for w in (DEFAULT_WEIGHTS, LEARNED[variant]):
            terms: list[dict[str, float]] = [{} for _ in g.seats]
            got = scores(g, 0, w, terms)
            for s, feats in enumerate(seat_features(g, 0, w)):
                if feats is None:
                    assert got[s] == -50.0
                    continue
                weighted = sum(c * f for c, f in zip(w.coefficients(), feats, strict=True))
                assert got[s] == pytest.approx(weighted)
                assert sum(terms[s].values()) == pytest.approx(got[s])
                assert set(terms[s]) <= set(TERMS)


def _samples() -> list[Sample]:
    """Positions where the first feature says who wins, most of the time."""
    rng = random.Random(3)
    out: list[Sample] = []
    for _ in range(60):
        feats = [[rng.random() for _ in FEATURES] for _ in range(3)]
        best = max(range(3), key=lambda s: feats[s][0] + 0.3 * rng.random())
        out.append((feats, [1.0 if s == best else 0.0 for s in range(3)]))
    return out


def test_the_fit_follows_the_gradient_of_its_loss() -> None:
    samples = _samples()
    prior = list(DEFAULT_WEIGHTS.coefficients())
    w = [c + 0.1 * i for i, c in enumerate(prior)]
    loss, grad = loss_and_gradient(samples, w, prior, 0.01)
    for j in range(len(w)):
        step = [*w]
        step[j] += 1e-6
        assert (loss_and_gradient(samples, step, prior, 0.01)[0] - loss) / 1e-6 == pytest.approx(
            grad[j], abs=1e-4
        )
    fitted, before, after = fit(samples, 200, 0.0)
    assert after < before
    assert fitted[0] > prior[0] + 1.0, "the telling feature gains weight"


def test_the_written_module_gives_back_the_weights() -> None:
    w = Weights.from_coefficients(tuple(0.5 + i for i in range(len(FEATURES))))
    long = "fit --games 1 " + "--only european_war/2 " * 6
    text = render(
        {"european_war": (w, 3, 40, 1.5, 1.25), "european_war/2": (w, 2, 9, 1.0, 0.5)},
        {"european_war": "fit --games 1", "european_war/2": long.strip()},
    )
    space: dict[str, object] = {}
    exec(compile(text.replace("from .evaluate", "from ai.pyramids.evaluate"), "m", "exec"), space)
    assert space["LEARNED"] == {"european_war": w, "european_war/2": w}
    assert space["FITTED_ON"] == {
        "european_war": (3, 40, 1.5, 1.25),
        "european_war/2": (2, 9, 1.0, 0.5),
    }
    assert space["FITTED_BY"] == {"european_war": "fit --games 1", "european_war/2": long.strip()}
    assert max(len(line) for line in text.splitlines()) <= 100

"""Determinizations: full game states consistent with one player's view."""

from __future__ import annotations

import random

import pytest

import ai
import ai.pyramids
from ai.pyramids.determinize import Determinizer
from rules import pyramids
from rules.pyramids.validate import validate_state
from tests.ai.support import EW, WW


def _views(variant: str, players: int, seed: int) -> list[pyramids.View]:
    game, _ = pyramids.new_game(variant, [None] * players, seed, pyramids.Options(round_limit=25))
    views: list[pyramids.View] = []
    step = 0
    while not game.over:
        deciders = game.deciders()
        for d in deciders:
            views.append(pyramids.view_for(game, d.seat))
        seat = deciders[step % len(deciders)].seat
        game.apply(seat, ai.pyramids.choose(pyramids.view_for(game, seat), "easy", step))
        step += 1
    return views


@pytest.mark.parametrize(("variant", "players"), [(EW, 2), (EW, 4), (WW, 3)])
def test_every_determinization_shows_the_same_view(variant: str, players: int) -> None:
    rng = random.Random(1)
    for view in _views(variant, players, 21)[::5]:
        det = Determinizer(view)
        for _ in range(3):
            g = det.sample(rng)
            validate_state(g)
            assert pyramids.view_for(g, view.viewer) == view
            seat = view.viewer
            assert seat is not None
            assert g.legal_actions(seat), "the viewer must have a decision"


def test_hidden_cards_are_dealt_at_random() -> None:
    view = next(v for v in _views(EW, 3, 5) if v.phase == "turn")
    det = Determinizer(view)
    rng = random.Random(2)
    deals = {tuple(tuple(h) for h in det.sample(rng).hands) for _ in range(10)}
    assert len(deals) > 5
    seat = view.viewer
    assert seat is not None
    for hands in deals:
        assert sorted(hands[seat]) == sorted(view.hand or ())


def test_a_spectator_view_is_refused() -> None:
    game, _ = pyramids.new_game(EW, [None, None], 1)
    with pytest.raises(ValueError):
        ai.pyramids.choose(pyramids.view_for(game, None), "easy", 1)
    with pytest.raises(ValueError):
        ai.pyramids.choose(pyramids.view_for(game, game.deciders()[0].seat), "expert", 1)

"""The registry of computer players: each game's own, or a seeded uniform choice."""

from __future__ import annotations

import pytest

import ai
from ai.pyramids.api import PyramidPlayer
from rules import contract, pyramids


def test_the_pyramid_games_have_their_players_and_others_the_uniform_one() -> None:
    assert isinstance(ai.player_for("european_war"), PyramidPlayer)
    assert isinstance(ai.player_for("world_war_5"), PyramidPlayer)
    assert isinstance(ai.player_for("claim_line"), ai.UniformPlayer)


def test_a_pyramid_player_refuses_to_choose_from_nothing_and_picks_a_legal_action() -> None:
    g, _ = pyramids.new_game("european_war", [None, None], 3)
    d = g.deciders()[0]
    legal = g.legal_actions(d.seat)
    player = ai.player_for("european_war")
    assert player.choose(pyramids.view_for(g, d.seat), legal, "normal", 1) in legal
    with pytest.raises(ValueError, match="no legal action"):
        player.choose(pyramids.view_for(g, d.seat), [], "normal", 1)


def test_uniform_players_finish_a_game_they_know_nothing_about(
    claim_line: contract.Game,
) -> None:
    state, _ = claim_line.new_game([None, None, None], 8, {})
    player = ai.player_for("claim_line")
    picks = []
    for step in range(100):
        if state.over:
            break
        d = state.deciders()[0]
        legal = state.legal_actions(d.seat)
        action = player.choose(state.view_for(d.seat), legal, "normal", step)
        assert action == player.choose(state.view_for(d.seat), legal, "normal", step)
        picks.append(action)
        state.apply(d.seat, action)
    assert state.over and len(set(picks)) > 2

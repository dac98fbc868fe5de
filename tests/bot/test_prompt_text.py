"""Prompts speak the variant's own words and cite its own rulings."""

from __future__ import annotations

from rules import pyramids
from rules.pyramids.words import prompt_text


def names(g: pyramids.GameState) -> list[str]:
    return [f"P{s}" for s in range(len(g.seats))]


def test_world_war_5_prompts_cite_ww_rulings() -> None:
    g, _ = pyramids.new_game("world_war_5", [None, None], 3)
    setup = prompt_text("setup", pyramids.view_for(g, g.first), g.board, names(g))
    assert "home territory" in setup and "(WW-6)" in setup
    while g.phase == "setup":
        d = g.deciders()[0]
        g.apply(d.seat, pyramids.Timeout())
    turn = prompt_text("turn", pyramids.view_for(g, g.current), g.board, names(g))
    assert turn == "Your turn: grow, build, move or invade (WW-2)."


def test_european_war_prompts_cite_ew_rulings() -> None:
    g, _ = pyramids.new_game("european_war", [None, None], 3)
    setup = prompt_text("setup", pyramids.view_for(g, 0), g.board, names(g))
    assert "home field" in setup and "(EW-5)" in setup
    while g.phase == "setup":
        d = g.deciders()[0]
        g.apply(d.seat, pyramids.Timeout())
    assert "(EW-8, EW-11)" in prompt_text(
        "turn", pyramids.view_for(g, g.current), g.board, names(g)
    )

"""/help of a game without its own text (its presentation's ``help_text``) is made from
its presentation: its title, each turn command with its options and description."""

from __future__ import annotations

from bot.texts import help_for
from rules import contract


def test_help_is_made_from_the_spec_when_a_game_has_no_text(claim_line: None) -> None:
    text = help_for("claim_line")
    assert text.startswith("**How to play Claim the Line here**")
    assert "**/newgame variant:claim-line**" in text
    assert "• **/claim** cell — Claim an empty cell of the grid (CL-1)." in text
    assert len(text) <= 2000
    for name in ("european_war", "world_war_5"):  # games with their own text keep it
        own = contract.game_named(name).presentation.help_text()
        assert own and help_for(name) == own

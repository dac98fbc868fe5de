"""/help of a game without a hand-written text is made from its presentation: its title,
each turn command with its options and description."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.texts import HELP, HELP_WORLD_WAR_5, help_for
from rules import contract
from tests.games.claim_line import ClaimGame


@pytest.fixture
def claim_line() -> Iterator[None]:
    contract.register(ClaimGame())
    yield
    contract.unregister("claim_line")


def test_help_is_made_from_the_spec_when_a_game_has_no_text(claim_line: None) -> None:
    text = help_for("claim_line")
    assert text.startswith("**How to play Claim the Line here**")
    assert "**/newgame variant:claim-line**" in text
    assert "• **/claim** cell — Claim an empty cell of the grid (CL-1)." in text
    assert len(text) <= 2000
    assert help_for("european_war") == HELP and help_for("world_war_5") == HELP_WORLD_WAR_5

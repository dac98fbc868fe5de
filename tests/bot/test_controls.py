"""Each bot's buttons and selects are classes bound to it (discord.py makes a clicked item
from its class alone), and its views are made of them; /newgame offers the games
registered when its cog is made, and refuses any other by name."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
import pytest

from bot.cogs.lobby import GameChoice
from bot.errors import UserError
from bot.views.controls import Controls
from bot.views.lobby import LobbyButton, lobby_view
from rules import contract

if TYPE_CHECKING:
    from bot.client import GameBot


def _bot() -> GameBot:
    """A stand-in for a bot: binding only keeps it (no call is made on it)."""
    return cast("GameBot", object())


def test_each_bot_has_its_own_item_classes_with_the_same_custom_ids() -> None:
    one, two = _bot(), _bot()
    first, second = Controls(one), Controls(two)
    assert first.lobby is not second.lobby
    assert first.lobby.bot is one and second.lobby.bot is two
    assert issubclass(first.lobby, LobbyButton) and first.lobby.__name__ == "LobbyButton"
    for mine, theirs in zip(first.items(), second.items(), strict=True):
        pattern = mine.__discord_ui_compiled_template__
        assert pattern.pattern == theirs.__discord_ui_compiled_template__.pattern
    assert not hasattr(LobbyButton, "bot"), "the shared class belongs to no bot"


def test_a_bots_views_are_made_of_its_own_items() -> None:
    controls = Controls(_bot())
    view = lobby_view(controls, 7)
    buttons = [item for item in view.children if isinstance(item, controls.lobby)]
    assert len(buttons) == 5 and all(type(b) is controls.lobby for b in buttons)
    ids = [b.item.custom_id for b in buttons]
    assert ids == [f"ew:l:7:{what}" for what in ("join", "leave", "bot", "opts", "start")]


async def test_newgame_offers_the_games_registered_when_it_is_made(claim_line: None) -> None:
    games = GameChoice()
    assert [(c.name, c.value) for c in games.choices] == [
        ("european-war", "european_war"),
        ("world-war-5", "world_war_5"),
        ("europe-at-war", "europe_at_war"),
        ("claim-line", "claim_line"),
    ]
    nobody = cast(discord.Interaction, None)  # the choice is read without the interaction
    assert await games.transform(nobody, "claim_line") == "claim_line"
    contract.unregister("claim_line")
    assert [c.value for c in GameChoice().choices] == [
        "european_war",
        "world_war_5",
        "europe_at_war",
    ]
    with pytest.raises(UserError, match=r"^There is no game 'risk' here: pick one"):
        await games.transform(nobody, "risk")

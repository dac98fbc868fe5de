"""Private panels made from a prompt's choices and the game's presentation: one button
per choice (a select for a retreat or too many), each carrying its action in a custom id
that decodes back to it, coloured by the game's tone for its kind."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord

from bot.views import codec
from bot.views.controls import Controls
from bot.views.panels import panel_view
from rules import contract, pyramids
from service import Prompt

if TYPE_CHECKING:
    from bot.client import GameBot

GAME = contract.game_named("european_war")
BOARD = pyramids.load_board("european_war")
CONTROLS = Controls(cast("GameBot", None))
"""Items bound to no bot: making a view asks nothing of the bot its clicks go to."""


def _prompt(kind: str, choices: list[pyramids.Action]) -> Prompt:
    labels = tuple(pyramids.words.action_label(a, BOARD, ["A", "B"]) for a in choices)
    return Prompt(7, 12, 0, 99, kind, "?", tuple(choices), labels, None)


def _items(view: discord.ui.View) -> list[discord.ui.Item]:
    return [getattr(c, "item", c) for c in view.children]  # the dynamic items' components


async def test_buttons_carry_their_actions_in_the_games_tones() -> None:
    choices: list[pyramids.Action] = [pyramids.StopAttack(False), pyramids.LetPass()]
    view = panel_view(CONTROLS, _prompt("diplomacy", choices), GAME)
    buttons = [c for c in _items(view) if isinstance(c, discord.ui.Button)]
    assert [b.style for b in buttons] == [discord.ButtonStyle.danger, discord.ButtonStyle.secondary]
    assert [b.label for b in buttons] == ["Stop with K", "Let it pass"]
    for button, action in zip(buttons, choices, strict=True):
        assert button.custom_id is not None and button.custom_id.startswith("ew:a:7:12:")
        kind, params = codec.decode(button.custom_id.rsplit(":", 1)[1], GAME)
        assert GAME.action_from_dict({"kind": kind, **params}) == action


async def test_a_retreat_is_chosen_from_a_select() -> None:
    choices: list[pyramids.Action] = [pyramids.Retreat("spain"), pyramids.Retreat("italy")]
    prompt = _prompt("retreat", choices)
    view = panel_view(CONTROLS, prompt, GAME)
    [select] = _items(view)
    assert isinstance(select, discord.ui.Select)
    assert [o.label for o in select.options] == ["Retreat to Spain", "Retreat to Italy"]
    assert [o.value for o in select.options] == [codec.encode(a, GAME) for a in choices]

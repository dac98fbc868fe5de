"""Private panels made from a prompt's choices and the game's presentation: one button
per choice (a select for a retreat or too many), each carrying its action in a custom id
that decodes back to it, coloured by the game's tone for its kind; buttons in rows of
five with the quiet ones (Pass) in a row of their own; a list longer than four selects
hold in pages."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord

from bot.views import codec
from bot.views.controls import Controls
from bot.views.panels import panel_view
from rules import contract, pyramids
from rules.europe_at_war.actions import BattleCard, Pass, Place
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


EA = contract.game_named("europe_at_war")


def _ea_prompt(kind: str, choices: list[object]) -> Prompt:
    labels = tuple(f"Choice {i}" for i in range(len(choices)))
    return Prompt(7, 12, 0, 99, kind, "?", tuple(choices), labels, None)


def _cards(n: int) -> list[object]:
    return [*(BattleCard(f"c{i}") for i in range(n)), Pass()]


async def test_battle_cards_fill_rows_of_five_and_pass_has_a_row_of_its_own() -> None:
    view = panel_view(CONTROLS, _ea_prompt("cards", _cards(12)), EA)
    rows = [row["components"] for row in view.to_components()]
    assert [len(r) for r in rows] == [5, 5, 2, 1]
    assert rows[-1][0]["label"] == "Choice 12" and rows[-1][0]["style"] == 2  # Pass, quiet
    view = panel_view(CONTROLS, _ea_prompt("cards", _cards(20)), EA)
    assert [len(row["components"]) for row in view.to_components()] == [5, 5, 5, 5, 1]


async def test_more_battle_cards_than_buttons_hold_keep_the_select() -> None:
    prompt = _ea_prompt("cards", _cards(21))
    items = _items(panel_view(CONTROLS, prompt, EA))
    assert all(isinstance(i, discord.ui.Select) for i in items)
    values = [o.value for i in items if isinstance(i, discord.ui.Select) for o in i.options]
    assert values == [codec.encode(a, EA) for a in prompt.choices]


async def test_a_list_over_a_hundred_is_paged_so_every_choice_is_reachable() -> None:
    prompt = _ea_prompt("setup", [Place(f"u{i}", "moscow") for i in range(136)])
    offered: list[str] = []
    for page, turns in ((0, ["Later ▶"]), (1, ["◀ Earlier"])):
        items = _items(panel_view(CONTROLS, prompt, EA, page))
        selects = [i for i in items if isinstance(i, discord.ui.Select)]
        buttons = [i for i in items if isinstance(i, discord.ui.Button)]
        assert len(selects) == (4 if page == 0 else 2)
        assert [b.label for b in buttons] == turns
        assert all(b.custom_id == f"ew:ap:7:12:{1 - page}" for b in buttons)
        offered += [o.value for s in selects for o in s.options]
    assert offered == [codec.encode(a, EA) for a in prompt.choices]
    first = _items(panel_view(CONTROLS, prompt, EA))[0]
    assert isinstance(first, discord.ui.Select) and first.placeholder == "Choose… (1–25 of 136)"

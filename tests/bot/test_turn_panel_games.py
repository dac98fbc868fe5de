"""The turn panel of every game, the way the bot walks it: from the first step, a random
offer's component is taken, its custom id read back into a path (as a click would bring
it), the service asked for the next step, until Confirm; then the action is taken with
the prompt's version. Every view on the way passes the fake Discord's own checks of
Discord's limits. Played for the registered games, the test-only third game and Europe
at War (registered here: its moves have four parameters), each building its longest
actions."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from bot.views import codec
from bot.views.controls import Controls
from bot.views.turn import SELECT_ID, TURN_ID, is_turn, root_step, step_view
from rules import contract
from rules.europe_at_war.game import EaGame
from service.scheduler import FakeClock
from tests.bot.helpers import HOST, USERS, make_service
from tests.fake_discord.limits import check_components
from tests.games.claim_line import ClaimGame

GID = 1


@pytest.fixture
def games() -> Iterator[list[str]]:
    extra: list[Any] = [ClaimGame(), EaGame()]
    for game in extra:
        contract.register(game)
    try:
        yield list(contract.game_names())
    finally:
        for game in extra:
            contract.unregister(game.name)


def _components(view: Any) -> list[dict[str, Any]]:
    components = view.to_components()
    check_components(components)
    return components


def _next_paths(components: list[dict[str, Any]], gid: int) -> list[tuple[str, int]]:
    """Where each offer of a step leads: (path, page 0), read from the custom ids."""
    out = []
    for row in components:
        for c in row["components"]:
            cid = c["custom_id"]
            if c["type"] == 3 and (m := SELECT_ID.fullmatch(cid)) and int(m["gid"]) == gid:
                here = m["path"]
                out += [(f"{here}.{o['value']}" if here else o["value"], 0) for o in c["options"]]
            elif (m := TURN_ID.fullmatch(cid)) and c.get("label", "").startswith(("◀", "✖")):
                continue  # Back and Cancel
            elif m is not None and "▶" not in c.get("label", ""):
                out.append((m["path"], int(m["page"])))
    return out


async def test_every_game_s_turns_are_built_and_taken_on_the_panel(
    games: list[str], tmp_path: Path
) -> None:
    controls = Controls(cast(Any, None))  # rendering only
    for name in games:
        svc = await make_service(tmp_path / f"{name}.db", FakeClock(1_700_000_000.0))
        try:
            game = contract.game_named(name)
            out = await svc.open_lobby(channel_id=1, host_id=HOST, host_name="P101", variant=name)
            gid = out.game_id
            assert gid is not None
            for u in USERS[1 : game.min_players + 1]:
                assert (await svc.join(gid, u, f"P{u}")).ok
            assert (await svc.start_game(gid, HOST, seed=11)).ok
            rng = random.Random(name)
            taken = deep = longest = 0
            for _ in range(120):
                prompts = await svc.prompts(gid)
                if not prompts:
                    break
                prompt = rng.choice(prompts)
                assert prompt.user_id is not None
                if not is_turn(game, prompt.kind):  # a panel's answer: any that is legal
                    choices = list(prompt.choices)
                    rng.shuffle(choices)
                    for action in choices:
                        if (await svc.answer(gid, prompt.user_id, prompt.version, action)).ok:
                            break
                    continue
                step = root_step(prompt, game)
                for _ in range(12):
                    components = _components(step_view(controls, gid, step))
                    if step.complete:
                        break
                    paths = _next_paths(components, gid)
                    if step.kind is None and rng.random() < 0.7:  # deep actions first
                        params = {k: len(a.params) for k, a in game.action_kinds.items()}
                        deepest = max(params.get(p.split(".")[0], 0) for p, _ in paths)
                        longest = max(longest, deepest)
                        paths = [p for p in paths if params.get(p[0].split(".")[0]) == deepest]
                    path, _ = rng.choice(paths)
                    kind, chosen = codec.read_path(path)
                    deep = max(deep, len(chosen))
                    step = await svc.step_now(gid, prompt.user_id, prompt.version, kind, chosen)
                assert step.complete and step.kind is not None, step
                done = await svc.act_with(
                    gid, prompt.user_id, step.kind, dict(step.values), version=prompt.version
                )
                assert done.ok, (name, step, done.error)
                taken += 1
            assert taken >= 5, name
            assert deep == longest, (name, deep, "the longest action offered was built")
        finally:
            await svc.close()

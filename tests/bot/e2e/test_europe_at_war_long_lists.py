"""A decision panel with more choices than four selects hold (Europe at War's setup
placement on the full map: up to 136), through the fake Discord with the real client:
pages of four selects with Earlier and Later, so every legal choice is reachable; a
choice on a later page is taken; an out-of-date page turn is refused privately."""

from __future__ import annotations

from typing import Any

from bot.views import codec
from bot.views.panels import PER_PAGE
from rules import contract
from service import Prompt
from tests.bot.e2e.clicks import Clicker, _engine
from tests.bot.e2e.harness import World
from tests.bot.e2e.test_europe_at_war import Heuristic


async def _two_on_the_full_map(world: World) -> int:
    """ann and bob (Russia, the largest home) at a two-seat table, started."""
    res = await world.slash("ann", "newgame", variant="europe_at_war", players=2)
    assert not res.ephemeral, res.content
    gid = await world.gid()
    assert not (await world.slash("bob", "join", power="russia")).ephemeral
    await world.click("ann", world.lobby_message(), f"ew:l:{gid}:start")
    return gid


def _page(msg: Any) -> tuple[list[str], list[str], dict[str, str]]:
    """A panel's offered answers, its selects' placeholders and its page buttons by
    label."""
    offered, hints, turns = [], [], {}
    for c in msg.walk_components():
        cid = c.get("custom_id", "")
        if cid.startswith("ew:s:"):
            offered += [o["value"] for o in c["options"]]
            hints.append(c.get("placeholder", ""))
        elif cid.startswith("ew:ap:"):
            turns[c["label"]] = cid
    return offered, hints, turns


async def test_a_long_list_pages_its_selects(world: World) -> None:
    gid = await _two_on_the_full_map(world)
    assert world.bot is not None
    svc = world.bot.service
    game = contract.game_named("europe_at_war")
    clicker, policy = Clicker(world, channel_every=0), Heuristic()
    prompt: Prompt | None = None
    for _n in range(200):
        prompts = await svc.prompts(gid)
        prompt = prompts[0] if prompts else None
        if prompt is not None and len(prompt.choices) > PER_PAGE:
            break
        assert await clicker.step(policy)
    assert prompt is not None and len(prompt.choices) > PER_PAGE, "a setup of Russia"
    user = world.user_of(prompt.user_id)
    panel = next(
        m
        for m in reversed(world.fake.dm_messages(user))
        if any(
            c.get("custom_id", "").startswith(f"ew:s:{gid}:{prompt.version}:")
            for c in m.walk_components()
        )
    )
    codes = [codec.encode(a, game) for a in prompt.choices]
    first, hints, turns = _page(panel)
    assert first == codes[:PER_PAGE] and list(turns) == ["Later ▶"], turns
    assert hints[0] == f"Choose… (1–25 of {len(codes)})", hints
    opened = (
        await world.click(user, world.fake.messages(world.channel)[-1], f"ew:p:{gid}:a")
        if False
        else None
    )
    del opened
    res = await world.click(user, panel, turns["Later ▶"])
    assert not res.ephemeral, res.content
    second, hints, turns = _page(panel)
    assert second == codes[PER_PAGE : 2 * PER_PAGE] and "◀ Earlier" in turns
    assert first + second == codes[: len(first) + len(second)]
    assert set(first + second) == set(codes), "every legal choice is on a page"
    # the same panel opened from the channel, kept for later
    opener = next(
        m for m in reversed(world.fake.messages(world.channel)) if m.component(f"ew:p:{gid}:a")
    )
    shown = await world.click(user, opener, f"ew:p:{gid}:a")
    assert shown.ephemeral and shown.original is not None, shown.content
    assert _page(shown.original)[0] == first, "it opens at the first page"
    # a choice from the second page is taken
    last = prompt.choices[-1]
    cid = next(
        c["custom_id"]
        for c in panel.walk_components()
        if any(o["value"] == codes[-1] for o in c.get("options", []))
    )
    before = len(_engine(world, gid).drawn[prompt.seat])
    await world.fake.select(user, panel, cid, [codes[-1]])
    await world.settle()
    after = _engine(world, gid)
    assert len(after.drawn[prompt.seat]) == before - 1
    assert after.units[int(last.chit[1:])].space == last.at
    # the panel opened before is out of date now: its page turn is refused
    version = (await svc.status(gid)).version
    old = shown.original
    res = await world.click(user, old, _page(old)[2]["Later ▶"])
    assert res.ephemeral and "out of date" in res.content, res.content
    assert (await svc.status(gid)).version == version

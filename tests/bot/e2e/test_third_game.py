"""Claim the Line, a game that exists only in the tests, played to the end through the
fake Discord with the real client: its slash command made from its spec (with
autocomplete of the free cells), the contest window answered on panel buttons by DM,
each player's card by DM, the result in the channel. Nothing under bot/, service/ or
console/ names the game: registering it is this test's job."""

from __future__ import annotations

import re

import pytest

from tests.bot.e2e.harness import World
from tests.games.claim_line import CELLS


@pytest.fixture
async def claim_world(claim_line: None, world: World) -> World:
    """The bot started with Claim the Line registered (its commands are made at
    start-up)."""
    return world


async def test_claim_the_line_is_played_to_the_end_through_discord(claim_world: World) -> None:
    world = claim_world
    synced = {c["name"]: c for c in world.fake.commands[None]}
    claim = synced["claim"]
    assert [o["name"] for o in claim["options"]] == ["cell"]
    assert claim["options"][0]["required"] and claim["options"][0]["autocomplete"]

    res = await world.slash("ann", "newgame", variant="claim_line", players=2)
    assert not res.ephemeral and "Claim the Line" in res.content, res.content
    gid = await world.gid()
    lobby = world.lobby_message()
    await world.click("bob", lobby, f"ew:l:{gid}:join")
    await world.click("ann", lobby, f"ew:l:{gid}:start")
    assert world.bot is not None
    svc = world.bot.service
    ann, bob = world.users["ann"], world.users["bob"]

    # each player's card came by DM, never to the channel
    cards = {}
    for user in (ann, bob):
        dm = "\n".join(m.content for m in world.fake.dm_messages(user))
        found = re.search(r"Your card(?: is|:) (\d)", dm)
        assert found, dm
        cards[user.id] = found.group(1)
    channel_text = "\n".join(m.content for m in world.fake.messages(world.channel))
    assert "Your card" not in channel_text

    claimed: set[str] = set()
    contests = 0
    for _ in range(40):
        st = await svc.status(gid)
        if st.status != "running":
            break
        decision = st.decisions[0]
        user = world.user_of(decision.user_id)
        if decision.kind == "turn":
            free = await world.fake.autocomplete(user, world.channel, "claim", focused="cell")
            assert {c["value"] for c in free} == set(CELLS) - claimed
            other = bob if user is ann else ann
            assert (
                await world.fake.autocomplete(other, world.channel, "claim", focused="cell") == []
            )
            refused = await world.slash(user, "claim", cell="z9")
            assert refused.ephemeral and "no cell called 'z9'" in refused.content
            cell = free[0]["value"]
            res = await world.slash(user, "claim", cell=cell)
            assert not res.ephemeral and f"claims {cell}" in res.content, res.content
            claimed.add(cell)
            continue
        assert decision.kind == "respond"
        panel = next(m for m in reversed(world.fake.dm_messages(user)) if m.buttons)
        labels = {b["label"]: b["custom_id"] for b in panel.buttons}
        assert set(labels) == {"Contest", "Allow"}, labels
        choice = "Contest" if contests == 0 else "Allow"  # contest once: the card is spent
        contests += choice == "Contest"
        res = await world.click(user, panel, labels[choice])
        assert not res.ephemeral, res.content
    st = await svc.status(gid)
    assert st.status != "running"
    channel_text = "\n".join(m.content for m in world.fake.messages(world.channel))
    assert "contested the claim" in channel_text and "Cards shown" in channel_text
    assert "wins with" in channel_text or "a draw" in channel_text

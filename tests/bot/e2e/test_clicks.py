"""Whole games played only by clicking, through the real client and the fake Discord: no
slash command after /newgame. Turns on the turn panel (by DM, and ephemerally from the
channel's *Your turn* button), duels, diplomacy, retreats and placements on their panels
(by DM, and ephemerally from the channel's *Open my panel* button); people and computers
at one table; the same with every DM closed; and the test-only third game, whose turn
panel is made from its spec like any other's."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.bot.e2e.clicks import Clicker
from tests.bot.e2e.harness import World, make_world
from tests.bot.e2e.policy import Policy, aggressive_computer

SEED = 113


async def _table(world: World, computers: int = 1) -> int:
    """/newgame by ann, then only buttons: bob joins, ann adds computers and starts."""
    res = await world.slash("ann", "newgame")
    assert not res.ephemeral
    gid = await world.gid()
    lobby = world.lobby_message()
    await world.click("bob", lobby, f"ew:l:{gid}:join")
    for _ in range(computers):
        await world.click("ann", lobby, f"ew:l:{gid}:bot")
    await world.click("ann", lobby, f"ew:l:{gid}:start")
    return gid


def _slash_count(world: World) -> int:
    return sum(1 for r in world.fake.interactions.values() if r.type == 2)


async def _play(world: World, clicker: Clicker) -> tuple[int, Policy]:
    gid = await _table(world)
    slashes = _slash_count(world)
    policy = Policy()
    await clicker.play_to_end(gid, policy, 200)
    assert world.bot is not None
    st = await world.bot.service.status(gid)
    assert st.status == "finished", st.lines
    assert _slash_count(world) == slashes, "no slash command after /newgame"
    return gid, policy


def _check_log(clicker: Clicker, both_places: bool) -> None:
    kinds = Counter(d.decision for d in clicker.log)
    actions = Counter(d.action for d in clicker.log)
    assert kinds["turn"] >= 5 and kinds["duel"] >= 2 and kinds["diplomacy"] >= 1, kinds
    assert actions["attack"] >= 1 and actions["play_card"] >= 1, actions
    where = {d.where for d in clicker.log}
    assert where == ({"dm", "channel"} if both_places else {"channel"}), where
    for d in clicker.log:  # every click answered (acknowledged first: never expired)
        assert d.clicks >= 1 and len(d.seconds) == d.clicks


async def test_people_and_a_computer_play_a_whole_game_by_clicking(
    fake_discord: Any, tmp_path: Any
) -> None:
    world = await make_world(fake_discord, tmp_path, start=False)
    world.seed = SEED
    await world.start(service_options={"chooser": aggressive_computer})
    try:
        clicker = Clicker(world, channel_every=2)
        gid, _ = await _play(world, clicker)
        _check_log(clicker, both_places=True)
        texts = "\n".join(m.content for m in world.fake.messages(world.channel))
        assert "(computer)" in texts
        # the last message says who won and offers a rematch; no turn button is left live
        last = world.fake.messages(world.channel)[-1]
        assert last.component(f"ew:r:{gid}") is not None, last.content
    finally:
        await world.stop()


async def test_a_whole_game_by_clicking_with_every_dm_closed(
    fake_discord: Any, tmp_path: Any
) -> None:
    world = await make_world(fake_discord, tmp_path, start=False, dms_closed=("ann", "bob"))
    world.seed = SEED
    await world.start(service_options={"chooser": aggressive_computer})
    try:
        clicker = Clicker(world)
        await _play(world, clicker)
        _check_log(clicker, both_places=False)
        for name in ("ann", "bob"):
            assert not world.fake.dm_messages(world.users[name])
    finally:
        await world.stop()


class FirstChoice:
    """A policy for the third game: the first cell; contests once, then allows."""

    def __init__(self) -> None:
        self.steps = 0
        self.contested = False

    def choose(self, state: Any, seat: int, kind: str, choices: list[Any]) -> Any:
        if kind == "respond":
            wanted = "allow" if self.contested else "contest"
            self.contested = True
            return next(c for c in choices if c.kind == wanted)
        return choices[-1]


async def test_the_third_game_is_played_by_clicking_too(claim_line: None, world: World) -> None:
    res = await world.slash("ann", "newgame", variant="claim_line", players=2)
    assert not res.ephemeral
    gid = await world.gid()
    lobby = world.lobby_message()
    await world.click("bob", lobby, f"ew:l:{gid}:join")
    await world.click("ann", lobby, f"ew:l:{gid}:start")
    clicker = Clicker(world, channel_every=2)
    await clicker.play_to_end(gid, FirstChoice(), 40)
    assert world.bot is not None
    st = await world.bot.service.status(gid)
    assert st.status == "finished"
    turns = [d for d in clicker.log if d.decision == "turn"]
    assert turns and {d.where for d in turns} == {"dm", "channel"}
    # a claim: the kind, the cell, Confirm; and *Your turn* first when the panel is not
    # open in the channel already (an answer there leaves the next panel in its place)
    assert {d.clicks for d in turns if d.where == "dm"} == {3}
    assert 4 in {d.clicks for d in turns if d.where == "channel"} <= {3, 4}
    text = "\n".join(m.content for m in world.fake.messages(world.channel))
    assert "contested the claim" in text

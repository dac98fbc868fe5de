"""A DM panel never keeps buttons that would only be refused, through the real client and
the fake Discord: a decision taken on the channel's private panel or by a slash command
takes the buttons off the player's DM panel for it and says it was answered in the
channel; a newer panel, a decision closed by someone else and the end of the game do the
same with their own words; the DM panel clicked is answered where it is."""

from __future__ import annotations

import re
from collections import Counter

from bot.dms import ANSWERED_IN_CHANNEL, OVER, REPLACED
from tests.bot.e2e.clicks import Clicker
from tests.bot.e2e.harness import World
from tests.bot.e2e.policy import Policy
from tests.fake_discord import FakeMessage

PANEL_ID = re.compile(r"ew:(?:a|s|t|ts|tc):(?P<gid>\d+):(?P<ver>\d+):")
"""A DM panel's answer, select, turn step or Confirm: its game and prompt version."""


def versions(message: FakeMessage, gid: int) -> set[int]:
    """The prompt versions the buttons of ``message`` answer in game ``gid``."""
    out = set()
    for c in message.walk_components():
        found = PANEL_ID.match(c.get("custom_id", ""))
        if found and int(found["gid"]) == gid:
            out.add(int(found["ver"]))
    return out


async def refused_buttons(world: World, gid: int) -> list[str]:
    """Every DM still showing buttons of game ``gid`` that the game would refuse now."""
    assert world.bot is not None
    out = []
    for user in world.users.values():
        for m in world.fake.dm_messages(user):
            for version in versions(m, gid):
                if not await world.bot.service.prompt_stands(gid, user.id, version):
                    out.append(f"{user.name}: {m.content[:80]!r} (version {version})")
    return out


def notes(world: World) -> Counter[str]:
    """How often each closing line ends a DM."""
    return Counter(
        m.content.rsplit("\n", 1)[-1]
        for u in world.users.values()
        for m in world.fake.dm_messages(u)
        if m.content.endswith("_")
    )


async def test_dm_panels_close_when_their_decision_is_taken_elsewhere(world: World) -> None:
    gid = await world.open_table()
    clicker = Clicker(world, channel_every=2)
    policy = Policy()
    taken_in_channel = 0
    while await clicker.step(policy):
        assert policy.steps < 200
        assert await refused_buttons(world, gid) == []
        decided = clicker.log[-1]
        if decided.where == "channel":
            taken_in_channel += 1
    assert taken_in_channel >= 5
    said = notes(world)
    assert said[f"_{ANSWERED_IN_CHANNEL}_"] >= taken_in_channel // 2, said
    assert said[f"_{REPLACED}_"] >= 1, said
    assert world.bot is not None
    assert (await world.bot.service.status(gid)).status == "finished"
    dms = [m for u in world.users.values() for m in world.fake.dm_messages(u)]
    assert not any(versions(m, gid) for m in dms)


async def test_a_slash_command_closes_the_dm_turn_panel(world: World) -> None:
    gid, mover = await world.open_at_turn()
    user = world.users[mover]
    assert world.bot is not None
    panel = next(m for m in reversed(world.fake.dm_messages(user)) if versions(m, gid))
    before = panel.content
    res = await world.slash(user, "arm")
    assert not res.ephemeral, res.content  # played: the action's message in the channel
    assert not versions(panel, gid)
    assert panel.content == f"{before}\n_{ANSWERED_IN_CHANNEL}_"
    assert await refused_buttons(world, gid) == []


async def test_the_end_of_the_game_closes_every_dm_panel(world: World) -> None:
    """Every player's setup panel is open when the last vote ends the game in a draw."""
    gid = await world.open_table()
    open_panels = [
        m for u in world.users.values() for m in world.fake.dm_messages(u) if versions(m, gid)
    ]
    assert len(open_panels) == 3  # every player places their pieces
    for name in ("ann", "bob", "cy"):
        asked = await world.slash(name, "draw")
        panel = asked.answer
        assert asked.ephemeral and panel is not None and panel.buttons, asked.content
        await world.click(name, panel, panel.buttons[0]["custom_id"])
    assert world.bot is not None
    st = await world.bot.service.status(gid)
    assert st.status == "finished" and st.result is not None and st.result["draw"]
    for m in open_panels:
        assert not versions(m, gid)
        assert m.content.endswith(f"\n_{OVER}_"), m.content

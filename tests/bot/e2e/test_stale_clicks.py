"""Stale and wrong clicks on the turn panel and the channel's buttons, through the real
client and the fake Discord: each gets a short private reason and changes nothing —
*Your turn* pressed by another player or a spectator, a panel whose turn was played
elsewhere (Confirm pressed twice, a DM panel after the channel's), any button once the
game is over. Back and Cancel move within the panel; a turn's action stays one."""

from __future__ import annotations

from tests.bot.e2e.harness import World
from tests.fake_discord import FakeMessage


def _newest(world: World, custom_id: str) -> FakeMessage:
    found = next(
        (m for m in reversed(world.fake.messages(world.channel)) if m.component(custom_id)), None
    )
    assert found is not None, custom_id
    return found


def _button(msg: FakeMessage, label: str) -> str:
    return next(b["custom_id"] for b in msg.buttons if b.get("label") == label)


async def test_stale_and_wrong_clicks_change_nothing(world: World) -> None:
    gid, mover_name = await world.open_at_turn()
    assert world.bot is not None
    svc, fake = world.bot.service, world.fake
    mover = world.users[mover_name]
    other = next(u for n, u in world.users.items() if n in ("ann", "bob", "cy") and u is not mover)
    version = (await svc.status(gid)).version
    turn_msg = _newest(world, f"ew:p:{gid}:t")

    res = await world.click(other, turn_msg, f"ew:p:{gid}:t")
    assert res.ephemeral and "nothing to decide now (waiting for" in res.content
    assert mover_name in res.content
    res = await world.click("spectator", turn_msg, f"ew:p:{gid}:t")
    assert res.ephemeral and "not playing in this game" in res.content

    # the mover opens the panel in the channel; Back and Cancel move within it
    shown = await world.click(mover, turn_msg, f"ew:p:{gid}:t")
    panel = shown.answer
    assert panel is not None and panel.ephemeral and "➤ Choose what to do:" in panel.content
    assert "Your hand" in panel.content, "the hand is on the panel"
    await world.click(mover, panel, _button(panel, "Move"))
    assert "**Move** ·" in panel.content
    await world.click(mover, panel, _button(panel, "◀ Back"))
    assert panel.content.endswith("➤ Choose what to do:")
    await world.click(mover, panel, _button(panel, "Arm (draw two cards)"))
    assert "**Arm (draw two cards)** — confirm?" in panel.content
    confirm = _button(panel, "✔ Confirm")
    assert (await svc.status(gid)).version == version, "nothing is done before Confirm"

    # the same turn played on the DM's panel first: the channel's panel is out of date
    dm = next(
        m
        for m in reversed(fake.dm_messages(mover))
        if any(c.get("custom_id", "").startswith(f"ew:t:{gid}:") for c in m.walk_components())
    )
    await world.click(mover, dm, _button(dm, "Pass"))
    await world.click(mover, dm, _button(dm, "✔ Confirm"))
    assert "✔ Pass" in dm.content
    assert (await svc.status(gid)).version == version + 1
    res = await world.click(mover, panel, confirm)
    assert res.ephemeral and "nothing to decide now" in res.content
    assert not dm.buttons, "the DM's panel says what was done, its buttons gone"
    assert (await svc.status(gid)).version == version + 1, "the turn was played once"

    # an old *Your turn* for someone whose turn is over
    res = await world.click(mover, turn_msg, f"ew:p:{gid}:t")
    st = await svc.status(gid)
    if not any(d.user_id == mover.id for d in st.decisions):
        assert res.ephemeral and "nothing to decide now" in res.content

    # the game ends: every button says so
    await svc.cancel(gid, world.users["ann"].id, is_admin=True)
    await world.settle()
    res = await world.click(mover, turn_msg, f"ew:p:{gid}:t")
    assert res.ephemeral and "over" in res.content.lower()
    res = await world.click(mover, panel, _button(panel, "◀ Back"))
    assert res.ephemeral and "over" in res.content.lower()

"""Out of turn, stale buttons, double clicks, bogus fields, spectators: a short ephemeral
reason, and nothing changes (same game version, no new channel message)."""

from __future__ import annotations

import asyncio

from bot.dms import CLOSED
from bot.views import codec
from rules import contract, pyramids
from tests.bot.e2e.harness import World
from tests.bot.e2e.policy import Policy


async def _version(world: World, gid: int) -> int:
    assert world.bot is not None
    return (await world.bot.service.status(gid)).version


async def _placed(world: World) -> tuple[int, Policy]:
    gid = await world.open_table()
    policy = Policy()
    for _ in range(3):  # the three placements
        assert await world.step(policy)
    return gid, policy


async def test_out_of_turn_and_bogus_fields_change_nothing(world: World) -> None:
    gid, _ = await _placed(world)
    assert world.bot is not None
    svc = world.bot.service
    st = await svc.status(gid)
    current = next(d for d in st.decisions if d.kind == "turn")
    mover = world.user_of(current.user_id)
    other = next(
        u for n, u in world.users.items() if n in ("ann", "bob", "cy") and u.id != mover.id
    )
    version, count = await _version(world, gid), len(world.fake.messages(world.channel))

    refusals = [
        (other, "arm", {}, "not your turn"),
        (other, "pass", {}, "not your turn"),
        (mover, "move", {"from": "Narnia", "to": "Spain"}, "no field called 'Narnia'"),
        (mover, "invade", {"from": "Atlantis", "to": "Germany"}, "no field called"),
        (mover, "conscript", {"field": "Moscow"}, "no field called"),
        (mover, "grow", {"field": "Spain"}, "not in this variant"),
        (mover, "build", {"field": "Spain"}, "not in this variant"),
        (mover, "place", {"large": "Spain"}, "no piece to place"),
        (world.users["spectator"], "arm", {}, "not playing"),
        (world.users["spectator"], "hand", {}, "not playing"),
        (mover, "spy", {"player": "nobody-at-all"}, "no player called"),
    ]
    for user, name, options, reason in refusals:
        res = await world.slash(user, name, **options)
        assert res.ephemeral, (name, res.content)
        assert reason.lower() in res.content.lower(), (name, res.content)
        assert len(res.content) < 400
    # an illegal move between real fields: the rule is named
    board = pyramids.load_board("european_war")
    assert st.view is not None
    src = next(f for f, (seat, _) in st.view.pieces.items() if seat == current.seat)
    far = next(
        f
        for f in board.field_order
        if f not in board.adjacency[src] and f not in board.sea_reach[src] and f != src
    )
    res = await world.slash(
        mover, "move", **{"from": board.fields[src].name, "to": board.fields[far].name}
    )
    assert res.ephemeral and "EW-" in res.content, res.content
    assert await _version(world, gid) == version
    assert len(world.fake.messages(world.channel)) == count


async def test_stale_and_double_clicks_act_once(world: World) -> None:
    gid = await world.open_table()
    ann = world.users["ann"]
    panel = next(m for m in reversed(world.fake.dm_messages(ann)) if m.buttons)
    first, second = panel.buttons[0]["custom_id"], panel.buttons[1]["custom_id"]
    version = await _version(world, gid)
    res = await world.click(ann, panel, first)
    assert not res.ephemeral and "✔" in res.original.content
    assert await _version(world, gid) == version + 1
    count = len(world.fake.messages(world.channel))

    # the panel was updated in place; a stale copy of the same message still shows the
    # old buttons in a slow client: replay the click on the old custom ids
    stale = world.fake.message(panel.id)
    stale.components = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "again", "custom_id": first},
                {"type": 2, "style": 1, "label": "other", "custom_id": second},
            ],
        }
    ]
    for cid in (first, second):
        res = await world.click(ann, stale, cid)
        assert res.ephemeral and "out of date" in res.content, res.content
    assert await _version(world, gid) == version + 1
    assert len(world.fake.messages(world.channel)) == count


async def test_simultaneous_double_click_acts_once(world: World) -> None:
    gid = await world.open_table()
    assert world.bot is not None
    bob = world.users["bob"]
    panel = next(m for m in reversed(world.fake.dm_messages(bob)) if m.buttons)
    cid = panel.buttons[0]["custom_id"]
    version = await _version(world, gid)
    a, b = await asyncio.gather(
        world.fake.click(bob, panel, cid), world.fake.click(bob, panel, cid)
    )
    await world.settle()
    assert await _version(world, gid) == version + 1
    assert sorted([a.ephemeral, b.ephemeral]) == [False, True]
    refused = a if a.ephemeral else b
    assert "out of date" in refused.content or "placed" in refused.content.lower()


async def test_spectator_pressing_player_buttons(world: World) -> None:
    gid = await world.open_table(start=False)
    spectator = world.users["spectator"]
    lobby = world.lobby_message()
    version = await _version(world, gid)
    for what, reason in (
        ("start", "only the host"),
        ("leave", "not at this table"),
        ("opts", "only the host"),
    ):
        res = await world.click(spectator, lobby, f"ew:l:{gid}:{what}")
        assert res.ephemeral and reason in res.content.lower(), (what, res.content)
    assert world.bot is not None
    assert len((await world.bot.service.lobby_info(gid)).seats) == 3
    assert await _version(world, gid) == version

    # the host's /cancel confirmation cannot be answered by someone else
    ann = world.users["ann"]
    ask = await world.slash(ann, "cancel")
    assert ask.ephemeral and ask.original.buttons
    res = await world.slash(spectator, "cancel")
    assert res.ephemeral and "only the host" in res.content.lower()
    keep = ask.original.buttons[1]["custom_id"]
    res = await world.click(ann, ask.original, keep)
    assert "Nothing changed" in res.original.content
    assert await world.gid_or_none() == gid


async def test_stale_duel_card_after_the_duel_moved_on(world: World) -> None:
    """A card button of an earlier duel turn is refused; the card stays in the hand."""
    gid = await world.open_table()
    policy = Policy()
    assert world.bot is not None
    svc = world.bot.service
    board = pyramids.load_board("european_war")
    panels = []
    for _ in range(60):
        prompts = await svc.prompts(gid)
        if prompts and prompts[0].kind == "duel":
            user = world.user_of(prompts[0].user_id)
            msg = next(m for m in reversed(world.fake.dm_messages(user)) if m.buttons)
            panels.append((user, msg, [b["custom_id"] for b in msg.buttons]))
        if not await world.step(policy):
            break
    assert panels
    user, msg, ids = panels[0]
    hand_before = (await svc.view(gid, user.id)).view.hand
    version = await _version(world, gid)
    stale = world.fake.message(msg.id)
    stale.components = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "old", "custom_id": ids[0]}]}
    ]
    res = await world.click(user, stale, ids[0])
    assert res.ephemeral
    assert await _version(world, gid) == version
    if await world.gid_or_none() is not None:
        assert (await svc.view(gid, user.id)).view.hand == hand_before
    assert codec.decode(ids[0].rsplit(":", 1)[1], contract.game_named(board.id)) is not None


async def test_replaced_player_cannot_use_old_panel(world: World) -> None:
    gid = await world.open_table()
    assert world.bot is not None
    svc = world.bot.service
    bob, dee = world.users["bob"], world.users["dee"]
    panel = next(m for m in reversed(world.fake.dm_messages(bob)) if m.buttons)
    buttons = panel.components
    st = await svc.status(gid)
    bob_seat = next(i for i, s in enumerate(st.seats) if s.user_id == bob.id)
    res = await world.slash("bob", "replace", seat=str(bob_seat))
    assert res.ephemeral and "host" in res.content.lower()
    seats = await world.fake.autocomplete(
        world.users["ann"], world.channel, "replace", focused="seat"
    )
    assert str(bob_seat) in {c["value"] for c in seats}
    res = await world.slash("ann", "replace", seat=str(bob_seat), **{"with": dee})
    assert not res.ephemeral and "dee takes over bob's seat" in res.content
    assert any(m.buttons for m in world.fake.dm_messages(dee)), "dee gets the open panel"
    assert not panel.buttons and panel.content.endswith(f"\n_{CLOSED}_")  # bob's is closed
    panel.components = buttons  # as a client that has not seen the edit yet shows it
    res = await world.click(bob, panel, panel.buttons[0]["custom_id"])
    assert res.ephemeral and "belongs to a player" in res.content
    # and the host hands dee's seat to a computer, which places at once
    res = await world.slash("ann", "replace", seat=str(bob_seat), level="easy")
    assert "(computer) takes over dee's seat" in res.content
    st = await svc.status(gid)
    assert all(d.seat != bob_seat for d in st.decisions)


async def test_two_commands_at_the_same_instant_apply_one_after_the_other(world: World) -> None:
    gid, _ = await _placed(world)
    assert world.bot is not None
    st = await world.bot.service.status(gid)
    mover = world.user_of(next(d for d in st.decisions if d.kind == "turn").user_id)
    version = await _version(world, gid)
    count = len(world.fake.messages(world.channel))
    a, b = await asyncio.gather(
        world.fake.slash(mover, world.channel, "arm"),
        world.fake.slash(mover, world.channel, "pass"),
    )
    await world.settle()
    assert sorted([a.ephemeral, b.ephemeral]) == [False, True]
    assert await _version(world, gid) == version + 1
    assert len(world.fake.messages(world.channel)) == count + 1

"""The bot process stopped mid-duel and started again on the same database; a player with
DMs closed plays a whole game."""

from __future__ import annotations

from bot.views import codec
from rules import contract, pyramids
from tests.bot.e2e.harness import World, make_world
from tests.bot.e2e.policy import Policy


async def _until_mid_duel(world: World, policy: Policy, gid: int) -> None:
    assert world.bot is not None
    svc = world.bot.service
    for _ in range(100):
        prompts = await svc.prompts(gid)
        view = (await svc.status(gid)).view
        if (
            prompts
            and prompts[0].kind == "duel"
            and view is not None
            and view.battle is not None
            and view.battle.attacker_cards
        ):
            return
        assert await world.step(policy)
    raise AssertionError("no duel reached")


async def test_restart_mid_duel_then_the_game_finishes(world: World) -> None:
    gid = await world.open_table()
    policy = Policy()
    await _until_mid_duel(world, policy, gid)
    assert world.bot is not None
    prompt = (await world.bot.service.prompts(gid))[0]
    user = world.user_of(prompt.user_id)
    board = pyramids.load_board("european_war")
    state = world.bot.service._games[gid].state
    assert isinstance(state, pyramids.GameState)
    action = policy.choose(state, prompt.seat, prompt.kind, list(prompt.choices))
    old_panel, cid, _ = world.find_answer(
        world.fake.dm_messages(user), gid, codec.encode(action, contract.game_named(board.id))
    )
    dms_before = len(world.fake.dm_messages(user))
    channel_before = len(world.fake.messages(world.channel))

    await world.stop()
    await world.start()
    await world.fake.wait_until(
        lambda: len(world.fake.dm_messages(user)) > dms_before, what="the duel panel sent again"
    )
    await world.settle()
    again = world.fake.dm_messages(user)[-1]
    assert "Duel on" in again.content and again.buttons, "the open panel comes back"
    assert again.content.startswith("**Test Server** › #games")

    # the panel from before the restart still works (it names game, version and card)
    res = await world.click(user, old_panel, cid)
    assert not res.errors and "✔" in res.original.content
    assert len(world.fake.messages(world.channel)) >= channel_before
    # a second click on the same old button is refused: it acted once
    again_res = await world.click(user, old_panel, cid) if old_panel.component(cid) else None
    if again_res is not None:
        assert again_res.ephemeral and "out of date" in again_res.content
    policy.steps += 1
    st = await world.play_to_end(gid, policy, 150)
    assert st.status == "finished" and st.view is not None and st.view.over


async def test_player_with_dms_closed_plays_to_the_end(fake_discord, tmp_path) -> None:
    world = await make_world(fake_discord, tmp_path, dms_closed=("bob",))
    try:
        bob = world.users["bob"]
        gid = await world.open_table()
        told = [
            m
            for m in world.fake.messages(world.channel)
            if "cannot send you direct messages" in m.content
        ]
        assert len(told) == 1 and bob.mention in told[0].content, "told once, at join"
        opener = next(
            m for m in world.fake.messages(world.channel) if m.component(f"ew:o:{gid}:{bob.id}")
        )
        assert "a decision is yours" in opener.content

        # someone else cannot open bob's panel
        ann = world.users["ann"]
        res = await world.click(ann, opener, f"ew:o:{gid}:{bob.id}")
        assert res.ephemeral and "This panel is for" in res.content

        policy = Policy()
        hand_checked = False
        while await world.step(policy):
            assert policy.steps < 100
            assert world.bot is not None
            uv = await world.bot.service.view(gid, bob.id)
            if uv.view.hand and not hand_checked:
                res = await world.slash(bob, "hand")
                assert res.ephemeral and "Your hand" in res.content
                assert res.original.attachments[0].filename == "hand.png"
                hand_checked = True
        assert world.bot is not None
        st = await world.bot.service.status(gid)
        assert st.status == "finished"
        assert hand_checked
        assert not world.fake.dm_messages(bob), "no DM ever reached bob"
        told = [
            m
            for m in world.fake.messages(world.channel)
            if "cannot send you direct messages" in m.content
        ]
        assert len(told) == 1, "the channel is told once per game"
    finally:
        await world.stop()


async def test_after_a_restart_the_duel_message_is_edited_not_posted_again(world: World) -> None:
    gid = await world.open_table()
    policy = Policy()
    await _until_mid_duel(world, policy, gid)
    assert world.bot is not None
    duel_id = (await world.bot.db.game_messages(gid)).duel_message_id
    assert duel_id is not None
    duel_msg = next(m for m in world.fake.messages(world.channel) if m.id == duel_id)
    assert "board.png" in {a.filename for a in duel_msg.attachments}

    await world.stop()
    await world.start()
    await world.settle()
    posted = len(world.fake.messages(world.channel))
    edits = len(world.fake.requests_to("PATCH", f"/channels/{world.channel.id}/messages/{duel_id}"))
    prompt = (await world.bot.service.prompts(gid))[0]
    assert prompt.kind == "duel"
    card = next(a for a in prompt.choices if a.kind == "play_card")  # the duel goes on
    res = await world.answer_panel(
        world.user_of(prompt.user_id), gid, card, pyramids.load_board("european_war")
    )
    assert not res.errors
    st = await world.bot.service.status(gid)
    assert st.view is not None and st.view.battle is not None, "still mid-duel"
    assert len(world.fake.messages(world.channel)) == posted, "nothing posted again"
    assert (
        len(world.fake.requests_to("PATCH", f"/channels/{world.channel.id}/messages/{duel_id}"))
        == edits + 1
    )
    duel_msg = next(m for m in world.fake.messages(world.channel) if m.id == duel_id)
    assert {a.filename for a in duel_msg.attachments} >= {"board.png"}, "the board stays"
    assert (await world.bot.db.game_messages(gid)).duel_message_id == duel_id
    policy.steps += 1
    assert (await world.play_to_end(gid, policy, 150)).status == "finished"
    assert (await world.bot.db.game_messages(gid)).duel_message_id is None


async def test_after_a_restart_the_lobby_message_is_edited(world: World) -> None:
    await world.slash("ann", "newgame")
    lobby = world.lobby_message()
    gid = await world.gid()
    assert world.bot is not None
    stored = await world.bot.db.game_messages(gid)
    assert (stored.lobby_channel_id, stored.lobby_message_id) == (world.channel.id, lobby.id)

    await world.stop()
    await world.start()
    res = await world.slash("bob", "join")
    assert not res.ephemeral
    lobbies = [
        m
        for m in world.fake.messages(world.channel)
        if any(c.get("custom_id", "").startswith("ew:l:") for c in m.walk_components())
    ]
    assert [m.id for m in lobbies] == [lobby.id], "the lobby was edited, not posted again"
    assert world.users["bob"].mention in lobby.content
    await world.slash("ann", "start")
    assert not lobby.components, "the lobby's buttons went when the game started"
    assert (await world.bot.db.game_messages(gid)).lobby_message_id is None


async def test_a_player_with_dms_closed_is_not_dmed_again_after_a_restart(
    fake_discord, tmp_path
) -> None:
    world = await make_world(fake_discord, tmp_path, dms_closed=("bob",))
    try:
        bob = world.users["bob"]
        gid = await world.open_table()
        policy = Policy()
        for _ in range(6):
            assert await world.step(policy)
        await world.stop()
        await world.start()
        await world.settle()
        dm_path = f"/channels/{world.fake.dm_channel(bob).id}/messages"
        tried = len(world.fake.requests_to("POST", dm_path))
        assert tried >= 1, "bob's closed DMs were found out before the restart"
        assert (await world.play_to_end(gid, policy, 150)).status == "finished"
        assert world.bot is not None
        assert len(world.fake.requests_to("POST", dm_path)) == tried, "no DM tried again"
        told = [
            m
            for m in world.fake.messages(world.channel)
            if "cannot send you direct messages" in m.content
        ]
        assert len(told) == 1, "the channel is told once per game, restart or not"
        assert bob.id not in await world.bot.db.users_with_dms_closed(), "game over"
    finally:
        await world.stop()

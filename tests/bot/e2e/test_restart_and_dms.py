"""The bot process stopped mid-duel and started again on the same database; a player with
DMs closed plays a whole game."""

from __future__ import annotations

import rules
from bot.views import codec

from .harness import World, make_world
from .policy import Policy


async def _until_mid_duel(world: World, policy: Policy, gid: int) -> None:
    assert world.bot is not None
    svc = world.bot.service
    for _ in range(100):
        prompts = await svc.prompts(gid)
        view = (await svc.status(gid)).view
        if (prompts and prompts[0].kind == "duel" and view is not None
                and view.battle is not None and view.battle.attacker_cards):
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
    board = rules.load_board("european_war")
    state = world.bot.service._games[gid].state
    assert state is not None
    action = policy.choose(state, prompt.seat, prompt.kind, list(prompt.choices))
    old_panel, cid, _ = world.find_answer(world.fake.dm_messages(user), gid,
                                          codec.encode(action, board))
    dms_before = len(world.fake.dm_messages(user))
    channel_before = len(world.fake.messages(world.channel))

    await world.stop()
    await world.start()
    await world.fake.wait_until(lambda: len(world.fake.dm_messages(user)) > dms_before,
                                what="the duel panel sent again")
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
    while await world.step(policy):
        assert policy.steps < 150
    st = await world.bot.service.status(gid)
    assert st.status == "finished" and st.view is not None and st.view.over


async def test_player_with_dms_closed_plays_to_the_end(fake_discord, tmp_path) -> None:
    world = await make_world(fake_discord, tmp_path, dms_closed=("bob",))
    try:
        bob = world.users["bob"]
        gid = await world.open_table()
        told = [m for m in world.fake.messages(world.channel)
                if "cannot send you direct messages" in m.content]
        assert len(told) == 1 and bob.mention in told[0].content, "told once, at join"
        opener = next(m for m in world.fake.messages(world.channel)
                      if m.component(f"ew:o:{gid}:{bob.id}"))
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
        told = [m for m in world.fake.messages(world.channel)
                if "cannot send you direct messages" in m.content]
        assert len(told) == 1, "the channel is told once per game"
    finally:
        await world.stop()

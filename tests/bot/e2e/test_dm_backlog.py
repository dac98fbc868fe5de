"""What Discord holds back (the global rate limit, an outage) never holds back a game's
answers: the next player's action is answered and shown while the previous action's DMs
still wait (the DMs then arrive in the order of the actions), and a late board reaches
a deferred answer through its interaction's webhook, not behind the outbox's queue."""

from __future__ import annotations

import re

import pytest

import bot.reply
from tests.bot.e2e.harness import World
from tests.bot.e2e.test_answer_first import HeldImages
from tests.fake_discord import FakeUser


async def _two_player_game(world: World) -> tuple[int, dict[int, FakeUser]]:
    """ann and bob in a started game with every piece placed (through the service)."""
    assert world.bot is not None
    svc = world.bot.service
    ann, bob = world.users["ann"], world.users["bob"]
    out = await svc.open_lobby(
        channel_id=world.channel.id,
        host_id=ann.id,
        host_name="ann",
        guild_id=world.guild.id,
        max_players=2,
    )
    assert out.ok and out.game_id is not None, out.error
    gid = out.game_id
    assert (await svc.join(gid, bob.id, "bob")).ok
    started = await svc.start_game(gid, ann.id, seed=3)
    assert started.ok
    for p in started.prompts:
        assert p.user_id is not None
        assert (await svc.answer(gid, p.user_id, p.version, p.choices[0])).ok
    await world.settle()
    return gid, {ann.id: ann, bob.id: bob}


async def _to_play(world: World, gid: int, players: dict[int, FakeUser]) -> FakeUser:
    assert world.bot is not None
    st = await world.bot.service.status(gid)
    turn = next(d for d in st.decisions if d.kind == "turn")
    assert turn.user_id is not None
    return players[turn.user_id]


async def test_held_dms_do_not_hold_the_next_action_s_answer(world: World) -> None:
    fake = world.fake
    gid, players = await _two_player_game(world)
    first = await _to_play(world, gid, players)
    second = next(u for u in players.values() if u is not first)
    before = {u.id: len(fake.dm_messages(u)) for u in players.values()}
    held = fake.hold("POST", "/channels/*/messages")  # every DM (answers go by webhook)

    one = await fake.slash(first, world.channel, "arm")
    assert one.answer is not None and not one.answer.ephemeral
    await fake.wait_until(lambda: held.waiting > 0, 5, "the first action's DMs held")
    # the second player's action: answered, its board shown, the first one's DMs held
    two = await fake.slash(second, world.channel, "pass", timeout=10)
    msg = two.answer
    assert msg is not None and not msg.ephemeral, two.content
    assert re.search(rf"<@{first.id}>, your turn", msg.content), msg.content
    await fake.wait_until(lambda: bool(msg.attachments), 10, "the board", on=msg)
    assert held.waiting > 0
    assert {u.id: len(fake.dm_messages(u)) for u in players.values()} == before

    held.release()
    await world.settle()
    # in the actions' order: the first action's two DMs (the actor's new cards, the next
    # player's turn), then the second action's (the first player's turn again)
    dms = [r for r in fake.requests_to("POST", "/channels/*/messages") if r.status == 200]
    dm_of = {fake.dm_channel(u).id: u for u in players.values()}
    to = [dm_of[int(r.path.split("/")[2])] for r in dms]
    said = [str((r.json or {}).get("content")) for r in dms]
    assert to == [first, second, first] or to == [second, first, first], to
    assert "Your turn" in said[-1] and "Your turn" not in said[to.index(first)]


async def test_a_late_board_reaches_a_deferred_answer_by_its_webhook(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer to a deferred command is a follow-up: its late board is added through
    the interaction's webhook (not counted by the global limit), never queued behind the
    outbox's channel messages and DMs."""
    monkeypatch.setattr(bot.reply, "WORDS_FIRST_AFTER", 0.05)
    fake = world.fake
    gid, players = await _two_player_game(world)
    assert world.bot is not None
    held_images = HeldImages(world.bot.delivery.images)
    world.bot.delivery.images = held_images  # type: ignore[assignment]  # a stand-in
    outbox = fake.hold("*", "/channels/*/messages*")  # channel messages, edits and DMs

    res = await fake.slash(await _to_play(world, gid, players), world.channel, "arm")
    msg = res.answer
    assert res.response_type == 5 and msg is not None and not msg.ephemeral
    assert not msg.attachments  # the words went first
    held_images.gate.set()
    await fake.wait_until(lambda: bool(msg.attachments), 10, "the late board", on=msg)
    assert msg.attachments[0].filename == "board.png"
    edits = fake.requests_to("PATCH", "/webhooks/*/messages/*")
    assert edits and all(r.files for r in edits)
    assert not fake.requests_to("PATCH", "/channels/*")
    outbox.release()
    await world.settle()

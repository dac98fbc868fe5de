"""Taking an action back through the real client and the fake Discord: *Undo* under an
action that revealed nothing, for 30 s (then taken off by an edit), and /undo; the
channel is told "X took back: …" with the board as it was; a refusal (not yours, too
late, someone acted since, the action revealed something) is a short private reason that
changes nothing. No message shows an Undo that would be refused: another action takes
the older one off at once, a merged message shows the newest action's only, a restart
re-arms the button's timer or takes it off, and a stale button clicked goes."""

from __future__ import annotations

from typing import Any

from service.sqlite_store import SqliteStore
from tests.bot.e2e.harness import World
from tests.bot.e2e.policy import Policy
from tests.fake_discord import FakeMessage, FakeUser


async def acted(world: World, gid: int) -> tuple[FakeUser, int]:
    """Who took the game's latest action, and its number."""
    assert world.bot is not None
    last = (await world.bot.service.store.last_actions(gid, 1))[-1]
    return world.user_of(last.user_id), last.seq


def with_button(world: World, custom_id: str) -> FakeMessage | None:
    """The channel message that shows ``custom_id`` now (None: none does)."""
    return next(
        (m for m in reversed(world.fake.messages(world.channel)) if m.component(custom_id)), None
    )


async def version(world: World, gid: int) -> int:
    assert world.bot is not None
    return (await world.bot.service.status(gid)).version


def someone_else(world: World, user: FakeUser) -> str:
    return next(n for n in ("ann", "bob", "cy") if world.users[n].id != user.id)


async def placed(world: World, gid: int, policy: Policy) -> tuple[FakeUser, int, FakeMessage]:
    """One more placement (EW-5); who placed, its number, the message with its Undo."""
    assert await world.step(policy)
    user, seq = await acted(world, gid)
    msg = with_button(world, f"ew:u:{gid}:{seq}")
    assert msg is not None, [m.content for m in world.fake.messages(world.channel)[-2:]]
    return user, seq, msg


async def test_undo_by_button_and_by_command(world: World) -> None:
    gid = await world.open_table()
    policy = Policy()
    user, seq, msg = await placed(world, gid, policy)
    other = someone_else(world, user)
    refused: Any = await world.click(other, msg, f"ew:u:{gid}:{seq}")
    assert refused.ephemeral and refused.content.startswith("Only ")
    assert refused.content.endswith(" may take back that action.")
    assert await version(world, gid) == seq

    undone: Any = await world.click(user, msg, f"ew:u:{gid}:{seq}")
    assert not undone.ephemeral, undone.content
    assert " took back: " in undone.content
    assert await version(world, gid) == seq + 1
    assert world.fake.message(msg.id).component(f"ew:u:{gid}:{seq}") is None  # taken off
    told = world.fake.messages(world.channel)[-1]
    assert " took back: " in told.content and told.attachments  # the board as it was

    user, seq, _ = await placed(world, gid, policy)
    undone = await world.slash(user, "undo")
    assert not undone.ephemeral and " took back: " in undone.content
    again = await world.slash(user, "undo")
    assert again.ephemeral
    assert again.content == "Nothing to undo: the last action was already taken back."


async def test_refusals_say_why_and_change_nothing(world: World) -> None:
    gid = await world.open_table()
    policy = Policy()
    user, seq, msg = await placed(world, gid, policy)
    world.clock.advance(31)
    await world.settle()
    assert world.fake.message(msg.id).component(f"ew:u:{gid}:{seq}") is None  # its 30 s
    late = await world.slash(user, "undo")
    assert late.ephemeral
    assert late.content == "Too late to undo: an action can be taken back within 30 s only."

    first, seq, msg = await placed(world, gid, policy)
    # the last placement deals the hands (EW-6): no Undo under it, and /undo says why;
    # the first one's Undo went at once (it would be refused)
    assert await world.step(policy)
    last, last_seq = await acted(world, gid)
    assert last.id != first.id and last_seq == seq + 1
    assert with_button(world, f"ew:u:{gid}:{last_seq}") is None
    assert world.fake.message(msg.id).component(f"ew:u:{gid}:{seq}") is None
    moved = await world.slash(first, "undo")
    assert moved.ephemeral and moved.content == f"Nothing to undo: {last.name} has moved since."
    revealed = await world.slash(last, "undo")
    assert revealed.ephemeral
    assert revealed.content.startswith("Your last action cannot be taken back: it revealed")
    assert await version(world, gid) == last_seq
    spectator = await world.slash("spectator", "undo")
    assert spectator.ephemeral and spectator.content == "You are not playing in this game."


def undo_buttons(world: World, gid: int) -> dict[int, list[str]]:
    """Message id -> the Undo buttons it shows, for the channel's messages showing one."""
    shown = {
        m.id: [
            c["custom_id"]
            for c in m.walk_components()
            if c.get("custom_id", "").startswith(f"ew:u:{gid}:")
        ]
        for m in world.fake.messages(world.channel)
    }
    return {k: v for k, v in shown.items() if v}


async def test_a_restart_inside_the_30_s_keeps_a_working_undo_that_goes_at_its_time(
    world: World,
) -> None:
    gid = await world.open_table()
    policy = Policy()
    user, seq, msg = await placed(world, gid, policy)
    await world.stop()
    world.clock.advance(10)
    await world.start()
    await world.settle()
    assert undo_buttons(world, gid) == {msg.id: [f"ew:u:{gid}:{seq}"]}
    undone: Any = await world.click(user, msg, f"ew:u:{gid}:{seq}")
    assert not undone.ephemeral and " took back: " in undone.content
    assert undo_buttons(world, gid) == {}

    user, seq, msg = await placed(world, gid, policy)
    opener = world.fake.message(msg.id).component(f"ew:p:{gid}:a")
    await world.stop()
    world.clock.advance(10)
    await world.start()
    world.clock.advance(19.5)  # 29.5 s after the action
    await world.settle()
    assert undo_buttons(world, gid) == {msg.id: [f"ew:u:{gid}:{seq}"]}
    world.clock.advance(1)
    await world.settle()
    assert undo_buttons(world, gid) == {}  # taken off by the timer armed again
    assert world.fake.message(msg.id).component(f"ew:p:{gid}:a") == opener  # the rest stays
    assert world.bot is not None and await world.bot.db.undo_offers() == {}


async def test_a_restart_after_the_30_s_finds_the_button_gone(world: World) -> None:
    gid = await world.open_table()
    policy = Policy()
    user, seq, msg = await placed(world, gid, policy)
    await world.stop()
    world.clock.advance(40)
    await world.start()
    await world.settle()
    assert undo_buttons(world, gid) == {}
    assert world.fake.message(msg.id).component(f"ew:p:{gid}:a") is not None
    assert world.bot is not None and await world.bot.db.undo_offers() == {}
    late = await world.slash(user, "undo")
    assert late.content == "Too late to undo: an action can be taken back within 30 s only."
    assert await version(world, gid) == seq


async def test_an_action_message_sent_after_a_restart_gets_its_undo_timer(world: World) -> None:
    gid = await world.open_table()
    policy = Policy()
    assert world.bot is not None
    world.bot.delivery.outbox.hold(world.channel.id)  # Discord slow: the message waits
    assert await world.step(policy)
    _user, seq = await acted(world, gid)
    assert undo_buttons(world, gid) == {}
    await world.stop()  # the outbox keeps it
    world.clock.advance(5)
    await world.start()
    await world.settle()
    [(mid, ids)] = undo_buttons(world, gid).items()
    assert ids == [f"ew:u:{gid}:{seq}"]
    world.clock.advance(26)
    await world.settle()
    assert undo_buttons(world, gid) == {}
    assert world.fake.message(mid).component(f"ew:p:{gid}:a") is not None


async def test_two_quick_actions_merged_show_one_undo_the_newest(world: World) -> None:
    gid = await world.open_table()
    policy = Policy()
    assert world.bot is not None
    before = len(world.fake.messages(world.channel))
    world.bot.delivery.outbox.hold(world.channel.id)  # Discord slow: the messages pile up
    assert await world.step(policy)
    first, first_seq = await acted(world, gid)
    assert await world.step(policy)
    second, seq = await acted(world, gid)
    assert first.id != second.id and seq == first_seq + 1
    world.bot.delivery.outbox.release(world.channel.id)
    await world.settle()
    [merged] = world.fake.messages(world.channel)[before:]
    assert first.name in merged.content and second.name in merged.content  # both told
    assert undo_buttons(world, gid) == {merged.id: [f"ew:u:{gid}:{seq}"]}
    posted = world.fake.requests_to("POST", f"/channels/{world.channel.id}/messages")
    assert not any(f"ew:u:{gid}:{first_seq}" in str(r.json) for r in posted)

    undone: Any = await world.click(second, merged, f"ew:u:{gid}:{seq}")
    assert not undone.ephemeral and " took back: " in undone.content
    assert undo_buttons(world, gid) == {}  # withdrawn from the merged message
    assert world.fake.message(merged.id).component(f"ew:p:{gid}:a") is not None


async def test_an_undo_taken_back_while_its_message_waits_is_never_shown(world: World) -> None:
    gid = await world.open_table()
    policy = Policy()
    assert world.bot is not None
    world.bot.delivery.outbox.hold(world.channel.id)
    assert await world.step(policy)
    user, seq = await acted(world, gid)
    undone = await world.slash(user, "undo")
    assert not undone.ephemeral and " took back: " in undone.content
    world.bot.delivery.outbox.release(world.channel.id)
    await world.settle()
    assert undo_buttons(world, gid) == {}
    posted = world.fake.requests_to("POST", f"/channels/{world.channel.id}/messages")
    assert not any(f"ew:u:{gid}:{seq}" in str(r.json) for r in posted)


async def test_a_stale_button_clicked_answers_why_and_goes(world: World) -> None:
    """A button the bot kept no record of (a message from an older release): a click
    says why not, and the button goes."""
    gid = await world.open_table()
    policy = Policy()
    user, seq, msg = await placed(world, gid, policy)
    await world.stop()
    world.clock.advance(40)
    store = await SqliteStore.open(world.tmp / "games.db")
    try:
        await store.set_undo_offer(gid, None)
    finally:
        await store.close()
    await world.start()
    await world.settle()
    assert undo_buttons(world, gid) == {msg.id: [f"ew:u:{gid}:{seq}"]}
    stale: Any = await world.click(user, msg, f"ew:u:{gid}:{seq}")
    assert stale.ephemeral
    assert stale.content == "Too late to undo: an action can be taken back within 30 s only."
    assert await version(world, gid) == seq
    assert undo_buttons(world, gid) == {}
    assert world.fake.message(msg.id).component(f"ew:p:{gid}:a") is not None

"""Taking an action back through the real client and the fake Discord: *Undo* under an
action that revealed nothing, for 30 s (then taken off by an edit), and /undo; the
channel is told "X took back: …" with the board as it was; a refusal (not yours, too
late, someone acted since, the action revealed something) is a short private reason that
changes nothing; a button left from before a restart still answers."""

from __future__ import annotations

from typing import Any

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
    # the last placement deals the hands (EW-6): no Undo under it, and /undo says why
    assert await world.step(policy)
    last, last_seq = await acted(world, gid)
    assert last.id != first.id and last_seq == seq + 1
    assert with_button(world, f"ew:u:{gid}:{last_seq}") is None
    moved: Any = await world.click(first, msg, f"ew:u:{gid}:{seq}")
    assert moved.ephemeral and moved.content == f"Nothing to undo: {last.name} has moved since."
    revealed = await world.slash(last, "undo")
    assert revealed.ephemeral
    assert revealed.content.startswith("Your last action cannot be taken back: it revealed")
    assert await version(world, gid) == last_seq
    spectator = await world.slash("spectator", "undo")
    assert spectator.ephemeral and spectator.content == "You are not playing in this game."


async def test_a_button_from_before_a_restart_still_answers(world: World) -> None:
    gid = await world.open_table()
    policy = Policy()
    user, seq, msg = await placed(world, gid, policy)
    await world.stop()
    await world.start()
    world.clock.advance(5)
    undone: Any = await world.click(user, msg, f"ew:u:{gid}:{seq}")
    assert not undone.ephemeral and " took back: " in undone.content

    user, seq, msg = await placed(world, gid, policy)
    await world.stop()
    world.clock.advance(40)
    await world.start()
    stale: Any = await world.click(user, msg, f"ew:u:{gid}:{seq}")
    assert stale.ephemeral
    assert stale.content == "Too late to undo: an action can be taken back within 30 s only."
    assert await version(world, gid) == seq

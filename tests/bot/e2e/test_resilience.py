"""What the bot must survive: a 429 with retry-after, an interaction answered too late,
an action deferred on entry and completed with its board, a failing renderer."""

from __future__ import annotations

import pytest

import render
from tests.bot.e2e.harness import World


async def test_rate_limited_post_is_retried(world: World) -> None:
    await world.open_table(start=False)
    gid = await world.gid()
    world.fake.rate_limit_once("POST", f"/channels/{world.channel.id}/messages", 0.05)
    await world.click("ann", world.lobby_message(), f"ew:l:{gid}:start")
    posts = world.fake.requests_to("POST", f"/channels/{world.channel.id}/messages")
    assert [r.status for r in posts[-2:]] == [429, 200]
    assert "Seat order" in world.fake.messages(world.channel)[-1].content


async def test_interaction_answered_too_late_still_shows_the_action(world: World) -> None:
    gid, mover = await world.open_at_turn()
    count = len(world.fake.messages(world.channel))
    world.fake.interaction_deadline = 0.0
    res = await world.slash(mover, "arm")
    assert res.expired
    msgs = world.fake.messages(world.channel)
    assert len(msgs) == count + 1, "posted in the channel instead of as the answer"
    assert "armed" in msgs[-1].content and msgs[-1].attachments[0].filename == "board.png"
    assert world.bot is not None
    assert (await world.bot.service.status(gid)).version > 0


async def test_action_is_deferred_on_entry_then_completed(world: World) -> None:
    _, mover = await world.open_at_turn()
    res = await world.slash(mover, "arm")
    assert res.deferred and not res.ephemeral and res.response_type == 5
    assert "armed" in res.original.content
    assert res.original.attachments[0].filename == "board.png"


async def test_a_failing_renderer_does_not_stop_the_game(
    world: World, bot_errors: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, mover = await world.open_at_turn()

    def broken(*_: object, **__: object) -> bytes:
        raise RuntimeError("renderer bug")

    monkeypatch.setattr(render.pyramids.PyramidImages, "board", broken)
    res = await world.slash(mover, "pass")
    assert not res.ephemeral and "passed" in res.content
    att = res.original.attachments[0]
    assert att.filename == "board.png" and att.data.startswith(b"\x89PNG")
    assert any("board image failed" in r.getMessage() for r in bot_errors)
    bot_errors.clear()

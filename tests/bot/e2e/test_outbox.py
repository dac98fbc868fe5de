"""Nothing the bot owes is dropped, and it paces itself: computer-only games playing
themselves against the fake Discord enforcing Discord's global limit; 429s and outages
past discord.py's own retries; the outbox kept across a restart; and a channel that
stops letting the bot post."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

from bot.images import Picture
from service import Outcome
from service.scheduler import FakeClock
from tests.bot.e2e.harness import World
from tests.bot.e2e.selfplay import Recorder, Table, lost_lines, open_table

GLOBAL_429 = {"message": "You are being rate limited.", "retry_after": 0.01, "global": True}
RATE_HEADERS = {
    "Via": "1.1 google",
    "X-RateLimit-Global": "true",
    "X-RateLimit-Scope": "global",
    "Retry-After": "1",
}


async def _world(
    fake, tmp_path, *, per_second: float | None, route_limit: tuple[int, float] | None = None, **kw
) -> World:
    if per_second is not None:
        fake.set_rate_limits(per_second=per_second, route_limit=route_limit)
    guild = fake.add_guild("Load")
    world = World(
        fake, tmp_path, guild, fake.add_text_channel(guild, "lobby"), {}, clock=FakeClock()
    )
    options = {"rate": per_second * 0.9} if per_second else {}
    await world.start(outbox_options=options, **kw)
    return world


async def _self_play(world: World, games: int, timeout: float) -> tuple[list[Table], Recorder]:
    bot = world.bot
    assert bot is not None
    await bot.service.update_guild_settings(world.guild.id, max_games=games + 1)
    recorder = Recorder()
    recorder.attach(bot)
    tables = await asyncio.gather(
        *(open_table(world.fake, bot, world.guild, n, recorder) for n in range(games))
    )
    await asyncio.wait_for(world.settle(), timeout)
    return list(tables), recorder


async def _check_all_shown(world: World, tables: list[Table], recorder: Recorder) -> None:
    fake, bot = world.fake, world.bot
    assert bot is not None
    for t in tables:
        st = await bot.service.status(t.gid)
        assert st.status == "finished", f"game {t.gid} stalled at version {st.version}"
        last = fake.messages(t.channel)[-1]
        assert "Game over" in last.content, last.content
        # the setup panel reached the host (its buttons were taken off once answered)
        sent = fake.requests_to("POST", f"/channels/{fake.dm_channel(t.host).id}/messages")
        assert any(
            c.get("custom_id", "").startswith("ew:")
            for r in sent
            for row in (r.json or {}).get("components", [])
            for c in row.get("components", [])
        ), "the setup panel reached the host"
    assert lost_lines(fake, tables, recorder) == []
    assert await bot.db.outbox_items() == []


async def test_computer_games_lose_nothing_under_the_global_limit(fake_discord, tmp_path) -> None:
    """Twelve games at once, the fake allowing 20 requests/s and 5 per second on each
    route: every action's words in its channel, every end announced, every DM
    delivered, no game stalled — and the bot paced itself (no global 429 at all)."""
    world = await _world(fake_discord, tmp_path, per_second=20, route_limit=(5, 1.0))
    try:
        tables, recorder = await _self_play(world, 12, 240)
        await _check_all_shown(world, tables, recorder)
        assert fake_discord.limits.counted > 12 * 10
        assert fake_discord.limits.global_429s == 0
        assert fake_discord.limits.route_429s == 0  # discord.py read the bucket headers
    finally:
        await world.stop()


@pytest.mark.slow
async def test_a_hundred_games_at_discords_limit(fake_discord, tmp_path) -> None:
    """The full size: 100 computer-only games against 50 requests/s."""
    world = await _world(fake_discord, tmp_path, per_second=50)
    try:
        tables, recorder = await _self_play(world, 100, 900)
        await _check_all_shown(world, tables, recorder)
        assert fake_discord.limits.global_429s == 0
    finally:
        await world.stop()


def _lite(world: World, channel_id: int) -> Outcome:
    return Outcome(ok=True, game_id=None, channel_id=channel_id, guild_id=world.guild.id)


def _picture(n: int) -> Picture:
    """A small real PNG, different for each ``n``."""
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (n * 40 % 256, 90, 30)).save(buf, "PNG")
    return Picture(buf.getvalue(), "board.png", f"board {n}")


async def test_429s_and_outages_past_discord_pys_retries_are_retried(
    fake_discord, tmp_path
) -> None:
    """discord.py gives up after five 429s in a row and at once on a 503; the outbox
    backs off and tries again until the message is in."""
    world = await _world(fake_discord, tmp_path, per_second=None)
    try:
        bot, ch = world.bot, world.channel
        assert bot is not None
        fake_discord.fail_next(
            "POST", f"/channels/{ch.id}/messages", 429, GLOBAL_429, headers=RATE_HEADERS, times=7
        )
        fake_discord.fail_next("POST", f"/channels/{ch.id}/messages", 503, times=2)
        await bot.delivery.post(_lite(world, ch.id), "still here")
        await world.settle()
        assert [m.content for m in fake_discord.messages(ch)] == ["still here"]
        assert bot.delivery.outbox.retries >= 2
    finally:
        await world.stop()


async def test_coalescing_and_superseded_edits(fake_discord, tmp_path) -> None:
    """A channel that owes several action messages gets one with all the words, the
    latest board and every ping; an edit overtaken by a newer one is skipped."""
    world = await _world(fake_discord, tmp_path, per_second=None)
    try:
        bot, ch = world.bot, world.channel
        assert bot is not None
        box = bot.delivery.outbox
        first = await box.send(ch.id, {"content": "lobby"}, [])
        sent = (await first).message
        assert sent is not None
        box.hold(ch.id)  # as if Discord were slow: things pile up
        for n in range(3):
            await bot.delivery.post(
                _lite(world, ch.id),
                f"move {n}",
                files=[_picture(n)],
                pings={1000 + n},
                tail=f"player {n} is to play",
            )
        for n in range(3):
            await box.edit(ch.id, sent.id, {"content": f"lobby v{n}"}, [])
        box.release(ch.id)
        await world.settle()
        msgs = fake_discord.messages(ch)
        assert [m.content for m in msgs] == [
            "lobby v2",
            "move 0\nmove 1\nmove 2\nplayer 2 is to play",
        ]
        merged = msgs[1]
        assert [a.data for a in merged.attachments] == [_picture(2).data]
        assert fake_discord.requests_to("PATCH", f"/channels/{ch.id}/messages/*")
        assert len(fake_discord.requests_to("PATCH", f"/channels/{ch.id}/messages/*")) == 1
        body = fake_discord.requests_to("POST", f"/channels/{ch.id}/messages")[-1].json
        assert sorted(map(int, body["allowed_mentions"]["users"])) == [1000, 1001, 1002]
        assert body["enforce_nonce"] is True and body["nonce"]
    finally:
        await world.stop()


async def test_the_outbox_survives_a_restart_and_sends_nothing_twice(
    fake_discord, tmp_path
) -> None:
    """Items queued when the bot stops are in the database and sent by the next start;
    one that was sent just before the stop (its row not yet deleted) is not sent again."""
    world = await _world(fake_discord, tmp_path, per_second=None, shutdown_grace=0.1)
    ch = world.channel
    user = fake_discord.add_user("reader", guild=world.guild)
    bot = world.bot
    assert bot is not None
    done = await bot.delivery.outbox.send(ch.id, {"content": "sent before the crash"}, [])
    assert (await done).message is not None
    kept = await bot.db.outbox_items()
    assert kept == []
    fake_discord.fail_next("POST", "/channels/*/messages", 503, times=10**6)
    for n in range(3):
        await bot.delivery.post(_lite(world, ch.id), f"queued {n}", files=[_picture(n)])
    await bot.delivery.dm(user.id, "a queued DM", [], wait=False)
    # a delivery waiting for its message (a lobby, a duel) does not hold the shutdown up
    waiting = asyncio.ensure_future(bot.delivery.post(_lite(world, ch.id), "queued 3", wait=True))
    # the row of the message sent before the crash, as if the crash came before its
    # deletion: same payload, same nonce
    first = fake_discord.requests_to("POST", f"/channels/{ch.id}/messages")[0].json
    from service.models import OutboxRecord

    await bot.db.outbox_add(
        OutboxRecord(None, None, "send", ch.id, None, None, 0, None, dict(first), {}, 0.0, [])
    )
    await asyncio.wait_for(world.stop(), 30)
    assert await waiting is None
    fake_discord._faults.clear()
    try:
        bot = await world.start()
        await world.settle()
        contents = [m.content for m in fake_discord.messages(ch)]
        assert contents == ["sent before the crash", "queued 0", "queued 1", "queued 2", "queued 3"]
        assert [a.data for a in fake_discord.messages(ch)[1].attachments] == [_picture(0).data]
        assert [m.content for m in fake_discord.dm_messages(user)] == ["a queued DM"]
        assert await bot.db.outbox_items() == []
    finally:
        await world.stop()


async def test_a_deleted_channel_takes_what_it_was_owed_along(fake_discord, tmp_path) -> None:
    """Items waiting for a channel that is deleted are forgotten, not kept forever."""
    world = await _world(fake_discord, tmp_path, per_second=None)
    try:
        bot, ch = world.bot, world.channel
        assert bot is not None
        other = fake_discord.add_text_channel(world.guild, "other")
        await fake_discord.sync()
        bot.delivery.outbox.hold(ch.id)
        for n in range(2):
            await bot.delivery.post(_lite(world, ch.id), f"owed {n}", files=[_picture(n)])
        await bot.delivery.post(_lite(world, other.id), "elsewhere")
        await world.settle()
        assert len(await bot.db.outbox_items()) == 2
        await fake_discord.delete_channel(ch)
        await fake_discord.wait_until(lambda: not bot.delivery.outbox.held_channels)
        await world.settle()
        assert await bot.db.outbox_items() == []
        assert [m.content for m in fake_discord.messages(other)] == ["elsewhere"]
    finally:
        await world.stop()


async def test_computers_wait_for_their_game_s_messages(fake_discord, tmp_path) -> None:
    """While Discord does not take a game's messages, its computers do not run ahead:
    a move waits until the previous one is shown."""
    from tests.bot.e2e.selfplay import resign_host

    world = await _world(fake_discord, tmp_path, per_second=None)
    try:
        bot = world.bot
        assert bot is not None
        recorder = Recorder()
        recorder.attach(bot)
        table = await open_table(fake_discord, bot, world.guild, 0, recorder, resign=False)
        await world.settle()
        before = (await bot.service.status(table.gid)).version
        box = bot.delivery.outbox
        fake_discord.fail_next("POST", f"/channels/{table.channel.id}/messages", 503, times=10**6)
        await resign_host(bot, table, recorder)
        await fake_discord.wait_until(lambda: box.retries >= 3)
        st = await bot.service.status(table.gid)
        assert st.version <= before + 1 and box.pending(table.gid) <= 2
        fake_discord._faults.clear()
        await world.settle()
        assert (await bot.service.status(table.gid)).status == "finished"
        assert lost_lines(fake_discord, [table], recorder) == []
    finally:
        await world.stop()


async def test_the_sender_ends_when_the_close_lands_as_it_is_woken(fake_discord, tmp_path) -> None:
    """A message backs off after an outage and the sender waits for its retry; the close
    cancels the sender in the very step that wakes it. The sender ends and the close
    returns (with ``asyncio.wait_for`` the wake-up won on Python 3.11: the cancellation
    was dropped, the sender went on and the close, and with it the stop, waited for
    ever)."""
    world = await _world(fake_discord, tmp_path, per_second=None)
    try:
        bot, ch = world.bot, world.channel
        assert bot is not None
        box = bot.delivery.outbox
        fake_discord.fail_next("POST", f"/channels/{ch.id}/messages", 503, times=10**6)
        await box.send(ch.id, {"content": "backing off"}, [])
        await fake_discord.wait_until(
            lambda: box.retries >= 1 and not box._tasks and not box._wake.is_set(),
            timeout=30,
            what="the sender waiting for the retry",
        )
        runner = box._runner
        assert runner is not None and not runner.done()
        box.poke()  # woken ...
        closing = asyncio.ensure_future(box.close())  # ... and cancelled in the same step
        done, _ = await asyncio.wait({closing}, timeout=10)
        assert closing in done, "the sender went on: the close never returned"
        assert runner.cancelled()
        assert [r.payload["content"] for r in await bot.db.outbox_items()] == ["backing off"]
    finally:
        await world.stop()

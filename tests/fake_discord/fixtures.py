"""Pytest fixtures for end-to-end tests against :class:`FakeDiscord`.

Use from a conftest::

    from tests.fake_discord.fixtures import fake_discord, start_bot  # noqa: F401

then::

    async def test_hello(fake_discord, start_bot):
        guild = fake_discord.add_guild()
        chan = fake_discord.add_text_channel(guild, "games")
        alice = fake_discord.add_user("alice", guild=guild)
        await start_bot(MyBot(intents=discord.Intents.default(), guild_ready_timeout=0.05))
        result = await fake_discord.slash(alice, chan, "hello")
        assert result.content == "Hello alice"
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import discord
import discord.gateway
import discord.http
import pytest
from discord.ext import commands

from bot.endpoints import point_discord_at
from tests.fake_discord.server import FakeDiscord

BotT = TypeVar("BotT", bound=commands.Bot | commands.AutoShardedBot)


class _ErrorCollector(logging.Handler):
    """Keeps ERROR records of the ``discord`` logger and shows them to the fake."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(logging.ERROR)
        self.fake = fake
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self.fake.bot_errors.append(self.format(record))


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord,
    bot: BotT,
    *,
    sync_commands: bool = True,
    allow_errors: bool = False,
    timeout: float = 30.0,
) -> AsyncIterator[BotT]:
    """Run ``bot`` (any ``commands.Bot``) against ``fake`` for the duration of the block.

    Starts it (``bot.start``: logs in, does what the bot does before the gateway, connects),
    waits for ``on_ready`` (at most ``timeout`` seconds: a bound for a start that hangs),
    then (``sync_commands``) syncs the global command tree so :meth:`FakeDiscord.slash` can
    validate against it (pass False if the bot syncs by itself, e.g. to guilds only). The
    guild-ready delay is cut to 0.05 s. On exit the bot is closed; errors discord.py logged
    meanwhile (exceptions in commands, views, events) fail the test unless ``allow_errors``
    (and make a pending ``fake.slash`` etc. raise :class:`InteractionFailed` at once
    instead of timing out).
    """
    collector = _ErrorCollector(fake)
    discord_logger = logging.getLogger("discord")
    discord_logger.addHandler(collector)
    # Client(guild_ready_timeout=...) sets this; discord.py's default (2 s) would slow every test.
    bot._connection.guild_ready_timeout = min(bot._connection.guild_ready_timeout, 0.05)
    connect: asyncio.Task[None] | None = None
    try:
        # the bot's own start: logging in, whatever it does before the gateway, connecting
        connect = asyncio.create_task(bot.start(fake.token, reconnect=False), name="fake-bot")
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, connect}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if connect in done:
                connect.result()  # re-raise why the connection ended
            raise TimeoutError(f"bot not ready after {timeout}s")
        if sync_commands:
            await bot.tree.sync()
        yield bot
    finally:
        await bot.close()
        if connect is not None:
            await asyncio.wait_for(connect, timeout)
        discord_logger.removeHandler(collector)
    if collector.records and not allow_errors:
        details = "\n".join(collector.format(r) for r in collector.records)
        raise AssertionError(f"the bot logged errors:\n{details}")


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started :class:`FakeDiscord` with discord.py pointed at it.

    At teardown the test fails if the bot made any request the fake did not understand.
    """
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    fake = await FakeDiscord().start()
    point_discord_at(fake.api_base, fake.gateway_url)
    try:
        yield fake
    finally:
        await fake.stop()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
    assert_fake_clean(fake)


def assert_fake_clean(fake: FakeDiscord) -> None:
    """Fail if the bot made requests the fake does not understand or the fake crashed."""
    assert not fake.unknown_requests, f"requests the fake does not know: {fake.unknown_requests}"
    assert not fake.internal_errors, f"the fake itself crashed: {fake.internal_errors}"


@pytest.fixture
async def start_bot(fake_discord: FakeDiscord) -> AsyncIterator[Callable[..., Awaitable[Any]]]:
    """``await start_bot(bot, **running_bot_kwargs)`` runs ``bot`` until the test ends."""
    async with contextlib.AsyncExitStack() as stack:

        async def start(bot: BotT, **kwargs: Any) -> BotT:
            return await stack.enter_async_context(running_bot(fake_discord, bot, **kwargs))

        yield start

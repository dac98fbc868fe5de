"""Fixtures for the bot's end-to-end tests: the fake Discord, a world (server, channel,
players) and the real bot on a temporary database."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.bot.e2e.harness import World, make_world
from tests.fake_discord.fixtures import fake_discord, start_bot

__all__ = ["bot_errors", "fake_discord", "start_bot", "world"]


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def bot_errors() -> Iterator[list[logging.LogRecord]]:
    """Fails the test if the bot logged an error (tests that expect one clear the list)."""
    collector = _Collector()
    logger = logging.getLogger("bot")
    logger.addHandler(collector)
    try:
        yield collector.records
    finally:
        logger.removeHandler(collector)
    if collector.records:
        text = "\n".join(logging.Formatter().format(r) for r in collector.records)
        raise AssertionError(f"the bot logged errors:\n{text}")


@pytest.fixture
async def world(fake_discord, tmp_path) -> AsyncIterator[World]:
    """A server with #games, players (ann, bob, cy, dee, spectator) and a running bot
    (games seeded 197); the bot is stopped at the end."""
    w = await make_world(fake_discord, tmp_path)
    try:
        yield w
    finally:
        await w.stop()

"""Two `python -m bot` on one database: the second refuses before contacting Discord,
naming the first (its pid and host), and the first keeps its games and its connection."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

from tests.bot.e2e.process import ops_bot, start_bot
from tests.fake_discord import FakeDiscord


async def test_a_second_bot_on_the_same_database_refuses_naming_the_first(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with ops_bot(fake_discord, tmp_path, 60, "the first bot to connect and sync") as first:
        user, channel = first.user, first.channel
        assert not (await fake_discord.slash(user, channel, "newgame", timeout=10)).ephemeral
        sessions = len(fake_discord._sessions)
        second = await start_bot(first.env, tmp_path)
        _, err = await asyncio.wait_for(second.communicate(), 60)
        lines = err.decode().strip().splitlines()
        assert second.returncode == 1, err.decode()
        assert len(lines) == 1 and lines[0].startswith(
            f"Cannot start: Another bot process already owns the database {tmp_path}"
        ), lines
        assert f"pid {first.proc.pid} on host {socket.gethostname()}, since " in lines[0]
        assert len(fake_discord._sessions) == sessions  # it never reached the gateway
        # the first one is still the bot of the server's game
        res = await fake_discord.slash(user, channel, "status", timeout=10)
        assert "lobby" in res.content and "op" in res.content, res.content
    assert first.proc.returncode == 0, first.log

"""`python -m bot` as an operator runs it: settings from the environment, discord.py
pointed at DISCORD_API_BASE / DISCORD_GATEWAY_URL (here the fake), commands synced,
a command answered, a clean stop on SIGINT."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.bot.e2e.process import ops_bot
from tests.fake_discord import FakeDiscord


async def test_python_m_bot_with_a_token_runs_against_the_fake(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with ops_bot(fake_discord, tmp_path, 30, "the bot to connect and sync") as run:
        res = await fake_discord.slash(run.user, run.channel, "newgame", timeout=10)
        assert not res.ephemeral and "a table for" in res.content
        assert (tmp_path / "data" / "games.db").is_file()
    log = run.log
    assert run.proc.returncode == 0, log
    assert "game 1 created" in log and "Traceback" not in log
    with sqlite3.connect(tmp_path / "data" / "games.db") as conn:  # the synced command set
        (stamp,) = conn.execute("SELECT value FROM bot_meta WHERE key = 'commands_hash'").fetchone()
    app, digest = stamp.split(":")
    assert app.isdigit() and len(digest) == 64
    assert [
        p.name for p in (tmp_path / "data").iterdir() if not p.name.startswith("games.db")
    ] == [], "nothing kept beside the database"

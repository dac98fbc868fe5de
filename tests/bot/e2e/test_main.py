"""`python -m bot` as an operator runs it: settings from the environment, discord.py
pointed at DISCORD_API_BASE / DISCORD_GATEWAY_URL (here the fake), commands synced,
a command answered, a clean stop on SIGINT."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

from tests.fake_discord import FakeDiscord


async def test_python_m_bot_with_a_token_runs_against_the_fake(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.add_guild("Ops")
    channel = fake_discord.add_text_channel(guild, "games")
    user = fake_discord.add_user("op", guild=guild)
    (tmp_path / "data").mkdir()  # a configured folder must exist (bot.preflight)
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake_discord.token,
        "DATABASE_URL": f"sqlite:///{tmp_path}/data/games.db",
        "LOG_LEVEL": "INFO",
        "DISCORD_API_BASE": fake_discord.api_base,
        "DISCORD_GATEWAY_URL": fake_discord.gateway_url,
        "DEV_GUILD_ID": "",
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake_discord.wait_until(
            lambda: fake_discord.connected and None in fake_discord.commands,
            timeout=30,
            what="the bot to connect and sync",
        )
        res = await fake_discord.slash(user, channel, "newgame", timeout=10)
        assert not res.ephemeral and "a table for" in res.content
        assert (tmp_path / "data" / "games.db").is_file()
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    log = err.decode()
    assert proc.returncode == 0, log
    assert "game 1 created" in log and "Traceback" not in log
    with sqlite3.connect(tmp_path / "data" / "games.db") as conn:  # the synced command set
        (stamp,) = conn.execute("SELECT value FROM bot_meta WHERE key = 'commands_hash'").fetchone()
    app, digest = stamp.split(":")
    assert app.isdigit() and len(digest) == 64
    assert [
        p.name for p in (tmp_path / "data").iterdir() if not p.name.startswith("games.db")
    ] == [], "nothing kept beside the database"

"""Start-up says, in one INFO line once the bot is ready, what an operator needs: the
release, the database, the shards and the server count — and nothing about voice support,
which the bot does not use. Checked in-process through the fake Discord, and through the
installed ``european-war-bot`` script as an operator runs it."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import tomllib
from pathlib import Path

import pytest

from tests.bot.e2e.harness import make_world
from tests.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[3]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
SCRIPT = Path(sys.executable).parent / "european-war-bot"


def ready_lines(messages: list[str]) -> list[str]:
    return [m for m in messages if m.startswith("ready: ")]


async def start_script(env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    """Start the installed script with ``env`` in ``cwd``, its log (stderr) piped."""
    return await asyncio.create_subprocess_exec(
        str(SCRIPT),
        cwd=cwd,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )


async def test_the_ready_line_is_logged_once_with_release_database_shards_and_servers(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    world = await make_world(fake_discord, tmp_path, start=False)
    fake_discord.add_guild("Second Server")
    caplog.set_level(logging.INFO, logger="bot")
    try:
        bot = await world.start()

        def messages() -> list[str]:
            return [
                r.getMessage()
                for r in caplog.records
                if r.name == "bot" and r.levelno == logging.INFO
            ]

        await fake_discord.wait_until(
            lambda: bool(ready_lines(messages())), timeout=10, what="the ready line"
        )
        await world.slash("ann", "status")  # the bot at work logs no second one
        await bot.settle()
        lines = ready_lines(messages())
        assert lines == [
            f"ready: european-war-bot {VERSION} as {bot.user}, database "
            f"{tmp_path / 'games.db'}, 1 shard(s), 2 server(s)"
        ], lines
    finally:
        await world.stop()


async def test_the_installed_script_starts_quietly_and_stops_cleanly(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    assert SCRIPT.is_file(), f"{SCRIPT} is missing: install the project (README's commands)"
    fake_discord.add_guild("Ops")
    (tmp_path / "data").mkdir()  # a configured folder must exist (bot.preflight)
    db = tmp_path / "data" / "games.db"
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake_discord.token,
        "DATABASE_URL": f"sqlite:///{db}",
        "LOG_LEVEL": "INFO",
        "LOG_FORMAT": "text",
        "DISCORD_API_BASE": fake_discord.api_base,
        "DISCORD_GATEWAY_URL": fake_discord.gateway_url,
        "DEV_GUILD_ID": "",
        "HEALTH_FILE": str(tmp_path / "health.json"),
    }
    proc = await start_script(env, tmp_path)
    seen = b""
    try:
        assert proc.stderr is not None
        while b"ready: " not in seen:  # read the log as it comes, until the bot is ready
            line = await asyncio.wait_for(proc.stderr.readline(), 60)
            assert line, f"the script ended before it was ready:\n{seen.decode()}"
            seen += line
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    log = (seen + err).decode()
    assert proc.returncode == 0, log
    assert "Traceback" not in log and "WARNING" not in log, log
    assert "PyNaCl" not in log and "davey" not in log, log
    ready = [line for line in log.splitlines() if "ready: " in line]
    assert len(ready) == 1, log
    assert f"ready: european-war-bot {VERSION} as " in ready[0]
    assert ready[0].endswith(f", database {db}, 1 shard(s), 1 server(s)"), ready[0]


# a stop that arrives while the script imports discord.py (the slow part of start-up)
STOP_AT_DISCORD = """
import os, signal, sys

class StopAtDiscord:
    def find_spec(self, name, path=None, target=None):
        if name == "discord":
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.{sig})
        return None

sys.meta_path.insert(0, StopAtDiscord())
"""


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
async def test_a_stop_while_the_script_imports_discord_exits_0(
    fake_discord: FakeDiscord, tmp_path: Path, sig: str
) -> None:
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(STOP_AT_DISCORD.format(sig=sig))
    (tmp_path / "data").mkdir()
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake_discord.token,
        "DATABASE_URL": f"sqlite:///{tmp_path}/data/games.db",
        "DISCORD_API_BASE": fake_discord.api_base,
        "PYTHONPATH": str(hook),
        "DISCORD_GATEWAY_URL": fake_discord.gateway_url,
    }
    proc = await start_script(env, tmp_path)
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, (proc.returncode, err.decode())
    assert err.decode() == ""
    assert fake_discord.requests == [], "stopped before it contacted Discord"


async def test_a_ready_that_arrives_while_the_bot_stops_starts_nothing(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord's READY may come after a stop began (a signal right after connecting): the
    ready line is said, but the panels are not re-sent from a service being closed."""
    world = await make_world(fake_discord, tmp_path, start=False)
    resent: list[bool] = []

    async def resend_panels() -> None:
        resent.append(True)

    try:
        bot = await world.start()
        await bot.settle()
        monkeypatch.setattr(bot, "resend_panels", resend_panels)
        bot._panels_resent = False  # as before this process's first READY
        stopping = asyncio.ensure_future(world.stop())
        # past the stop's first steps (its background tasks cancelled), the service closing
        await fake_discord.wait_until(
            lambda: bot.resources.service_closed, 10, "the stop to close the service"
        )
        await bot.on_ready()
        await stopping
        await asyncio.sleep(0)  # a task it started would have run by now
        assert resent == []
    finally:
        await world.stop()

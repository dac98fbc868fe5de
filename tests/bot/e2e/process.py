"""``python -m bot`` as its own process, as an operator runs it, against the fake
Discord of the test process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from tests.fake_discord import FakeChannel, FakeDiscord, FakeUser


def bot_env(fake: FakeDiscord, tmp: Path) -> dict[str, str]:
    """The environment of a bot pointed at ``fake``, its database in ``tmp/data`` (the
    folder is made: a configured folder must exist, see :mod:`bot.preflight`)."""
    (tmp / "data").mkdir(exist_ok=True)
    return {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": f"sqlite:///{tmp}/data/games.db",
        "LOG_LEVEL": "INFO",
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "DEV_GUILD_ID": "",
    }


async def start_bot(
    env: dict[str, str], cwd: Path, module: str = "bot"
) -> asyncio.subprocess.Process:
    """Start ``python -m bot`` (or ``-m module``, a variant of it kept in the tests) with
    ``env`` in ``cwd`` (stdout and stderr piped)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        module,
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def wait_connected(fake: FakeDiscord, timeout: float, what: str) -> None:
    """Wait until a bot is connected to ``fake`` and has synced its commands globally."""
    await fake.wait_until(
        lambda: fake.connected and None in fake.commands, timeout=timeout, what=what
    )


@dataclass
class OpsRun:
    """A bot process (started with ``env``) serving #games of the server "Ops", where "op"
    is a member; ``log`` is its stderr once it has stopped."""

    env: dict[str, str]
    proc: asyncio.subprocess.Process
    user: FakeUser
    channel: FakeChannel
    log: str = ""


@contextlib.asynccontextmanager
async def ops_bot(fake: FakeDiscord, tmp: Path, timeout: float, what: str) -> AsyncIterator[OpsRun]:
    """``python -m bot`` started for a new server "Ops" and connected within ``timeout``
    seconds; stopped by SIGINT at the end."""
    guild = fake.add_guild("Ops")
    channel = fake.add_text_channel(guild, "games")
    user = fake.add_user("op", guild=guild)
    env = bot_env(fake, tmp)
    run = OpsRun(env, await start_bot(env, tmp), user, channel)
    try:
        await wait_connected(fake, timeout, what)
        yield run
    finally:
        run.proc.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(run.proc.communicate(), 30)
        run.log = err.decode()

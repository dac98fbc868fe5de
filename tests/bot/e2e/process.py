"""``python -m bot`` as its own process, as an operator runs it, against the fake
Discord of the test process."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from tests.fake_discord import FakeDiscord


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

"""When to sync the slash-command tree with Discord.

With ``DEV_GUILD_ID`` set, the commands are copied to that server and synced there at
every start (guild commands update instantly). Otherwise they are synced globally only
when the command schema changed since the last successful sync: a hash of it (per
application) is kept in a small file beside the database, so restarts cost no sync.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from .client import GameBot

log = logging.getLogger("bot")
HASH_FILE = "commands.sha256"


def schema(bot: GameBot) -> list[dict[str, Any]]:
    """The global command payloads as discord.py would send them."""
    return [cmd.to_dict(bot.tree) for cmd in bot.tree.get_commands()]


def schema_hash(payload: list[dict[str, Any]]) -> str:
    """A stable hash of a command payload list."""
    text = json.dumps(sorted(payload, key=lambda c: c["name"]), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


async def sync_commands(bot: GameBot) -> str:
    """Sync as the module docstring says. Returns what was done: ``guild``, ``global``
    or ``unchanged``."""
    dev = bot.settings.dev_guild_id
    if dev is not None:
        guild = discord.Object(dev)
        bot.tree.copy_global_to(guild=guild)
        await bot.tree.sync(guild=guild)
        log.info("commands synced to the development server %s", dev)
        return "guild"
    app = bot.application_id or 0
    stamp = f"{app}:{schema_hash(schema(bot))}"
    path = Path(bot.state_dir) / HASH_FILE
    try:
        old = path.read_text(encoding="utf-8").strip()
    except OSError:
        old = ""
    if old == stamp:
        log.info("commands unchanged since the last sync")
        return "unchanged"
    await bot.tree.sync()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(stamp + "\n", encoding="utf-8")
    log.info("commands synced globally (the command set changed)")
    return "global"

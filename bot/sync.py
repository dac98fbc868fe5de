"""When to sync the slash-command tree with Discord.

With ``DEV_GUILD_ID`` set, the commands are copied to that server and synced there at
every start (guild commands update instantly). Otherwise they are synced globally only
when the command schema changed since the last successful sync: a hash of it (per
application) is kept in the database (``bot_meta``), so restarts cost no sync.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from .client import GameBot

log = logging.getLogger("bot")
COMMANDS_HASH_KEY = "commands_hash"
"""The ``bot_meta`` key holding ``application id:hash`` of the command set last synced."""


async def schema(bot: GameBot) -> list[dict[str, Any]]:
    """The global command payloads as discord.py would send them (with their
    translations: a new translation is a change to sync)."""
    tree, translator = bot.tree, bot.tree.translator
    if translator is None:
        return [cmd.to_dict(tree) for cmd in tree.get_commands()]
    return [await cmd.get_translated_payload(tree, translator) for cmd in tree.get_commands()]


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
    stamp = f"{app}:{schema_hash(await schema(bot))}"
    if await bot.db.meta(COMMANDS_HASH_KEY) == stamp:
        log.info("commands unchanged since the last sync")
        return "unchanged"
    await bot.tree.sync()
    await bot.db.set_meta(COMMANDS_HASH_KEY, stamp)
    log.info("commands synced globally (the command set changed)")
    return "global"

"""Bring the small JSON files of older releases into the database, once.

Releases before schema version 4 kept three files beside the database: ``preferences.json``
(who turned pings off), ``departures.json`` (servers the bot was removed from, and when:
their data is due for deletion) and ``commands.sha256`` (the command set last synced).
The database holds all of that now. At start-up each file still there is read into the
store and renamed ``<name>.imported`` (kept for the operator, never read again), so an
upgrade forgets no one's choice and no server's pending deletion. A file that cannot be
read is left where it is, with a warning, and the bot carries on without it.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from service.store import FrontStore

from .sync import COMMANDS_HASH_KEY

log = logging.getLogger("bot")

PREFERENCES = "preferences.json"
DEPARTURES = "departures.json"
COMMANDS_HASH = "commands.sha256"


async def import_legacy_files(store: FrontStore, directory: Path, now: float) -> list[str]:
    """Import whichever of the old files exist in ``directory``; return their names."""
    done = []
    for name, load in (
        (PREFERENCES, _preferences),
        (DEPARTURES, _departures),
        (COMMANDS_HASH, _commands_hash),
    ):
        path = Path(directory) / name
        if not path.is_file():
            continue
        try:
            await load(store, path.read_text(encoding="utf-8"), now)
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            log.warning("could not import %s (left in place): %s", path, exc)
            continue
        os.replace(path, path.with_name(name + ".imported"))
        log.info("imported %s into the database", path)
        done.append(name)
    return done


async def _preferences(store: FrontStore, text: str, now: float) -> None:
    for user_id in json.loads(text).get("no_pings", []):
        await store.set_user_pings(int(user_id), False, now)


async def _departures(store: FrontStore, text: str, now: float) -> None:
    for guild_id, when in json.loads(text).items():
        await store.record_departure(int(guild_id), float(when))


async def _commands_hash(store: FrontStore, text: str, now: float) -> None:
    if text.strip() and await store.meta(COMMANDS_HASH_KEY) is None:
        await store.set_meta(COMMANDS_HASH_KEY, text.strip())

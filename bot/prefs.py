"""Small state of the Discord front end kept beside the database, in JSON files written
atomically (temporary file + rename), so a restart keeps them:

- ``preferences.json``: per-user preferences (for now: whether turn pings notify); only
  the ids of people who changed one are stored;
- ``departures.json``: servers the bot was removed from, and when — their data is deleted
  ``RETENTION`` seconds later (see ``/about``) unless the bot comes back.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

log = logging.getLogger("bot")
FILE = "preferences.json"
DEPARTURES = "departures.json"
RETENTION = 7 * 86400.0
"""Seconds a server's data is kept after the bot left it."""


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


class Preferences:
    """User preferences, loaded once and saved on every change."""

    def __init__(self, directory: Path) -> None:
        self.path = Path(directory) / FILE
        self._no_pings: set[int] = set()
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self._no_pings = {int(u) for u in data.get("no_pings", [])}
        except FileNotFoundError:
            pass
        except (OSError, ValueError, TypeError, AttributeError):
            log.warning("could not read %s; starting with default preferences", self.path)

    def pings(self, user_id: int) -> bool:
        """Whether ``user_id`` wants to be pinged when it is their move."""
        return user_id not in self._no_pings

    def set_pings(self, user_id: int, on: bool) -> None:
        """Turn ``user_id``'s pings on or off (saved at once).

        Raises:
            OSError: the file cannot be written.
        """
        if on:
            self._no_pings.discard(user_id)
        else:
            self._no_pings.add(user_id)
        _write(self.path, {"no_pings": sorted(self._no_pings)})


class Departures:
    """Servers the bot left, with the time it left (seconds since the epoch)."""

    def __init__(self, directory: Path) -> None:
        self.path = Path(directory) / DEPARTURES
        self.left: dict[int, float] = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.left = {int(k): float(v) for k, v in data.items()}
        except FileNotFoundError:
            pass
        except (OSError, ValueError, TypeError, AttributeError):
            log.warning("could not read %s; no departures remembered", self.path)

    def record(self, guild_id: int, when: float) -> None:
        """The bot left ``guild_id`` at ``when`` (the first departure counts)."""
        self.left.setdefault(guild_id, when)
        _write(self.path, {str(k): v for k, v in self.left.items()})

    def forget(self, guild_id: int) -> None:
        """The bot is back in ``guild_id``, or its data was deleted."""
        if self.left.pop(guild_id, None) is not None:
            _write(self.path, {str(k): v for k, v in self.left.items()})

    def due(self, now: float) -> list[int]:
        """Servers whose data is due for deletion at ``now``."""
        return [g for g, when in self.left.items() if now - when >= RETENTION]

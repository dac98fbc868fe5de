"""Per-user preferences of the Discord front end (for now: whether turn pings notify).

Kept in a small JSON file beside the database (``preferences.json``), written atomically
(temporary file + rename), so a restart keeps them. Only the user ids of people who
changed a preference are stored.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

log = logging.getLogger("bot")
FILE = "preferences.json"


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
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"no_pings": sorted(self._no_pings)}), encoding="utf-8")
        os.replace(tmp, self.path)

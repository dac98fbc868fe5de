"""Events: what an applied action caused, each public or addressed to one seat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

HIDDEN = -2
"""The ``to`` of an event no seat or spectator may see: it is kept for the log, replays
and tests only (chance outcomes such as the order of a shuffled deck)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``to`` is ``None`` for public events, else the only seat
    allowed to see it (a drawn card, a spy's look). ``data`` holds JSON-compatible values.
    """

    kind: str
    data: dict[str, Any]
    to: int | None = None
    """``None``: public; a seat: that seat only; :data:`HIDDEN`: nobody."""

    @property
    def public(self) -> bool:
        """True when everyone, spectators included, may see this event."""
        return self.to is None

    def visible_to(self, seat: int | None) -> bool:
        """True when ``seat`` (``None`` for a spectator) may see this event."""
        return self.to is None or self.to == seat

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-compatible dict."""
        return {"kind": self.kind, "data": self.data, "to": self.to}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Event:
        """Rebuild an event stored with :meth:`to_dict`."""
        return Event(str(data["kind"]), dict(data["data"]), data.get("to"))

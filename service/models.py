"""Plain records shared by the store and the service: settings and stored rows.

Times are wall-clock seconds since the epoch (floats), as given by the service's clock,
so a deadline stored by one process means the same instant to the next one.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

import rules
from rules import pyramids

COMPUTER_LEVELS = ("easy", "normal", "hard")
ACTIVE_STATUSES = ("lobby", "running")
LOBBY_SEAT = -1
"""The seat of a lobby's own expiry deadline (kind ``lobby``)."""

# Sensible defaults for Discord (PRODUCT: per-server defaults, adjustable with /settings).
DEFAULT_TURN_TIMEOUT = 12 * 3600.0
DEFAULT_SETUP_TIMEOUT = 10 * 60.0
DEFAULT_DUEL_TIMEOUT = 2 * 60.0
DEFAULT_RETREAT_TIMEOUT = 2 * 60.0
DEFAULT_REMINDER_LEAD = 3600.0
DEFAULT_LOBBY_EXPIRY = 3600.0
DEFAULT_MAX_GAMES = 10


class SettingsError(ValueError):
    """A setting is out of range; the message is fit for the user."""


def _check_range(
    name: str, value: float | None, low: float, high: float, allow_none: bool = False
) -> None:
    if value is None and allow_none:
        return
    if (
        not isinstance(value, int | float)
        or isinstance(value, bool)
        or math.isnan(value)
        or not low <= value <= high
    ):
        raise SettingsError(f"{name} must be between {low:g} and {high:g}")


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-server defaults (``/settings``, Manage Server). Durations are in seconds."""

    guild_id: int
    turn_timeout: float = DEFAULT_TURN_TIMEOUT
    expiry_action: str = "pass"
    """What an expired European War turn does: ``pass`` or ``arm``."""
    diplomacy_seconds: int = 30
    reminder_lead: float = DEFAULT_REMINDER_LEAD
    """How long before a deadline its one reminder goes out (0: no reminders)."""
    lobby_expiry: float = DEFAULT_LOBBY_EXPIRY
    max_games: int = DEFAULT_MAX_GAMES
    """Cap on active (lobby or running) games in the server."""

    def with_changes(self, **changes: Any) -> GuildSettings:
        """A checked copy with ``changes``.

        Raises:
            SettingsError: an unknown name or a value out of range.
        """
        known = {f.name for f in fields(GuildSettings)} - {"guild_id"}
        unknown = set(changes) - known
        if unknown:
            raise SettingsError(f"unknown settings: {', '.join(sorted(unknown))}")
        new = replace(self, **changes)
        new.check()
        return new

    def check(self) -> None:
        """Raise :class:`SettingsError` unless every value is in range."""
        _check_range("turn_timeout", self.turn_timeout, 60, 7 * 86400)
        if self.expiry_action not in ("pass", "arm"):
            raise SettingsError("expiry_action must be 'pass' or 'arm'")
        _check_range("diplomacy_seconds", self.diplomacy_seconds, 5, 600)
        if not isinstance(self.diplomacy_seconds, int):
            raise SettingsError("diplomacy_seconds must be a whole number")
        _check_range("reminder_lead", self.reminder_lead, 0, 86400)
        _check_range("lobby_expiry", self.lobby_expiry, 60, 86400)
        _check_range("max_games", self.max_games, 1, 1000)
        if not isinstance(self.max_games, int):
            raise SettingsError("max_games must be a whole number")


@dataclass(frozen=True, slots=True)
class GameSettings:
    """One game's table settings, fixed in the lobby (JSON in ``games.settings``).

    Timeouts are seconds, ``None`` meaning no limit (e.g. a console game). The diplomacy
    window's length is ``options.diplomacy_seconds`` (EW-15).
    """

    max_players: int = 4
    arranged: bool = False
    """Seats in join order instead of dealt at random (EW-6)."""
    options: pyramids.Options = field(default_factory=pyramids.Options)
    turn_timeout: float | None = DEFAULT_TURN_TIMEOUT
    setup_timeout: float | None = DEFAULT_SETUP_TIMEOUT
    duel_timeout: float | None = DEFAULT_DUEL_TIMEOUT
    retreat_timeout: float | None = DEFAULT_RETREAT_TIMEOUT
    reminder_lead: float = DEFAULT_REMINDER_LEAD
    lobby_expiry: float = DEFAULT_LOBBY_EXPIRY

    def duration(self, kind: str) -> float | None:
        """The time allowed for a decision of ``kind`` (``None``: unlimited)."""
        if kind in ("turn", "action"):
            return self.turn_timeout
        if kind == "diplomacy":
            return float(self.options.diplomacy_seconds)
        if kind == "duel":
            return self.duel_timeout
        if kind == "retreat":
            return self.retreat_timeout
        if kind == "setup":
            return self.setup_timeout
        if kind == "lobby":
            return self.lobby_expiry
        return None

    def check(self, variant: str) -> None:
        """Raise :class:`SettingsError` unless the settings make sense for ``variant``."""
        try:
            limit = pyramids.rules_for(variant).max_players(self.options)
        except rules.RulesError as exc:
            raise SettingsError(str(exc)) from exc
        if not isinstance(self.max_players, int) or not 2 <= self.max_players <= limit:
            raise SettingsError(f"max_players must be between 2 and {limit} for these options")
        for name in ("turn_timeout", "setup_timeout", "duel_timeout", "retreat_timeout"):
            _check_range(name, getattr(self, name), 10, 7 * 86400, allow_none=True)
        _check_range("reminder_lead", self.reminder_lead, 0, 86400)
        _check_range("lobby_expiry", self.lobby_expiry, 10, 86400)

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible form."""
        out = asdict(self)
        out["options"] = self.options.to_dict()
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> GameSettings:
        """Rebuild from :meth:`to_dict` output (unknown keys are ignored, missing ones
        take their defaults, so older rows stay readable).

        Raises:
            rules.InvalidState: malformed options.
        """
        known = {f.name for f in fields(GameSettings)}
        kw = {k: v for k, v in data.items() if k in known}
        kw["options"] = pyramids.Options.from_dict(data.get("options", {}))
        return GameSettings(**kw)


@dataclass(slots=True)
class SeatRecord:
    """A lobby entry, and once the game started an engine seat."""

    id: int
    user_id: int | None
    computer_level: str | None
    display_name: str
    joined_at: float
    requested_power: str | None = None
    seat: int | None = None
    power: str | None = None
    agrees_draw: bool = False

    @property
    def is_computer(self) -> bool:
        """True for a computer player's seat."""
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class DecisionRecord:
    """An open decision and its deadline (``due_at`` None: no limit, or paused)."""

    seat: int
    kind: str
    opened_version: int
    duration: float | None
    due_at: float | None
    remind_at: float | None

    @property
    def key(self) -> tuple[int, str]:
        """``(seat, kind)``, unique among a game's open decisions."""
        return (self.seat, self.kind)


@dataclass(slots=True)
class GameRecord:
    """Everything stored about one game except its action log."""

    id: int
    guild_id: int | None
    channel_id: int
    status: str
    variant: str
    host_id: int | None
    settings: GameSettings
    version: int
    revision: int
    created_at: float
    creation: dict[str, Any] | None = None
    start_events: list[dict[str, Any]] = field(default_factory=list)
    state: dict[str, Any] | None = None
    started_at: float | None = None
    ended_at: float | None = None
    result: dict[str, Any] | None = None
    paused_at: float | None = None
    seats: list[SeatRecord] = field(default_factory=list)
    decisions: list[DecisionRecord] = field(default_factory=list)
    last_acted: dict[int, int] = field(default_factory=dict)
    """seat -> the sequence number of its latest action."""


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One row of the action log."""

    seq: int
    seat: int
    user_id: int | None
    source: str
    action: dict[str, Any]
    events: list[dict[str, Any]]
    created_at: float


@dataclass(frozen=True, slots=True)
class GameMessages:
    """The Discord messages kept for one game (``game_messages``), None when unknown."""

    lobby_channel_id: int | None = None
    lobby_message_id: int | None = None
    duel_message_id: int | None = None


@dataclass(slots=True)
class OutboxFile:
    """A file of an outbox item: its name, alt text and bytes (a PNG)."""

    filename: str
    data: bytes
    description: str | None = None


@dataclass(slots=True)
class OutboxRecord:
    """One row of the ``outbox`` table with its files (see :mod:`bot.outbox`)."""

    id: int | None
    game_id: int | None
    kind: str
    channel_id: int | None
    user_id: int | None
    message_id: int | None
    priority: int
    merge_key: str | None
    payload: dict[str, Any]
    meta: dict[str, Any]
    created_at: float
    files: list[OutboxFile]

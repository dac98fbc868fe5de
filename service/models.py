"""Plain records shared by the store and the service: settings and stored rows.

Times are wall-clock seconds since the epoch (floats), as given by the service's clock,
so a deadline stored by one process means the same instant to the next one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

import rules
from rules import contract, i18n
from rules.contract import Timing
from rules.presentation import OptionSpec

from .catalogue import _

COMPUTER_LEVELS = ("easy", "normal", "hard")
ACTIVE_STATUSES = ("lobby", "running")
LOBBY_SEAT = -1
"""The seat of a lobby's own expiry deadline (kind ``lobby``)."""

# Sensible defaults for Discord (PRODUCT: per-server defaults, adjustable with /settings).
DEFAULT_TURN_TIMEOUT = 12 * 3600.0
DEFAULT_REMINDER_LEAD = 3600.0
DEFAULT_LOBBY_EXPIRY = 3600.0
DEFAULT_MAX_GAMES = 10


class SettingsError(ValueError):
    """A setting is out of range; the message is fit for the user."""


def _check_range(
    name: str,
    value: float | None,
    low: float,
    high: float,
    allow_none: bool = False,
    *,
    limit: bool = False,
) -> None:
    """Raise :class:`SettingsError` unless ``value`` is within ``low`` and ``high``
    (``limit``: ``name`` is a decision's time limit)."""
    if value is None and allow_none:
        return
    if (
        not isinstance(value, int | float)
        or isinstance(value, bool)
        or math.isnan(value)
        or not low <= value <= high
    ):
        message = (
            _("The {name} time limit must be between {low} and {high}")
            if limit
            else _("{name} must be between {low} and {high}")
        )
        raise SettingsError(message.format(name=name, low=f"{low:g}", high=f"{high:g}"))


def _check_language(value: str | None, allow_none: bool = False) -> None:
    if value is None and allow_none:
        return
    if value not in i18n.LOCALES:
        raise SettingsError(
            _("{name} must be one of: {choices}").format(
                name="language", choices=", ".join(i18n.LOCALES)
            )
        )


def option_specs(name: str) -> list[OptionSpec]:
    """The options called ``name`` that the registered games offer a host."""
    return [
        spec
        for game in contract.game_names()
        for spec in contract.game_named(game).presentation.options()
        if spec.name == name
    ]


def check_option(spec: OptionSpec, value: Any) -> None:
    """Raise :class:`SettingsError` unless ``value`` is one ``spec`` allows."""
    if spec.kind == "flag":
        if not isinstance(value, bool):
            raise SettingsError(_("{name} must be true or false").format(name=spec.name))
    elif spec.kind == "word":
        if value not in spec.choices:
            raise SettingsError(
                _("{name} must be one of: {choices}").format(
                    name=spec.name, choices=", ".join(spec.choices)
                )
            )
    elif spec.kind == "number":
        low = spec.low if spec.low is not None else -math.inf
        high = spec.high if spec.high is not None else math.inf
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise SettingsError(
                _("{name} must be a whole number between {low} and {high}").format(
                    name=spec.name, low=low, high=high
                )
            )


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-server defaults (``/settings``, Manage Server). Durations are in seconds."""

    guild_id: int
    turn_timeout: float = DEFAULT_TURN_TIMEOUT
    reminder_lead: float = DEFAULT_REMINDER_LEAD
    """How long before a deadline its one reminder goes out (0: no reminders)."""
    lobby_expiry: float = DEFAULT_LOBBY_EXPIRY
    max_games: int = DEFAULT_MAX_GAMES
    """Cap on active (lobby or running) games in the server."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The server's defaults for game options, by option name: each applies to new
    tables of every game that offers a host an option of that name
    (:meth:`rules.presentation.Presentation.options`)."""
    language: str | None = None
    """The language of the server's new games in their channels (one of
    :data:`i18n.LOCALES`); None: the server's own Discord language."""

    def with_changes(self, **changes: Any) -> GuildSettings:
        """A checked copy with ``changes``. ``options`` is merged into the current option
        defaults (an option given as ``None`` goes back to each game's own default).

        Raises:
            SettingsError: an unknown name or a value out of range.
        """
        known = {f.name for f in fields(GuildSettings)} - {"guild_id"}
        unknown = set(changes) - known
        if unknown:
            raise SettingsError(
                _("unknown settings: {names}").format(names=", ".join(sorted(unknown)))
            )
        if "options" in changes:
            merged = {**self.options, **dict(changes["options"] or {})}
            changes["options"] = {k: v for k, v in merged.items() if v is not None}
        new = replace(self, **changes)
        new.check()
        return new

    def defaults_for(self, offered: tuple[OptionSpec, ...]) -> dict[str, Any]:
        """The option defaults that apply to a game offering the options ``offered``."""
        names = {spec.name for spec in offered}
        return {k: v for k, v in self.options.items() if k in names}

    def check(self) -> None:
        """Raise :class:`SettingsError` unless every value is in range."""
        _check_range("turn_timeout", self.turn_timeout, 60, 7 * 86400)
        for name, value in self.options.items():
            specs = option_specs(name)
            if not specs:
                raise SettingsError(
                    _("no game has an option called {name}").format(name=repr(name))
                )
            for spec in specs:
                check_option(spec, value)
        _check_range("reminder_lead", self.reminder_lead, 0, 86400)
        _check_range("lobby_expiry", self.lobby_expiry, 60, 86400)
        _check_range("max_games", self.max_games, 1, 1000)
        if not isinstance(self.max_games, int):
            raise SettingsError(_("{name} must be a whole number").format(name="max_games"))
        _check_language(self.language, allow_none=True)


@dataclass(frozen=True, slots=True)
class GameSettings:
    """One game's table settings, fixed in the lobby (JSON in ``games.settings``).

    ``options`` are the game's options as JSON (its ``options_to_dict``). Time limits are
    seconds, ``None`` meaning no limit (e.g. a console game): ``turn_timeout`` for the
    turn time, ``timeouts`` for the game's other limits by name (a limit left out takes
    the game's default, see :class:`rules.contract.Timing`).
    """

    max_players: int = 4
    arranged: bool = False
    """Seats in join order instead of dealt at random."""
    options: Mapping[str, Any] = field(default_factory=dict)
    turn_timeout: float | None = DEFAULT_TURN_TIMEOUT
    timeouts: Mapping[str, float | None] = field(default_factory=dict)
    reminder_lead: float = DEFAULT_REMINDER_LEAD
    lobby_expiry: float = DEFAULT_LOBBY_EXPIRY
    language: str = i18n.DEFAULT
    """The language of the game's channel (one of :data:`i18n.LOCALES`), fixed when its
    lobby opens; a game stored before it was kept speaks English."""

    def duration(self, timing: Timing) -> float | None:
        """The time allowed for a decision timed by ``timing`` (``None``: unlimited)."""
        if timing.option is not None and isinstance(self.options.get(timing.option), int):
            return float(self.options[timing.option])
        if timing.limit == "turn":
            return self.turn_timeout
        return self.timeouts.get(timing.limit, timing.seconds)

    def check(self, variant: str) -> None:
        """Raise :class:`SettingsError` unless the settings make sense for ``variant``."""
        try:
            game = contract.game_named(variant)
            limit = game.max_players(game.options_from_dict(dict(self.options)))
        except rules.RulesError as exc:
            raise SettingsError(str(exc)) from exc
        if not isinstance(self.max_players, int) or not 2 <= self.max_players <= limit:
            raise SettingsError(
                _("{name} must be between 2 and {high} for these options").format(
                    name="max_players", high=limit
                )
            )
        _check_range("turn_timeout", self.turn_timeout, 10, 7 * 86400, allow_none=True)
        for name, seconds in self.timeouts.items():
            _check_range(name, seconds, 10, 7 * 86400, allow_none=True, limit=True)
        _check_range("reminder_lead", self.reminder_lead, 0, 86400)
        _check_range("lobby_expiry", self.lobby_expiry, 10, 86400)
        _check_language(self.language)

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible form."""
        return {
            "max_players": self.max_players,
            "arranged": self.arranged,
            "options": dict(self.options),
            "turn_timeout": self.turn_timeout,
            "timeouts": dict(self.timeouts),
            "reminder_lead": self.reminder_lead,
            "lobby_expiry": self.lobby_expiry,
            "language": self.language,
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> GameSettings:
        """Rebuild from :meth:`to_dict` output (unknown keys are ignored, missing ones
        take their defaults, so older rows stay readable: their ``<name>_timeout`` keys
        are the limits of that name).

        Raises:
            rules.InvalidState: malformed options or limits.
        """
        known = {f.name for f in fields(GameSettings)}
        kw = {k: v for k, v in data.items() if k in known}
        timeouts = {
            key.removesuffix("_timeout"): value
            for key, value in data.items()
            if key.endswith("_timeout") and key != "turn_timeout"
        }
        timeouts.update(data.get("timeouts") or {})
        if not isinstance(kw.get("options", {}), dict):
            raise rules.InvalidState("stored table options must be an object")
        kw["options"] = dict(kw.get("options", {}))
        kw["timeouts"] = timeouts
        kw["language"] = i18n.choose(kw.get("language"))
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
    undo_point: UndoPoint | None = None
    """The before-image of the latest action while it may be taken back, else None."""


@dataclass(slots=True)
class SeatedGame:
    """An unfinished game (lobby or running) a user holds a seat in, as a list of their
    games shows it: where it is, its seats and its open decisions; no position, no log
    (:meth:`service.store.Store.user_games`)."""

    id: int
    guild_id: int | None
    channel_id: int
    status: str
    variant: str
    paused_at: float | None
    seats: list[SeatRecord] = field(default_factory=list)
    decisions: list[DecisionRecord] = field(default_factory=list)


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
    undoes: int | None = None
    """On a row that takes an action back: the ``seq`` of that action (see
    :func:`standing`)."""


def standing(records: Sequence[ActionRecord]) -> list[ActionRecord]:
    """The actions of ``records`` that stand: the rows that take an action back and the
    actions they take back left out. Everything rebuilt from the log (the turn's words,
    ``/log``, replays, ratings) reads it through this."""
    undone = {r.undoes for r in records if r.undoes is not None}
    return [r for r in records if r.undoes is None and r.seq not in undone]


@dataclass(frozen=True, slots=True)
class UndoPoint:
    """What taking back a game's latest action needs, kept with the game while it may:
    the action's ``seq``, the ``seat`` and ``user_id`` that took it, the action, when
    (``at``), the game's ``revision`` once it was written (any write since, not only
    another action, ends the chance), and the ``state`` and open ``decisions`` before it."""

    seq: int
    seat: int
    user_id: int
    action: dict[str, Any]
    at: float
    revision: int
    state: dict[str, Any]
    decisions: tuple[DecisionRecord, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form the store keeps."""
        return {
            "seq": self.seq,
            "seat": self.seat,
            "user_id": self.user_id,
            "action": self.action,
            "at": self.at,
            "revision": self.revision,
            "state": self.state,
            "decisions": [
                [d.seat, d.kind, d.opened_version, d.duration, d.due_at, d.remind_at]
                for d in self.decisions
            ],
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> UndoPoint:
        """Read back :meth:`to_dict`'s form."""
        return UndoPoint(
            seq=int(data["seq"]),
            seat=int(data["seat"]),
            user_id=int(data["user_id"]),
            action=dict(data["action"]),
            at=float(data["at"]),
            revision=int(data["revision"]),
            state=dict(data["state"]),
            decisions=tuple(
                DecisionRecord(int(s), str(k), int(o), d, due, remind)
                for s, k, o, d, due, remind in data["decisions"]
            ),
        )


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game that was started in a channel, as a list of the channel's games shows it."""

    id: int
    variant: str
    status: str
    started_at: float
    ended_at: float | None
    names: tuple[str, ...]
    """Display names by engine seat."""


@dataclass(frozen=True, slots=True)
class GameMessages:
    """The Discord messages kept for one game (``game_messages``), None when unknown."""

    lobby_channel_id: int | None = None
    lobby_message_id: int | None = None
    duel_message_id: int | None = None


@dataclass(frozen=True, slots=True)
class UndoOffer:
    """An *Undo* button up under a game's action message (``game_messages.undo_offer``):
    the message, the action it takes back (``seq``), until when (``until``, the clock's
    seconds) and the edit that takes it off (``edit``: the message's other components, in
    Discord's JSON). Kept so that a restart, or a process taking the game over, takes the
    button off when its time is up."""

    channel_id: int
    message_id: int
    seq: int
    until: float
    edit: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The offer as JSON-ready data (see :meth:`from_dict`)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> UndoOffer:
        """The offer :meth:`to_dict` gave."""
        return cls(
            int(data["channel_id"]),
            int(data["message_id"]),
            int(data["seq"]),
            float(data["until"]),
            dict(data["edit"]),
        )


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


# ---------------------------------------------------------------------------- ratings
OUTCOMES = ("win", "shared", "draw", "loss", "left")
"""How a game ended for one person: the only winner, one of several winners, a draw, a
loss, or a loss by leaving (resigned, or handed over by the host) before the end."""


@dataclass(frozen=True, slots=True)
class Departure:
    """A person who left an engine seat of a running game (resigned, or replaced by the
    host): kept so a finished game still knows who left it."""

    seat: int
    user_id: int
    display_name: str
    left_at: float


@dataclass(slots=True)
class FinishedGame:
    """What rating one finished game needs: its seats as they ended, who left them, and
    how it ended (``result``: the service's JSON, ``winners`` and ``draw``)."""

    id: int
    variant: str
    guild_id: int | None
    ended_at: float
    result: dict[str, Any] | None
    seats: list[SeatRecord] = field(default_factory=list)
    departures: list[Departure] = field(default_factory=list)
    rating_seq: int | None = None
    """Its place in the order games were rated (None: not rated yet)."""


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One person's end of one finished game, as rated: the outcome, the side played, and
    the rating after it (``mu`` and ``sigma`` None: the game was not rated, too few
    people played it)."""

    game_id: int
    user_id: int
    variant: str
    guild_id: int | None
    seq: int
    """The game's place in the rating order."""
    seat: int
    power: str | None
    display_name: str
    outcome: str
    ended_at: float
    mu: float | None = None
    sigma: float | None = None

    @property
    def ordinal(self) -> float | None:
        """The rating shown after this game (None: not rated)."""
        if self.mu is None or self.sigma is None:
            return None
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class Rating:
    """One person's rating in one game kind: OpenSkill's ``mu`` and ``sigma``, the
    ``ordinal`` shown and ranked by (``mu - 3 sigma``), and the rated games and wins."""

    variant: str
    user_id: int
    display_name: str
    """The name in the person's latest rated game."""
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    """Rated games won, alone or shared."""
    updated_at: float
    """When the latest rated game ended."""

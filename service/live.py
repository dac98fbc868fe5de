"""The in-memory copy of one game: a cache of the database, never the truth.

The service keeps one :class:`LiveGame` per active game so an action costs no read; every
write still names the ``revision`` it was computed from, and a stale one makes the
service drop this copy and load the game afresh.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import rules
from rules import contract

from .models import DecisionRecord, GameRecord, GameSettings, SeatRecord
from .turns import TurnEvents


class Views:
    """The views of one state, each made once: what its outcome shows and, once the
    next action is applied, what that action's outcome compares against. A state in the
    cache is never changed (an action applies to a copy), so neither are its views."""

    __slots__ = ("_views", "state")

    def __init__(self, state: contract.State) -> None:
        self.state = state
        self._views: dict[int | None, Any] = {}

    def of(self, seat: int | None) -> Any:
        """What ``seat`` (``None``: a spectator) may see of the state."""
        if seat not in self._views:
            self._views[seat] = self.state.view_for(seat)
        return self._views[seat]


@dataclass(slots=True)
class LiveGame:
    """One active game as the service sees it."""

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
    seats: list[SeatRecord]
    """Lobby: in join order. Running: index == engine seat."""
    state: contract.State | None = None
    creation: dict[str, Any] | None = None
    decisions: dict[tuple[int, str], DecisionRecord] = field(default_factory=dict)
    last_acted: dict[int, int] = field(default_factory=dict)
    paused_at: float | None = None
    result: dict[str, Any] | None = None
    cached_views: Views | None = None
    """The views of ``state`` made so far (see :meth:`views`)."""
    turn_events: TurnEvents | None = None
    """The turn of the latest action and its public events so far (see
    :mod:`service.turns`); None: not known yet (loaded from the store)."""

    @staticmethod
    def from_record(rec: GameRecord) -> LiveGame:
        """Build from a stored record, parsing and validating the snapshot.

        Raises:
            RuntimeError: the stored snapshot or options are corrupt (``rules.InvalidState``
                inside), or its game is not registered: a fault of the storage or of the
                installation, not a user's mistake.
        """
        state = None
        try:
            game = contract.game_named(rec.variant)
            game.options_from_dict(dict(rec.settings.options))
            if rec.state is not None:
                state = game.load(rec.state)
        except rules.RulesError as exc:
            raise RuntimeError(f"game {rec.id}: stored game cannot be loaded: {exc}") from exc
        seats = list(rec.seats)
        if state is not None:
            seats.sort(key=lambda s: s.seat if s.seat is not None else 1 << 30)
        return LiveGame(
            id=rec.id,
            guild_id=rec.guild_id,
            channel_id=rec.channel_id,
            status=rec.status,
            variant=rec.variant,
            host_id=rec.host_id,
            settings=rec.settings,
            version=rec.version,
            revision=rec.revision,
            created_at=rec.created_at,
            seats=seats,
            state=state,
            creation=rec.creation,
            decisions={d.key: d for d in rec.decisions},
            last_acted=dict(rec.last_acted),
            paused_at=rec.paused_at,
            result=rec.result,
        )

    def views(self) -> Views:
        """The views of the current state, made once each."""
        assert self.state is not None, "a game has views once it started"
        if self.cached_views is None or self.cached_views.state is not self.state:
            self.cached_views = Views(self.state)
        return self.cached_views

    def views_of(self, state: contract.State) -> Views:
        """The views of ``state``: the cached ones if it is the state they were made of."""
        if state is self.state:
            return self.views()
        cached = self.cached_views
        return cached if cached is not None and cached.state is state else Views(state)

    @property
    def game(self) -> contract.Game:
        """The game being played (its registry entry)."""
        return contract.game_named(self.variant)

    # ------------------------------------------------------------------ seats
    @property
    def running(self) -> bool:
        """True while the game is being played."""
        return self.status == "running" and self.state is not None

    @property
    def paused(self) -> bool:
        """True while the host paused the game's timers."""
        return self.paused_at is not None

    def names(self) -> list[str]:
        """Display names indexed by engine seat (running) or join order (lobby)."""
        return [s.display_name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        """The engine seat of ``user_id`` in a running game, or None."""
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i if self.state is not None else None
        return None

    def entry_of(self, user_id: int) -> SeatRecord | None:
        """The seat record (lobby entry or seat) of ``user_id``, or None."""
        for s in self.seats:
            if s.user_id == user_id:
                return s
        return None

    def user_of(self, seat: int) -> int | None:
        """The user playing engine seat ``seat`` (None for a computer)."""
        return self.seats[seat].user_id if 0 <= seat < len(self.seats) else None

    def is_computer(self, seat: int) -> bool:
        """True when a computer plays engine seat ``seat``."""
        return 0 <= seat < len(self.seats) and self.seats[seat].is_computer

    def humans(self) -> list[int]:
        """Engine seats held by people."""
        return [i for i, s in enumerate(self.seats) if not s.is_computer]

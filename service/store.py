"""The game store's contract: what the service and the front ends keep, whatever keeps it.

:class:`Store` is a typed :class:`~typing.Protocol`; :class:`service.sqlite_store.SqliteStore`
(one SQLite file through aiosqlite, the embedded default) and
:class:`service.postgres_store.PostgresStore` (one PostgreSQL database shared by several
processes, through asyncpg) implement it. Open one with :func:`open_store`.
``tests/service/store_suite`` runs the same tests against every implementation.

What every implementation promises:

- **One transaction per method.** Every write is all or nothing; every read is one
  consistent snapshot. Times are wall-clock seconds (floats, kept exactly); ids are
  Discord snowflakes (64-bit).
- **Optimistic concurrency.** Every write to a game names the ``revision`` it was
  computed from and bumps it; if another writer came first, nothing is written and
  :class:`StaleVersion` is raised. An action also names the game ``version`` (its number
  of actions) it follows, so the log stays contiguous: action ``seq`` n is written only
  over version n - 1. Concurrent writes to different games never spoil each other.
- **The same refusals.** The exceptions below, whichever database is behind:
  :class:`ChannelBusy` (one active game per channel), :class:`GuildFull` (the server's
  cap, race-free), :class:`SeatTaken`, :class:`StoreFull` (nothing written; the same
  write succeeds once there is room) and :class:`InvalidRecord` (a record the schema
  refuses, a caller's bug).

:class:`FrontStore` is the part a front end uses itself (what it owes Discord, people's
preferences, the servers it left, facts about itself); the service hands it out as
:attr:`service.GameService.front_store`. Games are written only by the service.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .models import (
    ActionRecord,
    DecisionRecord,
    FinishedGame,
    GameMessages,
    GameRecord,
    GameSettings,
    GuildSettings,
    OutboxRecord,
    PlayedGame,
    PlayerResult,
    Rating,
    SeatedGame,
    UndoOffer,
    UndoPoint,
)


class StoreError(RuntimeError):
    """Root of the store's refusals."""


class StaleVersion(StoreError):
    """The game changed since it was read (another writer came first); nothing written."""


class StoreFull(StoreError):
    """The disk holding the database is full: nothing was written; the same write
    succeeds once there is space again."""


class ChannelBusy(StoreError):
    """The channel already has an active (lobby or running) game."""


class GuildFull(StoreError):
    """The server already has as many active games as its settings allow."""


class SeatTaken(StoreError):
    """The user already holds a seat in this game, or the seat number is taken."""


class InvalidRecord(StoreError):
    """The database refused a record that breaks its schema (a check, a reference): a bug
    of the caller, never a player's mistake. Nothing of the write was kept."""


class StoreMetrics(Protocol):
    """Where a store counts its commit times and faults (the bot hands in its own)."""

    def error(self, kind: str) -> None:
        """Count one fault of ``kind`` (``"store"``)."""

    def db_write(self, seconds: float) -> None:
        """Record one commit's duration."""


class _NoMetrics:
    """Counts nothing: the store's default."""

    def error(self, kind: str) -> None:
        pass

    def db_write(self, seconds: float) -> None:
        pass


NO_METRICS: StoreMetrics = _NoMetrics()


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A lobby entry to add: a person (``user_id``) or a computer (``computer_level``)."""

    user_id: int | None
    computer_level: str | None
    display_name: str
    requested_power: str | None
    joined_at: float


class FrontStore(Protocol):
    """What a front end keeps beside the games (the bot's delivery, its cogs, its start-up
    jobs). Each method is one transaction."""

    # ---------------------------------------------------------------- the outbox
    async def outbox_add(self, item: OutboxRecord, announces: int | None = None) -> int:
        """Keep an item the front end owes Discord, with its files. Returns its id.

        ``announces``: the item is the channel's message of the game's actions up to this
        version; in the same transaction, they stop being owed (see :meth:`announced`).

        Raises:
            InvalidRecord: a DM without its person, or a channel item naming one.
        """
        ...

    async def outbox_update(self, item: OutboxRecord, announces: int | None = None) -> None:
        """Rewrite a kept item (it was coalesced with a newer one): priority, merge key,
        payload, meta and files; ``announces`` as for :meth:`outbox_add`."""
        ...

    async def outbox_remove(self, item_ids: Iterable[int]) -> None:
        """Forget items that were sent (or given up); their files go with them."""
        ...

    async def outbox_items(self) -> list[OutboxRecord]:
        """Every kept item, oldest first, with its files in order."""
        ...

    # ---------------------------------------------------------------- owed to channels
    async def announced(self, game_id: int, version: int) -> None:
        """Game ``game_id``'s channel has been told of its actions up to ``version`` (the
        message was sent, or nothing was to be said): they are no longer owed."""
        ...

    async def announcements(self) -> list[tuple[int, int]]:
        """(game id, first action not announced) of every game whose channel is owed the
        message of a committed action (a crash came between the two)."""
        ...

    async def hold_channel(self, channel_id: int, game_id: int, paused: bool, missing: str) -> None:
        """Keep that ``channel_id`` (of ``game_id``) refuses the bot for a ``missing``
        permission, and whether the bot paused the game for it."""
        ...

    async def release_channel(self, channel_id: int) -> None:
        """The channel no longer refuses the bot (or is gone)."""
        ...

    async def held_channels(self) -> list[tuple[int, int, bool, str]]:
        """(channel id, game id, paused by the bot, missing) of every held channel."""
        ...

    # ---------------------------------------------------------------- messages, DMs
    async def game_messages(self, game_id: int) -> GameMessages:
        """The messages the front end keeps editing for a game (all None if none)."""
        ...

    async def set_lobby_message(
        self, game_id: int, channel_id: int | None, message_id: int | None
    ) -> None:
        """Record (or, with None, forget) a game's lobby message. Nothing is recorded for
        a game that does not exist."""
        ...

    async def set_duel_message(self, game_id: int, message_id: int | None) -> None:
        """Record (or, with None, forget) the message of a game's duel under way. Nothing
        is recorded for a game that does not exist."""
        ...

    async def set_undo_offer(self, game_id: int, offer: UndoOffer | None) -> None:
        """Record (or, with None, forget) the *Undo* button up under one of a game's
        messages (one at most per game). Nothing is recorded for a game that does not
        exist."""
        ...

    async def undo_offers(self) -> dict[int, UndoOffer]:
        """Every game's recorded *Undo* button, by game id (few: each goes when its time
        is up)."""
        ...

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        """Mark ``user_id``'s seats in every unfinished game: their DMs are closed (or
        open again). The mark belongs to the seat: a seat handed to someone else drops
        it."""
        ...

    async def users_with_dms_closed(self) -> set[int]:
        """People seated in an unfinished game whose DMs are known to be closed."""
        ...

    # ---------------------------------------------------------------- people, servers
    async def user_pings(self, user_id: int) -> bool:
        """Whether ``user_id`` wants to be pinged when it is their move (default yes)."""
        ...

    async def set_user_pings(self, user_id: int, on: bool, now: float) -> None:
        """Turn ``user_id``'s turn pings on or off."""
        ...

    async def record_departure(self, guild_id: int, when: float) -> None:
        """The bot was removed from ``guild_id`` at ``when`` (the first departure counts
        until it is forgotten)."""
        ...

    async def forget_departure(self, guild_id: int) -> None:
        """The bot is back in ``guild_id`` (or its data was deleted): no departure."""
        ...

    async def departures(self) -> dict[int, float]:
        """Every recorded departure: server id -> when the bot left it."""
        ...

    async def departures_due(self, left_before: float) -> list[int]:
        """Servers the bot left at or before ``left_before``, longest gone first."""
        ...

    async def meta(self, key: str) -> str | None:
        """A fact the front end keeps about itself, or None."""
        ...

    async def set_meta(self, key: str, value: str) -> None:
        """Store a fact the front end keeps about itself (replacing the old value)."""
        ...


class Store(FrontStore, Protocol):
    """The whole store: the games (written by :class:`service.GameService` only), server
    settings, and everything of :class:`FrontStore`. See the module docstring for what
    every implementation promises."""

    metrics: StoreMetrics
    """Where commit times and faults are counted (the bot sets its own)."""

    # ---------------------------------------------------------------- lifecycle
    async def close(self) -> None:
        """Wait for queued writes and the transaction in flight, then close. Every write
        that returned is kept."""
        ...

    async def schema_version(self) -> int:
        """The number of the last schema migration applied."""
        ...

    # ---------------------------------------------------------------- leases
    async def claim_lease(self, name: str, holder: str, now: float, ttl: float) -> bool:
        """Take or renew the lease ``name`` for ``holder`` until ``now + ttl``: True if
        it is ``holder``'s now (it was free, expired at ``now``, or ``holder``'s already),
        False if another holder's lease still runs (nothing changed)."""
        ...

    async def release_lease(self, name: str, holder: str) -> None:
        """Give up ``holder``'s lease ``name`` (nothing if it is not ``holder``'s)."""
        ...

    async def lease(self, name: str) -> tuple[str, float] | None:
        """(holder, expires at) of lease ``name``, or None if nobody ever held it."""
        ...

    # ---------------------------------------------------------------- other processes
    async def publish(self, game_id: int) -> None:
        """Tell the other processes on this database that game ``game_id`` changed (its
        host reloads it). A store that only one process writes may do nothing."""
        ...

    async def subscribe(self, handler: Callable[[int], None]) -> None:
        """Call ``handler`` with the game id of every change another process publishes
        (on the event loop), until the store closes. A store that only one process
        writes may never call it."""
        ...

    # ---------------------------------------------------------------- reading games
    async def load_game(self, game_id: int) -> GameRecord | None:
        """One game (any status) with its seats, open decisions and latest action per
        seat; None if there is no such game."""
        ...

    async def load_active(self) -> list[GameRecord]:
        """Every lobby and running game, with seats, open decisions and deadlines."""
        ...

    async def user_games(self, user_id: int) -> list[SeatedGame]:
        """The unfinished games (lobby or running) where ``user_id`` holds a seat, oldest
        first, each with its seats and open decisions (what a list of a player's games
        shows, whichever process hosts them)."""
        ...

    async def active_game_in_channel(self, channel_id: int) -> int | None:
        """The id of the channel's lobby or running game, if any."""
        ...

    async def played_in_channel(
        self, guild_id: int, channel_id: int, limit: int
    ) -> list[PlayedGame]:
        """The last ``limit`` games started in a server's channel (running, finished or
        ended otherwise), newest first."""
        ...

    async def actions(self, game_id: int, after: int = 0) -> list[ActionRecord]:
        """The action log of a game from ``seq`` ``after + 1`` on, in order, the rows
        that take an action back included (:func:`service.models.standing` leaves them
        and what they take back out)."""
        ...

    async def last_actions(self, game_id: int, count: int) -> list[ActionRecord]:
        """The last ``count`` actions of a game, oldest first."""
        ...

    # ---------------------------------------------------------------- lobby
    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int | None,
        variant: str,
        settings: GameSettings,
        host_seat: NewSeat | None,
        expiry: DecisionRecord | None,
        max_games: int | None,
        now: float,
    ) -> int:
        """Open a lobby (status ``lobby``, version 0, revision 0), seat its host and set
        its expiry; return the new game id. ``max_games`` caps the server's active games
        (None: no cap; checked and kept race-free against other writers).

        Raises:
            ChannelBusy: the channel has an active game.
            GuildFull: the server is at its cap of active games.
        """
        ...

    async def add_seat(
        self, game_id: int, revision: int, seat: NewSeat, expiry: DecisionRecord | None = None
    ) -> None:
        """Add a lobby entry (and refresh the lobby's expiry).

        Raises:
            StaleVersion: the game changed since ``revision`` or is no longer a lobby.
            SeatTaken: the user already holds a seat in this game.
        """
        ...

    async def remove_seat(
        self,
        game_id: int,
        revision: int,
        seat_id: int,
        host_id: int | None,
        expiry: DecisionRecord | None = None,
    ) -> None:
        """Remove a lobby entry by its row id, set the host (it may pass to another
        player) and refresh the lobby's expiry, in one transaction.

        Raises:
            StaleVersion: the game changed since ``revision`` or is no longer a lobby.
        """
        ...

    async def update_lobby(
        self,
        game_id: int,
        revision: int,
        settings: GameSettings,
        host_id: int | None,
        expiry: DecisionRecord | None = None,
    ) -> None:
        """Change a lobby's settings or host (and refresh its expiry).

        Raises:
            StaleVersion: the game changed since ``revision`` or is no longer a lobby.
        """
        ...

    async def start_game(
        self,
        game_id: int,
        revision: int,
        *,
        creation: dict[str, Any],
        start_events: list[dict[str, Any]],
        state: dict[str, Any],
        seats: Iterable[tuple[int, int, str, str]],
        decisions: Iterable[DecisionRecord],
        now: float,
    ) -> None:
        """Turn a lobby into a running game at version 0: ``seats`` are (row id, engine
        seat, power, display name); the lobby's expiry gives way to ``decisions``.

        Raises:
            StaleVersion: the game changed since ``revision`` or is no longer a lobby.
        """
        ...

    # ---------------------------------------------------------------- play
    async def record_action(
        self,
        game_id: int,
        revision: int,
        version: int,
        *,
        seat: int,
        user_id: int | None,
        source: str,
        action: dict[str, Any],
        events: list[dict[str, Any]],
        state: dict[str, Any],
        removed: Iterable[tuple[int, str]],
        upserted: Iterable[DecisionRecord],
        result: dict[str, Any] | None,
        now: float,
        owe: bool = False,
        undo_point: UndoPoint | None = None,
    ) -> None:
        """Append action ``version + 1`` with its events, the new snapshot, the version
        and revision bump and the changed decisions (``removed`` by (seat, kind)),
        atomically; returns once committed. A ``result`` marks the game finished.
        ``owe``: the game's channel is owed the action's message (see
        :meth:`FrontStore.announcements`). ``source`` is one of ``player``, ``computer``,
        ``timeout``, ``system``. ``undo_point``: the action may be taken back (the game's
        ``undo_point`` until the next action; None clears it, and so does an end).

        Raises:
            StaleVersion: the game changed since ``revision`` / ``version``, or is not
                running (nothing was written).
            InvalidRecord: an unknown ``source`` (nothing was written).
        """
        ...

    async def record_undo(
        self,
        game_id: int,
        revision: int,
        version: int,
        *,
        seat: int,
        user_id: int,
        undoes: int,
        state: dict[str, Any],
        decisions: Iterable[DecisionRecord],
        now: float,
        owe: bool = False,
    ) -> None:
        """Take back action ``undoes`` (the game's latest, whose ``undo_point`` is kept):
        append row ``version + 1`` saying so (``seat`` and ``user_id`` took it back;
        the action's own row stays), put back ``state`` and, in place of every open
        decision, ``decisions``, clear the ``undo_point``, bump version and revision,
        atomically. ``owe`` as for :meth:`record_action`.

        Raises:
            StaleVersion: the game changed since ``revision`` / ``version``, is not
                running, or keeps no ``undo_point`` (nothing was written).
        """
        ...

    async def mark_reminded(self, game_id: int, seat: int, kind: str, opened_version: int) -> bool:
        """Clear a decision's reminder; True when this call cleared it (send it once)."""
        ...

    async def end_game(
        self, game_id: int, revision: int, status: str, result: dict[str, Any] | None, now: float
    ) -> None:
        """Cancel or archive an active game (``status``: ``cancelled`` or ``archived``):
        its open decisions are dropped.

        Raises:
            StaleVersion: the game changed since ``revision`` or is not active.
        """
        ...

    async def set_paused(
        self,
        game_id: int,
        revision: int,
        paused_at: float | None,
        decisions: Iterable[DecisionRecord],
        hold: tuple[int, str] | None = None,
    ) -> None:
        """Pause (``paused_at`` set) or resume (None) a game, rewriting its deadlines.
        ``hold``: (channel id, missing permission) the bot paused it for, kept with it
        (see :meth:`FrontStore.hold_channel`).

        Raises:
            StaleVersion: the game changed since ``revision`` or is not running.
        """
        ...

    async def replace_seat(
        self,
        game_id: int,
        revision: int,
        seat: int,
        *,
        user_id: int | None,
        computer_level: str | None,
        display_name: str,
        now: float,
    ) -> None:
        """Hand an engine seat to another person or a computer (its draw vote and DM
        flag go with the old occupant); a person who held it is kept as having left it
        at ``now`` (see :meth:`unrated_games`).

        Raises:
            StaleVersion: the game changed since ``revision`` or is not running.
            SeatTaken: that person already holds another seat in the game.
        """
        ...

    async def set_draw_vote(self, game_id: int, revision: int, seat: int, agree: bool) -> None:
        """Record a seat's agreement to a draw.

        Raises:
            StaleVersion: the game changed since ``revision`` or is not running.
        """
        ...

    # ---------------------------------------------------------------- ratings
    async def unrated_games(self, limit: int) -> list[FinishedGame]:
        """The first ``limit`` finished games of servers not rated yet, in the order they
        ended, each with its seats as they ended and the people who left a seat."""
        ...

    async def rated_games(self) -> tuple[int, list[FinishedGame]]:
        """(the ratings' head: their last step, every rated game in the order they were
        rated, with seats and departures as :meth:`unrated_games` gives them), read
        together: what a rebuild starts from."""
        ...

    async def ratings_of(self, variant: str, user_ids: Iterable[int]) -> tuple[int, list[Rating]]:
        """(the ratings' head, the ratings in game kind ``variant`` of those of
        ``user_ids`` who have one), read together: what rating one game starts from."""
        ...

    async def record_ratings(
        self,
        game_id: int,
        head: int,
        results: Iterable[PlayerResult],
        ratings: Iterable[Rating],
    ) -> None:
        """Rate finished game ``game_id`` as step ``head + 1`` of the ratings (its
        ``rating_seq``): its people's ``results`` are kept and their ``ratings``
        replaced, all at once.

        Raises:
            StaleVersion: the ratings moved on since step ``head`` (another writer came
                first), or the game is not finished or already rated; nothing written.
        """
        ...

    async def replace_ratings(
        self, head: int, results: Iterable[PlayerResult], ratings: Iterable[Rating]
    ) -> None:
        """A rebuild: every kept result and rating is replaced by these, as step
        ``head + 1`` of the ratings (the games keep their places in the order).

        Raises:
            StaleVersion: the ratings moved on since step ``head``; nothing written.
        """
        ...

    async def leaderboard(
        self, variant: str, guild_id: int | None, limit: int
    ) -> tuple[list[Rating], int]:
        """(the best ``limit`` ratings in game kind ``variant``, how many there are):
        everyone's (``guild_id`` None), or of those who played a rated game of that kind
        in server ``guild_id``. Best first: by ordinal, then more games, then the lower
        user id."""
        ...

    async def leaderboard_place(
        self, variant: str, user_id: int, guild_id: int | None
    ) -> tuple[int, Rating] | None:
        """(place from 1, rating) of ``user_id`` on :meth:`leaderboard`'s list, or None
        if they are not on it."""
        ...

    async def user_ratings(self, user_id: int) -> list[Rating]:
        """``user_id``'s rating in every game kind they were rated in."""
        ...

    async def user_results(self, user_id: int) -> list[PlayerResult]:
        """``user_id``'s result of every finished game the ratings took in (one they
        played alone among computers too, its result without a rating), in the rating
        order."""

    # ---------------------------------------------------------------- hints
    async def count_hint(self, game_id: int, user_id: int) -> int:
        """Count one more hint taken by ``user_id`` in ``game_id``; return how many that
        person has taken in that game now."""
        ...

    async def hints_taken(self, user_id: int, game_id: int | None = None) -> int:
        """How many hints ``user_id`` has taken: in ``game_id``, or in every game."""
        ...

    # ---------------------------------------------------------------- languages
    async def user_locales(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The client language (Discord's tag) last seen of each of ``user_ids`` who was
        ever seen; the others are left out."""
        ...

    async def set_user_locale(self, user_id: int, locale: str, now: float) -> None:
        """Remember ``locale`` as ``user_id``'s client language, seen at ``now``."""
        ...

    # ---------------------------------------------------------------- servers
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (the defaults when it never changed them)."""
        ...

    async def save_guild_settings(self, settings: GuildSettings, now: float) -> None:
        """Store a server's settings (replacing the old ones)."""
        ...

    async def archive(
        self, *, channel_id: int | None = None, guild_id: int | None = None, now: float
    ) -> list[int]:
        """Archive the active games of a channel or a whole server (their decisions are
        dropped); return their ids."""
        ...

    async def delete_guild(self, guild_id: int) -> int:
        """Delete every game (with seats, log, decisions, message ids and its people's
        results), the settings and the recorded departure of a server; return how many
        games were deleted. The ratings are left as they are: rebuild them
        (:meth:`replace_ratings`) from the games that are left."""
        ...


POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""URL schemes of a PostgreSQL database (:class:`service.postgres_store.PostgresStore`)."""


async def open_store(
    where: str | Path, *, synchronous: str = "NORMAL", busy_timeout_ms: int = 10_000
) -> Store:
    """Open (creating and migrating it if needed) the store ``where`` names: an SQLite
    file, as a path or an ``sqlite:///path`` URL, or a PostgreSQL database
    (``postgresql://user:password@host:port/database``, libpq's URL). ``synchronous``
    and ``busy_timeout_ms`` are SQLite's (see :class:`service.sqlite_store.SqliteStore`).

    Raises:
        ValueError: a URL of a database this build cannot open, or an unknown
            ``synchronous`` level.
        service.migrations.MigrationError: the schema cannot be brought up to date.
        OSError: a PostgreSQL server that cannot be reached (and asyncpg's errors for
            one that refuses the connection).
    """
    # imported here, not above: the implementations import this module's exceptions, and
    # each brings its own driver
    text = str(where)
    if text.startswith(POSTGRES_SCHEMES):
        from .postgres_store import PostgresStore

        return await PostgresStore.open(text)
    from .sqlite_store import SqliteStore

    if "://" in text:
        if not text.startswith("sqlite:///"):
            raise ValueError(
                f"no store for {text.split(':', 1)[0]}: URLs (sqlite:/// or postgresql://)"
            )
        text = text[len("sqlite:///") :]
    return await SqliteStore.open(
        Path(text), synchronous=synchronous, busy_timeout_ms=busy_timeout_ms
    )

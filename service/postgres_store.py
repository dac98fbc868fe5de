"""The PostgreSQL store (:class:`PostgresStore`, implementing :class:`service.store.Store`):
one database shared by any number of processes, through an asyncpg connection pool.

The statements are :mod:`service.sql`'s portable ones with numbered placeholders (a few
need PostgreSQL's casts or ``RETURNING``, see :data:`OVERRIDES`); the schema is the same
numbered migrations in PostgreSQL's dialect (:mod:`service.pg_migrations`), applied under
an advisory lock when the store opens.

Every method is one transaction (``READ COMMITTED``; a read of several tables is one
``REPEATABLE READ`` snapshot). Optimistic concurrency is the SQLite store's: a write to a
game is guarded by ``UPDATE games … WHERE id = $ AND revision = $`` (and, for an action,
the version), which PostgreSQL re-checks against the newest row once a concurrent writer
of the same game commits, so exactly one of them changes a row and the others raise
:class:`StaleVersion` having written nothing. An action is one statement (the guard, the
log row, what the channel is owed and the decisions, as data-modifying ``WITH`` parts),
and actions use group commit: those queued while a batch is written go into the next
transaction together, in one round trip — all or nothing per action, one commit per
batch. The per-server cap takes a
transaction-scoped advisory lock of the server before counting, so two lobbies opened at
once in one server are counted one after the other.

A full disk (SQLSTATE class 53, insufficient resources) is :class:`StoreFull`; a record
the schema refuses is :class:`InvalidRecord`.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

import asyncpg

from . import rows as row
from .migrations import MIGRATIONS, Migration
from .models import (
    ActionRecord,
    DecisionRecord,
    FinishedGame,
    GameMessages,
    GameRecord,
    GameSettings,
    GuildSettings,
    OutboxFile,
    OutboxRecord,
    PlayedGame,
    PlayerResult,
    Rating,
    SeatedGame,
    UndoOffer,
    UndoPoint,
)
from .pg_migrations import current_version, migrate
from .sql import Q
from .store import (
    NO_METRICS,
    ChannelBusy,
    GuildFull,
    InvalidRecord,
    NewSeat,
    SeatTaken,
    StaleVersion,
    StoreError,
    StoreFull,
    StoreMetrics,
)

if TYPE_CHECKING:  # generic only in asyncpg's stubs
    from asyncpg.pool import PoolConnectionProxy

    Conn: TypeAlias = PoolConnectionProxy[asyncpg.Record]

log = logging.getLogger("service.store")

CHANNEL = "game_changed"
"""The ``NOTIFY`` channel of changes to games (the payload: the game id)."""
LISTEN_RETRY = 5.0
"""Seconds between two tries to listen again after the connection was lost."""

GUILD_CAP_LOCK = 0x6577_6361
"""The first key of the advisory lock that serialises a server's new lobbies (the second
is the server id folded to 32 bits: a collision only makes two servers wait in turn)."""

OVERRIDES: dict[str, str] = {
    "insert_game": Q.insert_game + " RETURNING id",
    "insert_outbox": Q.insert_outbox + " RETURNING id",
    # a placeholder in a select list has no type to take: say it
    "upsert_lobby_message": Q.upsert_lobby_message.replace(
        "SELECT id, ?, ?", "SELECT id, ?::bigint, ?::bigint"
    ),
    "upsert_duel_message": Q.upsert_duel_message.replace("SELECT id, ?", "SELECT id, ?::bigint"),
    "upsert_undo_offer": Q.upsert_undo_offer.replace("SELECT id, ?", "SELECT id, ?::text"),
    "record_departure": Q.record_departure.replace(
        "display_name, ? FROM", "display_name, ?::double precision FROM"
    ),
}


def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered ``$1``, ``$2``, … (PostgreSQL's)."""
    count = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


P: dict[str, str] = {
    name: numbered(OVERRIDES.get(name, value))
    for name, value in vars(Q).items()
    if not name.startswith("_") and name.islower() and isinstance(value, str)
}
"""Every statement of :class:`service.sql.Q`, by name, as PostgreSQL runs it."""

_ACTION = """
WITH g AS (
    UPDATE games SET state = $1, version = version + 1, revision = revision + 1{ending}
    WHERE id = $2 AND revision = $3 AND version = $4 AND status = 'running'
    RETURNING id
), logged AS (
    INSERT INTO actions (game_id, seq, seat, user_id, source, action, events, created_at)
    SELECT id, $4 + 1, $5::integer, $6::bigint, $7::text, $8::text, $9::text,
           $10::double precision FROM g
), owed AS (
    INSERT INTO announcements (game_id, owed_from)
    SELECT id, $4 + 1 FROM g WHERE $11::boolean
    ON CONFLICT (game_id) DO NOTHING
), gone AS (
    DELETE FROM decisions d USING g, unnest($12::integer[], $13::text[]) AS r(seat, kind)
    WHERE d.game_id = g.id AND d.seat = r.seat AND d.kind = r.kind
), fresh AS (
    INSERT INTO decisions (game_id, seat, kind, opened_version, duration, due_at, remind_at)
    SELECT g.id, r.* FROM g, unnest($14::integer[], $15::text[], $16::integer[],
        $17::double precision[], $18::double precision[], $19::double precision[]) AS r
    ON CONFLICT (game_id, seat, kind) DO UPDATE SET opened_version = excluded.opened_version,
        duration = excluded.duration, due_at = excluded.due_at, remind_at = excluded.remind_at
)
SELECT count(*) FROM g
"""
RECORD_MOVE = _ACTION.format(ending=", undo_point = $20::text")
"""An action that does not end the game (status, ended_at and result stay as they are;
$20 is its undo point, or NULL)."""
RECORD_END = _ACTION.format(
    ending=", undo_point = NULL, status = 'finished', ended_at = $10, result = $20"
)
"""An action that ends the game."""


def _count(status: str) -> int:
    """The row count of a command's status (``UPDATE 1`` -> 1)."""
    return int(status.rsplit(" ", 1)[-1])


def _decision_params(game_id: int, d: DecisionRecord) -> tuple[Any, ...]:
    return (game_id, d.seat, d.kind, d.opened_version, d.duration, d.due_at, d.remind_at)


def _translated(exc: BaseException) -> BaseException:
    """PostgreSQL's error as the store's: no room (a full disk) as :class:`StoreFull`, a
    record the schema refuses as :class:`InvalidRecord`; anything else unchanged."""
    mine: StoreError
    if isinstance(exc, asyncpg.InsufficientResourcesError):
        mine = StoreFull(f"the database has no room to write; nothing was written ({exc})")
    elif isinstance(exc, asyncpg.IntegrityConstraintViolationError | asyncpg.DataError):
        mine = InvalidRecord(f"the database refused the record: {exc}")
    else:
        return exc
    mine.__cause__ = exc
    return mine


@dataclass(slots=True)
class _Write:
    """One queued action: its statement's parameters, whether it ends the game, and the
    future its caller awaits; ``changed`` (1: written, 0: stale) or ``error`` once done."""

    params: list[Any]
    ends: bool
    stale_message: str
    done: asyncio.Future[None]
    changed: int = 0
    error: BaseException | None = None


def _fail(batch: list[_Write], exc: BaseException) -> None:
    for write in batch:
        if not write.done.done():
            write.done.set_exception(
                exc if isinstance(exc, Exception) else StoreError("the store was interrupted")
            )


async def _write_batch(conn: Conn, batch: list[_Write]) -> None:
    """Every write of ``batch`` in one transaction: each run of writes of one statement
    in one round trip (asyncpg's pipelined ``fetchmany``). The games are locked in the
    order of their ids (one game's writes in queue order), as every process does, so two
    processes' batches never wait for each other in a circle. If the database refuses one
    record (or still finds a deadlock), the transaction is undone and each write is done
    alone, so only a bad one fails.

    Raises:
        asyncpg.PostgresError, OSError: any other fault (nothing of the batch written).
    """
    ordered = sorted(batch, key=lambda w: int(w.params[1]))
    try:
        async with conn.transaction():
            for ends, run in itertools.groupby(ordered, key=lambda w: w.ends):
                writes = list(run)
                counts = await conn.fetchmany(
                    RECORD_END if ends else RECORD_MOVE, [w.params for w in writes]
                )
                for write, count in zip(writes, counts, strict=True):
                    write.changed = int(count[0])
    except (
        asyncpg.IntegrityConstraintViolationError,
        asyncpg.DataError,
        asyncpg.DeadlockDetectedError,
    ):
        if len(batch) == 1:
            raise
        for write in ordered:
            try:
                write.changed = int(
                    await conn.fetchval(RECORD_END if write.ends else RECORD_MOVE, *write.params)
                )
            except (asyncpg.IntegrityConstraintViolationError, asyncpg.DataError) as exc:
                write.error = _translated(exc)


class PostgresStore:
    """The PostgreSQL game store. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record], url: str) -> None:
        self._pool = pool
        self._queue: list[_Write] = []
        self._flusher: asyncio.Task[None] | None = None
        self._writer: Conn | None = None
        self._listening: asyncio.Task[None] | None = None
        self._handlers: list[Callable[[int], None]] = []
        self._closed = False
        self.url = url
        self.metrics: StoreMetrics = NO_METRICS
        """Where commit times and faults are counted (the bot sets its own)."""

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(
        cls,
        url: str,
        *,
        migrations: Sequence[Migration] = MIGRATIONS,
        min_connections: int = 2,
        max_connections: int = 10,
    ) -> PostgresStore:
        """Connect (a pool of ``min_connections`` to ``max_connections``) and migrate.

        Raises:
            MigrationError: the schema cannot be brought up to date.
            OSError, asyncpg.PostgresError: the server cannot be reached or refuses us.
        """
        pool = await asyncpg.create_pool(
            url, min_size=min_connections, max_size=max_connections, server_settings=_SETTINGS
        )
        try:
            async with pool.acquire() as conn:
                await migrate(conn, migrations=migrations)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url)

    async def close(self) -> None:
        """Wait for queued actions and the transactions in flight (every connection back
        in the pool), then close every connection."""
        self._closed = True
        if self._listening is not None:
            self._listening.cancel()
            await asyncio.gather(self._listening, return_exceptions=True)
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        await self._drop_writer()
        await self._pool.close()

    async def _drop_writer(self) -> None:
        """Give the flusher's connection back (after a fault, a fresh one is taken)."""
        writer, self._writer = self._writer, None
        if writer is not None:
            await self._pool.release(writer)

    # ------------------------------------------------------------------ leases
    async def claim_lease(self, name: str, holder: str, now: float, ttl: float) -> bool:
        """Take or renew lease ``name`` for ``holder`` until ``now + ttl`` (see
        :meth:`service.store.Store.claim_lease`); one statement, so two processes
        claiming at once cannot both get it."""
        async with self._tx() as conn:
            return _count(await conn.execute(P["claim_lease"], name, holder, now + ttl, now)) == 1

    async def release_lease(self, name: str, holder: str) -> None:
        """Give up ``holder``'s lease ``name``."""
        async with self._tx() as conn:
            await conn.execute(P["release_lease"], name, holder)

    async def lease(self, name: str) -> tuple[str, float] | None:
        """(holder, expires at) of lease ``name``, or None."""
        found = await self._pool.fetchrow(P["select_lease"], name)
        return (str(found[0]), float(found[1])) if found is not None else None

    # ------------------------------------------------------------------ other processes
    async def publish(self, game_id: int) -> None:
        """``NOTIFY`` every process listening on this database that ``game_id`` changed
        (delivered once this transaction commits: it is one statement of its own)."""
        await self._pool.execute("SELECT pg_notify($1, $2)", CHANNEL, str(game_id))

    async def subscribe(self, handler: Callable[[int], None]) -> None:
        """``LISTEN`` on a connection of its own (not the pool's) and call ``handler``
        with each game id another process publishes; a lost connection is made again
        (a change published meanwhile is missed: the host's timers and the next
        operation read the database anyway)."""
        if self._listening is None:
            ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._listening = asyncio.get_running_loop().create_task(self._listen(ready))
            await ready
        self._handlers.append(handler)

    async def _listen(self, ready: asyncio.Future[None]) -> None:
        """Listen until the store closes, connecting again whenever the connection is
        lost; ``ready`` is set after the first try."""
        while not self._closed:
            try:
                await self._listen_once(ready)
            except (OSError, asyncpg.PostgresError) as exc:
                log.warning("cannot listen for other processes' changes (%s); retrying", exc)
            if not ready.done():
                ready.set_result(None)
            if not self._closed:
                await asyncio.sleep(LISTEN_RETRY)

    async def _listen_once(self, ready: asyncio.Future[None]) -> None:
        lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def heard(conn: object, pid: int, channel: str, payload: object) -> None:
            for handler in list(self._handlers):
                handler(int(str(payload)))

        def closed(conn: object) -> None:
            if not lost.done():
                lost.set_result(None)

        conn = await asyncpg.connect(self.url, server_settings=_SETTINGS)
        try:
            conn.add_termination_listener(closed)
            await conn.add_listener(CHANNEL, heard)
            if not ready.done():
                ready.set_result(None)
            await lost
            log.warning("lost the connection that listens for other processes' changes")
        finally:
            await conn.close()

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[Conn]:
        """One write transaction: commits on success, rolls back on any exception (the
        database's refusals translated, see :func:`_translated`)."""
        async with self._pool.acquire() as conn:
            try:
                async with conn.transaction():
                    yield conn
            except asyncpg.PostgresError as exc:
                mine = _translated(exc)
                if isinstance(mine, StoreFull) or mine is exc:
                    self.metrics.error("store")
                if mine is not exc:
                    raise mine from exc
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Conn]:
        """A consistent read of several statements (one snapshot)."""
        async with (
            self._pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield conn

    @staticmethod
    async def _bump(conn: Conn, game_id: int, revision: int, status: str) -> None:
        if _count(await conn.execute(P["bump"], game_id, revision, status)) != 1:
            raise StaleVersion(f"game {game_id} changed since revision {revision}")

    # ------------------------------------------------------------------ reading games
    async def schema_version(self) -> int:
        """The schema version recorded in the database."""
        async with self._pool.acquire() as conn:
            return await current_version(conn)

    async def load_game(self, game_id: int) -> GameRecord | None:
        """One game with its seats, open decisions and latest action per seat."""
        async with self._read() as conn:
            found = await conn.fetchrow(P["select_game"], game_id)
            if found is None:
                return None
            game = row.game(found)
            game.seats = [row.seat(r) for r in await conn.fetch(P["select_seats"], game_id)]
            game.decisions = [
                row.decision(r) for r in await conn.fetch(P["select_decisions"], game_id)
            ]
            for _, seat, seq in await conn.fetch(P["select_last_acted"], game_id):
                if seq is not None:
                    game.last_acted[int(seat)] = int(seq)
            return game

    async def load_active(self) -> list[GameRecord]:
        """Every lobby and running game, with seats, open decisions and deadlines."""
        async with self._read() as conn:
            games = {r[0]: row.game(r) for r in await conn.fetch(P["select_active_games"])}
            for r in await conn.fetch(P["select_active_seats"]):
                games[r[0]].seats.append(row.seat(r))
            for r in await conn.fetch(P["select_active_decisions"]):
                games[r[0]].decisions.append(row.decision(r))
            for gid, seat, seq in await conn.fetch(P["select_active_last_acted"]):
                if seq is not None:
                    games[gid].last_acted[int(seat)] = int(seq)
            return list(games.values())

    async def user_games(self, user_id: int) -> list[SeatedGame]:
        """The unfinished games where ``user_id`` holds a seat, oldest first, each with
        its seats and open decisions."""
        async with self._read() as conn:
            games = {
                int(r[0]): row.seated_game(r)
                for r in await conn.fetch(P["select_user_games"], user_id)
            }
            for r in await conn.fetch(P["select_user_game_seats"], user_id):
                games[r[0]].seats.append(row.seat(r))
            for r in await conn.fetch(P["select_user_game_decisions"], user_id):
                games[r[0]].decisions.append(row.decision(r))
            return list(games.values())

    async def active_game_in_channel(self, channel_id: int) -> int | None:
        """The id of the channel's lobby or running game, if any."""
        found = await self._pool.fetchval(P["select_active_in_channel"], channel_id)
        return None if found is None else int(found)

    async def played_in_channel(
        self, guild_id: int, channel_id: int, limit: int
    ) -> list[PlayedGame]:
        """The last ``limit`` games started in a server's channel, newest first."""
        found = await self._pool.fetch(P["select_played_in_channel"], guild_id, channel_id, limit)
        return row.played(found)

    async def actions(self, game_id: int, after: int = 0) -> list[ActionRecord]:
        """The action log of a game from ``seq`` ``after + 1`` on, in order."""
        return [row.action(r) for r in await self._pool.fetch(P["select_actions"], game_id, after)]

    async def last_actions(self, game_id: int, count: int) -> list[ActionRecord]:
        """The last ``count`` actions of a game, oldest first."""
        found = await self._pool.fetch(P["select_last_actions"], game_id, count)
        return [row.action(r) for r in found]

    # ------------------------------------------------------------------ lobby
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
        """Open a lobby (and seat its host); return the new game id.

        Raises:
            ChannelBusy: the channel has an active game (the database's unique index).
            GuildFull: the server is at its cap of active games (counted under the
                server's advisory lock, so concurrent lobbies are counted in turn).
        """
        async with self._tx() as conn:
            if guild_id is not None and max_games is not None:
                await conn.execute(
                    "SELECT pg_advisory_xact_lock($1, ($2::bigint % 2147483647)::integer)",
                    GUILD_CAP_LOCK,
                    guild_id,
                )
                active = int(await conn.fetchval(P["count_active_in_guild"], guild_id))
                if active >= max_games:
                    raise GuildFull(f"this server already has {active} active games")
            try:
                game_id = int(
                    await conn.fetchval(
                        P["insert_game"],
                        guild_id,
                        channel_id,
                        variant,
                        host_id,
                        row.dumps(settings.to_dict()),
                        now,
                    )
                )
            except asyncpg.UniqueViolationError as exc:
                raise ChannelBusy("a game is already open in this channel") from exc
            if host_seat is not None:
                await self._insert_seat(conn, game_id, host_seat)
            if expiry is not None:
                await conn.execute(P["upsert_decision"], *_decision_params(game_id, expiry))
            return game_id

    @staticmethod
    async def _insert_seat(conn: Conn, game_id: int, seat: NewSeat) -> None:
        await conn.execute(
            P["insert_seat"],
            game_id,
            seat.user_id,
            seat.computer_level,
            seat.display_name,
            seat.requested_power,
            seat.joined_at,
        )

    async def add_seat(
        self, game_id: int, revision: int, seat: NewSeat, expiry: DecisionRecord | None = None
    ) -> None:
        """Add a lobby entry (and refresh the lobby's expiry).

        Raises:
            StaleVersion: the game changed since ``revision``.
            SeatTaken: the user already holds a seat in this game.
        """
        async with self._tx() as conn:
            await self._bump(conn, game_id, revision, "lobby")
            try:
                await self._insert_seat(conn, game_id, seat)
            except asyncpg.UniqueViolationError as exc:
                raise SeatTaken("already seated in this game") from exc
            if expiry is not None:
                await conn.execute(P["upsert_decision"], *_decision_params(game_id, expiry))

    async def remove_seat(
        self,
        game_id: int,
        revision: int,
        seat_id: int,
        host_id: int | None,
        expiry: DecisionRecord | None = None,
    ) -> None:
        """Remove a lobby entry by its row id, set the host and refresh the expiry.

        Raises:
            StaleVersion: the game changed since ``revision``.
        """
        async with self._tx() as conn:
            if _count(await conn.execute(P["set_host"], host_id, game_id, revision)) != 1:
                raise StaleVersion(f"game {game_id} changed since revision {revision}")
            await conn.execute(P["delete_seat"], game_id, seat_id)
            if expiry is not None:
                await conn.execute(P["upsert_decision"], *_decision_params(game_id, expiry))

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
        async with self._tx() as conn:
            status = await conn.execute(
                P["update_lobby"], row.dumps(settings.to_dict()), host_id, game_id, revision
            )
            if _count(status) != 1:
                raise StaleVersion(f"game {game_id} changed since revision {revision}")
            if expiry is not None:
                await conn.execute(P["upsert_decision"], *_decision_params(game_id, expiry))

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
        """Turn a lobby into a running game at version 0.

        Raises:
            StaleVersion: the game changed since ``revision`` or is no longer a lobby.
        """
        async with self._tx() as conn:
            status = await conn.execute(
                P["start_game"],
                row.dumps(creation),
                row.dumps(start_events),
                row.dumps(state),
                now,
                game_id,
                revision,
            )
            if _count(status) != 1:
                raise StaleVersion(f"game {game_id} changed since revision {revision}")
            await conn.executemany(
                P["seat_started"],
                [(seat, power, name, game_id, row_id) for row_id, seat, power, name in seats],
            )
            await conn.execute(P["delete_decisions"], game_id)
            await conn.executemany(
                P["upsert_decision"], [_decision_params(game_id, d) for d in decisions]
            )

    # ------------------------------------------------------------------ play
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
        and revision bump and the changed decisions, in one statement (atomic). A
        ``result`` marks the game finished; ``owe``: the game's channel is owed the
        action's message; ``undo_point``: it may be taken back (see
        :meth:`record_undo`). Actions that arrive while a batch is written go into the
        next one together (see :meth:`_flush`); returns once committed.

        Raises:
            StaleVersion: the game changed since ``revision`` / ``version`` (nothing was
                written).
            InvalidRecord: an unknown ``source`` (nothing was written).
        """
        new = list(upserted)
        written = {(d.seat, d.kind) for d in new}
        gone = [key for key in removed if key not in written]  # rewritten beats removed
        params: list[Any] = [
            row.dumps(state),
            game_id,
            revision,
            version,
            seat,
            user_id,
            source,
            row.dumps(action),
            row.dumps(events),
            now,
            owe,
            [s for s, _ in gone],
            [k for _, k in gone],
            [d.seat for d in new],
            [d.kind for d in new],
            [d.opened_version for d in new],
            [d.duration for d in new],
            [d.due_at for d in new],
            [d.remind_at for d in new],
        ]
        if result is not None:
            params.append(row.dumps(result))
        else:
            params.append(row.dumps(undo_point.to_dict()) if undo_point is not None else None)
        write = _Write(
            params,
            result is not None,
            f"game {game_id} changed since revision {revision}",
            asyncio.get_running_loop().create_future(),
        )
        self._queue.append(write)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush())
        await write.done

    async def _flush(self) -> None:
        """Group commit: the actions queued while a batch is written go into the next
        one — one transaction, one round trip per run of statements, one commit. A caller
        learns its outcome only after the commit."""
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                started = time.perf_counter()
                try:
                    if self._writer is None:  # the flusher keeps a connection of its own
                        self._writer = await self._pool.acquire()
                    await _write_batch(self._writer, batch)
                except Exception as exc:
                    await self._drop_writer()
                    mine = _translated(exc)
                    if not isinstance(mine, InvalidRecord):
                        self.metrics.error("store")
                    _fail(batch, mine)
                    continue
                self.metrics.db_write(time.perf_counter() - started)
                for write in batch:
                    if write.done.done():
                        continue
                    if write.error is not None:
                        write.done.set_exception(write.error)
                    elif write.changed != 1:
                        write.done.set_exception(StaleVersion(write.stale_message))
                    else:
                        write.done.set_result(None)
        finally:
            if self._queue:  # only if interrupted: nobody must wait forever
                _fail(self._queue, StoreError("the store was interrupted"))
                self._queue = []

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
        """Take back action ``undoes`` (see the Protocol).

        Raises:
            StaleVersion: the game changed, is not running or keeps no undo point.
        """
        async with self._tx() as conn:
            done = await conn.execute(
                P["record_undo"], row.dumps(state), game_id, revision, version
            )
            if _count(done) != 1:
                raise StaleVersion(f"game {game_id} changed since revision {revision}")
            await conn.execute(
                P["insert_undo"],
                game_id,
                version + 1,
                seat,
                user_id,
                row.dumps({"undoes": undoes}),
                now,
                undoes,
            )
            if owe:
                await conn.execute(P["owe_announcement"], game_id, version + 1)
            await conn.execute(P["delete_decisions"], game_id)
            await conn.executemany(
                P["upsert_decision"], [_decision_params(game_id, d) for d in decisions]
            )

    async def mark_reminded(self, game_id: int, seat: int, kind: str, opened_version: int) -> bool:
        """Clear a decision's reminder; True when this call cleared it (send it once)."""
        async with self._tx() as conn:
            status = await conn.execute(P["mark_reminded"], game_id, seat, kind, opened_version)
            return _count(status) == 1

    async def end_game(
        self, game_id: int, revision: int, status: str, result: dict[str, Any] | None, now: float
    ) -> None:
        """Cancel or archive an active game: its open decisions are dropped.

        Raises:
            StaleVersion: the game changed since ``revision`` or is not active.
        """
        async with self._tx() as conn:
            done = await conn.execute(
                P["end_game"],
                status,
                now,
                row.dumps(result) if result is not None else None,
                game_id,
                revision,
            )
            if _count(done) != 1:
                raise StaleVersion(f"game {game_id} changed since revision {revision}")
            await conn.execute(P["delete_decisions"], game_id)

    async def set_paused(
        self,
        game_id: int,
        revision: int,
        paused_at: float | None,
        decisions: Iterable[DecisionRecord],
        hold: tuple[int, str] | None = None,
    ) -> None:
        """Pause (``paused_at`` set) or resume (None) a game, rewriting its deadlines;
        ``hold``: (channel id, missing permission) the bot paused it for.

        Raises:
            StaleVersion: the game changed since ``revision`` or is not running.
        """
        async with self._tx() as conn:
            if _count(await conn.execute(P["set_paused"], paused_at, game_id, revision)) != 1:
                raise StaleVersion(f"game {game_id} changed since revision {revision}")
            await conn.executemany(
                P["upsert_decision"], [_decision_params(game_id, d) for d in decisions]
            )
            if hold is not None:
                await conn.execute(P["upsert_hold"], hold[0], game_id, 1, hold[1])

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
        """Hand an engine seat to another person or a computer.

        Raises:
            StaleVersion: the game changed since ``revision``.
            SeatTaken: that person already holds another seat in the game.
        """
        async with self._tx() as conn:
            await self._bump(conn, game_id, revision, "running")
            await conn.execute(P["record_departure"], now, game_id, seat)
            try:
                await conn.execute(
                    P["replace_seat"], user_id, computer_level, display_name, now, game_id, seat
                )
            except asyncpg.UniqueViolationError as exc:
                raise SeatTaken("that person already holds a seat in this game") from exc

    async def set_draw_vote(self, game_id: int, revision: int, seat: int, agree: bool) -> None:
        """Record a seat's agreement to a draw.

        Raises:
            StaleVersion: the game changed since ``revision``.
        """
        async with self._tx() as conn:
            await self._bump(conn, game_id, revision, "running")
            await conn.execute(P["set_draw_vote"], int(agree), game_id, seat)

    # ------------------------------------------------------------------ ratings
    async def unrated_games(self, limit: int) -> list[FinishedGame]:
        """The first ``limit`` finished server games not rated yet, in the order they
        ended, with seats and departures."""
        async with self._read() as conn:
            games = await conn.fetch(P["select_unrated"], limit)
            seats = await conn.fetch(P["select_unrated_seats"], limit)
            gone = await conn.fetch(P["select_unrated_departures"], limit)
        return row.finished_games(games, seats, gone)

    async def rated_games(self) -> tuple[int, list[FinishedGame]]:
        """(the ratings' head, every rated game in the rating order)."""
        async with self._read() as conn:
            head = int(await conn.fetchval(P["select_rating_head"]))
            games = await conn.fetch(P["select_rated"])
            seats = await conn.fetch(P["select_rated_seats"])
            gone = await conn.fetch(P["select_rated_departures"])
        return head, row.finished_games(games, seats, gone)

    async def ratings_of(self, variant: str, user_ids: Iterable[int]) -> tuple[int, list[Rating]]:
        """(the ratings' head, the ratings in ``variant`` of those of ``user_ids`` who
        have one)."""
        async with self._read() as conn:
            head = int(await conn.fetchval(P["select_rating_head"]))
            found = []
            for uid in sorted(set(user_ids)):
                found += await conn.fetch(P["select_rating"], variant, uid)
        return head, [row.rating(r) for r in found]

    async def record_ratings(
        self,
        game_id: int,
        head: int,
        results: Iterable[PlayerResult],
        ratings: Iterable[Rating],
    ) -> None:
        """Rate finished game ``game_id`` as step ``head + 1`` (see
        :meth:`service.store.Store.record_ratings`); a concurrent writer of the ratings
        waits on the head's row and then finds it moved on.

        Raises:
            StaleVersion: the ratings moved on since ``head``, or the game is not
                finished or already rated.
        """
        async with self._tx() as conn:
            await self._move_head(conn, head)
            if _count(await conn.execute(P["set_rating_seq"], head + 1, game_id)) != 1:
                raise StaleVersion(f"game {game_id} is not a finished game waiting for ratings")
            await conn.executemany(
                P["insert_player_result"], [row.result_params(r) for r in results]
            )
            await conn.executemany(P["upsert_rating"], [row.rating_params(r) for r in ratings])

    async def replace_ratings(
        self, head: int, results: Iterable[PlayerResult], ratings: Iterable[Rating]
    ) -> None:
        """Replace every result and rating (a rebuild) as step ``head + 1``.

        Raises:
            StaleVersion: the ratings moved on since ``head``.
        """
        async with self._tx() as conn:
            await self._move_head(conn, head)
            await conn.execute(P["delete_player_results"])
            await conn.execute(P["delete_ratings"])
            await conn.executemany(
                P["insert_player_result"], [row.result_params(r) for r in results]
            )
            await conn.executemany(P["upsert_rating"], [row.rating_params(r) for r in ratings])

    @staticmethod
    async def _move_head(conn: Conn, head: int) -> None:
        if _count(await conn.execute(P["move_rating_head"], head)) != 1:
            raise StaleVersion(f"the ratings moved on since step {head}")

    async def leaderboard(
        self, variant: str, guild_id: int | None, limit: int
    ) -> tuple[list[Rating], int]:
        """(the best ``limit`` ratings in ``variant``, everyone's or of those who played
        a rated game of it in server ``guild_id``; how many there are)."""
        async with self._read() as conn:
            if guild_id is None:
                found = await conn.fetch(P["select_leaderboard"], variant, limit)
                total = await conn.fetchval(P["count_ratings"], variant)
            else:
                scope = (variant, variant, guild_id)
                found = await conn.fetch(P["select_guild_leaderboard"], *scope, limit)
                total = await conn.fetchval(P["count_guild_ratings"], *scope)
        return [row.rating(r) for r in found], int(total)

    async def leaderboard_place(
        self, variant: str, user_id: int, guild_id: int | None
    ) -> tuple[int, Rating] | None:
        """(place, rating) of ``user_id`` on :meth:`leaderboard`'s list, or None."""
        async with self._read() as conn:
            found = await conn.fetchrow(P["select_rating"], variant, user_id)
            if found is None:
                return None
            mine = row.rating(found)
            above = (mine.ordinal, mine.ordinal, mine.games, mine.games, user_id)
            if guild_id is None:
                count = await conn.fetchval(P["count_above"], variant, *above)
            else:
                if not await conn.fetchval(P["rated_in_guild"], variant, guild_id, user_id):
                    return None
                count = await conn.fetchval(
                    P["count_guild_above"], variant, variant, guild_id, *above
                )
        return int(count) + 1, mine

    async def user_ratings(self, user_id: int) -> list[Rating]:
        """``user_id``'s rating in every game kind they were rated in."""
        return [row.rating(r) for r in await self._pool.fetch(P["select_user_ratings"], user_id)]

    async def user_results(self, user_id: int) -> list[PlayerResult]:
        """``user_id``'s result of every finished game the ratings took in."""
        return [row.result(r) for r in await self._pool.fetch(P["select_user_results"], user_id)]

    # ------------------------------------------------------------------ hints
    async def count_hint(self, game_id: int, user_id: int) -> int:
        """Count one more hint taken by ``user_id`` in ``game_id``; return how many that
        person has taken in that game now."""
        async with self._tx() as conn:
            return int(await conn.fetchval(P["upsert_hint"], game_id, user_id))

    async def hints_taken(self, user_id: int, game_id: int | None = None) -> int:
        """How many hints ``user_id`` has taken: in ``game_id``, or in every game."""
        if game_id is None:
            found = await self._pool.fetchval(P["select_hints_of_user"], user_id)
        else:
            found = await self._pool.fetchval(P["select_hints_in_game"], game_id, user_id)
        return 0 if found is None else int(found)

    # ------------------------------------------------------------------ servers
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (the defaults when it never changed them)."""
        found = await self._pool.fetchrow(P["select_guild_settings"], guild_id)
        if found is None:
            return GuildSettings(guild_id)
        g, turn, lead, expiry, cap, options, language = found
        return GuildSettings(
            int(g),
            float(turn),
            float(lead),
            float(expiry),
            int(cap),
            row.loads(options),
            None if language is None else str(language),
        )

    async def save_guild_settings(self, settings: GuildSettings, now: float) -> None:
        """Store a server's settings."""
        s = settings
        async with self._tx() as conn:
            await conn.execute(
                P["upsert_guild_settings"],
                s.guild_id,
                s.turn_timeout,
                s.reminder_lead,
                s.lobby_expiry,
                s.max_games,
                row.dumps(dict(s.options)),
                s.language,
                now,
            )

    async def archive(
        self, *, channel_id: int | None = None, guild_id: int | None = None, now: float
    ) -> list[int]:
        """Archive the active games of a channel or a whole server; return their ids."""
        async with self._tx() as conn:
            if channel_id is not None:
                found = await conn.fetch(P["select_active_in_channel"], channel_id)
            else:
                found = await conn.fetch(P["select_active_ids_in_guild"], guild_id)
            ids = [int(r[0]) for r in found]
            for gid in ids:
                await conn.execute(P["archive_by_id"], now, gid)
                await conn.execute(P["delete_decisions"], gid)
            return ids

    async def delete_guild(self, guild_id: int) -> int:
        """Delete every game (with seats, log and decisions), the settings and the
        recorded departure of a server; return how many games were deleted."""
        async with self._tx() as conn:
            deleted = _count(await conn.execute(P["delete_guild_games"], guild_id))
            await conn.execute(P["delete_guild_settings"], guild_id)
            await conn.execute(P["delete_guild_departure"], guild_id)
            return deleted

    async def record_departure(self, guild_id: int, when: float) -> None:
        """The bot was removed from ``guild_id`` at ``when`` (the first departure
        counts until it is forgotten)."""
        async with self._tx() as conn:
            await conn.execute(P["insert_guild_departure"], guild_id, when)

    async def forget_departure(self, guild_id: int) -> None:
        """The bot is back in ``guild_id`` (or its data was deleted): no departure."""
        async with self._tx() as conn:
            await conn.execute(P["delete_guild_departure"], guild_id)

    async def departures(self) -> dict[int, float]:
        """Every recorded departure: server id -> when the bot left it."""
        found = await self._pool.fetch(P["select_guild_departures"])
        return {int(g): float(t) for g, t in found}

    async def departures_due(self, left_before: float) -> list[int]:
        """Servers the bot left at or before ``left_before``, longest gone first."""
        return [int(r[0]) for r in await self._pool.fetch(P["select_departures_due"], left_before)]

    # ------------------------------------------------------------------ Discord messages
    async def game_messages(self, game_id: int) -> GameMessages:
        """The messages the bot keeps editing for a game (all None if none recorded)."""
        found = await self._pool.fetchrow(P["select_game_messages"], game_id)
        return GameMessages(*found) if found is not None else GameMessages()

    async def set_lobby_message(
        self, game_id: int, channel_id: int | None, message_id: int | None
    ) -> None:
        """Record (or, with None, forget) a game's lobby message (nothing for a game that
        no longer exists)."""
        async with self._tx() as conn:
            await conn.execute(P["upsert_lobby_message"], channel_id, message_id, game_id)

    async def set_duel_message(self, game_id: int, message_id: int | None) -> None:
        """Record (or, with None, forget) the message of a game's duel under way."""
        async with self._tx() as conn:
            await conn.execute(P["upsert_duel_message"], message_id, game_id)

    async def set_undo_offer(self, game_id: int, offer: UndoOffer | None) -> None:
        """Record (or, with None, forget) a game's *Undo* button (see the Protocol)."""
        data = row.dumps(offer.to_dict()) if offer is not None else None
        async with self._tx() as conn:
            await conn.execute(P["upsert_undo_offer"], data, game_id)

    async def undo_offers(self) -> dict[int, UndoOffer]:
        """Every game's recorded *Undo* button, by game id."""
        found = await self._pool.fetch(P["select_undo_offers"])
        return {int(g): UndoOffer.from_dict(row.loads(o)) for g, o in found}

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        """Mark ``user_id``'s seats in every unfinished game: their DMs are closed (or
        open again)."""
        async with self._tx() as conn:
            await conn.execute(P["set_user_dms_closed"], int(closed), user_id, int(closed))

    async def users_with_dms_closed(self) -> set[int]:
        """People seated in an unfinished game whose DMs are known to be closed."""
        return {int(r[0]) for r in await self._pool.fetch(P["select_users_dms_closed"])}

    # ------------------------------------------------------------------ the outbox
    async def outbox_add(self, item: OutboxRecord, announces: int | None = None) -> int:
        """Keep an item the bot owes Discord, with its files; returns its id.
        ``announces``: in the same transaction, the game's actions up to this version
        stop being owed (see :meth:`announced`)."""
        async with self._tx() as conn:
            if announces is not None and item.game_id is not None:
                await self._announced(conn, item.game_id, announces)
            item_id = int(
                await conn.fetchval(
                    P["insert_outbox"],
                    item.game_id,
                    item.kind,
                    item.channel_id,
                    item.user_id,
                    item.message_id,
                    item.priority,
                    item.merge_key,
                    row.dumps(item.payload),
                    row.dumps(item.meta),
                    item.created_at,
                )
            )
            await self._outbox_files(conn, item_id, item.files)
        return item_id

    async def outbox_update(self, item: OutboxRecord, announces: int | None = None) -> None:
        """Rewrite a kept item (it was coalesced with a newer one); ``announces`` as for
        :meth:`outbox_add`."""
        async with self._tx() as conn:
            if announces is not None and item.game_id is not None:
                await self._announced(conn, item.game_id, announces)
            await conn.execute(
                P["update_outbox"],
                item.priority,
                item.merge_key,
                row.dumps(item.payload),
                row.dumps(item.meta),
                item.id,
            )
            await conn.execute(P["delete_outbox_files"], item.id)
            await self._outbox_files(conn, item.id or 0, item.files)

    @staticmethod
    async def _outbox_files(conn: Conn, item_id: int, files: Sequence[OutboxFile]) -> None:
        await conn.executemany(
            P["insert_outbox_file"],
            [(item_id, i, f.filename, f.description, f.data) for i, f in enumerate(files)],
        )

    async def outbox_remove(self, item_ids: Iterable[int]) -> None:
        """Forget items that were sent (or given up); their files go with them."""
        ids = list(item_ids)
        if ids:
            async with self._tx() as conn:
                await conn.execute("DELETE FROM outbox WHERE id = ANY($1::bigint[])", ids)

    async def outbox_items(self) -> list[OutboxRecord]:
        """Every kept item, oldest first, with its files."""
        async with self._read() as conn:
            found = await conn.fetch(P["select_outbox"])
            files = await conn.fetch(P["select_outbox_files"])
        items = {int(r[0]): row.outbox(r) for r in found}
        for item_id, filename, description, data in files:
            if item_id in items:
                items[item_id].files.append(OutboxFile(filename, bytes(data), description))
        return list(items.values())

    # ------------------------------------------------------------------ owed to channels
    async def announced(self, game_id: int, version: int) -> None:
        """Game ``game_id``'s channel has been told of its actions up to ``version``."""
        async with self._tx() as conn:
            await self._announced(conn, game_id, version)

    @staticmethod
    async def _announced(conn: Conn, game_id: int, version: int) -> None:
        await conn.execute(P["move_announcement"], version, game_id, version)
        await conn.execute(P["settle_announcement"], game_id, game_id)

    async def announcements(self) -> list[tuple[int, int]]:
        """(game id, first action not announced) of every game whose channel is owed the
        message of a committed action."""
        return [(int(r[0]), int(r[1])) for r in await self._pool.fetch(P["select_announcements"])]

    async def hold_channel(self, channel_id: int, game_id: int, paused: bool, missing: str) -> None:
        """Keep that ``channel_id`` (of ``game_id``) refuses the bot for a ``missing``
        permission, and whether the bot paused the game for it."""
        async with self._tx() as conn:
            await conn.execute(P["upsert_hold"], channel_id, game_id, int(paused), missing)

    async def release_channel(self, channel_id: int) -> None:
        """The channel no longer refuses the bot (or is gone)."""
        async with self._tx() as conn:
            await conn.execute(P["delete_hold"], channel_id)

    async def held_channels(self) -> list[tuple[int, int, bool, str]]:
        """(channel id, game id, paused by the bot, missing) of every held channel."""
        found = await self._pool.fetch(P["select_holds"])
        return [(int(r[0]), int(r[1]), bool(r[2]), str(r[3])) for r in found]

    # ------------------------------------------------------------------ users, the bot
    async def user_pings(self, user_id: int) -> bool:
        """Whether ``user_id`` wants to be pinged when it is their move (default yes)."""
        found = await self._pool.fetchval(P["select_user_pings"], user_id)
        return True if found is None else bool(found)

    async def set_user_pings(self, user_id: int, on: bool, now: float) -> None:
        """Turn ``user_id``'s turn pings on or off."""
        async with self._tx() as conn:
            await conn.execute(P["upsert_user_pings"], user_id, int(on), now)

    async def user_locales(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The client language last seen of each of ``user_ids`` who was ever seen."""
        found = await self._pool.fetch(
            "SELECT user_id, locale FROM user_locales WHERE user_id = ANY($1::bigint[])",
            sorted(set(user_ids)),
        )
        return {int(r[0]): str(r[1]) for r in found}

    async def set_user_locale(self, user_id: int, locale: str, now: float) -> None:
        """Remember ``locale`` as ``user_id``'s client language, seen at ``now``."""
        async with self._tx() as conn:
            await conn.execute(P["upsert_user_locale"], user_id, locale, now)

    async def meta(self, key: str) -> str | None:
        """A fact the bot keeps about itself (``bot_meta``), or None."""
        found = await self._pool.fetchval(P["select_meta"], key)
        return None if found is None else str(found)

    async def set_meta(self, key: str, value: str) -> None:
        """Store a fact the bot keeps about itself."""
        async with self._tx() as conn:
            await conn.execute(P["upsert_meta"], key, value)


_SETTINGS = {"application_name": "european-war-bot"}
"""Server settings of every connection (``application_name`` names it in
``pg_stat_activity``)."""

"""The SQLite store (:class:`SqliteStore`, implementing :class:`service.store.Store`): one
SQLite file through aiosqlite, raw SQL in named queries (:mod:`service.sql`), the schema
in :mod:`service.migrations`.

One connection per process, in WAL mode with foreign keys on and
``synchronous=NORMAL`` by default: a committed action survives a crash or kill of the
process (it is in the WAL, handed to the operating system), but the last commits before a
power cut or kernel crash may be lost — the file stays consistent either way. ``FULL``
(an fsync per commit, ~10 ms on these machines) is one argument away. Every method is one
transaction or one consistent read; an ``asyncio.Lock`` keeps the coroutines of this
process from interleaving statements on the shared connection, and ``BEGIN IMMEDIATE``
plus ``busy_timeout`` serialise writers of different processes.

Actions use group commit: the writes queued while a batch is being written go into the
next transaction together — all or nothing per action, one COMMIT per batch — and the
whole batch is one call into the connection's thread instead of one round trip per
statement (see :func:`_write_batch`). WAL checkpoints run on a second connection in the
background (``wal_autocheckpoint`` is off on the writing one), so no commit waits for a
checkpoint's copy and fsync. Together that keeps thousands of actions a second.

A full disk (``SQLITE_FULL``) is :class:`StoreFull`: nothing of the write is kept, and the
same write succeeds once there is space again.

Optimistic concurrency: every write to a game names the ``revision`` it was computed
from and bumps it in the same transaction (``UPDATE games … WHERE id = ? AND revision =
?``); if another writer got there first, nothing is written and :class:`StaleVersion` is
raised. An action additionally checks the game ``version`` (the number of actions), so the
log stays contiguous: action ``seq`` n is written only over version n - 1.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

import aiosqlite

from . import rows as row
from .migrations import MIGRATIONS, Migration, migrate
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

log = logging.getLogger("service.store")
CHECKPOINT_EVERY = 200
"""Writes between two background WAL checkpoints."""


_dumps = row.dumps


_Step = tuple[str, str, Any]
"""(``execute`` | ``executemany``, SQL, parameters)."""


@dataclass(slots=True)
class _Write:
    """One queued action write: its statements (the first must change exactly one row,
    else the write is stale), and the future its caller awaits."""

    steps: list[_Step]
    stale_message: str
    done: asyncio.Future[None]
    error: BaseException | None = None


def _fail(batch: list[_Write], exc: BaseException) -> None:
    for write in batch:
        if not write.done.done():
            write.done.set_exception(
                exc if isinstance(exc, Exception) else StoreError("the store was interrupted")
            )


def _is_full(exc: BaseException) -> bool:
    """SQLite's SQLITE_FULL: the disk (or the file's page limit) is full."""
    code = getattr(exc, "sqlite_errorcode", None)
    return (
        isinstance(exc, sqlite3.Error) and code is not None and (code & 0xFF) == sqlite3.SQLITE_FULL
    )


def _translated(exc: BaseException) -> BaseException:
    """SQLite's error as the store's: a full disk as :class:`StoreFull`, a broken
    constraint as :class:`InvalidRecord`; anything else unchanged."""
    mine: StoreError
    if _is_full(exc):
        mine = StoreFull("the disk holding the database is full; nothing was written")
    elif isinstance(exc, sqlite3.IntegrityError):
        mine = InvalidRecord(f"the database refused the record: {exc}")
    else:
        return exc
    mine.__cause__ = exc
    return mine


T = TypeVar("T")


class _HandsOff(Protocol):
    """aiosqlite's hand-off of one call to its connection's thread (private and untyped
    there; this is its signature)."""

    async def _execute(self, fn: Callable[..., T], *args: Any) -> T: ...


async def _in_thread(conn: aiosqlite.Connection, fn: Callable[..., T], *args: Any) -> T:
    """``fn(db, *args)`` in ``conn``'s thread, ``db`` being its sqlite3 connection: one
    hand-off however many statements ``fn`` runs (aiosqlite has no public way)."""
    return await cast(_HandsOff, conn)._execute(fn, conn._conn, *args)


def _write_batch(db: sqlite3.Connection, batch: list[_Write]) -> None:
    """Group commit, run in the connection's thread: every write of the batch in one
    transaction, one COMMIT. A write whose guard (its first statement) changes no row is
    stale and leaves nothing; one that fails after its guard (never expected: the guard
    checks what its other statements rely on) spoils the transaction, which is rolled back
    and written again without it. A full disk (or a transaction SQLite rolled back
    itself) fails the whole batch: nothing of it is written.

    No savepoint per write: each would be two more calls into SQLite, and every call
    from this thread waits for the interpreter lock while the event loop is busy."""
    for write in batch:
        write.error = None
    while True:
        spoiled = False
        db.execute("BEGIN IMMEDIATE")
        try:
            for write in batch:
                if write.error is not None and not isinstance(write.error, StaleVersion):
                    continue  # failed in an earlier pass: left out
                write.error = None
                how, sql, params = write.steps[0]
                try:
                    cur = getattr(db, how)(sql, params)
                except sqlite3.Error as exc:  # the statement alone was undone
                    if _is_full(exc) or not db.in_transaction:
                        raise
                    write.error = _translated(exc)
                    continue
                if cur.rowcount != 1:
                    write.error = StaleVersion(write.stale_message)
                    continue
                try:
                    for how, sql, params in write.steps[1:]:
                        getattr(db, how)(sql, params)
                except sqlite3.Error as exc:
                    if _is_full(exc) or not db.in_transaction:
                        raise
                    write.error = _translated(exc)
                    spoiled = True
                    break
            if spoiled:
                db.execute("ROLLBACK")
                continue
            db.execute("COMMIT")
            return
        except BaseException:
            if db.in_transaction:
                with suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            raise


def _decision_params(game_id: int, d: DecisionRecord) -> tuple[Any, ...]:
    return (game_id, d.seat, d.kind, d.opened_version, d.duration, d.due_at, d.remind_at)


async def _set_wal(conn: aiosqlite.Connection, timeout: float) -> None:
    """Switch ``conn`` to WAL mode. While another connection opens the same new file,
    SQLite may answer "database is locked" at once, without waiting ``busy_timeout``:
    try again for up to ``timeout`` seconds.

    Raises:
        sqlite3.OperationalError: still locked after ``timeout``, or another fault.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or loop.time() >= deadline:
                raise
            await asyncio.sleep(0.01)


class SqliteStore:
    """The SQLite game store. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, conn: aiosqlite.Connection, path: Path, synchronous: str = "NORMAL") -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._queue: list[_Write] = []
        self._flusher: asyncio.Task[None] | None = None
        self._synchronous = synchronous
        self._unchecked = 0
        self._checkpointer: asyncio.Task[None] | None = None
        self._checkpoint_conn: aiosqlite.Connection | None = None
        self.owner: Any = None
        """Whatever else must be released on :meth:`close` (the owner lock of the bot)."""
        self.path = path
        self.metrics: StoreMetrics = NO_METRICS
        """Where commit times and faults are counted (the bot sets its own)."""

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: str = "NORMAL",
        migrations: Sequence[Migration] = MIGRATIONS,
        busy_timeout_ms: int = 10_000,
    ) -> SqliteStore:
        """Open (creating parent folders and the file if needed) and migrate the store.

        Raises:
            MigrationError: the schema cannot be brought up to date.
            ValueError: an unknown ``synchronous`` level.
        """
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"unknown synchronous level {synchronous!r}")
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await _set_wal(conn, busy_timeout_ms / 1000)
            await conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            await conn.execute("PRAGMA wal_autocheckpoint = 0")  # see _checkpoint
            await conn.execute("PRAGMA foreign_keys = ON")
            await migrate(conn, migrations=migrations)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path, synchronous.upper())

    async def close(self) -> None:
        """Wait for queued writes and the transaction in flight, then close (the last
        connection to close checkpoints the WAL into the file)."""
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        if self._checkpointer is not None:
            await asyncio.gather(self._checkpointer, return_exceptions=True)
        if self._checkpoint_conn is not None:
            await self._checkpoint_conn.close()
        async with self._lock:
            await self._conn.close()
        if self.owner is not None:
            self.owner.release()
            self.owner = None

    async def claim_lease(self, name: str, holder: str, now: float, ttl: float) -> bool:
        """Take or renew lease ``name`` for ``holder`` until ``now + ttl`` (see
        :meth:`service.store.Store.claim_lease`)."""
        async with self._tx() as conn:
            cur = await conn.execute(Q.claim_lease, (name, holder, now + ttl, now))
            return cur.rowcount == 1

    async def release_lease(self, name: str, holder: str) -> None:
        """Give up ``holder``'s lease ``name``."""
        async with self._tx() as conn:
            await conn.execute(Q.release_lease, (name, holder))

    async def lease(self, name: str) -> tuple[str, float] | None:
        """(holder, expires at) of lease ``name``, or None."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_lease, (name,))
        return (str(rows[0][0]), float(rows[0][1])) if rows else None

    async def publish(self, game_id: int) -> None:
        """Nothing: one process owns an SQLite store (the console plays only its own
        games beside the bot)."""

    async def subscribe(self, handler: Callable[[int], None]) -> None:
        """Nothing to hear: see :meth:`publish`."""

    async def probe_write(self) -> None:
        """Start a write transaction and roll it back (nothing is written): proves that
        no other program holds the write lock beyond the busy timeout.

        Raises:
            sqlite3.OperationalError: locked, read-only, … as SQLite reports it.
        """
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            await self._conn.execute("ROLLBACK")

    def _wrote(self, writes: int) -> None:
        """Count committed writes; start a background checkpoint every so many."""
        self._unchecked += writes
        if self._unchecked < CHECKPOINT_EVERY or (
            self._checkpointer is not None and not self._checkpointer.done()
        ):
            return
        self._unchecked = 0
        self._checkpointer = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        """Copy the WAL into the file on a connection of its own, in its own thread:
        PASSIVE never blocks the writer, so commits go on meanwhile."""
        try:
            if self._checkpoint_conn is None:
                self._checkpoint_conn = await aiosqlite.connect(self.path, isolation_level=None)
                await self._checkpoint_conn.execute(f"PRAGMA synchronous = {self._synchronous}")
                await self._checkpoint_conn.execute("PRAGMA wal_autocheckpoint = 0")
            await self._checkpoint_conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:
            log.warning("a WAL checkpoint failed; the next one tries again", exc_info=True)

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction: commits on success, rolls back on any exception."""
        async with self._lock:
            conn = self._conn
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException as exc:
                with suppress(Exception):
                    await conn.execute("ROLLBACK")
                if _is_full(exc):
                    self.metrics.error("store")
                mine = _translated(exc)
                if mine is not exc:
                    raise mine from exc
                raise
            try:
                await conn.execute("COMMIT")
            except BaseException as exc:
                with suppress(Exception):
                    await conn.execute("ROLLBACK")
                if isinstance(exc, Exception):
                    self.metrics.error("store")
                mine = _translated(exc)
                if mine is not exc:
                    raise mine from exc
                raise
            self._wrote(1)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A consistent multi-statement read (one snapshot)."""
        async with self._lock:
            conn = self._conn
            await conn.execute("BEGIN")
            try:
                yield conn
            finally:
                with suppress(Exception):
                    await conn.execute("COMMIT")

    async def _fetchall(
        self, conn: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()
    ) -> list[Any]:
        cur = await conn.execute(sql, params)
        return list(await cur.fetchall())

    @staticmethod
    async def _bump(conn: aiosqlite.Connection, game_id: int, revision: int, status: str) -> None:
        cur = await conn.execute(Q.bump, (game_id, revision, status))
        if cur.rowcount != 1:
            raise StaleVersion(f"game {game_id} changed since revision {revision}")

    # ------------------------------------------------------------------ reading games
    async def schema_version(self) -> int:
        """The schema version recorded in the file."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.schema_version)
            return int(rows[0][0])

    async def load_game(self, game_id: int) -> GameRecord | None:
        """One game with its seats, open decisions and latest action per seat."""
        async with self._read() as conn:
            rows = await self._fetchall(conn, Q.select_game, (game_id,))
            if not rows:
                return None
            game = self._game(rows[0])
            game.seats = [
                self._seat(r) for r in await self._fetchall(conn, Q.select_seats, (game_id,))
            ]
            game.decisions = [
                self._decision(r)
                for r in await self._fetchall(conn, Q.select_decisions, (game_id,))
            ]
            for _, seat, seq in await self._fetchall(conn, Q.select_last_acted, (game_id,)):
                if seq is not None:
                    game.last_acted[int(seat)] = int(seq)
            return game

    async def load_active(self) -> list[GameRecord]:
        """Every lobby and running game, with seats, open decisions and deadlines."""
        async with self._read() as conn:
            games = {r[0]: self._game(r) for r in await self._fetchall(conn, Q.select_active_games)}
            for r in await self._fetchall(conn, Q.select_active_seats):
                games[r[0]].seats.append(self._seat(r))
            for r in await self._fetchall(conn, Q.select_active_decisions):
                games[r[0]].decisions.append(self._decision(r))
            for gid, seat, seq in await self._fetchall(conn, Q.select_active_last_acted):
                if seq is not None:
                    games[gid].last_acted[int(seat)] = int(seq)
            return list(games.values())

    async def user_games(self, user_id: int) -> list[SeatedGame]:
        """The unfinished games where ``user_id`` holds a seat, oldest first, each with
        its seats and open decisions."""
        async with self._read() as conn:
            games = {
                int(r[0]): row.seated_game(r)
                for r in await self._fetchall(conn, Q.select_user_games, (user_id,))
            }
            for r in await self._fetchall(conn, Q.select_user_game_seats, (user_id,)):
                games[r[0]].seats.append(self._seat(r))
            for r in await self._fetchall(conn, Q.select_user_game_decisions, (user_id,)):
                games[r[0]].decisions.append(self._decision(r))
            return list(games.values())

    async def active_game_in_channel(self, channel_id: int) -> int | None:
        """The id of the channel's lobby or running game, if any."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_active_in_channel, (channel_id,))
            return int(rows[0][0]) if rows else None

    async def played_in_channel(
        self, guild_id: int, channel_id: int, limit: int
    ) -> list[PlayedGame]:
        """The last ``limit`` games started in a server's channel, newest first."""
        async with self._lock:
            rows = await self._fetchall(
                self._conn, Q.select_played_in_channel, (guild_id, channel_id, limit)
            )
        return row.played(rows)

    async def actions(self, game_id: int, after: int = 0) -> list[ActionRecord]:
        """The action log of a game from ``seq`` ``after + 1`` on, in order."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_actions, (game_id, after))
        return [self._action(r) for r in rows]

    async def last_actions(self, game_id: int, count: int) -> list[ActionRecord]:
        """The last ``count`` actions of a game, oldest first."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_last_actions, (game_id, count))
        return [self._action(r) for r in rows]

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
            GuildFull: the server is at its cap of active games.
        """
        async with self._tx() as conn:
            if guild_id is not None and max_games is not None:
                rows = await self._fetchall(conn, Q.count_active_in_guild, (guild_id,))
                if rows[0][0] >= max_games:
                    raise GuildFull(f"this server already has {rows[0][0]} active games")
            try:
                cur = await conn.execute(
                    Q.insert_game,
                    (guild_id, channel_id, variant, host_id, _dumps(settings.to_dict()), now),
                )
            except sqlite3.IntegrityError as exc:
                raise ChannelBusy("a game is already open in this channel") from exc
            game_id = int(cur.lastrowid or 0)
            if host_seat is not None:
                await conn.execute(
                    Q.insert_seat,
                    (
                        game_id,
                        host_seat.user_id,
                        host_seat.computer_level,
                        host_seat.display_name,
                        host_seat.requested_power,
                        host_seat.joined_at,
                    ),
                )
            if expiry is not None:
                await conn.execute(Q.upsert_decision, _decision_params(game_id, expiry))
            return game_id

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
                await conn.execute(
                    Q.insert_seat,
                    (
                        game_id,
                        seat.user_id,
                        seat.computer_level,
                        seat.display_name,
                        seat.requested_power,
                        seat.joined_at,
                    ),
                )
            except sqlite3.IntegrityError as exc:
                raise SeatTaken("already seated in this game") from exc
            if expiry is not None:
                await conn.execute(Q.upsert_decision, _decision_params(game_id, expiry))

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
            StaleVersion: the game changed since ``revision``.
        """
        async with self._tx() as conn:
            cur = await conn.execute(Q.set_host, (host_id, game_id, revision))
            if cur.rowcount != 1:
                raise StaleVersion(f"game {game_id} changed since revision {revision}")
            await conn.execute(Q.delete_seat, (game_id, seat_id))
            if expiry is not None:
                await conn.execute(Q.upsert_decision, _decision_params(game_id, expiry))

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
            cur = await conn.execute(
                Q.update_lobby, (_dumps(settings.to_dict()), host_id, game_id, revision)
            )
            if cur.rowcount != 1:
                raise StaleVersion(f"game {game_id} changed since revision {revision}")
            if expiry is not None:
                await conn.execute(Q.upsert_decision, _decision_params(game_id, expiry))

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
        async with self._tx() as conn:
            cur = await conn.execute(
                Q.start_game,
                (_dumps(creation), _dumps(start_events), _dumps(state), now, game_id, revision),
            )
            if cur.rowcount != 1:
                raise StaleVersion(f"game {game_id} changed since revision {revision}")
            await conn.executemany(
                Q.seat_started,
                [(seat, power, name, game_id, row_id) for row_id, seat, power, name in seats],
            )
            await conn.execute(Q.delete_decisions, (game_id,))
            await conn.executemany(
                Q.upsert_decision, [_decision_params(game_id, d) for d in decisions]
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
        and revision bump and the changed decisions, atomically. A ``result`` marks the
        game finished. ``owe``: the game's channel is owed the action's message (a row
        of ``announcements``, see :meth:`announced`). ``undo_point``: the action may be
        taken back (see :meth:`record_undo`); kept until the next action.

        Writes that arrive while another batch commits are grouped (see :meth:`_flush`):
        all or nothing each, one COMMIT for all. Returns once committed.

        Raises:
            StaleVersion: the game changed since ``revision`` / ``version`` (nothing was
                written).
        """
        guard: _Step = (
            (
                "execute",
                Q.record_move,
                (
                    _dumps(state),
                    _dumps(undo_point.to_dict()) if undo_point is not None else None,
                    game_id,
                    revision,
                    version,
                ),
            )
            if result is None
            else (
                "execute",
                Q.record_state,
                (_dumps(state), "finished", now, _dumps(result), game_id, revision, version),
            )
        )
        steps: list[_Step] = [
            guard,
            (
                "execute",
                Q.insert_action,
                (game_id, version + 1, seat, user_id, source, _dumps(action), _dumps(events), now),
            ),
        ]
        if owe:  # the channel is owed this action's message until one is kept or sent
            steps.append(("execute", Q.owe_announcement, (game_id, version + 1)))
        gone = [(game_id, s, k) for s, k in removed]
        if gone:
            steps.append(("executemany", Q.delete_decision, gone))
        new = [_decision_params(game_id, d) for d in upserted]
        if new:
            steps.append(("executemany", Q.upsert_decision, new))
        write = _Write(
            steps,
            f"game {game_id} changed since revision {revision}",
            asyncio.get_running_loop().create_future(),
        )
        self._queue.append(write)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush())
        await write.done

    async def _flush(self) -> None:
        """Group commit: write every queued action in one transaction (a stale or failing
        one leaves nothing, see :func:`_write_batch`), then one COMMIT. A caller learns
        its outcome only after the COMMIT."""
        try:
            await self._flush_batches()
        finally:
            if self._queue:  # only if interrupted: nobody must wait forever
                _fail(self._queue, StoreError("the store was interrupted"))
                self._queue = []

    async def _flush_batches(self) -> None:
        while self._queue:
            async with self._lock:
                batch, self._queue = self._queue, []
                started = time.perf_counter()
                try:
                    # the whole batch is one call into the connection's thread
                    await _in_thread(self._conn, _write_batch, batch)
                except BaseException as exc:
                    if isinstance(exc, Exception):
                        self.metrics.error("store")
                    _fail(batch, _translated(exc))
                    if not isinstance(exc, Exception):
                        raise
                    continue
                self.metrics.db_write(time.perf_counter() - started)
                self._wrote(len(batch))
                for write in batch:
                    if not write.done.done():
                        if write.error is None:
                            write.done.set_result(None)
                        else:
                            write.done.set_exception(write.error)

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
        """Take back action ``undoes`` (see the Protocol)."""
        async with self._tx() as conn:
            cur = await conn.execute(Q.record_undo, (_dumps(state), game_id, revision, version))
            if cur.rowcount != 1:
                raise StaleVersion(f"game {game_id} changed since revision {revision}")
            await conn.execute(
                Q.insert_undo,
                (game_id, version + 1, seat, user_id, _dumps({"undoes": undoes}), now, undoes),
            )
            if owe:
                await conn.execute(Q.owe_announcement, (game_id, version + 1))
            await conn.execute(Q.delete_decisions, (game_id,))
            await conn.executemany(
                Q.upsert_decision, [_decision_params(game_id, d) for d in decisions]
            )

    async def mark_reminded(self, game_id: int, seat: int, kind: str, opened_version: int) -> bool:
        """Clear a decision's reminder; True when this call cleared it (send it once)."""
        async with self._tx() as conn:
            cur = await conn.execute(Q.mark_reminded, (game_id, seat, kind, opened_version))
            return cur.rowcount == 1

    async def end_game(
        self, game_id: int, revision: int, status: str, result: dict[str, Any] | None, now: float
    ) -> None:
        """Cancel or archive an active game: its open decisions are dropped.

        Raises:
            StaleVersion: the game changed since ``revision`` or is not active.
        """
        async with self._tx() as conn:
            cur = await conn.execute(
                Q.end_game,
                (status, now, _dumps(result) if result is not None else None, game_id, revision),
            )
            if cur.rowcount != 1:
                raise StaleVersion(f"game {game_id} changed since revision {revision}")
            await conn.execute(Q.delete_decisions, (game_id,))

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
        (see :meth:`hold_channel`).

        Raises:
            StaleVersion: the game changed since ``revision`` or is not running.
        """
        async with self._tx() as conn:
            cur = await conn.execute(Q.set_paused, (paused_at, game_id, revision))
            if cur.rowcount != 1:
                raise StaleVersion(f"game {game_id} changed since revision {revision}")
            await conn.executemany(
                Q.upsert_decision, [_decision_params(game_id, d) for d in decisions]
            )
            if hold is not None:
                await conn.execute(Q.upsert_hold, (hold[0], game_id, 1, hold[1]))

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
        """Hand an engine seat to another person or a computer (a person who held it is
        kept as having left it).

        Raises:
            StaleVersion: the game changed since ``revision``.
            SeatTaken: that person already holds another seat in the game.
        """
        async with self._tx() as conn:
            await self._bump(conn, game_id, revision, "running")
            await conn.execute(Q.record_departure, (now, game_id, seat))
            try:
                await conn.execute(
                    Q.replace_seat, (user_id, computer_level, display_name, now, game_id, seat)
                )
            except sqlite3.IntegrityError as exc:
                raise SeatTaken("that person already holds a seat in this game") from exc

    async def set_draw_vote(self, game_id: int, revision: int, seat: int, agree: bool) -> None:
        """Record a seat's agreement to a draw.

        Raises:
            StaleVersion: the game changed since ``revision``.
        """
        async with self._tx() as conn:
            await self._bump(conn, game_id, revision, "running")
            await conn.execute(Q.set_draw_vote, (int(agree), game_id, seat))

    # ------------------------------------------------------------------ ratings
    async def unrated_games(self, limit: int) -> list[FinishedGame]:
        """The first ``limit`` finished server games not rated yet, in the order they
        ended, with seats and departures."""
        async with self._read() as conn:
            games = await self._fetchall(conn, Q.select_unrated, (limit,))
            seats = await self._fetchall(conn, Q.select_unrated_seats, (limit,))
            gone = await self._fetchall(conn, Q.select_unrated_departures, (limit,))
        return row.finished_games(games, seats, gone)

    async def rated_games(self) -> tuple[int, list[FinishedGame]]:
        """(the ratings' head, every rated game in the rating order)."""
        async with self._read() as conn:
            head = await self._fetchall(conn, Q.select_rating_head)
            games = await self._fetchall(conn, Q.select_rated)
            seats = await self._fetchall(conn, Q.select_rated_seats)
            gone = await self._fetchall(conn, Q.select_rated_departures)
        return int(head[0][0]), row.finished_games(games, seats, gone)

    async def ratings_of(self, variant: str, user_ids: Iterable[int]) -> tuple[int, list[Rating]]:
        """(the ratings' head, the ratings in ``variant`` of those of ``user_ids`` who
        have one)."""
        async with self._read() as conn:
            head = await self._fetchall(conn, Q.select_rating_head)
            found = []
            for uid in sorted(set(user_ids)):
                found += await self._fetchall(conn, Q.select_rating, (variant, uid))
        return int(head[0][0]), [row.rating(r) for r in found]

    async def record_ratings(
        self,
        game_id: int,
        head: int,
        results: Iterable[PlayerResult],
        ratings: Iterable[Rating],
    ) -> None:
        """Rate finished game ``game_id`` as step ``head + 1`` (see
        :meth:`service.store.Store.record_ratings`).

        Raises:
            StaleVersion: the ratings moved on since ``head``, or the game is not
                finished or already rated.
        """
        async with self._tx() as conn:
            await self._move_head(conn, head)
            cur = await conn.execute(Q.set_rating_seq, (head + 1, game_id))
            if cur.rowcount != 1:
                raise StaleVersion(f"game {game_id} is not a finished game waiting for ratings")
            await conn.executemany(Q.insert_player_result, [row.result_params(r) for r in results])
            await conn.executemany(Q.upsert_rating, [row.rating_params(r) for r in ratings])

    async def replace_ratings(
        self, head: int, results: Iterable[PlayerResult], ratings: Iterable[Rating]
    ) -> None:
        """Replace every result and rating (a rebuild) as step ``head + 1``.

        Raises:
            StaleVersion: the ratings moved on since ``head``.
        """
        async with self._tx() as conn:
            await self._move_head(conn, head)
            await conn.execute(Q.delete_player_results)
            await conn.execute(Q.delete_ratings)
            await conn.executemany(Q.insert_player_result, [row.result_params(r) for r in results])
            await conn.executemany(Q.upsert_rating, [row.rating_params(r) for r in ratings])

    @staticmethod
    async def _move_head(conn: aiosqlite.Connection, head: int) -> None:
        cur = await conn.execute(Q.move_rating_head, (head,))
        if cur.rowcount != 1:
            raise StaleVersion(f"the ratings moved on since step {head}")

    async def leaderboard(
        self, variant: str, guild_id: int | None, limit: int
    ) -> tuple[list[Rating], int]:
        """(the best ``limit`` ratings in ``variant``, everyone's or of those who played
        a rated game of it in server ``guild_id``; how many there are)."""
        async with self._read() as conn:
            if guild_id is None:
                found = await self._fetchall(conn, Q.select_leaderboard, (variant, limit))
                total = await self._fetchall(conn, Q.count_ratings, (variant,))
            else:
                scope = (variant, variant, guild_id)
                found = await self._fetchall(conn, Q.select_guild_leaderboard, (*scope, limit))
                total = await self._fetchall(conn, Q.count_guild_ratings, scope)
        return [row.rating(r) for r in found], int(total[0][0])

    async def leaderboard_place(
        self, variant: str, user_id: int, guild_id: int | None
    ) -> tuple[int, Rating] | None:
        """(place, rating) of ``user_id`` on :meth:`leaderboard`'s list, or None."""
        async with self._read() as conn:
            found = await self._fetchall(conn, Q.select_rating, (variant, user_id))
            if not found:
                return None
            mine = row.rating(found[0])
            above = (mine.ordinal, mine.ordinal, mine.games, mine.games, user_id)
            if guild_id is None:
                count = await self._fetchall(conn, Q.count_above, (variant, *above))
            else:
                here = await self._fetchall(conn, Q.rated_in_guild, (variant, guild_id, user_id))
                if not here[0][0]:
                    return None
                count = await self._fetchall(
                    conn, Q.count_guild_above, (variant, variant, guild_id, *above)
                )
        return int(count[0][0]) + 1, mine

    async def user_ratings(self, user_id: int) -> list[Rating]:
        """``user_id``'s rating in every game kind they were rated in."""
        async with self._lock:
            found = await self._fetchall(self._conn, Q.select_user_ratings, (user_id,))
        return [row.rating(r) for r in found]

    async def user_results(self, user_id: int) -> list[PlayerResult]:
        """``user_id``'s result of every finished game the ratings took in."""
        async with self._lock:
            found = await self._fetchall(self._conn, Q.select_user_results, (user_id,))
        return [row.result(r) for r in found]

    # ------------------------------------------------------------------ hints
    async def count_hint(self, game_id: int, user_id: int) -> int:
        """Count one more hint taken by ``user_id`` in ``game_id``; return how many that
        person has taken in that game now."""
        async with self._tx() as conn:
            rows = await self._fetchall(conn, Q.upsert_hint, (game_id, user_id))
        return int(rows[0][0])

    async def hints_taken(self, user_id: int, game_id: int | None = None) -> int:
        """How many hints ``user_id`` has taken: in ``game_id``, or in every game."""
        async with self._lock:
            if game_id is None:
                rows = await self._fetchall(self._conn, Q.select_hints_of_user, (user_id,))
            else:
                rows = await self._fetchall(self._conn, Q.select_hints_in_game, (game_id, user_id))
        return int(rows[0][0]) if rows else 0

    # ------------------------------------------------------------------ servers
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (the defaults when it never changed them)."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_guild_settings, (guild_id,))
        if not rows:
            return GuildSettings(guild_id)
        g, turn, lead, expiry, cap, options, language = rows[0]
        return GuildSettings(
            int(g),
            float(turn),
            float(lead),
            float(expiry),
            int(cap),
            json.loads(options),
            None if language is None else str(language),
        )

    async def save_guild_settings(self, settings: GuildSettings, now: float) -> None:
        """Store a server's settings."""
        async with self._tx() as conn:
            s = settings
            await conn.execute(
                Q.upsert_guild_settings,
                (
                    s.guild_id,
                    s.turn_timeout,
                    s.reminder_lead,
                    s.lobby_expiry,
                    s.max_games,
                    _dumps(dict(s.options)),
                    s.language,
                    now,
                ),
            )

    async def archive(
        self, *, channel_id: int | None = None, guild_id: int | None = None, now: float
    ) -> list[int]:
        """Archive the active games of a channel or a whole server; return their ids."""
        async with self._tx() as conn:
            if channel_id is not None:
                rows = await self._fetchall(conn, Q.select_active_in_channel, (channel_id,))
            else:
                rows = await self._fetchall(conn, Q.select_active_ids_in_guild, (guild_id,))
            ids = [int(r[0]) for r in rows]
            for gid in ids:
                await conn.execute(Q.archive_by_id, (now, gid))
                await conn.execute(Q.delete_decisions, (gid,))
            return ids

    async def delete_guild(self, guild_id: int) -> int:
        """Delete every game (with seats, log and decisions), the settings and the
        recorded departure of a server; return how many games were deleted."""
        async with self._tx() as conn:
            cur = await conn.execute(Q.delete_guild_games, (guild_id,))
            await conn.execute(Q.delete_guild_settings, (guild_id,))
            await conn.execute(Q.delete_guild_departure, (guild_id,))
            return int(cur.rowcount)

    async def record_departure(self, guild_id: int, when: float) -> None:
        """The bot was removed from ``guild_id`` at ``when`` (the first departure
        counts until it is forgotten)."""
        async with self._tx() as conn:
            await conn.execute(Q.insert_guild_departure, (guild_id, when))

    async def forget_departure(self, guild_id: int) -> None:
        """The bot is back in ``guild_id`` (or its data was deleted): no departure."""
        async with self._tx() as conn:
            await conn.execute(Q.delete_guild_departure, (guild_id,))

    async def departures(self) -> dict[int, float]:
        """Every recorded departure: server id -> when the bot left it."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_guild_departures)
        return {int(g): float(t) for g, t in rows}

    async def departures_due(self, left_before: float) -> list[int]:
        """Servers the bot left at or before ``left_before``, longest gone first."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_departures_due, (left_before,))
        return [int(r[0]) for r in rows]

    # ------------------------------------------------------------------ Discord messages
    async def game_messages(self, game_id: int) -> GameMessages:
        """The messages the bot keeps editing for a game (all None if none recorded)."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_game_messages, (game_id,))
        return GameMessages(*rows[0]) if rows else GameMessages()

    async def set_lobby_message(
        self, game_id: int, channel_id: int | None, message_id: int | None
    ) -> None:
        """Record (or, with None, forget) a game's lobby message. Nothing is recorded for
        a game that no longer exists."""
        async with self._tx() as conn:
            await conn.execute(Q.upsert_lobby_message, (channel_id, message_id, game_id))

    async def set_duel_message(self, game_id: int, message_id: int | None) -> None:
        """Record (or, with None, forget) the message of a game's duel under way."""
        async with self._tx() as conn:
            await conn.execute(Q.upsert_duel_message, (message_id, game_id))

    async def set_undo_offer(self, game_id: int, offer: UndoOffer | None) -> None:
        """Record (or, with None, forget) a game's *Undo* button (see the Protocol)."""
        data = _dumps(offer.to_dict()) if offer is not None else None
        async with self._tx() as conn:
            await conn.execute(Q.upsert_undo_offer, (data, game_id))

    async def undo_offers(self) -> dict[int, UndoOffer]:
        """Every game's recorded *Undo* button, by game id."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_undo_offers)
        return {int(g): UndoOffer.from_dict(row.loads(o)) for g, o in rows}

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        """Mark ``user_id``'s seats in every unfinished game: their DMs are closed (or
        open again)."""
        async with self._tx() as conn:
            await conn.execute(Q.set_user_dms_closed, (int(closed), user_id, int(closed)))

    async def users_with_dms_closed(self) -> set[int]:
        """People seated in an unfinished game whose DMs are known to be closed."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_users_dms_closed)
        return {int(r[0]) for r in rows}

    # ------------------------------------------------------------------ the outbox
    async def outbox_add(self, item: OutboxRecord, announces: int | None = None) -> int:
        """Keep an item the bot owes Discord, with its files. Returns its id.

        ``announces``: the item is the channel's message of the game's actions up to this
        version; in the same transaction, they stop being owed (see :meth:`announced`)."""
        async with self._tx() as conn:
            if announces is not None and item.game_id is not None:
                await self._announced(conn, item.game_id, announces)
            cur = await conn.execute(
                Q.insert_outbox,
                (
                    item.game_id,
                    item.kind,
                    item.channel_id,
                    item.user_id,
                    item.message_id,
                    item.priority,
                    item.merge_key,
                    _dumps(item.payload),
                    _dumps(item.meta),
                    item.created_at,
                ),
            )
            item_id = int(cur.lastrowid or 0)
            await self._outbox_files(conn, item_id, item.files)
        return item_id

    async def outbox_update(self, item: OutboxRecord, announces: int | None = None) -> None:
        """Rewrite a kept item (it was coalesced with a newer one): payload, meta, files;
        ``announces`` as for :meth:`outbox_add`."""
        async with self._tx() as conn:
            if announces is not None and item.game_id is not None:
                await self._announced(conn, item.game_id, announces)
            await conn.execute(
                Q.update_outbox,
                (item.priority, item.merge_key, _dumps(item.payload), _dumps(item.meta), item.id),
            )
            await conn.execute(Q.delete_outbox_files, (item.id,))
            await self._outbox_files(conn, item.id or 0, item.files)

    @staticmethod
    async def _outbox_files(
        conn: aiosqlite.Connection, item_id: int, files: Sequence[OutboxFile]
    ) -> None:
        await conn.executemany(
            Q.insert_outbox_file,
            [(item_id, i, f.filename, f.description, f.data) for i, f in enumerate(files)],
        )

    async def outbox_remove(self, item_ids: Iterable[int]) -> None:
        """Forget items that were sent (or given up); their files go with them."""
        rows = [(i,) for i in item_ids]
        await self._in_thread_tx(lambda db: db.executemany(Q.delete_outbox, rows))

    async def _in_thread_tx(self, steps: Callable[[sqlite3.Connection], object]) -> None:
        """``steps`` in one write transaction, as one call into the connection's thread
        (one hand-off instead of three or more: each waits for the interpreter lock
        while the event loop is busy). Commits, or rolls back on any exception."""

        def run(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            try:
                steps(db)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    with suppress(Exception):
                        db.execute("ROLLBACK")
                raise

        async with self._lock:
            try:
                await _in_thread(self._conn, run)
            except Exception as exc:
                self.metrics.error("store")
                mine = _translated(exc)
                if mine is not exc:
                    raise mine from exc
                raise

    async def outbox_items(self) -> list[OutboxRecord]:
        """Every kept item, oldest first, with its files."""
        async with self._read() as conn:
            rows = await self._fetchall(conn, Q.select_outbox)
            files = await self._fetchall(conn, Q.select_outbox_files)
        items = {int(r[0]): row.outbox(r) for r in rows}
        for item_id, filename, description, data in files:
            if item_id in items:
                items[item_id].files.append(OutboxFile(filename, bytes(data), description))
        return list(items.values())

    # ------------------------------------------------------------------ owed to channels
    async def announced(self, game_id: int, version: int) -> None:
        """Game ``game_id``'s channel has been told of its actions up to ``version`` (the
        message was sent, or nothing was to be said): they are no longer owed."""
        async with self._tx() as conn:
            await self._announced(conn, game_id, version)

    @staticmethod
    async def _announced(conn: aiosqlite.Connection, game_id: int, version: int) -> None:
        await conn.execute(Q.move_announcement, (version, game_id, version))
        await conn.execute(Q.settle_announcement, (game_id, game_id))

    async def announcements(self) -> list[tuple[int, int]]:
        """(game id, first action not announced) of every game whose channel is owed the
        message of a committed action (a crash came between the two)."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_announcements)
        return [(int(r[0]), int(r[1])) for r in rows]

    async def hold_channel(self, channel_id: int, game_id: int, paused: bool, missing: str) -> None:
        """Keep that ``channel_id`` (of ``game_id``) refuses the bot for a ``missing``
        permission, and whether the bot paused the game for it."""
        async with self._tx() as conn:
            await conn.execute(Q.upsert_hold, (channel_id, game_id, int(paused), missing))

    async def release_channel(self, channel_id: int) -> None:
        """The channel no longer refuses the bot (or is gone)."""
        async with self._tx() as conn:
            await conn.execute(Q.delete_hold, (channel_id,))

    async def held_channels(self) -> list[tuple[int, int, bool, str]]:
        """(channel id, game id, paused by the bot, missing) of every held channel."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_holds)
        return [(int(r[0]), int(r[1]), bool(r[2]), str(r[3])) for r in rows]

    # ------------------------------------------------------------------ users, the bot
    async def user_pings(self, user_id: int) -> bool:
        """Whether ``user_id`` wants to be pinged when it is their move (default yes)."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_user_pings, (user_id,))
        return bool(rows[0][0]) if rows else True

    async def set_user_pings(self, user_id: int, on: bool, now: float) -> None:
        """Turn ``user_id``'s turn pings on or off."""
        async with self._tx() as conn:
            await conn.execute(Q.upsert_user_pings, (user_id, int(on), now))

    async def user_locales(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The client language last seen of each of ``user_ids`` who was ever seen."""
        found = {}
        async with self._lock:
            for uid in sorted(set(user_ids)):
                rows = await self._fetchall(self._conn, Q.select_user_locale, (uid,))
                if rows:
                    found[uid] = str(rows[0][0])
        return found

    async def set_user_locale(self, user_id: int, locale: str, now: float) -> None:
        """Remember ``locale`` as ``user_id``'s client language, seen at ``now``."""
        async with self._tx() as conn:
            await conn.execute(Q.upsert_user_locale, (user_id, locale, now))

    async def meta(self, key: str) -> str | None:
        """A fact the bot keeps about itself (``bot_meta``), or None."""
        async with self._lock:
            rows = await self._fetchall(self._conn, Q.select_meta, (key,))
        return str(rows[0][0]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        """Store a fact the bot keeps about itself."""
        async with self._tx() as conn:
            await conn.execute(Q.upsert_meta, (key, value))

    # ------------------------------------------------------------------ row mapping
    _game = staticmethod(row.game)
    _seat = staticmethod(row.seat)
    _decision = staticmethod(row.decision)
    _action = staticmethod(row.action)

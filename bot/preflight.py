"""Open the bot's database before anything talks to Discord, and say plainly what is wrong.

:func:`open_checked` is what ``python -m bot`` runs first. A PostgreSQL database (which
several bot processes share) is connected to and migrated, or refused in one line (the
server cannot be reached, refuses the user, or holds a newer schema). An SQLite file is
refused — with one line naming the problem and the file, and without changing the file —
when:

- the folder of an explicitly configured ``DATABASE_URL`` does not exist (a volume not
  mounted must not turn into a fresh, empty database; the default ``./data`` is created
  on a first run);
- another bot process owns the database (:class:`OwnerLock`: its pid, host and since
  when are named);
- the file or its folder is read-only;
- the file is not an SQLite database, is truncated, or is damaged (``quick_check``);
- its schema is newer than this code;
- another program holds a write lock on it for longer than the busy timeout.

The owner lock is ``fcntl.flock`` on ``<database>.lock``: the kernel drops it when the
process ends, however it ends, so a crashed bot never blocks the next start. Only the
Discord bot takes it; the terminal console shares the file on purpose and plays only its
own games, so it may run beside the bot.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
import sqlite3
import time
from pathlib import Path
from urllib.parse import quote

import aiosqlite
import asyncpg

from service.config import DEFAULT_DATABASE_URL
from service.migrations import LATEST, MIGRATIONS, MigrationError, applied_versions, unknown_steps
from service.sqlite_store import SqliteStore
from service.store import Store, StoreFull, open_store

from .config import Settings

HEADER = b"SQLite format 3\x00"
QUICK_CHECK_LIMIT = 256 * 1024 * 1024
"""Files up to this size get a full ``PRAGMA quick_check`` at start-up (about a second
per 50 MB here); larger ones only the header and the reads a start-up makes."""


class StartupError(RuntimeError):
    """The bot cannot start on this database; the message is one line for the operator."""


class OwnerLock:
    """The exclusive ownership of a database by one bot process (see the module
    docstring). Holder facts (pid, host, since) are written into the lock file."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, database: Path) -> OwnerLock:
        """Take the lock of ``database`` or refuse.

        Raises:
            StartupError: another process holds it, or the lock file cannot be written.
        """
        path = database.with_name(database.name + ".lock")
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StartupError(
                f"Cannot write the lock file {path} ({exc.strerror}): the bot must be able "
                f"to write in {database.parent} (a read-only volume?)."
            ) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = _holder(fd)
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise StartupError(f"Cannot lock {path}: {exc.strerror}.") from exc
            raise StartupError(
                f"Another bot process already owns the database {database}: {holder}. "
                "Stop it first (two bots on one database would play the same games)."
            ) from None
        facts = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(facts).encode(), 0)
        return cls(path, fd)

    def release(self) -> None:
        """Give the database up (closing the file drops the lock)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _holder(fd: int) -> str:
    try:
        facts = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return f"pid {facts['pid']} on host {facts['host']}, since {facts['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a process that is still starting (its details are not written yet)"


async def open_checked(settings: Settings, *, busy_timeout_ms: int = 10_000) -> Store:
    """Check and open the bot's database: an SQLite file owned by this process (released
    when the store closes; nothing here touches the network), or a PostgreSQL database
    that several processes share (connected and migrated).

    Raises:
        StartupError: the database cannot be used; the message says what and where.
    """
    if settings.postgres:
        return await _open_postgres(settings)
    path = settings.database_path
    folder = path.parent
    if not folder.is_dir():
        if folder.exists():
            raise StartupError(f"The database folder {folder} is not a folder.")
        if settings.database_url != DEFAULT_DATABASE_URL:
            raise StartupError(
                f"The database folder {folder} does not exist (DATABASE_URL="
                f"{settings.database_url}): is its volume mounted? Create the folder to "
                "start with an empty database."
            )
        try:
            folder.mkdir(parents=True, exist_ok=True)  # a first run with the defaults
        except OSError as exc:
            raise StartupError(
                f"Cannot create the database folder {folder} ({exc.strerror})."
            ) from exc
    if path.exists() and not path.is_file():
        raise StartupError(f"The database path {path} is not a file.")
    lock = OwnerLock.acquire(path)
    try:
        if path.exists() and path.stat().st_size > 0:
            _check_file(path)
            await _check_contents(path, busy_timeout_ms)
        store = await _open(path, busy_timeout_ms)
    except BaseException:
        lock.release()
        raise
    store.owner = lock
    return store


async def _open_postgres(settings: Settings) -> Store:
    """Connect to and migrate the PostgreSQL database, or say plainly why not."""
    where = settings.database_label
    try:
        return await open_store(settings.database_url)
    except MigrationError as exc:
        raise StartupError(f"The database {where} cannot be upgraded: {exc}.") from exc
    except (TimeoutError, OSError) as exc:
        raise StartupError(f"Cannot reach the PostgreSQL server of {where}: {exc}.") from exc
    except asyncpg.PostgresError as exc:
        raise StartupError(f"PostgreSQL refused {where}: {exc}.") from exc


def _check_file(path: Path) -> None:
    """Writable, an SQLite file, and as long as its header says (read only)."""
    try:
        os.close(os.open(path, os.O_RDWR))
    except OSError as exc:
        raise StartupError(
            f"The database file {path} is read-only ({exc.strerror}): the bot must be able "
            "to write to it (check its owner and permissions, or a read-only volume)."
        ) from exc
    with path.open("rb") as f:
        header = f.read(100)
    if not header.startswith(HEADER):
        raise StartupError(
            f"{path} is not an SQLite database (damaged, or another kind of file): restore "
            "it from a backup, or move it away to start with an empty one."
        )
    if len(header) < 100:
        raise StartupError(f"The database file {path} is truncated ({len(header)} bytes).")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96] and pages > 0
    wal = path.with_name(path.name + "-wal")
    size = path.stat().st_size
    if valid and not (wal.exists() and wal.stat().st_size > 0) and size < pages * page_size:
        raise StartupError(
            f"The database file {path} is truncated: {size} bytes of the {pages * page_size} "
            "its header records (an interrupted copy?). Restore it from a backup."
        )


async def _check_contents(path: Path, busy_timeout_ms: int) -> None:
    """Schema version, integrity and what a start-up reads, on a read-only connection
    (which never writes to the file, not even a checkpoint)."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    try:
        conn = await aiosqlite.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise StartupError(f"Cannot open the database {path}: {exc}.") from exc
    try:
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        applied = await applied_versions(conn)
        if unknown_steps(applied, MIGRATIONS) is not None:
            raise StartupError(
                f"The database {path} is at schema version {max(applied)}, newer than this "
                f"release ({LATEST}): run a newer release."
            )
        if path.stat().st_size <= QUICK_CHECK_LIMIT:
            cur = await conn.execute("PRAGMA quick_check")
            problems = [str(r[0]) for r in await cur.fetchall()]
            if problems != ["ok"]:
                raise StartupError(
                    f"The database {path} is damaged ({problems[0]}): restore it from a backup."
                )
        if applied == {m.version for m in MIGRATIONS}:
            await SqliteStore(conn, path).load_active()
    except sqlite3.OperationalError as exc:
        if _code(exc) not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise StartupError(
                f"The database {path} is damaged or unreadable ({exc}): restore it from a backup."
            ) from exc
        raise StartupError(_operational(path, exc, busy_timeout_ms)) from exc
    except sqlite3.DatabaseError as exc:
        raise StartupError(
            f"The database {path} is damaged or not a database ({exc}): restore it from a "
            "backup, or move it away to start with an empty one."
        ) from exc
    finally:
        await conn.close()


async def _open(path: Path, busy_timeout_ms: int) -> SqliteStore:
    """Open read-write (migrating) and make sure a write can start within the busy
    timeout."""
    try:
        store = await SqliteStore.open(path, busy_timeout_ms=busy_timeout_ms)
    except MigrationError as exc:
        raise StartupError(f"The database {path} cannot be upgraded: {exc}.") from exc
    except sqlite3.OperationalError as exc:
        raise StartupError(_operational(path, exc, busy_timeout_ms)) from exc
    except StoreFull as exc:
        raise StartupError(f"The disk holding {path} is full.") from exc
    except sqlite3.DatabaseError as exc:
        raise StartupError(
            f"The database {path} is damaged ({exc}): restore it from a backup."
        ) from exc
    try:
        await store.probe_write()
    except BaseException as exc:
        await store.close()
        if isinstance(exc, sqlite3.OperationalError):
            raise StartupError(_operational(path, exc, busy_timeout_ms)) from exc
        raise
    return store


def _code(exc: sqlite3.Error) -> int:
    """SQLite's primary result code of ``exc``."""
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF


def _operational(path: Path, exc: sqlite3.OperationalError, busy_timeout_ms: int) -> str:
    code = _code(exc)
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return (
            f"The database {path} is locked by another program (it held a write lock "
            f"for over {busy_timeout_ms / 1000:g} s): close it (a backup, the sqlite3 "
            "shell?) and start again."
        )
    if code == sqlite3.SQLITE_FULL:
        return f"The disk holding the database {path} is full."
    if code == sqlite3.SQLITE_READONLY:
        return f"The database {path} is read-only: the bot must be able to write to it."
    return f"Cannot open the database {path}: {exc}."

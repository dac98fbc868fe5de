"""`python -m bot` checks its database before it contacts Discord: a corrupt, truncated,
read-only, locked or owned database, or a missing configured folder, ends with one line
saying what and where, exit code 1, the file untouched — and no connection attempted
(a listening socket stands where Discord would be, and must see nobody)."""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.config import Settings
from bot.preflight import OwnerLock, StartupError, open_checked
from service.config import DEFAULT_DATABASE_URL
from service.store import open_store
from tests.bot.test_store import apply_first_legal, running_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """Where Discord would be: accepts nothing; the test checks nobody knocked."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.setblocking(False)
    yield sock
    sock.close()


def knocked(sock: socket.socket) -> bool:
    try:
        conn, _ = sock.accept()
    except BlockingIOError:
        return False
    conn.close()
    return True


def run_bot(
    tmp: Path,
    db: Path,
    sock: socket.socket,
    *,
    wrap: list[str] | None = None,
) -> subprocess.CompletedProcess[str]:
    port = sock.getsockname()[1]
    env = {
        **os.environ,
        "DISCORD_TOKEN": "MTIz.dummy.token",
        "LOG_LEVEL": "INFO",
        "DATABASE_URL": f"sqlite:///{db}",
        "DEV_GUILD_ID": "",
        "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/",
    }
    return subprocess.run(
        [*(wrap or []), sys.executable, "-m", "bot"],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def fingerprint(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


async def a_database(path: Path) -> Path:
    """A real database with a game in it, closed (checkpointed into the file)."""
    store = await open_store(path)
    gid = await running_game(store, channel=1, guild=9)
    for _ in range(3):
        await apply_first_legal(store, gid)
    await store.close()
    return path


def refused(result: subprocess.CompletedProcess[str], sock: socket.socket) -> str:
    """The one line the bot printed; asserts exit 1 and no network."""
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1, result.stderr
    assert len(lines) == 1 and lines[0].startswith("Cannot start: "), result.stderr
    assert "Traceback" not in result.stderr and not result.stdout.strip()
    assert not knocked(sock), "the bot tried to reach Discord"
    return lines[0]


def _header_overwritten(db: Path) -> None:
    with db.open("r+b") as f:
        f.write(b"this is no longer a database header")


def _page_scribbled(db: Path) -> None:
    page = int.from_bytes(db.read_bytes()[16:18], "big")
    with db.open("r+b") as f:  # scribble over the third page (a table's b-tree)
        f.seek(2 * page)
        f.write(bytes([0xA5]) * page)


def _truncated(db: Path) -> None:
    os.truncate(db, db.stat().st_size // 2)


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (_header_overwritten, "is not an SQLite database"),
        (_page_scribbled, "is damaged"),
        (_truncated, "is truncated"),
    ],
    ids=["not_a_database", "a_damaged_page_inside_the_file", "a_truncated_file"],
)
async def test_a_damaged_file(
    tmp_path: Path, listener: socket.socket, damage: Callable[[Path], None], said: str
) -> None:
    db = await a_database(tmp_path / "games.db")
    damage(db)
    before = fingerprint(db)
    line = refused(run_bot(tmp_path, db, listener), listener)
    assert said in line and str(db) in line
    assert fingerprint(db) == before


async def test_a_read_only_file(tmp_path: Path, listener: socket.socket) -> None:
    db = await a_database(tmp_path / "games.db")
    db.chmod(0o444)
    wrap = None
    if os.geteuid() == 0:  # root writes anyway: drop the capability that lets it
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv")
        wrap = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"]
    before = fingerprint(db)
    line = refused(run_bot(tmp_path, db, listener, wrap=wrap), listener)
    assert "is read-only" in line and str(db) in line
    assert fingerprint(db) == before


async def test_a_configured_folder_that_does_not_exist_is_not_created(
    tmp_path: Path, listener: socket.socket
) -> None:
    db = tmp_path / "volume" / "games.db"
    line = refused(run_bot(tmp_path, db, listener), listener)
    assert "does not exist" in line and str(db.parent) in line and "mounted" in line
    assert not db.parent.exists()


async def test_the_default_folder_is_created_on_a_first_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    settings = Settings(None, DEFAULT_DATABASE_URL, None, "INFO", None, None)
    store = await open_checked(settings)
    try:
        assert (tmp_path / "data").is_dir() and await store.load_active() == []
    finally:
        await store.close()


HOLD_WRITE_LOCK = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("INSERT INTO bot_meta (key, value) VALUES ('x', 'y')")
print("locked", flush=True)
sys.stdin.read()
"""


@contextmanager
def lock_held(script: str, db: Path) -> Iterator[None]:
    """Another program (``script``, given ``db``) holds a lock on the database until the
    block ends; it prints "locked" once it does."""
    holder = subprocess.Popen(
        [sys.executable, "-c", script, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        yield
    finally:
        holder.communicate("")


async def refused_as_locked(db: Path) -> None:
    """Opening ``db`` is refused, naming the lock, and leaves the file as it was."""
    before = fingerprint(db)
    settings = Settings(None, f"sqlite:///{db}", None, "INFO", None, None)
    with pytest.raises(StartupError) as info:
        await open_checked(settings, busy_timeout_ms=200)
    assert str(info.value).startswith(f"The database {db} is locked by another program")
    assert fingerprint(db) == before


async def test_a_write_lock_held_by_another_program(tmp_path: Path) -> None:
    db = await a_database(tmp_path / "games.db")
    with lock_held(HOLD_WRITE_LOCK, db):
        await refused_as_locked(db)
        OwnerLock.acquire(db).release()  # the refusal gave the ownership back


async def test_the_owner_lock_names_its_holder_and_dies_with_it(
    tmp_path: Path, listener: socket.socket
) -> None:
    db = await a_database(tmp_path / "games.db")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; "
            "from bot.preflight import OwnerLock; OwnerLock.acquire(Path(sys.argv[1])); "
            "print('owner', flush=True); sys.stdin.read()",
            str(db),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "owner"
        before = fingerprint(db)
        line = refused(run_bot(tmp_path, db, listener), listener)
        assert f"Another bot process already owns the database {db}" in line
        assert f"pid {holder.pid} on host {socket.gethostname()}, since 20" in line
        assert fingerprint(db) == before
    finally:
        holder.kill()
        holder.wait()
    # the holder died without releasing anything: the lock went with it
    settings = Settings(None, f"sqlite:///{db}", None, "INFO", None, None)
    store = await open_checked(settings)
    try:
        assert len(await store.load_active()) == 1
        with pytest.raises(StartupError, match=f"pid {os.getpid()} "):
            OwnerLock.acquire(db)  # another owner in this very process is refused too
    finally:
        await store.close()
    OwnerLock.acquire(db).release()  # closing the store released it


async def test_a_newer_schema_is_refused_before_anything_is_written(
    tmp_path: Path, listener: socket.socket
) -> None:
    db = await a_database(tmp_path / "games.db")
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (99, 'from the future', 0)")
    conn.close()
    before = fingerprint(db)
    line = refused(run_bot(tmp_path, db, listener), listener)
    assert "newer than this release" in line and str(db) in line
    assert fingerprint(db) == before


async def test_a_read_only_folder(tmp_path: Path, listener: socket.socket) -> None:
    folder = tmp_path / "volume"
    folder.mkdir()
    db = await a_database(folder / "games.db")
    folder.chmod(0o555)
    wrap = None
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv")
        wrap = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"]
    before = fingerprint(db)
    try:
        line = refused(run_bot(tmp_path, db, listener, wrap=wrap), listener)
    finally:
        folder.chmod(0o755)
    assert f"Cannot write the lock file {db}.lock" in line and "read-only volume" in line
    assert fingerprint(db) == before


async def test_the_console_plays_beside_the_bot_that_owns_the_database(tmp_path: Path) -> None:
    """By design the console shares the bot's file (it plays only its own games): the
    owner lock is the bot's alone, and keeps a second bot out, not the console."""
    db = await a_database(tmp_path / "games.db")
    owner = OwnerLock.acquire(db)  # as a running bot holds it
    try:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "console",
                "--watch",
                "1",
                "--fast",
                "--no-boards",
                "--db",
                str(db),
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
            stdin=subprocess.DEVNULL,
        )
        assert result.returncode == 0, result.stderr
        assert "1 finished" in result.stdout
        with pytest.raises(StartupError, match="Another bot process already owns"):
            OwnerLock.acquire(db)
    finally:
        owner.release()
    with sqlite3.connect(db) as conn:  # the bot's game untouched, the console's finished
        rows = conn.execute("SELECT guild_id, status FROM games ORDER BY id").fetchall()
    conn.close()
    assert rows == [(9, "running"), (None, "finished")]


HOLD_EXCLUSIVE = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode = DELETE")
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()
"""


async def test_an_exclusive_lock_on_a_rollback_journal_file_is_named_as_a_lock(
    tmp_path: Path,
) -> None:
    """A file copied in from elsewhere (not in WAL mode) and held by another program: even
    reading waits for it, and the answer is still "locked", not "damaged"."""
    db = await a_database(tmp_path / "games.db")
    with lock_held(HOLD_EXCLUSIVE, db):
        await refused_as_locked(db)

"""A real PostgreSQL server for the tests, started from the binaries on this machine.

:func:`find_binaries` looks for ``initdb`` and ``pg_ctl`` on ``PATH`` and in
``/usr/lib/postgresql/<version>/bin`` (Debian's packages, newest first).
:class:`PostgresServer` makes a cluster in a temporary folder (``initdb``), starts it on
a free port of 127.0.0.1 with its Unix socket in that folder, and stops and removes it
again. PostgreSQL refuses to run as root: as root, the cluster belongs to, and the
server runs as, the ``postgres`` system user if there is one, else ``nobody``.

Each test gets a fresh schema of one database (:meth:`PostgresServer.fresh_url`): the
URL's ``search_path`` puts the store's tables there, so tests never see each other's rows
and no database has to be copied per test.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import asyncpg

DATABASE = "postgres"
"""The database the tests use: the one initdb makes."""
USER = "bot"


@dataclass(frozen=True)
class Binaries:
    """Where ``initdb`` and ``pg_ctl`` are."""

    initdb: str
    pg_ctl: str


def find_binaries() -> Binaries | None:
    """PostgreSQL's server binaries on this machine, or None."""
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl:
        return Binaries(initdb, pg_ctl)
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
        reverse=True,
    )
    for folder in versions:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return Binaries(str(folder / "initdb"), str(folder / "pg_ctl"))
    return None


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_as() -> pwd.struct_passwd | None:
    """The unprivileged user to run the server as when we are root, else None."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError("running as root and there is no postgres or nobody user to run as")


class PostgresServer:
    """One throwaway cluster (see the module docstring). Use :meth:`start` and
    :meth:`stop`, or ``with``."""

    def __init__(self, binaries: Binaries, *, durable: bool = False) -> None:
        self.binaries = binaries
        self.durable = durable
        """False (tests): no fsync, which only a crash of the machine would need."""
        self.port = 0
        self.folder = Path()
        self._user = _run_as()
        self._schemas = itertools.count(1)

    def _cmd(self, *args: str) -> None:
        user = self._user
        subprocess.run(
            args,
            check=True,
            capture_output=True,
            user=user.pw_uid if user else None,
            group=user.pw_gid if user else None,
            extra_groups=[] if user else None,
            cwd=self.folder,
        )

    def start(self) -> PostgresServer:
        """initdb and start on a free port; returns self.

        Raises:
            subprocess.CalledProcessError: initdb or pg_ctl failed (their output is in it).
        """
        self.folder = Path(tempfile.mkdtemp(prefix="pg-"))
        if self._user is not None:
            os.chown(self.folder, self._user.pw_uid, self._user.pw_gid)
        data = self.folder / "data"
        self._cmd(
            self.binaries.initdb,
            "-D",
            str(data),
            "-U",
            USER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )
        self.port = free_port()
        settings = [
            f"-p {self.port}",
            "-c listen_addresses=127.0.0.1",
            f"-c unix_socket_directories={self.folder}",
            "-c max_connections=200",
        ]
        if not self.durable:
            settings += ["-c fsync=off", "-c full_page_writes=off"]
        self._cmd(
            self.binaries.pg_ctl,
            "-D",
            str(data),
            "-l",
            str(self.folder / "server.log"),
            "-o",
            " ".join(settings),
            "-w",
            "-t",
            "60",
            "start",
        )
        return self

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        try:
            self._cmd(self.binaries.pg_ctl, "-D", str(self.folder / "data"), "-m", "fast", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def url(self, database: str = DATABASE, **settings: str) -> str:
        """The URL of ``database`` on this server (``settings``: server settings of the
        connections, e.g. ``search_path``)."""
        query = "&".join(f"{k}={v}" for k, v in settings.items())
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}" + (
            f"?{query}" if query else ""
        )

    async def fresh_url(self) -> str:
        """The URL of a new, empty schema of the test database (its own tables)."""
        schema = f"t{os.getpid()}_{next(self._schemas)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f"CREATE SCHEMA {schema}")
        finally:
            await conn.close()
        return self.url(search_path=schema)

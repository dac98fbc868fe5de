"""The settings every front end reads, from the environment and an optional ``.env`` file
(no extra dependency): today the game database, ``DATABASE_URL`` (an SQLite file, or a
PostgreSQL database several bot processes share). Each front end adds its own on top (the
bot's are in ``bot.config``).

Precedence: a variable set in the real environment wins over the same name in ``.env``;
names missing from both get their defaults. ``.env`` syntax is the usual subset::

    # comment
    DISCORD_TOKEN=abc
    export LOG_LEVEL=debug
    DATABASE_URL="sqlite:///data/european_war.db"   # quotes are stripped
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from .store import POSTGRES_SCHEMES

DEFAULT_DATABASE_URL = "sqlite:///data/european_war.db"


class ConfigError(ValueError):
    """A setting is malformed; the message names it."""


def parse_env_file(text: str) -> dict[str, str]:
    """Parse ``.env`` text into a dict.

    Blank lines and ``#`` comments are skipped, an ``export`` prefix is allowed, a value
    in matching single or double quotes keeps everything inside them (``#`` included);
    an unquoted value ends at `` #``.

    Raises:
        ConfigError: a line that is not ``NAME=value`` (its number is in the message).
    """
    out: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        name, sep, value = line.partition("=")
        name = name.strip()
        if not sep or not name.replace("_", "").isalnum() or name[0].isdigit():
            raise ConfigError(f".env line {number} is not NAME=value: {raw!r}")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        out[name] = value
    return out


def environment(
    environ: Mapping[str, str] | None = None, env_file: str | Path | None = ".env"
) -> dict[str, str]:
    """The settings as set: ``environ`` (default ``os.environ``) over ``env_file``, each
    value stripped, empty ones left out.

    Raises:
        ConfigError: an unreadable ``.env`` line.
    """
    values: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        values.update(parse_env_file(Path(env_file).read_text(encoding="utf-8")))
    values.update(os.environ if environ is None else environ)
    return {name: value.strip() for name, value in values.items() if value.strip()}


def sqlite_path(url: str) -> Path:
    """The file of an SQLite URL: ``sqlite:///data/x.db`` is ``./data/x.db`` (relative),
    ``sqlite:////var/x.db`` is ``/var/x.db`` (absolute); a bare path is taken as is.

    Raises:
        ConfigError: another scheme or an empty path.
    """
    if "://" not in url:
        path = url
    elif url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
    else:
        raise ConfigError(
            "DATABASE_URL must be sqlite:///path or postgresql://user:password@host/database "
            f"(got {url.split(':', 1)[0]}:…)"
        )
    if not path or path == ":memory:":
        raise ConfigError("DATABASE_URL needs a file path (a game store must survive restarts)")
    return Path(path)


def is_postgres(url: str) -> bool:
    """Whether a ``DATABASE_URL`` names a PostgreSQL database (else an SQLite file)."""
    return url.startswith(POSTGRES_SCHEMES)


def database_url(values: Mapping[str, str]) -> str:
    """``DATABASE_URL`` among ``values`` (see :func:`environment`), checked: an SQLite
    file (see :func:`sqlite_path`) or a PostgreSQL URL with a host; the default when it
    is not set.

    Raises:
        ConfigError: another scheme, no file path, or a PostgreSQL URL without a host.
    """
    url = values.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    # refused now rather than when the store opens
    if is_postgres(url):
        host = url.split("://", 1)[1].split("/", 1)[0].rsplit("@", 1)[-1]
        if not host:
            raise ConfigError("DATABASE_URL: a postgresql:// URL needs a host")
        return url
    sqlite_path(url)
    return url


def database_path(
    environ: Mapping[str, str] | None = None, env_file: str | Path | None = ".env"
) -> Path:
    """The SQLite file ``DATABASE_URL`` names (the default's when it is not set), read as
    :func:`environment` says: for a front end that keeps its games in a file (the
    console), which a PostgreSQL ``DATABASE_URL`` (the bot's, shared by its processes)
    does not name.

    Raises:
        ConfigError: an unreadable ``.env`` line, an unsupported URL, or a PostgreSQL one.
    """
    url = database_url(environment(environ, env_file))
    if is_postgres(url):
        raise ConfigError(
            "DATABASE_URL names a PostgreSQL database; this keeps its games in an SQLite "
            "file (sqlite:///path, or --db)"
        )
    return sqlite_path(url)

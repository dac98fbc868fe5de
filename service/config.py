"""The settings every front end reads, from the environment and an optional ``.env`` file
(no extra dependency): today the game database, ``DATABASE_URL``. Each front end adds
its own on top (the bot's are in ``bot.config``).

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
        ConfigError: another scheme (PostgreSQL is a later step) or an empty path.
    """
    if "://" not in url:
        path = url
    elif url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
    else:
        raise ConfigError(f"DATABASE_URL must be sqlite:///path (got {url.split(':', 1)[0]}:…)")
    if not path or path == ":memory:":
        raise ConfigError("DATABASE_URL needs a file path (a game store must survive restarts)")
    return Path(path)


def database_url(values: Mapping[str, str]) -> str:
    """``DATABASE_URL`` among ``values`` (see :func:`environment`), checked; the default
    when it is not set.

    Raises:
        ConfigError: an unsupported URL (see :func:`sqlite_path`).
    """
    url = values.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    sqlite_path(url)  # refused now rather than when the store opens
    return url


def database_path(
    environ: Mapping[str, str] | None = None, env_file: str | Path | None = ".env"
) -> Path:
    """The SQLite file ``DATABASE_URL`` names (the default's when it is not set), read as
    :func:`environment` says.

    Raises:
        ConfigError: an unreadable ``.env`` line or an unsupported URL.
    """
    return sqlite_path(database_url(environment(environ, env_file)))

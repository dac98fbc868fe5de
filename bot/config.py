"""The bot's settings: those every front end reads (:mod:`service.config`: ``.env`` and
``DATABASE_URL``) and its own (the Discord token and endpoints, logging, health file,
image workers, metrics, the shards a process connects and its leases).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from service.config import ConfigError, database_url, environment, is_postgres, sqlite_path

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
DEFAULT_METRICS_HOST = "127.0.0.1"
DEFAULT_LEASE_SECONDS = 30.0


@dataclass(frozen=True, slots=True)
class Settings:
    """Process-wide settings (see PRODUCT.md, *Running it*)."""

    discord_token: str | None
    database_url: str
    dev_guild_id: int | None
    log_level: str
    discord_api_base: str | None
    discord_gateway_url: str | None
    log_format: str = "text"
    """``text`` (plain, coloured only on a terminal) or ``json`` (one object per line)."""
    health_file: Path | None = None
    """Kept fresh while the bot is connected (see :mod:`bot.health`); None: no file."""
    render_workers: int | None = None
    """Image worker processes: None is one per core, 0 draws in threads of the bot's own
    process (see :class:`bot.images.Images`)."""
    metrics_port: int | None = None
    """Serve Prometheus metrics on this port (see :mod:`bot.metrics`); None: nothing listens."""
    metrics_host: str = DEFAULT_METRICS_HOST
    """The address the metrics endpoint binds (loopback unless told otherwise)."""
    shard_count: int | None = None
    """``SHARD_COUNT``: Discord shards of the whole bot (None: as Discord recommends, all
    connected by this process)."""
    shard_ids: tuple[int, ...] | None = None
    """``SHARD_IDS``: the shards this process connects (None: all of ``shard_count``)."""
    lease_seconds: float = DEFAULT_LEASE_SECONDS
    """``LEASE_SECONDS`` (PostgreSQL): how long a process's claim on its shards lasts
    unless renewed, so how soon another with the same range takes over a dead one."""

    @property
    def postgres(self) -> bool:
        """Whether ``database_url`` names a PostgreSQL database (else an SQLite file)."""
        return is_postgres(self.database_url)

    @property
    def database_path(self) -> Path:
        """The SQLite file ``database_url`` points at (see :func:`sqlite_path`).

        Raises:
            ConfigError: the database is PostgreSQL's (see :attr:`database`).
        """
        return sqlite_path(self.database_url)

    @property
    def database(self) -> str | Path:
        """Where the store is, for :func:`service.store.open_store`: the SQLite file, or
        the PostgreSQL URL."""
        return self.database_url if self.postgres else self.database_path

    @property
    def database_label(self) -> str:
        """The database for a log line: the file, or the URL without its password."""
        if not self.postgres:
            return str(self.database_path.absolute())
        return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", self.database_url)

    @property
    def state_dir(self) -> Path:
        """Where older releases kept their JSON files (beside an SQLite file; ``./data``
        with PostgreSQL)."""
        return Path("data") if self.postgres else self.database_path.parent

    @property
    def shard_leases(self) -> list[str]:
        """The names of the leases a process must hold to host its shards' games."""
        if self.shard_count is None:
            return ["shards: all"]
        return [f"shard {i} of {self.shard_count}" for i in self.shard_ids or ()]

    def hosts(self, guild_id: int | None) -> bool:
        """Whether a server's games are this process's: its guild is on one of the
        shards it connects (all of them when unsharded). Games of no server are never
        the bot's (the console's)."""
        if guild_id is None:
            return False
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a server's events on."""
    return (guild_id >> 22) % shard_count


def shards(count: str | None, ids: str | None) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS``: (count, the ids this process connects). An
    unset count is None (Discord's recommendation, every shard here); unset ids are all
    of the count. Ids are a range (``0-3``), a list (``0,2,5``) or both (``0-1,4``).

    Raises:
        ConfigError: a count that is not a number from 1 to 65535, ids without a count,
            ids that are not numbers below the count, or no id at all.
    """
    count, ids = (count or "").strip(), (ids or "").strip()
    if not count:
        if ids:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (how many shards in all)")
        return None, None
    if not count.isdigit() or not 1 <= int(count) <= 65535:
        raise ConfigError(f"SHARD_COUNT must be a number from 1 to 65535, not {count!r}")
    total = int(count)
    if not ids:
        return total, tuple(range(total))
    chosen: set[int] = set()
    for part in ids.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ConfigError(f"SHARD_IDS must look like 0-3 or 0,2,5, not {ids!r}")
        first, last = int(low), int(high) if dash else int(low)
        if first > last or last >= total:
            raise ConfigError(f"SHARD_IDS {part.strip()!r}: shards are 0 to {total - 1}")
        chosen.update(range(first, last + 1))
    return total, tuple(sorted(chosen))


def lease_seconds(value: str | None) -> float:
    """``LEASE_SECONDS``: empty or unset is :data:`DEFAULT_LEASE_SECONDS`.

    Raises:
        ConfigError: not a number of seconds from 1 to 3600.
    """
    value = (value or "").strip()
    if not value:
        return DEFAULT_LEASE_SECONDS
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not 1 <= seconds <= 3600:
        raise ConfigError(
            f"LEASE_SECONDS must be a number of seconds from 1 to 3600, not {value!r}"
        )
    return seconds


def render_workers(value: str | None) -> int | None:
    """``RENDER_WORKERS``: empty or unset is None (one worker process per core), ``0``
    draws in threads of the bot's own process, ``N`` starts N worker processes.

    Raises:
        ConfigError: not a whole number from 0 to 64.
    """
    value = (value or "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) > 64:
        raise ConfigError(f"RENDER_WORKERS must be a number from 0 to 64, not {value!r}")
    return int(value)


def metrics_port(value: str | None) -> int | None:
    """``METRICS_PORT``: empty or unset is None (no metrics endpoint), else a TCP port.

    Raises:
        ConfigError: not a whole number from 1 to 65535.
    """
    value = (value or "").strip()
    if not value:
        return None
    if not value.isdigit() or not 1 <= int(value) <= 65535:
        raise ConfigError(f"METRICS_PORT must be a port number from 1 to 65535, not {value!r}")
    return int(value)


def metrics_host(value: str | None) -> str:
    """``METRICS_HOST``: the address to bind (default ``127.0.0.1``; ``0.0.0.0`` or
    ``::`` for every interface, as in a container).

    Raises:
        ConfigError: it contains a space, a scheme or a port.
    """
    value = (value or "").strip()
    if not value:
        return DEFAULT_METRICS_HOST
    if any(c.isspace() for c in value) or "/" in value or value.count(":") == 1:
        raise ConfigError(
            f"METRICS_HOST must be an address or host name (the port is METRICS_PORT), "
            f"not {value!r}"
        )
    return value


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: str | Path | None = ".env"
) -> Settings:
    """Read the settings from ``environ`` (default ``os.environ``) over ``env_file``.

    Raises:
        ConfigError: an unreadable ``.env`` line, a non-numeric ``DEV_GUILD_ID``, an
            unknown ``LOG_LEVEL`` or ``LOG_FORMAT``, an unsupported ``DATABASE_URL``, a
            bad ``RENDER_WORKERS``, ``METRICS_PORT``, ``METRICS_HOST``, ``SHARD_COUNT``,
            ``SHARD_IDS`` or ``LEASE_SECONDS``.
    """
    values = environment(environ, env_file)
    get = values.get

    guild = get("DEV_GUILD_ID")
    if guild is not None and not guild.isdigit():
        raise ConfigError(f"DEV_GUILD_ID must be a number, not {guild!r}")
    level = (get("LOG_LEVEL") or "INFO").upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    log_format = (get("LOG_FORMAT") or "text").lower()
    if log_format not in LOG_FORMATS:
        raise ConfigError(f"LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, not {log_format!r}")
    health = get("HEALTH_FILE")
    url = database_url(values)
    shard_count, shard_ids = shards(get("SHARD_COUNT"), get("SHARD_IDS"))
    return Settings(
        discord_token=get("DISCORD_TOKEN"),
        database_url=url,
        dev_guild_id=int(guild) if guild is not None else None,
        log_level=level,
        discord_api_base=get("DISCORD_API_BASE"),
        discord_gateway_url=get("DISCORD_GATEWAY_URL"),
        log_format=log_format,
        health_file=Path(health) if health is not None else None,
        render_workers=render_workers(get("RENDER_WORKERS")),
        metrics_port=metrics_port(get("METRICS_PORT")),
        metrics_host=metrics_host(get("METRICS_HOST")),
        shard_count=shard_count,
        shard_ids=shard_ids,
        lease_seconds=lease_seconds(get("LEASE_SECONDS")),
    )

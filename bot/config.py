"""The bot's settings: those every front end reads (:mod:`service.config`: ``.env`` and
``DATABASE_URL``) and its own (the Discord token and endpoints, logging, health file,
image workers, metrics).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from service.config import ConfigError, database_url, environment, sqlite_path

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
DEFAULT_METRICS_HOST = "127.0.0.1"


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

    @property
    def database_path(self) -> Path:
        """The SQLite file ``database_url`` points at (see :func:`sqlite_path`)."""
        return sqlite_path(self.database_url)


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
            bad ``RENDER_WORKERS``, ``METRICS_PORT`` or ``METRICS_HOST``.
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
    )

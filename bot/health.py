"""The health file: the running bot rewrites it every :data:`BEAT` seconds with its gateway
state; ``python -m bot.health`` (Docker's ``HEALTHCHECK``) exits 0 when it is fresh and
says ``connected`` or ``standby``, 1 otherwise, with one line saying why.

The file (``HEALTH_FILE``) is one JSON object: ``{"state": ..., "time": ..., "pid": ...}``
where ``state`` is ``connecting`` (start-up), ``connected``, ``disconnected`` (discord.py
is reconnecting), ``standby`` (waiting, healthy, while another process hosts its shards:
see :mod:`bot.leases`) or ``stopping``; it is removed when the bot stops. This module
imports no Discord code, so the check is quick.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("bot.health")

BEAT = 15.0
"""Seconds between two writes while the bot runs."""
MAX_AGE = 60.0
"""A file older than this is stale (four beats missed: the event loop is stuck)."""
HEALTHY_STATES = {
    "connected": "connected",
    "standby": "standby: another process hosts this one's shards; it takes over if that one stops",
}
"""The states that pass the check, with how the check says them."""


def write(path: Path, state: str, now: float | None = None) -> None:
    """Replace the health file atomically with ``state`` at ``now`` (default: the time)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    body = json.dumps(
        {"state": state, "time": time.time() if now is None else now, "pid": os.getpid()}
    )
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(body + "\n", encoding="utf-8")
    os.replace(tmp, path)


def remove(path: Path) -> None:
    """Remove the health file (the bot stopped)."""
    path.unlink(missing_ok=True)


def check(path: Path, now: float | None = None, max_age: float = MAX_AGE) -> tuple[bool, str]:
    """(healthy, one line why): healthy means written under ``max_age`` seconds ago
    with a state of :data:`HEALTHY_STATES`."""
    now = time.time() if now is None else now
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        state, written = str(data["state"]), float(data["time"])
    except FileNotFoundError:
        return False, f"no health file at {path}: the bot is not running"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return False, f"unreadable health file {path}: {exc}"
    age = now - written
    if age > max_age:
        return False, f"stale: last written {age:.0f} s ago (state {state})"
    if state not in HEALTHY_STATES:
        return False, f"not connected to Discord: {state} ({age:.0f} s ago)"
    return True, f"{HEALTHY_STATES[state]} ({age:.0f} s ago)"


async def keep_fresh(path: Path, state: Callable[[], str], interval: float = BEAT) -> None:
    """Write ``state()`` to ``path`` now and every ``interval`` seconds until cancelled."""
    while True:
        try:
            write(path, state())
        except OSError as exc:  # a full or read-only disk must not stop the bot
            log.warning("cannot write the health file %s: %s", path, exc)
        await asyncio.sleep(interval)


def main(argv: list[str] | None = None) -> int:
    """``python -m bot.health [FILE]``: 0 healthy, 1 not (the file defaults to
    ``HEALTH_FILE`` from the environment or ``.env``)."""
    from service.config import ConfigError

    from .config import load_settings

    args = sys.argv[1:] if argv is None else argv
    if args:
        path: Path | None = Path(args[0])
    else:
        try:
            path = load_settings().health_file
        except ConfigError as exc:
            print(f"Configuration error: {exc}")
            return 1
    if path is None:
        print("HEALTH_FILE is not set, so the bot keeps no health file to check.")
        return 1
    healthy, why = check(path)
    print(why)
    return 0 if healthy else 1


if __name__ == "__main__":
    raise SystemExit(main())

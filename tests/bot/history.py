"""A long history in a store file, fast: finished games with their seats and logs,
bulk-inserted with ``executemany`` (the scale tests and ``benchmarks/store.py``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

SEATS = 2
ACTIONS = 2


def fill_history(path: Path, games: int, *, first_channel: int = 1_000_000_000) -> None:
    """Add ``games`` finished games (``SEATS`` seats and ``ACTIONS`` actions each) to the
    migrated store at ``path``, in one transaction."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA cache_size = -262144")  # 256 MiB: no spill mid-fill
        start = conn.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0] + 1
        ids = range(start, start + games)
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, status, variant, host_id, settings, "
            "state, version, revision, created_at, started_at, ended_at, result) "
            "VALUES (?, 7, ?, 'finished', 'european_war', 1, '{}', '{}', ?, ?, 0, 1, 2, "
            "'{\"draw\":true}')",
            ((g, first_channel + g, ACTIONS, ACTIONS + 4) for g in ids),
        )
        conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name, power, joined_at) "
            "VALUES (?, ?, ?, 'P', 'X', 0)",
            ((g, s, 100 + s) for g in ids for s in range(SEATS)),
        )
        conn.executemany(
            "INSERT INTO actions (game_id, seq, seat, user_id, source, action, events, "
            "created_at) VALUES (?, ?, ?, NULL, 'player', '{}', '[]', 3)",
            ((g, q, (q - 1) % SEATS) for g in ids for q in range(1, ACTIONS + 1)),
        )
        conn.execute("COMMIT")
    finally:
        conn.close()

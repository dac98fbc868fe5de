"""The console's own games in the shared database: which pseudo channels are the
console's, its unfinished games as a list to choose from, a free channel for a new game,
and the command that resumes a game from any shell.

Each console game has a pseudo channel of its own (the store allows one unfinished game
per channel), so several may wait to be resumed; ``--watch`` games share one.
"""

from __future__ import annotations

import importlib.metadata
import os
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rules import contract
from service.models import GameRecord
from service.store import Store

from .catalogue import _

CONSOLE_CHANNEL_ID = 1
"""The pseudo channel of the first console game (the next ones take 3, 4, …)."""
WATCH_CHANNEL_ID = 2
"""The pseudo channel of ``--watch`` games, so watching never touches your own games."""
PSEUDO_CHANNELS = 1 << 22
"""Console games live in pseudo channels below this id. Discord's ids are snowflakes (a
millisecond timestamp shifted left by 22 bits), all far above it."""


def is_console_channel(channel_id: int) -> bool:
    """True for the pseudo channels of console games (the bot should leave them alone)."""
    return 0 < channel_id < PSEUDO_CHANNELS


def console_games(guild_id: int | None, channel_id: int) -> bool:
    """The games the console hosts (its service's ``hosts``): no server, and one of its
    pseudo channels. The Discord bot on the same file hosts only games of servers."""
    return guild_id is None and is_console_channel(channel_id)


@dataclass(frozen=True, slots=True)
class Unfinished:
    """A console game that waits to be resumed, as the list shows it."""

    game_id: int
    title: str
    seats: tuple[str, ...]
    """Each seat in seat order: a person with their side (``Ann (<side>)``), a
    computer by its name."""
    last_played: float
    """When its latest action was made (or it started), in seconds since the epoch."""

    def line(self) -> str:
        """``#3  <game> · Ann (<side>), <computer> · last played 2025-05-01 14:03``."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.last_played))
        return _("#{id}  {game} · {seats} · last played {when}").format(
            id=self.game_id, game=self.title, seats=", ".join(self.seats), when=when
        )


async def console_records(store: Store) -> list[GameRecord]:
    """The console's lobbies and running games, ``--watch`` games left out."""
    return [
        rec
        for rec in await store.load_active()
        if console_games(rec.guild_id, rec.channel_id) and rec.channel_id != WATCH_CHANNEL_ID
    ]


async def unfinished(store: Store, records: Sequence[GameRecord]) -> list[Unfinished]:
    """The running games among ``records``, most recently played first."""
    out = []
    for rec in records:
        if rec.status != "running":
            continue
        last = await store.last_actions(rec.id, 1)
        when = last[-1].created_at if last else (rec.started_at or rec.created_at)
        words = contract.game_named(rec.variant).presentation
        seated = sorted((s for s in rec.seats if s.seat is not None), key=lambda s: s.seat or 0)
        seats = tuple(
            f"{s.display_name} ({words.side_name(s.power)})"
            if s.power and s.user_id is not None
            else s.display_name  # a computer is named after its side
            for s in seated
        )
        out.append(Unfinished(rec.id, words.title, seats, when))
    return sorted(out, key=lambda u: (-u.last_played, -u.game_id))


def free_channel(records: Sequence[GameRecord]) -> int:
    """The lowest console pseudo channel without an unfinished game, for a new one."""
    used = {rec.channel_id for rec in records} | {WATCH_CHANNEL_ID}
    channel = CONSOLE_CHANNEL_ID
    while channel in used:
        channel += 1
    return channel


# ---------------------------------------------------------------------- resuming
def launcher(executable: str | None = None) -> list[str]:
    """The words that start this console from any directory of a fresh shell: the
    installed ``european-war`` script beside the Python running now (a virtual
    environment's ``bin``), else that Python's absolute path with ``-m console`` (with
    the source tree on ``PYTHONPATH`` when the package is not installed)."""
    python = Path(executable or sys.executable).absolute()
    name = "european-war.exe" if os.name == "nt" else "european-war"
    script = python.parent / name
    if script.is_file():
        return [str(script)]
    try:
        importlib.metadata.distribution("european-war-bot")
    except importlib.metadata.PackageNotFoundError:
        tree = Path(__file__).resolve().parent.parent
        return ["env", f"PYTHONPATH={tree}", str(python), "-m", "console"]
    return [str(python), "-m", "console"]


def resume_command(game_id: int, db: Path, out: Path | None, launch: Sequence[str]) -> str:
    """The shell command that resumes game ``game_id`` from any directory: ``launch``,
    the game, and the database and board folder as absolute paths."""
    words = [*launch, "--resume", str(game_id), "--db", str(db.absolute())]
    words += ["--out", str(out.absolute())] if out is not None else ["--no-boards"]
    return shlex.join(words)

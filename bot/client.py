"""The Discord client: a ``commands.Bot`` that owns the store, the game service and the
delivery, with only non-privileged gateway intents.

``setup_hook`` opens the store, starts the service (unfinished games, their deadlines and
computer seats come back), adds the cogs, registers the dynamic (restart-proof) buttons
and syncs the command tree; ``on_ready`` re-sends open private panels once after a start.
A channel or thread deleted, or the bot removed from a server, archives its games and
stops their timers; a server's data is deleted :data:`RETENTION` after the bot left it.
Everything the bot must remember is in the store: games, per-server settings, per-user
preferences (``/pings``), departures and the command-set hash.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from .config import Settings
from .delivery import Delivery
from .entry import command_entry
from .errors import handle_error
from .legacy import import_legacy_files
from .service import GameService, GameStatus, Outcome, PrivateNote, server_games
from .store import Store
from .sync import sync_commands
from .views.confirm import ConfirmButton, KeepButton
from .views.lobby import LobbyButton, OptionSelect
from .views.panels import PANEL_KINDS, AnswerButton, AnswerSelect, OpenPanelButton

log = logging.getLogger("bot")
RETENTION = 7 * 86400.0
"""Seconds a server's data is kept after the bot was removed from it (see ``/about``)."""


def intents() -> discord.Intents:
    """Only what the bot needs: guilds (channels, threads, joins and leaves). No privileged
    intent (no message content, no members, no presences)."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


def uv_seat(status: GameStatus, user_id: int) -> int | None:
    """The seat ``user_id`` holds in a game, or None."""
    return next((s.seat for s in status.seats if s.user_id == user_id), None)


class GameBot(commands.Bot):
    """The European War bot.

    Args:
        settings: process settings (database, dev guild, …).
        service_options: keyword arguments for :class:`GameService` (tests pass a fake
            clock, no computer pacing and fixed seeds); ``hosts`` defaults to the games
            of servers.
        state_dir: where older releases kept their JSON files, imported into the store
            once at start-up (default: beside the database; see :mod:`bot.legacy`).
        sync: sync the command tree at start-up (as :func:`bot.sync.sync_commands` says).
        warm_up: draw a board in the background at start-up so the first image is fast.
    """

    def __init__(self, settings: Settings, *, service_options: dict[str, Any] | None = None,
                 state_dir: Path | None = None, sync: bool = True, warm_up: bool = True,
                 **kwargs: Any) -> None:
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(),
                         help_command=None, **kwargs)
        self.settings = settings
        self.service_options = dict(service_options or {})
        self.state_dir = state_dir or settings.database_path.parent
        self.do_sync = sync
        self.do_warm_up = warm_up
        self.store: Store | None = None
        self.service: GameService = None  # type: ignore[assignment]
        self._purge_lock = asyncio.Lock()
        self.delivery = Delivery(self)
        self._panels_resent = False
        self._background: set[asyncio.Task[Any]] = set()
        self._handlers = 0
        self._handlers_idle = asyncio.Event()
        self._handlers_idle.set()
        self.tree.on_error = handle_error  # type: ignore[assignment]
        self.tree.interaction_check = command_entry  # type: ignore[method-assign]

    @property
    def db(self) -> Store:
        """The open store (from ``setup_hook`` on).

        Raises:
            RuntimeError: the bot has not been set up yet.
        """
        if self.store is None:
            raise RuntimeError("the store is not open yet")
        return self.store

    # ------------------------------------------------------------------ lifecycle
    async def setup_hook(self) -> None:
        """Open the store and the service, add cogs and buttons, sync commands."""
        from .cogs.info import InfoCog
        from .cogs.lobby import LobbyCog
        from .cogs.table import TableCog
        from .cogs.turn import TurnCog

        self.store = await Store.open(self.settings.database_path)
        # the bot hosts the games of servers, never the console's (same database file)
        self.service = GameService(self.store, **{"hosts": server_games,
                                                  **self.service_options})
        await import_legacy_files(self.store, self.state_dir, self.service.clock.now())
        self.service.add_listener(self.delivery.on_outcome)
        for cog in (LobbyCog(), TableCog(), TurnCog(), InfoCog()):
            await self.add_cog(cog)
        self.add_dynamic_items(LobbyButton, OptionSelect, AnswerButton, AnswerSelect,
                               OpenPanelButton, ConfirmButton, KeepButton)
        if self.do_warm_up:
            self._spawn(self.delivery.images.warm_up())
        loaded = await self.service.start()
        log.info("service started: %d unfinished game(s) loaded", loaded)
        self.delivery.dms_closed |= await self.store.users_with_dms_closed()
        self._spawn(self._purge_loop())
        if self.do_sync:
            await sync_commands(self)

    async def on_ready(self) -> None:
        """Once per process: re-send every open private panel (they come back after a
        restart; old panels keep working too)."""
        log.info("connected as %s to %d server(s)", self.user, len(self.guilds))
        if self._panels_resent:
            return
        self._panels_resent = True
        self._spawn(self.resend_panels())

    async def resend_panels(self) -> None:
        """DM every person with an open panel decision its panel again."""
        prompts = [p for p in await self.service.prompts() if p.kind in PANEL_KINDS]
        for prompt in prompts:
            status = await self.service.status(prompt.game_id)
            if prompt.user_id is None or uv_seat(status, prompt.user_id) is None:
                continue
            uv = await self.service.view(prompt.game_id, prompt.user_id)
            note = PrivateNote(prompt.user_id, prompt.seat, (), False, uv.view)
            outcome = Outcome(
                ok=True, game_id=prompt.game_id, kind="resend", channel_id=status.channel_id,
                guild_id=status.guild_id, status=status.status, version=status.version,
                prompts=(prompt,), names=tuple(s.name for s in status.seats),
                private={prompt.user_id: note})
            await self.delivery.deliver(outcome)

    async def settle(self) -> None:
        """Wait until the service, the delivery and the bot's event handlers are all
        quiet (tests, shutdown)."""
        while True:
            await self.service.idle()
            await self.delivery.idle()
            await self._handlers_idle.wait()
            await asyncio.sleep(0)
            if (not self.delivery.busy and not self.service._busy(None)
                    and self._handlers == 0):
                return

    async def close(self) -> None:
        """Stop timers and computer players, send what is queued, close the store."""
        for task in list(self._background):
            task.cancel()
        if self.service is not None:
            await self.service.close()
            await self.delivery.idle()
            self.service = None  # type: ignore[assignment]
        await super().close()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ------------------------------------------------------------------ leaving
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel is gone: archive its game (and its threads' games)."""
        await self._archive_channel(channel.id)

    async def on_thread_delete(self, thread: discord.Thread) -> None:
        """A thread is gone: archive its game."""
        await self._archive_channel(thread.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread not in the cache is gone: archive its game."""
        if payload.thread is None:
            await self._archive_channel(payload.thread_id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Back in a server it left: its data is kept."""
        with self._handling():
            await self.db.forget_departure(guild.id)

    async def purge_departed(self) -> list[int]:
        """Delete the data of servers the bot left over ``RETENTION`` ago (and has not
        rejoined). Returns their ids."""
        done = []
        async with self._purge_lock:
            due = await self.db.departures_due(self.service.clock.now() - RETENTION)
            for guild_id in due:
                if self.get_guild(guild_id) is not None:
                    await self.db.forget_departure(guild_id)
                    continue
                # deletes the departure with the rest, in the same transaction
                count = await self.service.delete_guild_data(guild_id)
                log.info("deleted the data of server %s (%d game(s)), which removed the bot",
                         guild_id, count)
                done.append(guild_id)
        return done

    async def _purge_loop(self) -> None:
        while True:
            clock = self.service.clock
            await clock.sleep_until(clock.now() + 3600)
            try:
                await self.purge_departed()
            except Exception:
                log.exception("deleting departed servers' data failed")

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server: archive its games, stop their timers; its
        data is deleted ``RETENTION`` later unless the bot comes back."""
        with self._handling():
            await self.db.record_departure(guild.id, self.service.clock.now())
            ids = await self.service.archive_guild(guild.id)
        for gid in ids:
            self.delivery.forget(gid)
        if ids:
            log.info("removed from guild %s: archived game(s) %s", guild.id, ids)

    async def _archive_channel(self, channel_id: int) -> None:
        with self._handling():
            ids = await self.service.archive_channel(channel_id)
        for gid in ids:
            self.delivery.forget(gid)
        if ids:
            log.info("channel %s deleted: archived game(s) %s", channel_id, ids)

    @contextmanager
    def _handling(self) -> Iterator[None]:
        """Count a gateway event handler in flight (``settle`` waits for it)."""
        self._handlers += 1
        self._handlers_idle.clear()
        try:
            yield
        finally:
            self._handlers -= 1
            if self._handlers == 0:
                self._handlers_idle.set()

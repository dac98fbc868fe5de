"""The Discord client: a ``commands.AutoShardedBot`` handed what it runs on (the store, the
game service, the images, the metrics and the leases, opened by ``python -m bot``:
:mod:`bot.resources`), that adds the delivery to Discord, with only non-privileged
gateway intents.

``setup_hook`` only wires: it adds the cogs, each given the bot, and registers the
dynamic (restart-proof) buttons bound to it (:class:`bot.views.controls.Controls`).
:meth:`GameBot.start` then, before the gateway, holds its shards' leases (PostgreSQL: a
standby waits here), syncs the command tree if it leads, sends what the outbox still
owed and tells the channels what a crash left untold, and starts the games (unfinished
games, their deadlines and computer seats come back); ``on_ready`` re-sends open private
panels once after a start. A channel or thread deleted, or the bot removed from a server,
archives its games and stops their timers; a server's data is deleted :data:`RETENTION`
after the bot left it. Everything the bot must remember is in the store: games,
per-server settings, per-user preferences (``/pings``), departures and the command-set
hash.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from service import GameService, GameStatus, Outcome, PrivateNote
from service.store import FrontStore

from . import health
from .cogs.info import InfoCog
from .cogs.lobby import LobbyCog
from .cogs.ratings import RatingsCog
from .cogs.replays import ReplaysCog
from .cogs.table import TableCog
from .cogs.turn import TurnCog
from .config import Settings
from .delivery import Delivery
from .entry import command_entry, speak_their_language
from .errors import answer_unknown_component, handle_error
from .games import is_panel
from .resources import Resources
from .sync import sync_commands
from .translator import CatalogueTranslator
from .views.controls import Controls

log = logging.getLogger("bot")
RETENTION = 7 * 86400.0
"""Seconds a server's data is kept after the bot was removed from it (see ``/about``)."""
CLOSE_BUDGET = 1.0
"""Seconds a stop waits for messages still being sent; with the store's last commit and
the disconnect, a stop stays under 2 s."""
DISCONNECT_BUDGET = 0.3
"""Seconds Discord gets to acknowledge the gateway's close before the bot just leaves."""


def intents() -> discord.Intents:
    """Only what the bot needs: guilds (channels, threads, joins and leaves). No privileged
    intent (no message content, no members, no presences)."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


def _interaction_tasks() -> list[asyncio.Task[Any]]:
    """The tasks discord.py runs slash commands and component callbacks in (it names
    them), still running."""
    return [
        t
        for t in asyncio.all_tasks()
        if not t.done()
        and (
            t.get_name() == "CommandTree-invoker"
            or (
                t.get_name().startswith("discord-ui-")
                and not t.get_name().startswith("discord-ui-view-timeout")
            )
        )
    ]


def package_version() -> str:
    """The installed release of the bot (``unknown`` when run from an uninstalled tree)."""
    try:
        return importlib.metadata.version("european-war-bot")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def uv_seat(status: GameStatus, user_id: int) -> int | None:
    """The seat ``user_id`` holds in a game, or None."""
    return next((s.seat for s in status.seats if s.user_id == user_id), None)


INTERACTION_TASKS = (
    "CommandTree-invoker",
    "discord-ui-dynamic-item-",
    "discord-ui-view-dispatch-",
    "discord-ui-modal-dispatch-",
    "discord.py: on_interaction",
)
"""How discord.py names the tasks that run a slash command, a component's callback, a
modal's and the ``interaction`` event."""


def interaction_tasks() -> set[asyncio.Task[Any]]:
    """The tasks of this event loop handling an interaction now (see
    :data:`INTERACTION_TASKS`), the calling task left out."""
    me = asyncio.current_task()
    return {
        t
        for t in asyncio.all_tasks()
        if t is not me and not t.done() and t.get_name().startswith(INTERACTION_TASKS)
    }


class GameTree(app_commands.CommandTree["GameBot"]):
    """The bot's command tree: every command passes the entry check first, and every
    error goes to the one handler."""

    async def interaction_check(self, interaction: discord.Interaction[GameBot], /) -> bool:
        return await command_entry(self, interaction, self.client.metrics)

    async def on_error(
        self, interaction: discord.Interaction[GameBot], error: app_commands.AppCommandError, /
    ) -> None:
        await handle_error(interaction, error, self.client.metrics)


class GameBot(commands.AutoShardedBot):
    """The European War bot. It connects the shards ``SHARD_COUNT`` and ``SHARD_IDS``
    say (unset: every shard Discord recommends) and hosts the games of the servers on
    them (see :meth:`bot.config.Settings.hosts`); several processes with different shard
    ranges share one PostgreSQL database.

    Args:
        settings: process settings (dev guild, health file, …).
        resources: what it runs on (:func:`bot.resources.open_resources`): the service
            (and its store), the images, the metrics and the leases.
        sync: sync the command tree at start-up, if this process leads (as
            :func:`bot.sync.sync_commands` says).
        warm_up: draw a board in the background at start-up so the first image is fast.
        outbox_options: keyword arguments for :class:`bot.outbox.Outbox` (``rate``,
            ``burst``, ``concurrency``; tests lower the rate with the fake's limit).
        backlog: how many deliveries and outbox items a game may have outstanding before
            its computer players wait (see :meth:`bot.delivery.Delivery.room`).
        shutdown_grace: seconds a shutdown waits for the outbox to empty; what is left
            is sent at the next start (within the stop's ``close_budget``).
    """

    def __init__(
        self,
        settings: Settings,
        resources: Resources,
        *,
        sync: bool = True,
        warm_up: bool = True,
        outbox_options: dict[str, Any] | None = None,
        backlog: int = 0,
        shutdown_grace: float = 1.0,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        if settings.shard_count is not None:
            kwargs.setdefault("shard_count", settings.shard_count)
            kwargs.setdefault("shard_ids", list(settings.shard_ids or ()))
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=GameTree,
            **kwargs,
        )
        self.settings = settings
        self.resources = resources
        self.do_sync = sync
        self.do_warm_up = warm_up
        self.store = resources.store
        self.service: GameService = resources.service
        self.metrics = resources.metrics
        """Prometheus metrics (see :mod:`bot.metrics`), served when ``METRICS_PORT`` is set."""
        self._purge_lock = asyncio.Lock()
        self.controls = Controls(self)
        self.delivery = Delivery(self, resources.images, outbox=outbox_options, backlog=backlog)
        self.delivery.outbox.metrics = self.metrics
        self.service.add_listener(self._deliver_outcome)
        self.service.room = self.delivery.room
        self.service.on_changed = self._changed_elsewhere
        speak_their_language(self._connection, self.service.note_locale)
        self.leases = resources.leases
        self.metrics.watch(
            games=lambda: self.service.running_games() if self.service is not None else 0,
            render_queue=lambda: self.delivery.images.queued,
            outbox_queue=lambda: self.delivery.outbox.queued,
            gateway_latency=lambda: self.latency,
        )
        self._playing = False
        self.shutdown_grace = shutdown_grace
        self._stop_deadline = 0.0
        self._panels_resent = False
        self._background: set[asyncio.Task[Any]] = set()
        self._handlers_busy = 0
        self._handlers_idle = asyncio.Event()
        self._handlers_idle.set()
        self._delivering: set[asyncio.Task[Any]] = set()
        self._closing: asyncio.Task[None] | None = None
        self.close_budget = CLOSE_BUDGET

    @property
    def db(self) -> FrontStore:
        """What the bot keeps itself (outbox items, the actions owed to channels, held
        channels, message ids, closed DMs, pings, departures, the command-set hash),
        through the service's door; games go through the service.

        Raises:
            RuntimeError: the bot has stopped.
        """
        if self.service is None:
            raise RuntimeError("the store is closed")
        return self.service.front_store

    # ------------------------------------------------------------------ lifecycle
    @property
    def leader(self) -> bool:
        """Whether this process runs the jobs of the whole bot, command sync and purges
        (always on SQLite; on PostgreSQL, the holder of the leader's lease)."""
        return self.leases is None or self.leases.leads

    async def setup_hook(self) -> None:
        """Add the cogs (each given this bot) and the buttons bound to it."""
        for cog in (
            LobbyCog(self),
            TableCog(self),
            TurnCog(self),
            InfoCog(self),
            RatingsCog(self),
            ReplaysCog(self),
        ):
            await self.add_cog(cog)
        self.add_dynamic_items(*self.controls.items())
        await self.tree.set_translator(CatalogueTranslator())

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """Log in (``setup_hook`` wires), keep the health file, hold this process's
        shards (:meth:`hold_shards`), sync the command tree if this process leads, then
        :meth:`start_play`, then connect to the gateway and run until closed.

        Raises:
            discord.LoginFailure: Discord refused the token.
        """
        await self.login(token)
        if self.settings.health_file is not None:
            self._spawn(health.keep_fresh(self.settings.health_file, self.health_state))
        await self.hold_shards()
        if self.do_sync and self.leader:
            await sync_commands(self)
        await self.start_play()
        await self.connect(reconnect=reconnect)

    async def hold_shards(self) -> None:
        """On PostgreSQL, hold the leases of this process's shards before hosting their
        games (while another process holds one, wait: a standby, as the health file
        says), then keep them (see :mod:`bot.leases`)."""
        if self.leases is None:
            return
        await self.leases.hold_shards(waiting=lambda _: self._write_health())
        self._spawn(self._keep_leases())

    async def _keep_leases(self) -> None:
        """Renew the leases every third of their length. Losing a shard's (this process
        stalled past its lease and another took over) stops the bot: two hosts of one
        game must never both run. Becoming the leader syncs the command tree."""
        assert self.leases is not None
        while True:
            await asyncio.sleep(self.leases.seconds / 3)
            was = self.leader
            try:
                lost = await self.leases.renew()
                if lost is not None:
                    log.error("another process took over %s: stopping", lost)
                    self._spawn(self.close())
                    return
                if self.leader and not was:
                    log.info("this process now leads (command sync, purges)")
                    if self.do_sync:
                        await sync_commands(self)
            except Exception:
                log.exception("renewing the leases failed; trying again")

    async def start_play(self) -> None:
        """Once logged in and holding its shards, before the gateway: send what the
        previous process's outbox still owed (of this process's games) and tell the
        channels what a crash or another process left untold, then start the games."""
        if self.do_warm_up:
            self._spawn(self.delivery.images.warm_up())
        self._playing = True
        await self.delivery.restore_holds()  # channels still refusing the bot stay held
        await self.delivery.outbox.start()  # what the previous process still owed
        # before the games move on: what a crash left untold, after what it kept
        await self.delivery.catch_up()
        loaded = await self.service.start()
        log.info("service started: %d unfinished game(s) loaded", loaded)
        gone = await self.delivery.undo.restore()  # their timers, lost with the process
        if gone:
            log.info("took off %d Undo button(s) whose time ran out meanwhile", gone)
        self.delivery.dms_closed |= await self.db.users_with_dms_closed()
        self._spawn(self._purge_loop())

    async def on_ready(self) -> None:
        """Say so in one line (release, database, shards, servers); once per process,
        re-send every open private panel (they come back after a restart; old panels keep
        working too)."""
        log.info(
            "ready: european-war-bot %s as %s, database %s, %s, %d server(s)",
            package_version(),
            self.user,
            self.settings.database_label,
            self._shards_line(),
            len(self.guilds),
        )
        self._write_health()
        if self.delivery.outbox.held_channels:  # a permission may be back since the stop
            self._spawn(self._permissions_changed(None))
        if self._panels_resent:
            return
        self._panels_resent = True
        self._spawn(self.resend_panels())

    def _shards_line(self) -> str:
        """``2 shard(s)`` (all of them), or ``shard(s) 0, 1 of 4`` for a process with a range."""
        ids = sorted(self.shards)
        count = self.shard_count or 1
        if len(ids) == count:
            return f"{count} shard(s)"
        return f"shard(s) {', '.join(map(str, ids))} of {count}"

    async def owes(self, game_id: int | None) -> bool:
        """Whether a message kept in the outbox is this process's to send: one of a game
        it hosts, or of no game where it connects shard 0 (as DMs arrive there)."""
        if game_id is None:
            return self.shard_ids is None or 0 in self.shard_ids
        return await self.service.hosting(game_id)

    async def _changed_elsewhere(self, game_id: int) -> None:
        """Another process changed one of this process's games: tell its channel (and
        its players) what is owed, before the game is reloaded here."""
        await self.delivery.catch_up(only=game_id)
        await self.delivery.undo.restore(only=game_id)

    async def resend_panels(self) -> None:
        """DM every person with an open panel decision its panel again."""
        prompts = [p for p in await self.service.prompts() if is_panel(p.kind)]
        for prompt in prompts:
            status = await self.service.status(prompt.game_id)
            if prompt.user_id is None or uv_seat(status, prompt.user_id) is None:
                continue
            uv = await self.service.view(prompt.game_id, prompt.user_id)
            note = PrivateNote(prompt.user_id, prompt.seat, (), False, uv.view)
            outcome = Outcome(
                ok=True,
                game_id=prompt.game_id,
                kind="resend",
                variant=status.variant,
                channel_id=status.channel_id,
                guild_id=status.guild_id,
                status=status.status,
                version=status.version,
                prompts=(prompt,),
                names=tuple(s.name for s in status.seats),
                private={prompt.user_id: note},
                language=status.language,
            )
            await self.delivery.deliver(outcome)

    async def settle(self) -> None:
        """Wait until the interactions being handled, the service, the delivery and the
        bot's event handlers are all quiet (tests)."""
        while True:
            await self.interactions_done()
            await self.service.idle()
            await self.delivery.idle()
            await self.delivery.outbox.idle()
            await self._handlers_idle.wait()
            await asyncio.sleep(0)
            if (
                not self.delivery.busy
                and not self.service._busy(None)
                and not self.delivery.outbox.busy
                and self._handlers_busy == 0
                and not interaction_tasks()
            ):
                return

    @staticmethod
    async def interactions_done() -> None:
        """Wait until no slash command, component callback or interaction event is being
        handled: a handler goes on after its answer (it delivers the outcome), so Discord
        having the answer does not mean the bot is done (tests)."""
        while running := interaction_tasks():
            await asyncio.wait(running)

    async def close(self) -> None:
        """Stop, at any point of start-up or play (safe to call twice): timers and computer
        players stop, messages still being sent get up to ``close_budget`` seconds (what is
        not sent by then is dropped and logged), queued writes are committed and the store
        closed, then the bot disconnects from Discord. (The images and the metrics close
        when :func:`bot.resources.open_resources` ends.)"""
        if self._closing is None:
            self._closing = asyncio.get_running_loop().create_task(self._shut_down())
        # a second cancellation of the caller must not cut the store's last commit short
        await asyncio.shield(self._closing)

    async def _shut_down(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.close_budget
        for task in list(self._background):
            task.cancel()
        if self.settings.health_file is not None:
            health.remove(self.settings.health_file)
        self.delivery.outbox.stop_waiting()  # a delivery waiting on a message ends now
        if self._playing:
            self._stop_deadline = deadline
            # the service stops its games, the deliveries finish and the outbox sends what
            # it can (the rest is kept for the next start); then the store is closed
            stopping = loop.create_task(
                self.resources.close_service(before_store=self._stop_sending)
            )
            _, pending = await asyncio.wait({stopping}, timeout=max(0.0, deadline - loop.time()))
            if pending:
                handlers = _interaction_tasks()
                log.warning(
                    "stopping: messages still being sent after %.1f s are not sent "
                    "(%d game(s), %d interaction(s) cut short)",
                    self.close_budget,
                    len(self._delivering),
                    len(handlers),
                )
                for task in [*self._delivering, *handlers]:
                    task.cancel()
                # and whatever else delivers: gateway events, images still to be added to
                # messages (drawn by a renderer that may still be warming up); what they
                # would have told stays owed and is told at the next start
                self.delivery.abandon()
                if handlers:  # let them unwind before the connection they use goes
                    await asyncio.wait(handlers, timeout=0.1)
            await stopping  # the service closes the store: queued writes are committed
        # not playing (stopped during start-up): open_resources closes the service
        self.service = None  # type: ignore[assignment]  # closed: unusable from here on
        if getattr(self, "_AutoShardedClient__queue", None) is None:
            # never entered nor started (discord.py's sharded close needs the event queue
            # its setup makes): nothing is connected, only the HTTP session to close
            await self.http.close()
            return
        try:
            await asyncio.wait_for(super().close(), DISCONNECT_BUDGET)
        except TimeoutError:
            log.info("Discord did not acknowledge the disconnect in time; leaving anyway")
            await self.http.close()

    async def _deliver_outcome(self, outcome: Outcome) -> None:
        """The service's listener: deliver ``outcome`` (cancelled if a stop runs out of
        time)."""
        task = asyncio.current_task()
        assert task is not None
        self._delivering.add(task)
        try:
            await self.delivery.on_outcome(outcome)
        finally:
            self._delivering.discard(task)

    # ------------------------------------------------------------------ health
    def health_state(self) -> str:
        """The state for the health file (see :mod:`bot.health`): ``standby`` while
        another process hosts this one's shards, else the gateway's (every shard's)."""
        if self.is_closed() or self._closing is not None:
            return "stopping"
        if self.leases is not None and self.leases.waiting:
            return "standby"
        if not self.is_ready():
            return "connecting"
        shards = self.shards.values()
        return "connected" if shards and not any(s.is_closed() for s in shards) else "disconnected"

    def _write_health(self) -> None:
        if self.settings.health_file is None or self._closing is not None:
            return
        try:
            health.write(self.settings.health_file, self.health_state())
        except OSError as exc:
            log.warning("cannot write the health file: %s", exc)

    async def on_disconnect(self) -> None:
        """The gateway connection dropped (discord.py reconnects): say so at once."""
        self._write_health()

    async def on_resumed(self) -> None:
        """The gateway session is back."""
        self._write_health()

    async def _stop_sending(self) -> None:
        """Deliver what the service made, give the outbox up to ``shutdown_grace`` seconds
        (within the stop's budget) to send it, and stop it (the rest stays kept in the
        store)."""
        await self.delivery.idle()
        left = self._stop_deadline - asyncio.get_running_loop().time()
        await self.delivery.outbox.close(grace=max(0.0, min(self.shutdown_grace, left)))

    def _spawn(self, coro: Any) -> None:
        """Run ``coro`` in a background task that a stop cancels; once the stop has begun
        (an event such as the gateway's READY may still arrive), nothing new starts."""
        if self._closing is not None:
            coro.close()
            return
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ------------------------------------------------------------------ permissions
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        """Overwrites changed: the bot may post in a held channel again."""
        await self._permissions_changed(after.guild.id)

    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        """A thread changed (e.g. unlocked): the bot may post there again."""
        await self._permissions_changed(after.guild.id)

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role's permissions changed."""
        await self._permissions_changed(after.guild.id)

    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        """The bot's own roles changed."""
        if self.user is not None and after.id == self.user.id:
            await self._permissions_changed(after.guild.id)

    async def _permissions_changed(self, guild_id: int | None) -> None:
        if not self.delivery.outbox.held_channels or self.service is None:
            return
        with self._handling():
            await self.delivery.permissions_changed(guild_id)

    # ------------------------------------------------------------------ leaving
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction, after discord.py routed it: a click on a component no
        handler takes (a button of an older release) is still answered."""
        await answer_unknown_component(interaction, self._connection._view_store, self.metrics)

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
                log.info(
                    "deleted the data of server %s (%d game(s)), which removed the bot",
                    guild_id,
                    count,
                )
                done.append(guild_id)
        return done

    async def _purge_loop(self) -> None:
        while True:
            clock = self.service.clock
            await clock.sleep_until(clock.now() + 3600)
            if not self.leader:
                continue  # the leader purges
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
            await self.delivery.outbox.discard(
                [c.id for c in guild.channels] + [t.id for t in guild.threads]
            )
        for gid in ids:
            self.delivery.forget(gid)
        if ids:
            log.info("removed from guild %s: archived game(s) %s", guild.id, ids)

    async def _archive_channel(self, channel_id: int) -> None:
        with self._handling():
            ids = await self.service.archive_channel(channel_id)
            await self.delivery.outbox.discard([channel_id])
        for gid in ids:
            self.delivery.forget(gid)
        if ids:
            log.info("channel %s deleted: archived game(s) %s", channel_id, ids)

    @contextmanager
    def _handling(self) -> Iterator[None]:
        """Count a gateway event handler in flight (``settle`` waits for it)."""
        self._handlers_busy += 1
        self._handlers_idle.clear()
        try:
            yield
        finally:
            self._handlers_busy -= 1
            if self._handlers_busy == 0:
                self._handlers_idle.set()

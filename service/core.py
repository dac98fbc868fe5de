"""The service's machinery: per-game locks, the game cache, the one apply path,
listeners and quiescence. The operations themselves live in the sibling modules.

Every operation on a game runs as ``_guarded(game_id, body)``: under the game's
``asyncio.Lock`` it loads the game (from the cache, else the database), lets the engine
validate, persists in one transaction and builds the :class:`Outcome`. A rule or service
refusal becomes ``Outcome(ok=False, error=...)`` with nothing written; an unexpected
exception is logged, drops the cached copy (the database, rolled back, still holds the game
as before) and becomes a generic refusal. A stale write (another process came first)
reloads the game and tries the operation once more against the fresh state.

Front ends share one database (the Discord bot and the terminal console, by default on the
same file), so each service is told which games it hosts (``hosts``: the bot the games
of the servers on its shards, the console its own pseudo channels). Only those are loaded
at start, cached, driven (computer seats, deadlines, reminders) and given to the
listeners. A game it does not host but may reach (``visits``: the bot, any server's game,
for a DM's panel that Discord sent to another bot process than the game's) is acted on
through the database — loaded fresh for each operation, never cached, timed or driven —
and after each change its host is told (:meth:`service.store.Store.publish`): the host
reloads it, re-arms its timers, sets its computers going and tells its channel
(:meth:`ServiceBase.refresh`). Any other game is "no such game" to this service, so one
front end never drives or delivers another front end's games.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

import rules
from rules import contract, i18n
from rules.presentation import Presentation

from . import computer, turns
from .catalogue import N_, _
from .deadlines import decisions_after, diff
from .languages import Languages
from .live import LiveGame
from .models import ACTIVE_STATUSES, LOBBY_SEAT, SettingsError, UndoPoint, standing
from .outcome import DecisionInfo, Outcome, PrivateNote, Prompt
from .scheduler import Clock, RealClock, Scheduler
from .store import StaleVersion, Store, StoreFull

log = logging.getLogger("service")

Listener = Callable[[Outcome], Awaitable[None]]
Hosts = Callable[[int | None, int], bool]
"""Whether a front end hosts the game with this (guild id, channel id)."""


def every_game(guild_id: int | None, channel_id: int) -> bool:
    """Host every game (tests and tools on a database of their own)."""
    return True


def no_game(guild_id: int | None, channel_id: int) -> bool:
    """Host or visit no game (the default of ``visits``)."""
    return False


def server_games(guild_id: int | None, channel_id: int) -> bool:
    """The games that belong to a server: the Discord bot's, never the console's. A bot
    of one process hosts them all; of several, each process hosts those of the servers
    on its shards and visits the others."""
    return guild_id is not None


INTERNAL_ERROR = N_("Something went wrong on our side; nothing was changed. Please try again.")
DISK_FULL = N_(
    "The bot cannot save right now: the disk holding its games is full. Nothing "
    "was changed; try the same again once its host has freed some space."
)
FULL_RETRY = 30.0
"""Seconds between two tries of a computer move, timeout or reminder that met a full
disk: they wait, never skipped, and go through once there is space again."""
OLD_BUTTON = N_("That button is out of date: the game has moved on. Use the newest prompt.")
"""These three are English message ids (marked with ``N_``): the service's refusals say
them in the caller's language; a front end that says one itself translates it with
:func:`i18n.translate_any`."""


def describe_all(
    words: Presentation,
    events: Sequence[rules.Event],
    view: Any,
    names: Sequence[str],
    viewer: int | None,
) -> list[str]:
    """The game's sentences for the events ``viewer`` (``None``: the channel) may see, in
    order, worded with ``view`` (that viewer's)."""
    out = []
    for event in events:
        if event.visible_to(viewer):
            text = words.describe(event, view, names)
            if text:
                out.append(text)
    return out


class ServiceError(Exception):
    """A refusal worded for the user; nothing was changed."""


class StalePrompt(ServiceError):
    """The prompt (or button) answered is older than the decision it would act on."""


NOT_PLAYING = N_("You are not playing in this game.")


def player_seat(live: LiveGame, user_id: int, not_seated: str = NOT_PLAYING) -> int:
    """``user_id``'s engine seat in ``live``, a running game.

    Raises:
        ServiceError: the game has not started or is over, or ``user_id`` holds no seat
            in it (worded ``not_seated``, a message marked with ``N_``, in the caller's
            language).
    """
    if live.status == "lobby" or live.state is None:
        raise ServiceError(_("The game has not started yet."))
    if not live.running:
        raise ServiceError(_("This game is over."))
    seat = live.seat_of(user_id)
    if seat is None:
        raise ServiceError(_(not_seated))
    return seat


class ServiceBase:
    """Shared state and machinery of :class:`service.GameService`.

    Args:
        store: an open :class:`~service.store.Store`.
        clock: wall time and sleeping (a :class:`~bot.scheduler.FakeClock` in tests).
        chooser: the computer-seat chooser, ``choose(game, view, legal, level, seed)``.
        adviser: works out a person's hint, ``advise(game, view, legal, seed)``.
        computer_pacing: seconds a computer waits before each move, so a channel can
            follow (0 in tests).
        computer_answer_delay: (low, high) seconds of the seeded delay before a computer
            answers an out-of-turn window.
        computer_time_limit: wall-clock cap on one computer decision; past it the uniform
            choice (:func:`bot.computer.uniform`) decides instead.
        undo_seconds: how long after an action its player may take it back (if the
            game allows it and nobody acted since).
        seed_source: gives the seed of each new game (default: ``secrets``).
        hosts: which games this front end hosts, by (guild id, channel id) — see the
            module docstring (default: every game).
        visits: which games it does not host it may act on through the database (see
            the module docstring; default: none).
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        chooser: computer.Chooser = computer.choose,
        adviser: computer.Advise = computer.advise,
        computer_pacing: float = 1.5,
        computer_answer_delay: tuple[float, float] = (1.0, 5.0),
        computer_time_limit: float = 10.0,
        undo_seconds: float = 30.0,
        seed_source: Callable[[], int] | None = None,
        hosts: Hosts = every_game,
        visits: Hosts = no_game,
    ) -> None:
        self.store = store
        self.hosts = hosts
        self.visits = visits
        self.on_changed: Callable[[int], Awaitable[None]] | None = None
        """Set by a front end: a game it hosts was changed by another process (see
        :meth:`refresh`); called before the game is reloaded, so the front end can tell
        its channel what it is owed first."""
        self._tracked: set[asyncio.Task[None]] = set()
        self.clock: Clock = clock or RealClock()
        self.chooser = chooser
        self.adviser = adviser
        self.computer_pacing = computer_pacing
        self.computer_answer_delay = computer_answer_delay
        self.computer_time_limit = computer_time_limit
        self.undo_seconds = undo_seconds
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self._games: dict[int, LiveGame] = {}
        self._turn_memo: dict[int, tuple[int, contract.State, turns.TurnEvents]] = {}
        """Game id -> (version, position, the turn's events) of a cached copy dropped
        while the game goes on (another process wrote, a stale write)."""
        self._turn_before: dict[int, tuple[int, turns.TurnEvents]] = {}
        """Game id -> (version of its latest action, the turn's events before it), kept
        for an undo of an undoable action."""
        self._channels: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._listeners: list[Listener] = []
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._outbox: dict[int, deque[Outcome]] = {}
        self._emitters: dict[int, asyncio.Task[None]] = {}
        self._waiters: list[asyncio.Event] = []
        self._closing = False
        self.scheduler = Scheduler(self.clock, on_change=self._notify)
        self.room: Callable[[int], Awaitable[bool]] | None = None
        """Set by a front end: waits until a game's messages are caught up enough for
        its computer players to move on (False: they stop until the game changes)."""
        self.on_applied: Callable[[str], None] | None = None
        """Set by a front end: told the source (player, computer, timeout, system) of
        every action once it is committed (the bot counts them, see :mod:`bot.metrics`)."""
        self._rating_lock = asyncio.Lock()
        """Held while this service writes ratings (see :mod:`service.ratings`)."""
        self.announces = False
        """Set by a front end that keeps what it owes a game's channel across a crash:
        each action is recorded as owed to the channel until the front end says it is
        kept or sent (see :meth:`service.store.Store.announced`)."""
        self.languages = Languages()
        """Each person's client language as last seen (see :mod:`service.languages`)."""

    # ------------------------------------------------------------------ languages
    def note_locale(self, user_id: int, tag: str | None) -> None:
        """``user_id``'s client speaks ``tag`` (Discord's locale of an interaction; None:
        not known, nothing changes): their private notes, prompts and direct messages
        are written in it from now on, if the product speaks it. A front end calls this
        on every interaction: it costs a dictionary lookup, and a change is stored in
        the background (a failed write is logged, and tried again at the next change)."""
        if tag is None or not self.languages.note(user_id, tag) or self._closing:
            return
        self._track(self._save_locale(user_id, tag))

    def locale_of(self, user_id: int) -> str | None:
        """The product's language of ``user_id``'s client as last seen (None: never
        seen by this service, or a language the product does not speak)."""
        return i18n.supported(self.languages.tag_of(user_id))

    async def _save_locale(self, user_id: int, tag: str) -> None:
        try:
            await self.store.set_user_locale(user_id, tag, self.clock.now())
        except Exception:
            log.exception("the client language of user %s could not be stored", user_id)

    async def _learn_locales(self, user_ids: list[int | None]) -> None:
        """Read from the store the client languages of those of ``user_ids`` this
        service has not looked up yet."""
        unknown = self.languages.unknown(user_ids)
        if unknown:
            self.languages.learn(unknown, await self.store.user_locales(unknown))

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> int:
        """Load every unfinished game this service hosts with its open decisions, re-arm
        their deadlines (one that passed while the service was down fires once, now) and
        set computer seats going. Returns how many games were loaded.

        A game whose stored snapshot fails validation is logged and left out (its
        operations then answer with an error) rather than keeping every other game down.
        """
        records = await self.store.load_active()
        for rec in records:
            if not self.hosts(rec.guild_id, rec.channel_id):
                continue  # another front end's game
            try:
                live = LiveGame.from_record(rec)
            except RuntimeError:
                log.exception("game %s cannot be loaded; left out", rec.id)
                continue
            self._games[live.id] = live
            self._channels[live.channel_id] = live.id
        await self._learn_locales([s.user_id for g in self._games.values() for s in g.seats])
        for live in list(self._games.values()):
            self._after_change(live)
        await self.store.subscribe(self._changed_elsewhere)
        self._track(self._rate_quietly(check_model=True))  # what a crash left unrated
        return len(self._games)

    def _changed_elsewhere(self, game_id: int) -> None:
        """The store says another process changed ``game_id``."""
        if self._closing:
            return
        self._track(self.refresh(game_id))

    def _track(self, work: Awaitable[Any]) -> None:
        """Run ``work`` in a task that :meth:`idle` and :meth:`close` wait for."""

        async def run() -> None:
            await work

        task = asyncio.get_running_loop().create_task(run())
        self._tracked.add(task)

        def done(t: asyncio.Task[None]) -> None:
            self._tracked.discard(t)
            self._notify()

        task.add_done_callback(done)

    async def refresh(self, game_id: int) -> bool:
        """Another process changed game ``game_id`` through the database: if this service
        hosts it, drop the cached copy and its timers, let the front end tell what its
        channel is owed (``on_changed``), then reload it (re-arming its deadlines and
        setting its computers going). True if the game is hosted here."""
        async with self._lock(game_id):
            try:
                rec = await self.store.load_game(game_id)
                if rec is None or not self.hosts(rec.guild_id, rec.channel_id):
                    return False
                self._forget(game_id)
                self.scheduler.cancel_group(game_id)
                if self.on_changed is not None:
                    await self.on_changed(game_id)
                if (await self._live(game_id)).status not in ACTIVE_STATUSES:
                    self._turn_memo.pop(game_id, None)
                return True
            except Exception:
                log.exception(
                    "game %s: reloading it after another process's change failed", game_id
                )
                return False
            finally:
                self._notify()

    async def hosting(self, game_id: int) -> bool:
        """Whether this service hosts game ``game_id`` (False: no such game)."""
        if game_id in self._games:
            return True
        rec = await self.store.load_game(game_id)
        return rec is not None and self.hosts(rec.guild_id, rec.channel_id)

    async def load(self, game_id: int) -> bool:
        """What :meth:`start` does, for one game: take it into memory, re-arm its
        deadlines and set its computer seats going (a front end that does not start
        every game, like the console resuming its own). True if the game is unfinished.

        Raises:
            ServiceError: no such game, or not one this service hosts.
        """
        async with self._lock(game_id):
            try:
                live = await self._live(game_id)
            finally:
                self._notify()
        return live.status in ACTIVE_STATUSES

    async def close(self, before_store: Callable[[], Awaitable[None]] | None = None) -> None:
        """Stop timers and computer players, deliver queued outcomes, run
        ``before_store`` (e.g. let the front end's outbox finish), close the store."""
        self._closing = True
        await self.scheduler.close()
        await asyncio.gather(*self._tracked, return_exceptions=True)
        drivers = list(self._drivers.values())
        for task in drivers:
            task.cancel()
        await asyncio.gather(*drivers, return_exceptions=True)
        emitters = list(self._emitters.values())
        await asyncio.gather(*emitters, return_exceptions=True)
        if before_store is not None:
            await before_store()
        await self.store.close()

    def running_games(self) -> int:
        """How many games this service hosts are being played now."""
        return sum(1 for live in self._games.values() if live.running)

    def add_listener(self, listener: Listener) -> None:
        """Deliver every outcome the service makes on its own (computer moves, timeouts,
        reminders, expiries) to ``listener``, in order per game."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        """Stop delivering to ``listener``."""
        self._listeners.remove(listener)

    async def idle(self, game_id: int | None = None) -> None:
        """Wait until the game (or every game) is quiet: no operation, computer move,
        due timer or undelivered outcome left — nothing happens without new input or
        time passing. Event-driven: no polling."""
        while self._busy(game_id):
            event = asyncio.Event()
            self._waiters.append(event)
            await event.wait()

    def busy(self, game_id: int | None = None) -> bool:
        """True while the game (or any game) has an operation, a computer move, a due
        timer or an undelivered outcome in progress (see :meth:`idle`)."""
        return self._busy(game_id)

    def _busy(self, game_id: int | None) -> bool:
        if game_id is None:
            return (
                any(not t.done() for t in self._drivers.values())
                or any(not t.done() for t in self._emitters.values())
                or any(not t.done() for t in self._tracked)
                or any(lock.locked() for lock in self._locks.values())
                or self.scheduler.busy()
            )
        driver = self._drivers.get(game_id)
        emitter = self._emitters.get(game_id)
        lock = self._locks.get(game_id)
        return bool(
            (driver and not driver.done())
            or (emitter and not emitter.done())
            or (lock and lock.locked())
            or self.scheduler.busy(game_id)
        )

    def undelivered(self, game_id: int) -> int:
        """Outcomes of the game made but not yet handed to the listeners."""
        return len(self._outbox.get(game_id, ()))

    def _notify(self) -> None:
        waiters, self._waiters = self._waiters, []
        for event in waiters:
            event.set()

    # ------------------------------------------------------------------ plumbing
    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _guarded(
        self, game_id: int | None, body: Callable[[], Awaitable[Outcome]]
    ) -> Outcome:
        """Run ``body`` under the game's lock, turning refusals and faults into outcomes."""
        if self._closing:
            return Outcome.refused(game_id, _("The bot is restarting; please try again shortly."))
        lock = self._lock(game_id) if game_id is not None else asyncio.Lock()
        async with lock:
            try:
                return await body()
            except (ServiceError, rules.RulesError, SettingsError) as exc:
                return Outcome.refused(game_id, str(exc))
            except StoreFull:
                # nothing was written, and the cached copy moves only after a commit
                log.warning("game %s: the disk is full; the change was not saved", game_id)
                return Outcome.refused(game_id, _(DISK_FULL))
            except Exception:
                log.exception("game %s: unexpected error; cached copy dropped", game_id)
                if game_id is not None:
                    self._forget(game_id)
                return Outcome.refused(game_id, _(INTERNAL_ERROR))
            finally:
                self._notify()

    async def _retrying(
        self, game_id: int, body: Callable[[LiveGame], Awaitable[Outcome]]
    ) -> Outcome:
        """Load the game and run ``body``; on a stale write reload and run it once more."""
        for _attempt in range(3):
            live = await self._live(game_id)
            try:
                return await body(live)
            except StaleVersion:
                log.info("game %s: stale write, reloading", game_id)
                self._forget(game_id)
        raise ServiceError(_("The game is busy; please try again."))

    async def _live(self, game_id: int, *, cache: bool = True) -> LiveGame:
        """The cached game, else loaded from the database — and cached if active and
        ``cache`` (operations, under the game's lock). Queries pass ``cache=False``: a
        lock-free read must never replace the copy an operation is working on.

        Raises:
            ServiceError: no such game, or not one this service hosts.
        """
        live = self._games.get(game_id)
        if live is not None:
            return live
        rec = await self.store.load_game(game_id)
        if rec is None:
            raise ServiceError(_("There is no such game."))
        hosted = self.hosts(rec.guild_id, rec.channel_id)
        if not hosted and not self.visits(rec.guild_id, rec.channel_id):
            raise ServiceError(_("There is no such game."))
        live = LiveGame.from_record(rec)
        await self._learn_locales([s.user_id for s in live.seats])
        if cache and hosted and live.status in ACTIVE_STATUSES:
            self._games[game_id] = live
            self._channels[live.channel_id] = game_id
            self._after_change(live)
        return live

    def _forget(self, game_id: int) -> None:
        """Drop the cached copy; the next operation reloads the database's truth (and
        finds its turn's events from where the copy was, see :meth:`_turn_events`)."""
        live = self._games.pop(game_id, None)
        if live is not None and self._channels.get(live.channel_id) == game_id:
            del self._channels[live.channel_id]
        if live is not None and live.status in ACTIVE_STATUSES and live.state is not None:
            if live.turn_events is not None:
                self._turn_memo[game_id] = (live.version, live.state, live.turn_events)
        else:
            self._turn_memo.pop(game_id, None)

    async def _cancel(
        self, live: LiveGame, reason: dict[str, Any], now: float, kind: str, line: str
    ) -> Outcome:
        """End ``live`` as cancelled (``reason`` stored as its result) and say ``line``."""
        await self.store.end_game(live.id, live.revision, "cancelled", reason, now)
        live.status = "cancelled"
        live.revision += 1
        live.decisions = {}
        self._after_change(live)
        return self._simple(live, kind, [line])

    def _after_change(self, live: LiveGame) -> None:
        """Bring timers and computer players in line with the (cached) game; a visited
        game's host is told instead (see the module docstring)."""
        if not self.hosts(live.guild_id, live.channel_id):
            self._track(self._publish(live.id))
            return
        if live.status not in ACTIVE_STATUSES:
            self._forget(live.id)
            self.scheduler.cancel_group(live.id)
            return
        self._rearm(live)
        self._kick(live)

    async def _publish(self, game_id: int) -> None:
        try:
            await self.store.publish(game_id)
        except Exception:
            log.exception("game %s: its host could not be told of a change", game_id)

    @staticmethod
    def _require_host(live: LiveGame, by_user: int, is_admin: bool = False) -> None:
        """Refuse unless ``by_user`` hosts the game or is an admin.

        Raises:
            ServiceError: neither host nor admin.
        """
        if by_user != live.host_id and not is_admin:
            raise ServiceError(
                _("Only the host (or a member who can manage the channel) may do that.")
            )

    def _rearm(self, live: LiveGame) -> None:  # implemented in timers.py
        raise NotImplementedError

    def _kick(self, live: LiveGame) -> None:  # implemented in computers.py
        raise NotImplementedError

    def _game_over(self) -> None:  # implemented in ratings.py
        raise NotImplementedError

    async def _rate_quietly(self, check_model: bool = False) -> None:  # in ratings.py
        raise NotImplementedError

    async def rebuild_ratings(self) -> int:  # implemented in ratings.py
        raise NotImplementedError

    async def _choose(  # implemented in computers.py
        self, game: str, view: Any, legal: Sequence[Any], level: str, seed: int
    ) -> Any:
        raise NotImplementedError

    def _emit(self, outcome: Outcome) -> None:
        """Queue ``outcome`` for the listeners; one emitter per game keeps the order.
        (Only hosted games are cached, so only they make outcomes of their own.)"""
        if outcome.game_id is None or not self._listeners:
            return
        gid = outcome.game_id
        self._outbox.setdefault(gid, deque()).append(outcome)
        task = self._emitters.get(gid)
        if task is None or task.done():
            self._emitters[gid] = asyncio.get_running_loop().create_task(self._deliver(gid))

    async def _deliver(self, game_id: int) -> None:
        queue = self._outbox.get(game_id)
        try:
            while queue:
                outcome = queue.popleft()
                for listener in list(self._listeners):
                    try:
                        await listener(outcome)
                    except Exception:
                        log.exception("listener failed on an outcome of game %s", game_id)
        finally:
            if not queue:
                self._outbox.pop(game_id, None)
                if self._emitters.get(game_id) is asyncio.current_task():
                    del self._emitters[game_id]
            self._notify()

    # ------------------------------------------------------------------ the apply path
    async def _apply(
        self,
        live: LiveGame,
        seat: int,
        action: Any,
        *,
        user_id: int | None,
        source: str,
        expect: int | None = None,
        exact: int | None = None,
    ) -> Outcome:
        """Validate ``action`` by ``seat`` through the engine, persist it atomically and
        return its outcome. The caller holds the game's lock.

        ``expect``: the version of the prompt being answered; refused if ``seat`` acted
        since, or its decision opened after it. ``exact``: refused unless the game is at
        exactly this version (computer moves and timers).

        Raises:
            ServiceError: the game is not running, or the prompt is out of date.
            rules.RulesError: the engine refused the action (nothing written).
            StaleVersion: another writer changed the game (nothing written).
        """
        if not live.running or live.state is None:
            raise ServiceError(_("This game is not running."))
        if exact is not None and live.version != exact:
            raise StalePrompt(_(OLD_BUTTON))
        if expect is not None and not self._current(live, seat, expect):
            raise StalePrompt(_(OLD_BUTTON))
        before = live.state
        after = before.copy()
        events = after.apply(seat, action)
        now = self.clock.now()
        version = live.version + 1
        decisions = decisions_after(
            live.decisions,
            before,
            after,
            seat,
            version,
            live.settings,
            now,
            live.paused,
            live.game.timings,
        )
        removed, upserted = diff(live.decisions, decisions)
        result = self._result(live, after) if after.over else None
        undo_point = (
            UndoPoint(
                seq=version,
                seat=seat,
                user_id=user_id,
                action=action.to_dict(),
                at=now,
                revision=live.revision + 1,
                state=before.to_dict(),
                decisions=tuple(live.decisions.values()),
            )
            if source == "player"
            and user_id is not None
            and result is None
            and live.game.undoable(before, seat, action, events)
            else None
        )
        turn_events = None  # a visited game's board is its host's to draw
        if self.hosts(live.guild_id, live.channel_id):
            known = await self._turn_events(live)
            turn_events = turns.extend(known, before.turn, events)
            if undo_point is not None:  # what an undo puts back (see service.undo)
                self._turn_before[live.id] = (version, known)
        last_acted = {**live.last_acted, seat: version} if seat >= 0 else live.last_acted
        nxt = replace(
            live,
            state=after,
            version=version,
            revision=live.revision + 1,
            decisions=decisions,
            last_acted=last_acted,
            status="finished" if result is not None else live.status,
            result=result if result is not None else live.result,
            undo_point=undo_point,
            turn_events=turn_events,
        )
        # The outcome is built before the commit: nothing can fail once it is written.
        outcome = self._play_outcome(nxt, before, events, seat, source)
        if undo_point is not None:
            outcome = replace(outcome, undo_until=now + self.undo_seconds)
        try:
            await self.store.record_action(
                live.id,
                live.revision,
                live.version,
                seat=seat,
                user_id=user_id,
                source=source,
                action=action.to_dict(),
                events=[e.to_dict() for e in events],
                state=after.to_dict(),
                removed=removed,
                upserted=upserted,
                result=result,
                now=now,
                owe=self.announces,
                undo_point=undo_point,
            )
        except StoreFull:
            raise  # certainly not written: the cached copy is still the truth
        except BaseException:
            # Rolled back, or (cancelled at COMMIT) perhaps committed: the database knows.
            self._forget(live.id)
            raise
        for name in (
            "state",
            "version",
            "revision",
            "decisions",
            "last_acted",
            "status",
            "result",
            "cached_views",
            "undo_point",
            "turn_events",
        ):
            setattr(live, name, getattr(nxt, name))
        self._after_change(live)
        if result is not None:
            self._game_over()
        if self.on_applied is not None:
            self.on_applied(source)
        return outcome

    async def _turn_events(self, live: LiveGame) -> turns.TurnEvents:
        """The turn of ``live``'s latest action and its public events so far; for a
        game loaded from the store, found once by playing its log again (off the event
        loop): the actions since its dropped copy's position if there was one, else the
        whole log. A log that cannot be played again gives no earlier events: the next
        action starts them afresh."""
        if live.turn_events is not None:
            return live.turn_events
        version, state = live.version, live.state
        found = None
        earlier = self._turn_memo.pop(live.id, None)
        if earlier is not None and earlier[0] <= version and state is not None:
            later = await self.store.actions(live.id, earlier[0])
            # an undo of an action before the copy's position leaves this short of the
            # stored position: then the whole log is played again
            records = standing([r for r in later if r.seq <= version])
            found = await asyncio.to_thread(
                turns.play_on, live.game, earlier[1], earlier[2], records, state.to_dict()
            )
        rec = await self.store.load_game(live.id) if found is None and live.creation else None
        if rec is not None and rec.creation is not None and state is not None:
            records = standing([r for r in await self.store.actions(live.id) if r.seq <= version])
            start = [rules.Event.from_dict(e) for e in rec.start_events]
            found = await asyncio.to_thread(
                turns.replay_turn, live.game, rec.creation, start, records, state.to_dict()
            )
        if found is None:
            log.warning("game %s: where its turn began is not known; told from now on", live.id)
            found = (None, ())
        elif state is not None and self._games.get(live.id) is not live:
            # a lock-free read's copy (a catch-up): the copy cached next goes on from here
            self._turn_memo[live.id] = (version, state, found)
        if live.turn_events is None and live.version == version:  # no action came first
            live.turn_events = found
        return found

    @staticmethod
    def _current(live: LiveGame, seat: int, version: int) -> bool:
        """True while a prompt made at ``version`` for ``seat`` still stands: the seat has
        not acted since, and none of its open decisions opened after it."""
        opened = max(
            (d.opened_version for (s, _kind), d in live.decisions.items() if s == seat), default=-1
        )
        return live.last_acted.get(seat, 0) <= version and opened <= version

    @staticmethod
    def _result(live: LiveGame, g: contract.State) -> dict[str, Any]:
        result = g.result()
        assert result is not None, "a game that is over says how it ended"
        return {
            "winners": list(result.winners),
            "winner_users": [live.user_of(s) for s in result.winners],
            "draw": result.draw,
            "reason": result.reason,
        }

    # ------------------------------------------------------------------ outcome building
    def _play_outcome(
        self,
        live: LiveGame,
        before: contract.State,
        events: list[rules.Event],
        actor: int | None,
        kind: str,
    ) -> Outcome:
        """The outcome of a change to a running game from ``before``: an action, or the
        start (``before`` is then the new game itself). The channel's words are in the
        game's language, each player's own in theirs (:mod:`service.languages`)."""
        g = live.state
        assert g is not None
        names = live.names()
        words = live.game.presentation
        earlier = live.views_of(before)  # made for the previous outcome, mostly
        view = live.views().of

        prompts = self._prompts(live, actor, view)
        prompt_seats = {p.seat for p in prompts}
        private: dict[int, PrivateNote] = {}
        for seat, rec in enumerate(live.seats):
            if rec.user_id is None:
                continue
            hand_changed = before is not g and words.hand_changed(earlier.of(seat), view(seat))
            mine = [e for e in events if e.to == seat]
            if not (mine or hand_changed or seat in prompt_seats):
                continue
            with self.languages.of_person(rec.user_id, live):
                lines = tuple(describe_all(words, mine, view(seat), names, seat))
            if lines or hand_changed or seat in prompt_seats:
                private[rec.user_id] = self._note(
                    live, rec.user_id, seat, lines, hand_changed, view(seat)
                )
        spectator = view(None)
        public = [e for e in events if e.to is None]
        with self.languages.of_game(live):
            said = describe_all(words, events, spectator, names, None)
        return self._played(
            live,
            kind,
            said,
            spectator,
            public,
            private,
            prompts,
            board_due=words.board_changed(earlier.of(None), spectator, public),
            board_events=live.turn_events[1] if live.turn_events is not None else tuple(public),
        )

    def _played(
        self,
        live: LiveGame,
        kind: str,
        lines: Sequence[str],
        spectator: Any,
        public: list[rules.Event],
        private: dict[int, PrivateNote],
        prompts: tuple[Prompt, ...],
        board_due: bool,
        board_events: tuple[rules.Event, ...],
    ) -> Outcome:
        """The outcome of moves in a running game: ``lines`` tell the ``public`` events in
        the channel, ``private`` notes go to players and ``prompts`` ask for decisions;
        ``board_events`` are the turn's so far, for its board."""
        assert live.state is not None
        return self._outcome(
            live,
            kind,
            lines,
            spectator,
            board_due=board_due,
            events=tuple(public),
            board_events=board_events,
            private=private,
            prompts=prompts,
            decisions=self._decision_infos(live),
            mentions=tuple(p.user_id for p in prompts if p.user_id is not None),
            game_over=live.state.over,
        )

    def _outcome(
        self, live: LiveGame, kind: str, lines: Sequence[str], view: Any, **fields: Any
    ) -> Outcome:
        """An outcome of ``kind`` for ``live``: ``lines`` said in the channel (made in
        the game's language, :meth:`Languages.of_game`), the public words of the
        spectator ``view`` (None before the game starts), and ``fields``."""
        with self.languages.of_game(live):
            public = self._public_words(live, view)
        return Outcome(
            ok=True,
            game_id=live.id,
            kind=kind,
            channel_id=live.channel_id,
            guild_id=live.guild_id,
            status=live.status,
            version=live.version,
            public_lines=tuple(lines),
            spectator_view=view,
            names=tuple(live.names()),
            language=live.settings.language,
            **{**public, **fields},
        )

    def _note(
        self,
        live: LiveGame,
        user_id: int,
        seat: int,
        lines: tuple[str, ...],
        hand_changed: bool,
        view: Any,
    ) -> PrivateNote:
        """What ``user_id`` at ``seat`` alone learns, with its own view and its words
        (in that person's language)."""
        words = live.game.presentation
        with self.languages.of_person(user_id, live) as language:
            mine = tuple(words.private_lines(view, live.names()))
        return PrivateNote(user_id, seat, lines, hand_changed, view, mine, language)

    @staticmethod
    def _public_words(live: LiveGame, spectator: Any) -> dict[str, Any]:
        """The outcome's public words about the position: the game's name, its status
        lines and, once over, its result line."""
        words = live.game.presentation
        names = live.names()
        if spectator is None:
            return {"variant": live.variant}
        return {
            "variant": live.variant,
            "status_lines": tuple(words.status_lines(spectator, names)),
            "result_line": words.result_line(spectator, names),
        }

    def _prompts(
        self, live: LiveGame, actor: int | None, view: Callable[[int], Any] | None = None
    ) -> tuple[Prompt, ...]:
        """Prompts for humans whose decision is new, or who just acted and still decide."""
        out = []
        for (seat, _kind), d in sorted(live.decisions.items()):
            if seat == LOBBY_SEAT or live.is_computer(seat):
                continue
            if d.opened_version == live.version or seat == actor:
                out.append(
                    self._prompt(live, d.seat, d.kind, view(seat) if view is not None else None)
                )
        return tuple(out)

    def _prompt(self, live: LiveGame, seat: int, kind: str, view: Any = None) -> Prompt:
        """The prompt for ``seat``'s open decision of ``kind``, in its player's language."""
        g = live.state
        assert g is not None
        names = live.names()
        words = live.game.presentation
        view = view if view is not None else live.views().of(seat)
        choices = words.offered(kind, g.legal_actions(seat))
        d = live.decisions.get((seat, kind))
        user_id = live.user_of(seat)
        with self.languages.of_person(user_id, live) as language:
            return Prompt(
                game_id=live.id,
                version=live.version,
                seat=seat,
                user_id=user_id,
                kind=kind,
                text=words.prompt(kind, view, names),
                choices=tuple(choices),
                labels=tuple(words.action_label(a, view, names) for a in choices),
                deadline=d.due_at if d is not None else None,
                tally=words.tally(kind, choices, view, names)
                if words.panel_decisions().get(kind) == "counts"
                else None,
                language=language,
            )

    def _decision_infos(self, live: LiveGame) -> tuple[DecisionInfo, ...]:
        names = live.names()
        return tuple(
            DecisionInfo(
                d.seat,
                d.kind,
                live.user_of(d.seat),
                names[d.seat] if 0 <= d.seat < len(names) else "",
                d.due_at,
            )
            for _key, d in sorted(live.decisions.items())
            if d.seat != LOBBY_SEAT
        )

    def _simple(self, live: LiveGame, kind: str, lines: list[str], **extra: Any) -> Outcome:
        """An outcome with words only (seat changes, pause, cancel, …)."""
        view = live.views().of(None) if live.state is not None else None
        return self._outcome(
            live,
            kind,
            lines,
            view,
            decisions=self._decision_infos(live) if live.state is not None else (),
            game_over=live.status == "finished",
            **extra,
        )

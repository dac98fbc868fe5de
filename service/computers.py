"""Computer seats: the service plays them, so every front end gets them for free.

After any change, ``_kick`` starts one background driver per game whose open decisions
include a computer seat. The driver waits ``computer_pacing`` seconds, asks the chooser
(``bot.computer``; later the ``ai`` package) in a worker thread under a wall-clock cap,
and applies the choice through the ordinary apply path with the exact version it was
computed for — if a person acted meanwhile the stale choice is dropped and the driver
looks again. Each computer move is its own outcome, delivered to the listeners.

Out-of-turn windows (a decision kind the game's timings mark ``window``) are different:
every computer in the window answers after its own seeded random delay, whatever it
holds, so the window's length says nothing about what it holds. Those answers are
timers (key ``cpu``) and are not stored: after a restart they are drawn again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from . import computer
from .core import FULL_RETRY, ServiceBase, ServiceError, StalePrompt
from .deadlines import timing_of
from .live import LiveGame
from .models import DecisionRecord
from .store import StaleVersion, StoreFull

log = logging.getLogger("service")


class ComputerOps(ServiceBase):
    """Computer-seat driving of :class:`service.GameService`."""

    def _kick(self, live: LiveGame) -> None:
        """Start the game's driver if a computer must decide and none runs."""
        self._cancel_stale_answers(live)
        if self._closing or not live.running or live.state is None:
            return
        if not any(live.is_computer(d.seat) for d in live.state.deciders()):
            return
        task = self._drivers.get(live.id)
        if task is None or task.done():
            self._drivers[live.id] = asyncio.get_running_loop().create_task(self._drive(live.id))

    def wake_computers(self, game_id: int) -> None:
        """Set the game's computer players going again (they stopped because the front
        end could not show their moves)."""
        live = self._games.get(game_id)
        if live is not None:
            self._kick(live)

    @staticmethod
    def _window_of(live: LiveGame, seat: int) -> DecisionRecord | None:
        """``seat``'s open decision in an out-of-turn window, if it has one."""
        timings = live.game.timings
        for (s, kind), d in live.decisions.items():
            if s == seat and timing_of(timings, kind).window:
                return d
        return None

    def _cancel_stale_answers(self, live: LiveGame) -> None:
        for key in self.scheduler.keys(live.id):
            if key[1] != "cpu":
                continue
            _, _, seat, opened = key
            d = self._window_of(live, seat)  # type: ignore[arg-type]  # seat: int (key)
            if d is None or d.opened_version != opened or not live.running:
                self.scheduler.cancel(key)

    async def _drive(self, game_id: int) -> None:
        try:
            while not self._closing:
                live = self._games.get(game_id)
                if live is None or not live.running or live.state is None:
                    return
                todo = [d for d in live.state.deciders() if live.is_computer(d.seat)]
                if not todo:
                    return
                if timing_of(live.game.timings, todo[0].kind).window:
                    self._schedule_answers(live, [d.seat for d in todo])
                    return
                # Pace computers to what the front end can show: a game whose messages
                # lag waits for them; one whose channel refuses the bot stops until the
                # game changes (a resume, a person acting) or wake_computers.
                if self.room is not None and not await self.room(game_id):
                    return
                if self.computer_pacing > 0:
                    await self.clock.sleep_until(self.clock.now() + self.computer_pacing)
                result = await self._computer_move(game_id, todo[0].seat)
                if result == "failed":
                    return  # the deadline stays armed as a backstop
                if result == "full":
                    self._retry_when_full(game_id)
                    return
        finally:
            if self._drivers.get(game_id) is asyncio.current_task():
                del self._drivers[game_id]
            self._notify()

    def _schedule_answers(self, live: LiveGame, seats: list[int]) -> None:
        low, high = self.computer_answer_delay
        now = self.clock.now()
        for seat in seats:
            d = self._window_of(live, seat)
            if d is None:
                continue
            key = (live.id, "cpu", seat, d.opened_version)
            if self.scheduler.when(key) is not None:
                continue
            delay = computer.answer_delay(
                computer.seed_for(live.id, d.opened_version, seat), low, high
            )
            self.scheduler.schedule(key, now + delay, self._answer_callback(live.id, seat))

    def _retry_when_full(self, game_id: int) -> None:
        """The disk was full: look at the game's computer seats again later."""

        async def kick() -> None:
            live = self._games.get(game_id)
            if live is not None:
                self._kick(live)
                return
            # dropped from the cache meanwhile: loading it sets its computers going (a
            # game gone, or no longer this service's, is left alone)
            with contextlib.suppress(ServiceError):
                await self.load(game_id)

        self.scheduler.schedule((game_id, "full"), self.clock.now() + FULL_RETRY, kick)

    def _answer_callback(self, game_id: int, seat: int) -> Callable[[], Awaitable[None]]:
        async def answer() -> None:
            for _ in range(10):  # others may answer while this one thinks: look again
                result = await self._computer_move(game_id, seat)
                if result == "full":  # the same answer, later
                    live = self._games.get(game_id)
                    d = self._window_of(live, seat) if live else None
                    if d is not None:
                        self.scheduler.schedule(
                            (game_id, "cpu", seat, d.opened_version),
                            self.clock.now() + FULL_RETRY,
                            answer,
                        )
                    return
                if result != "stale":
                    return

        return answer

    async def _computer_move(self, game_id: int, seat: int) -> str:
        """Let the computer on ``seat`` decide and apply it: 'acted', 'stale' (the game
        moved on; nothing done), 'full' (the disk is full; nothing done, try again later)
        or 'failed' (an error was logged)."""
        live = self._games.get(game_id)
        if live is None or not live.running or live.state is None:
            return "failed"
        if not live.is_computer(seat) or not any(d.seat == seat for d in live.state.deciders()):
            return "failed"
        version = live.version
        view = live.views().of(seat)
        legal = live.state.legal_actions(seat)
        level = live.seats[seat].computer_level or "normal"
        seed = computer.seed_for(game_id, version, seat)
        action = await self._choose(live.variant, view, legal, level, seed)
        lock = self._lock(game_id)
        async with lock:
            live = self._games.get(game_id)
            if live is None or live.version != version or not live.is_computer(seat):
                return "stale"  # a person acted, or took the seat over, meanwhile
            try:
                outcome = await self._apply(
                    live, seat, action, user_id=None, source="computer", exact=version
                )
            except (StalePrompt, StaleVersion):  # a stale write already dropped the cache
                return "stale"
            except StoreFull:
                log.warning("game %s: the disk is full; the computer move waits", game_id)
                return "full"
            except Exception:
                log.exception("game %s: computer move on seat %s failed", game_id, seat)
                self._forget(game_id)
                return "failed"
            finally:
                self._notify()
        self._emit(outcome)
        return "acted"

    async def _choose(
        self, game: str, view: Any, legal: Sequence[Any], level: str, seed: int
    ) -> Any:
        """Run the chooser for ``game`` off the event loop under the time cap; fall back
        to the uniform choice if it is slow, fails or returns an illegal action."""
        try:
            # not asyncio.wait_for: on Python 3.11 it drops a stop's cancellation that
            # lands as the choice arrives
            async with asyncio.timeout(self.computer_time_limit):
                action = await asyncio.to_thread(self.chooser, game, view, legal, level, seed)
            if action in legal:
                return action
            log.error("chooser returned an illegal action %r; using a uniform choice", action)
        except TimeoutError:
            log.warning(
                "chooser took over %.1f s; using a uniform choice", self.computer_time_limit
            )
        except Exception:
            log.exception("chooser failed; using a uniform choice")
        return computer.uniform(game, view, legal, level, seed)

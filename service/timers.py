"""Deadlines, reminders, lobby expiry, pause and resume.

The ``decisions`` table is the truth: after every change the service re-arms one timer
per deadline and per reminder from the cached copy of those rows (``_rearm``), and at
start-up from the rows loaded. A timer that fires re-checks, under the game's lock, that
its decision is still open with the same ``opened_version`` and is due — then does what
the game's ``on_timeout`` says: applies its timeout action for that seat through the
ordinary apply path (so it is logged as an action with source ``timeout`` and replays
exactly), or has the seat's computer player choose. The write is guarded by the game's
revision, so a deadline fires once even if two processes hold the timer; one that passed
while the service was down fires once, right after start-up.

Pause stops every clock of a game (deadlines are kept without a due time); resume gives
every open decision its full duration again, counted from the resume.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

import rules

from . import computer
from .catalogue import _
from .core import DISK_FULL, FULL_RETRY, ServiceBase, ServiceError
from .deadlines import restarted, stopped
from .live import LiveGame
from .models import LOBBY_SEAT
from .outcome import Outcome


class TimerOps(ServiceBase):
    """Timer handling of :class:`service.GameService`."""

    def _rearm(self, live: LiveGame) -> None:
        """Make the scheduler hold exactly the game's due and reminder timers."""
        want: dict[tuple[int, str, int, str], float] = {}
        if not live.paused:
            for d in live.decisions.values():
                if d.due_at is not None:
                    want[(live.id, "due", d.seat, d.kind)] = d.due_at
                if d.remind_at is not None:
                    want[(live.id, "remind", d.seat, d.kind)] = d.remind_at
        for key in self.scheduler.keys(live.id):
            if key[1] in ("due", "remind") and key not in want:
                self.scheduler.cancel(key)
        for key, when in want.items():
            _, what, seat, kind = key
            opened = live.decisions[(seat, kind)].opened_version
            if what == "due":
                self.scheduler.schedule(
                    key, when, self._deadline_callback(live.id, seat, kind, opened)
                )
            else:
                self.scheduler.schedule(
                    key, when, self._reminder_callback(live.id, seat, kind, opened)
                )

    def _deadline_callback(
        self, game_id: int, seat: int, kind: str, opened: int
    ) -> Callable[[], Awaitable[None]]:
        async def fire() -> None:
            outcome = await self._guarded(
                game_id,
                lambda: self._retrying(
                    game_id, lambda live: self._expire(live, seat, kind, opened)
                ),
            )
            if outcome.error == DISK_FULL:  # not applied: the same deadline, again later
                self.scheduler.schedule(
                    (game_id, "due", seat, kind), self.clock.now() + FULL_RETRY, fire
                )
            if outcome.ok and outcome.kind:
                self._emit(outcome)

        return fire

    def _reminder_callback(
        self, game_id: int, seat: int, kind: str, opened: int
    ) -> Callable[[], Awaitable[None]]:
        async def fire() -> None:
            outcome = await self._guarded(
                game_id, lambda: self._remind(game_id, seat, kind, opened)
            )
            if outcome.error == DISK_FULL:
                self.scheduler.schedule(
                    (game_id, "remind", seat, kind), self.clock.now() + FULL_RETRY, fire
                )
            if outcome.ok and outcome.kind:
                self._emit(outcome)

        return fire

    async def _expire(self, live: LiveGame, seat: int, kind: str, opened: int) -> Outcome:
        """A deadline's time came: act as the rules say, if it is still open and due."""
        d = live.decisions.get((seat, kind))
        now = self.clock.now()
        if (
            d is None
            or d.opened_version != opened
            or d.due_at is None
            or d.due_at > now
            or live.paused
        ):
            return Outcome(ok=True, game_id=live.id)  # nothing to do (kind "" : not emitted)
        if seat == LOBBY_SEAT:
            with self.languages.of_game(live):
                line = _(
                    "The lobby expired without starting; it is closed. "
                    "Open a new one with /newgame."
                )
            return await self._cancel(live, {"reason": "lobby expired"}, now, "expired", line)
        assert live.state is not None
        rule = live.state.on_timeout(rules.Decision(seat, kind))
        if rule.computer:
            return await self._computer_move_for(live, seat, kind)
        assert rule.action is not None, "a decision that times out says what"
        return await self._apply(
            live, seat, rule.action, user_id=None, source="timeout", exact=live.version
        )

    async def _computer_move_for(self, live: LiveGame, seat: int, kind: str) -> Outcome:
        """A decision whose time ran out that the game gives to the seat's computer player
        (``OnTimeout.computer``): the normal computer player's choice, applied and logged
        like any action, with the game's own note."""
        g = live.state
        assert g is not None
        seed = computer.seed_for(live.id, live.version, seat)
        action = await self._choose(
            live.variant, live.views().of(seat), g.legal_actions(seat), "normal", seed
        )
        outcome = await self._apply(
            live, seat, action, user_id=None, source="timeout", exact=live.version
        )
        words = live.game.presentation
        with self.languages.of_game(live):
            note = words.timeout_note(kind, live.names()[seat])
        if note is None:
            return outcome
        return replace(outcome, public_lines=(note, *outcome.public_lines))

    async def _remind(self, game_id: int, seat: int, kind: str, opened: int) -> Outcome:
        live = await self._live(game_id)
        d = live.decisions.get((seat, kind))
        if d is None or d.opened_version != opened or live.paused or not live.running:
            return Outcome(ok=True, game_id=game_id)
        if not await self.store.mark_reminded(game_id, seat, kind, opened):
            return Outcome(ok=True, game_id=game_id)  # another process sent it
        live.decisions[(seat, kind)] = type(d)(
            d.seat, d.kind, d.opened_version, d.duration, d.due_at, None
        )
        user = live.user_of(seat)
        if user is None:
            return Outcome(ok=True, game_id=game_id)
        prompt = self._prompt(live, seat, kind)
        return self._simple(live, "reminder", [], prompts=(prompt,), mentions=(user,))

    # ------------------------------------------------------------------ pause / resume
    async def pause(self, game_id: int, by_user: int, *, is_admin: bool = False) -> Outcome:
        """Stop every timer of a running game (host, or an admin).

        Returns the outcome: public words; deadlines in ``decisions`` are None.
        """

        async def body(live: LiveGame) -> Outcome:
            self._require_host(live, by_user, is_admin)
            with self.languages.of_game(live):
                line = _("The game is paused: no timer runs until the host uses /resume.")
            return await self._pause(live, line)

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def pause_for_permissions(self, game_id: int, missing: str) -> Outcome:
        """Pause a running game because the front end cannot post in its channel
        (``missing``: which permission; the held channel is kept with the pause, see
        :meth:`service.store.Store.hold_channel`). A refusal if it is not running or already
        paused; /resume (or :meth:`resume` once the permission is back) restarts it."""

        async def body(live: LiveGame) -> Outcome:
            with self.languages.of_game(live):
                line = _(
                    "The game is paused: the bot is missing a permission here ({permission})."
                ).format(permission=missing)
            return await self._pause(live, line, hold=(live.channel_id, missing))

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def _pause(
        self, live: LiveGame, line: str, hold: tuple[int, str] | None = None
    ) -> Outcome:
        """Stop every timer of ``live`` and say ``line`` (``hold``: the channel held for a
        missing permission, kept in the same transaction).

        Raises:
            ServiceError: the game is not running, or already paused.
        """
        if not live.running:
            raise ServiceError(_("Only a running game can be paused."))
        if live.paused:
            raise ServiceError(_("The game is already paused."))
        now = self.clock.now()
        new = stopped(live.decisions)
        await self.store.set_paused(live.id, live.revision, now, new.values(), hold)
        live.paused_at, live.decisions = now, new
        live.revision += 1
        self._after_change(live)
        return self._simple(live, "pause", [line])

    async def resume(self, game_id: int, by_user: int, *, is_admin: bool = False) -> Outcome:
        """Restart a paused game's timers, each open decision with its full duration.

        Returns the outcome, with the open decisions' new deadlines and their prompts.
        """

        async def body(live: LiveGame) -> Outcome:
            self._require_host(live, by_user, is_admin)
            if not live.paused:
                raise ServiceError(_("The game is not paused."))
            new = restarted(live.decisions, live.settings, self.clock.now(), live.game.timings)
            await self.store.set_paused(live.id, live.revision, None, new.values())
            live.paused_at, live.decisions = None, new
            live.revision += 1
            self._after_change(live)
            prompts = tuple(
                self._prompt(live, d.seat, d.kind)
                for d in new.values()
                if d.seat != LOBBY_SEAT and not live.is_computer(d.seat)
            )
            with self.languages.of_game(live):
                line = _("The game resumes; every timer restarts.")
            return self._simple(live, "resume", [line], prompts=prompts)

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

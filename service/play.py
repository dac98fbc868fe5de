"""Playing: actions and prompt answers, resigning, seat replacement, agreed (or refused)
draws, cancel.

Every action goes through ``ServiceBase._apply``: the engine checks it against a copy of
the cached state, the store writes the action row, the new snapshot, the version bump and
the changed deadlines in one transaction, and only then does the cache move on.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import rules

from .catalogue import _
from .core import ServiceBase, ServiceError, player_seat
from .live import LiveGame
from .outcome import Outcome
from .store import SeatTaken


class PlayOps(ServiceBase):
    """Play operations of :class:`service.GameService`."""

    async def act(
        self, game_id: int, user_id: int, action: Any, *, version: int | None = None
    ) -> Outcome:
        """Apply ``user_id``'s ``action`` (a slash command, a button, a console line).

        ``version``: the :attr:`Prompt.version` of the prompt being answered, if any; an
        out-of-date prompt (the player acted since, or the decision reopened) is refused,
        so a double-clicked button acts once.

        Returns the action's outcome, or a refusal worded for the user (not seated, not
        your turn, an illegal action naming its rule); a refusal writes nothing.
        """

        async def body(live: LiveGame) -> Outcome:
            seat = player_seat(live, user_id)
            return await self._apply(
                live, seat, action, user_id=user_id, source="player", expect=version
            )

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def answer(self, game_id: int, user_id: int, version: int, action: Any) -> Outcome:
        """Answer a prompt with one of its choices: :meth:`act` with the prompt's
        ``version``, so old buttons are refused.

        Returns the action's outcome, or a refusal.
        """
        return await self.act(game_id, user_id, action, version=version)

    async def resign(self, game_id: int, user_id: int) -> Outcome:
        """``user_id`` resigns: a computer player takes the seat, so arch-enemies stay
        . Returns the outcome, or a refusal."""

        async def body(live: LiveGame) -> Outcome:
            seat = player_seat(live, user_id)
            old = live.seats[seat].display_name
            with self.languages.of_game(live):
                name = self._computer_name(live, seat)
            await self.store.replace_seat(
                live.id,
                live.revision,
                seat,
                user_id=None,
                computer_level="normal",
                display_name=name,
                now=self.clock.now(),
            )
            self._seat_changed(live, seat, None, "normal", name)
            with self.languages.of_game(live):
                line = _("{name} resigned; a computer now plays their seat as {computer}.").format(
                    name=old, computer=name
                )
            return self._simple(live, "seat", [line])

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def replace_seat(
        self,
        game_id: int,
        by_user: int,
        seat: int,
        *,
        user_id: int | None = None,
        name: str | None = None,
        level: str = "normal",
        is_admin: bool = False,
    ) -> Outcome:
        """The host hands engine seat ``seat`` to a person (``user_id`` and ``name``) or,
        without ``user_id``, to a computer of ``level``.

        Returns the outcome (with a prompt for the new player if the seat must decide
        now), or a refusal.
        """

        async def body(live: LiveGame) -> Outcome:
            self._require_host(live, by_user, is_admin)
            if not live.running:
                raise ServiceError(_("Seats can be handed over only in a running game."))
            if not 0 <= seat < len(live.seats):
                raise ServiceError(_("There is no such seat."))
            old = live.seats[seat].display_name
            if user_id is not None:
                if live.entry_of(user_id) is not None:
                    raise ServiceError(_("That person already holds a seat in this game."))
                new_name, new_level = " ".join((name or "Player").split())[:40], None
            else:
                if level not in ("easy", "normal", "hard"):
                    raise ServiceError(_("Computer level must be easy, normal or hard."))
                with self.languages.of_game(live):
                    new_name, new_level = self._computer_name(live, seat), level
            try:
                await self.store.replace_seat(
                    live.id,
                    live.revision,
                    seat,
                    user_id=user_id,
                    computer_level=new_level,
                    display_name=new_name,
                    now=self.clock.now(),
                )
            except SeatTaken:
                raise ServiceError(_("That person already holds a seat in this game.")) from None
            self._seat_changed(live, seat, user_id, new_level, new_name)
            prompts = tuple(
                self._prompt(live, d.seat, d.kind)
                for d in live.decisions.values()
                if d.seat == seat and user_id is not None
            )
            with self.languages.of_game(live):
                line = _("{name} takes over {old}'s seat.").format(name=new_name, old=old)
            return self._simple(
                live,
                "seat",
                [line],
                prompts=prompts,
                mentions=(user_id,) if prompts else (),
            )

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def agree_draw(self, game_id: int, user_id: int, agree: bool = True) -> Outcome:
        """Record ``user_id``'s vote for a draw; once every person at the table agrees the
        game ends as a draw (the game's ``agreed_draw``, applied for the table as
        ``rules.SYSTEM``). A vote stands until withdrawn (``agree=False``) or the seat
        changes hands.

        Returns the outcome (the draw's, once unanimous), or a refusal (also when the
        game cannot be drawn by agreement).
        """

        async def body(live: LiveGame) -> Outcome:
            seat = player_seat(live, user_id)
            draw = live.game.agreed_draw()
            if draw is None:
                raise ServiceError(
                    _("{game} cannot end in a draw by agreement.").format(
                        game=live.game.presentation.title
                    )
                )
            await self.store.set_draw_vote(live.id, live.revision, seat, agree)
            live.revision += 1
            live.seats[seat].agrees_draw = agree
            name = live.seats[seat].display_name
            humans = live.humans()
            yes = sum(1 for s in humans if live.seats[s].agrees_draw)
            with self.languages.of_game(live):
                line = (
                    _("{name} agrees to a draw ({yes} of {all}).").format(
                        name=name, yes=yes, all=len(humans)
                    )
                    if agree
                    else _("{name} no longer agrees to a draw.").format(name=name)
                )
            if not agree or yes < len(humans):
                return self._simple(live, "draw", [line])
            outcome = await self._apply(live, rules.SYSTEM, draw, user_id=None, source="system")
            return _prefixed(outcome, line)

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def refuse_draw(self, game_id: int, user_id: int) -> Outcome:
        """``user_id`` refuses the draw proposed at the table: every vote for it is
        withdrawn, and the game goes on (a later proposal starts again from none).

        Returns the outcome, or a refusal (not a player, no draw proposed).
        """

        async def body(live: LiveGame) -> Outcome:
            seat = player_seat(live, user_id)
            voters = [s for s in live.humans() if live.seats[s].agrees_draw]
            if not voters:
                raise ServiceError(_("Nobody has proposed a draw."))
            for voter in voters:
                await self.store.set_draw_vote(live.id, live.revision, voter, False)
                live.revision += 1
                live.seats[voter].agrees_draw = False
            name = live.seats[seat].display_name
            with self.languages.of_game(live):
                line = _("{name} refuses a draw; the game goes on.").format(name=name)
            return self._simple(live, "draw", [line])

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def cancel(self, game_id: int, by_user: int, *, is_admin: bool = False) -> Outcome:
        """Cancel a lobby or a running game (host, or a member with Manage Channels:
        ``is_admin``). The game is kept for history; its timers stop.

        Returns the outcome, or a refusal.
        """

        async def body(live: LiveGame) -> Outcome:
            self._require_host(live, by_user, is_admin)
            if live.status not in ("lobby", "running"):
                raise ServiceError(_("This game is already over."))
            with self.languages.of_game(live):
                line = _("The game was cancelled.")
            reason = {"reason": "cancelled", "by": by_user}
            return await self._cancel(live, reason, self.clock.now(), "cancel", line)

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _computer_name(live: LiveGame, seat: int) -> str:
        side = live.seats[seat].power
        assert side is not None, "a started game's seats have their sides"
        return live.game.presentation.computer_name(side)

    def _seat_changed(
        self, live: LiveGame, seat: int, user_id: int | None, level: str | None, name: str
    ) -> None:
        entry = live.seats[seat]
        entry.user_id, entry.computer_level, entry.display_name = user_id, level, name
        entry.agrees_draw = False
        entry.joined_at = self.clock.now()
        live.revision += 1
        self._after_change(live)


def _prefixed(outcome: Outcome, line: str) -> Outcome:
    return replace(outcome, public_lines=(line, *outcome.public_lines))

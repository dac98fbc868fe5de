"""Taking an action back: the person who took the game's latest action may undo it for
a short while (``undo_seconds``), if the game says it revealed nothing
(:meth:`rules.contract.Game.undoable`) and nothing was written to the game since —
no action by anyone, person or computer, no pause, seat change or draw vote.

The action's before-image (its state and open decisions) is kept with the game by the
action's own write (:class:`service.models.UndoPoint`); the undo puts it back and
appends a row saying so to the log, so a restart or another process loads the game as
it was before the action, and whatever is rebuilt from the log skips both rows
(:func:`service.models.standing`). Deadlines and reminders come back as they were;
computer players due after the action find it gone (their move was computed for a
version that no longer stands) and move again from the position put back. A computer
that already moved makes the undo moot: it is refused, like after any other move.
"""

from __future__ import annotations

import logging

import rules

from .catalogue import _
from .core import ServiceBase, ServiceError, player_seat
from .live import LiveGame
from .models import UndoPoint
from .outcome import Outcome, PrivateNote

log = logging.getLogger("service")


class UndoOps(ServiceBase):
    """Undo of :class:`service.GameService`."""

    async def undo(self, game_id: int, user_id: int, *, seq: int | None = None) -> Outcome:
        """``user_id`` takes back their latest action (``seq``: only if it is that action,
        as an Undo button under it asks).

        Returns the outcome (the channel is told "X took back: …" with the board as it was
        before, and the player is asked again), or a refusal saying why: nothing to undo,
        someone acted since, not theirs, too late, or the action revealed something.
        """

        async def body(live: LiveGame) -> Outcome:
            seat = player_seat(live, user_id)
            point = await self._undo_point(live, seat, user_id, seq)
            return await self._take_back(live, point)

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def undo_open(self, game_id: int) -> tuple[int, float] | None:
        """The game's latest action and until when its player may take it back (the
        clock's seconds), while they may; None when nothing can be taken back now (the
        action revealed something, anything was written to the game since, its time is
        up, or no such game here). A front end keeps an *Undo* button up only while this
        names the button's action."""
        try:
            live = await self._live(game_id, cache=False)
        except ServiceError:
            return None
        point = live.undo_point
        if point is None or point.seq != live.version or point.revision != live.revision:
            return None
        until = point.at + self.undo_seconds
        return (point.seq, until) if self.clock.now() <= until else None

    async def _undo_point(
        self, live: LiveGame, seat: int, user_id: int, seq: int | None
    ) -> UndoPoint:
        """The latest action's undo point, if ``user_id`` may take it back now.

        Raises:
            ServiceError: why not, in words for the player.
        """
        names = live.names()
        point = live.undo_point
        if seq is not None and seq < live.version:
            raise ServiceError(self._moved_since(live, seq))
        if point is None or point.seq != live.version:
            raise ServiceError(await self._nothing_to_undo(live, seat))
        if point.user_id != user_id:
            raise ServiceError(
                _("Only {name} may take back that action.").format(name=names[point.seat])
                if seq is not None or live.last_acted.get(seat, 0) == 0
                else _("Nothing to undo: {name} has moved since.").format(name=names[point.seat])
            )
        if point.revision != live.revision:
            raise ServiceError(
                _("Nothing to undo: the game changed since (a pause, a seat or a draw vote).")
            )
        if self.clock.now() > point.at + self.undo_seconds:
            raise ServiceError(
                _("Too late to undo: an action can be taken back within {seconds} s only.").format(
                    seconds=f"{self.undo_seconds:.0f}"
                )
            )
        return point

    def _moved_since(self, live: LiveGame, seq: int) -> str:
        """Why action ``seq`` cannot be taken back now, by who acted after it: "Nothing to
        undo: Anna has moved since.", "Nothing to undo: the game has moved on since."."""
        movers = [s for s, v in live.last_acted.items() if v > seq]
        if len(movers) == 1 and 0 <= movers[0] < len(live.seats):
            return _("Nothing to undo: {name} has moved since.").format(
                name=live.names()[movers[0]]
            )
        return _("Nothing to undo: the game has moved on since.")

    async def _nothing_to_undo(self, live: LiveGame, seat: int) -> str:
        """Why the game's latest action cannot be taken back by ``seat``."""
        tail = await self.store.last_actions(live.id, 1)
        if not tail:
            return _("Nothing to undo: nobody has moved yet.")
        last = tail[-1]
        if last.undoes is not None:
            return _("Nothing to undo: the last action was already taken back.")
        if last.seat != seat:
            who = live.names()[last.seat] if 0 <= last.seat < len(live.seats) else None
            if live.last_acted.get(seat, 0) > 0:
                return (
                    _("Nothing to undo: {name} has moved since.").format(name=who)
                    if who is not None
                    else _("Nothing to undo: the game has moved on since.")
                )
            return (
                _("Nothing to undo: you have not moved; {name} moved last.").format(name=who)
                if who is not None
                else _("Nothing to undo: you have not moved; the table moved last.")
            )
        if last.source != "player":
            return _("Nothing to undo: your last move was made for you when your time ran out.")
        return _(
            "Your last action cannot be taken back: it revealed something (a card, a die, "
            "a hidden piece), started a contest or ended the game."
        )

    async def _take_back(self, live: LiveGame, point: UndoPoint) -> Outcome:
        """Put back the state and decisions before the latest action, log the undo and
        say so. The caller holds the game's lock."""
        game = live.game
        before = game.load(point.state)
        action = game.action_from_dict(point.action)
        now = self.clock.now()
        version = live.version + 1
        await self.store.record_undo(
            live.id,
            live.revision,
            live.version,
            seat=point.seat,
            user_id=point.user_id,
            undoes=point.seq,
            state=point.state,
            decisions=point.decisions,
            now=now,
            owe=self.announces,
        )
        live.state = before
        live.version = version
        live.revision += 1
        live.decisions = {d.key: d for d in point.decisions}
        live.last_acted = {**live.last_acted, point.seat: version}
        live.undo_point = None
        live.cached_views = None
        kept = self._turn_before.pop(live.id, None)
        # the turn's events before the action; else played again from the log's standing
        # actions (a restart or another process came between)
        live.turn_events = kept[1] if kept is not None and kept[0] == point.seq else None
        board_events: tuple[rules.Event, ...] = ()
        if self.hosts(live.guild_id, live.channel_id):
            try:  # written already: a board without the turn's earlier events at worst
                board_events = (await self._turn_events(live))[1]
            except Exception:
                log.exception("game %s: the turn's events after an undo are not known", live.id)
        self._after_change(live)
        view = live.views().of
        prompts = self._prompts(live, point.seat, view)
        private: dict[int, PrivateNote] = {}
        for prompt in prompts:
            if prompt.user_id is not None:
                private[prompt.user_id] = self._note(
                    live, prompt.user_id, prompt.seat, (), False, view(prompt.seat)
                )
        name = live.names()[point.seat]
        spectator = view(None)
        with self.languages.of_game(live):
            label = game.presentation.action_label(action, view(point.seat), live.names())
            line = _("{name} took back: {action}.").format(name=name, action=label)
        return self._played(
            live,
            "undo",
            [line],
            spectator,
            [],
            private,
            prompts,
            board_due=True,
            board_events=board_events,
        )

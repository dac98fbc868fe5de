"""Read-only queries: which game a channel has, status, a user's view, the log, prompts.

Queries take no lock and write nothing: they read the cached copy (swapped in only after
a commit, so it is always a committed state) or, for a game not in memory, the database.
"""

from __future__ import annotations

import rules
from rules import contract
from rules.presentation import Presentation

from .catalogue import N_, _
from .core import ServiceBase, ServiceError, describe_all
from .live import LiveGame
from .models import LOBBY_SEAT, SeatRecord, standing
from .outcome import DecisionInfo, GameListing, GameStatus, Outcome, Prompt, SeatInfo, UserView

STATUS_WORDS = {
    "lobby": N_("lobby"),
    "running": N_("running"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
    "archived": N_("archived"),
}
"""A game's status in words, by its stored name."""


class QueryOps(ServiceBase):
    """Read-only queries of :class:`service.GameService`."""

    async def active_game(self, channel_id: int) -> int | None:
        """The id of the lobby or running game in ``channel_id``, or None."""
        gid = self._channels.get(channel_id)
        if gid is not None:
            return gid
        return await self.store.active_game_in_channel(channel_id)

    async def status(self, game_id: int) -> GameStatus:
        """``/status``: the game's summary of the position (the presentation's
        ``summary_lines``: turn, hands, decks…), whose decision and its time, the seats.

        Raises:
            ServiceError: no such game.
        """
        live = await self._live(game_id, cache=False)
        g = live.state
        words = live.game.presentation
        seats = tuple(seat_info(words, s) for s in live.seats)
        status = _(STATUS_WORDS.get(live.status, live.status))
        lines = [
            (_("{game}: {status} (paused)") if live.paused else _("{game}: {status}")).format(
                game=words.title, status=status
            )
        ]
        view = live.views().of(None) if g is not None else None
        if g is not None and view is not None:
            lines += words.summary_lines(view, live.names())
            now = self.clock.now()
            for d in self._decision_infos(live):
                lines.append(
                    _("Waiting for {name} ({decision}, {time} left).").format(
                        name=d.name, decision=d.kind, time=time_left(d.deadline - now)
                    )
                    if d.deadline
                    else _("Waiting for {name} ({decision}).").format(name=d.name, decision=d.kind)
                )
        return GameStatus(
            game_id=live.id,
            channel_id=live.channel_id,
            guild_id=live.guild_id,
            status=live.status,
            variant=live.variant,
            host_id=live.host_id,
            version=live.version,
            paused=live.paused,
            seats=seats,
            decisions=self._decision_infos(live) if g is not None else (),
            lines=tuple(lines),
            view=view,
            result=live.result,
            language=live.settings.language,
        )

    async def view(self, game_id: int, user_id: int | None) -> UserView:
        """``/hand``, ``/board``: the game as ``user_id`` may see it (a spectator's view
        if not seated) and the user's open prompt, if any.

        Raises:
            ServiceError: no such game, or it has not started.
        """
        live = await self._live(game_id, cache=False)
        if live.state is None:
            raise ServiceError(_("The game has not started yet."))
        seat = live.seat_of(user_id) if user_id is not None else None
        prompt = self._open_prompt(live, seat) if seat is not None else None
        view = live.views().of(seat)
        mine = live.game.presentation.private_lines(view, live.names()) if seat is not None else []
        return UserView(live.id, seat, view, prompt, live.variant, tuple(mine))

    async def prompts(self, game_id: int | None = None) -> list[Prompt]:
        """Every open prompt of people (of one game, or of all games in memory): what a
        front end re-sends after a restart so open panels come back."""
        if game_id is None:
            games = list(self._games.values())
        else:
            try:
                games = [await self._live(game_id, cache=False)]
            except ServiceError:
                return []
        out = []
        for live in games:
            if not live.running:
                continue
            for seat, kind in sorted(live.decisions):
                if seat != LOBBY_SEAT and not live.is_computer(seat):
                    out.append(self._prompt(live, seat, kind))
        return out

    async def prompt_stands(self, game_id: int, user_id: int, version: int) -> bool:
        """Whether a prompt made at ``version`` for ``user_id`` still stands: the user holds
        a seat with an open decision, has not acted since, and none of their decisions
        opened after it (an answer to it would be taken). False for no such game."""
        try:
            live = await self._live(game_id, cache=False)
        except ServiceError:
            return False
        seat = live.seat_of(user_id)
        if not live.running or seat is None or all(s != seat for s, _kind in live.decisions):
            return False
        return self._current(live, seat, version)

    async def games_of(self, user_id: int) -> list[GameListing]:
        """``/games``: this front end's unfinished games where ``user_id`` holds a seat
        (those it hosts or visits), oldest first, read from the store (so also those
        another process hosts), each with its seats and open decisions."""
        out = []
        for g in await self.store.user_games(user_id):
            if not (self.hosts(g.guild_id, g.channel_id) or self.visits(g.guild_id, g.channel_id)):
                continue  # another front end's game
            try:
                words = contract.game_named(g.variant).presentation
            except contract.UnknownGame:
                continue  # a game this installation does not have
            by_seat = {s.seat: s for s in g.seats if s.seat is not None}
            seats = tuple(seat_info(words, s) for s in g.seats)
            decisions = tuple(
                DecisionInfo(
                    d.seat,
                    d.kind,
                    by_seat[d.seat].user_id,
                    by_seat[d.seat].display_name,
                    d.due_at,
                )
                for d in g.decisions
                if d.seat in by_seat
            )
            out.append(
                GameListing(
                    g.id,
                    g.channel_id,
                    g.guild_id,
                    g.status,
                    g.variant,
                    g.paused_at is not None,
                    seats,
                    decisions,
                )
            )
        return out

    async def log(
        self,
        game_id: int,
        count: int = 20,
        user_id: int | None = None,
    ) -> list[str]:
        """``/log``: the last ``count`` lines of the game in words — the public ones, plus
        ``user_id``'s own private ones (cards received, spy results).

        Raises:
            ServiceError: no such game, or it has not started.
        """
        live = await self._live(game_id, cache=False)
        if live.state is None:
            raise ServiceError(_("The game has not started yet."))
        count = max(1, min(count, 200))
        seat = live.seat_of(user_id) if user_id is not None else None
        words, view, names = live.game.presentation, live.views().of(seat), live.names()
        tail = await self.store.last_actions(game_id, count)
        records = standing(tail)  # an action taken back is not told
        lines: list[str] = []
        if not tail or tail[0].seq == 1:
            rec = await self.store.load_game(game_id)
            start = [rules.Event.from_dict(e) for e in (rec.start_events if rec else [])]
            lines += describe_all(words, start, view, names, seat)
        for r in records:
            events = [rules.Event.from_dict(e) for e in r.events]
            lines += describe_all(words, events, view, names, seat)
        return lines[-count:]

    async def untold(self, game_id: int, owed_from: int) -> Outcome | None:
        """The outcome of game ``game_id``'s actions from ``owed_from`` on, rebuilt from
        the stored log: what its channel was owed when the bot stopped before telling it
        (their words, the board as stored now, who is to play; each player's private
        lines and prompts). None if there is nothing to tell (no such game, not hosted
        here, or no such actions)."""
        try:
            live = await self._live(game_id, cache=False)
        except ServiceError:
            return None
        if not self.hosts(live.guild_id, live.channel_id):
            return None  # its host tells it
        g = live.state
        logged = await self.store.actions(game_id, owed_from - 1) if g is not None else []
        if g is None or not logged:
            return None
        records = standing(logged)  # an action taken back is not told; its undo only if
        # the action was
        names = live.names()
        words = live.game.presentation
        events = [rules.Event.from_dict(e) for r in records for e in r.events]
        acted = {r.seat for r in logged}
        # as after an action (see ``_prompts``): the decisions opened since, and those of
        # the seats that acted and still decide (their panels are out of date)
        prompts = tuple(
            self._prompt(live, d.seat, d.kind)
            for d in sorted(live.decisions.values(), key=lambda d: (d.seat, d.kind))
            if d.seat != LOBBY_SEAT
            and not live.is_computer(d.seat)
            and (d.opened_version >= owed_from or d.seat in acted)
        )
        private = {}
        for seat, rec in enumerate(live.seats):
            if rec.user_id is None:
                continue
            view = live.views().of(seat)
            mine = [e for e in events if e.to == seat]
            with self.languages.of_person(rec.user_id, live):
                lines = tuple(describe_all(words, mine, view, names, seat))
            if lines or any(p.seat == seat for p in prompts):
                private[rec.user_id] = self._note(live, rec.user_id, seat, lines, False, view)
        public = [e for e in events if e.to is None]
        spectator = live.views().of(None)
        _turn, turn = await self._turn_events(live)
        with self.languages.of_game(live):
            took_back = [
                _("{name} took back an action.").format(name=names[r.seat])
                for r in logged
                if r.undoes is not None and r.undoes < owed_from and 0 <= r.seat < len(names)
            ]
            said = [*took_back, *describe_all(words, public, spectator, names, None)]
        return self._played(
            live,
            logged[-1].source if logged[-1].source in ("player", "computer") else "timeout",
            said,
            spectator,
            public,
            private,
            prompts,
            board_due=True,
            board_events=turn or tuple(public),
        )

    def _open_prompt(self, live: LiveGame, seat: int) -> Prompt | None:
        for s, kind in sorted(live.decisions):
            if s == seat:
                return self._prompt(live, s, kind)
        return None


def seat_info(words: Presentation, seat: SeatRecord) -> SeatInfo:
    """A seat (or lobby entry) as anyone may see it, its side named in the game's words."""
    side = seat.power or seat.requested_power
    return SeatInfo(
        seat=seat.seat,
        user_id=seat.user_id,
        name=seat.display_name,
        computer_level=seat.computer_level,
        power=side,
        power_name=words.side_name(side) if side else None,
        agrees_draw=seat.agrees_draw,
    )


def time_left(seconds: float) -> str:
    """A duration in words: "45 s", "12 min", "3 h 20 min" (never negative)."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return _("{seconds} s").format(seconds=seconds)
    minutes = seconds // 60
    if minutes < 60:
        return _("{minutes} min").format(minutes=minutes)
    hours, minutes = divmod(minutes, 60)
    if minutes:
        return _("{hours} h {minutes} min").format(hours=hours, minutes=minutes)
    return _("{hours} h").format(hours=hours)

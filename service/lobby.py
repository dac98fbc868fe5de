"""The lobby: open, join, leave, computer seats, options, start, a rematch.

A lobby is a ``games`` row in status ``lobby`` with its entries in ``seats`` (join order).
The database allows one active game per channel and counts a server's active games in
the same transaction that opens a lobby. Every lobby change refreshes the lobby's expiry
(a deadline at seat -1): an abandoned lobby closes ``lobby_expiry`` after its last change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal

from rules import contract, i18n

from . import turns
from .catalogue import N_, _, n_
from .core import ServiceBase, ServiceError
from .deadlines import timed
from .live import LiveGame
from .models import (
    COMPUTER_LEVELS,
    LOBBY_SEAT,
    DecisionRecord,
    GameSettings,
    GuildSettings,
    SettingsError,
)
from .outcome import LobbyInfo, Outcome, SeatInfo
from .store import ChannelBusy, GuildFull, NewSeat, SeatTaken

LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
"""A computer player's level in words, by its id (:data:`COMPUTER_LEVELS`)."""

ServerDefault = Literal["server"]
Keep = Literal["keep"]


def time_limits(game: contract.Game) -> dict[str, float | None]:
    """The time limits of their own that ``game``'s decisions run on, with their
    defaults (the turn time and option-driven windows are not among them)."""
    return {
        t.limit: t.seconds for t in game.timings.values() if t.limit != "turn" and t.option is None
    }


class LobbyOps(ServiceBase):
    """Lobby operations of :class:`service.GameService`."""

    async def open_lobby(
        self,
        *,
        channel_id: int,
        host_id: int,
        host_name: str,
        guild_id: int | None = None,
        variant: str | None = None,
        max_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        arranged: bool = False,
        turn_timeout: float | ServerDefault | None = "server",
        host_power: str | None = None,
        host_joins: bool = True,
        timeouts: Mapping[str, float | None] | None = None,
        reminder_lead: float | None = None,
        guild_locale: str | None = None,
    ) -> Outcome:
        """Open a lobby of the game registered as ``variant`` (default: the first
        registered) in ``channel_id`` with ``host_id`` as host (and first player).

        ``options`` are changes to the game's options over the server's defaults for
        them (:attr:`GuildSettings.options`); ``turn_timeout`` is seconds, ``None`` for no
        limit, ``"server"`` for the server's default. ``timeouts`` sets the game's other
        time limits by name (:func:`time_limits`; seconds or ``None`` for none — a
        terminal game without clocks), ``reminder_lead`` the reminder (0: none; default
        the server's). ``guild_locale`` is the server's Discord language: the game's
        channel speaks the server's ``/settings`` language if it has one, else that one
        if the product speaks it, else English (:attr:`GameSettings.language`).

        Returns the lobby outcome (``lobby`` set), or a refusal: the channel already has a
        game, the server is at its cap, an unknown game / side, bad options.
        """

        async def body() -> Outcome:
            if not self.hosts(guild_id, channel_id):
                raise ServiceError(_("Games cannot be opened here."))
            gs = (
                await self.store.guild_settings(guild_id)
                if guild_id is not None
                else GuildSettings(0)
            )
            names = contract.game_names()
            name = variant if variant is not None else (names[0] if names else "")
            if name not in names:
                raise ServiceError(_("Unknown game {name}.").format(name=repr(name)))
            game = contract.game_named(name)
            defaults = gs.defaults_for(game.presentation.options())
            opts = game.options_from_dict({**defaults, **dict(options or {})})
            limit = game.max_players(opts)
            limits = {**time_limits(game), **dict(timeouts or {})}
            unknown = set(limits) - set(time_limits(game))
            if unknown:
                raise ServiceError(
                    _("Unknown time limits: {names}.").format(names=", ".join(sorted(unknown)))
                )
            settings = GameSettings(
                max_players=max_players or limit,
                arranged=arranged,
                options=game.options_to_dict(opts),
                turn_timeout=gs.turn_timeout if turn_timeout == "server" else turn_timeout,
                timeouts=limits,
                reminder_lead=gs.reminder_lead if reminder_lead is None else reminder_lead,
                lobby_expiry=gs.lobby_expiry,
                language=i18n.choose(gs.language, guild_locale),
            )
            settings.check(name)
            now = self.clock.now()
            seat = None
            if host_joins:
                power = self._side_id(name, opts, host_power)
                seat = NewSeat(host_id, None, _clean(host_name), power, now)
            try:
                game_id = await self.store.create_lobby(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    variant=name,
                    settings=settings,
                    host_seat=seat,
                    expiry=self._expiry_of(settings, now),
                    max_games=gs.max_games if guild_id is not None else None,
                    now=now,
                )
            except ChannelBusy:
                raise ServiceError(
                    _(
                        "A game is already open in this channel; finish or "
                        "/cancel it first (or use a thread)."
                    )
                ) from None
            except GuildFull:
                raise ServiceError(server_full(gs.max_games)) from None
            live = await self._live(game_id)
            with self.languages.of_game(live):
                title = game.presentation.title
                line = _(
                    "{host} opened a {game} table for {low}–{high} players. "
                    "Join with /join; the host starts with /start."
                ).format(
                    host=_clean(host_name),
                    game=title,
                    low=game.min_players,
                    high=settings.max_players,
                )
            return self._lobby_outcome(live, [line])

        return await self._guarded(None, body)

    async def join(
        self, game_id: int, user_id: int, name: str, power: str | None = None
    ) -> Outcome:
        """Seat ``user_id`` in the lobby, optionally asking for the side ``power`` (its id,
        its name, or what the game's ``find_side`` understands).

        Returns the lobby outcome, or a refusal (not a lobby, already seated, the table
        is full, the side is taken or unknown).
        """

        async def body(live: LiveGame) -> Outcome:
            self._require_lobby(live)
            if live.entry_of(user_id) is not None:
                raise ServiceError(_("You are already at this table."))
            self._require_room(live)
            wanted = self._free_side(live, power)
            now = self.clock.now()
            try:
                await self.store.add_seat(
                    live.id,
                    live.revision,
                    NewSeat(user_id, None, _clean(name), wanted, now),
                    self._expiry(live, now),
                )
            except SeatTaken:
                raise ServiceError(_("You are already at this table.")) from None
            live = await self._reload(live)
            with self.languages.of_game(live):
                line = _("{name} joined ({seated}/{seats}).").format(
                    name=_clean(name), seated=len(live.seats), seats=live.settings.max_players
                )
            return self._lobby_outcome(live, [line])

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def leave(self, game_id: int, user_id: int) -> Outcome:
        """Leave a lobby. A leaving host hands the lobby to the next person; the last
        person leaving closes it. (In a running game, use :meth:`resign`.)

        Returns the lobby outcome, or a refusal.
        """

        async def body(live: LiveGame) -> Outcome:
            if live.status == "running":
                raise ServiceError(
                    _("The game has started: use /resign to hand your seat to a computer.")
                )
            self._require_lobby(live)
            entry = live.entry_of(user_id)
            if entry is None:
                raise ServiceError(_("You are not at this table."))
            others = [s for s in live.seats if s.user_id not in (None, user_id)]
            now = self.clock.now()
            if not others:
                with self.languages.of_game(live):
                    line = _("{name} left; nobody is left, so the lobby is closed.").format(
                        name=entry.display_name
                    )
                return await self._cancel(live, {"reason": "everyone left"}, now, "cancel", line)
            old_host = live.host_id
            host = old_host if old_host != user_id else others[0].user_id
            await self.store.remove_seat(
                live.id, live.revision, entry.id, host, self._expiry(live, now)
            )
            live = await self._reload(live)
            with self.languages.of_game(live):
                lines = [_("{name} left the table.").format(name=entry.display_name)]
                if old_host == user_id:
                    lines.append(_("{name} is now the host.").format(name=others[0].display_name))
            return self._lobby_outcome(live, lines)

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def add_computer(
        self, game_id: int, by_user: int, level: str = "normal", power: str | None = None
    ) -> Outcome:
        """The host adds a computer player (``easy`` | ``normal`` | ``hard``), optionally
        at the side ``power``.

        Returns the lobby outcome, or a refusal.
        """

        async def body(live: LiveGame) -> Outcome:
            self._require_lobby(live)
            self._require_host(live, by_user)
            if level not in COMPUTER_LEVELS:
                raise ServiceError(
                    _("Computer level must be one of {levels}.").format(
                        levels=", ".join(COMPUTER_LEVELS)
                    )
                )
            self._require_room(live)
            wanted = self._free_side(live, power)
            number = 1 + sum(1 for s in live.seats if s.is_computer)
            with self.languages.of_game(live):
                name = computer_seat_name(number, level)
            now = self.clock.now()
            await self.store.add_seat(
                live.id,
                live.revision,
                NewSeat(None, level, name, wanted, now),
                self._expiry(live, now),
            )
            live = await self._reload(live)
            with self.languages.of_game(live):
                line = _("{name} sits down ({seated}/{seats}).").format(
                    name=name, seated=len(live.seats), seats=live.settings.max_players
                )
            return self._lobby_outcome(live, [line])

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def remove_computer(
        self, game_id: int, by_user: int, position: int | None = None
    ) -> Outcome:
        """The host removes a computer player: the one at lobby ``position`` (0-based,
        join order), or the last one added.

        Returns the lobby outcome, or a refusal.
        """

        async def body(live: LiveGame) -> Outcome:
            self._require_lobby(live)
            self._require_host(live, by_user)
            if position is None:
                bots = [s for s in live.seats if s.is_computer]
                if not bots:
                    raise ServiceError(_("There is no computer player at this table."))
                entry = bots[-1]
            else:
                if not 0 <= position < len(live.seats) or not live.seats[position].is_computer:
                    raise ServiceError(_("That seat is not a computer player."))
                entry = live.seats[position]
            now = self.clock.now()
            await self.store.remove_seat(
                live.id, live.revision, entry.id, live.host_id, self._expiry(live, now)
            )
            live = await self._reload(live)
            with self.languages.of_game(live):
                line = _("{name} leaves the table.").format(name=entry.display_name)
            return self._lobby_outcome(live, [line])

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def configure(
        self,
        game_id: int,
        by_user: int,
        *,
        max_players: int | None = None,
        arranged: bool | None = None,
        turn_timeout: float | Keep | None = "keep",
        options: Mapping[str, Any] | None = None,
    ) -> Outcome:
        """The host changes the lobby's table settings or rule options (the Options
        button): only the arguments given change.

        Returns the lobby outcome, or a refusal (bad values, fewer seats than players).
        """

        async def body(live: LiveGame) -> Outcome:
            self._require_lobby(live)
            self._require_host(live, by_user)
            s = live.settings
            game = live.game
            opts = game.options_from_dict({**s.options, **dict(options or {})})
            new = replace(
                s,
                options=game.options_to_dict(opts),
                max_players=max_players
                if max_players is not None
                else min(s.max_players, game.max_players(opts)),
                arranged=s.arranged if arranged is None else arranged,
                turn_timeout=s.turn_timeout if turn_timeout == "keep" else turn_timeout,
            )
            new.check(live.variant)
            if new.max_players < len(live.seats):
                raise SettingsError(
                    n_(
                        "{count} player is already seated.",
                        "{count} players are already seated.",
                        len(live.seats),
                    ).format(count=len(live.seats))
                )
            now = self.clock.now()
            await self.store.update_lobby(
                live.id, live.revision, new, live.host_id, self._expiry(live, now)
            )
            live = await self._reload(live)
            with self.languages.of_game(live):
                line = _("The table settings changed.")
            return self._lobby_outcome(live, [line])

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def start_game(self, game_id: int, by_user: int, *, seed: int | None = None) -> Outcome:
        """The host starts the game: the game seats the players (dealt at random
        unless the table is arranged) and its first decisions open.

        Returns the start outcome (the game's opening words, the board, and a prompt for
        every player who decides now), or a refusal.
        """

        async def body(live: LiveGame) -> Outcome:
            self._require_lobby(live)
            self._require_host(live, by_user)
            engine = live.game
            if len(live.seats) < engine.min_players:
                raise ServiceError(
                    n_(
                        "{game} needs at least {count} player; invite someone or add a computer.",
                        "{game} needs at least {count} players; invite someone or add a computer.",
                        engine.min_players,
                    ).format(game=engine.presentation.title, count=engine.min_players)
                )
            powers = [s.requested_power for s in live.seats]
            game_seed = seed if seed is not None else self._seed_source()
            arranged = live.settings.arranged
            creation = {
                "variant": live.variant,
                "powers": powers,
                "seed": game_seed,
                "options": dict(live.settings.options),
                "arranged": arranged,
            }
            opts = engine.options_from_dict(dict(live.settings.options))
            game, events = engine.new_game(powers, game_seed, opts, arranged)
            entries = [live.seats[origin] for origin in game.origins]
            names = []
            words = engine.presentation
            with self.languages.of_game(live):
                for seat, entry in enumerate(entries):
                    side = game.sides[seat]
                    names.append(
                        words.computer_name(side) if entry.is_computer else entry.display_name
                    )
            now = self.clock.now()
            timings = engine.timings
            decisions = {
                (d.seat, d.kind): timed(d.kind, d.seat, 0, live.settings, now, False, timings)
                for d in game.deciders()
            }
            seats = [
                replace(e, seat=i, power=game.sides[i], display_name=names[i])
                for i, e in enumerate(entries)
            ]
            nxt = replace(
                live,
                seats=seats,
                state=game,
                creation=creation,
                status="running",
                revision=live.revision + 1,
                decisions=decisions,
                turn_events=(None, turns.public(events)),
            )
            outcome = self._play_outcome(nxt, game, events, None, "start")  # before the commit
            await self.store.start_game(
                live.id,
                live.revision,
                creation=creation,
                start_events=[e.to_dict() for e in events],
                state=game.to_dict(),
                seats=[
                    (e.id, e.seat, e.power, e.display_name)
                    for e in seats
                    if e.seat is not None and e.power is not None
                ],
                decisions=decisions.values(),
                now=now,
            )
            for name in (
                "seats",
                "state",
                "creation",
                "status",
                "revision",
                "decisions",
                "cached_views",
                "turn_events",
            ):
                setattr(live, name, getattr(nxt, name))
            self._after_change(live)
            return outcome

        return await self._guarded(game_id, lambda: self._retrying(game_id, body))

    async def rematch(self, game_id: int, user_id: int) -> Outcome:
        """A new table for finished game ``game_id``, in its channel, with the same seats:
        the same people and computers (at their levels), each asking for the side it
        played, and the same table settings and options; a new seed once it starts.
        ``user_id``, one of its players, hosts it. Anyone who does not want to play
        again leaves it as any lobby.

        Returns the lobby outcome, or a refusal (the game is not over, the user did not
        play in it, the channel already has a game, the server is at its cap).
        """

        async def body() -> Outcome:
            old = await self._live(game_id, cache=False)
            if old.status != "finished":
                raise ServiceError(
                    _("A rematch is offered once the game is over.")
                    if old.status in ("lobby", "running")
                    else _("This game did not finish; open a new table with /newgame.")
                )
            host = old.entry_of(user_id)
            if host is None:
                raise ServiceError(_("Only a player of that game can ask for a rematch."))
            gs = (
                await self.store.guild_settings(old.guild_id)
                if old.guild_id is not None
                else GuildSettings(0)
            )
            now = self.clock.now()
            try:
                game_id_new = await self.store.create_lobby(
                    guild_id=old.guild_id,
                    channel_id=old.channel_id,
                    host_id=user_id,
                    variant=old.variant,
                    settings=old.settings,
                    host_seat=None,
                    expiry=self._expiry_of(old.settings, now),
                    max_games=gs.max_games if old.guild_id is not None else None,
                    now=now,
                )
            except ChannelBusy:
                raise ServiceError(
                    _(
                        "A game is already open in this channel (perhaps the rematch): "
                        "join it there."
                    )
                ) from None
            except GuildFull:
                raise ServiceError(server_full(gs.max_games)) from None
            live = await self._live(game_id_new)
            computers = 0
            for entry in sorted(old.seats, key=lambda e: e.seat if e.seat is not None else 0):
                name = entry.display_name
                if entry.is_computer:
                    computers += 1
                    with self.languages.of_game(live):
                        name = computer_seat_name(computers, entry.computer_level or "normal")
                seat = NewSeat(entry.user_id, entry.computer_level, name, entry.power, now)
                await self.store.add_seat(live.id, live.revision, seat, self._expiry(live, now))
                live = await self._reload(live)
            with self.languages.of_game(live):
                title = live.game.presentation.title
                line = _(
                    "{name} asks for a rematch: a new {game} table with the same seats. "
                    "Anyone who would rather not play presses Leave; the host starts with "
                    "Start."
                ).format(name=host.display_name, game=title)
            return self._lobby_outcome(live, [line])

        return await self._guarded(None, body)

    async def lobby_info(self, game_id: int) -> LobbyInfo:
        """The lobby as its message shows it (read-only: for a front end that redraws the
        lobby message or its options after a restart).

        Raises:
            ServiceError: no such game, or it is not a lobby any more.
        """
        live = await self._live(game_id, cache=False)
        self._require_lobby(live)
        info = self._lobby_outcome(live, []).lobby
        assert info is not None
        return info

    # ------------------------------------------------------------------ helpers
    async def _reload(self, live: LiveGame) -> LiveGame:
        """Re-read a lobby after a write (lobby changes are rare; row ids come back)."""
        self._forget(live.id)
        return await self._live(live.id)

    def _expiry(self, live: LiveGame, now: float) -> DecisionRecord:
        return self._expiry_of(live.settings, now)

    @staticmethod
    def _expiry_of(settings: GameSettings, now: float) -> DecisionRecord:
        """A lobby's expiry, ``lobby_expiry`` from ``now``."""
        return timed("lobby", LOBBY_SEAT, 0, settings, now, False, {})

    @staticmethod
    def _require_lobby(live: LiveGame) -> None:
        if live.status != "lobby":
            raise ServiceError(
                _("The game has already started.")
                if live.status == "running"
                else _("This game is over.")
            )

    @staticmethod
    def _require_room(live: LiveGame) -> None:
        if len(live.seats) >= live.settings.max_players:
            raise ServiceError(
                _("The table is full ({count} players).").format(count=live.settings.max_players)
            )

    def _free_side(self, live: LiveGame, power: str | None) -> str | None:
        options = live.game.options_from_dict(dict(live.settings.options))
        wanted = self._side_id(live.variant, options, power)
        if wanted is not None and any(s.requested_power == wanted for s in live.seats):
            words = live.game.presentation
            raise ServiceError(
                _("Someone at the table already chose that {side}.").format(side=words.side_word)
            )
        return wanted

    @staticmethod
    def _side_id(variant: str, options: Any, power: str | None) -> str | None:
        if power is None:
            return None
        game = contract.game_named(variant)
        words = game.presentation
        sides = game.sides(options)
        found = power if power in sides else words.find_side(power)
        if found is None or found not in sides:
            raise ServiceError(
                _("Unknown {side} {name}; choose one of {sides}.").format(
                    side=words.side_word,
                    name=repr(power),
                    sides=", ".join(words.side_name(s) for s in sides),
                )
            )
        return found

    def _lobby_outcome(self, live: LiveGame, lines: list[str]) -> Outcome:
        """The lobby's outcome: ``lines`` (made in the game's language) said in the
        channel, and the lobby as its message shows it."""
        words = contract.game_named(live.variant).presentation
        with self.languages.of_game(live):
            seats = tuple(
                SeatInfo(
                    None,
                    s.user_id,
                    s.display_name,
                    s.computer_level,
                    s.requested_power,
                    words.side_name(s.requested_power) if s.requested_power else None,
                )
                for s in live.seats
            )
        expiry = live.decisions.get((LOBBY_SEAT, "lobby"))
        info = LobbyInfo(
            host_id=live.host_id,
            variant=live.variant,
            seats=seats,
            max_players=live.settings.max_players,
            arranged=live.settings.arranged,
            options=dict(live.settings.options),
            turn_timeout=live.settings.turn_timeout,
            expires_at=expiry.due_at if expiry else None,
            language=live.settings.language,
        )
        return Outcome(
            ok=True,
            game_id=live.id,
            kind="lobby",
            channel_id=live.channel_id,
            guild_id=live.guild_id,
            status=live.status,
            public_lines=tuple(lines),
            lobby=info,
            names=tuple(live.names()),
            variant=live.variant,
            language=live.settings.language,
        )


def server_full(cap: int) -> str:
    """The refusal of a new table in a server at its cap of active games."""
    return n_(
        "This server already runs {count} game, its limit (see /settings).",
        "This server already runs {count} games, its limit (see /settings).",
        cap,
    ).format(count=cap)


def computer_seat_name(number: int, level: str) -> str:
    """A computer player's name at a table, in the current language: "Computer 2 (hard)"."""
    word = LEVEL_WORDS.get(level)
    return _("Computer {number} ({level})").format(
        number=number, level=_(word) if word is not None else level
    )


def _clean(name: str) -> str:
    """A display name fit for texts: one line, at most 40 characters, never empty."""
    text = " ".join(str(name).split())[:40]
    return text or "Player"

"""Ratings and leaderboards: each finished game of a server rated once, in order
(:mod:`service.rating` says how), a rebuild from the stored games, and what a front end
shows of them (``/leaderboard``, ``/stats``).

A game is rated right after its last action is committed, in a task of its own: the
service rates every finished game not rated yet, oldest first, each written over the
ratings it was computed from (:meth:`service.store.Store.record_ratings`), so two
services on one database never both rate over the same ratings — the later one reads
again. A game a crash left unrated is rated at the next start. A rebuild rates every
rated game again in the same order: it gives the ratings the games were rated to, to the
last bit, and is what deleting a server's games (or changing the model) calls for.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rules import contract

from .catalogue import _
from .core import ServiceBase, ServiceError
from .models import PlayerResult, Rating
from .rating import COMPUTER_RATINGS, MODEL, entrants, rate_all, rate_game
from .store import StaleVersion, StoreFull

log = logging.getLogger("service")

RATE_BATCH = 50
"""Games read at once when rating the finished games waiting for it."""
REBUILD_TRIES = 5
"""Rebuilds tried while other writers keep moving the ratings on."""
MODEL_KEY = "ratings_model"
"""The store fact (:meth:`service.store.FrontStore.meta`) naming the model the stored
ratings were computed with: at a start, ratings of another model are rebuilt."""
LEADERBOARD_SIZE = 10


def model_fingerprint() -> str:
    """The package's release, the model and the computers' fixed ratings in words: two
    runs rate alike exactly when these are equal."""
    m = MODEL
    parts = [
        f"openskill {importlib.metadata.version('openskill')}",
        f"{type(m).__name__} mu={m.mu!r} sigma={m.sigma!r} beta={m.beta!r}",
        f"kappa={m.kappa!r} tau={m.tau!r} margin={m.margin!r}",
        f"limit_sigma={m.limit_sigma} balance={m.balance}",
        *(f"{level}={COMPUTER_RATINGS[level]!r}" for level in sorted(COMPUTER_RATINGS)),
    ]
    return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a leaderboard."""

    place: int
    user_id: int
    name: str
    rating: float
    """The rating shown: OpenSkill's ordinal, ``mu - 3 sigma`` (0 for a newcomer)."""
    games: int
    """Rated games."""
    wins: int
    """Rated games won, alone or shared."""


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """``/leaderboard``: the best ratings in one game kind, everyone's or a server's."""

    variant: str
    title: str
    guild_id: int | None
    """The server whose players it lists (None: everyone)."""
    standings: tuple[Standing, ...]
    total: int
    """How many people are on the whole list."""
    mine: Standing | None
    """The asker's own line (None: not on the list, or not asked)."""


@dataclass(frozen=True, slots=True)
class KindStats:
    """One person's record in one game kind."""

    variant: str
    title: str
    games: int
    """Finished games played (rated or not)."""
    wins: int
    """Won alone."""
    shared: int
    """Won with others."""
    draws: int
    losses: int
    """Lost at the table (leaving not counted here)."""
    left: int
    """Left before the end (resigned or handed over): rated as losses."""
    favourite: str | None
    """The side played most (the latest of equals), by its name."""
    favourite_games: int
    rating: float | None
    """The rating shown now (None: never rated)."""
    place: int | None
    """The place on everyone's leaderboard of this kind."""
    players: int
    """People on that leaderboard."""
    history: tuple[tuple[float, float], ...]
    """(when the game ended, the rating shown after it) of every rated game, in order."""


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """``/stats``: one person's record in every game kind they finished a game of."""

    user_id: int
    name: str | None
    """The name of their latest finished game (None: no game yet)."""
    kinds: tuple[KindStats, ...]
    hints: int = 0
    """Hints taken in every game (``/hint``)."""


def title_of(variant: str) -> str:
    """A game kind's title (its registry name if no longer registered)."""
    try:
        return contract.game_named(variant).presentation.title
    except Exception:
        return variant


def side_name(variant: str, side: str) -> str:
    """A side's name in a game kind (the side itself if the game is gone)."""
    try:
        return contract.game_named(variant).presentation.side_name(side)
    except Exception:
        return side


def kind_stats(
    variant: str,
    results: Sequence[PlayerResult],
    rating: Rating | None,
    place: int | None,
    players: int,
) -> KindStats:
    """One person's record in ``variant`` from their results there, in the rating order."""
    outcomes = Counter(r.outcome for r in results)
    sides = Counter(r.power for r in results if r.power)
    favourite, most = None, 0
    for r in reversed(results):  # the latest side among the most played
        if r.power and sides[r.power] > most:
            favourite, most = r.power, sides[r.power]
    history = tuple((r.ended_at, o) for r in results if (o := r.ordinal) is not None)
    return KindStats(
        variant=variant,
        title=title_of(variant),
        games=len(results),
        wins=outcomes["win"],
        shared=outcomes["shared"],
        draws=outcomes["draw"],
        losses=outcomes["loss"],
        left=outcomes["left"],
        favourite=side_name(variant, favourite) if favourite else None,
        favourite_games=most,
        rating=rating.ordinal if rating is not None else None,
        place=place,
        players=players,
        history=history,
    )


class RatingOps(ServiceBase):
    """Ratings and leaderboards of :class:`service.GameService`."""

    # ------------------------------------------------------------------ rating
    def _game_over(self) -> None:
        """A game was just finished: rate it (with any other waiting) in the background."""
        self._track(self._rate_quietly())

    async def _rate_quietly(self, check_model: bool = False) -> None:
        """:meth:`rate_finished` (after a rebuild if ``check_model`` finds the stored
        ratings computed with another model), a fault logged: the next finished game or
        start tries again."""
        try:
            if check_model and await self.store.meta(MODEL_KEY) != model_fingerprint():
                await self.rebuild_ratings()
            else:
                await self.rate_finished()
        except StoreFull:
            log.warning("the disk is full: finished games wait to be rated")
        except Exception:
            log.exception("rating the finished games failed; they wait for the next try")

    async def rate_finished(self) -> int:
        """Rate every finished game of a server not rated yet, in the order they ended
        (stopping early if the service closes). Returns how many were rated here."""
        rated = 0
        async with self._rating_lock:
            while not self._closing:
                games = await self.store.unrated_games(RATE_BATCH)
                if not games:
                    break
                for game in games:
                    if self._closing:
                        break
                    people = [e.user_id for e in entrants(game) if e.user_id is not None]
                    head, known = await self.store.ratings_of(game.variant, people)
                    before = {r.user_id: r for r in known}
                    results, ratings = rate_game(game, before, head + 1)
                    try:
                        await self.store.record_ratings(game.id, head, results, ratings)
                    except StaleVersion:
                        break  # another writer came first: read what waits again
                    rated += 1
        return rated

    async def rebuild_ratings(self) -> int:
        """Rate every rated game again, in the order they were rated, from nobody rated,
        and replace every stored result and rating with what comes out; then rate the
        games still waiting. Returns how many games the rebuild rated.

        Raises:
            ServiceError: other writers kept moving the ratings on.
        """
        async with self._rating_lock:
            for _try in range(REBUILD_TRIES):
                head, games = await self.store.rated_games()
                # thousands of games: off the event loop
                results, table = await asyncio.to_thread(rate_all, games)
                try:
                    await self.store.replace_ratings(head, results, table.values())
                except StaleVersion:
                    continue
                await self.store.set_meta(MODEL_KEY, model_fingerprint())
                break
            else:
                raise ServiceError(_("The ratings kept changing; the rebuild gave up."))
        await self.rate_finished()
        return len(games)

    # ------------------------------------------------------------------ showing
    async def leaderboard(
        self,
        variant: str,
        guild_id: int | None = None,
        user_id: int | None = None,
        limit: int = LEADERBOARD_SIZE,
    ) -> Leaderboard:
        """The best ``limit`` ratings in game kind ``variant``: everyone's, or (with
        ``guild_id``) those of the people who played a rated game of it in that server;
        with the line of ``user_id`` (the asker) when they are on the list.

        Raises:
            ServiceError: no game of that name.
        """
        if variant not in contract.game_names():
            raise ServiceError(_("There is no such game."))
        best, total = await self.store.leaderboard(variant, guild_id, limit)
        standings = tuple(_standing(i + 1, r) for i, r in enumerate(best))
        mine = None
        if user_id is not None:
            found = await self.store.leaderboard_place(variant, user_id, guild_id)
            if found is not None:
                mine = _standing(*found)
        return Leaderboard(variant, title_of(variant), guild_id, standings, total, mine)

    async def last_played(self, user_id: int) -> str | None:
        """The game kind of ``user_id``'s latest finished game (None: no game yet)."""
        results = await self.store.user_results(user_id)
        return results[-1].variant if results else None

    async def player_stats(self, user_id: int) -> PlayerStats:
        """``user_id``'s record in every game kind they finished a game of (the kinds in
        the registry's order, then any no longer registered): games, wins alone and
        shared, draws, losses, games left, favourite side, rating, place and the rating
        after each rated game; and the hints they took."""
        results = await self.store.user_results(user_id)
        ratings = {r.variant: r for r in await self.store.user_ratings(user_id)}
        by_kind: dict[str, list[PlayerResult]] = {}
        for r in results:
            by_kind.setdefault(r.variant, []).append(r)
        order = {name: i for i, name in enumerate(contract.game_names())}
        kinds = []
        for variant in sorted(by_kind, key=lambda v: (order.get(v, len(order)), v)):
            rating = ratings.get(variant)
            place, players = None, 0
            if rating is not None:
                found = await self.store.leaderboard_place(variant, user_id, None)
                place = found[0] if found is not None else None
                players = (await self.store.leaderboard(variant, None, 0))[1]
            kinds.append(kind_stats(variant, by_kind[variant], rating, place, players))
        name = results[-1].display_name if results else None
        return PlayerStats(user_id, name, tuple(kinds), await self.store.hints_taken(user_id))


def _standing(place: int, r: Rating) -> Standing:
    return Standing(place, r.user_id, r.display_name, r.ordinal, r.games, r.wins)

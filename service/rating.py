"""Ratings: how one finished game moves its players' ratings (OpenSkill's Plackett-Luce
model, the ``openskill`` package), as a pure function of the game and the ratings before
it. The service rates each finished game once, in order (:mod:`service.ratings`); a
rebuild runs the same function over the stored games in the same order, so it gives the
same ratings to the last bit.

Who is rated, and how:

- Every person who held a seat at the end, by the seat's result: the only winner ranks
  first, several winners share first place (a shared win), a draw puts everyone in first
  place, every other seat ranks second.
- Every person who left a seat before the end (resigned, or handed over by the host) and
  holds none at the end: a loss, ranked with the losers. The seat's later holder is
  rated by the seat's result.
- Computer players take part with a fixed rating per level (:data:`COMPUTER_RATINGS`)
  that never changes: beating one counts a little, losing to one costs a little.
- A game is rated only when at least two people played it (leavers count); a game with
  one person still gives that person a result (for /stats) without rating it.

Each seat is a team of one in a free-for-all; players sharing a place are tied in the
model's formulas (OpenSkill 6.2 leaves it at that: its step meant to average tied
players' changes changes nothing). The model's parameters are pinned here, not taken
from the package's defaults; the service rebuilds the ratings when they, the computers'
ratings or the package's release change (:func:`service.ratings.model_fingerprint`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from .models import FinishedGame, PlayerResult, Rating

MU = 25.0
"""A newcomer's skill estimate."""
SIGMA = MU / 3
"""A newcomer's uncertainty: the rating shown (``mu - 3 sigma``) starts at 0."""
MODEL = PlackettLuce(
    mu=MU,
    sigma=SIGMA,
    beta=MU / 6,
    kappa=0.0001,
    tau=MU / 300,
    margin=0.0,
    limit_sigma=False,
    balance=False,
)
"""The model every rating is computed with (OpenSkill 6's defaults, written out)."""

COMPUTER_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (18.0, MU / 6),
    "normal": (25.0, MU / 6),
    "hard": (30.0, MU / 6),
}
"""(mu, sigma) of a computer player of each level: fixed, never updated. Easy is below a
newcomer's estimate, normal at it, hard above; their uncertainty is half a newcomer's,
so a result against one moves a rating less than one against a newcomer."""

WINNING = frozenset({"win", "shared", "draw"})
"""Outcomes ranked first."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One place in a game's rating: a person (``user_id``) or a computer (``level``)."""

    user_id: int | None
    level: str | None
    seat: int
    power: str | None
    name: str
    outcome: str


def outcome_of(seat: int, result: Mapping[str, object] | None) -> str:
    """How the game ended for the holder of ``seat`` (``win``, ``shared``, ``draw`` or
    ``loss``), from the stored result."""
    result = result or {}
    raw = result.get("winners")
    winners = {int(s) for s in raw} if isinstance(raw, list | tuple) else set()
    if result.get("draw"):
        return "draw"
    if seat in winners:
        return "shared" if len(winners) > 1 else "win"
    return "loss"


def entrants(game: FinishedGame) -> list[Entrant]:
    """The game's places: each seat's holder at the end (person or computer), in seat
    order, then each person who left a seat and holds none at the end (a loss), once."""
    out: list[Entrant] = []
    powers: dict[int, str | None] = {}
    for s in sorted(game.seats, key=lambda s: (s.seat is None, s.seat or 0)):
        if s.seat is None:
            continue
        powers[s.seat] = s.power
        out.append(
            Entrant(
                s.user_id,
                None if s.user_id is not None else (s.computer_level or "normal"),
                s.seat,
                s.power,
                s.display_name,
                outcome_of(s.seat, game.result),
            )
        )
    seated = {e.user_id for e in out if e.user_id is not None}
    for d in game.departures:
        if d.user_id in seated:
            continue
        seated.add(d.user_id)
        out.append(Entrant(d.user_id, None, d.seat, powers.get(d.seat), d.display_name, "left"))
    return out


def rate_game(
    game: FinishedGame, before: Mapping[int, Rating], seq: int
) -> tuple[list[PlayerResult], list[Rating]]:
    """Rate ``game`` (the ``seq``-th in the rating order) given its people's ratings
    ``before`` it (by user id; a person missing there is a newcomer). Returns each
    person's result and, if the game is rated, each person's new rating."""
    places = entrants(game)
    people = [e for e in places if e.user_id is not None]
    after: dict[int, tuple[float, float]] = {}
    if len(people) >= 2:
        teams = []
        for e in places:
            if e.user_id is None:
                mu, sigma = COMPUTER_RATINGS.get(e.level or "", COMPUTER_RATINGS["normal"])
            else:
                old = before.get(e.user_id)
                mu, sigma = (old.mu, old.sigma) if old is not None else (MU, SIGMA)
            teams.append([MODEL.rating(mu=mu, sigma=sigma)])
        ranks = [1.0 if e.outcome in WINNING else 2.0 for e in places]
        rated = MODEL.rate(teams, ranks=ranks)
        for e, team in zip(places, rated, strict=True):
            if e.user_id is not None:
                after[e.user_id] = (team[0].mu, team[0].sigma)
    results = []
    ratings = []
    for e in people:
        assert e.user_id is not None
        mu_sigma = after.get(e.user_id)
        results.append(
            PlayerResult(
                game_id=game.id,
                user_id=e.user_id,
                variant=game.variant,
                guild_id=game.guild_id,
                seq=seq,
                seat=e.seat,
                power=e.power,
                display_name=e.name,
                outcome=e.outcome,
                ended_at=game.ended_at,
                mu=mu_sigma[0] if mu_sigma else None,
                sigma=mu_sigma[1] if mu_sigma else None,
            )
        )
        if mu_sigma is not None:
            old = before.get(e.user_id)
            mu, sigma = mu_sigma
            ratings.append(
                Rating(
                    variant=game.variant,
                    user_id=e.user_id,
                    display_name=e.name,
                    mu=mu,
                    sigma=sigma,
                    ordinal=mu - 3 * sigma,
                    games=(old.games if old else 0) + 1,
                    wins=(old.wins if old else 0) + (e.outcome in ("win", "shared")),
                    updated_at=game.ended_at,
                )
            )
    return results, ratings


def rate_all(
    games: list[FinishedGame],
) -> tuple[list[PlayerResult], dict[tuple[str, int], Rating]]:
    """Rate ``games`` one after the other, from nobody rated (each game's ``rating_seq``
    is its place): every result, and the ratings after the last, by (game kind, user)."""
    table: dict[tuple[str, int], Rating] = {}
    results: list[PlayerResult] = []
    for game in games:
        assert game.rating_seq is not None, "a game rated before has its place"
        before = {}
        for e in entrants(game):
            known = table.get((game.variant, e.user_id or 0))
            if e.user_id is not None and known is not None:
                before[e.user_id] = known
        mine, ratings = rate_game(game, before, game.rating_seq)
        results += mine
        for r in ratings:
            table[(r.variant, r.user_id)] = r
    return results, table

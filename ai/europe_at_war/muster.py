"""A computer player's army: where its chits go at setup and when recruited, what it
buys, and its upkeep.

- **Setup**: each General stands on the home territory nearest the most land to take,
  the fast units shared out among the Generals, the slow ones with the first; the
  Fortifications hold the capital; the ships and the Admiral wait in a zone by a
  General (or the capital).
- **Recruits**: Generals first; then the best Force per RP over the rest of the game
  (its cost and its upkeep), counting speed while land is left to take, as long as the
  treasury pays this turn's upkeep and the income the next one's.
- **Placement**: a city where a General stands, else the city nearest one.
- **Upkeep**: finish when every unit is supplied and paid, else the engine's suggestion.
"""

from __future__ import annotations

from typing import Any

from rules.europe_at_war.actions import Buy, Deposit, Disband, Done, Place
from rules.europe_at_war.view import UnitView

from .knowledge import Knowledge, bfs

GRAB_RANGE = 3
"""Land steps around a home territory counted for where a General starts."""
FAST = 3
"""A unit this fast keeps up with a General (EA-9: Fast and Very fast)."""


# ---------------------------------------------------------------------------- setup
def frontiers(k: Knowledge) -> list[str]:
    """My home territories, the best start for a land grab first: the most revenue to
    take within 3 land steps."""
    home = k.home()
    scores = []
    for t in home:
        near = bfs(k.map, [t], GRAB_RANGE, land=True)
        value = sum(k.claim_value(n) / (1 + d) for n, d in near.items() if n not in home)
        scores.append((-value, t))
    return [t for _, t in sorted(scores)]


def general_posts(k: Knowledge) -> list[str]:
    """Where my Generals stand or will stand at setup: theirs if placed, then the best
    frontiers not taken."""
    posts = [s for s, units in k.mine.items() if any(u.type == "G" for u in units)]
    for f in frontiers(k):
        if f not in posts:
            posts.append(f)
    return posts


def on_setup(k: Knowledge, legal: list[Any], chits: tuple[UnitView, ...]) -> Any:
    """Place the next chit: Generals first (each on his own frontier), then the rest."""
    places = [a for a in legal if isinstance(a, Place)]
    by_chit: dict[str, list[Place]] = {}
    for a in places:
        by_chit.setdefault(a.chit, []).append(a)
    order = sorted(chits, key=lambda u: (u.type != "G", u.speed < FAST, u.unit))
    unit = next(u for u in order if f"u{u.unit}" in by_chit)
    spaces = [a.at for a in by_chit[f"u{unit.unit}"]]
    return Place(f"u{unit.unit}", _setup_space(k, unit, spaces))


def _setup_space(k: Knowledge, unit: UnitView, spaces: list[str]) -> str:
    generals = [s for s, units in k.mine.items() if any(u.type == "G" for u in units)]
    if unit.type == "G":
        free = [f for f in frontiers(k) if f in spaces and f not in generals]
        return free[0] if free else _first(spaces, frontiers(k))
    if unit.type == "F":
        return _first(spaces, [k.capital()])
    if unit.type in ("S", "D"):
        coast = [z for s in generals + [k.capital()] for z in k.map.territories[s].seas]
        return _first(spaces, coast)
    if unit.speed >= FAST and generals:
        fewest = min(generals, key=lambda s: (_fast_count(k, s), generals.index(s)))
        return _first(spaces, [fewest])
    return _first(spaces, generals + frontiers(k))


def _fast_count(k: Knowledge, space: str) -> int:
    return sum(1 for u in k.mine.get(space, ()) if u.speed >= FAST and u.type != "G")


def _first(spaces: list[str], wanted: list[str]) -> str:
    return next((s for s in wanted if s in spaces), spaces[0])


def on_place(k: Knowledge, legal: list[Any]) -> Any:
    """Free units (EA-29) go where recruits go."""
    places = [a for a in legal if isinstance(a, Place)]
    return min(places, key=lambda a: (_city_rank(k, a.at), a.chit))


# ---------------------------------------------------------------------------- recruits
def unit_value(u: UnitView, rounds_left: int, grabbing: bool) -> float:
    """Force per RP over the rest of the game: the Force it brings to a field battle
    (cavalry +1, artillery -1, EA-19) over its cost and its upkeep, plus speed while
    there is land to take."""
    battle = u.force + (1 if u.type in ("C", "CH", "CL", "C/H") else 0) - (u.type == "A")
    if u.type in ("S", "D", "F"):
        battle = u.force // 2
    if grabbing and u.speed >= FAST and u.type not in ("S", "D"):
        battle += 3
    return battle / (u.force + max(1, rounds_left))


def on_recruit(k: Knowledge, legal: list[Any]) -> Any:
    """Generals first, then the best value per RP that the upkeep allows."""
    buys = [a for a in legal if isinstance(a, Buy)]
    if not buys:
        return Done()
    view = k.view
    drawn = {f"u{u.unit}": u for u in view.drawn or ()}
    units = sum(len(us) for us in k.mine.values())
    money = view.treasury[k.me]
    income = sum(view.income.values())
    rounds_left = view.rounds - view.round + 1
    grabbing = k.neutral_left() > 0
    best = max(
        buys,
        key=lambda a: (
            drawn[a.chit].type == "G",
            unit_value(drawn[a.chit], rounds_left, grabbing),
            -_city_rank(k, a.at),
            a.chit,
        ),
    )
    u = drawn[best.chit]
    left = money - u.force
    if left < units + 1 or units + 1 > income + (left - units - 1):
        return Done()
    if u.type != "G" and unit_value(u, rounds_left, grabbing) < 0.25:
        return Done()
    return best


def _city_rank(k: Knowledge, city: str) -> int:
    """How far a city (or a sea zone) is from my nearest General: recruits join him."""
    generals = k.generals()
    if city in k.map.seas:
        return 0 if any(city in k.map.territories[g].seas for g in generals) else 1
    if not generals:
        return 0 if city == k.capital() else 1
    return k.to_generals().get(city, 20)


# ---------------------------------------------------------------------------- upkeep
def on_upkeep(k: Knowledge, legal: list[Any]) -> Any:
    """Finish when the upkeep is covered; else disband the engine's suggestion."""
    if Done() in legal:
        return Done()
    if k.view.suggestion:
        return Disband(f"u{k.view.suggestion[0]}")
    return None


def on_deposit(k: Knowledge, legal: list[Any]) -> Any:
    """Everything at the capital if possible, else in the first city offered."""
    deposits = [a for a in legal if isinstance(a, Deposit)]
    capital = [a for a in deposits if a.at == k.capital()]
    return max(capital or deposits, key=lambda a: a.amount)

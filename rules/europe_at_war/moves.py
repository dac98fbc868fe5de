"""Moves (EA-9 to EA-14): which groups may move where, checked, listed and carried out.

A move is one group travelling a path. The group is named by its leader (a General on
land, an Admiral at sea) or, for ships without an Admiral, by their sea zone
(``fleet:<zone>``). Three shapes:

- a **land** move: territories joined by land adjacency (straits included);
- a **sea** move (EA-12): a General's group boards its player's ships in a sea zone
  touching its coastal territory, the ships sail, and the group lands on a coast of the
  last zone;
- a **ship** move (EA-14): ships and Admirals through sea lanes.

Interpretations (RULES.md is silent on how a group is formed when the order is given):

- A group's speed is its slowest unit's (C4), and a unit too slow for the path chosen
  does not join: the group is the leader and every unit of its stack fast enough for the
  path, less the units at their two moves (EA-10(e)) and the Fortifications. A unit
  dropped off at the start (EA-10(g)) stays: that is how a player leaves units behind.
- A sea move carries as many of the stack's land units as its ships hold (4 each,
  Generals included, EA-12), strongest first; the others stay. The ships that sail are
  the fewest needed, fastest first (then weakest, then by number). Its path at sea is the
  shortest one that avoids other players' ships (the route at sea changes nothing else),
  so a sea move is chosen by its last zone and landing territory.
- Admirals do not sail with a sea move's ships; they move with a ship move.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from .actions import FLEET
from .catalogue import _
from .data import ENGLAND, Card
from .state import EaState

CAP = 2
"""EA-10(e): a unit takes part in at most two moves per turn."""
SHIP_LOAD = 4
"""EA-12: land units a ship carries."""


@dataclass(slots=True)
class Route:
    """A checked move, ready to carry out."""

    seat: int
    shape: str
    """``land``, ``sea`` or ``ships``."""
    leader: int | None
    path: tuple[str, ...]
    movers: list[int] = field(default_factory=list)
    """The units that leave the start (ships that sail included)."""
    stay: list[int] = field(default_factory=list)
    """Units of the stack that would have joined but are dropped off at the start."""
    drops: dict[int, str] = field(default_factory=dict)
    """Units dropped off on the way: unit -> territory."""
    ships: list[int] = field(default_factory=list)
    """A sea move's ships."""
    sail: bool = False
    """A sea move's ships leave their zone (C5)."""

    @property
    def dest(self) -> str:
        """Where the move ends."""
        return self.path[-1]


def group_start(g: EaState, seat: int, group: str) -> tuple[str, int | None] | None:
    """The space a group starts from and its leader (``None`` for ships without an
    Admiral), or ``None`` if ``seat`` has no such group."""
    if group.startswith(FLEET):
        zone = group[len(FLEET) :]
        ships = [u for u in g.stack(zone, seat) if g.kind(u).type == "S"]
        return (zone, None) if zone in g.map.seas and ships else None
    if not (group[:1] == "u" and group[1:].isdigit()):
        return None
    u = g.units.get(int(group[1:]))
    if u is None or u.owner != seat or not g.kind(u.id).leader:
        return None
    return u.space, u.id


def groups_of(g: EaState, seat: int) -> list[str]:
    """Every group ``seat`` could name: each leader, and each sea zone with its ships."""
    out = []
    for space in g.occupied():
        mine = g.stack(space, seat)
        out += [f"u{u}" for u in mine if g.kind(u).leader]
        if space in g.map.seas and any(g.kind(u).type == "S" for u in mine):
            out.append(f"{FLEET}{space}")
    return out


def _blocked(g: EaState, space: str, seat: int, forts_pass: bool) -> bool:
    """True when a group of ``seat`` may not pass through ``space`` (EA-10(f))."""
    here = g.where.get(space)
    if not here:
        return False
    for s, units in here.items():
        if s == seat:
            continue
        if not forts_pass or any(not g.kind(u).fort for u in units):
            return True
    return False


def _banned(g: EaState, space: str, bans: list[int]) -> bool:
    return any(g.stack(space, s) for s in bans)


def _can_move(g: EaState, uid: int, counted: bool) -> bool:
    return not counted or g.units[uid].moves < CAP


def paths(
    g: EaState, seat: int, group: str, *, forts_pass: bool, counted: bool, bans: list[int]
) -> list[tuple[str, ...]]:
    """Every path ``group`` may travel, before its payment is considered: land paths and
    ship paths in full, sea moves by their shortest route at sea.

    ``counted``: the move counts toward EA-10(e)'s cap (not for Interdiction);
    ``bans``: seats whose units the mover may not reach (EA-33's Diplomacy)."""
    found = group_start(g, seat, group)
    if found is None:
        return []
    start, leader = found
    if leader is not None and not _can_move(g, leader, counted):
        return []
    out: list[tuple[str, ...]] = []
    if start in g.map.seas:
        speed = _fleet_speed(g, seat, start, leader, counted)
        if speed:
            _walk(g, seat, (start,), speed, forts_pass, bans, out, sea=True)
        return out
    assert leader is not None
    _walk(g, seat, (start,), g.kind(leader).speed, forts_pass, bans, out, sea=False)
    out += _sea_moves(g, seat, start, counted, bans)
    return out


def _fleet_speed(g: EaState, seat: int, zone: str, leader: int | None, counted: bool) -> int:
    """How far a ship group may go: its leader's speed, or its fastest ship's."""
    if leader is not None:
        return g.kind(leader).speed
    ships = [u for u in g.stack(zone, seat) if g.kind(u).type == "S" and _can_move(g, u, counted)]
    return max((g.kind(u).speed for u in ships), default=0)


def _walk(
    g: EaState,
    seat: int,
    path: tuple[str, ...],
    left: int,
    forts_pass: bool,
    bans: list[int],
    out: list[tuple[str, ...]],
    *,
    sea: bool,
) -> None:
    here = path[-1]
    nexts = g.map.seas[here].adjacent if sea else g.map.territories[here].adjacent
    for n in nexts:
        if n in path or _banned(g, n, bans):
            continue
        step = (*path, n)
        out.append(step)
        if left > 1 and not _blocked(g, n, seat, forts_pass):
            _walk(g, seat, step, left - 1, forts_pass, bans, out, sea=sea)


def _sea_moves(
    g: EaState, seat: int, start: str, counted: bool, bans: list[int]
) -> list[tuple[str, ...]]:
    """EA-12, EA-13: sea moves from coastal ``start``, by the shortest free route."""
    out: list[tuple[str, ...]] = []
    english = g.map.territories[start].country == ENGLAND
    for first in g.map.territories[start].seas:
        ships = [u for u in g.stack(first, seat) if g.kind(u).type == "S"]
        if not ships or _naval_foe(g, first, seat):
            continue
        movable = [u for u in ships if _can_move(g, u, counted)]
        reach = max((g.kind(u).speed for u in movable), default=0)
        routes = _sea_routes(g, seat, first)
        for zone in sorted(routes):
            lanes = routes[zone]
            for coast in g.map.seas[zone].coasts:
                if coast == start or _banned(g, coast, bans):
                    continue
                far = english or g.map.territories[coast].country == ENGLAND
                if lanes and not far and lanes > reach:
                    continue
                out.append((start, *_route(g, seat, first, zone), coast))
    return out


def _naval_foe(g: EaState, zone: str, seat: int) -> bool:
    return any(s != seat for s in g.where.get(zone, {}))


def _sea_routes(g: EaState, seat: int, first: str) -> dict[str, int]:
    """Zones reachable from ``first`` through zones free of other players' ships, with
    their distance in lanes."""
    dist = {first: 0}
    queue = deque([first])
    while queue:
        z = queue.popleft()
        for n in sorted(g.map.seas[z].adjacent):
            if n not in dist and not _naval_foe(g, n, seat):
                dist[n] = dist[z] + 1
                queue.append(n)
    return dist


def _route(g: EaState, seat: int, first: str, last: str) -> tuple[str, ...]:
    """The shortest free route at sea from ``first`` to ``last`` (neighbours tried in
    alphabetical order, so the route is always the same)."""
    parent: dict[str, str | None] = {first: None}
    queue = deque([first])
    while queue:
        z = queue.popleft()
        if z == last:
            break
        for n in sorted(g.map.seas[z].adjacent):
            if n not in parent and not _naval_foe(g, n, seat):
                parent[n] = z
                queue.append(n)
    route = [last]
    while parent[route[-1]] is not None:
        route.append(parent[route[-1]])  # type: ignore[arg-type]
    return tuple(reversed(route))


def check(
    g: EaState,
    seat: int,
    group: str,
    path: tuple[str, ...],
    *,
    card: Card | None = None,
    counted: bool = True,
    bans: list[int] | None = None,
    drops: list[list[object]] | None = None,
    must_reach: int | None = None,
    listed: bool = False,
) -> Route | str:
    """Check a move and work out who goes: the :class:`Route`, or why it is refused.

    ``card`` is the move card paying for it (its domain, Bypass Strongpoints, Force
    Battle); ``must_reach``: the move must end where that seat has units (Interdiction);
    ``listed``: ``path`` comes from :func:`paths` with the same arguments (not checked
    again).
    """
    found = group_start(g, seat, group)
    if found is None:
        return _("You have no such group to move.")
    start, leader = found
    if len(path) < 2 or path[0] != start or len(set(path)) != len(path):
        return _("That is not a path from the group's space.")
    bans = bans or []
    effect = card.effect if card else None
    forts_pass = bool(effect and effect.may_pass_forts)
    if not listed and path not in _candidates(g, seat, group, path, forts_pass, counted, bans):
        return _("That path is not open to this group (EA-9 to EA-13).")
    if leader is not None and not _can_move(g, leader, counted):
        return _("That leader has already taken part in two moves this turn (EA-10).")
    route = _members(g, seat, leader, path, counted, drops or [])
    if isinstance(route, str):
        return route
    dest = path[-1]
    if effect is not None:
        if effect.domain == "sea" and route.shape != "ships":
            if card is None:
                return _("That card moves only ships (EA-33).")
            return _("{card} moves only ships (EA-33).").format(card=_(card.name))
        if effect.must_end_in_battle and not g.foreign(dest, seat):
            return _("That card's move must end where another player has units (EA-33).")
    if must_reach is not None and not g.stack(dest, must_reach):
        return _("Interdiction must end where the active player has units (EA-33).")
    return route


def _candidates(
    g: EaState,
    seat: int,
    group: str,
    path: tuple[str, ...],
    forts_pass: bool,
    counted: bool,
    bans: list[int],
) -> list[tuple[str, ...]]:
    """The listed paths that could equal ``path`` (cheap: only its shape's)."""
    return [
        p
        for p in paths(g, seat, group, forts_pass=forts_pass, counted=counted, bans=bans)
        if p[-1] == path[-1] and len(p) == len(path)
    ]


def _members(
    g: EaState,
    seat: int,
    leader: int | None,
    path: tuple[str, ...],
    counted: bool,
    drops: list[list[object]],
) -> Route | str:
    start = path[0]
    mine = g.stack(start, seat)
    steps = len(path) - 1
    if start in g.map.seas:
        route = Route(seat, "ships", leader, path)
        pool = [
            u
            for u in mine
            if (leader is None and g.kind(u).type == "S")
            or (leader is not None and g.kind(u).naval)
        ]
    elif path[-1] in g.map.territories:
        route = Route(seat, "land", leader, path)
        pool = [u for u in mine if not g.kind(u).fort]
    else:
        return _("Land units never end a move at sea (EA-11).")
    if route.shape == "land" and path[1] in g.map.seas:
        route.shape = "sea"
    fast = [
        u
        for u in pool
        if _can_move(g, u, counted) and (route.shape == "sea" or g.kind(u).speed >= steps)
    ]
    if leader is not None and leader not in fast:
        return _("The leader is too slow for that path.")
    entered = set(path[1:-1]) if route.shape != "sea" else set()
    for uid, at in drops:
        assert isinstance(uid, int) and isinstance(at, str)
        if uid == leader or uid not in fast:
            return _("Only units moving with the group, not its leader, may be dropped off.")
        if at != start and at not in entered:
            return _("Units may be dropped off only at the start or in a space the group enters.")
        if at == start:
            route.stay.append(uid)
        else:
            route.drops[uid] = at
    going = [u for u in fast if u not in route.stay]
    if route.shape == "sea":
        return _embark(g, seat, route, going, counted)
    route.movers = going
    if not going:
        return _("No units would move.")
    return route


def _embark(g: EaState, seat: int, route: Route, going: list[int], counted: bool) -> Route | str:
    """EA-12: the ships that carry the group, and who fits aboard."""
    first = route.path[1]
    lanes = len(route.path) - 3
    route.sail = lanes > 0
    far = ENGLAND in (
        g.map.territories[route.path[0]].country,
        g.map.territories[route.path[-1]].country,
    )
    ships = [
        u
        for u in g.stack(first, seat)
        if g.kind(u).type == "S"
        and (not route.sail or _can_move(g, u, counted))
        and (not route.sail or far or g.kind(u).speed >= lanes)
    ]
    if not ships:
        return _("No ships of yours can make that voyage (EA-12).")
    ships.sort(key=lambda u: (-g.kind(u).speed, g.kind(u).force, u))
    leader = route.leader
    others = sorted((u for u in going if u != leader), key=lambda u: (-g.kind(u).force, u))
    room = SHIP_LOAD * len(ships) - 1
    aboard = ([leader] if leader is not None else []) + others[:room]
    route.stay += others[room:]
    route.ships = ships[: -(-len(aboard) // SHIP_LOAD)]
    route.movers = aboard + (route.ships if route.sail else [])
    return route


def carry_out(g: EaState, route: Route, *, counted: bool, free: bool) -> None:
    """Move the units of a checked ``route`` (EA-10(g): drop-offs, then the rest)."""
    path = route.path
    for uid in route.movers:
        u = g.units[uid]
        if route.shape == "sea" and uid in route.ships:
            dest, came = path[-2], path[-3]
        elif uid in route.drops:
            dest = route.drops[uid]
            came = path[path.index(dest) - 1]
        else:
            dest, came = path[-1], path[-2]
        if dest != u.space:
            g.relocate(uid, dest)
            u.came_from = came
            u.landed = route.shape == "sea" and uid not in route.ships
        if counted:
            u.moves += 1
    if free and route.leader is not None:
        g.units[route.leader].free_used = True

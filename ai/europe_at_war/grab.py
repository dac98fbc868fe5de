"""The Move Phase plan of a computer player: a land grab led by the Generals.

Each General, in turn, takes the one or two moves (his free move, then a move card) that
claim the most revenue: he drops one unit in each territory worth taking that his group
enters (EA-10(g)), ends where the rest of his group claims one more, and leaves one unit
behind where his first move ended before his second one starts. A General with no unit
to spare heads for his player's idle units instead, to lead them out. A move ends in
another player's stack only when the group clearly outweighs it. Sea moves (EA-12,
EA-13) are weighed the same way, by their landing.

The plan is worked out from the view alone, as a list of orders and drop-offs, and its
next step is the first one the plan shown so far does not hold yet; the same view always
gives the same plan.
"""

from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from rules.europe_at_war.actions import Drop, Move
from rules.europe_at_war.data import ENGLAND, Card, deck

from .knowledge import Knowledge

SHIP_LOAD = 4
"""EA-12: land units a ship carries."""
CAP = 2
"""EA-10(e): moves a unit takes part in per turn."""
ATTACK_MARGIN = (2.0, 1.5)
"""A group attacks only a stack it outweighs by this much: while land is left to take,
and after."""
FIRST_CANDIDATES = 4
"""First moves of a General looked at again with a second move after them."""
CARD_COST = 1.0
"""What spending a move card is worth (it could move another General later)."""
CLAIM = 2.0
"""The worth of a claim a General could make in a turn to come (revenue 2)."""
HORIZON = 3
"""The turns to come a General's place is valued for."""
CARRIED = 0.8
"""A unit carried claims later: worth this share of a claim made now."""
FETCH = 3
"""An idle stack this big is worth a General's going back for it."""
DISCOUNT = 0.89
"""Each step between a General and land to take discounts what he could claim there
(0.7 a move of three steps)."""


@dataclass(slots=True)
class Piece:
    """One of my units as the plan moves it."""

    uid: int
    type: str
    speed: int
    force: int
    space: str
    moves: int
    free_used: bool

    @property
    def general(self) -> bool:
        """A General."""
        return self.type == "G"


@dataclass(slots=True)
class Option:
    """One order a General (or a fleet) might be given, with what it claims."""

    group: str
    path: tuple[str, ...]
    shape: str
    movers: list[int]
    stay: list[int] = field(default_factory=list)
    drops: dict[int, str] = field(default_factory=dict)
    ships: list[int] = field(default_factory=list)
    sail: bool = False
    claims: list[str] = field(default_factory=list)
    value: float = 0.0

    @property
    def dest(self) -> str:
        """Where the group ends."""
        return self.path[-1]


class Planner:
    """Works out one turn's orders from the seat's view."""

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        self.m = k.map
        self.pieces: dict[int, Piece] = {}
        self.at: dict[str, list[int]] = {}
        for space, units in k.mine.items():
            for u in units:
                p = Piece(u.unit, u.type, u.speed, u.force + u.rep, space, u.moves, u.free_used)
                self.pieces[u.unit] = p
                self.at.setdefault(space, []).append(u.unit)
        self.reach = k.supplied()
        self.taken: set[str] = set()
        """Territories this plan claims."""
        self.fetched: set[str] = set()
        """Idle stacks a General of this plan is on his way to lead out."""
        self.actions: list[Any] = []
        cards = deck()
        self.cards: list[Card] = [
            cards[c]
            for c in sorted(k.view.hand or ())
            if cards[c].effect.kind == "move"
            and cards[c].effect.domain != "sea"
            and not cards[c].effect.must_end_in_battle
        ]
        self.fleet_cards: list[Card] = [
            cards[c]
            for c in sorted(k.view.hand or ())
            if cards[c].effect.kind == "move" and cards[c].effect.domain == "sea"
        ]
        self.uses: dict[str, list[str]] = {}
        self.to_claim: dict[str, int] = {}
        """Moves from each territory to the nearest one worth taking (a coast by ships
        of mine counts one move from every coast in their reach)."""
        self.idle_field: dict[str, float] = {}
        """What leading out a stack of mine with no General is worth from each
        territory (the best stack, discounted by the steps to it)."""
        self._distances()

    def _distances(self) -> None:
        claimable = {t: 0 for t in self.m.territories if self.k.claim_value(t)}
        coasts = {c for t in claimable for c in ([t] if self.m.territories[t].seas else [])}
        for zone, units in self.at.items():
            if zone not in self.m.seas or zone in self.k.foes:
                continue
            if not any(self.pieces[u].type == "S" for u in units):
                continue
            reach = self._sea_routes(zone)
            if any(c in coasts for z in reach for c in self.m.seas[z].coasts):
                for port in self.m.seas[zone].coasts:
                    claimable.setdefault(port, 1)
        self.to_claim = spread(self.m, claimable)
        idle: dict[str, float] = {}
        for space, units in self.at.items():
            count = sum(1 for u in units if self.pieces[u].type not in ("F", "G", "S", "D"))
            general = any(self.pieces[u].general for u in units)
            if space in self.m.territories and count >= 2 and not general:
                near = DISCOUNT ** self.to_claim.get(space, 12)
                idle[space] = CLAIM * CARRIED * min(count, 2 * HORIZON) * near
        self.idle_field = fade(self.m, idle)

    # ------------------------------------------------------------------ the plan
    def plan(self) -> list[Any]:
        """The turn's orders and drop-offs, in the order to give them."""
        generals = sorted(
            (p for p in self.pieces.values() if p.general and p.moves < CAP),
            key=lambda p: (-self._spare(p.space, p.uid), p.uid),
        )
        self._plan_fleets(generals)
        for g in generals:
            self._plan_general(g)
        return self.actions

    # ------------------------------------------------------------------ fleets
    def _plan_fleets(self, generals: list[Piece]) -> None:
        """Ships go where a General with units waits on a coast and has none: an
        Admiral's free move, or a sea card, takes them there first (EA-12)."""
        waiting = {
            g.space
            for g in generals
            if self.m.territories[g.space].seas
            and self._spare(g.space, g.uid) >= 1
            and not any(self._ships_at(z) for z in self.m.territories[g.space].seas)
        }
        if not waiting:
            return
        wanted = {z for t in waiting for z in self.m.territories[t].seas if z not in self.k.foes}
        for zone in sorted(z for z in self.m.seas if self._ships_at(z)):
            if any(
                p in self.at and any(self.pieces[u].general for u in self.at[p])
                for p in self.m.seas[zone].coasts
            ):
                continue  # a General of mine can board here already
            admirals = [u for u in self.at[zone] if self.pieces[u].type == "D"]
            free = [
                u for u in admirals if not self.pieces[u].free_used and self.pieces[u].moves < CAP
            ]
            group = f"u{free[0]}" if free else f"fleet:{zone}"
            pay = (
                "free"
                if free
                else next(
                    (
                        c.id
                        for c in self.fleet_cards
                        if len(self.uses.get(c.id, [])) < c.effect.groups
                    ),
                    "",
                )
            )
            if not pay:
                continue
            speed = (
                self.pieces[free[0]].speed
                if free
                else max(self.pieces[u].speed for u in self.at[zone] if self.pieces[u].type == "S")
            )
            route = self._route_to(zone, wanted, speed)
            if route is None:
                continue
            movers = [
                u
                for u in self.at[zone]
                if self.pieces[u].moves < CAP
                and self.pieces[u].speed >= len(route) - 1
                and (self.pieces[u].type == "S" or (free and self.pieces[u].type == "D"))
            ]
            o = Option(group, route, "ships", movers)
            self._apply(o)
            self.actions.append(Move(group, route[-1], ">".join(route[1:]), pay))
            if pay != "free":
                self.uses.setdefault(pay, []).append(group)
            else:
                self.pieces[free[0]].free_used = True
            wanted.discard(route[-1])
            if not wanted:
                return

    def _can_move(self, uid: int) -> bool:
        return self.pieces[uid].moves < CAP

    def _ships_at(self, zone: str) -> bool:
        return any(self.pieces[u].type == "S" for u in self.at.get(zone, ()))

    def _route_to(self, zone: str, wanted: set[str], speed: int) -> tuple[str, ...] | None:
        """The shortest path at sea from ``zone`` to one of ``wanted`` within ``speed``,
        not through other players' ships."""
        parent: dict[str, str | None] = {zone: None}
        queue = deque([zone])
        while queue:
            z = queue.popleft()
            if z in wanted:
                route = [z]
                while parent[route[-1]] is not None:
                    route.append(parent[route[-1]])  # type: ignore[arg-type]
                path = tuple(reversed(route))
                return path if 1 < len(path) <= speed + 1 else None
            if z in self.k.foes:
                continue
            for n in sorted(self.m.seas[z].adjacent):
                if n not in parent:
                    parent[n] = z
                    queue.append(n)
        return None

    def _spare(self, space: str, leader: int) -> int:
        return sum(
            1
            for u in self.at.get(space, ())
            if u != leader and self.pieces[u].type not in ("F", "G")
        )

    def _plan_general(self, g: Piece) -> None:
        """The free move (and a card move after it) worth most for General ``g``; a
        General with nothing to spare fetches idle units instead, if there are any."""
        if self._spare(g.space, g.uid) == 0 and self._fetch(g):
            return
        best: list[Option] = []
        best_value = self._end_value(g.space, self._spare(g.space, g.uid))
        card = self._card_for(f"u{g.uid}")
        firsts = self._options(g)
        firsts.sort(key=lambda o: -(o.value + self._after(g.uid, o)))
        for o1 in firsts[:FIRST_CANDIDATES] if card else firsts[:1]:
            v1 = o1.value
            if v1 + self._after(g.uid, o1) > best_value:
                best, best_value = [o1], v1 + self._after(g.uid, o1)
            if card is None:
                continue
            undo = self._apply(o1)
            before = set(self.taken)
            self.taken.update(o1.claims)
            for o2 in self._options(g, start_claimed=o1.dest in o1.claims):
                total = v1 + o2.value - CARD_COST + self._after(g.uid, o2)
                if total > best_value:
                    best, best_value = [o1, o2], total
            self.taken = before
            self._undo(undo)
        for o, pay in zip(best, ["free", card.id if card else ""], strict=False):
            self._commit(o, pay)

    def _fetch(self, g: Piece) -> bool:
        """A General with no unit to spare goes to lead out the biggest idle stack of
        mine within two moves (one no other General is fetching); True if he goes."""
        stacks = [
            (space, n)
            for space, units in self.at.items()
            if space in self.m.territories
            and space not in self.fetched
            and (n := sum(1 for u in units if self.pieces[u].type not in ("F", "G"))) >= FETCH
            and not any(self.pieces[u].general for u in units)
        ]
        if not stacks:
            return False
        dist = {s: self.k.land_distances([s]) for s, _ in stacks}
        near = [(s, n, dist[s].get(g.space, 99)) for s, n in stacks]
        near = [t for t in near if t[2] <= 2 * g.speed]
        if not near:
            return False
        target, _, d = max(near, key=lambda t: (min(t[1], 2 * HORIZON) - t[2] / g.speed, t[0]))
        to = dist[target]
        self.fetched.add(target)
        pays = ["free"]
        card = self._card_for(f"u{g.uid}")
        if card is not None and d > g.speed:
            pays.append(card.id)
        for pay in pays:
            options = [o for o in self._options(g) if o.shape == "land"]
            if not options:
                break
            o = min(options, key=lambda o: (to.get(o.dest, 99), -o.value, o.path))
            if to.get(o.dest, 99) >= to.get(g.space, 99):
                break
            self._commit(o, pay)
            if o.dest == target:
                break
        return True

    def _commit(self, o: Option, pay: str) -> None:
        """Add ``o`` to the plan, paid by ``pay``."""
        self._apply(o)
        self.taken.update(o.claims)
        self.actions.append(Move(o.group, o.dest, ">".join(o.path[1:]), pay))
        self.actions += [Drop(f"u{u}", o.path[0]) for u in o.stay]
        self.actions += [Drop(f"u{u}", at) for u, at in o.drops.items()]
        if pay != "free":
            self.uses.setdefault(pay, []).append(o.group)

    def _card_for(self, group: str) -> Card | None:
        """A move card that may still move ``group`` (EA-10(d))."""
        for c in self.cards:
            used = self.uses.get(c.id, [])
            if len(used) < c.effect.groups and group not in used:
                return c
        return None

    # ------------------------------------------------------------------ options
    def _options(self, g: Piece, *, start_claimed: bool = False) -> list[Option]:
        """Every land move and sea move of ``g``'s group worth giving, valued."""
        if g.moves >= CAP:
            return []
        out = []
        start = g.space
        for path in self._land_paths(start, g.speed):
            o = self._land_option(g, path, start_claimed)
            if o is not None:
                out.append(o)
        if self.m.territories[start].seas:
            for path in self._sea_paths(start):
                o = self._sea_option(g, path, start_claimed)
                if o is not None:
                    out.append(o)
        return out

    def _land_paths(self, start: str, speed: int) -> list[tuple[str, ...]]:
        out: list[tuple[str, ...]] = []
        foes = self.k.foes
        stack: list[tuple[str, ...]] = [(start,)]
        while stack:
            path = stack.pop()
            for n in self.m.territories[path[-1]].adjacent:
                if n in path:
                    continue
                step = (*path, n)
                out.append(step)
                if len(step) <= speed and n not in foes:
                    stack.append(step)
        return out

    def _group(self, g: Piece, steps: int, sea: bool) -> tuple[list[int], list[int]]:
        """(members, others kept back): ``g`` and the units of his stack fast enough for
        ``steps`` (any, at sea) with a move left; other Generals stay for their own."""
        members: list[int] = [g.uid]
        stay: list[int] = []
        for u in self.at.get(g.space, ()):
            p = self.pieces[u]
            if u == g.uid or p.type == "F" or p.moves >= CAP or (not sea and p.speed < steps):
                continue
            (stay if p.general else members).append(u)
        return members, stay

    def _keeper(self, members: list[int], start: str, stay: list[int]) -> list[int]:
        """The units to leave where this move starts, if the plan claims that space and
        nothing else of mine would stay there."""
        left = [u for u in self.at.get(start, ()) if u not in members] + stay
        if left:
            return []
        spare = members[1:]
        return [min(spare, key=self._cheap)] if spare else []

    def _cheap(self, uid: int) -> tuple[int, int, int]:
        p = self.pieces[uid]
        return (p.force, p.speed, uid)

    def _guard(self, space: str) -> int:
        """Units a General keeps with him: none far from other players' stacks, more
        the nearer they are."""
        near = self.m.territories[space].adjacent
        if any(n in self.k.foes for n in near):
            return 2
        return (
            1 if any(n in self.k.foes for a in near for n in self.m.territories[a].adjacent) else 0
        )

    def _land_option(self, g: Piece, path: tuple[str, ...], start_claimed: bool) -> Option | None:
        dest = path[-1]
        if dest not in self.reach:
            return None
        members, stay = self._group(g, len(path) - 1, False)
        o = Option(f"u{g.uid}", path, "land", members, stay)
        value = 0.0
        if start_claimed:
            keeper = self._keeper(members, path[0], stay)
            if keeper:
                o.stay += keeper
                members = [u for u in members if u not in keeper]
            elif not [u for u in self.at.get(path[0], ()) if u not in members]:
                value -= self.k.claim_value(path[0])
        carried = sorted(members[1:], key=self._cheap)
        guard = self._guard(dest)
        for space in path[1:-1]:
            if len(carried) <= guard:
                break
            worth = self._worth(space)
            if worth:
                o.drops[carried.pop(0)] = space
                o.claims.append(space)
                value += worth
        o.movers = [u for u in members]
        foes = self.k.foes.get(dest)
        if foes:
            mine = sum(self.pieces[u].force for u in members if u not in o.drops) + 5
            mine += sum(self.pieces[u].force for u in self.at.get(dest, ()))
            gain = self._attack(dest, mine)
            if not gain:
                return None
            value += gain
        else:
            worth = self._worth(dest)
            if worth:
                o.claims.append(dest)
                value += worth
        o.value = value
        return o

    def _attack(self, dest: str, force: float) -> float:
        """What attacking the stacks at ``dest`` with ``force`` is worth: 0 unless it
        outweighs them clearly; else the territory (as a claim of it would be) and one
        for each unit beaten, twice as much once the land grab is over."""
        grabbing = self.k.grabbing
        if force < ATTACK_MARGIN[0 if grabbing else 1] * self.k.foe_force(dest):
            return 0.0
        count = sum(f.count for f in self.k.foes[dest])
        worth = self.k.claim_value(dest, empty=True) + count
        return worth if grabbing else 2 * worth

    def _worth(self, space: str) -> float:
        if space in self.taken or space not in self.reach:
            return 0.0
        return self.k.claim_value(space)

    # ------------------------------------------------------------------ sea moves
    def _sea_paths(self, start: str) -> list[tuple[str, ...]]:
        """EA-12, EA-13: the sea moves from ``start`` as the engine lists them: by the
        shortest route at sea free of other players' units, to each coast in range."""
        out = []
        english = self.m.territories[start].country == ENGLAND
        for first in self.m.territories[start].seas:
            ships = [u for u in self.at.get(first, ()) if self.pieces[u].type == "S"]
            if not ships or first in self.k.foes:
                continue
            reach = max(
                (self.pieces[u].speed for u in ships if self.pieces[u].moves < CAP), default=0
            )
            parent = self._sea_routes(first)
            for zone in sorted(parent):
                route = [zone]
                while parent[route[-1]] is not None:
                    route.append(parent[route[-1]])  # type: ignore[arg-type]
                lanes = len(route) - 1
                for coast in self.m.seas[zone].coasts:
                    if coast == start:
                        continue
                    far = english or self.m.territories[coast].country == ENGLAND
                    if lanes and not far and lanes > reach:
                        continue
                    out.append((start, *reversed(route), coast))
        return out

    def _sea_routes(self, first: str) -> dict[str, str | None]:
        parent: dict[str, str | None] = {first: None}
        queue = deque([first])
        while queue:
            z = queue.popleft()
            for n in sorted(self.m.seas[z].adjacent):
                if n not in parent and n not in self.k.foes:
                    parent[n] = z
                    queue.append(n)
        return parent

    def _sea_option(self, g: Piece, path: tuple[str, ...], start_claimed: bool) -> Option | None:
        dest = path[-1]
        if dest not in self.reach or (dest in self.taken and dest not in self.k.foes):
            return None
        worth = self._worth(dest)
        foes = self.k.foes.get(dest)
        if not worth and not foes:
            return None
        first, lanes = path[1], len(path) - 3
        sail = lanes > 0
        far = ENGLAND in (self.m.territories[path[0]].country, self.m.territories[dest].country)
        ships = [
            u
            for u in self.at.get(first, ())
            if self.pieces[u].type == "S"
            and (not sail or self.pieces[u].moves < CAP)
            and (not sail or far or self.pieces[u].speed >= lanes)
        ]
        if not ships:
            return None
        ships.sort(key=lambda u: (-self.pieces[u].speed, self.pieces[u].force, u))
        members, stay = self._group(g, 0, True)
        room = SHIP_LOAD * len(ships) - 1
        others = sorted(members[1:], key=lambda u: (-self.pieces[u].force, u))
        value = 0.0
        if start_claimed and not [u for u in self.at.get(path[0], ()) if u not in members]:
            if len(others) > 1:
                keeper = min(others[:room], key=self._cheap)
                stay.append(keeper)
                others.remove(keeper)
            else:
                value -= self.k.claim_value(path[0])
        aboard = [g.uid] + others[:room]
        o = Option(f"u{g.uid}", path, "sea", aboard, stay, sail=sail)
        o.ships = ships[: -(-len(aboard) // SHIP_LOAD)]
        if foes:
            gain = self._attack(dest, sum(self.pieces[u].force for u in o.movers) + 5)
            if not gain:
                return None
            value += gain
        else:
            o.claims.append(dest)
            value += worth
        o.value = value - 0.5  # a sea move leaves the ships where they land
        o.movers = o.movers + (o.ships if sail else [])
        return o

    # ------------------------------------------------------------------ the board
    def _apply(self, o: Option) -> list[tuple[int, str, int]]:
        """Move the option's units on the planning board; return how to undo it."""
        undo = []
        for uid in o.movers:
            p = self.pieces[uid]
            undo.append((uid, p.space, p.moves))
            if o.shape == "sea" and uid in o.ships:
                dest = o.path[-2]
            else:
                dest = o.drops.get(uid, o.path[-1])
            self._relocate(p, dest)
            p.moves += 1
        return undo

    def _undo(self, undo: list[tuple[int, str, int]]) -> None:
        for uid, space, moves in reversed(undo):
            p = self.pieces[uid]
            self._relocate(p, space)
            p.moves = moves

    def _relocate(self, p: Piece, dest: str) -> None:
        if dest == p.space:
            return
        self.at[p.space].remove(p.uid)
        self.at.setdefault(dest, []).append(p.uid)
        p.space = dest

    # ------------------------------------------------------------------ positions
    def _after(self, leader: int, o: Option) -> float:
        """What the General's position after ``o`` is worth for the turns to come."""
        spare = sum(
            1 for u in o.movers if u not in o.drops and u != leader and self.pieces[u].type != "S"
        )
        spare += self._spare(o.dest, leader)
        return self._end_value(o.dest, spare)

    def _end_value(self, space: str, spare: int) -> float:
        """What a General's place is worth for the turns to come: over the next few
        turns he claims a territory a turn himself and one more for each unit he carries
        (fewer, the further he is from land to take); with few units, he may lead out an
        idle stack of mine instead (worth what its units would claim)."""
        near = DISCOUNT ** self.to_claim.get(space, 12)
        value = CLAIM * (HORIZON + CARRIED * min(spare, 2 * HORIZON)) * near
        if spare < 2:
            value = max(value, CLAIM * HORIZON * near + self.idle_field.get(space, 0.0))
        return value


def spread(m: Any, seeds: dict[str, int]) -> dict[str, int]:
    """The least distance from the seeds (each with its own start) to every territory,
    by land adjacency."""
    dist = dict(seeds)
    heap = [(d, t) for t, d in seeds.items()]
    heapq.heapify(heap)
    while heap:
        d, t = heapq.heappop(heap)
        if d > dist.get(t, 99):
            continue
        for n in m.territories[t].adjacent:
            if d + 1 < dist.get(n, 99):
                dist[n] = d + 1
                heapq.heappush(heap, (d + 1, n))
    return dist


def fade(m: Any, seeds: dict[str, float]) -> dict[str, float]:
    """For each territory, the best of the seeds' values discounted by the land steps
    to it (DISCOUNT a step)."""
    best = dict(seeds)
    heap = [(-v, t) for t, v in seeds.items()]
    heapq.heapify(heap)
    while heap:
        v, t = heapq.heappop(heap)
        v = -v
        if v < best.get(t, 0.0):
            continue
        for n in m.territories[t].adjacent:
            w = v * DISCOUNT
            if w > best.get(n, 0.0) + 1e-9:
                best[n] = w
                heapq.heappush(heap, (-w, n))
    return best

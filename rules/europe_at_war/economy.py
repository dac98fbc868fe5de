"""Money and control (EA-27 to EA-31, EA-35): revenue with raiders, where recruits go,
the upkeep matching (a max-flow), deposits, the Control Phase and the final count.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .state import EaState

RANGE = 4
"""EA-30: a source supplies a unit at most 4 steps away; 5 or more is too distant."""


# ---------------------------------------------------------------------------- revenue
def income(g: EaState, seat: int) -> dict[str, int]:
    """EA-27: this turn's income of each territory ``seat`` controls: its revenue, 0 if
    another player's units are there, less 1 for each other player's stack holding a
    light unit on a land-adjacent territory (C8: across straits too), never below 0."""
    raids: dict[str, int] = {}
    for space in g.occupied():
        if space in g.map.seas:
            continue
        for s in g.seats_at(space):
            if s != seat and any(g.kind(u).light for u in g.stack(space, s)):
                for n in g.map.territories[space].adjacent:
                    raids[n] = raids.get(n, 0) + 1
    out = {}
    for tid in sorted(t for t, s in g.control.items() if s == seat):
        base = 0 if g.foreign(tid, seat) else g.map.territories[tid].revenue
        out[tid] = max(0, base - raids.get(tid, 0))
    return out


# ---------------------------------------------------------------------------- recruits
def home_cities(g: EaState, seat: int) -> list[str]:
    """EA-28, EA-29: the Major Cities and Capitals ``seat`` controls that hold no other
    player's units (recruits are placed there; deposits are left there)."""
    return [
        tid
        for tid, s in sorted(g.control.items())
        if s == seat and g.map.territories[tid].city and not g.foreign(tid, seat)
    ]


def placements(g: EaState, seat: int, uid: int, setup: bool = False) -> list[str]:
    """Where chit ``uid`` may be placed: EA-29 for recruits (and free units); EA-3 at
    setup (land units anywhere at home, Fortifications in home cities, ships and the
    Admiral in zones touching the home coast)."""
    k = g.kind(uid)
    if setup:
        home = g.map.home(g.nations[seat]).territories
        if k.naval:
            zones = {z for t in home for z in g.map.territories[t].seas}
            return sorted(zones)
        if k.fort:
            return [t for t in home if g.map.territories[t].city]
        return list(home)
    cities = home_cities(g, seat)
    if not k.naval:
        return cities
    zones = {z for t in cities for z in g.map.territories[t].seas}
    return sorted(z for z in zones if not g.foreign(z, seat))


# ---------------------------------------------------------------------------- upkeep
def blocked(g: EaState, seat: int) -> set[str]:
    """The spaces holding another player's units (they cut supply paths, EA-30)."""
    return {s for s, here in g.where.items() if len(here) > 1 or seat not in here}


def reach(g: EaState, start: str, stops: set[str]) -> dict[str, int]:
    """EA-30: the spaces within 4 steps of ``start`` by a path whose spaces after the
    first are not in ``stops`` (land adjacency, coast links and sea lanes)."""
    dist = {start: 0}
    queue = deque([start])
    steps = g.map.steps
    while queue:
        here = queue.popleft()
        d = dist[here] + 1
        if d > RANGE:
            continue
        for n in steps[here]:
            if n not in dist and n not in stops:
                dist[n] = d
                queue.append(n)
    return dist


@dataclass(slots=True)
class Supply:
    """The upkeep matching of one player: how many units of each stack find a source."""

    units: int
    supplied: dict[str, int]
    """Space -> units of the stack there that the best matching covers."""

    @property
    def covered(self) -> int:
        """Units covered in all."""
        return sum(self.supplied.values())


def sources(g: EaState, seat: int) -> dict[str, int]:
    """EA-30, C6, C7: the territories (their income this turn) and deposits (their RP)
    that may supply ``seat``'s units, by space. A source whose space holds another
    player's units supplies nothing."""
    out: dict[str, int] = {}
    for tid, rp in g.income.items():
        if rp > 0 and g.control.get(tid) == seat:
            out[tid] = out.get(tid, 0) + rp
    for space, rp in g.deposits.items():
        if rp > 0 and g.control.get(space) == seat and not g.foreign(space, seat):
            out[space] = out.get(space, 0) + rp
    return out


def supply(g: EaState, seat: int) -> Supply:
    """EA-30: the largest assignment of ``seat``'s units to sources in range (a max-flow;
    card revenue reaches every unit)."""
    stacks = {s: len(g.stack(s, seat)) for s in g.occupied() if g.stack(s, seat)}
    srcs = sources(g, seat)
    anywhere = g.card_revenue
    # nodes: 0 source, 1 sink, 2 card revenue, then stacks, then supplying spaces
    names = ["S", "T", "card"] + [f"u:{s}" for s in stacks] + [f"s:{s}" for s in srcs]
    index = {n: i for i, n in enumerate(names)}
    flow = _Flow(len(names))
    stops = blocked(g, seat)
    for space, count in stacks.items():
        u = index[f"u:{space}"]
        flow.add(0, u, count)
        if anywhere:
            flow.add(u, 2, count)
        for target in reach(g, space, stops):
            if target in srcs:
                flow.add(u, index[f"s:{target}"], count)
    if anywhere:
        flow.add(2, 1, anywhere)
    for space, cap in srcs.items():
        flow.add(index[f"s:{space}"], 1, cap)
    flow.run(0, 1)
    supplied = {space: flow.out_of(index[f"u:{space}"]) for space in stacks}
    return Supply(sum(stacks.values()), supplied)


class _Flow:
    """Dinic's max-flow on a small graph (a few dozen nodes)."""

    def __init__(self, n: int) -> None:
        self.graph: list[list[list[int]]] = [[] for _ in range(n)]

    def add(self, a: int, b: int, cap: int) -> None:
        self.graph[a].append([b, cap, len(self.graph[b]), cap])
        self.graph[b].append([a, 0, len(self.graph[a]) - 1, 0])

    def run(self, s: int, t: int) -> int:
        total = 0
        while True:
            level = self._levels(s)
            if level[t] < 0:
                return total
            it = [0] * len(self.graph)
            while True:
                pushed = self._push(s, t, 1 << 30, level, it)
                if not pushed:
                    break
                total += pushed

    def _levels(self, s: int) -> list[int]:
        level = [-1] * len(self.graph)
        level[s] = 0
        queue = deque([s])
        while queue:
            v = queue.popleft()
            for to, cap, _, _ in self.graph[v]:
                if cap > 0 and level[to] < 0:
                    level[to] = level[v] + 1
                    queue.append(to)
        return level

    def _push(self, v: int, t: int, f: int, level: list[int], it: list[int]) -> int:
        if v == t:
            return f
        edges = self.graph[v]
        while it[v] < len(edges):
            e = edges[it[v]]
            to, cap, rev, _ = e
            if cap > 0 and level[v] < level[to]:
                d = self._push(to, t, min(f, cap), level, it)
                if d:
                    e[1] -= d
                    self.graph[to][rev][1] += d
                    return d
            it[v] += 1
        return 0

    def out_of(self, v: int) -> int:
        """Flow entering ``v`` from the source (its edge from node 0)."""
        return sum(e[1] for e in self.graph[v] if e[0] == 0)


def upkeep_suggestion(g: EaState, seat: int) -> list[int]:
    """EA-30 steps 4-5: the units the engine suggests discarding: in each stack, the
    units the matching leaves uncovered, weakest first and leaders last; then, if the
    treasury cannot pay for the rest, the weakest of all."""
    s = supply(g, seat)
    gone: list[int] = []
    for space in g.occupied():
        mine = g.stack(space, seat)
        short = len(mine) - s.supplied.get(space, 0)
        if short > 0:
            gone += sorted(mine, key=lambda u: _keep_value(g, u))[:short]
    rest = [u for u in g.units_of(seat) if u not in gone]
    extra = len(rest) - g.treasury[seat]
    if extra > 0:
        gone += sorted(rest, key=lambda u: _keep_value(g, u))[:extra]
    return gone


def _keep_value(g: EaState, uid: int) -> tuple[int, int, int]:
    k = g.kind(uid)
    return (1 if k.leader else 0, k.force + g.units[uid].rep, -uid)


def upkeep_ok(g: EaState, seat: int) -> bool:
    """EA-30: every unit is supplied and the treasury pays 1 RP for each."""
    s = supply(g, seat)
    return s.covered == s.units and s.units <= g.treasury[seat]


# ---------------------------------------------------------------------------- control
def territories_of(g: EaState, seat: int) -> list[str]:
    """The territories ``seat`` controls."""
    return sorted(t for t, s in g.control.items() if s == seat)


def score(g: EaState, seat: int) -> tuple[int, int, int]:
    """EA-35: territories controlled, then their total revenue, then units in play."""
    mine = territories_of(g, seat)
    revenue = sum(g.map.territories[t].revenue for t in mine)
    units = sum(1 for u in g.units.values() if u.owner == seat)
    return len(mine), revenue, units

"""What a computer player knows from its own view, in the shapes its rules of thumb use:
its own units by space, the other players' stacks and how strong they look, which
territories are worth taking, and distances on the map."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import cache

from rules.europe_at_war.data import NATIONS, GameMap, UnitKind, game_map, unit_sets
from rules.europe_at_war.view import EaView, StackView, UnitView

RANGE = 4
"""EA-30: a source supplies a unit at most 4 steps away."""
HIDDEN_SHARE = 0.75
"""A hidden unit of another stack is guessed at this share of its stack's top unit (the
top is its owner's best leader or strongest unit, EA-6)."""
LEADER_ADVANTAGE = 5
"""EA-21."""
RIVAL_SHARE = (0.2, 1.5)
"""What taking a territory from another player is worth, as a share of its revenue:
while neutral land is left (he would take it back), and after (he loses it too)."""
GRAB_OVER = 0.1
"""The land grab is over when less than this share of the territories is neutral."""


@cache
def kind_of(key: str) -> UnitKind:
    """The unit kind a view's ``set/index`` key names."""
    set_id, index = key.split("/")
    return unit_sets()[set_id][int(index)]


@cache
def force_by_name(name: str) -> int:
    """The printed Force of a unit shown by name only (the top of a hidden stack)."""
    for set_id in ("basic", *NATIONS):
        for k in unit_sets()[set_id]:
            if k.name == name:
                return k.force
    return 5


def unit_force(u: UnitView) -> int:
    """A unit's Force with its reputation."""
    return u.force + u.rep


class Knowledge:
    """One seat's knowledge, built once per decision from its view."""

    def __init__(self, view: EaView) -> None:
        self.view = view
        self.me = view.viewer if view.viewer is not None else -1
        self.map: GameMap = game_map(view.compact)
        self.mine: dict[str, list[UnitView]] = {}
        self.foes: dict[str, list[StackView]] = {}
        for s in view.stacks:
            if s.seat == self.me:
                self.mine[s.space] = list(s.units or ())
            else:
                self.foes.setdefault(s.space, []).append(s)
        self._reach: set[str] | None = None
        self._to_generals: dict[str, int] | None = None
        self.grabbing = self.neutral_left() >= GRAB_OVER * len(self.map.territories)
        """True while a tenth or more of the map is neutral."""

    # ------------------------------------------------------------------ who holds what
    def owner(self, space: str) -> int | None:
        """Who controls ``space`` (None: nobody)."""
        return self.view.control.get(space)

    def claim_value(self, space: str, *, empty: bool = False) -> float:
        """What holding ``space`` at the end of my turn adds: its revenue if it is a
        territory I do not hold (a share of it, or more, if I take it from another
        player, see RIVAL_SHARE) and no other player's units stand there (unless
        ``empty``: as if they did not), else 0."""
        t = self.map.territories.get(space)
        if t is None or (space in self.foes and not empty):
            return 0.0
        holder = self.owner(space)
        if holder == self.me:
            return 0.0
        if holder is None:
            return float(t.revenue)
        return t.revenue * RIVAL_SHARE[0 if self.grabbing else 1]

    def neutral_left(self) -> int:
        """Territories nobody holds."""
        return len(self.map.territories) - len(self.view.control)

    def my_territories(self) -> list[str]:
        """The territories I hold."""
        return sorted(t for t, s in self.view.control.items() if s == self.me)

    def capital(self) -> str:
        """My capital."""
        return self.map.home(self.view.nations[self.me]).capital

    def home(self) -> tuple[str, ...]:
        """My home country's territories."""
        return self.map.home(self.view.nations[self.me]).territories

    # ------------------------------------------------------------------ strength
    def stack_force(self, stack: StackView) -> float:
        """A stack's Force: counted when shown, guessed from its top and count when not."""
        if stack.units is not None:
            units = stack.units
            lead = LEADER_ADVANTAGE if any(u.type in ("G", "D") for u in units) else 0
            return float(sum(unit_force(u) for u in units) + lead)
        top = force_by_name(stack.top) + stack.top_rep
        lead = LEADER_ADVANTAGE if stack.top in ("General", "Admiral") else 0
        rest = (stack.count - 1) * max(2.0, min(top, 7) * HIDDEN_SHARE)
        return top + rest + lead

    def foe_force(self, space: str, seat: int | None = None) -> float:
        """The Force of the other players' stacks at ``space`` (one seat's, if given)."""
        return sum(self.stack_force(s) for s in self.foes.get(space, ()) if seat in (None, s.seat))

    def my_force(self, space: str) -> float:
        """My stack's Force at ``space``."""
        units = self.mine.get(space, [])
        lead = LEADER_ADVANTAGE if any(u.type in ("G", "D") for u in units) else 0
        return float(sum(unit_force(u) for u in units) + lead) if units else 0.0

    # ------------------------------------------------------------------ the map
    def supplied(self) -> set[str]:
        """The spaces within upkeep range of a territory I hold now, by paths free of
        other players' units (EA-30): a unit ending its move outside is lost."""
        if self._reach is None:
            start = [t for t in self.my_territories() if t not in self.foes]
            self._reach = set(bfs(self.map, start, RANGE, ends=set(self.foes)))
        return self._reach

    def generals(self) -> list[str]:
        """The territories where a General of mine stands."""
        return [s for s, units in self.mine.items() if any(u.type == "G" for u in units)]

    def to_generals(self) -> dict[str, int]:
        """Land steps from each territory to my nearest General (kept)."""
        if self._to_generals is None:
            self._to_generals = self.land_distances(self.generals())
        return self._to_generals

    def land_distances(self, targets: Iterable[str]) -> dict[str, int]:
        """Land steps from each territory to the nearest of ``targets``."""
        return bfs(self.map, targets, 99, land=True)


def bfs(
    m: GameMap,
    start: Iterable[str],
    limit: int,
    *,
    ends: set[str] | None = None,
    land: bool = False,
) -> dict[str, int]:
    """Steps from the nearest of ``start`` to every space within ``limit`` (by land
    adjacency only with ``land``, else by any step of EA-30); a path may end in a
    space of ``ends`` but not go on through it."""
    dist = {s: 0 for s in start}
    queue = deque(dist)
    stops = ends or set()
    while queue:
        here = queue.popleft()
        d = dist[here] + 1
        if d > limit or (here in stops and dist[here]):
            continue
        nexts = m.territories[here].adjacent if land else m.steps[here]
        for n in nexts:
            if n not in dist:
                dist[n] = d
                queue.append(n)
    return dist

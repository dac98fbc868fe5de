"""Heuristic computer players for Europe at War, deciding from their own view only.

- **Moves**: a land grab. Each General leads his stack toward the territories worth most
  that nobody of another player holds, dropping one unit in each such territory he
  passes; a stack attacks only an enemy stack it clearly outweighs.
- **Recruits**: Generals first, then the best Force per RP that keeps the next upkeep
  paid.
- **Battle cards**: played while behind (the best swing first); Lost Orders is kept for
  the opponent's multipliers.
- **Windows**: the move that threatens the most revenue is negated.
- **Casualties**: own losses at the lowest Force first; as the winner, the enemy leader
  is taken first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.europe_at_war.actions import (
    FLEET,
    Avoid,
    BattleCard,
    Buy,
    Capture,
    Casualty,
    Compel,
    Deposit,
    Destroy,
    Disband,
    Discard,
    Done,
    Drop,
    Fight,
    LostOrders,
    Move,
    Negate,
    Pass,
    PayLoss,
    Place,
    PlayAt,
    PlayCard,
    PlayOn,
    React,
    Retreat,
    Submit,
)
from rules.europe_at_war.data import Card, GameMap, deck, game_map
from rules.europe_at_war.suggest import card_value
from rules.europe_at_war.view import EaView, StackView

ATTACK_MARGIN = 1.5
"""A stack attacks when its Force is at least this multiple of the enemy's estimate."""
HIDDEN_UNIT_FORCE = 5
"""The Force guessed for a unit of another player's stack that is not shown."""
THREAT = 4
"""Revenue at stake for a negate-move card to be worth playing."""
GUARD = 2
"""Units a General keeps with him when he drops the others off."""


class EaPlayer:
    """The heuristic player (one level: every level plays the same)."""

    def choose(
        self,
        view: Any,
        legal: Sequence[Any],
        level: str,
        seed: int,
        *,
        deadline: float | None = None,
    ) -> Any:
        """One of ``legal`` for the seat whose ``view`` this is.

        Raises:
            ValueError: ``legal`` is empty.
        """
        if not legal:
            raise ValueError("no legal action to choose from")
        assert isinstance(view, EaView)
        me = view.viewer
        kind = next((d.kind for d in view.deciders if d.seat == me), "")
        mind = _Mind(view, legal, random.Random(seed))
        choice = mind.decide(kind)
        if choice is None or choice not in legal:
            choice = mind.fallback()
        return choice


class _Mind:
    """One decision: the view, the legal actions and the rules of thumb."""

    def __init__(self, view: EaView, legal: Sequence[Any], rng: random.Random) -> None:
        self.view = view
        self.legal = legal
        self.rng = rng
        self.me = view.viewer if view.viewer is not None else -1
        self.map: GameMap = game_map(view.compact)
        self.cards = deck()
        self._distances: dict[str, int] | None = None
        self._supplied: set[str] | None = None

    # ------------------------------------------------------------------ helpers
    def of(self, cls: type[Any]) -> list[Any]:
        """The legal actions of one class."""
        return [a for a in self.legal if isinstance(a, cls)]

    def fallback(self) -> Any:
        """Finish, pass or submit if possible, else the first legal action."""
        for quiet in (Done(), Pass(), Submit()):
            if quiet in self.legal:
                return quiet
        return self.legal[0]

    def mine(self, space: str) -> StackView | None:
        """My stack at ``space``."""
        return next((s for s in self.view.stacks if s.space == space and s.seat == self.me), None)

    def foes_at(self, space: str) -> list[StackView]:
        """Other players' stacks at ``space``."""
        return [s for s in self.view.stacks if s.space == space and s.seat != self.me]

    def strength(self, stack: StackView) -> float:
        """A stack's Force: counted when shown, guessed when not."""
        if stack.units is not None:
            return float(sum(u.force + u.rep for u in stack.units))
        return float(stack.count * HIDDEN_UNIT_FORCE + 5)

    def worth(self, space: str) -> int:
        """What holding ``space`` would add: its revenue unless it is already mine."""
        t = self.map.territories.get(space)
        if t is None or self.view.control.get(space) == self.me:
            return 0
        return t.revenue + (1 if self.view.control.get(space) is not None else 0)

    def capital(self) -> str:
        """My capital."""
        return self.map.home(self.view.nations[self.me]).capital

    # ------------------------------------------------------------------ decisions
    def decide(self, kind: str) -> Any:
        """The action for a decision of ``kind``."""
        handler = getattr(self, f"on_{kind}", None)
        return handler() if handler else None

    def on_setup(self) -> Any:
        """Land units gather with the General on the home territory nearest the most
        land to take; Fortifications hold the capital; ships wait by the capital."""
        places = self.of(Place)
        capital = self.capital()
        front = self.frontier()
        for a in places:
            if a.at == front:
                return a
        for a in places:
            if a.at == capital:
                return a
        near = [a for a in places if a.at in self.map.territories[capital].seas]
        return (near or places)[0]

    def on_place(self) -> Any:
        return self.on_setup()

    def frontier(self) -> str:
        """My home territory with the most revenue to take within 3 land steps."""
        home = self.map.home(self.view.nations[self.me]).territories
        best, score = self.capital(), -1
        for t in home:
            near = self.within(t, 3)
            value = sum(self.worth(n) for n in near if n not in home)
            if value > score:
                best, score = t, value
        return best

    def within(self, start: str, steps: int) -> set[str]:
        """Territories at most ``steps`` land steps from ``start``."""
        seen = {start}
        edge = [start]
        for _ in range(steps):
            edge = [n for t in edge for n in self.map.territories[t].adjacent if n not in seen]
            seen.update(edge)
        return seen

    def supplied(self) -> set[str]:
        """The spaces within upkeep range (4 steps, EA-30) of the territories I hold
        now: a unit that ends its move outside would be discarded (cached)."""
        if self._supplied is None:
            start = [t for t, s in self.view.control.items() if s == self.me]
            blocked = {st.space for st in self.view.stacks if st.seat != self.me}
            dist = {t: 0 for t in start}
            queue = list(start)
            for t in queue:
                if dist[t] == 4:
                    continue
                for n in self.map.steps[t]:
                    if n not in dist and n not in blocked:
                        dist[n] = dist[t] + 1
                        queue.append(n)
            self._supplied = set(dist)
        return self._supplied

    def distances(self) -> dict[str, int]:
        """Land steps from each territory to the nearest one worth taking (cached)."""
        if self._distances is None:
            targets = [t for t in self.map.territories if self.worth(t) and not self.foes_at(t)]
            dist = {t: 0 for t in targets}
            queue = list(targets)
            for t in queue:
                for n in self.map.territories[t].adjacent:
                    if n not in dist:
                        dist[n] = dist[t] + 1
                        queue.append(n)
            self._distances = dist
        return self._distances

    def on_discard(self) -> Any:
        return self.own_turn_card() or Done()

    def on_hand(self) -> Any:
        discards = self.of(Discard)
        return min(discards, key=lambda a: (card_value(self.cards[a.card]), a.card))

    def on_loss(self) -> Any:
        return max(self.of(PayLoss), key=lambda a: (a.amount, a.at))

    def on_deposit(self) -> Any:
        deposits = self.of(Deposit)
        capital = [a for a in deposits if a.at == self.capital()]
        return max(capital or deposits, key=lambda a: a.amount)

    def on_battle(self) -> Any:
        fights = self.of(Fight)
        return max(fights, key=lambda a: self.odds(a.at, a.seat)) if fights else None

    def odds(self, at: str, seat: int) -> float:
        """How much stronger my stack at ``at`` is than ``seat``'s."""
        mine = self.mine(at)
        theirs = next((s for s in self.foes_at(at) if s.seat == seat), None)
        if mine is None or theirs is None:
            return 0.0
        return self.strength(mine) / max(1.0, self.strength(theirs))

    # ------------------------------------------------------------------ the plan
    def on_plan(self) -> Any:
        plan = self.view.plan or ()
        if not plan:
            card = self.own_turn_card(before_plan=True)
            if card is not None:
                return card
        if plan and plan[-1]["kind"] == "move":
            drop = self.next_drop(plan[-1])
            if drop is not None:
                return drop
        moves = self.of(Move)
        best, score = None, 0.0
        for m in moves:
            s = self.score_move(m)
            if s > score:
                best, score = m, s
        if best is not None:
            return best
        compels = self.of(Compel)
        for c in compels:
            if self.cards[c.card].effect.attack and self.odds(c.dest, -1) >= 0:
                return c
        return Submit()

    def path_of(self, m: Move) -> list[str]:
        start = self.group_space(m.group)
        return [start, *m.via.split(">")]

    def group_space(self, group: str) -> str:
        if group.startswith(FLEET):
            return group[len(FLEET) :]
        uid = int(group[1:])
        for s in self.view.stacks:
            if s.seat == self.me and s.units and any(u.unit == uid for u in s.units):
                return s.space
        return ""

    def movers(self, start: str, steps: int, sea: bool) -> int:
        """How many of my units at ``start`` would go on a move of ``steps``."""
        stack = self.mine(start)
        if stack is None or stack.units is None:
            return 0
        return sum(
            1 for u in stack.units if u.type != "F" and u.moves < 2 and (sea or u.speed >= steps)
        )

    def score_move(self, m: Move) -> float:
        """What a move order would gain: the territories it can claim (one unit dropped
        in each, the rest at the end), less the cost of a card; an attack only when my
        group clearly outweighs the enemy there."""
        path = self.path_of(m)
        if path[-1] not in self.supplied():
            return 0.0
        sea = len(path) > 2 and path[1] in self.map.seas and path[0] in self.map.territories
        if path[0] in self.map.seas:
            return self.score_fleet(m, path)
        going = self.movers(path[0], len(path) - 1, sea)
        if sea:
            going = min(going, 4)
        spare = going - 1 - GUARD
        gain = 0.0
        for space in path[1:-1]:
            if sea or spare <= 0:
                break
            w = self.worth(space)
            if w:
                gain += w
                spare -= 1
        dest = path[-1]
        foes = self.foes_at(dest)
        if foes:
            power = going * 6.0 + 10
            enemy = sum(self.strength(f) for f in foes)
            if power < ATTACK_MARGIN * enemy:
                return 0.0
            gain += self.worth(dest) + 3
        else:
            gain += self.worth(dest)
        dist = self.distances()
        far = len(self.map.territories)
        gain += 0.5 * (dist.get(path[0], far) - dist.get(dest, far)) if not foes else 0.0
        stay = self.mine(path[0])
        if stay is not None and stay.count == going and self.worth(path[0]) == 0:
            home = self.map.territories.get(path[0])
            if home is not None and home.city and self.view.control.get(path[0]) == self.me:
                gain -= 1  # leaves a city empty
        if m.pay != "free":
            gain -= card_value(self.cards[m.pay]) / 4
        return gain + self.rng.random() * 0.01

    def score_fleet(self, m: Move, path: list[str]) -> float:
        foes = self.foes_at(path[-1])
        if not foes or m.pay != "free":
            return 0.0
        mine = self.mine(path[0])
        if mine is None:
            return 0.0
        if self.strength(mine) >= ATTACK_MARGIN * sum(self.strength(f) for f in foes):
            return 2.0
        return 0.0

    def next_drop(self, order: dict[str, Any]) -> Any:
        """The next drop-off of the last order: one unit in each territory worth holding
        that the group passes, the weakest units first."""
        path = order["path"]
        if len(path) < 3 or path[1] in self.map.seas:
            return None
        if self.foes_at(path[-1]):
            return None  # an attack keeps every unit
        dropped = {int(u) for u, _ in order["drops"]}
        done_at = {at for _, at in order["drops"]}
        stack = self.mine(path[0])
        force = {u.unit: u.force for u in (stack.units or ())} if stack else {}
        going = {int(d.unit[1:]) for d in self.of(Drop)}
        if len(going) <= GUARD:  # the General never goes on alone
            return None
        for space in path[1:-1]:
            if space in done_at or not self.worth(space):
                continue
            options = [d for d in self.of(Drop) if d.at == space and int(d.unit[1:]) not in dropped]
            if options:
                return min(options, key=lambda d: (force.get(int(d.unit[1:]), 0), d.unit))
        return None

    # ------------------------------------------------------------------ windows
    def on_w1(self) -> Any:
        best, threat = None, THREAT - 1
        for n in self.of(Negate):
            order = (self.view.plan or ())[n.order - 1]
            t = self.threat(order)
            if t > threat:
                best, threat = n, t
        if best is not None:
            return best
        reacts = self.of(React)
        if reacts and self.total_threat() >= 2 * THREAT:
            return reacts[0]
        return Done()

    def threat(self, order: dict[str, Any]) -> int:
        """The revenue and units an order of the active player reaches of mine."""
        spaces = order.get("path") or [order.get("dest", "")]
        out = 0
        for space in spaces[1:] if order["kind"] == "move" else spaces:
            if self.view.control.get(space) == self.me:
                out += self.map.territories[space].revenue if space in self.map.territories else 0
            if self.mine(space) is not None:
                out += 5
        return out

    def total_threat(self) -> int:
        return sum(self.threat(o) for o in self.view.plan or ())

    def on_w2(self) -> Any:
        for a in self.of(Avoid):
            if self.odds(a.at, self.view.current) < 0.6:
                return a
        return Done()

    def on_answer(self) -> Any:
        if self.view.battle is not None:
            return self.answer_in_battle()
        return Pass()

    # ------------------------------------------------------------------ battle cards
    def on_cards(self) -> Any:
        b = self.view.battle
        assert b is not None
        att, dfn = b.totals
        mine, theirs = (att, dfn) if self.me == b.attacker else (dfn, att)
        ahead = mine > theirs if self.me == b.attacker else mine >= theirs
        if b.plays and b.plays[-1]["seat"] != self.me and not b.plays[-1]["negated"]:
            last = self.cards[b.plays[-1]["card"]]
            lo = LostOrders(last.id)
            if lo in self.legal and last.effect.kind in ("force_multiply", "destroy_enemy_unit"):
                return lo
        if ahead:
            return Pass()
        plays = [a for a in self.legal if isinstance(a, (BattleCard, Destroy))]
        if not plays:
            return Pass()
        return max(plays, key=lambda a: self.swing(a, mine))

    def swing(self, action: Any, mine: int) -> float:
        """How much a battle card would move the totals my way."""
        card: Card = self.cards[action.card]
        e = card.effect
        b = self.view.battle
        assert b is not None
        own = self.stack_units(self.me)
        foe = self.stack_units(b.defender if self.me == b.attacker else b.attacker)
        if e.kind == "force_per_unit":
            target = own if e.who == "own" else foe
            n = sum(1 for u in target if self._classes(u) & e.classes)
            return float(abs(e.amount) * n)
        if e.kind == "force_flat":
            return float(abs(e.amount))
        if e.kind == "force_multiply":
            return float(mine) * float(abs(e.factor - 1)) if e.who == "own" else mine / 2
        if e.kind == "destroy_enemy_unit":
            uid = int(action.unit[1:])
            return float(next((u.force + 5 for u in foe if u.unit == uid), 5))
        return 1.0

    def stack_units(self, seat: int) -> list[Any]:
        b = self.view.battle
        assert b is not None
        for s in self.view.stacks:
            if s.space == b.at and s.seat == seat:
                return list(s.units or ())
        return []

    def _classes(self, unit: Any) -> frozenset[str]:
        from rules.europe_at_war.data import unit_sets

        set_id, index = unit.kind.split("/")
        return unit_sets()[set_id][int(index)].classes

    def on_sealed(self) -> Any:
        b = self.view.battle
        assert b is not None
        chosen = [p for p in b.plays if p["seat"] == self.me]
        if len(chosen) >= 2:
            return Done()
        att, dfn = b.totals
        mine, theirs = (att, dfn) if self.me == b.attacker else (dfn, att)
        if mine > theirs * 1.3:
            return Done()
        plays = [a for a in self.legal if isinstance(a, (BattleCard, Destroy))]
        if not plays:
            return Done()
        return max(plays, key=lambda a: self.swing(a, mine))

    def answer_in_battle(self) -> Any:
        for a in self.of(LostOrders):
            if self.cards[a.target].effect.kind == "force_multiply":
                return a
        return Pass()

    def on_casualties(self) -> Any:
        options = self.of(Casualty)
        b = self.view.battle
        assert b is not None
        units = {u.unit: u for s in self.view.stacks if s.space == b.at for u in (s.units or ())}

        def force(a: Casualty) -> tuple[int, int, str]:
            u = units.get(int(a.unit[1:]))
            if u is None:
                return (0, 0, a.unit)
            return (1 if u.type in ("G", "D") else 0, u.force + u.rep, a.unit)

        if b.stage == "first":
            return max(options, key=force)
        return min(options, key=force)

    def on_capture(self) -> Any:
        return self.of(Capture)[0]

    def on_retreat(self) -> Any:
        options = self.of(Retreat)
        return max(
            options,
            key=lambda a: (self.mine(a.dest) is not None, self.view.control.get(a.dest) == self.me),
        )

    # ------------------------------------------------------------------ economy
    def on_recruit(self) -> Any:
        card = self.own_turn_card()
        if card is not None:
            return card
        buys = self.of(Buy)
        if not buys:
            return Done()
        units = sum(s.count for s in self.view.stacks if s.seat == self.me)
        money = self.view.treasury[self.me]
        drawn = {u.unit: u for u in self.view.drawn or ()}
        generals = {
            s.space
            for s in self.view.stacks
            if s.seat == self.me and any(u.type == "G" for u in s.units or ())
        }
        capital = self.capital()

        def value(a: Buy) -> tuple[int, float, int, int]:
            u = drawn[int(a.chit[1:])]
            bonus = 1 if u.type in ("CL", "L", "C/H", "CH") else 0
            bonus -= 1 if u.type in ("S", "D", "F") else 0
            return (
                1 if u.type == "G" else 0,
                (u.force + bonus + u.speed) / max(1, u.force),
                2 if a.at in generals else 1 if a.at == capital else 0,
                -u.force,
            )

        for a in sorted(buys, key=value, reverse=True):
            cost = drawn[int(a.chit[1:])].force
            if money - cost >= units + 1:
                return a
        return Done()

    def on_upkeep(self) -> Any:
        if Done() in self.legal:
            return Done()
        if self.view.suggestion:
            return Disband(f"u{self.view.suggestion[0]}")
        return None

    # ------------------------------------------------------------------ own-turn cards
    def own_turn_card(self, before_plan: bool = False) -> Any:
        """Revenue, units and cards whenever they come; harm to the richest rival."""
        for a in self.of(PlayCard):
            kind = self.cards[a.card].effect.kind
            if kind in ("gain_revenue", "gain_units", "draw_cards"):
                return a
        rivals = [s for s in range(len(self.view.nations)) if s != self.me]
        richest = max(rivals, key=lambda s: self.view.treasury[s]) if rivals else -1
        for a in self.of(PlayOn):
            kind = self.cards[a.card].effect.kind
            harmful = kind in ("opponent_loses_revenue", "steal_revenue")
            if a.seat == richest and harmful and self.view.treasury[richest] > 0:
                return a
        if before_plan:
            hits = self.of(PlayAt)
            if hits:
                return max(hits, key=lambda a: self.worth(a.at) + self.rng.random())
        return None

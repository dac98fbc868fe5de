"""The state of one game: the board (units, stacks, control, money), the cards, and the
bookkeeping of the step under way, with its storage form.

Each chit has a number for the whole game (:class:`Chits`): a nation's pile holds the
numbers of its chits not in play; on the board the number names the unit. So every chit
is always in exactly one place: its pile, the board, drawn (a recruit draw or a setup
draw, seen only by its drawer), or set aside (a lost leader, EA-21).
"""

from __future__ import annotations

import json
from bisect import insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from hashlib import sha256
from typing import Any, TypeVar

from ..choices import kinds_of, values_of
from ..contract import Decision, OnTimeout, Result, Value
from ..errors import IllegalAction, InvalidState, RulesError
from ..events import Event
from ..rng import Rng
from .catalogue import _
from .data import NATIONS, GameMap, UnitKind, game_map, unit_sets
from .options import Options, options_from_stored

NAME = "europe_at_war"
SCHEMA = 1
HAND_LIMIT = 7
"""EA-5: the hand limit after every draw."""


@dataclass(frozen=True, slots=True)
class Chits:
    """Every chit of a game, numbered seat by seat: its kind and the pile it belongs to."""

    kinds: tuple[UnitKind, ...]
    origin: tuple[int, ...]
    start: tuple[int, ...]
    """The first number of each seat's chits (and, last, the total)."""

    def of(self, seat: int) -> range:
        """The numbers of ``seat``'s chits."""
        return range(self.start[seat], self.start[seat + 1])


@cache
def chits_for(nations: tuple[str, ...], basic: bool) -> Chits:
    """The chits of a table whose seats play ``nations`` (EA-2: each nation's own list, or
    the Basic set for all with the option)."""
    sets = unit_sets()
    kinds: list[UnitKind] = []
    origin: list[int] = []
    start = [0]
    for seat, nation in enumerate(nations):
        for kind in sets["basic" if basic else nation]:
            kinds += [kind] * kind.count
            origin += [seat] * kind.count
        start.append(len(kinds))
    return Chits(tuple(kinds), tuple(origin), tuple(start))


class Unit:
    """A chit in play. ``moves``, ``free_used``, ``came_from`` and ``landed`` describe the
    current turn (EA-10(e), EA-24)."""

    __slots__ = ("came_from", "free_used", "id", "landed", "moves", "owner", "rep", "space")

    def __init__(self, uid: int, owner: int, space: str) -> None:
        self.id = uid
        self.owner = owner
        self.space = space
        self.rep = 0
        self.moves = 0
        self.free_used = False
        self.came_from: str | None = None
        self.landed = False

    def to_list(self) -> list[Any]:
        """Compact JSON form."""
        return [
            self.id,
            self.owner,
            self.space,
            self.rep,
            self.moves,
            self.free_used,
            self.came_from,
            self.landed,
        ]

    @staticmethod
    def from_list(data: list[Any]) -> Unit:
        """Rebuild from :meth:`to_list`."""
        uid, owner, space, rep, moves, free_used, came_from, landed = data
        u = Unit(int(uid), int(owner), str(space))
        u.rep, u.moves, u.free_used = int(rep), int(moves), bool(free_used)
        u.came_from = None if came_from is None else str(came_from)
        u.landed = bool(landed)
        return u


class Record:
    """A small mutable record stored as a JSON object (orders, reactions, plays)."""

    __slots__: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {name: _jsonable(getattr(self, name)) for name in self.__slots__}

    def load(self, data: dict[str, Any]) -> None:
        """Fill from :meth:`to_dict` output."""
        for name in self.__slots__:
            setattr(self, name, data[name])


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


class Order(Record):
    """One order of the move plan (EA-15). ``kind`` is ``move`` (a group's move: land,
    ships, or a sea move carrying land units) or ``compel`` (Compel Action, Revenge).

    ``status``: ``planned``, ``done``, ``cancelled`` (by a reaction: its card is spent)
    or ``skipped`` (illegal when its turn came: its card may return to the hand)."""

    __slots__ = ("at", "card", "dest", "drops", "group", "kind", "path", "pay", "seat", "status")

    def __init__(self, kind: str = "move") -> None:
        self.kind = kind
        self.group = ""
        self.path: list[str] = []
        self.pay = ""
        self.drops: list[list[Any]] = []
        self.card = ""
        self.at = ""
        self.seat = -1
        self.dest = ""
        self.status = "planned"

    @property
    def cards(self) -> list[str]:
        """The card this order spends, if any."""
        if self.kind == "compel":
            return [self.card]
        return [] if self.pay == "free" else [self.pay]

    def load(self, data: dict[str, Any]) -> None:
        """Fill from stored data."""
        super().load(data)
        self.path = [str(s) for s in self.path]
        self.drops = [[int(u), str(s)] for u, s in self.drops]


class Reaction(Record):
    """A card submitted in a window (EA-15): ``seat`` plays ``card`` with its target.

    ``status``: ``submitted``, ``cancelled`` (by Lost Orders), ``done`` or ``returned``."""

    __slots__ = ("at", "card", "dest", "group", "order", "seat", "status", "via")

    def __init__(self, seat: int = -1, card: str = "") -> None:
        self.seat = seat
        self.card = card
        self.order = 0
        self.at = ""
        self.dest = ""
        self.group = ""
        self.via = ""
        self.status = "submitted"


class Window(Record):
    """An out-of-turn window, W1 or W2 (EA-15), and its Lost Orders answers (EA-33).

    ``stage``: ``submit`` (everyone in ``pending`` submits at once, privately), ``answer``
    (everyone in ``pending`` may play Lost Orders at once) or ``chain`` (the owner of a
    card just cancelled may answer, alone)."""

    __slots__ = ("answers", "chain", "name", "pending", "reactions", "stage")

    def __init__(self, name: str = "w1") -> None:
        self.name = name
        self.stage = "submit"
        self.pending: list[int] = []
        self.reactions: list[Reaction] = []
        self.answers: list[list[Any]] = []
        """Lost Orders answers of the current round: ``[seat, target card]``."""
        self.chain: list[Any] = []
        """``[seat, target]``: the last Lost Orders play, open to an answer."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        out = super().to_dict()
        out["reactions"] = [r.to_dict() for r in self.reactions]
        return out

    def load(self, data: dict[str, Any]) -> None:
        """Fill from stored data."""
        super().load(data)
        self.pending = [int(s) for s in self.pending]
        rs = []
        for d in data["reactions"]:
            r = Reaction()
            r.load(d)
            rs.append(r)
        self.reactions = rs


class Play(Record):
    """A card played in a battle (EA-18): ``unit`` is a destroy-card's victim, ``target``
    the card a Lost Orders cancels; ``removed`` keeps a destroyed unit for a Lost Orders
    that brings it back."""

    __slots__ = ("card", "negated", "removed", "seat", "target", "unit")

    def __init__(self, seat: int = -1, card: str = "") -> None:
        self.seat = seat
        self.card = card
        self.unit = -1
        self.target = ""
        self.negated = False
        self.removed: list[Any] = []


class Battle(Record):
    """The battle under way (EA-16 to 26).

    ``stage``: ``cards`` (the alternating exchange; ``next`` plays, ``passes`` counts
    passes in a row), ``sealed`` (EA-36: ``pending`` choose at once), ``answer`` (after
    sealed cards: ``pending`` may play Lost Orders, attacker first), ``first`` (the
    winner's first pick), ``losses`` (the loser's other picks), ``own`` (the winner's
    own losses), ``capture`` (Capture Ship), ``retreat``."""

    __slots__ = (
        "at",
        "attacker",
        "defender",
        "entered",
        "kind",
        "left",
        "loser",
        "lost_ships",
        "next",
        "passes",
        "pending",
        "plays",
        "result",
        "stage",
        "winner",
    )

    def __init__(self) -> None:
        self.at = ""
        self.attacker = -1
        self.defender = -1
        self.kind = "battle"
        self.stage = "cards"
        self.next = -1
        self.passes = 0
        self.pending: list[int] = []
        self.plays: list[Play] = []
        self.winner = -1
        self.loser = -1
        self.left = 0
        """Casualties still to pick in this stage."""
        self.lost_ships: list[int] = []
        self.entered: list[str] = []
        """The spaces the attacker entered from this turn (EA-24)."""
        self.result: dict[str, Any] = {}
        """The resolution: totals, breakdowns and losses, once resolved (public)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        out = super().to_dict()
        out["plays"] = [p.to_dict() for p in self.plays]
        return out

    def load(self, data: dict[str, Any]) -> None:
        """Fill from stored data."""
        super().load(data)
        ps = []
        for d in data["plays"]:
            p = Play()
            p.load(d)
            ps.append(p)
        self.plays = ps
        self.pending = [int(s) for s in self.pending]

    def other(self, seat: int) -> int:
        """The opponent of ``seat`` in this battle."""
        return self.defender if seat == self.attacker else self.attacker


class Interrupt(Record):
    """A decision an own-turn card (or a draw) puts in front of the step under way:
    ``hand`` (discard down to 7), ``place`` (place free units), ``loss`` (a victim
    chooses which deposits pay ``amount``; ``thief`` gains it, or -1)."""

    __slots__ = ("amount", "kind", "paid", "seat", "thief")

    def __init__(
        self, kind: str = "hand", seat: int = -1, amount: int = 0, thief: int = -1
    ) -> None:
        self.kind = kind
        self.seat = seat
        self.amount = amount
        self.thief = thief
        self.paid = 0


R = TypeVar("R", bound=Record)


def _copy_record(source: Record, target: R) -> R:
    target.load(source.to_dict())
    return target


class EaState:
    """Everything about one game of Europe at War. Mutated only through ``apply``."""

    def __init__(self, nations: list[str], options: Options, seed: int) -> None:
        self.nations = nations
        self.options = options
        self.map: GameMap = game_map(options.compact_map)
        self.chits: Chits = chits_for(tuple(nations), options.basic_set)
        n = len(nations)
        self.origins: list[int] = list(range(n))
        self.rng = Rng(seed)
        self.forced: list[Any] = []
        self.chance_steps: list[Event] = []
        self.units: dict[int, Unit] = {}
        self.where: dict[str, dict[int, list[int]]] = {}
        """Index: space -> seat -> unit numbers (kept in step with ``units``)."""
        self.piles: list[list[int]] = [list(self.chits.of(s)) for s in range(n)]
        self.aside: list[int] = []
        self.drawn: list[list[int]] = [[] for _n in range(n)]
        self.arrived: dict[str, int] = {}
        """``"seat|space"`` -> when that stack came to be (EA-16's attacker)."""
        self.tops: dict[str, int] = {}
        """``"seat|space"`` -> the unit its owner shows on top of that stack (EA-6)."""
        self.clock = 0
        self.turn_clock = 0
        self.control: dict[str, int] = {}
        self.treasury: list[int] = [0] * n
        self.deposits: dict[str, int] = {}
        self.income: dict[str, int] = {}
        self.card_revenue = 0
        self.hands: list[list[str]] = [[] for _n in range(n)]
        self.deck: list[str] = []
        self.discard: list[str] = []
        self.table: list[str] = []
        """Cards played and not yet resolved (window reactions, battle cards)."""
        self.seen: list[dict[str, list[str]]] = [{} for _n in range(n)]
        """Hands seen with Telescope-type cards: viewer -> {seat: cards} (EA-6)."""
        self.out: list[bool] = [False] * n
        self.round = 0
        self.current = 0
        self.turn = 0
        self.step = "setup"
        self.setup_seat = 0
        self.plan: list[Order] = []
        self.window: Window | None = None
        self.bans: list[int] = []
        """Seats whose Diplomacy, Treaty or Armistice holds this turn (EA-33)."""
        self.frozen = False
        """Winter Quarters holds: the active player makes no more moves this turn."""
        self.battle: Battle | None = None
        self.interrupts: list[Interrupt] = []
        self.bonus_drawn = False
        """EA-29: the 1D6 extra chits were drawn this Recruit Phase."""
        self.bought = 0
        self.winners: list[int] = []
        self.end_reason = ""
        self.gifts: list[int] = []
        """Chits drawn by a card, waiting to be placed free (EA-29)."""
        self.projections: dict[int, EaState] = {}
        """The plan's projections (see :func:`.plan.projection`); never stored."""

    # ------------------------------------------------------------------ basics
    @property
    def player_count(self) -> int:
        """Seats at the table."""
        return len(self.nations)

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.step == "over"

    def kind(self, uid: int) -> UnitKind:
        """The kind of chit ``uid``."""
        return self.chits.kinds[uid]

    def names_of(self, chits: Sequence[int]) -> list[str]:
        """The unit names of ``chits`` (for their owner's eyes)."""
        return [self.chits.kinds[c].name for c in chits]

    def stack(self, space: str, seat: int) -> list[int]:
        """``seat``'s units at ``space`` (empty if none)."""
        return self.where.get(space, {}).get(seat, [])

    def seats_at(self, space: str) -> list[int]:
        """The seats with units at ``space``, in seat order."""
        return sorted(self.where.get(space, {}))

    def occupied(self) -> list[str]:
        """The spaces holding any unit, in a stable order (the index's own order depends
        on history, so nothing iterates it directly)."""
        return sorted(self.where)

    def foreign(self, space: str, seat: int) -> bool:
        """True when another player than ``seat`` has units at ``space``."""
        return any(s != seat for s in self.where.get(space, {}))

    def units_of(self, seat: int) -> list[int]:
        """Every unit ``seat`` has in play, by number."""
        return sorted(u.id for u in self.units.values() if u.owner == seat)

    # ------------------------------------------------------------------ moving chits
    def put(self, uid: int, seat: int, space: str) -> Unit:
        """Bring chit ``uid`` into play for ``seat`` at ``space``."""
        u = Unit(uid, seat, space)
        self.units[uid] = u
        self._enter(u)
        return u

    def relocate(self, uid: int, space: str) -> None:
        """Move unit ``uid`` to ``space``."""
        u = self.units[uid]
        self._leave(u)
        u.space = space
        self._enter(u)

    def remove(self, uid: int, aside: bool = False) -> Unit:
        """Take unit ``uid`` out of play: back to its pile, or set aside (EA-21)."""
        u = self.units.pop(uid)
        self._leave(u)
        if aside:
            self.aside.append(uid)
        else:
            pile = self.piles[self.chits.origin[uid]]
            pile.append(uid)
            pile.sort()
        return u

    def restore(self, data: list[Any]) -> None:
        """Bring back a unit removed from play (a destroy-card undone by Lost Orders)."""
        u = Unit.from_list(data)
        if u.id in self.aside:
            self.aside.remove(u.id)
        else:
            self.piles[self.chits.origin[u.id]].remove(u.id)
        self.units[u.id] = u
        self._enter(u)

    def _enter(self, u: Unit) -> None:
        here = self.where.setdefault(u.space, {})
        if u.owner not in here:
            self.clock += 1
            self.arrived[f"{u.owner}|{u.space}"] = self.clock
        insort(here.setdefault(u.owner, []), u.id)

    def _leave(self, u: Unit) -> None:
        key = f"{u.owner}|{u.space}"
        if self.tops.get(key) == u.id:
            del self.tops[key]
        here = self.where[u.space]
        mine = here[u.owner]
        mine.remove(u.id)
        if not mine:
            del here[u.owner]
            self.arrived.pop(f"{u.owner}|{u.space}", None)
            if not here:
                del self.where[u.space]

    def change_owner(self, uid: int, seat: int) -> None:
        """Capture Ship: unit ``uid`` changes sides where it stands (EA-33)."""
        u = self.units[uid]
        self._leave(u)
        u.owner = seat
        self._enter(u)

    # ------------------------------------------------------------------ storage
    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-compatible data."""
        return {
            "schema": SCHEMA,
            "nations": self.nations[:],
            "options": self.options.to_dict(),
            "origins": self.origins[:],
            "rng": self.rng.state,
            "units": [self.units[k].to_list() for k in sorted(self.units)],
            "piles": [p[:] for p in self.piles],
            "aside": self.aside[:],
            "drawn": [d[:] for d in self.drawn],
            "arrived": dict(self.arrived),
            "tops": dict(self.tops),
            "clock": self.clock,
            "turn_clock": self.turn_clock,
            "control": dict(self.control),
            "treasury": self.treasury[:],
            "deposits": dict(self.deposits),
            "income": dict(self.income),
            "card_revenue": self.card_revenue,
            "hands": [h[:] for h in self.hands],
            "deck": self.deck[:],
            "discard": self.discard[:],
            "table": self.table[:],
            "seen": [{k: v[:] for k, v in s.items()} for s in self.seen],
            "out": self.out[:],
            "round": self.round,
            "current": self.current,
            "turn": self.turn,
            "step": self.step,
            "setup_seat": self.setup_seat,
            "plan": [o.to_dict() for o in self.plan],
            "window": self.window.to_dict() if self.window else None,
            "bans": self.bans[:],
            "frozen": self.frozen,
            "battle": self.battle.to_dict() if self.battle else None,
            "interrupts": [i.to_dict() for i in self.interrupts],
            "gifts": self.gifts[:],
            "bonus_drawn": self.bonus_drawn,
            "bought": self.bought,
            "winners": self.winners[:],
            "end_reason": self.end_reason,
        }

    @staticmethod
    def from_dict(data: Any, checked: bool = True) -> EaState:
        """Rebuild a state stored with :meth:`to_dict`, validated (unless ``checked`` is
        False: a copy of a state already known to be sound).

        Raises:
            InvalidState: unknown schema, corrupt or inconsistent data.
        """
        try:
            if data["schema"] != SCHEMA:
                raise InvalidState(f"unknown Europe at War schema {data['schema']!r}")
            nations = [str(n) for n in data["nations"]]
            if any(n not in NATIONS for n in nations) or len(set(nations)) != len(nations):
                raise InvalidState("stored Europe at War nations are unknown or doubled")
            g = EaState(nations, options_from_stored(data["options"]), 0)
            g.origins = [int(o) for o in data["origins"]]
            g.rng = Rng(int(data["rng"]))
            for row in data["units"]:
                u = Unit.from_list(row)
                g.units[u.id] = u
                insort(g.where.setdefault(u.space, {}).setdefault(u.owner, []), u.id)
            g.piles = [[int(x) for x in p] for p in data["piles"]]
            g.aside = [int(x) for x in data["aside"]]
            g.drawn = [[int(x) for x in d] for d in data["drawn"]]
            g.arrived = {str(k): int(v) for k, v in data["arrived"].items()}
            g.tops = {str(k): int(v) for k, v in data["tops"].items()}
            g.clock = int(data["clock"])
            g.turn_clock = int(data["turn_clock"])
            g.control = {str(k): int(v) for k, v in data["control"].items()}
            g.treasury = [int(x) for x in data["treasury"]]
            g.deposits = {str(k): int(v) for k, v in data["deposits"].items()}
            g.income = {str(k): int(v) for k, v in data["income"].items()}
            g.card_revenue = int(data["card_revenue"])
            g.hands = [[str(c) for c in h] for h in data["hands"]]
            g.deck = [str(c) for c in data["deck"]]
            g.discard = [str(c) for c in data["discard"]]
            g.table = [str(c) for c in data["table"]]
            g.seen = [{str(k): [str(c) for c in v] for k, v in s.items()} for s in data["seen"]]
            g.out = [bool(x) for x in data["out"]]
            g.round = int(data["round"])
            g.current = int(data["current"])
            g.turn = int(data["turn"])
            g.step = str(data["step"])
            g.setup_seat = int(data["setup_seat"])
            g.plan = []
            for d in data["plan"]:
                o = Order()
                o.load(d)
                g.plan.append(o)
            g.window = None
            if data["window"] is not None:
                g.window = Window()
                g.window.load(data["window"])
            g.bans = [int(s) for s in data["bans"]]
            g.frozen = bool(data["frozen"])
            g.battle = None
            if data["battle"] is not None:
                g.battle = Battle()
                g.battle.load(data["battle"])
            g.interrupts = []
            for d in data["interrupts"]:
                i = Interrupt()
                i.load(d)
                g.interrupts.append(i)
            g.gifts = [int(x) for x in data["gifts"]]
            g.bonus_drawn = bool(data["bonus_drawn"])
            g.bought = int(data["bought"])
            g.winners = [int(s) for s in data["winners"]]
            g.end_reason = str(data["end_reason"])
        except InvalidState:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidState(f"a stored Europe at War game is corrupt: {exc!r}") from exc
        if checked:
            from .validate import validate

            validate(g)
        return g

    def copy(self) -> EaState:
        """An independent copy (forced chance outcomes included)."""
        twin = self.clone()
        twin.forced = self.forced[:]
        return twin

    def clone(self) -> EaState:
        """An independent copy of the stored part (what :meth:`to_dict` holds)."""
        g = EaState.__new__(EaState)
        g.nations = self.nations[:]
        g.options = self.options
        g.map = self.map
        g.chits = self.chits
        g.origins = self.origins[:]
        g.rng = Rng(self.rng.state)
        g.forced = []
        g.chance_steps = []
        g.units = {}
        for uid, u in self.units.items():
            v = Unit(uid, u.owner, u.space)
            v.rep, v.moves, v.free_used = u.rep, u.moves, u.free_used
            v.came_from, v.landed = u.came_from, u.landed
            g.units[uid] = v
        g.where = {s: {k: v[:] for k, v in d.items()} for s, d in self.where.items()}
        g.piles = [p[:] for p in self.piles]
        g.aside = self.aside[:]
        g.drawn = [d[:] for d in self.drawn]
        g.arrived = dict(self.arrived)
        g.tops = dict(self.tops)
        g.clock, g.turn_clock = self.clock, self.turn_clock
        g.control = dict(self.control)
        g.treasury = self.treasury[:]
        g.deposits = dict(self.deposits)
        g.income = dict(self.income)
        g.card_revenue = self.card_revenue
        g.hands = [h[:] for h in self.hands]
        g.deck = self.deck[:]
        g.discard = self.discard[:]
        g.table = self.table[:]
        g.seen = [{k: v[:] for k, v in s.items()} for s in self.seen]
        g.out = self.out[:]
        g.round, g.current, g.turn, g.step = self.round, self.current, self.turn, self.step
        g.setup_seat = self.setup_seat
        g.plan = [_copy_record(o, Order()) for o in self.plan]
        g.window = None
        if self.window is not None:
            g.window = Window()
            g.window.load(self.window.to_dict())
        g.bans = self.bans[:]
        g.frozen = self.frozen
        g.battle = None
        if self.battle is not None:
            g.battle = Battle()
            g.battle.load(self.battle.to_dict())
        g.interrupts = [_copy_record(i, Interrupt()) for i in self.interrupts]
        g.gifts = self.gifts[:]
        g.bonus_drawn, g.bought = self.bonus_drawn, self.bought
        g.winners = self.winners[:]
        g.end_reason = self.end_reason
        g.projections = {}
        return g

    def state_hash(self) -> str:
        """A digest of the whole state (replays compare it step by step)."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return sha256(text.encode()).hexdigest()

    # ------------------------------------------------------------------ the contract
    @property
    def game_name(self) -> str:
        """The registry name."""
        return NAME

    @property
    def sides(self) -> list[str]:
        """Each seat's nation."""
        return self.nations

    def result(self) -> Result | None:
        """The winners once the game is over (EA-35)."""
        if not self.over:
            return None
        return Result(tuple(self.winners), False, self.end_reason)

    def deciders(self) -> list[Decision]:
        """Who must decide now (several at once in a window)."""
        from .flow import deciders

        return deciders(self)

    def legal_actions(self, seat: int) -> list[Any]:
        """Every legal action of ``seat`` now."""
        from .flow import legal

        return list(legal(self, seat))

    def kinds(self, seat: int) -> tuple[str, ...]:
        """The action kinds ``seat`` may take now."""
        return kinds_of(self.legal_actions(seat))

    def values(self, seat: int, kind: str, chosen: Mapping[str, Value]) -> tuple[Value, ...]:
        """The legal values of ``kind``'s next parameter given ``chosen``."""
        return values_of((a for a in self.legal_actions(seat) if a.kind == kind), kind, chosen)

    def is_legal(self, seat: int, action: Any) -> bool:
        """True when ``seat`` may take ``action`` now."""
        from .actions import ACTION_TYPES, Timeout
        from .flow import check

        if self.over or type(action) not in ACTION_TYPES.values() or isinstance(action, Timeout):
            return False
        return check(self, seat, action) is None

    def apply(self, seat: int, action: Any) -> list[Event]:
        """Check and apply ``action`` by ``seat``; return the events it caused.

        Raises:
            GameOver, NotYourTurn, IllegalAction: refused; the state is unchanged.
        """
        from .actions import ACTION_TYPES
        from .flow import apply

        if type(action) not in ACTION_TYPES.values():
            raise IllegalAction(_("That is not a Europe at War action."))
        try:
            events = apply(self, seat, action)
        except RulesError:
            self.chance_steps.clear()
            raise
        steps, self.chance_steps = self.chance_steps, []
        return steps + events

    def on_timeout(self, decision: Decision) -> OnTimeout:
        """Every decision has a default (see :mod:`.suggest`)."""
        from .actions import Timeout

        return OnTimeout(Timeout())

    def view_for(self, seat: int | None) -> Any:
        """What ``seat`` (``None``: a spectator) may know."""
        from .view import view_for

        return view_for(self, seat)

    def force_chance(self, outcomes: Sequence[Any]) -> None:
        """The next chance steps come out as ``outcomes``."""
        self.forced.extend(outcomes)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EaState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

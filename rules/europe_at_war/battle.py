"""Battles (EA-16 to EA-26): where they are, who attacks, which cards are legal, each
side's Force as a breakdown (EA-19, EA-20), the casualties (EA-22) and the retreat
(EA-24). The steps and decisions that drive a battle are in :mod:`.flow`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import floor

from .data import Card, deck
from .state import Battle, EaState, Play

KIND_MODIFIER = {
    "battle": {"cavalry": 1, "artillery": -1},
    "siege": {"cavalry": -1, "artillery": 1},
    "sea": {},
}
"""EA-19: Force by battle kind for cavalry and artillery."""
LEADER_ADVANTAGE = 5
"""EA-21: the side that alone has a leader."""
CITY_DEFENCE = 2
"""EA-19: each defending unit in a Major City or a Capital."""


# ---------------------------------------------------------------------------- where
def battles_due(g: EaState) -> list[tuple[str, int]]:
    """EA-16, EA-17: every (space, opponent) where the active player's units meet
    another player's, less those a Diplomacy card forbids (EA-33)."""
    me = g.current
    out = []
    for space in g.occupied():
        seats = g.seats_at(space)
        if me in seats:
            out += [(space, s) for s in seats if s != me and s not in g.bans]
    return out


def sides(g: EaState, space: str, opponent: int) -> tuple[int, int]:
    """EA-16: (attacker, defender). The player whose units were there first defends; if
    both were there before this turn began, the active player attacks."""
    me = g.current
    mine = g.arrived.get(f"{me}|{space}", 0)
    theirs = g.arrived.get(f"{opponent}|{space}", 0)
    if mine <= g.turn_clock and theirs <= g.turn_clock:
        return me, opponent
    return (me, opponent) if mine > theirs else (opponent, me)


def kind_of(g: EaState, space: str, a: int, b: int) -> str:
    """EA-16: ``sea``, ``siege`` (a Fortification on either side) or ``battle``."""
    if space in g.map.seas:
        return "sea"
    if any(g.kind(u).fort for s in (a, b) for u in g.stack(space, s)):
        return "siege"
    return "battle"


def leader_kind(b: Battle) -> str:
    """The leader that counts in this battle: an Admiral at sea, else a General (EA-21)."""
    return "admiral" if b.kind == "sea" else "general"


def has_leader(g: EaState, b: Battle, seat: int, experienced: bool = False) -> bool:
    """True when ``seat``'s stack holds a leader of the battle's kind (experienced: with
    reputation)."""
    want = leader_kind(b)
    return any(
        want in g.kind(u).classes and (not experienced or g.units[u].rep > 0)
        for u in g.stack(b.at, seat)
    )


def has_fort(g: EaState, b: Battle, seat: int) -> bool:
    """True when ``seat``'s stack holds a Fortification."""
    return any(g.kind(u).fort for u in g.stack(b.at, seat))


# ---------------------------------------------------------------------------- cards
def affected(b: Battle, play_seat: int, card: Card) -> int:
    """The seat whose stack ``card`` changes when ``play_seat`` plays it."""
    return play_seat if card.effect.who == "own" else b.other(play_seat)


def requirement_met(g: EaState, b: Battle, play_seat: int, card: Card) -> bool:
    """EA-33: "Leader gets" cards need a leader, "Experienced Leader" cards an
    experienced one, Fortification cards a Fortification, all in the affected stack."""
    e = card.effect
    target = affected(b, play_seat, card)
    if e.requires == "leader":
        return has_leader(g, b, target)
    if e.requires == "experienced_leader":
        return has_leader(g, b, target, experienced=True)
    if e.requires == "own_fort":
        return has_fort(g, b, target)
    return True


def destroy_targets(g: EaState, b: Battle, seat: int, card: Card) -> list[int]:
    """The opposing units a destroy-card may remove (the card player's choice)."""
    foe = b.other(seat)
    return [u for u in g.stack(b.at, foe) if g.kind(u).classes & card.effect.classes]


def card_playable(g: EaState, b: Battle, seat: int, card: Card) -> bool:
    """EA-18, EA-25, EA-33: ``card`` may be played by ``seat`` in this battle now."""
    e = card.effect
    if card.timing != "combat" or b.kind not in card.contexts:
        return False
    role = "attacker" if seat == b.attacker else "defender"
    if e.role not in ("any", role):
        return False
    if e.kind == "destroy_enemy_unit":
        return bool(destroy_targets(g, b, seat, card))
    return requirement_met(g, b, seat, card)


def live_plays(b: Battle) -> list[tuple[Play, Card]]:
    """The battle's cards in effect (not cancelled), Lost Orders left out."""
    cards = deck()
    return [
        (p, cards[p.card])
        for p in b.plays
        if not p.negated and cards[p.card].effect.kind != "negate_card"
    ]


# ---------------------------------------------------------------------------- Force
@dataclass(frozen=True, slots=True)
class UnitForce:
    """One unit's Force and where it comes from (EA-19)."""

    unit: int
    name: str
    printed: int
    reputation: int
    kind: int
    vs_forts: int
    city: int
    cards: int
    force: int


@dataclass(frozen=True, slots=True)
class Breakdown:
    """EA-20: a side's total, step by step: (units + leader advantage + flat cards) x
    multipliers, rounded down, never below 0."""

    seat: int
    units: tuple[UnitForce, ...]
    unit_sum: int
    leader: int
    flat: int
    multiplier: Fraction
    total: int

    def to_dict(self) -> dict[str, object]:
        """JSON form (for events and the view)."""
        return {
            "seat": self.seat,
            "units": [
                [
                    u.unit,
                    u.name,
                    u.printed,
                    u.reputation,
                    u.kind,
                    u.vs_forts,
                    u.city,
                    u.cards,
                    u.force,
                ]
                for u in self.units
            ],
            "unit_sum": self.unit_sum,
            "leader": self.leader,
            "flat": self.flat,
            "multiplier": str(self.multiplier),
            "total": self.total,
        }


def breakdown(g: EaState, b: Battle, seat: int) -> Breakdown:
    """EA-19, EA-20: ``seat``'s Force in battle ``b`` as it stands (C3: conditions are
    judged now, after destroy-cards)."""
    foe = b.other(seat)
    mods = KIND_MODIFIER[b.kind]
    foe_fort = has_fort(g, b, foe)
    in_city = (
        b.kind != "sea"
        and seat == b.defender
        and b.at in g.map.territories
        and g.map.territories[b.at].city
    )
    per_unit: list[tuple[int, frozenset[str]]] = []
    flat = 0
    multiplier = Fraction(1)
    for play, card in live_plays(b):
        e = card.effect
        if e.kind not in ("force_per_unit", "force_flat", "force_multiply"):
            continue
        if affected(b, play.seat, card) != seat or not requirement_met(g, b, play.seat, card):
            continue
        if e.kind == "force_per_unit":
            per_unit.append((e.amount, e.classes))
        elif e.kind == "force_flat":
            flat += e.amount
        else:
            multiplier *= e.factor
    lines = []
    for uid in g.stack(b.at, seat):
        k = g.kind(uid)
        rep = g.units[uid].rep if k.leader else 0
        kind_mod = sum(v for c, v in mods.items() if c in k.classes)
        vs = k.vs_forts if foe_fort else 0
        city = CITY_DEFENCE if in_city else 0
        cards = sum(amount for amount, classes in per_unit if classes & k.classes)
        force = max(0, k.force + rep + kind_mod + vs + city + cards)
        lines.append(UnitForce(uid, k.name, k.force, rep, kind_mod, vs, city, cards, force))
    unit_sum = sum(u.force for u in lines)
    leader = LEADER_ADVANTAGE if has_leader(g, b, seat) and not has_leader(g, b, foe) else 0
    total = max(0, floor((unit_sum + leader + flat) * multiplier))
    return Breakdown(seat, tuple(lines), unit_sum, leader, flat, multiplier, total)


def winner_of(att: Breakdown, dfn: Breakdown, b: Battle) -> int:
    """EA-20: the higher total wins; a tie goes to the defender."""
    return b.attacker if att.total > dfn.total else b.defender


# ---------------------------------------------------------------------------- losses
@dataclass(frozen=True, slots=True)
class Losses:
    """EA-22, C2: the loser's and the winner's losses after the cards, and the loser's
    Fortifications (all destroyed, counting toward ``loser``)."""

    base: int
    loser: int
    winner: int
    forts: int


def losses(g: EaState, b: Battle, winner: int) -> Losses:
    """EA-22: L = ceil(N/5), W = floor(max(L, F)/2); Rearguard Action halves L; the
    +1/-1 cards follow; each is clamped to its stack once, at the end."""
    loser = b.other(winner)
    n = len(g.stack(b.at, loser))
    forts = sum(1 for u in g.stack(b.at, loser) if g.kind(u).fort)
    base = -(-n // 5)
    lost = base
    won = max(base, forts) // 2
    plays = live_plays(b)
    if any(c.effect.kind == "halve_loser_casualties" for _, c in plays):
        lost //= 2
    for play, card in plays:
        e = card.effect
        if e.kind != "casualties":
            continue
        if e.target in ("loser", "both") or (e.target == "enemy" and play.seat == winner):
            lost += e.amount
        if e.target in ("winner", "both") or (e.target == "enemy" and play.seat == loser):
            won += e.amount
    lost = min(max(lost, 0), n)
    won = min(max(won, 0), len(g.stack(b.at, winner)))
    return Losses(base, lost, won, forts)


# ---------------------------------------------------------------------------- retreat
def retreat_spaces(g: EaState, b: Battle) -> list[str]:
    """EA-24, C10: where the loser's survivors may retreat: an adjacent space of their
    element with no other player's units; an attacker must use a space he entered from
    if one is legal (unless he landed from the sea)."""
    seat = b.loser
    here = b.at
    near = g.map.seas[here].adjacent if here in g.map.seas else g.map.territories[here].adjacent
    legal = [s for s in near if not g.foreign(s, seat)]
    if seat == b.attacker and not any(e in g.map.seas for e in b.entered):
        back = [s for s in legal if s in b.entered]
        if back:
            return back
    return legal

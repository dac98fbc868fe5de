"""Obviously wasteful actions: the list the computer players above easy must never take.

Each check looks at one decision the way its player could: the public position, its
own hand and what it learnt by espionage (the other hands are dealt at random from the
cards it has not seen, when odds are needed). :func:`silly` names the first waste an
action commits, or gives ``None``. The odds are counted here, by dealing, independently
of the computer players' own arithmetic.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import product

from rules.pyramids import (
    Action,
    Arm,
    Attack,
    GameState,
    Move,
    PlayCard,
    Retreat,
    Sabotage,
    Spy,
    StopAttack,
)
from rules.pyramids import cards as C
from rules.pyramids.state import DIPLOMACY, DUEL, TURN

CARD_LIMIT = (0, 1, 2, 3)
DEALS = 1500
"""Deals of the hidden cards per estimate (error about 0.01 near the thresholds)."""
HOPELESS_DUEL = 0.05
"""A duel card is wasted when the duel is won this rarely even if both sides play their
best cards from here on."""
HOPELESS_ATTACK = 0.15
"""An attack is thrown away when its duel is won this rarely (both sides' best cards)."""


def _unseen(g: GameState, seat: int) -> list[int]:
    """Cards whose place ``seat`` does not know."""
    seen = set(g.hands[seat]) | set(g.discard)
    if g.battle is not None:
        seen |= set(g.battle.attacker_cards) | set(g.battle.defender_cards)
    for cs in g.knowledge[seat].values():
        seen |= set(cs)
    return [c for c in range(52) if c not in seen]


def _deal_best(g: GameState, seat: int, other: int, slots: int, rng: random.Random) -> int:
    """One deal of ``other``'s hand as ``seat`` may imagine it: the sum of its best
    ``slots`` duel values."""
    known = list(g.knowledge[seat].get(other, ()))
    pool = _unseen(g, seat)
    need = max(0, len(g.hands[other]) - len(known))
    hand = known + rng.sample(pool, min(need, len(pool)))
    return sum(sorted((C.duel_value(c) for c in hand), reverse=True)[:slots])


def _best(cards: list[int], slots: int) -> int:
    return sum(sorted((C.duel_value(c) for c in cards), reverse=True)[: max(slots, 0)])


def duel_chance(g: GameState, seat: int, extra: int = 0) -> float:
    """``seat``'s chance to win the duel under way if both sides play their best cards
    from here on, as ``seat`` may judge it; ``extra`` is added to its own total (a card
    it just decided to play)."""
    b = g.battle
    assert b is not None
    attacker = seat == b.attacker
    other = b.defender if attacker else b.attacker
    mine = sum(C.duel_value(c) for c in (b.attacker_cards if attacker else b.defender_cards))
    theirs = sum(C.duel_value(c) for c in (b.defender_cards if attacker else b.attacker_cards))
    my_limit = CARD_LIMIT[b.attacker_size if attacker else b.defender_size]
    their_limit = CARD_LIMIT[b.defender_size if attacker else b.attacker_size]
    my_played = len(b.attacker_cards if attacker else b.defender_cards)
    their_played = len(b.defender_cards if attacker else b.attacker_cards)
    their_done = b.defender_done if attacker else b.attacker_done
    my_best = mine + extra + _best(g.hands[seat], my_limit - my_played)
    their_slots = 0 if their_done else their_limit - their_played
    rng = random.Random(7)
    wins = 0
    for _ in range(DEALS):
        their_best = theirs + (_deal_best(g, seat, other, their_slots, rng) if their_slots else 0)
        wins += my_best > their_best if attacker else my_best >= their_best
    return wins / DEALS


def _dice_total_chances(dice: int) -> dict[int, float]:
    out: dict[int, float] = {}
    for roll in product(range(1, 7), repeat=dice):
        out[sum(roll)] = out.get(sum(roll), 0.0) + 6.0**-dice
    return out


def attack_chance(g: GameState, seat: int, src: str, dst: str) -> float:
    """The chance that ``seat``'s attack from ``src`` on ``dst`` wins: its duel with
    both sides' best cards as ``seat`` may judge it (European War), or the dice (WW-3)."""
    defender, dsize = g.pieces[dst]
    if g.variant != "european_war":
        a, d = _dice_total_chances(g.pieces[src][1]), _dice_total_chances(dsize)
        return sum(pa * pd for sa, pa in a.items() for sd, pd in d.items() if sa > sd)
    mine = _best(g.hands[seat], CARD_LIMIT[g.pieces[src][1]])
    rng = random.Random(11)
    wins = sum(mine > _deal_best(g, seat, defender, CARD_LIMIT[dsize], rng) for _ in range(DEALS))
    return wins / DEALS


def _wins_next(g: GameState, seat: int) -> bool:
    """True when ``seat`` could end the game in its favour with a move on its next turn
    (an empty field that completes an occupation)."""
    h = g.copy()
    h.phase, h.current, h.battle, h.pending = TURN, seat, None, []
    h.special_over = h.attack_barred = False
    for a in h.legal_actions(seat):
        if isinstance(a, Move):
            k = h.copy()
            k._apply_unchecked(seat, a)
            if k.over and seat in k.winners:
                return True
    return False


def _arm_draws_nothing(g: GameState, seat: int, a: Action) -> str | None:
    if isinstance(a, Arm) and not g.pile and not g.discard:
        return "armed with both piles empty (draws no card)"
    return None


def _ace_for_a_figure(g: GameState, seat: int, a: Action) -> str | None:
    if not isinstance(a, Sabotage | Spy | StopAttack) or not a.ace:
        return None
    rank = C.JACK if isinstance(a, Sabotage) else C.QUEEN if isinstance(a, Spy) else C.KING
    if any(C.rank(c) == rank for c in g.hands[seat]):
        return f"spent an A for a {C.RANK_NAMES[rank]} it holds"
    return None


def _spy_on_a_known_hand(g: GameState, seat: int, a: Action) -> str | None:
    if isinstance(a, Spy):
        known = g.knowledge[seat].get(a.target, [])
        if len(known) == len(g.hands[a.target]) and sorted(known) == sorted(g.hands[a.target]):
            return "spied on a hand it already knows card by card"
    return None


def _duel_card(g: GameState, seat: int, a: Action) -> str | None:
    if g.phase != DUEL or not isinstance(a, PlayCard):
        return None
    b = g.battle
    assert b is not None
    attacker = seat == b.attacker
    mine = sum(C.duel_value(c) for c in (b.attacker_cards if attacker else b.defender_cards))
    theirs = sum(C.duel_value(c) for c in (b.defender_cards if attacker else b.attacker_cards))
    their_cards = b.defender_cards if attacker else b.attacker_cards
    their_limit = CARD_LIMIT[b.defender_size if attacker else b.attacker_size]
    other = b.defender if attacker else b.attacker
    their_done = (
        (b.defender_done if attacker else b.attacker_done)
        or len(their_cards) >= their_limit
        or not g.hands[other]
    )
    ahead = mine > theirs if attacker else mine >= theirs
    mandatory = attacker and not b.attacker_cards
    if mandatory:
        low = min(C.duel_value(c) for c in g.hands[seat])
        if C.duel_value(a.card) > low and duel_chance(g, seat) < HOPELESS_DUEL:
            return "a lost attack's one card that must be played was not its cheapest"
        return None
    if their_done and ahead:
        return "played a card in a duel already won"
    if duel_chance(g, seat) < HOPELESS_DUEL:
        return "played a card in a duel it cannot win"
    return None


def _hopeless_attack(g: GameState, seat: int, a: Action) -> str | None:
    if not isinstance(a, Attack):
        return None
    defender = g.pieces[a.dst][0]
    if a.dst in g.home_fields(seat) or _wins_next(g, defender):
        return None  # fighting for its own home, or against a win next turn
    if attack_chance(g, seat, a.src, a.dst) < HOPELESS_ATTACK:
        return "attacked with almost no chance to win the duel"
    return None


def _retreat_that_falls(g: GameState, seat: int, a: Action) -> str | None:
    if not isinstance(a, Retreat):
        return None
    b = g.battle
    assert b is not None
    home = g.home_fields(seat)
    others_home = [f for f in home if f != b.dst and g.pieces.get(f, (-1, 0))[0] == seat]
    falls = b.dst in home and not others_home and a.field not in home
    if falls and any(f in home for f in b.retreat_options):
        return "retreated its last home piece abroad with a home field free"
    return None


def _stop_own_win(g: GameState, seat: int, a: Action) -> str | None:
    if g.phase != DIPLOMACY or not isinstance(a, StopAttack):
        return None
    b = g.battle
    assert b is not None
    h = g.copy()
    h.phase = DUEL
    h.pending = []
    h.battle = b.copy()
    h.battle.attacker_cards = []
    h.battle.defender_cards = []
    h.rules.after_won_attack(h)
    ends = []
    if h.phase == "retreat":
        assert h.battle is not None
        for f in h.battle.retreat_options:
            k = h.copy()
            k._apply_unchecked(b.defender, Retreat(f))
            ends.append(k)
    else:
        ends.append(h)
    if all(k.over and seat in k.winners for k in ends):
        return "stopped an attack that would make it win"
    return None


CHECKS: tuple[Callable[[GameState, int, Action], str | None], ...] = (
    _arm_draws_nothing,
    _ace_for_a_figure,
    _spy_on_a_known_hand,
    _duel_card,
    _hopeless_attack,
    _retreat_that_falls,
    _stop_own_win,
)
"""The list of obviously wasteful actions."""


def silly(g: GameState, seat: int, action: Action) -> str | None:
    """The first waste ``action`` by ``seat`` commits in ``g``, or ``None``."""
    for check in CHECKS:
        why = check(g, seat, action)
        if why is not None:
            return why
    return None

"""The deck and own-turn cards (EA-5, EA-32, EA-34): draws, dice, chit draws, and the
effects of Revenue and Other cards, Squall and Mutiny.

Interpretations: a targeted stack must have a unit the card can take (no leader, no
Fortification; ships for the sea cards), so a card is never played on nothing; a
player robbed of RP (EA-28) chooses which deposits pay only when the choice matters (he
has several deposits and keeps some RP).
"""

from __future__ import annotations

from .. import chance
from ..events import Event
from .actions import Action, PlayAt, PlayCard, PlayOn
from .catalogue import _
from .data import Card, deck
from .state import HAND_LIMIT, EaState, Interrupt

NO_TARGET = frozenset({"gain_revenue", "draw_cards", "gain_units"})
ON_PLAYER = frozenset(
    {"opponent_loses_revenue", "steal_revenue", "opponent_discards", "look_at_hand"}
)
ON_STACK = frozenset({"stack_loses_units"})


# ---------------------------------------------------------------------------- chance
def roll(g: EaState, dice: str, why: str, events: list[Event]) -> int:
    """EA-34: roll 1D6 or 2D6 from the seeded generator; the roll is public."""
    count = 2 if dice == "2d6" else 1
    faces = [chance.below(g, 6, f"{dice} for {why}") + 1 for _n in range(count)]
    events.append(Event("rolled", {"seat": g.current, "dice": dice, "faces": faces, "why": why}))
    return sum(faces)


def draw_chits(g: EaState, seat: int, count: int, why: str) -> list[int]:
    """Draw ``count`` random chits from ``seat``'s pile (fewer if it holds fewer)."""
    pile = g.piles[seat]
    got = []
    for _n in range(min(count, len(pile))):
        got.append(pile.pop(chance.below(g, len(pile), f"chit for {why}")))
    return got


def draw(g: EaState, seat: int, count: int, why: str, events: list[Event]) -> None:
    """Draw ``count`` cards; an empty deck is replaced by the shuffled discard pile
    (EA-5). The cards are told to their drawer only."""
    got: list[str] = []
    for _n in range(count):
        if not g.deck:
            if not g.discard:
                break
            g.deck, g.discard = g.discard, []
            chance.shuffle(g, g.deck, "reshuffled deck")
            events.append(Event("reshuffled", {"count": len(g.deck)}))
        got.append(g.deck.pop())
    g.hands[seat].extend(got)
    events.append(Event("drew", {"seat": seat, "count": len(got), "why": why}))
    if got:
        events.append(Event("cards_received", {"seat": seat, "cards": got}, to=seat))


def draw_up_to(g: EaState, seat: int, why: str, events: list[Event]) -> None:
    """EA-26: draw up to 7."""
    short = HAND_LIMIT - len(g.hands[seat])
    if short > 0:
        draw(g, seat, short, why, events)


def enforce_limit(g: EaState, seat: int) -> None:
    """EA-5: after a draw, a hand over 7 is discarded down to 7 (the player chooses)."""
    if len(g.hands[seat]) > HAND_LIMIT and not any(
        i.kind == "hand" and i.seat == seat for i in g.interrupts
    ):
        g.interrupts.append(Interrupt("hand", seat))


def spend(g: EaState, seat: int, card: str) -> None:
    """A played card goes from the hand to the discard pile."""
    g.hands[seat].remove(card)
    g.discard.append(card)


# ---------------------------------------------------------------------------- own turn
def stack_targets(g: EaState, card: Card) -> list[tuple[str, int]]:
    """(space, seat) of every other player's stack ``card`` may hit (EA-32)."""
    sea = card.effect.domain == "sea"
    out = []
    for space in g.occupied():
        if (space in g.map.seas) != sea:
            continue
        for seat in g.seats_at(space):
            if seat != g.current and victims(g, space, seat, card):
                out.append((space, seat))
    return out


def victims(g: EaState, space: str, seat: int, card: Card) -> list[int]:
    """The units of that stack the card may take at random: ships for the sea cards,
    otherwise any but leaders and Fortifications (EA-32)."""
    stack = g.stack(space, seat)
    if card.effect.domain == "sea":
        return [u for u in stack if g.kind(u).type == "S"]
    return [u for u in stack if not g.kind(u).leader and not g.kind(u).fort]


def others(g: EaState) -> list[int]:
    """The other players still in the game."""
    return [s for s in range(g.player_count) if s != g.current and not g.out[s]]


def own_turn_plays(g: EaState, seat: int) -> list[Action]:
    """EA-32: the own-turn cards ``seat`` may play now, with their targets."""
    cards = deck()
    out: list[Action] = []
    for cid in dict.fromkeys(g.hands[seat]):
        card = cards[cid]
        if card.timing != "own_turn":
            continue
        kind = card.effect.kind
        if kind in NO_TARGET:
            out.append(PlayCard(cid))
        elif kind in ON_PLAYER:
            out += [PlayOn(cid, s) for s in others(g)]
        else:
            out += [PlayAt(cid, at, s) for at, s in stack_targets(g, card)]
    return out


def check_own_turn(g: EaState, seat: int, action: Action) -> str | None:
    """Why an own-turn card play is refused, or ``None``."""
    card = deck().get(getattr(action, "card", ""))
    if card is None or card.id not in g.hands[seat] or card.timing != "own_turn":
        return _("Play an own-turn card from your hand (EA-32).")
    kind = card.effect.kind
    if isinstance(action, PlayCard) and kind in NO_TARGET:
        return None
    if isinstance(action, PlayOn) and kind in ON_PLAYER:
        return None if action.seat in others(g) else _("Choose another player still in the game.")
    if isinstance(action, PlayAt) and kind in ON_STACK:
        if (action.at, action.seat) in stack_targets(g, card):
            return None
        return _("Choose another player's stack with a unit the card can take (EA-32).")
    if kind in NO_TARGET:
        return _("{card} is played without a target.").format(card=_(card.name))
    if kind in ON_PLAYER:
        return _("{card} is played on another player.").format(card=_(card.name))
    return _("{card} is played on another player's stack.").format(card=_(card.name))


def play_own_turn(g: EaState, seat: int, action: Action, events: list[Event]) -> None:
    """Carry out a checked own-turn card (it cannot be cancelled, EA-32)."""
    assert isinstance(action, (PlayCard, PlayOn, PlayAt))
    card = deck()[action.card]
    e = card.effect
    spend(g, seat, card.id)
    target = getattr(action, "seat", None)
    data: dict[str, object] = {"seat": seat, "card": card.id}
    if target is not None:
        data["target"] = target
    if isinstance(action, PlayAt):
        data["at"] = action.at
    events.append(Event("card_played", data))
    if e.kind == "gain_revenue":
        amount = roll(g, e.dice, card.name, events)
        g.treasury[seat] += amount
        g.card_revenue += amount
        events.append(Event("revenue_gained", {"seat": seat, "amount": amount}))
    elif e.kind in ("opponent_loses_revenue", "steal_revenue"):
        assert target is not None
        amount = min(roll(g, e.dice, card.name, events), g.treasury[target])
        thief = seat if e.kind == "steal_revenue" else -1
        take_rp(g, target, amount, thief, events)
    elif e.kind == "gain_units":
        got = draw_chits(g, seat, e.count, card.name)
        from .economy import placements

        keep = [u for u in got if placements(g, seat, u)]
        for u in got:
            if u not in keep:
                g.piles[seat].append(u)
        g.piles[seat].sort()
        g.gifts = keep
        events.append(Event("chits_drawn", {"seat": seat, "count": len(keep)}))
        if keep:
            events.append(Event("gifts", {"chits": keep[:], "names": g.names_of(keep)}, to=seat))
            g.interrupts.append(Interrupt("place", seat))
    elif e.kind == "draw_cards":
        draw(g, seat, e.count, card.name, events)
        enforce_limit(g, seat)
    elif e.kind == "look_at_hand":
        assert target is not None
        g.seen[seat][str(target)] = sorted(g.hands[target])
        events.append(
            Event("hand_seen", {"seat": target, "cards": g.seen[seat][str(target)]}, to=seat)
        )
        if e.then_draw:
            draw(g, seat, e.then_draw, card.name, events)
            enforce_limit(g, seat)
    elif e.kind == "opponent_discards":
        assert target is not None
        hand = g.hands[target]
        lost = []
        for _n in range(min(e.count, len(hand))):
            lost.append(hand.pop(chance.below(g, len(hand), f"discard for {card.name}")))
        g.discard += lost
        events.append(Event("discarded", {"seat": target, "cards": lost}))
    elif e.kind == "stack_loses_units":
        assert isinstance(action, PlayAt)
        pool = victims(g, action.at, action.seat, card)
        lost_units = []
        for _n in range(min(e.count, len(pool))):
            uid = pool.pop(chance.below(g, len(pool), f"unit for {card.name}"))
            lost_units.append(g.kind(uid).name)
            g.remove(uid)
        where = {"seat": action.seat, "at": action.at}
        events.append(Event("units_lost", {**where, "count": len(lost_units)}))
        events.append(Event("units_lost_named", {**where, "units": lost_units}, to=action.seat))


def take_rp(g: EaState, victim: int, amount: int, thief: int, events: list[Event]) -> None:
    """EA-28: ``victim`` loses ``amount`` RP from his deposits (``thief`` gains them as
    card revenue); he chooses which deposits pay when the choice matters."""
    if amount <= 0:
        events.append(Event("rp_lost", {"seat": victim, "amount": 0, "thief": thief}))
        return
    mine = [s for s, rp in sorted(g.deposits.items()) if rp > 0 and g.control.get(s) == victim]
    if len(mine) > 1 and amount < g.treasury[victim]:
        g.interrupts.append(Interrupt("loss", victim, amount, thief))
        return
    left = amount
    for space in mine:
        paid = min(left, g.deposits[space])
        pay_from(g, victim, space, paid)
        left -= paid
    g.treasury[victim] -= left  # money not on the map (none between turns)
    settle_loss(g, victim, amount, thief, events)


def pay_from(g: EaState, victim: int, space: str, amount: int) -> None:
    """Take ``amount`` from the deposit at ``space``."""
    g.deposits[space] -= amount
    if not g.deposits[space]:
        del g.deposits[space]
    g.treasury[victim] -= amount


def settle_loss(g: EaState, victim: int, amount: int, thief: int, events: list[Event]) -> None:
    """The loss is paid: the thief, if any, gains it as card revenue."""
    if thief >= 0:
        g.treasury[thief] += amount
        g.card_revenue += amount
    events.append(Event("rp_lost", {"seat": victim, "amount": amount, "thief": thief}))

"""Europe at War in words: a sentence for every event, a label for every action.

Every sentence uses only what its reader may know: a public event's sentence names no
card of any hand and no unit of a hidden stack (a land move says where a group went, not
who is in it; units lost to a card or disbanded are counted, and named only to their
owner); a private event is worded for its one reader.

Every sentence is made in the current language (:mod:`rules.i18n`); card, unit and space names
come from the data files and are translated where they are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .actions import FLEET, unit_of
from .catalogue import N_, _, n_
from .data import deck, game_map

NATION_NAMES = {
    "france": N_("France"),
    "britain": N_("Britain"),
    "prussia": N_("Prussia"),
    "austria": N_("Austria"),
    "russia": N_("Russia"),
}
"""Each nation's name in English (:func:`nation_name` in the current language)."""
DICE = {"1d6": "1D6", "2d6": "2D6"}
WINDOWS = {"w1": "W1", "w2": "W2"}
DECISIONS = {
    "setup": N_("placing units"),
    "discard": N_("the Draw Phase"),
    "hand": N_("discarding down to 7"),
    "plan": N_("the move plan"),
    "w1": N_("window W1"),
    "w2": N_("window W2"),
    "answer": N_("an answer to the cards played"),
    "battle": N_("choosing a battle"),
    "cards": N_("battle cards"),
    "sealed": N_("sealed battle cards"),
    "casualties": N_("casualties"),
    "capture": N_("Capture Ship"),
    "retreat": N_("the retreat"),
    "recruit": N_("recruiting"),
    "place": N_("placing free units"),
    "upkeep": N_("upkeep"),
    "deposit": N_("deposits"),
    "loss": N_("paying a loss"),
}
"""What each decision is called (:func:`decision_name` in the current language)."""
KINDS = {"battle": N_("Battle"), "siege": N_("Siege"), "sea": N_("Sea battle")}
REASONS = {"territories": N_("most territories"), "last standing": N_("last player standing")}
WHY = (N_("deal"), N_("recruiting"), N_("draw phase"), N_("after battle"))
"""The reasons a draw or a roll gives other than a card's name."""


def _in_words(table: Mapping[str, str], key: str) -> str:
    """``key``'s message in ``table`` in the current language (``key`` itself if none)."""
    found = table.get(key)
    return _(found) if found else key


def nation_name(nation: str) -> str:
    """A nation's name ("France") in the current language."""
    return _in_words(NATION_NAMES, nation)


def decision_name(kind: str) -> str:
    """What a decision is called ("the move plan") in the current language."""
    return _in_words(DECISIONS, kind)


def kind_name(kind: str) -> str:
    """A battle's kind ("Siege") in the current language."""
    return _in_words(KINDS, kind)


def reason_text(reason: str) -> str:
    """Why the game was won ("most territories") in the current language."""
    return _in_words(REASONS, reason)


def window_name(window: str) -> str:
    """A window's name ("W1")."""
    return WINDOWS.get(window, window)


def space_namer(view: Any) -> Callable[[str], str]:
    """A space's name on the view's map, in the current language."""
    return game_map(bool(getattr(view, "compact", False))).name


def card_name(card: str) -> str:
    """A card's printed name, in the current language."""
    c = deck().get(card)
    return _(c.name) if c else card


def unit_word(name: str) -> str:
    """A unit's name from the data ("Hussars"), in the current language."""
    return _(name) if name else name


def cards_text(cards: Sequence[str]) -> str:
    """Card names in a row ("nothing" for none)."""
    return ", ".join(card_name(c) for c in cards) or _("nothing")


def listing(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) < 2:
        return "".join(items)
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


# ---------------------------------------------------------------------------- events
def describe(event: Any, view: Any, names: Sequence[str]) -> str | None:
    """One sentence for ``event`` (``None``: the hidden record of chance)."""
    d = event.data
    space = space_namer(view)

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "?"

    k = event.kind
    writer = _WRITERS.get(k)
    if writer is None:
        return None
    return writer(d, who, space)


Who = Callable[[int], str]
Space = Callable[[str], str]


def _started(d: dict[str, Any], who: Who, space: Space) -> str:
    order = [nation_name(n) for n in d["nations"]]
    return _("Europe at War begins. Seat order: {order}.").format(order=", ".join(order))


def _setup_draw(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("Your starting units: {units}. Place them in your home country.").format(
        units=_chits(d)
    )


def _chits(d: dict[str, Any]) -> str:
    named = zip(d["chits"], d["names"], strict=True)
    return ", ".join(f"{unit_word(n)} (u{c})" for c, n in named) or _("none")


def _placed(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} places a unit in {at}.").format(who=who(d["seat"]), at=space(d["at"]))


def _setup_done(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("Every player has placed his units; 5 cards are dealt to each. Round 1 begins.")


def _turn(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("Round {round}: {who}'s turn.").format(round=d["round"], who=who(d["seat"]))


def why_text(why: str) -> str:
    """Why cards were drawn or dice rolled: a card's name or a step, in the current
    language."""
    return card_name(why) if why in deck() else _(why) if why else why


def _drew(d: dict[str, Any], who: Who, space: Space) -> str:
    why = d.get("why", "")
    n = d["count"]
    if why:
        return n_("{who} draws {n} card ({why}).", "{who} draws {n} cards ({why}).", n).format(
            who=who(d["seat"]), n=n, why=why_text(why)
        )
    return n_("{who} draws {n} card.", "{who} draws {n} cards.", n).format(who=who(d["seat"]), n=n)


def _cards_received(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("You draw {cards}.").format(cards=cards_text(d["cards"]))


def _reshuffled(d: dict[str, Any], who: Who, space: Space) -> str:
    n = d["count"]
    return n_(
        "The deck is empty: the discard pile ({n} card) is shuffled.",
        "The deck is empty: the discard pile ({n} cards) is shuffled.",
        n,
    ).format(n=n)


def _discarded(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} discards {cards}.").format(who=who(d["seat"]), cards=cards_text(d["cards"]))


def _plan(d: dict[str, Any], who: Who, space: Space) -> str:
    orders = d["orders"]
    if not orders:
        return _("{who} gives no orders this turn.").format(who=who(d["seat"]))
    parts = [f"{n}. {order_text(o, who, space)}" for n, o in enumerate(orders, start=1)]
    return _("{who}'s plan: {orders}.").format(who=who(d["seat"]), orders="; ".join(parts))


def order_text(o: dict[str, Any], who: Who, space: Space) -> str:
    """One order of a plan as everyone sees it."""
    if o["kind"] == "compel":
        return _("{card}: {who}'s stack in {at} to {dest}").format(
            card=card_name(o["card"]), who=who(o["seat"]), at=space(o["at"]), dest=space(o["dest"])
        )
    path = " > ".join(space(s) for s in o["path"])
    pay = _("free move") if o["pay"] == "free" else card_name(o["pay"])
    drops = [_("{n} in {at}").format(n=n, at=space(at)) for at, n in o.get("drops", ())]
    if drops:
        return _("{path} ({pay}), dropping {drops}").format(
            path=path, pay=pay, drops=listing(drops)
        )
    return f"{path} ({pay})"


def _window(d: dict[str, Any], who: Who, space: Space) -> str:
    name = window_name(d["window"])
    seats = [who(s) for s in d["seats"]]
    if not seats:
        return _("Window {name}: nobody is asked.").format(name=name)
    return _("Window {name} is open to {players}.").format(name=name, players=listing(seats))


def _window_answered(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} has answered in {window}.").format(
        who=who(d["seat"]), window=window_name(d["window"])
    )


def _submitted(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("You choose {card}; it is shown when everyone has chosen.").format(
        card=card_name(d["card"])
    )


def _revealed(d: dict[str, Any], who: Who, space: Space) -> str:
    name = window_name(d["window"])
    plays = [reaction_text(r, who, space) for r in d["reactions"]]
    if not plays:
        return _("Window {name}: no card is played.").format(name=name)
    return _("Window {name}: {plays}.").format(name=name, plays="; ".join(plays))


def reaction_text(r: dict[str, Any], who: Who, space: Space) -> str:
    """A card played in a window, and on what."""
    seat, card = who(r["seat"]), card_name(r["card"])
    if r.get("order"):
        return _("{who} plays {card} against order {order}").format(
            who=seat, card=card, order=r["order"]
        )
    if r.get("at"):
        return _("{who} plays {card} from {at} to {dest}").format(
            who=seat, card=card, at=space(r["at"]), dest=space(r["dest"])
        )
    if r.get("via"):
        return _("{who} plays {card} to {dest}").format(who=seat, card=card, dest=space(r["dest"]))
    return _("{who} plays {card}").format(who=seat, card=card)


def _lost_orders(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} plays Lost Orders on {card}.").format(
        who=who(d["seat"]), card=card_name(d["target"])
    )


def _w1_resolved(d: dict[str, Any], who: Who, space: Space) -> str:
    parts = []
    if d["cancelled"]:
        parts.append(_("Lost Orders cancels {cards}").format(cards=cards_text(d["cancelled"])))
    if d["bans"]:
        parts.append(
            _("no move into or battle against {players}").format(
                players=listing([who(s) for s in d["bans"]])
            )
        )
    if d["frozen"]:
        parts.append(_("Winter Quarters: every order is cancelled"))
    if not parts:
        return _("Window W1 closes.")
    return _("Window W1 closes: {what}.").format(what="; ".join(parts))


def _order(d: dict[str, Any], who: Who, space: Space) -> str:
    n, status = d["number"], d["status"]
    if status == "cancelled":
        return _("Order {n} is cancelled.").format(n=n)
    if status == "skipped":
        return _("Order {n} can no longer be carried out: it is skipped.").format(n=n)
    if "path" not in d:
        return _("Order {n} is carried out.").format(n=n)
    return _("Order {n}: {route}.").format(n=n, route=route_text(d, space, who(d["seat"])))


def route_text(d: dict[str, Any], space: Space, mover: str) -> str:
    """A carried-out move in public words, ``mover`` (a player's name) its subject."""
    path = " > ".join(space(s) for s in d["path"])
    if d.get("shape") == "sea":
        carried = n_("{n} unit", "{n} units", d["carried"]).format(n=d["carried"])
        return n_(
            "{who} ships {units} on {n} ship: {path}",
            "{who} ships {units} on {n} ships: {path}",
            d["ships"],
        ).format(who=mover, units=carried, n=d["ships"], path=path)
    if d.get("shape") == "ships":
        return _("{who} sails {path}").format(who=mover, path=path)
    return _("{who} moves {path}").format(who=mover, path=path)


def _reaction(d: dict[str, Any], who: Who, space: Space) -> str:
    card, seat = card_name(d["card"]), who(d["seat"])
    if d["status"] == "cancelled":
        return _("{who}'s {card} is cancelled.").format(who=seat, card=card)
    if d["status"] == "returned":
        return _("{who}'s {card} can no longer be played: it goes back to the hand.").format(
            who=seat, card=card
        )
    if d.get("at"):
        return _("{who}'s stack leaves {at} for {dest} ({card}).").format(
            who=seat, at=space(d["at"]), dest=space(d["dest"]), card=card
        )
    return _("{who} plays {card}.").format(who=seat, card=card)


def _interdiction(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("Interdiction: {route}.").format(route=route_text(d, space, who(d["seat"])))


def _battle(d: dict[str, Any], who: Who, space: Space) -> str:
    a, b = d["attacker"], d["defender"]
    stacks = d["stacks"]
    return _("{kind} in {at}: {attacker} ({units}) attacks {defender} ({their_units}).").format(
        kind=kind_name(d["kind"]),
        at=space(d["at"]),
        attacker=who(a),
        units=_units(stacks[str(a)]),
        defender=who(b),
        their_units=_units(stacks[str(b)]),
    )


def _units(unit_names: Sequence[str]) -> str:
    counts: dict[str, int] = {}
    for n in unit_names:
        counts[n] = counts.get(n, 0) + 1
    named = (unit_word(n) if c == 1 else f"{c} {unit_word(n)}" for n, c in counts.items())
    return ", ".join(named) or _("no units")


def _battle_card(d: dict[str, Any], who: Who, space: Space) -> str:
    seat, card = who(d["seat"]), card_name(d["card"])
    unit = unit_word(d.get("unit") or "")
    if d.get("target") and unit:
        return _("{who} plays {card} on {target}: {unit} destroyed.").format(
            who=seat, card=card, target=card_name(d["target"]), unit=unit
        )
    if d.get("target"):
        return _("{who} plays {card} on {target}.").format(
            who=seat, card=card, target=card_name(d["target"])
        )
    if unit:
        return _("{who} plays {card}: {unit} destroyed.").format(who=seat, card=card, unit=unit)
    return _("{who} plays {card}.").format(who=seat, card=card)


def _battle_pass(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} passes.").format(who=who(d["seat"]))


def _sealed_revealed(d: dict[str, Any], who: Who, space: Space) -> str:
    by: dict[int, list[str]] = {}
    for p in d["plays"]:
        by.setdefault(p["seat"], []).append(card_name(p["card"]))
    if not by:
        return _("Battle cards shown: none.")
    shown = "; ".join(f"{who(s)}: {', '.join(c)}" for s, c in by.items())
    return _("Battle cards shown: {shown}.").format(shown=shown)


def _battle_result(d: dict[str, Any], who: Who, space: Space) -> str:
    w = d["winner"]
    if d.get("empty"):
        return _("{who} wins the battle: no opposing unit is left.").format(who=who(w))
    att, dfn = d["attacker"], d["defender"]
    loser = dfn["seat"] if w == att["seat"] else att["seat"]
    high, low = max(att["total"], dfn["total"]), min(att["total"], dfn["total"])
    if high != low:
        score = _("{high} to {low}").format(high=high, low=low)
    else:
        score = _("{high} all, the defender holds").format(high=high)
    loses = n_("{n} unit", "{n} units", d["loser_loses"]).format(n=d["loser_loses"])
    keeps = n_("{n} unit", "{n} units", d["winner_loses"]).format(n=d["winner_loses"])
    return _(
        "{winner} wins the battle, {score}: {loser} loses {lost}, {winner} {winner_lost}."
    ).format(winner=who(w), score=score, loser=who(loser), lost=loses, winner_lost=keeps)


def _casualty(d: dict[str, Any], who: Who, space: Space) -> str:
    if d["aside"]:
        return _("{who} loses {unit} (set aside for the rest of the game).").format(
            who=who(d["seat"]), unit=unit_word(d["unit"])
        )
    return _("{who} loses {unit}.").format(who=who(d["seat"]), unit=unit_word(d["unit"]))


def _captured(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} captures a ship: {unit}.").format(who=who(d["seat"]), unit=unit_word(d["unit"]))


def _no_retreat(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who}'s survivors in {at} have nowhere to go and are lost.").format(
        who=who(d["seat"]), at=space(d["at"])
    )


def _retreated(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} falls back from {at} to {dest}.").format(
        who=who(d["seat"]), at=space(d["from"]), dest=space(d["to"])
    )


def _revenue(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} collects {amount} RP.").format(who=who(d["seat"]), amount=d["amount"])


def _chits_drawn(d: dict[str, Any], who: Who, space: Space) -> str:
    n = d["count"]
    return n_(
        "{who} draws {n} chit from the pile.", "{who} draws {n} chits from the pile.", n
    ).format(who=who(d["seat"]), n=n)


def _recruits(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("Your recruits to buy (cost = Force): {units}.").format(units=_chits(d))


def _recruited(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} recruits a unit in {at} for {cost} RP.").format(
        who=who(d["seat"]), at=space(d["at"]), cost=d["cost"]
    )


def _rolled(d: dict[str, Any], who: Who, space: Space) -> str:
    faces = d["faces"]
    shown = " + ".join(str(f) for f in faces) + (f" = {sum(faces)}" if len(faces) > 1 else "")
    return _("{who} rolls {dice} for {why}: {shown}.").format(
        who=who(d["seat"]), dice=DICE.get(d["dice"], d["dice"]), why=why_text(d["why"]), shown=shown
    )


def _card_played(d: dict[str, Any], who: Who, space: Space) -> str:
    seat, card = who(d["seat"]), card_name(d["card"])
    if "at" in d:
        return _("{who} plays {card} on {target}'s stack in {at}.").format(
            who=seat, card=card, target=who(d["target"]), at=space(d["at"])
        )
    if "target" in d:
        return _("{who} plays {card} on {player}.").format(
            who=seat, card=card, player=who(d["target"])
        )
    return _("{who} plays {card}.").format(who=seat, card=card)


def _revenue_gained(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} gains {amount} RP.").format(who=who(d["seat"]), amount=d["amount"])


def _rp_lost(d: dict[str, Any], who: Who, space: Space) -> str:
    if d["thief"] >= 0:
        return _("{thief} takes {amount} RP from {who}.").format(
            thief=who(d["thief"]), amount=d["amount"], who=who(d["seat"])
        )
    return _("{who} loses {amount} RP.").format(who=who(d["seat"]), amount=d["amount"])


def _loss_paid(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} pays {amount} RP from {at}.").format(
        who=who(d["seat"]), amount=d["amount"], at=space(d["at"])
    )


def _gifts(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("Free units for you: {units}. Place them in a Major City or Capital.").format(
        units=_chits(d)
    )


def _hand_seen(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} holds {cards}.").format(who=who(d["seat"]), cards=cards_text(d["cards"]))


def _units_lost(d: dict[str, Any], who: Who, space: Space) -> str:
    n = d["count"]
    return n_(
        "{who}'s stack in {at} loses {n} unit.", "{who}'s stack in {at} loses {n} units.", n
    ).format(who=who(d["seat"]), at=space(d["at"]), n=n)


def _units_lost_named(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("Your stack in {at} loses {units}.").format(
        at=space(d["at"]), units=listing([unit_word(u) for u in d["units"]])
    )


def _disbanded(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} disbands a unit in {at}.").format(who=who(d["seat"]), at=space(d["at"]))


def _disbanded_named(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("You disband {unit} in {at}.").format(unit=unit_word(d["unit"]), at=space(d["at"]))


def _upkeep_paid(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} pays {amount} RP of upkeep.").format(who=who(d["seat"]), amount=d["amount"])


def _deposited(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} leaves {amount} RP in {at}.").format(
        who=who(d["seat"]), amount=d["amount"], at=space(d["at"])
    )


def _savings_lost(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} has no city to keep {amount} RP in: they are lost.").format(
        who=who(d["seat"]), amount=d["amount"]
    )


def _control(d: dict[str, Any], who: Who, space: Space) -> str:
    taken = [space(t) for t in d["taken"]]
    if not taken:
        return _("{who} takes no territory.").format(who=who(d["seat"]))
    return _("{who} takes {spaces} ({n}).").format(
        who=who(d["seat"]), spaces=listing(taken), n=len(taken)
    )


def _eliminated(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} has no units left and is out of the game.").format(who=who(d["seat"]))


def _game_over(d: dict[str, Any], who: Who, space: Space) -> str:
    winners = listing([who(s) for s in d["winners"]])
    reason = reason_text(d["reason"])
    if len(d["winners"]) == 1:
        return _("Game over: {winners} wins ({reason}).").format(winners=winners, reason=reason)
    return _("Game over: {winners} share the win ({reason}).").format(
        winners=winners, reason=reason
    )


def _timed_out(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} ran out of time for {decision}: the default is taken.").format(
        who=who(d["seat"]), decision=decision_name(d["decision"])
    )


def _top(d: dict[str, Any], who: Who, space: Space) -> str:
    return _("{who} shows {unit} on top of its stack in {at}.").format(
        who=who(d["seat"]), unit=unit_word(d["unit"]), at=space(d["at"])
    )


_WRITERS: dict[str, Callable[[dict[str, Any], Who, Space], str]] = {
    "started": _started,
    "setup_draw": _setup_draw,
    "placed": _placed,
    "setup_done": _setup_done,
    "turn": _turn,
    "drew": _drew,
    "cards_received": _cards_received,
    "reshuffled": _reshuffled,
    "discarded": _discarded,
    "plan": _plan,
    "window": _window,
    "window_answered": _window_answered,
    "submitted": _submitted,
    "revealed": _revealed,
    "lost_orders": _lost_orders,
    "w1_resolved": _w1_resolved,
    "order": _order,
    "reaction": _reaction,
    "interdiction": _interdiction,
    "battle": _battle,
    "battle_card": _battle_card,
    "battle_pass": _battle_pass,
    "sealed_revealed": _sealed_revealed,
    "battle_result": _battle_result,
    "casualty": _casualty,
    "captured": _captured,
    "no_retreat": _no_retreat,
    "retreated": _retreated,
    "revenue": _revenue,
    "chits_drawn": _chits_drawn,
    "recruits": _recruits,
    "recruited": _recruited,
    "rolled": _rolled,
    "card_played": _card_played,
    "revenue_gained": _revenue_gained,
    "rp_lost": _rp_lost,
    "loss_paid": _loss_paid,
    "gifts": _gifts,
    "hand_seen": _hand_seen,
    "units_lost": _units_lost,
    "units_lost_named": _units_lost_named,
    "disbanded": _disbanded,
    "disbanded_named": _disbanded_named,
    "upkeep_paid": _upkeep_paid,
    "deposited": _deposited,
    "savings_lost": _savings_lost,
    "control": _control,
    "eliminated": _eliminated,
    "game_over": _game_over,
    "timed_out": _timed_out,
    "top": _top,
}
"""A sentence for each event kind the engine makes (``chance`` is hidden: none)."""
WORDED = frozenset(_WRITERS)


# ---------------------------------------------------------------------------- actions
def unit_label(ref: str, view: Any) -> str:
    """A unit or chit the viewer may see, by name and number ("Hussars (u12)")."""
    uid = unit_of(ref)
    if uid is None:
        return ref
    for u in _visible_units(view):
        if u.unit == uid:
            return f"{unit_word(u.name)} ({ref})"
    return ref


def unit_name(ref: str, view: Any) -> str:
    """What a unit the viewer may see is ("Infantry", a leader's name), or its ref."""
    uid = unit_of(ref)
    found = next((u for u in _visible_units(view) if u.unit == uid), None)
    return unit_word(found.name) if found is not None and uid is not None else ref


def _visible_units(view: Any) -> list[Any]:
    out: list[Any] = []
    for s in getattr(view, "stacks", ()):
        out += list(s.units or ())
    out += list(getattr(view, "drawn", None) or ())
    out += list(getattr(view, "gifts", None) or ())
    return out


def group_label(group: str, view: Any) -> str:
    """A moving group by its leader, or ships without an Admiral by their zone."""
    if group.startswith(FLEET):
        return _("ships in {at}").format(at=space_namer(view)(group[len(FLEET) :]))
    return unit_label(group, view)


def action_label(action: Any, view: Any, names: Sequence[str]) -> str:
    """A short label for one action, in the viewer's words."""
    space = space_namer(view)

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "?"

    k = action.kind
    a = action
    if k == "move":
        path = " > ".join(space(s) for s in a.via.split(">"))
        pay = _("free move") if a.pay == "free" else card_name(a.pay)
        return _("{group} to {path} ({pay})").format(
            group=group_label(a.group, view), path=path, pay=pay
        )
    if k == "drop":
        return _("drop {unit} in {at}").format(unit=unit_label(a.unit, view), at=space(a.at))
    if k == "compel":
        return _("{card}: {who}'s stack in {at} to {dest}").format(
            card=card_name(a.card), who=who(a.seat), at=space(a.at), dest=space(a.dest)
        )
    if k == "place":
        return _("place {unit} in {at}").format(unit=unit_label(a.chit, view), at=space(a.at))
    if k == "buy":
        return _("buy {unit} in {at}").format(unit=unit_label(a.chit, view), at=space(a.at))
    if k in UNIT_VERBS:
        return _(UNIT_VERBS[k]).format(unit=unit_label(a.unit, view))
    if k == "fight":
        return _("battle in {at} against {who}").format(at=space(a.at), who=who(a.seat))
    if k == "retreat":
        return _("fall back to {dest}").format(dest=space(a.dest))
    if k == "deposit":
        return _("leave {amount} RP in {at}").format(amount=a.amount, at=space(a.at))
    if k == "pay_loss":
        return _("pay {amount} RP from {at}").format(amount=a.amount, at=space(a.at))
    if k == "done" and getattr(view, "window", None) is not None:
        return _(QUIET["pass"])  # finishing a window is passing in it
    return _card_action_label(a, space, who, view)


UNIT_VERBS = {
    "casualty": N_("lose {unit}"),
    "capture": N_("take {unit}"),
    "disband": N_("disband {unit}"),
    "top": N_("show {unit} on top"),
}
"""The labels of the actions on one unit."""


def _card_action_label(a: Any, space: Space, who: Who, view: Any) -> str:
    k = a.kind
    if k == "discard":
        return _("discard {card}").format(card=card_name(a.card))
    if k in ("play", "battle_card", "react"):
        return _("play {card}").format(card=card_name(a.card))
    if k == "play_on":
        return _("play {card} on {who}").format(card=card_name(a.card), who=who(a.seat))
    if k == "play_at":
        return _("play {card} on {who}'s stack in {at}").format(
            card=card_name(a.card), who=who(a.seat), at=space(a.at)
        )
    if k == "negate":
        return _("{card} against order {order}").format(card=card_name(a.card), order=a.order)
    if k == "avoid":
        return _("{card}: from {at} to {dest}").format(
            card=card_name(a.card), at=space(a.at), dest=space(a.dest)
        )
    if k == "interdict":
        path = " > ".join(space(s) for s in a.via.split(">"))
        return _("{card}: {group} to {path}").format(
            card=card_name(a.card), group=group_label(a.group, view), path=path
        )
    if k == "destroy":
        return _("{card} on {unit}").format(card=card_name(a.card), unit=unit_label(a.unit, view))
    if k == "lost_orders":
        return _("Lost Orders on {card}").format(card=card_name(a.target))
    found = QUIET.get(k)
    return _(found) if found else str(k).replace("_", " ")


QUIET = {
    "pass": N_("pass"),
    "done": N_("done"),
    "submit": N_("show the plan"),
    "undo": N_("take back the last order"),
    "timeout": N_("let the time run out"),
}
"""The labels of the actions with no parameter (in English: translate them with ``_``)."""

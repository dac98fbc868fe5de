"""Europe at War in words: a sentence for every event, a label for every action.

Every sentence uses only what its reader may know: a public event's sentence names no
card of any hand and no unit of a hidden stack (a land move says where a group went, not
who is in it; units lost to a card or disbanded are counted, and named only to their
owner); a private event is worded for its one reader.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .actions import FLEET, unit_of
from .data import deck, game_map

NATION_NAMES = {
    "france": "France",
    "britain": "Britain",
    "prussia": "Prussia",
    "austria": "Austria",
    "russia": "Russia",
}
DICE = {"1d6": "1D6", "2d6": "2D6"}
WINDOWS = {"w1": "W1", "w2": "W2"}
DECISIONS = {
    "setup": "placing units",
    "discard": "the Draw Phase",
    "hand": "discarding down to 7",
    "plan": "the move plan",
    "w1": "window W1",
    "w2": "window W2",
    "answer": "an answer to the cards played",
    "battle": "choosing a battle",
    "cards": "battle cards",
    "sealed": "sealed battle cards",
    "casualties": "casualties",
    "capture": "Capture Ship",
    "retreat": "the retreat",
    "recruit": "recruiting",
    "place": "placing free units",
    "upkeep": "upkeep",
    "deposit": "deposits",
    "loss": "paying a loss",
}
"""What each decision is called."""
KINDS = {"battle": "Battle", "siege": "Siege", "sea": "Sea battle"}
REASONS = {"territories": "most territories", "last standing": "last player standing"}


def space_namer(view: Any) -> Callable[[str], str]:
    """A space's name on the view's map."""
    return game_map(bool(getattr(view, "compact", False))).name


def card_name(card: str) -> str:
    """A card's printed name."""
    c = deck().get(card)
    return c.name if c else card


def cards_text(cards: Sequence[str]) -> str:
    """Card names in a row ("nothing" for none)."""
    return ", ".join(card_name(c) for c in cards) or "nothing"


def plural(n: int, word: str) -> str:
    """'1 unit', '3 units'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def listing(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


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
    order = [NATION_NAMES.get(n, n) for n in d["nations"]]
    return f"Europe at War begins. Seat order: {', '.join(order)}."


def _setup_draw(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"Your starting units: {_chits(d)}. Place them in your home country."


def _chits(d: dict[str, Any]) -> str:
    return ", ".join(f"{n} (u{c})" for c, n in zip(d["chits"], d["names"], strict=True)) or "none"


def _placed(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} places a unit in {space(d['at'])}."


def _setup_done(d: dict[str, Any], who: Who, space: Space) -> str:
    return "Every player has placed his units; 5 cards are dealt to each. Round 1 begins."


def _turn(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"Round {d['round']}: {who(d['seat'])}'s turn."


def _drew(d: dict[str, Any], who: Who, space: Space) -> str:
    why = d.get("why", "")
    because = f" ({card_name(why) if why in deck() else why})" if why else ""
    return f"{who(d['seat'])} draws {plural(d['count'], 'card')}{because}."


def _cards_received(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"You draw {cards_text(d['cards'])}."


def _reshuffled(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"The deck is empty: the discard pile ({plural(d['count'], 'card')}) is shuffled."


def _discarded(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} discards {cards_text(d['cards'])}."


def _plan(d: dict[str, Any], who: Who, space: Space) -> str:
    orders = d["orders"]
    if not orders:
        return f"{who(d['seat'])} gives no orders this turn."
    parts = [f"{n}. {order_text(o, who, space)}" for n, o in enumerate(orders, start=1)]
    return f"{who(d['seat'])}'s plan: " + "; ".join(parts) + "."


def order_text(o: dict[str, Any], who: Who, space: Space) -> str:
    """One order of a plan as everyone sees it."""
    if o["kind"] == "compel":
        return (
            f"{card_name(o['card'])}: {who(o['seat'])}'s stack in {space(o['at'])} "
            f"to {space(o['dest'])}"
        )
    path = o["path"]
    pay = "free move" if o["pay"] == "free" else card_name(o["pay"])
    text = f"{' > '.join(space(s) for s in path)} ({pay})"
    drops = [f"{n} in {space(at)}" for at, n in o.get("drops", ())]
    return text + (f", dropping {listing(drops)}" if drops else "")


def _window(d: dict[str, Any], who: Who, space: Space) -> str:
    name = WINDOWS.get(d["window"], d["window"])
    seats = [who(s) for s in d["seats"]]
    if not seats:
        return f"Window {name}: nobody is asked."
    return f"Window {name} is open to {listing(seats)}."


def _window_answered(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} has answered in {WINDOWS.get(d['window'], d['window'])}."


def _submitted(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"You choose {card_name(d['card'])}; it is shown when everyone has chosen."


def _revealed(d: dict[str, Any], who: Who, space: Space) -> str:
    name = WINDOWS.get(d["window"], d["window"])
    plays = [reaction_text(r, who, space) for r in d["reactions"]]
    if not plays:
        return f"Window {name}: no card is played."
    return f"Window {name}: " + "; ".join(plays) + "."


def reaction_text(r: dict[str, Any], who: Who, space: Space) -> str:
    """A card played in a window, and on what."""
    text = f"{who(r['seat'])} plays {card_name(r['card'])}"
    if r.get("order"):
        return f"{text} against order {r['order']}"
    if r.get("at"):
        return f"{text} from {space(r['at'])} to {space(r['dest'])}"
    if r.get("via"):
        return f"{text} to {space(r['dest'])}"
    return text


def _lost_orders(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} plays Lost Orders on {card_name(d['target'])}."


def _w1_resolved(d: dict[str, Any], who: Who, space: Space) -> str:
    parts = []
    if d["cancelled"]:
        parts.append(f"Lost Orders cancels {cards_text(d['cancelled'])}")
    if d["bans"]:
        parts.append(f"no move into or battle against {listing([who(s) for s in d['bans']])}")
    if d["frozen"]:
        parts.append("Winter Quarters: every order is cancelled")
    return "Window W1 closes" + (": " + "; ".join(parts) if parts else "") + "."


def _order(d: dict[str, Any], who: Who, space: Space) -> str:
    n, status = d["number"], d["status"]
    if status == "cancelled":
        return f"Order {n} is cancelled."
    if status == "skipped":
        return f"Order {n} can no longer be carried out: it is skipped."
    if "path" not in d:
        return f"Order {n} is carried out."
    return f"Order {n}: {who(d['seat'])} {route_text(d, space)}."


def route_text(d: dict[str, Any], space: Space) -> str:
    """A carried-out move in public words."""
    path = " > ".join(space(s) for s in d["path"])
    if d.get("shape") == "sea":
        carried = plural(d["carried"], "unit")
        return f"ships {carried} on {plural(d['ships'], 'ship')}: {path}"
    if d.get("shape") == "ships":
        return f"sails {path}"
    return f"moves {path}"


def _reaction(d: dict[str, Any], who: Who, space: Space) -> str:
    card = card_name(d["card"])
    if d["status"] == "cancelled":
        return f"{who(d['seat'])}'s {card} is cancelled."
    if d["status"] == "returned":
        return f"{who(d['seat'])}'s {card} can no longer be played: it goes back to the hand."
    if d.get("at"):
        return f"{who(d['seat'])}'s stack leaves {space(d['at'])} for {space(d['dest'])} ({card})."
    return f"{who(d['seat'])} plays {card}."


def _interdiction(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"Interdiction: {who(d['seat'])} {route_text(d, space)}."


def _battle(d: dict[str, Any], who: Who, space: Space) -> str:
    kind = KINDS.get(d["kind"], d["kind"])
    a, b = d["attacker"], d["defender"]
    stacks = d["stacks"]
    return (
        f"{kind} in {space(d['at'])}: {who(a)} ({_units(stacks[str(a)])}) attacks "
        f"{who(b)} ({_units(stacks[str(b)])})."
    )


def _units(unit_names: Sequence[str]) -> str:
    counts: dict[str, int] = {}
    for n in unit_names:
        counts[n] = counts.get(n, 0) + 1
    return ", ".join(n if c == 1 else f"{c} {n}" for n, c in counts.items()) or "no units"


def _battle_card(d: dict[str, Any], who: Who, space: Space) -> str:
    text = f"{who(d['seat'])} plays {card_name(d['card'])}"
    if d.get("target"):
        text += f" on {card_name(d['target'])}"
    if d.get("unit"):
        text += f": {d['unit']} destroyed"
    return text + "."


def _battle_pass(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} passes."


def _sealed_revealed(d: dict[str, Any], who: Who, space: Space) -> str:
    by: dict[int, list[str]] = {}
    for p in d["plays"]:
        by.setdefault(p["seat"], []).append(card_name(p["card"]))
    if not by:
        return "Battle cards shown: none."
    shown = "; ".join(f"{who(s)}: {', '.join(c)}" for s, c in by.items())
    return f"Battle cards shown: {shown}."


def _battle_result(d: dict[str, Any], who: Who, space: Space) -> str:
    w = d["winner"]
    if d.get("empty"):
        return f"{who(w)} wins the battle: no opposing unit is left."
    att, dfn = d["attacker"], d["defender"]
    loser = dfn["seat"] if w == att["seat"] else att["seat"]
    high, low = max(att["total"], dfn["total"]), min(att["total"], dfn["total"])
    score = f"{high} to {low}" if high != low else f"{high} all, the defender holds"
    return (
        f"{who(w)} wins the battle, {score}: {who(loser)} loses "
        f"{plural(d['loser_loses'], 'unit')}, {who(w)} {plural(d['winner_loses'], 'unit')}."
    )


def _casualty(d: dict[str, Any], who: Who, space: Space) -> str:
    aside = " (set aside for the rest of the game)" if d["aside"] else ""
    return f"{who(d['seat'])} loses {d['unit']}{aside}."


def _captured(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} captures a ship: {d['unit']}."


def _no_retreat(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])}'s survivors in {space(d['at'])} have nowhere to go and are lost."


def _retreated(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} falls back from {space(d['from'])} to {space(d['to'])}."


def _revenue(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} collects {d['amount']} RP."


def _chits_drawn(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} draws {plural(d['count'], 'chit')} from the pile."


def _recruits(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"Your recruits to buy (cost = Force): {_chits(d)}."


def _recruited(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} recruits a unit in {space(d['at'])} for {d['cost']} RP."


def _rolled(d: dict[str, Any], who: Who, space: Space) -> str:
    faces = d["faces"]
    shown = " + ".join(str(f) for f in faces) + (f" = {sum(faces)}" if len(faces) > 1 else "")
    why = d["why"]
    return f"{who(d['seat'])} rolls {DICE.get(d['dice'], d['dice'])} for {why}: {shown}."


def _card_played(d: dict[str, Any], who: Who, space: Space) -> str:
    text = f"{who(d['seat'])} plays {card_name(d['card'])}"
    if "at" in d:
        text += f" on {who(d['target'])}'s stack in {space(d['at'])}"
    elif "target" in d:
        text += f" on {who(d['target'])}"
    return text + "."


def _revenue_gained(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} gains {d['amount']} RP."


def _rp_lost(d: dict[str, Any], who: Who, space: Space) -> str:
    if d["thief"] >= 0:
        return f"{who(d['thief'])} takes {d['amount']} RP from {who(d['seat'])}."
    return f"{who(d['seat'])} loses {d['amount']} RP."


def _loss_paid(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} pays {d['amount']} RP from {space(d['at'])}."


def _gifts(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"Free units for you: {_chits(d)}. Place them in a Major City or Capital."


def _hand_seen(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} holds {cards_text(d['cards'])}."


def _units_lost(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])}'s stack in {space(d['at'])} loses {plural(d['count'], 'unit')}."


def _units_lost_named(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"Your stack in {space(d['at'])} loses {listing(d['units'])}."


def _disbanded(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} disbands a unit in {space(d['at'])}."


def _disbanded_named(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"You disband {d['unit']} in {space(d['at'])}."


def _upkeep_paid(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} pays {d['amount']} RP of upkeep."


def _deposited(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} leaves {d['amount']} RP in {space(d['at'])}."


def _savings_lost(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} has no city to keep {d['amount']} RP in: they are lost."


def _control(d: dict[str, Any], who: Who, space: Space) -> str:
    taken = [space(t) for t in d["taken"]]
    if not taken:
        return f"{who(d['seat'])} takes no territory."
    return f"{who(d['seat'])} takes {listing(taken)} ({len(taken)})."


def _eliminated(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} has no units left and is out of the game."


def _game_over(d: dict[str, Any], who: Who, space: Space) -> str:
    winners = listing([who(s) for s in d["winners"]])
    verb = "wins" if len(d["winners"]) == 1 else "share the win"
    return f"Game over: {winners} {verb} ({REASONS.get(d['reason'], d['reason'])})."


def _timed_out(d: dict[str, Any], who: Who, space: Space) -> str:
    decision = DECISIONS.get(d["decision"], d["decision"])
    return f"{who(d['seat'])} ran out of time for {decision}: the default is taken."


def _top(d: dict[str, Any], who: Who, space: Space) -> str:
    return f"{who(d['seat'])} shows {d['unit']} on top of its stack in {space(d['at'])}."


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
            return f"{u.name} ({ref})"
    return ref


def unit_name(ref: str, view: Any) -> str:
    """What a unit the viewer may see is ("Infantry", a leader's name), or its ref."""
    uid = unit_of(ref)
    found = next((u for u in _visible_units(view) if u.unit == uid), None)
    return found.name if found is not None and uid is not None else ref


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
        return f"ships in {space_namer(view)(group[len(FLEET) :])}"
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
        pay = "free move" if a.pay == "free" else card_name(a.pay)
        return f"{group_label(a.group, view)} to {path} ({pay})"
    if k == "drop":
        return f"drop {unit_label(a.unit, view)} in {space(a.at)}"
    if k == "compel":
        return f"{card_name(a.card)}: {who(a.seat)}'s stack in {space(a.at)} to {space(a.dest)}"
    if k in ("place", "buy"):
        verb = "place" if k == "place" else "buy"
        return f"{verb} {unit_label(a.chit, view)} in {space(a.at)}"
    if k in ("casualty", "capture", "disband", "top"):
        verb = {"casualty": "lose", "capture": "take", "disband": "disband", "top": "show"}[k]
        return f"{verb} {unit_label(a.unit, view)}" + (" on top" if k == "top" else "")
    if k == "fight":
        return f"battle in {space(a.at)} against {who(a.seat)}"
    if k == "retreat":
        return f"fall back to {space(a.dest)}"
    if k == "deposit":
        return f"leave {a.amount} RP in {space(a.at)}"
    if k == "pay_loss":
        return f"pay {a.amount} RP from {space(a.at)}"
    if k == "done" and getattr(view, "window", None) is not None:
        return QUIET["pass"]  # finishing a window is passing in it
    return _card_action_label(a, space, who, view)


def _card_action_label(a: Any, space: Space, who: Who, view: Any) -> str:
    k = a.kind
    if k in ("discard", "play", "battle_card", "react"):
        verb = "discard" if k == "discard" else "play"
        return f"{verb} {card_name(a.card)}"
    if k == "play_on":
        return f"play {card_name(a.card)} on {who(a.seat)}"
    if k == "play_at":
        return f"play {card_name(a.card)} on {who(a.seat)}'s stack in {space(a.at)}"
    if k == "negate":
        return f"{card_name(a.card)} against order {a.order}"
    if k == "avoid":
        return f"{card_name(a.card)}: from {space(a.at)} to {space(a.dest)}"
    if k == "interdict":
        path = " > ".join(space(s) for s in a.via.split(">"))
        return f"{card_name(a.card)}: {group_label(a.group, view)} to {path}"
    if k == "destroy":
        return f"{card_name(a.card)} on {unit_label(a.unit, view)}"
    if k == "lost_orders":
        return f"Lost Orders on {card_name(a.target)}"
    return QUIET.get(k, str(k).replace("_", " "))


QUIET = {
    "pass": "pass",
    "done": "done",
    "submit": "show the plan",
    "undo": "take back the last order",
    "timeout": "let the time run out",
}
"""The labels of the actions with no parameter."""

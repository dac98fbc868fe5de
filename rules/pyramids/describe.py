"""Events in words (the current language), for the channel, the DMs and the console."""

from __future__ import annotations

from collections.abc import Sequence

from ..events import Event
from .board import Board
from .cards import card_name
from .catalogue import _, n_, p_
from .state import size_object, size_word


def describe(event: Event, board: Board, names: Sequence[str]) -> str | None:
    """One sentence for ``event`` in the current language; ``names[seat]`` is how to call
    each player.

    Returns ``None`` for bookkeeping events that need no words of their own.
    Private events (``event.to`` set) are worded for their one reader.
    """
    d = event.data

    def who(key: str = "seat") -> str:
        seat: int = d[key]
        return names[seat]

    def field(key: str) -> str:
        return board.fields[d[key]].name

    def power(pid: str) -> str:
        return board.powers[pid].name

    def cards(key: str) -> str:
        return ", ".join(card_name(c) for c in d[key])

    k = event.kind
    if k == "seats":
        order = ", ".join(
            _("{name} ({power})").format(name=names[s], power=power(p))
            for s, p in enumerate(d["powers"])
        )
        enemies = "; ".join(
            _("{player}'s arch-enemy is {enemy}").format(player=names[s], enemy=names[e])
            for s, e in enumerate(d["arch_enemies"])
        )
        text = _("Seat order: {order}. {enemies}. {first} goes first.").format(
            order=order, enemies=enemies, first=names[d["first"]]
        )
        if d["unplayed"]:
            unplayed = ", ".join(power(p) for p in d["unplayed"])
            text += " " + _("Unplayed: {powers}.").format(powers=unplayed)
        return text
    if k == "placed":
        return _("{who} placed a {size} on {field}.").format(
            who=who(), size=size_object(d["size"]), field=field("field")
        )
    if k == "setup_done":
        return _("All pieces are placed. The game begins.")
    if k == "turn_start":
        return _("Turn {turn} (round {round}): {who} to play.").format(
            turn=d["turn"], round=d["round"], who=who()
        )
    if k == "drew":
        if d["reason"] == "turn":
            if d["count"] == 1:
                return None
            return _("{who} could draw no card: the deck is empty.").format(who=who())
        if d["reason"] == "deal":
            return n_("{who} was dealt {n} card.", "{who} was dealt {n} cards.", d["count"]).format(
                who=who(), n=d["count"]
            )
        return n_("{who} drew {n} card.", "{who} drew {n} cards.", d["count"]).format(
            who=who(), n=d["count"]
        )
    if k == "cards_received":
        return _("You received {cards}.").format(cards=cards("cards"))
    if k == "reshuffled":
        return n_(
            "The discard pile was shuffled into a new draw pile ({n} card).",
            "The discard pile was shuffled into a new draw pile ({n} cards).",
            d["count"],
        ).format(n=d["count"])
    if k == "sabotage":
        return _("{who} sabotaged {victim}'s piece on {field} with {card}.").format(
            who=who(), victim=names[d["victim"]], field=field("field"), card=card_name(d["card"])
        )
    if k == "shrunk":
        return _("{owner}'s {from_size} on {field} shrank to a {to_size}.").format(
            owner=who(),
            from_size=size_word(d["from_size"]),
            field=field("field"),
            to_size=size_object(d["to_size"]),
        )
    if k == "destroyed":
        return _("{owner}'s {size} on {field} was destroyed.").format(
            owner=who(), size=size_word(d["size"]), field=field("field")
        )
    if k == "spied":
        return _("{who} spied on {target} with {card}.").format(
            who=who(), target=names[d["target"]], card=card_name(d["card"])
        )
    if k == "spy_result":
        if not d["cards"]:
            return _("{target} holds: no cards.").format(target=names[d["target"]])
        return _("{target} holds: {cards}.").format(target=names[d["target"]], cards=cards("cards"))
    if k in ("conscripted", "grew") and d["from_size"]:
        return _("{who} grew the {from_size} on {field} to a {size}.").format(
            who=who(),
            from_size=size_object(d["from_size"]),
            field=field("field"),
            size=size_object(d["size"]),
        )
    if k == "conscripted":
        return _("{who} conscripted a small on {field}.").format(who=who(), field=field("field"))
    if k == "built":
        return _("{who} built a small on {field}.").format(who=who(), field=field("field"))
    if k == "moved":
        text = (
            _("{who} moved a {size} from {src} to {dst} by sea.")
            if d["by_sea"]
            else _("{who} moved a {size} from {src} to {dst}.")
        )
        return text.format(
            who=who(), size=size_object(d["size"]), src=field("src"), dst=field("dst")
        )
    if k == "armed":
        return _("{who} armed (draws two cards).").format(who=who())
    if k == "passed":
        return _("{who} passed.").format(who=who())
    if k == "attack_declared":
        return _(
            "{who} attacks {defender} on {dst} from {src} ({size} against {defender_size})."
        ).format(
            who=who(),
            defender=names[d["defender"]],
            dst=field("dst"),
            src=field("src"),
            size=size_word(d["size"]),
            defender_size=size_word(d["defender_size"]),
        )
    if k == "diplomacy_open":
        return _("Diplomacy: {players} may stop the attack with a K (window {seconds} s).").format(
            players=", ".join(names[s] for s in d["eligible"]), seconds=d["seconds"]
        )
    if k == "let_pass":
        return None
    if k == "attack_stopped":
        return _("{who} stopped {attacker}'s attack with {card}.").format(
            who=who(), attacker=names[d["attacker"]], card=card_name(d["card"])
        )
    if k == "duel_started":
        return _(
            "Duel: {attacker} may play up to {attacker_limit} card(s), "
            "{defender} up to {defender_limit}."
        ).format(
            attacker=names[d["attacker"]],
            attacker_limit=d["attacker_limit"],
            defender=names[d["defender"]],
            defender_limit=d["defender_limit"],
        )
    if k == "duel_card":
        return _("{who} played {card} (total {total}).").format(
            who=who(), card=card_name(d["card"]), total=d["total"]
        )
    if k == "duel_stop":
        return _("{who} stops playing cards.").format(who=who())
    if k == "duel_over":
        text = (
            _(
                "Duel over: {attacker} {attacker_total} against {defender} "
                "{defender_total}: the attack wins."
            )
            if d["attacker_won"]
            else _(
                "Duel over: {attacker} {attacker_total} against {defender} "
                "{defender_total}: the attack fails."
            )
        )
        return text.format(
            attacker=names[d["attacker"]],
            attacker_total=d["attacker_total"],
            defender=names[d["defender"]],
            defender_total=d["defender_total"],
        )
    if k == "attack_withdrawn":
        return _("{who} played no card in time: the attack is withdrawn.").format(who=who())
    if k == "dice":
        text = (
            _(
                "Dice: {attacker} rolled {attacker_dice} = {attacker_sum}, "
                "{defender} rolled {defender_dice} = {defender_sum}: the invasion wins."
            )
            if d["attacker_won"]
            else _(
                "Dice: {attacker} rolled {attacker_dice} = {attacker_sum}, "
                "{defender} rolled {defender_dice} = {defender_sum}: the invasion fails."
            )
        )
        return text.format(
            attacker=names[d["attacker"]],
            attacker_dice="+".join(str(x) for x in d["attacker_dice"]),
            attacker_sum=sum(d["attacker_dice"]),
            defender=names[d["defender"]],
            defender_dice="+".join(str(x) for x in d["defender_dice"]),
            defender_sum=sum(d["defender_dice"]),
        )
    if k == "retreat_needed":
        return _("{who} must choose where the beaten piece retreats.").format(who=who())
    if k == "retreated":
        return _("{who}'s piece retreated from {src} to {dst}.").format(
            who=who(), src=field("src"), dst=field("dst")
        )
    if k == "moved_in":
        return _("{who} moved into {dst}.").format(who=who(), dst=field("dst"))
    if k == "timed_out":
        return _("{who} ran out of time ({decision}).").format(
            who=who(), decision=decision_name(d["decision"])
        )
    if k == "occupied":
        return _("{who} occupies all of {power}.").format(who=who(), power=power(d["power"]))
    if k == "fallen":
        return _("{who} has no piece left at home.").format(who=who())
    if k == "eliminated":
        return _("{who} is eliminated: all its pieces leave the board.").format(who=who())
    if k == "game_over":
        if d["draw"]:
            return _("The game ends in a draw ({reason}).").format(reason=draw_reason(d["reason"]))
        winners = ", ".join(names[s] for s in d["winners"])
        return n_(
            "Game over. Winner: {winners}.", "Game over. Winners: {winners}.", len(d["winners"])
        ).format(winners=winners)
    return None


def decision_name(kind: str) -> str:
    """A decision kind as a timeout names it ("turn", "duel")."""
    words = {
        "setup": p_("decision", "setup"),
        "turn": p_("decision", "turn"),
        "action": p_("decision", "action"),
        "diplomacy": p_("decision", "diplomacy"),
        "duel": p_("decision", "duel"),
        "retreat": p_("decision", "retreat"),
    }
    return words.get(kind, kind)


def draw_reason(reason: str) -> str:
    """Why a game was drawn, as its last line says it."""
    words = {
        "agreed draw": _("agreed draw"),
        "round limit": _("round limit"),
        "no winner": _("no winner"),
        "no player left": _("no player left"),
    }
    return words.get(reason, reason)


def describe_all(
    events: Sequence[Event], board: Board, names: Sequence[str], viewer: int | None = None
) -> list[str]:
    """Sentences for the events ``viewer`` (``None``: the channel) may see, in order."""
    out = []
    for ev in events:
        if ev.visible_to(viewer):
            text = describe(ev, board, names)
            if text:
                out.append(text)
    return out

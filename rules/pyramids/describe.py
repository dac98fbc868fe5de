"""Events in plain English, for the channel, the DMs, the log and the console."""

from __future__ import annotations

from collections.abc import Sequence

from ..events import Event
from .board import Board
from .cards import card_name
from .state import SIZE_NAMES


def describe(event: Event, board: Board, names: Sequence[str]) -> str | None:
    """One sentence for ``event``; ``names[seat]`` is how to call each player.

    Returns ``None`` for bookkeeping events that need no words of their own.
    Private events (``event.to`` set) are worded for their one reader.
    """
    d = event.data

    def who(key: str = "seat") -> str:
        seat: int = d[key]
        return names[seat]

    def field(key: str) -> str:
        return board.fields[d[key]].name

    def size(key: str = "size") -> str:
        return SIZE_NAMES[d[key]]

    def power(pid: str) -> str:
        return board.powers[pid].name

    k = event.kind
    if k == "seats":
        order = ", ".join(f"{names[s]} ({power(p)})" for s, p in enumerate(d["powers"]))
        enemies = "; ".join(
            f"{names[s]}'s arch-enemy is {names[e]}" for s, e in enumerate(d["arch_enemies"])
        )
        text = f"Seat order: {order}. {enemies}. {names[d['first']]} goes first."
        if d["unplayed"]:
            text += " Unplayed: " + ", ".join(power(p) for p in d["unplayed"]) + "."
        return text
    if k == "placed":
        return f"{who()} placed a {size()} on {field('field')}."
    if k == "setup_done":
        return "All pieces are placed. The game begins."
    if k == "turn_start":
        return f"Turn {d['turn']} (round {d['round']}): {who()} to play."
    if k == "drew":
        if d["reason"] == "turn":
            return None if d["count"] == 1 else f"{who()} could draw no card: the deck is empty."
        if d["reason"] == "deal":
            return f"{who()} was dealt {d['count']} cards."
        return f"{who()} drew {d['count']} card{'s' if d['count'] != 1 else ''}."
    if k == "cards_received":
        return "You received " + ", ".join(card_name(c) for c in d["cards"]) + "."
    if k == "reshuffled":
        return f"The discard pile was shuffled into a new draw pile ({d['count']} cards)."
    if k == "sabotage":
        return (
            f"{who()} sabotaged {names[d['victim']]}'s piece on {field('field')} "
            f"with {card_name(d['card'])}."
        )
    if k == "shrunk":
        return (
            f"{names[d['seat']]}'s {size('from_size')} on {field('field')} shrank to a "
            f"{size('to_size')}."
        )
    if k == "destroyed":
        return f"{names[d['seat']]}'s {size()} on {field('field')} was destroyed."
    if k == "spied":
        return f"{who()} spied on {names[d['target']]} with {card_name(d['card'])}."
    if k == "spy_result":
        cards = ", ".join(card_name(c) for c in d["cards"]) or "no cards"
        return f"{names[d['target']]} holds: {cards}."
    if k == "conscripted":
        if d["from_size"]:
            return f"{who()} grew the {size('from_size')} on {field('field')} to a {size()}."
        return f"{who()} conscripted a small on {field('field')}."
    if k == "grew":
        return f"{who()} grew the {size('from_size')} on {field('field')} to a {size()}."
    if k == "built":
        return f"{who()} built a small on {field('field')}."
    if k == "moved":
        how = " by sea" if d["by_sea"] else ""
        return f"{who()} moved a {size()} from {field('src')} to {field('dst')}{how}."
    if k == "armed":
        return f"{who()} armed (draws two cards)."
    if k == "passed":
        return f"{who()} passed."
    if k == "attack_declared":
        return (
            f"{who()} attacks {names[d['defender']]} on {field('dst')} from {field('src')} "
            f"({size()} against {size('defender_size')})."
        )
    if k == "diplomacy_open":
        return (
            f"Diplomacy: {', '.join(names[s] for s in d['eligible'])} may stop the attack "
            f"with a K (window {d['seconds']} s)."
        )
    if k == "let_pass":
        return None
    if k == "attack_stopped":
        return f"{who()} stopped {names[d['attacker']]}'s attack with {card_name(d['card'])}."
    if k == "duel_started":
        return (
            f"Duel: {names[d['attacker']]} may play up to {d['attacker_limit']} card(s), "
            f"{names[d['defender']]} up to {d['defender_limit']}."
        )
    if k == "duel_card":
        return f"{who()} played {card_name(d['card'])} (total {d['total']})."
    if k == "duel_stop":
        return f"{who()} stops playing cards."
    if k == "duel_over":
        verdict = "wins" if d["attacker_won"] else "fails"
        return (
            f"Duel over: {names[d['attacker']]} {d['attacker_total']} against "
            f"{names[d['defender']]} {d['defender_total']}: the attack {verdict}."
        )
    if k == "attack_withdrawn":
        return f"{who()} played no card in time: the attack is withdrawn."
    if k == "dice":
        a = "+".join(str(x) for x in d["attacker_dice"])
        b = "+".join(str(x) for x in d["defender_dice"])
        verdict = "wins" if d["attacker_won"] else "fails"
        return (
            f"Dice: {names[d['attacker']]} rolled {a} = {sum(d['attacker_dice'])}, "
            f"{names[d['defender']]} rolled {b} = {sum(d['defender_dice'])}: "
            f"the invasion {verdict}."
        )
    if k == "retreat_needed":
        return f"{who()} must choose where the beaten piece retreats."
    if k == "retreated":
        return f"{who()}'s piece retreated from {field('src')} to {field('dst')}."
    if k == "moved_in":
        return f"{who()} moved into {field('dst')}."
    if k == "timed_out":
        return f"{who()} ran out of time ({d['decision']})."
    if k == "occupied":
        return f"{who()} occupies all of {power(d['power'])}."
    if k == "fallen":
        return f"{who()} has no piece left at home."
    if k == "eliminated":
        return f"{who()} is eliminated: all its pieces leave the board."
    if k == "game_over":
        if d["draw"]:
            return f"The game ends in a draw ({d['reason']})."
        return (
            "Game over. Winner"
            + ("s: " if len(d["winners"]) > 1 else ": ")
            + ", ".join(names[s] for s in d["winners"])
            + "."
        )
    return None


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

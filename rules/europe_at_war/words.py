"""The words of Europe at War for every front end (the presentation spec): options, the
rule book, the turn commands, prompts, status and summary lines, private lines, how each
decision is spoken of, and (in :mod:`.describe`) a sentence for every event and a label
for every action.

Public lines (events for everyone, status, summary, result, waiting lines) use only the
spectator's view; a hand, drawn chits, Telescope results and a plan not yet shown appear
only in :meth:`EaWords.private_lines` and in events for their one reader.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..contract import Param, Value
from ..events import Event
from ..presentation import (
    CommandOption,
    CommandSpec,
    DecisionWords,
    OptionSpec,
    RuleSection,
)
from . import describe as D
from .actions import FLEET, unit_of
from .data import NATIONS, deck, game_map

NATION_NAMES = D.NATION_NAMES

RULINGS = {
    "EA-1": "The module's text overrides the generic Warp Empires rules; this book rules the rest.",
    "EA-2": "2-5 players, each a great power: France, Britain, Prussia, Austria, Russia. "
    "Other countries start neutral and empty. One shared deck of 228 cards.",
    "EA-3": "Each player holds his home country and places a General, an Admiral and 10 "
    "random chits there; 5 cards each.",
    "EA-4": "A turn: Draw, Move, Battle, Revenue, Recruit, Upkeep, Control. The game ends "
    "after round 12 (8 or 16 as options).",
    "EA-5": "Discard any, draw 5, keep at most 7 (after every draw).",
    "EA-6": "Others see each stack's owner, top unit and count; both stacks of a battle "
    "are shown. Hands and recruit draws are private; money is public.",
    "EA-7": "A territory stays yours until another player takes it; sea zones are never held.",
    "EA-8": "Light units (L, CL), cavalry, heavy infantry and leaders; Dragoons are both "
    "cavalry and heavy infantry.",
    "EA-9": "Slow 1, Medium 2, Fast 3, Very fast 4 spaces; a group moves at its slowest "
    "unit's speed.",
    "EA-10": "A land group needs a General; each General and Admiral has one free move a "
    "turn; move cards move more groups; a unit moves at most twice a turn; a group may "
    "enter but not pass a space with another player's units, and may drop units off on "
    "its way.",
    "EA-11": "Ships stay at sea; land units never end a move at sea.",
    "EA-12": "A ship carries 4 land units, Generals included; a sea move needs one authorisation.",
    "EA-13": "A sea move to or from England ignores ship speed.",
    "EA-14": "Ships moving into another player's ships fight a sea battle.",
    "EA-15": "The plan is shown in window W1 (negate-move cards, Diplomacy, Winter "
    "Quarters), carried out, then window W2 (Avoid Battle, Interdiction).",
    "EA-16": "Wherever the active player meets another player there is a battle; who "
    "moved in attacks.",
    "EA-17": "Several opponents in one space are fought one by one.",
    "EA-18": "Battle cards alternate, attacker first, until both pass.",
    "EA-19": "Cavalry +1 and artillery -1 in battles (reversed in sieges); +2 for each "
    "defender in a Major City or Capital.",
    "EA-20": "Total = (unit Forces + leader advantage + flat cards) x multipliers, rounded "
    "down; a tie goes to the defender.",
    "EA-21": "A lone leader gives +5; winning leaders gain +1 for good; lost leaders are "
    "set aside.",
    "EA-22": "The loser loses a fifth of his units (rounded up), the winner half that.",
    "EA-23": "The loser's Fortifications fall first; the winner picks the loser's first casualty.",
    "EA-24": "The loser falls back one space to a space with no other player's units.",
    "EA-25": "A Fortification is a unit of Force 10 that never moves.",
    "EA-26": "After a battle both players draw up to 7.",
    "EA-27": "Revenue: 1-5 RP a territory; raiders take 1 from each adjacent territory.",
    "EA-28": "Savings stay as deposits in your Major Cities and Capital.",
    "EA-29": "Draw 5 chits, buy at their Force, place in your Major Cities and Capitals.",
    "EA-30": "Upkeep: 1 RP a unit, from a source at most 4 steps away.",
    "EA-31": "You take every territory your units hold alone.",
    "EA-32": "Revenue and other cards are played in your own turn, outside battles.",
    "EA-33": "Lost Orders cancels a card; negate-move cards, Diplomacy, Winter Quarters, "
    "Avoid Battle, Interdiction, Compel Action and Revenge act in the windows and the plan.",
    "EA-34": "Dice are rolled in the open.",
    "EA-35": "A player with no units is out; after the last round, most territories wins.",
    "EA-36": "Options: 8 or 16 rounds, the compact map, the Basic set, teams, protected "
    "leaders, leaders in play, fast windows, sealed battle cards.",
}

COMMANDS = (
    CommandSpec(
        "move",
        "Order a group to move (EA-10): leader, destination, path, payment",
        ("move",),
        (
            CommandOption("group", "The group's leader (or fleet)", ("group",), "word"),
            CommandOption("dest", "Where it goes", ("dest",), "space"),
            CommandOption("via", "The path", ("via",), "word"),
            CommandOption("pay", "free, or a move card", ("pay",), "word"),
        ),
    ),
    CommandSpec(
        "drop",
        "Drop a unit off from your last move order (EA-10)",
        ("drop",),
        (
            CommandOption("unit", "The unit", ("unit",), "word"),
            CommandOption("at", "Where it stays", ("at",), "space"),
        ),
    ),
    CommandSpec(
        "compel",
        "Compel Action or Revenge on another player's stack (EA-33)",
        ("compel",),
        (
            CommandOption("card", "The card", ("card",), "card"),
            CommandOption("at", "The stack's space", ("at",), "space"),
            CommandOption("player", "Its owner", ("seat",), "seat"),
            CommandOption("dest", "Where it must go", ("dest",), "space"),
        ),
    ),
    CommandSpec("submit", "Show your plan (EA-15)", ("submit",)),
    CommandSpec("undo", "Take back your plan's last order or drop-off", ("undo",)),
    CommandSpec(
        "play",
        "Play an own-turn card (EA-32)",
        ("play", "play_on", "play_at"),
        (
            CommandOption("card", "The card", ("card",), "card"),
            CommandOption("at", "A stack's space", ("at",), "space", required=False),
            CommandOption("player", "The target player", ("seat",), "seat", required=False),
        ),
    ),
    CommandSpec(
        "buy",
        "Buy a drawn chit and place it (EA-29)",
        ("buy",),
        (
            CommandOption("chit", "The chit", ("chit",), "word"),
            CommandOption("at", "Where it goes", ("at",), "space"),
        ),
    ),
    CommandSpec(
        "disband",
        "Disband a unit in the Upkeep Phase (EA-30)",
        ("disband",),
        (CommandOption("unit", "The unit", ("unit",), "word"),),
    ),
    CommandSpec(
        "top",
        "Show another unit on top of one of your stacks (EA-6)",
        ("top",),
        (CommandOption("unit", "The unit", ("unit",), "word"),),
    ),
    CommandSpec("done", "Finish this step", ("done",)),
)

_UNTIL = " (until {time})"
_TURN = "▶ {who}, {what}{until}."
_COMPUTER = "▶ {who} is playing: {what}."


def _own(name: str, what: str, *, ping: bool = False) -> DecisionWords:
    """A decision of the active player in his own turn."""
    return DecisionWords(
        name,
        _TURN.replace("{what}", what),
        _UNTIL,
        computer=_COMPUTER.replace("{what}", what),
        ping=ping,
    )


DECISIONS = {
    "setup": DecisionWords(
        "placing your units", "▶ Placing units: {who}{until}.", _UNTIL, ping=True
    ),
    "discard": _own("your turn", "your turn begins: discard, then draw 5", ping=True),
    "plan": _own("your move plan", "give your orders and show the plan", ping=True),
    "w1": DecisionWords(
        "window W1",
        "⚑ Window W1 (the plan shown): waiting for {who}{until}.",
        _UNTIL,
        together=True,
        call=False,
    ),
    "w2": DecisionWords(
        "window W2",
        "⚑ Window W2 (after the moves): waiting for {who}{until}.",
        _UNTIL,
        together=True,
        call=False,
    ),
    "answer": DecisionWords(
        "an answer to the cards played",
        "⚑ Answers to the cards played: waiting for {who}{until}.",
        _UNTIL,
        together=True,
        call=False,
    ),
    "battle": _own("the next battle", "choose the next battle"),
    "cards": DecisionWords(
        "battle cards", "⚔ {who} to play a battle card or pass{until}.", _UNTIL, call=False
    ),
    "sealed": DecisionWords(
        "sealed battle cards",
        "⚔ Battle cards chosen in secret: waiting for {who}{until}.",
        _UNTIL,
        together=True,
        call=False,
    ),
    "casualties": DecisionWords(
        "casualties", "⚔ {who} chooses a casualty{until}.", _UNTIL, call=False
    ),
    "capture": DecisionWords(
        "Capture Ship", "⚓ {who} chooses the ship to capture{until}.", _UNTIL, call=False
    ),
    "retreat": DecisionWords(
        "the retreat",
        "↩ {who} chooses where the beaten stack falls back{until}.",
        _UNTIL,
        call=False,
    ),
    "recruit": _own("recruiting", "recruit"),
    "place": _own("placing free units", "place the free units"),
    "upkeep": _own("upkeep", "pay the upkeep"),
    "deposit": _own("deposits", "leave the savings in your cities"),
    "hand": DecisionWords(
        "discarding down to 7", "✋ {who} discards down to 7 cards{until}.", _UNTIL
    ),
    "loss": DecisionWords(
        "paying a loss", "✋ {who} chooses the deposits that pay a loss{until}.", _UNTIL
    ),
}
"""How each decision is spoken of, in the order a channel lists who is awaited."""

PANELS = {
    "w1": "select",
    "w2": "select",
    "answer": "buttons",
    "cards": "select",
    "sealed": "select",
    "casualties": "select",
    "capture": "select",
    "retreat": "select",
    "battle": "select",
    "hand": "select",
    "loss": "select",
    "discard": "select",
    "deposit": "select",
    "place": "select",
    "setup": "select",
}
"""Decisions answered on a private panel; the plan, recruiting and upkeep use the turn
commands."""


class EaWords:
    """The words of Europe at War."""

    title = "Europe at War"
    side_word = "nation"
    space_word = "space"

    def options(self) -> tuple[OptionSpec, ...]:
        """EA-36's options and the windows' length."""
        return (
            OptionSpec("rounds", "number", "Rounds", low=8, high=16, steps=(8, 12, 16)),
            OptionSpec("compact_map", "flag", "Compact map (129 territories)"),
            OptionSpec("basic_set", "flag", "Every nation uses the Basic set"),
            OptionSpec("teams", "flag", "Two teams (four players)"),
            OptionSpec("protected_leaders", "flag", "The winner's first pick is no leader"),
            OptionSpec("leaders_in_play", "flag", "Every leader starts in play"),
            OptionSpec("fast_windows", "flag", "Skip players with no window card"),
            OptionSpec("sealed_battle_cards", "flag", "Battle cards chosen in secret"),
            OptionSpec("window_seconds", "number", "Seconds for a window", low=5, high=600),
        )

    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        """The options that differ from the text, in a few words each."""
        out = []
        if options.get("rounds", 12) != 12:
            out.append(f"{options['rounds']} rounds")
        for spec in self.options()[1:-1]:
            if options.get(spec.name):
                out.append(spec.summary.lower())
        out.append(f"{options.get('window_seconds', 60)} s windows")
        return out

    def help_text(self) -> None:
        """None: a front end makes the help from the title and the commands."""
        return None

    def side_name(self, side: str) -> str:
        """ "France"."""
        return NATION_NAMES.get(side, side)

    def find_side(self, text: str) -> str | None:
        """A nation by id or name (a unique start will do)."""
        key = text.strip().lower()
        found = [n for n in NATIONS if n.startswith(key)] if key else []
        return found[0] if len(found) == 1 else None

    def computer_name(self, side: str) -> str:
        """ "France (computer)"."""
        return f"{self.side_name(side)} (computer)"

    def describe(self, event: Event, view: Any, names: Sequence[str]) -> str | None:
        """One sentence for every event (:mod:`.describe`)."""
        return D.describe(event, view, names)

    def action_label(self, action: Any, view: Any, names: Sequence[str]) -> str:
        """A short label for an action, units named as the viewer sees them."""
        return D.action_label(action, view, names)

    def value_label(self, param: Param, value: Value, view: Any, names: Sequence[str]) -> str:
        """A space, card, player, group or unit by its name."""
        if param.kind == "seat" and isinstance(value, int) and 0 <= value < len(names):
            return names[value]
        if isinstance(value, str):
            if value in deck():
                return deck()[value].name
            if value.startswith(FLEET) or (param.name == "group" and unit_of(value)):
                return D.group_label(value, view)
            if unit_of(value) is not None:
                return D.unit_label(value, view)
            if value == "free":
                return "free move"
            space = D.space_namer(view)
            if ">" in value:
                return " > ".join(space(s) for s in value.split(">"))
            return space(value)
        return str(value)

    def prompt(self, kind: str, view: Any, names: Sequence[str]) -> str:
        """The question a decision asks its decider, with what he needs to know."""
        return prompt_text(kind, view, names)

    def offered(self, kind: str, legal: Sequence[Any]) -> tuple[Any, ...]:
        """The legal actions."""
        return tuple(legal)

    def status_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The step under way: a window, a battle, a plan being made."""
        space = D.space_namer(view)
        b = view.battle
        w = view.window
        lines = []
        if b is not None:
            kind = D.KINDS.get(b.kind, b.kind)
            lines.append(
                f"{kind} in {space(b.at)}: {names[b.attacker]} attacks {names[b.defender]}, "
                f"{b.totals[0]} to {b.totals[1]} with the cards shown."
            )
            played = [
                f"{names[p['seat']]}: {D.card_name(p['card'])}"
                + (" (cancelled)" if p["negated"] else "")
                for p in b.plays
            ]
            if played:
                lines.append("Cards played: " + "; ".join(played) + ".")
        elif w is not None:
            waiting = D.listing([names[s] for s in w.pending]) or "nobody"
            lines.append(f"Window {D.WINDOWS.get(w.name, w.name)}: waiting for {waiting}.")
        elif not view.over and view.step not in ("setup",):
            what = D.DECISIONS.get(view.step, view.step)
            lines.append(f"{names[view.current]}'s turn: {what}.")
        return lines

    def summary_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """Round, then each nation's territories, revenue, money, units and cards."""
        m = game_map(view.compact)
        lines = [f"Round {view.round} of {view.rounds}; {names[view.current]} to play."]
        units = [0] * len(view.nations)
        for s in view.stacks:
            units[s.seat] += s.count
        for s, nation in enumerate(view.nations):
            held = [t for t, o in view.control.items() if o == s]
            revenue = sum(m.territories[t].revenue for t in held)
            out = " (out)" if view.out[s] else ""
            lines.append(
                f"{names[s]} ({self.side_name(nation)}): {len(held)} territories "
                f"({revenue} RP a turn), {view.treasury[s]} RP, {units[s]} units, "
                f"{view.hand_sizes[s]} cards{out}"
            )
        neutral = len(m.territories) - len(view.control)
        lines.append(
            f"Neutral territories {neutral}; deck {view.deck_count}, "
            f"discard pile {len(view.discard)}."
        )
        return lines

    def private_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The viewer's hand, drawn chits, free units, the hands he has seen and his
        plan before it is shown."""
        if view.hand is None:
            return []
        lines = ["Your hand: " + D.cards_text(view.hand)]
        if view.drawn:
            lines.append("Drawn chits: " + ", ".join(f"{u.name} (u{u.unit})" for u in view.drawn))
        if view.gifts:
            lines.append("Free units: " + ", ".join(f"{u.name} (u{u.unit})" for u in view.gifts))
        for seat, cards in sorted(view.seen.items()):
            lines.append(f"You saw {names[seat]}'s hand: {D.cards_text(cards)}.")
        if view.step == "plan" and view.current == view.viewer and view.plan:
            space = D.space_namer(view)
            orders = [
                f"{n}. {D.order_text(_counted(o), names.__getitem__, space)}"
                for n, o in enumerate(view.plan, start=1)
            ]
            lines.append("Your plan so far: " + "; ".join(orders) + ".")
        if view.suggestion:
            lines.append(
                "The engine suggests disbanding: "
                + ", ".join(D.unit_label(f"u{u}", view) for u in view.suggestion)
                + "."
            )
        return lines

    def hand_changed(self, before: Any, after: Any) -> bool:
        """The hand, the drawn chits or the free units changed."""
        return bool(
            before.hand != after.hand or before.drawn != after.drawn or before.gifts != after.gifts
        )

    def board_changed(self, before: Any, after: Any, events: Sequence[Event]) -> bool:
        """Stacks or control changed."""
        return bool(before.stacks != after.stacks or before.control != after.control)

    def result_line(self, view: Any, names: Sequence[str]) -> str | None:
        """The winners and why."""
        if not view.over:
            return None
        winners = D.listing([names[s] for s in view.winners])
        verb = "wins" if len(view.winners) == 1 else "share the win"
        return f"{winners} {verb} ({D.REASONS.get(view.reason, view.reason)})."

    def timeout_note(self, kind: str, name: str) -> str | None:
        """A decision left to the engine's default."""
        return f"{name} ran out of time for {D.DECISIONS.get(kind, kind)}: the default was taken."

    def rulebook(self) -> tuple[RuleSection, ...]:
        """Every ruling in short."""
        return (RuleSection("Europe at War", RULINGS),)

    def commands(self) -> tuple[CommandSpec, ...]:
        """The turn commands."""
        return COMMANDS

    def panel_decisions(self) -> Mapping[str, str]:
        """Decisions answered on a panel."""
        return PANELS

    def decisions(self) -> Mapping[str, DecisionWords]:
        """How each decision is spoken of."""
        return DECISIONS

    def contest(self) -> None:
        """None: each step of a battle is a message of its own."""
        return None

    def choice_tone(self, kind: str) -> str:
        """Passing quietly, cancelling in red."""
        if kind in ("pass", "done"):
            return "secondary"
        if kind in ("lost_orders", "negate"):
            return "danger"
        return "primary"

    def value_of(self, param: Param, text: str, view: Any, names: Sequence[str]) -> Value | None:
        """A value by its id or name."""
        key = text.strip()
        if param.kind == "seat":
            for s, n in enumerate(names):
                if n.lower() == key.lower():
                    return s
            return int(key) if key.isdigit() else None
        if param.kind == "card":
            for c in deck().values():
                if key.lower() in (c.id, c.name.lower()):
                    return c.id
            return None
        if param.kind == "space":
            m = game_map(bool(getattr(view, "compact", False)))
            for sid in (*m.territories, *m.seas):
                if key.lower() in (sid, m.name(sid).lower()):
                    return sid
            return None
        if param.name in ("order", "amount"):
            return int(key) if key.isdigit() else None
        return key or None

    def reader(self) -> None:
        """None: commands read from their spec."""
        return None


def _counted(order: dict[str, Any]) -> dict[str, Any]:
    """An order of the viewer's own plan with its drop-offs counted by space."""
    drops: dict[str, int] = {}
    for _, at in order.get("drops", ()):
        drops[at] = drops.get(at, 0) + 1
    return {**order, "drops": [[at, n] for at, n in drops.items()]}


def prompt_text(kind: str, view: Any, names: Sequence[str]) -> str:
    """The question of a decision of ``kind``, for the decider whose view this is."""
    space = D.space_namer(view)
    me = view.viewer
    money = view.treasury[me] if me is not None else 0
    b = view.battle
    if kind in ("cards", "sealed") and b is not None:
        mine, theirs = (b.totals[0], b.totals[1]) if me == b.attacker else b.totals[::-1]
        role = "you attack" if me == b.attacker else "you defend"
        what = (
            "Play a battle card or pass (EA-18)."
            if kind == "cards"
            else "Choose your battle cards in secret, then finish (EA-36)."
        )
        return f"{D.KINDS.get(b.kind, b.kind)} in {space(b.at)}: {role}, {mine} to {theirs}. {what}"
    if kind == "casualties" and b is not None:
        whose = "your opponent's first casualty" if b.stage == "first" else "one of your casualties"
        return f"Battle in {space(b.at)}: choose {whose} ({b.left} to choose now, EA-23)."
    if kind == "retreat" and b is not None:
        return f"Your beaten stack in {space(b.at)} falls back one space: choose where (EA-24)."
    if kind == "recruit":
        return (
            f"Recruit Phase: you have {money} RP. Buy drawn chits at their Force and place "
            "them in your Major Cities or Capital, then finish (EA-29)."
        )
    if kind == "upkeep":
        return (
            f"Upkeep Phase: each unit costs 1 RP from a source within 4 steps; you have "
            f"{money} RP. Disband units until all are supplied and paid, then finish (EA-30)."
        )
    if kind == "w1" and view.plan is not None:
        return (
            f"Window W1: {names[view.current]}'s plan has {len(view.plan)} orders. Play a "
            "negate-move card, Diplomacy or Winter Quarters, or finish (EA-15, EA-33)."
        )
    if kind == "hand":
        return f"You hold {len(view.hand or ())} cards: discard down to 7 (EA-5)."
    return PROMPTS.get(kind, "Your decision.")


PROMPTS = {
    "cards": "Play a battle card or pass (EA-18).",
    "sealed": "Choose your battle cards in secret, then finish (EA-36).",
    "casualties": "Choose a casualty (EA-23).",
    "retreat": "Your beaten stack falls back one space: choose where (EA-24).",
    "recruit": "Recruit Phase: buy drawn chits at their Force and place them in your Major "
    "Cities or Capital, then finish (EA-29).",
    "upkeep": "Upkeep Phase: disband units until all are supplied and paid, then finish (EA-30).",
    "w1": "Window W1: play a negate-move card, Diplomacy or Winter Quarters, or finish "
    "(EA-15, EA-33).",
    "hand": "Discard down to 7 cards (EA-5).",
    "setup": "Place your starting units: land units anywhere at home, Fortifications in "
    "your Major Cities or Capital, ships and the Admiral off your coast (EA-3).",
    "discard": "Draw Phase: discard any cards you do not want, then finish to draw 5 (EA-5).",
    "plan": "Move Phase: give your orders (a General's free move or a move card), drop units "
    "off on the way, then show the plan (EA-10, EA-15).",
    "w2": "Window W2: play Avoid Battle or Interdiction, or finish (EA-15, EA-33).",
    "answer": "Play Lost Orders on a card it may cancel, or pass (EA-33).",
    "battle": "Choose the next battle to fight (EA-16, EA-17).",
    "capture": "Capture Ship: choose the ship you take (EA-33).",
    "place": "Place your free units in a Major City or Capital you hold (EA-29).",
    "deposit": "Leave your savings in your Major Cities or Capital (EA-28).",
    "loss": "Choose the deposits that pay your loss (EA-28).",
}

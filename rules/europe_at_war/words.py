"""The words of Europe at War for every front end (the presentation spec)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..contract import Param, Value
from ..events import Event
from ..presentation import CommandOption, CommandSpec, OptionSpec, RuleSection
from .actions import FLEET, unit_of
from .data import NATIONS, deck, game_map

NATION_NAMES = {
    "france": "France",
    "britain": "Britain",
    "prussia": "Prussia",
    "austria": "Austria",
    "russia": "Russia",
}

RULINGS = {
    "EA-2": "2-5 players, each a great power: France, Britain, Prussia, Austria, Russia. "
    "Other countries start neutral and empty. One shared deck of 228 cards.",
    "EA-3": "Each player holds his home country and places a General, an Admiral and 10 "
    "random chits there; 5 cards each.",
    "EA-4": "A turn: Draw, Move, Battle, Revenue, Recruit, Upkeep, Control. The game ends "
    "after round 12 (8 or 16 as options).",
    "EA-5": "Discard any, draw 5, keep at most 7.",
    "EA-10": "A land group needs a General; each General and Admiral has one free move a "
    "turn; move cards move more groups; a unit moves at most twice a turn; a group may "
    "enter but not pass a space with another player's units.",
    "EA-12": "A ship carries 4 land units; a sea move needs one authorisation.",
    "EA-13": "A sea move to or from England ignores ship speed.",
    "EA-15": "The plan is shown in window W1 (negate-move cards, Diplomacy, Winter "
    "Quarters), carried out, then window W2 (Avoid Battle, Interdiction).",
    "EA-18": "Battle cards alternate, attacker first, until both pass.",
    "EA-20": "Total = (unit Forces + leader advantage + flat cards) x multipliers, rounded "
    "down; a tie goes to the defender.",
    "EA-22": "The loser loses a fifth of his units (rounded up), the winner half that.",
    "EA-23": "The winner picks the loser's first casualty; lost leaders are set aside.",
    "EA-24": "The loser retreats one space to a space with no other player's units.",
    "EA-27": "Revenue: 1-5 RP a territory; raiders take 1 from each adjacent territory.",
    "EA-29": "Draw 5 chits, buy at their Force, place in your Major Cities and Capitals.",
    "EA-30": "Upkeep: 1 RP a unit, from a source at most 4 steps away.",
    "EA-31": "You control every territory your units hold alone.",
    "EA-35": "A player with no units is out; after the last round, most territories wins.",
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
    CommandSpec("done", "Finish this step", ("done",)),
)


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
        """One sentence per event worth telling."""
        d = event.data
        space = _space_name(view)

        def who(seat: int) -> str:
            return names[seat] if 0 <= seat < len(names) else "?"

        cards = deck()
        k = event.kind
        if k == "turn":
            return f"Round {d['round']}: {who(d['seat'])}'s turn."
        if k == "plan":
            return f"{who(d['seat'])} shows a plan of {len(d['orders'])} orders."
        if k == "battle":
            return (
                f"{d['kind'].capitalize()} at {space(d['at'])}: {who(d['attacker'])} attacks "
                f"{who(d['defender'])}."
            )
        if k == "battle_card":
            return f"{who(d['seat'])} plays {cards[d['card']].name}."
        if k == "battle_result":
            return f"{who(d['winner'])} wins the battle."
        if k == "card_played":
            return f"{who(d['seat'])} plays {cards[d['card']].name}."
        if k == "rolled":
            return f"{who(d['seat'])} rolls {d['dice'].upper()}: {sum(d['faces'])}."
        if k == "revenue":
            return f"{who(d['seat'])} collects {d['amount']} RP."
        if k == "eliminated":
            return f"{who(d['seat'])} has no units left and is out."
        if k == "game_over":
            return "Game over: " + ", ".join(who(s) for s in d["winners"]) + " win."
        if k == "cards_received":
            return "You draw " + ", ".join(cards[c].name for c in d["cards"]) + "."
        if k == "hand_seen":
            seen = ", ".join(cards[c].name for c in d["cards"]) or "nothing"
            return f"{who(d['seat'])} holds {seen}."
        return None

    def action_label(self, action: Any, view: Any, names: Sequence[str]) -> str:
        """A short label: the kind and its values."""
        parts = [str(action.kind).replace("_", " ")]
        for key, value in action.to_dict().items():
            if key != "kind":
                parts.append(self.value_label(Param(key, "word"), value, view, names))
        return " ".join(parts)

    def value_label(self, param: Param, value: Value, view: Any, names: Sequence[str]) -> str:
        """A space, card, player or unit by its name."""
        if param.kind == "seat" and isinstance(value, int) and 0 <= value < len(names):
            return names[value]
        if isinstance(value, str):
            if value in deck():
                return deck()[value].name
            if value.startswith(FLEET):
                return f"ships at {_space_name(view)(value[len(FLEET) :])}"
            if unit_of(value) is not None:
                return value
            if ">" in value:
                return " > ".join(_space_name(view)(s) for s in value.split(">"))
            return _space_name(view)(value)
        return str(value)

    def prompt(self, kind: str, view: Any, names: Sequence[str]) -> str:
        """The question a decision asks."""
        return PROMPTS.get(kind, "Your decision.")

    def offered(self, kind: str, legal: Sequence[Any]) -> tuple[Any, ...]:
        """The legal actions."""
        return tuple(legal)

    def status_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The battle under way, if any."""
        b = view.battle
        if b is None:
            return []
        return [
            f"Battle at {_space_name(view)(b.at)}: {names[b.attacker]} against {names[b.defender]}."
        ]

    def summary_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """Round, treasuries and territories."""
        lines = [f"Round {view.round} of {view.rounds}; {names[view.current]} to play."]
        for s, nation in enumerate(view.nations):
            held = sum(1 for o in view.control.values() if o == s)
            out = " (out)" if view.out[s] else ""
            lines.append(
                f"{names[s]} ({self.side_name(nation)}): {held} territories, "
                f"{view.treasury[s]} RP, {view.hand_sizes[s]} cards{out}"
            )
        lines.append(f"Deck {view.deck_count}, discard pile {len(view.discard)}.")
        return lines

    def private_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The viewer's hand and draws."""
        if view.hand is None:
            return []
        lines = ["Your hand: " + (", ".join(deck()[c].name for c in view.hand) or "empty")]
        if view.drawn:
            lines.append("Drawn chits: " + ", ".join(u.name for u in view.drawn))
        return lines

    def hand_changed(self, before: Any, after: Any) -> bool:
        """The hand or the drawn chits changed."""
        return bool(before.hand != after.hand or before.drawn != after.drawn)

    def board_changed(self, before: Any, after: Any, events: Sequence[Event]) -> bool:
        """Stacks or control changed."""
        return bool(before.stacks != after.stacks or before.control != after.control)

    def result_line(self, view: Any, names: Sequence[str]) -> str | None:
        """The winners."""
        if not view.over:
            return None
        return "Winner: " + ", ".join(names[s] for s in view.winners) + "."

    def timeout_note(self, kind: str, name: str) -> str | None:
        """A decision left to the engine's default."""
        return f"{name} ran out of time; the default was taken."

    def rulebook(self) -> tuple[RuleSection, ...]:
        """The main rulings in short."""
        return (RuleSection("Europe at War", RULINGS),)

    def commands(self) -> tuple[CommandSpec, ...]:
        """The turn commands."""
        return COMMANDS

    def panel_decisions(self) -> Mapping[str, str]:
        """Decisions answered on a panel."""
        return {
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


PROMPTS = {
    "setup": "Place your starting units in your home country (EA-3).",
    "discard": "Discard any cards before drawing 5, then finish (EA-5).",
    "hand": "Discard down to 7 cards (EA-5).",
    "plan": "Give your move orders, then submit the plan (EA-15).",
    "w1": "The plan is shown: play negate-move cards, Diplomacy or Winter Quarters, or "
    "finish (EA-15).",
    "w2": "Play Avoid Battle or Interdiction, or finish (EA-15).",
    "answer": "Play Lost Orders, or pass (EA-33).",
    "battle": "Choose the next battle (EA-16).",
    "cards": "Play a battle card, or pass (EA-18).",
    "sealed": "Choose your battle cards in secret, then finish (EA-36).",
    "casualties": "Choose a casualty (EA-23).",
    "capture": "Choose the ship you capture (EA-33).",
    "retreat": "Choose where to retreat (EA-24).",
    "recruit": "Buy drawn chits and place them, then finish (EA-29).",
    "place": "Place your free units (EA-29).",
    "upkeep": "Disband units until all are supplied and paid, then finish (EA-30).",
    "deposit": "Leave your RP in your cities (EA-28).",
    "loss": "Choose the deposits that pay your loss (EA-28).",
}


def _space_name(view: Any) -> Callable[[str], str]:
    m = game_map(bool(getattr(view, "compact", False)))
    return m.name

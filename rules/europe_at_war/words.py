"""The words of Europe at War for every front end (the presentation spec): options, the
rule book, the turn commands, prompts, status and summary lines, private lines, how each
decision is spoken of, and (in :mod:`.describe`) a sentence for every event and a label
for every action.

Public lines (events for everyone, status, summary, result, waiting lines) use only the
spectator's view; a hand, drawn chits, Telescope results and a plan not yet shown appear
only in :meth:`EaWords.private_lines` and in events for their one reader.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..contract import Param, Value
from ..events import Event
from ..presentation import (
    CommandOption,
    CommandSpec,
    DecisionWords,
    OptionSpec,
    RuleSection,
    Shown,
    Tally,
)
from . import describe as D
from . import tallies
from .actions import FLEET, unit_of
from .catalogue import N_, _, n_
from .data import NATIONS, deck, game_map
from .lookups import look_up, lookup_commands
from .typed import READER, EaReader
from .view import SUGGESTED

RULINGS = {
    "EA-1": N_(
        "The module's text overrides the generic Warp Empires rules; this book rules the rest."
    ),
    "EA-2": N_(
        "2-5 players, each a great power: France, Britain, Prussia, Austria, Russia. "
        "Other countries start neutral and empty. One shared deck of 228 cards."
    ),
    "EA-3": N_(
        "Each player holds his home country and places a General, an Admiral and 10 "
        "random chits there; 5 cards each."
    ),
    "EA-4": N_(
        "A turn: Draw, Move, Battle, Revenue, Recruit, Upkeep, Control. The game ends "
        "after round 12 (8 or 16 as options)."
    ),
    "EA-5": N_("Discard any, draw 5, keep at most 7 (after every draw)."),
    "EA-6": N_(
        "Others see each stack's owner, top unit and count; both stacks of a battle "
        "are shown. Hands and recruit draws are private; money is public."
    ),
    "EA-7": N_("A territory stays yours until another player takes it; sea zones are never held."),
    "EA-8": N_(
        "Light units (L, CL), cavalry, heavy infantry and leaders; Dragoons are both "
        "cavalry and heavy infantry."
    ),
    "EA-9": N_(
        "Slow 1, Medium 2, Fast 3, Very fast 4 spaces; a group moves at its slowest unit's speed."
    ),
    "EA-10": N_(
        "A land group needs a General; each General and Admiral has one free move a "
        "turn; move cards move more groups; a unit moves at most twice a turn; a group may "
        "enter but not pass a space with another player's units, and may drop units off on "
        "its way."
    ),
    "EA-11": N_("Ships stay at sea; land units never end a move at sea."),
    "EA-12": N_(
        "A ship carries 4 land units, Generals included; a sea move needs one authorisation."
    ),
    "EA-13": N_("A sea move to or from England ignores ship speed."),
    "EA-14": N_("Ships moving into another player's ships fight a sea battle."),
    "EA-15": N_(
        "The plan is shown in window W1 (negate-move cards, Diplomacy, Winter "
        "Quarters), carried out, then window W2 (Avoid Battle, Interdiction)."
    ),
    "EA-16": N_(
        "Wherever the active player meets another player there is a battle; who moved in attacks."
    ),
    "EA-17": N_("Several opponents in one space are fought one by one."),
    "EA-18": N_("Battle cards alternate, attacker first, until both pass."),
    "EA-19": N_(
        "Cavalry +1 and artillery -1 in battles (reversed in sieges); +2 for each "
        "defender in a Major City or Capital."
    ),
    "EA-20": N_(
        "Total = (unit Forces + leader advantage + flat cards) x multipliers, rounded "
        "down; a tie goes to the defender."
    ),
    "EA-21": N_(
        "A lone leader gives +5; winning leaders gain +1 for good; lost leaders are set aside."
    ),
    "EA-22": N_("The loser loses a fifth of his units (rounded up), the winner half that."),
    "EA-23": N_(
        "The loser's Fortifications fall first; the winner picks the loser's first casualty."
    ),
    "EA-24": N_("The loser falls back one space to a space with no other player's units."),
    "EA-25": N_("A Fortification is a unit of Force 10 that never moves."),
    "EA-26": N_("After a battle both players draw up to 7."),
    "EA-27": N_("Revenue: 1-5 RP a territory; raiders take 1 from each adjacent territory."),
    "EA-28": N_("Savings stay as deposits in your Major Cities and Capital."),
    "EA-29": N_("Draw 5 chits, buy at their Force, place in your Major Cities and Capitals."),
    "EA-30": N_("Upkeep: 1 RP a unit, from a source at most 4 steps away."),
    "EA-31": N_("You take every territory your units hold alone."),
    "EA-32": N_("Revenue and other cards are played in your own turn, outside battles."),
    "EA-33": N_(
        "Lost Orders cancels a card; negate-move cards, Diplomacy, Winter Quarters, "
        "Avoid Battle, Interdiction, Compel Action and Revenge act in the windows and the plan."
    ),
    "EA-34": N_("Dice are rolled in the open."),
    "EA-35": N_("A player with no units is out; after the last round, most territories wins."),
    "EA-36": N_(
        "Options: 8 or 16 rounds, the compact map, the Basic set, teams, protected "
        "leaders, leaders in play, fast windows, sealed battle cards."
    ),
}


def turn_commands() -> tuple[CommandSpec, ...]:
    """The turn commands, described in the current language."""
    return (
        CommandSpec(
            "order",
            _(
                "Order a group to move (EA-10): its General (or fleet), where to, the way, "
                "the payment"
            ),
            ("move",),
            (
                CommandOption("general", _("The group's General (or fleet)"), ("group",), "word"),
                CommandOption("to", _("Where it goes"), ("dest",), "space"),
                CommandOption("via", _("The way"), ("via",), "word"),
                CommandOption(
                    "card", _("free (the leader's move), or a move card"), ("pay",), "word"
                ),
            ),
        ),
        CommandSpec(
            "drop",
            _("Drop a unit off from your last move order (EA-10)"),
            ("drop",),
            (
                CommandOption("unit", _("The unit"), ("unit",), "word"),
                CommandOption("at", _("Where it stays"), ("at",), "space"),
            ),
        ),
        CommandSpec(
            "compel",
            _("Compel Action or Revenge on another player's stack (EA-33)"),
            ("compel",),
            (
                CommandOption("card", _("The card"), ("card",), "card"),
                CommandOption("at", _("The stack's space"), ("at",), "space"),
                CommandOption("player", _("Its owner"), ("seat",), "seat"),
                CommandOption("dest", _("Where it must go"), ("dest",), "space"),
            ),
        ),
        CommandSpec("submit", _("Show your plan (EA-15)"), ("submit",)),
        CommandSpec("retract", _("Take back your plan's last order or drop-off"), ("undo",)),
        CommandSpec(
            "play",
            _("Play an own-turn card (EA-32)"),
            ("play", "play_on", "play_at"),
            (
                CommandOption("card", _("The card"), ("card",), "card"),
                CommandOption("at", _("A stack's space"), ("at",), "space", required=False),
                CommandOption("player", _("The target player"), ("seat",), "seat", required=False),
            ),
        ),
        CommandSpec(
            "buy",
            _("Buy a drawn chit and place it (EA-29)"),
            ("buy",),
            (
                CommandOption("chit", _("The chit"), ("chit",), "word"),
                CommandOption("at", _("Where it goes"), ("at",), "space"),
            ),
        ),
        CommandSpec(
            "disband",
            _("Disband a unit in the Upkeep Phase (EA-30)"),
            ("disband",),
            (CommandOption("unit", _("The unit"), ("unit",), "word"),),
        ),
        CommandSpec(
            "top",
            _("Show another unit on top of one of your stacks (EA-6)"),
            ("top",),
            (CommandOption("unit", _("The unit"), ("unit",), "word"),),
        ),
        CommandSpec("done", _("Finish this step"), ("done",)),
    )


def decision_words() -> dict[str, DecisionWords]:
    """How each decision is spoken of, in the current language, in the order a channel
    lists who is awaited."""
    until = _(" (until {time})")

    def own(name: str, waiting: str, computer: str, *, ping: bool = False) -> DecisionWords:
        # a decision of the active player in his own turn
        return DecisionWords(name, waiting, until, computer=computer, ping=ping)

    def others(name: str, waiting: str, *, together: bool = True) -> DecisionWords:
        # a decision of a player other than the active one, or of several at once
        return DecisionWords(name, waiting, until, together=together, call=False)

    return {
        "setup": DecisionWords(
            _("placing your units"), _("▶ Placing units: {who}{until}."), until, ping=True
        ),
        "discard": own(
            _("your turn"),
            _("▶ {who}, your turn begins: discard, then draw 5{until}."),
            _("▶ {who} is playing: your turn begins: discard, then draw 5."),
            ping=True,
        ),
        "plan": own(
            _("your move plan"),
            _("▶ {who}, give your orders and show the plan{until}."),
            _("▶ {who} is playing: give your orders and show the plan."),
            ping=True,
        ),
        "w1": others(_("window W1"), _("⚑ Window W1 (the plan shown): waiting for {who}{until}.")),
        "w2": others(_("window W2"), _("⚑ Window W2 (after the moves): waiting for {who}{until}.")),
        "answer": others(
            _("an answer to the cards played"),
            _("⚑ Answers to the cards played: waiting for {who}{until}."),
        ),
        "battle": own(
            _("the next battle"),
            _("▶ {who}, choose the next battle{until}."),
            _("▶ {who} is playing: choose the next battle."),
        ),
        "cards": others(
            _("battle cards"), _("⚔ {who} to play a battle card or pass{until}."), together=False
        ),
        "sealed": others(
            _("sealed battle cards"),
            _("⚔ Battle cards chosen in secret: waiting for {who}{until}."),
        ),
        "casualties": others(
            _("casualties"), _("⚔ {who} chooses a casualty{until}."), together=False
        ),
        "capture": others(
            _("Capture Ship"), _("⚓ {who} chooses the ship to capture{until}."), together=False
        ),
        "retreat": others(
            _("the retreat"),
            _("↩ {who} chooses where the beaten stack falls back{until}."),
            together=False,
        ),
        "recruit": own(
            _("recruiting"), _("▶ {who}, recruit{until}."), _("▶ {who} is playing: recruit.")
        ),
        "place": own(
            _("placing free units"),
            _("▶ {who}, place the free units{until}."),
            _("▶ {who} is playing: place the free units."),
        ),
        "upkeep": own(
            _("upkeep"),
            _("▶ {who}, pay the upkeep{until}."),
            _("▶ {who} is playing: pay the upkeep."),
        ),
        "deposit": own(
            _("deposits"),
            _("▶ {who}, leave the savings in your cities{until}."),
            _("▶ {who} is playing: leave the savings in your cities."),
        ),
        "hand": DecisionWords(
            _("discarding down to 7"), _("✋ {who} discards down to 7 cards{until}."), until
        ),
        "loss": DecisionWords(
            _("paying a loss"), _("✋ {who} chooses the deposits that pay a loss{until}."), until
        ),
    }


class _Decisions(Mapping[str, DecisionWords]):
    """:func:`decision_words` as a mapping, worded in the language current when an entry
    is read (:meth:`EaWords.decisions` gives the words of one language at once)."""

    def __getitem__(self, kind: str) -> DecisionWords:
        return decision_words()[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(decision_words())

    def __len__(self) -> int:
        return len(decision_words())


DECISIONS: Mapping[str, DecisionWords] = _Decisions()
"""How each decision is spoken of, in the order a channel lists who is awaited."""

PANELS = {
    "w1": "select",
    "w2": "select",
    "answer": "buttons",
    "cards": "buttons",
    "sealed": "select",
    "casualties": "counts",
    "recruit": "counts",
    "upkeep": "counts",
    "capture": "select",
    "retreat": "select",
    "battle": "select",
    "hand": "select",
    "loss": "select",
    "discard": "select",
    "deposit": "counts",
    "place": "select",
    "setup": "select",
}
"""Decisions answered on a private panel; the plan uses the turn commands."""


TIMINGS = (
    ("combat", N_("battle")),
    ("own_turn", N_("own turn")),
    ("move_plan", N_("move plan")),
    ("window_w1", N_("window W1")),
    ("window_w2", N_("window W2")),
    ("response", N_("answers")),
)
"""When each group of a hand is played (``cards.json`` ``timing``), in the order shown."""


def hand_line(hand: Sequence[str]) -> str:
    """A hand grouped by when its cards are played: "Your hand (5): battle: A, B;
    own turn: C; ..." ("Your hand: nothing" when empty)."""
    if not hand:
        return _("Your hand: nothing")
    cards = deck()
    groups = []
    for timing, label in TIMINGS:
        names = sorted(D.card_name(c) for c in hand if c in cards and cards[c].timing == timing)
        if names:
            groups.append(f"{_(label)}: {', '.join(names)}")
    other = sorted(
        D.card_name(c) for c in hand if c not in cards or cards[c].timing not in dict(TIMINGS)
    )
    if other:
        groups.append(", ".join(other))
    return _("Your hand ({n}): {groups}").format(n=len(hand), groups="; ".join(groups))


CONTEST_STAGES = ("cards", "sealed", "answer")
"""A battle's card exchange (EA-18), sealed cards and their Lost Orders answers (EA-36)."""
CONTEST_STEPS = frozenset({"battle_card", "battle_pass", "sealed_revealed", "timed_out"})
"""Events that only take a battle's exchange a step further."""


class BattleContest:
    """A battle followed in one channel message, edited at each card or pass, from its
    start to its result (see :class:`rules.presentation.Contest`); its image is the
    battle with both stacks and the Force breakdown."""

    def under_way(self, view: Any) -> bool:
        """A battle in its card exchange."""
        b = view.battle
        return b is not None and b.stage in CONTEST_STAGES

    def step(self, events: Sequence[Event]) -> bool:
        """Only a card, a pass, sealed cards shown or a timeout within the exchange."""
        return all(e.kind in CONTEST_STEPS for e in events if e.to is None)

    def result(self, events: Sequence[Event]) -> Event | None:
        """The battle's result (EA-20)."""
        return next((e for e in events if e.kind == "battle_result" and e.to is None), None)

    def lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """Each side's Force as the cards shown leave it, and the cards played."""
        b = view.battle
        if b is None:
            return []
        out = []
        for seat, side in zip((b.attacker, b.defender), b.breakdowns, strict=False):
            parts = [_("units {n}").format(n=side["unit_sum"])]
            if side["leader"]:
                parts.append(_("leader +{n}").format(n=side["leader"]))
            if side["flat"]:
                parts.append(_("cards {n}").format(n=f"{side['flat']:+d}"))
            if side["multiplier"] != "1":
                parts.append(f"x{side['multiplier']}")
            out.append(
                _("{who}: Force {total} ({parts}).").format(
                    who=names[seat], total=side["total"], parts=", ".join(parts)
                )
            )
        out += cards_played(b, names)
        return out


def cards_played(b: Any, names: Sequence[str]) -> list[str]:
    """The line of the cards played in battle ``b`` so far (none: no line)."""
    played = [
        _("{who}: {card} (cancelled)").format(who=names[p["seat"]], card=D.card_name(p["card"]))
        if p["negated"]
        else f"{names[p['seat']]}: {D.card_name(p['card'])}"
        for p in b.plays
    ]
    return [_("Cards played: {cards}.").format(cards="; ".join(played))] if played else []


CONTEST = BattleContest()


OPTION_WORDS = {
    "compact_map": N_("compact map (129 territories)"),
    "basic_set": N_("every nation uses the basic set"),
    "teams": N_("two teams (four players)"),
    "protected_leaders": N_("the winner's first pick is no leader"),
    "leaders_in_play": N_("every leader starts in play"),
    "fast_windows": N_("skip players with no window card"),
    "sealed_battle_cards": N_("battle cards chosen in secret"),
}
"""Each flag of EA-36 as a list of the options set names it (in English)."""


class EaWords:
    """The words of Europe at War."""

    title = "Europe at War"

    @property
    def side_word(self) -> str:
        """What a side is called, in the current language."""
        return _("nation")

    @property
    def space_word(self) -> str:
        """What a place on the board is called, in the current language."""
        return _("space")

    def options(self) -> tuple[OptionSpec, ...]:
        """EA-36's options and the windows' length."""
        return (
            OptionSpec("rounds", "number", _("Rounds"), low=8, high=16, steps=(8, 12, 16)),
            OptionSpec("compact_map", "flag", _("Compact map (129 territories)")),
            OptionSpec("basic_set", "flag", _("Every nation uses the Basic set")),
            OptionSpec("teams", "flag", _("Two teams (four players)")),
            OptionSpec("protected_leaders", "flag", _("The winner's first pick is no leader")),
            OptionSpec("leaders_in_play", "flag", _("Every leader starts in play")),
            OptionSpec("fast_windows", "flag", _("Skip players with no window card")),
            OptionSpec("sealed_battle_cards", "flag", _("Battle cards chosen in secret")),
            OptionSpec("window_seconds", "number", _("Seconds for a window"), low=5, high=600),
        )

    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        """The options that differ from the text, in a few words each."""
        out = []
        if options.get("rounds", 12) != 12:
            out.append(_("{n} rounds").format(n=options["rounds"]))
        for name, words in OPTION_WORDS.items():
            if options.get(name):
                out.append(_(words))
        out.append(_("{n} s windows").format(n=options.get("window_seconds", 60)))
        return out

    def help_text(self) -> None:
        """None: a front end makes the help from the title and the commands."""
        return None

    def side_name(self, side: str) -> str:
        """ "France"."""
        return D.nation_name(side)

    def find_side(self, text: str) -> str | None:
        """A nation by id or name, in English or the current language (a unique start
        will do)."""
        key = text.strip().lower()
        if not key:
            return None
        named = {n: (n, D.nation_name(n).lower()) for n in NATIONS}
        found = [n for n, words in named.items() if any(w.startswith(key) for w in words)]
        return found[0] if len(found) == 1 else None

    def computer_name(self, side: str) -> str:
        """ "France (computer)"."""
        return _("{nation} (computer)").format(nation=self.side_name(side))

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
                return D.card_name(value)
            if value.startswith(FLEET) or (param.name == "group" and unit_of(value)):
                return D.group_label(value, view)
            if unit_of(value) is not None:
                return D.unit_label(value, view)
            if value == "free":
                return _("free move")
            space = D.space_namer(view)
            if ">" in value:
                return " > ".join(space(s) for s in value.split(">"))
            return space(value)
        return str(value)

    def prompt(self, kind: str, view: Any, names: Sequence[str]) -> str:
        """The question a decision asks its decider, with what he needs to know and,
        where the engine picks one when time runs out, its suggestion."""
        text = prompt_text(kind, view, names)
        if kind in SUGGESTED and getattr(view, "suggested", None) is not None:
            text += " " + _("Suggested: {action}.").format(
                action=self.action_label(view.suggested, view, names)
            )
        return text

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
            lines.append(
                _(
                    "{kind} in {at}: {attacker} attacks {defender}, "
                    "{mine} to {theirs} with the cards shown."
                ).format(
                    kind=D.kind_name(b.kind),
                    at=space(b.at),
                    attacker=names[b.attacker],
                    defender=names[b.defender],
                    mine=b.totals[0],
                    theirs=b.totals[1],
                )
            )
            lines += cards_played(b, names)
        elif w is not None:
            waiting = D.listing([names[s] for s in w.pending]) or _("nobody")
            lines.append(
                _("Window {name}: waiting for {players}.").format(
                    name=D.window_name(w.name), players=waiting
                )
            )
        elif not view.over and view.step not in ("setup",):
            lines.append(
                _("{who}'s turn: {what}.").format(
                    who=names[view.current], what=D.decision_name(view.step)
                )
            )
        return lines

    def summary_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """Round, then each nation's territories, revenue, money, units and cards."""
        m = game_map(view.compact)
        lines = [
            _("Round {round} of {rounds}; {who} to play.").format(
                round=view.round, rounds=view.rounds, who=names[view.current]
            )
        ]
        units = [0] * len(view.nations)
        for s in view.stacks:
            units[s.seat] += s.count
        for s, nation in enumerate(view.nations):
            held = [t for t, o in view.control.items() if o == s]
            revenue = sum(m.territories[t].revenue for t in held)
            counts = ", ".join(
                (
                    n_(
                        "{n} territory ({rp} RP a turn)",
                        "{n} territories ({rp} RP a turn)",
                        len(held),
                    ).format(n=len(held), rp=revenue),
                    _("{n} RP").format(n=view.treasury[s]),
                    n_("{n} unit", "{n} units", units[s]).format(n=units[s]),
                    n_("{n} card", "{n} cards", view.hand_sizes[s]).format(n=view.hand_sizes[s]),
                )
            )
            line = f"{names[s]} ({self.side_name(nation)}): {counts}"
            lines.append(_("{line} (out)").format(line=line) if view.out[s] else line)
        neutral = len(m.territories) - len(view.control)
        lines.append(
            _("Neutral territories {neutral}; deck {deck}, discard pile {discard}.").format(
                neutral=neutral, deck=view.deck_count, discard=len(view.discard)
            )
        )
        return lines

    def private_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The viewer's hand, drawn chits, free units, the hands he has seen and his
        plan before it is shown."""
        if view.hand is None:
            return []
        lines = [hand_line(view.hand)]
        if view.drawn:
            drawn = ", ".join(f"{D.unit_word(u.name)} (u{u.unit})" for u in view.drawn)
            lines.append(_("Drawn chits: {units}").format(units=drawn))
        if view.gifts:
            gifts = ", ".join(f"{D.unit_word(u.name)} (u{u.unit})" for u in view.gifts)
            lines.append(_("Free units: {units}").format(units=gifts))
        for seat, cards in sorted(view.seen.items()):
            lines.append(
                _("You saw {who}'s hand: {cards}.").format(
                    who=names[seat], cards=D.cards_text(cards)
                )
            )
        if view.step == "plan" and view.current == view.viewer and view.plan:
            space = D.space_namer(view)
            orders = [
                f"{n}. {D.order_text(_counted(o), names.__getitem__, space)}"
                for n, o in enumerate(view.plan, start=1)
            ]
            lines.append(_("Your plan so far: {orders}.").format(orders="; ".join(orders)))
        if view.suggestion:
            units = ", ".join(D.unit_label(f"u{u}", view) for u in view.suggestion)
            lines.append(_("The engine suggests disbanding: {units}.").format(units=units))
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
        reason = D.reason_text(view.reason)
        if len(view.winners) == 1:
            return _("{winners} wins ({reason}).").format(winners=winners, reason=reason)
        return _("{winners} share the win ({reason}).").format(winners=winners, reason=reason)

    def timeout_note(self, kind: str, name: str) -> str | None:
        """A decision left to the engine's default."""
        return _("{who} ran out of time for {decision}: the default was taken.").format(
            who=name, decision=D.decision_name(kind)
        )

    def rulebook(self) -> tuple[RuleSection, ...]:
        """Every ruling in short."""
        return (RuleSection("Europe at War", {n: _(text) for n, text in RULINGS.items()}),)

    def commands(self) -> tuple[CommandSpec, ...]:
        """The turn commands, then the look-ups (:mod:`.lookups`)."""
        return turn_commands() + lookup_commands()

    def look_up(
        self, command: str, typed: Mapping[str, str], view: Any, names: Sequence[str]
    ) -> Shown:
        """/map, /stack, /treasury and /card (see :mod:`.lookups`).

        Raises:
            RulesError: an unknown look-up, or an option naming nothing.
        """
        return look_up(command, typed, view, names)

    def panel_decisions(self) -> Mapping[str, str]:
        """Decisions answered on a panel."""
        return PANELS

    def tally(
        self, kind: str, legal: Sequence[Any], view: Any, names: Sequence[str]
    ) -> Tally | None:
        """Casualties (EA-23), recruits (EA-29), upkeep (EA-30) and savings (EA-28),
        counted (:mod:`.tallies`)."""
        return tallies.tally(kind, legal, view)

    def decisions(self) -> Mapping[str, DecisionWords]:
        """How each decision is spoken of."""
        return decision_words()

    def contest(self) -> BattleContest:
        """A battle's card exchange, followed in one channel message."""
        return CONTEST

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
                if key.lower() in (c.id, c.name.lower(), _(c.name).lower()):
                    return c.id
            return None
        if param.kind == "space":
            return game_map(bool(getattr(view, "compact", False))).find(key)
        if param.name in ("order", "amount"):
            return int(key) if key.isdigit() else None
        return key or None

    def reader(self) -> EaReader:
        """The forgiving reader of typed lines (``order``, ``pass``, ``buy``)."""
        return READER


def _counted(order: dict[str, Any]) -> dict[str, Any]:
    """An order of the viewer's own plan with its drop-offs counted by space."""
    drops: dict[str, int] = {}
    for _unit, at in order.get("drops", ()):
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
        what = _(PROMPTS[kind])
        if me == b.attacker:
            text = _("{kind} in {at}: you attack, {mine} to {theirs}. {what}")
        else:
            text = _("{kind} in {at}: you defend, {mine} to {theirs}. {what}")
        return text.format(
            kind=D.kind_name(b.kind), at=space(b.at), mine=mine, theirs=theirs, what=what
        )
    if kind == "casualties" and b is not None:
        if b.stage == "first":
            text = _(
                "Battle in {at}: choose your opponent's first casualty ({n} to choose now, EA-23)."
            )
        else:
            text = _("Battle in {at}: choose one of your casualties ({n} to choose now, EA-23).")
        return text.format(at=space(b.at), n=b.left)
    if kind == "retreat" and b is not None:
        return _("Your beaten stack in {at} falls back one space: choose where (EA-24).").format(
            at=space(b.at)
        )
    if kind == "recruit":
        return _(
            "Recruit Phase: you have {money} RP. Buy drawn chits at their Force and place "
            "them in your Major Cities or Capital, then finish (EA-29)."
        ).format(money=money)
    if kind == "upkeep":
        return _(
            "Upkeep Phase: each unit costs 1 RP from a source within 4 steps; you have "
            "{money} RP. Disband units until all are supplied and paid, then finish (EA-30)."
        ).format(money=money)
    if kind == "w1" and view.plan is not None:
        return n_(
            "Window W1: {who}'s plan has {n} order. Play a negate-move card, Diplomacy or "
            "Winter Quarters, or finish (EA-15, EA-33).",
            "Window W1: {who}'s plan has {n} orders. Play a negate-move card, Diplomacy or "
            "Winter Quarters, or finish (EA-15, EA-33).",
            len(view.plan),
        ).format(who=names[view.current], n=len(view.plan))
    if kind == "hand":
        n = len(view.hand or ())
        return n_(
            "You hold {n} card: discard down to 7 (EA-5).",
            "You hold {n} cards: discard down to 7 (EA-5).",
            n,
        ).format(n=n)
    found = PROMPTS.get(kind)
    return _(found) if found else _("Your decision.")


PROMPTS = {
    "cards": N_("Play a battle card or pass (EA-18)."),
    "sealed": N_("Choose your battle cards in secret, then finish (EA-36)."),
    "casualties": N_("Choose a casualty (EA-23)."),
    "retreat": N_("Your beaten stack falls back one space: choose where (EA-24)."),
    "recruit": N_(
        "Recruit Phase: buy drawn chits at their Force and place them in your Major "
        "Cities or Capital, then finish (EA-29)."
    ),
    "upkeep": N_(
        "Upkeep Phase: disband units until all are supplied and paid, then finish (EA-30)."
    ),
    "w1": N_(
        "Window W1: play a negate-move card, Diplomacy or Winter Quarters, or finish "
        "(EA-15, EA-33)."
    ),
    "hand": N_("Discard down to 7 cards (EA-5)."),
    "setup": N_(
        "Place your starting units: land units anywhere at home, Fortifications in "
        "your Major Cities or Capital, ships and the Admiral off your coast (EA-3)."
    ),
    "discard": N_("Draw Phase: discard any cards you do not want, then finish to draw 5 (EA-5)."),
    "plan": N_(
        "Move Phase: give your orders (a General's free move or a move card), drop units "
        "off on the way, then show the plan (EA-10, EA-15)."
    ),
    "w2": N_("Window W2: play Avoid Battle or Interdiction, or finish (EA-15, EA-33)."),
    "answer": N_("Play Lost Orders on a card it may cancel, or pass (EA-33)."),
    "battle": N_("Choose the next battle to fight (EA-16, EA-17)."),
    "capture": N_("Capture Ship: choose the ship you take (EA-33)."),
    "place": N_("Place your free units in a Major City or Capital you hold (EA-29)."),
    "deposit": N_("Leave your savings in your Major Cities or Capital (EA-28)."),
    "loss": N_("Choose the deposits that pay your loss (EA-28)."),
}
"""The question of each decision in English (translated where it is asked)."""

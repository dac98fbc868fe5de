"""The words of the pyramid games (European War, World War 5): their presentation spec.

Labels for choices, the questions prompts ask, how each decision is spoken of while it
is awaited, the public lines about a battle (followed in one message from its diplomacy
window to its duel's end), the private lines about a hand, the end of a game, the options
a host may set, and the rule book (``rules/RULES.md``, split into sections and rulings).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from rules import i18n

from ..contract import Param, Value
from ..errors import RulesError
from ..events import Event
from ..presentation import (
    CommandOption,
    CommandSpec,
    DecisionWords,
    LineReader,
    OptionChoice,
    OptionSpec,
    RuleSection,
    Shown,
)
from .actions import Action, LetPass, PlayCard, StopAttack
from .board import BOARD_IDS, Board, load_board
from .cards import card_name, parse_card, rank
from .catalogue import N_, _, catalogue, n_, p_
from .describe import describe
from .state import size_object
from .view import View

BOARD_EVENTS = frozenset({"seats", "setup_done", "turn_start", "game_over"})
"""Public events after which the board is shown even if no piece moved."""
_RULING = re.compile(r"^- ((?:EW|WW)-\d+) ")


def board_of_view(view: View) -> Board:
    """The board ``view`` is played on."""
    return load_board(view.board_id, bool(view.options.get("pyramid_arcade")))


def short_power_name(name: str) -> str:
    """A power's short name in the current language, given its name (English or in the
    current language): "Central Powers (Germany and Austria-Hungary)" -> "Central Powers",
    "Britain and its allies" -> "Britain": for computer players' names."""
    for board_id in BOARD_IDS:
        for power in load_board(board_id).powers.values():
            if name in (power.english, power.name):
                return power.short
    return name.split(" (")[0].removesuffix(" and its allies")


def computer_name(power_name: str) -> str:
    """The display name of a computer player in a started game."""
    return _("{power} (computer)").format(power=short_power_name(power_name))


def action_label(action: Action, board: Board, names: Sequence[str]) -> str:
    """A short label for a choice (a button, a select option, the console)."""
    f = board.fields

    def name(field_id: str) -> str:
        return f[field_id].name if field_id in f else field_id

    a: Any = action
    k = action.kind
    labels = {
        "arm": _("Arm (draw two cards)"),
        "pass": _("Pass"),
        "let_pass": _("Let it pass"),
        "stop_playing": _("Stop playing"),
        "timeout": _("Time out"),
        "agree_draw": _("Agree to a draw"),
    }
    if k in labels:
        return labels[k]
    if k == "place_all":
        return _("Large on {large}, medium on {medium}, small on {small}").format(
            large=name(a.large), medium=name(a.medium), small=name(a.small)
        )
    if k == "place_piece":
        return _("On {field}").format(field=name(a.field))
    if k == "sabotage":
        text = _("Sabotage {field} with A") if a.ace else _("Sabotage {field} with J")
        return text.format(field=name(a.target))
    if k == "spy":
        target = names[a.target] if 0 <= a.target < len(names) else str(a.target)
        text = _("Spy on {player} with A") if a.ace else _("Spy on {player} with Q")
        return text.format(player=target)
    if k == "conscript":
        return _("Conscript on {field}").format(field=name(a.field))
    if k == "grow":
        return _("Grow on {field}").format(field=name(a.field))
    if k == "build":
        return _("Build on {field}").format(field=name(a.field))
    if k == "move":
        return _("Move {src} → {dst}").format(src=name(a.src), dst=name(a.dst))
    if k == "attack":
        return _("Invade {dst} from {src}").format(dst=name(a.dst), src=name(a.src))
    if k == "stop_attack":
        return _("Stop with A") if a.ace else _("Stop with K")
    if k == "play_card":
        return _("Play {card}").format(card=card_name(a.card))
    if k == "retreat":
        return _("Retreat to {field}").format(field=name(a.field))
    return k


def prompt_text(kind: str, view: View, board: Board, names: Sequence[str]) -> str:
    """The question a prompt asks, in words, citing the variant's own rulings."""
    b = view.battle
    ww = view.variant == "world_war_5"
    if kind == "setup":
        queue = view.setup_queue
        if queue and queue[0][1]:
            text = (
                _("Place your {size} on a home territory (WW-6).")
                if ww
                else _("Place your {size} on a home field (EW-5).")
            )
            return text.format(size=size_object(queue[0][1]))
        if ww:
            return _(
                "Place your pieces: which home territory gets the large, medium and small (WW-6)."
            )
        return _("Place your pieces: which home field gets the large, medium and small (EW-5).")
    if kind == "turn":
        if ww:
            return _("Your turn: grow, build, move or invade (WW-2).")
        return _("Your turn: sabotage or spy first if you like, then one action (EW-8, EW-11).")
    if kind == "action":
        return _("Your attack was stopped: conscript, move, arm or pass (EW-14).")
    if b is not None:
        where = board.fields[b.dst].name
        if kind == "diplomacy":
            return _(
                "{attacker} attacks {defender} on {field}. "
                "Stop it with a K, or let it pass (EW-13)."
            ).format(attacker=names[b.attacker], defender=names[b.defender], field=where)
        if kind == "duel":
            if view.viewer == b.attacker and not b.attacker_cards:
                return _(
                    "Duel on {field}: play your first card (if your time runs out, "
                    "the attack is withdrawn, EW-17)."
                ).format(field=where)
            return _("Duel on {field}: play a card or stop (EW-17).").format(field=where)
        if kind == "retreat":
            text = (
                _("Your piece lost {field}: choose where it retreats (WW-3).")
                if ww
                else _("Your piece lost {field}: choose where it retreats (EW-19).")
            )
            return text.format(field=where)
    return _("Your decision.")


def phase_name(phase: str) -> str:
    """A game phase as /status names it, in the current language."""
    words = {
        "setup": p_("phase", "setup"),
        "turn": p_("phase", "turn"),
        "diplomacy": p_("phase", "diplomacy"),
        "duel": p_("phase", "duel"),
        "retreat": p_("phase", "retreat"),
        "over": p_("phase", "over"),
    }
    return words.get(phase, phase)


def prompt_choices(kind: str, legal: Sequence[Action]) -> tuple[Action, ...]:
    """What to offer, in an order that gives each answer the same place in every prompt:
    a diplomacy window always offers *Stop with K* (EW-15: the same prompt whatever the
    player holds), then *Let it pass*, then *Stop with A* when one is held; a duel offers
    the cards as the hand shows them (by rank), then *Stop playing*."""
    choices = list(legal)
    if kind == "diplomacy":
        if StopAttack(False) not in choices:
            choices.append(StopAttack(False))
        order: dict[Action, int] = {StopAttack(False): 0, LetPass(): 1, StopAttack(True): 2}
        choices.sort(key=lambda a: order.get(a, len(order)))
    elif kind == "duel":
        choices.sort(key=_duel_order)
    return tuple(choices)


def _duel_order(action: Action) -> tuple[int, int, int]:
    """Cards by rank (then suit), as a hand is shown; stopping last."""
    if isinstance(action, PlayCard):
        return 0, rank(action.card), action.card
    return 1, 0, 0


def result_line(view: View | None, names: Sequence[str]) -> str | None:
    """The end of a finished game in one line."""
    if view is None or not view.over:
        return None
    if view.draw:
        return _("🏁 The game is over: a draw.")
    winners = ", ".join(names[s] for s in view.winners if 0 <= s < len(names))
    return n_(
        "🏆 The game is over. Winner: {winners}.",
        "🏆 The game is over. Winners: {winners}.",
        len(view.winners),
    ).format(winners=winners)


def hand_lines(view: View, names: Sequence[str]) -> list[str]:
    """The owner's hand in words, and what espionage told them (private!)."""
    hand = view.hand or ()
    cards = ", ".join(card_name(c) for c in hand) or _("no cards")
    lines = [_("Your hand ({n}): {cards}").format(n=len(hand), cards=cards)]
    for seat, known in sorted(view.known_cards.items()):
        who = names[seat] if 0 <= seat < len(names) else _("seat {n}").format(n=seat)
        shown = ", ".join(card_name(c) for c in known)
        lines.append(_("You know {player} holds: {cards}").format(player=who, cards=shown))
    return lines


def battle_lines(view: View, names: Sequence[str], board: Board) -> list[str]:
    """The declared attack as everyone sees it (face-up duel cards, EW-24)."""
    b = view.battle
    if b is None:
        return []
    where = board.fields[b.dst].name
    att, dfn = names[b.attacker], names[b.defender]
    lines = [
        _("⚔ {attacker} attacks {defender} on {field}.").format(
            attacker=att, defender=dfn, field=where
        )
    ]
    if b.stage == "duel" or b.attacker_cards or b.defender_cards:
        side = _("{player}: {cards} (total {total}, up to {limit})")
        a_cards = ", ".join(card_name(c) for c in b.attacker_cards) or "—"
        d_cards = ", ".join(card_name(c) for c in b.defender_cards) or "—"
        lines.append(
            side.format(player=att, cards=a_cards, total=b.attacker_total, limit=b.attacker_limit)
        )
        lines.append(
            side.format(player=dfn, cards=d_cards, total=b.defender_total, limit=b.defender_limit)
        )
    return lines


def rule_sections() -> tuple[tuple[str, RuleSection], ...]:
    """RULES.md's sections that carry rulings, in order, each with its variant, in the
    current language (English where a translation does not keep the rulings' numbers)."""
    english = _rule_sections("en")
    found = _rule_sections(i18n.current())
    numbers = [tuple(s.rulings) for _v, s in found]
    return found if numbers == [tuple(s.rulings) for _v, s in english] else english


@lru_cache(maxsize=len(i18n.LOCALES))
def _rule_sections(locale: str) -> tuple[tuple[str, RuleSection], ...]:
    """RULES.md parsed in ``locale`` (read once per process and language)."""
    text = resources.files("rules.pyramids").joinpath("RULES.md").read_text("utf-8")
    with i18n.use(locale):
        text = catalogue.markdown(text)
    out: list[tuple[str, RuleSection]] = []
    title = ""
    current: dict[str, str] = {}
    number = ""

    def flush() -> None:
        if current:
            variant = "world_war_5" if next(iter(current)).startswith("WW") else "european_war"
            out.append((variant, RuleSection(title, dict(current))))

    for line in text.splitlines():
        if line.startswith("## "):
            flush()
            title, current, number = line[3:].strip(), {}, ""
            continue
        match = _RULING.match(line)
        if match:
            number = match.group(1)
            current[number] = line[match.end() :].strip()
        elif number and line.startswith("  ") and line.strip():
            current[number] += " " + line.strip()
    flush()
    return tuple(out)


DIPLOMACY_STEPS = (10, 20, 30, 45, 60, 90, 120)
"""The diplomacy windows (seconds) a host picks from in a lobby."""


def _shared_options() -> tuple[OptionSpec, ...]:
    return (
        OptionSpec(
            "setup_order",
            "word",
            _(
                "Setup: each player places all three pieces at once, or smalls, then mediums, "
                "then larges, in turn order"
            ),
            choices=("together", "by_size"),
            labels=(
                _("Setup: each player places all three pieces at once"),
                _("Setup: smalls, then mediums, then larges, in turn order"),
            ),
        ),
        OptionSpec(
            "round_limit",
            "number",
            _("Rounds after which the game is a draw (0: none)"),
            low=0,
            high=10_000,
            panel=False,
        ),
    )


def ew_options() -> tuple[OptionSpec, ...]:
    """European War's options, in the current language."""
    window = _("Diplomacy window: {seconds} s")
    return (
        OptionSpec("sea_attacks", "flag", _("Sea attacks (between harbours of one group)")),
        OptionSpec("five_players", "flag", _("Allow 5 players")),
        *_shared_options(),
        OptionSpec(
            "diplomacy_seconds",
            "number",
            _("Diplomacy window (seconds)"),
            low=5,
            high=600,
            steps=DIPLOMACY_STEPS,
            labels=tuple(window.format(seconds=s) for s in DIPLOMACY_STEPS),
        ),
        OptionSpec(
            "turn_timeout_action",
            "word",
            _("When a European War turn times out"),
            choices=("pass", "arm"),
            labels=(_("pass"), _("arm (draw two cards)")),
            panel=False,
        ),
    )


def ww_options() -> tuple[OptionSpec, ...]:
    """World War 5's options, in the current language."""
    return (
        OptionSpec("pyramid_arcade", "flag", _("Pyramid Arcade board")),
        OptionSpec("five_players", "flag", _("Allow 5–6 players")),
        *_shared_options(),
    )


EW_HELP = (
    N_("**How to play European War here**"),
    N_(
        "• **/newgame** opens a table in this channel (or a new thread); people press **Join** "
        "or use **/join**; the host adds computers with **Add computer** or **/addbot** and "
        "starts with **Start** or **/start**."
    ),
    N_(
        "• At the start you place your large, medium and small on your home fields: use the "
        "panel I send you by DM, or **/place**. **/undo** (or **Undo** under it, for 30 s) "
        "takes a placement back if nobody moved since; the last one deals the cards."
    ),
    N_(
        "• On your turn (you are pinged): sabotage (J) and spy (Q) first if you like, then one "
        "action: conscript, move, invade, arm or pass. Press **Your turn** in the channel (or "
        "use the panel I DM you) and click your way through, or type **/sabotage**, **/spy**, "
        "**/conscript**, **/move**, **/invade**, **/arm** or **/pass**."
    ),
    N_(
        "• Duels, the diplomacy window (stop an attack with a K) and retreats: press **Open my "
        "panel** in the channel, or use the panel I DM you. **/hand** shows your cards."
    ),
    N_(
        "• **/board**, **/hand**, **/status**, **/log** show the game; **/games** your games; "
        "**/rules** the rules with their numbers; **/hint** suggests a move for your own "
        "decision (only you see it); **/replay** animates a game of this channel "
        "and **/export** gives you its public record."
    ),
    N_(
        "• **/draw** proposes a draw (every person must agree); **/resign** hands your seat to "
        "a computer; the host can **/pause**, **/resume**, **/replace** a seat or **/cancel**. "
        "**Rematch** under the last message plays again. **/pings off** stops my pings."
    ),
    N_("World War 5 tables use **/grow**, **/build**, **/move** and **/invade** (no cards)."),
)

WW_HELP = (
    N_("**How to play World War 5 here**"),
    N_(
        "• **/newgame variant:world-war-5** opens a table; people press **Join** or use "
        "**/join**; the host adds computers with **Add computer** or **/addbot** and starts "
        "with **Start** or **/start**."
    ),
    N_(
        "• Setup goes smalls first, then mediums, then larges, in turn order (WW-6): use the "
        "panel I send you, or **/place**."
    ),
    N_(
        "• **/undo** (or **Undo** under your move, for 30 s) takes back a placement, grow, "
        "build, move or pass if nobody moved since; never an invasion."
    ),
    N_(
        "• On your turn (you are pinged) do exactly one of **/grow** (a home piece one size "
        "larger), **/build** (a small on an empty home territory), **/move** (to an empty "
        "linked territory, sea lanes included) or **/invade** (a linked enemy) (WW-2), or "
        "click it on the panel **Your turn** opens. If your time runs out, a computer move is "
        "made for you."
    ),
    N_(
        "• Invasions are dice: one die per pip, the attacker needs a strictly higher total; a "
        "beaten defender retreats along any link or shrinks (WW-3). Lose every piece at home "
        "and you are out (WW-4); hold a whole other continent with a piece at home to win "
        "(WW-5)."
    ),
    N_(
        "• **/board**, **/status**, **/log** show the game; **/games** your games; **/rules** "
        "the rules with their numbers; **/replay** and **/export** replay a game of this "
        "channel; **/hint** suggests your move (only you see it). **/draw** proposes a "
        "draw; **/resign** hands your seat to a computer; the host can **/pause**, "
        "**/resume**, **/replace** a seat or **/cancel**; **Rematch** under the last "
        "message plays again."
    ),
)
"""/help of each variant, as a chat server shows it: one message a line."""


def _figure_choices() -> tuple[OptionChoice, ...]:
    """The ``card`` option of /sabotage and /spy: the figure itself, or an ace for it."""
    return (
        OptionChoice("figure", _("J / Q (the figure itself)"), False),
        OptionChoice("ace", _("A (an ace standing in for it)"), True),
    )


def _field(name: str, description: str) -> CommandOption:
    return CommandOption(name, description, (name,), "space")


def _route(kind: str, command: str, description: str, src: str, dst: str) -> CommandSpec:
    return CommandSpec(
        command,
        description,
        (kind,),
        (
            CommandOption("from", src, ("src",), "space"),
            CommandOption("to", dst, ("dst",), "space"),
        ),
    )


def ew_commands() -> tuple[CommandSpec, ...]:
    """European War's turn commands, described in the current language."""
    place = CommandSpec(
        "place",
        _("Setup: choose which home field gets your large, medium and small (EW-5)"),
        ("place_all", "place_piece"),
        (
            CommandOption(
                "large", _("Home field for your large"), ("large", "field"), "space", False
            ),
            CommandOption(
                "medium", _("Home field for your medium"), ("medium", "field"), "space", False
            ),
            CommandOption(
                "small", _("Home field for your small"), ("small", "field"), "space", False
            ),
        ),
        unavailable=_("You have no piece to place now (EW-5)."),
    )
    return (
        place,
        CommandSpec(
            "conscript",
            _("Put a small on an empty home field, or grow your piece there (EW-11)"),
            ("conscript",),
            (_field("field", _("One of your home fields")),),
        ),
        _route(
            "move",
            "move",
            _("Move a piece to an empty neighbouring field, or by sea between harbours (EW-11)"),
            _("The field your piece stands on"),
            _("The empty field it goes to"),
        ),
        _route(
            "attack",
            "invade",
            _("Attack an enemy piece on a neighbouring field: diplomacy, then a duel (EW-11)"),
            _("The field of your attacking piece"),
            _("The enemy's field you attack"),
        ),
        CommandSpec("arm", _("Armament: draw two cards (EW-11)"), ("arm",)),
        CommandSpec("pass", _("End your turn without an action"), ("pass",)),
        CommandSpec(
            "sabotage",
            _("Before your action: shrink an enemy piece on your home field with a J (EW-9)"),
            ("sabotage",),
            (
                _field("target", _("The enemy piece's field (one of your home fields)")),
                CommandOption(
                    "card",
                    _("Spend the J itself (default) or an A"),
                    ("ace",),
                    "flag",
                    False,
                    _figure_choices(),
                ),
            ),
        ),
        CommandSpec(
            "spy",
            _("Before your action: look at an opponent's hand with a Q (EW-10)"),
            ("spy",),
            (
                CommandOption("player", _("The opponent whose hand you see"), ("target",), "seat"),
                CommandOption(
                    "card",
                    _("Spend the Q itself (default) or an A"),
                    ("ace",),
                    "flag",
                    False,
                    _figure_choices(),
                ),
            ),
        ),
    )


def ww_commands() -> tuple[CommandSpec, ...]:
    """World War 5's turn commands, described in the current language."""
    place = CommandSpec(
        "place",
        _("Setup: choose which home territory gets your large, medium and small (WW-6)"),
        ("place_piece",),
        (
            CommandOption(
                "large", _("Home territory for your large"), ("large", "field"), "space", False
            ),
            CommandOption(
                "medium", _("Home territory for your medium"), ("medium", "field"), "space", False
            ),
            CommandOption(
                "small", _("Home territory for your small"), ("small", "field"), "space", False
            ),
        ),
        unavailable=_("You have no piece to place now (WW-6)."),
    )
    return (
        place,
        CommandSpec(
            "grow",
            _("World War 5: grow your piece on a home territory by one size (WW-2)"),
            ("grow",),
            (_field("field", _("A home territory with your piece on it")),),
        ),
        CommandSpec(
            "build",
            _("World War 5: build a small on an empty home territory (WW-2)"),
            ("build",),
            (_field("field", _("An empty home territory")),),
        ),
        _route(
            "move",
            "move",
            _("Move a piece to an empty neighbouring territory (WW-2)"),
            _("The territory your piece stands on"),
            _("The empty territory it goes to"),
        ),
        _route(
            "attack",
            "invade",
            _("Attack an enemy piece on a neighbouring territory; dice decide (WW-3)"),
            _("The territory of your attacking piece"),
            _("The enemy's territory you attack"),
        ),
        CommandSpec(
            "pass", _("End your turn: only when no other option is legal (WW-2)"), ("pass",)
        ),
    )


PANEL_DECISIONS = {
    "setup": "buttons",
    "duel": "buttons",
    "diplomacy": "buttons",
    "retreat": "select",
}
"""Decisions answered on a private panel (the retreat field from a select); turns are
played with the commands, or on the turn panel made from them."""


def decisions() -> dict[str, DecisionWords]:
    """How each decision is spoken of, in the current language, in the order a channel
    lists who is awaited: the player to move and whoever places pieces are pinged."""
    computer_to_play = _("▶ {who} is to play.")  # its name says it is a computer
    runs_out = _(" — time runs out {time}")
    until = _(" (until {time})")
    return {
        "turn": DecisionWords(
            _("your turn"),
            _("▶ {who}, your turn{until}."),
            runs_out,
            computer=computer_to_play,
            ping=True,
        ),
        "action": DecisionWords(
            _("another action"),
            _("▶ {who}, your attack was stopped: take another action{until}."),
            runs_out,
            computer=computer_to_play,
            ping=True,
        ),
        "setup": DecisionWords(
            _("placing your pieces"),
            _("▶ Placing pieces: {who}{until}. Use your panel or /place."),
            until,
            together=True,
            ping=True,
        ),
        "diplomacy": DecisionWords(
            _("the diplomacy window"),
            _("⚖ The diplomacy window is open{until}."),
            _(" until {time}"),
            together=True,
        ),
        "duel": DecisionWords(
            _("the duel"), _("⚔ {who} to play a card or stop{until}."), until, call=False
        ),
        "retreat": DecisionWords(
            _("your retreat"),
            _("↩ {who} chooses where the beaten piece retreats{until}."),
            until,
            call=False,
        ),
    }


CONTEST_STAGES = ("diplomacy", "duel")
CONTEST_STEPS = frozenset({"let_pass", "duel_started", "duel_card", "duel_stop", "timed_out"})
"""Events that only take a declared attack a step further (EW-13 to EW-17)."""


class BattleContest:
    """A declared attack, followed in one channel message from its diplomacy window to
    its duel's end (see :class:`rules.presentation.Contest`)."""

    def under_way(self, view: Any) -> bool:
        """An attack in its diplomacy window or its duel."""
        battle = view.battle
        return battle is not None and battle.stage in CONTEST_STAGES

    def step(self, events: Sequence[Event]) -> bool:
        """Only a pass, a card, a stop or a timeout within the attack."""
        return all(e.kind in CONTEST_STEPS for e in events)

    def result(self, events: Sequence[Event]) -> Event | None:
        """The duel's end (EW-18)."""
        return next((e for e in events if e.kind == "duel_over"), None)

    def lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The cards played by each side (the attack itself is in the running log)."""
        return battle_lines(view, names, board_of_view(view))[1:]


_FLAG_WORDS = {"yes": True, "true": True, "no": False, "false": False}
"""Typed yes / no (in English; the current language's yes and no are read too)."""
SEAT = Param("player", "seat")
_TONES = {"stop_attack": "danger", "stop_playing": "danger", "let_pass": "secondary"}


class PyramidWords:
    """The presentation spec of one pyramid game (see :class:`rules.presentation.Presentation`)."""

    def __init__(self, variant: str, title: str) -> None:
        self.variant = variant
        self.title = title
        self._ww = variant == "world_war_5"

    @property
    def side_word(self) -> str:
        """ "power" or "continent", in the current language."""
        return _("continent") if self._ww else _("power")

    @property
    def space_word(self) -> str:
        """ "field" or "territory", in the current language."""
        return _("territory") if self._ww else _("field")

    def options(self) -> tuple[OptionSpec, ...]:
        """The options a host may set, in the current language."""
        return ww_options() if self._ww else ew_options()

    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        """The diplomacy window (European War), the setup order, sea attacks or the
        Pyramid Arcade board when chosen."""
        out: list[str] = []
        if self.variant == "european_war":
            seconds = options.get("diplomacy_seconds", 30)
            out.append(_("diplomacy window {seconds} s").format(seconds=seconds))
        by_size = options.get("setup_order") == "by_size"
        out.append(
            _("setup: one piece at a time by size")
            if by_size
            else _("setup: all three pieces at once")
        )
        if self.variant == "european_war" and options.get("sea_attacks"):
            out.append(_("sea attacks allowed"))
        if self.variant == "world_war_5" and options.get("pyramid_arcade"):
            out.append(_("Pyramid Arcade board"))
        return out

    def help_text(self) -> str:
        """How to play this variant with the turn commands of PRODUCT.md, in the current
        language."""
        return "\n".join(_(line) for line in (WW_HELP if self._ww else EW_HELP))

    def side_name(self, side: str) -> str:
        """A power's or continent's name."""
        return load_board(self.variant).powers[side].name

    def find_side(self, text: str) -> str | None:
        """A power or continent by id, name or a short form ("russia")."""
        return load_board(self.variant).power_by_name(text)

    def computer_name(self, side: str) -> str:
        """ "Russia (computer)"."""
        return computer_name(self.side_name(side))

    def describe(self, event: Event, view: Any, names: Sequence[str]) -> str | None:
        """One sentence for ``event`` (see :func:`rules.describe.describe`)."""
        return describe(event, board_of_view(view), names)

    def action_label(self, action: Action, view: Any, names: Sequence[str]) -> str:
        """A short label for a choice."""
        return action_label(action, board_of_view(view), names)

    def value_label(self, param: Param, value: Value, view: Any, names: Sequence[str]) -> str:
        """A field's name, a card's name, a player's name, or yes / no."""
        if param.kind == "space" and isinstance(value, str):
            fields = board_of_view(view).fields
            return fields[value].name if value in fields else value
        if param.kind == "card" and isinstance(value, int):
            return card_name(value)
        if param.kind == "seat" and isinstance(value, int) and 0 <= value < len(names):
            seats = view.seats
            if value < len(seats):
                return _("{name} ({power})").format(
                    name=names[value], power=seats[value].power_name
                )
            return names[value]
        if param.kind == "flag":
            return _("yes") if value else _("no")
        return str(value)

    def prompt(self, kind: str, view: Any, names: Sequence[str]) -> str:
        """The question a decision asks, citing the variant's rulings."""
        return prompt_text(kind, view, board_of_view(view), names)

    def offered(self, kind: str, legal: Sequence[Action]) -> tuple[Action, ...]:
        """The legal actions, with *Stop with K* always offered in a diplomacy window."""
        return prompt_choices(kind, legal)

    def status_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The declared attack, if any, as everyone sees it."""
        return battle_lines(view, names, board_of_view(view))

    def summary_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """Turn, round and phase; the decks (European War); each seat's hand and supply;
        the discard pile's cards, face up (EW-24)."""
        lines = [
            _("Turn {turn}, round {round}, phase {phase}.").format(
                turn=view.turn, round=view.round, phase=phase_name(view.phase)
            )
        ]
        if self.variant == "european_war":
            lines.append(
                _("Draw pile {pile} cards, discard {discard}.").format(
                    pile=view.pile_size, discard=len(view.discard)
                )
            )
        for sv in view.seats:
            lines.append(
                n_(
                    "{player} — {power}: {n} card, supply {small}/{medium}/{large}.",
                    "{player} — {power}: {n} cards, supply {small}/{medium}/{large}.",
                    sv.hand_size,
                ).format(
                    player=names[sv.seat],
                    power=sv.power_name,
                    n=sv.hand_size,
                    small=sv.supply[0],
                    medium=sv.supply[1],
                    large=sv.supply[2],
                )
            )
        if view.discard:
            cards = ", ".join(card_name(c) for c in view.discard)
            lines.append(_("Discard pile: {cards}").format(cards=cards))
        return lines

    def private_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The viewer's hand and what espionage told it (private)."""
        return hand_lines(view, names)

    def hand_changed(self, before: Any, after: Any) -> bool:
        """The viewer's hand holds other cards (the order of a hand does not count)."""
        return sorted(before.hand or ()) != sorted(after.hand or ())

    def board_changed(self, before: Any, after: Any, events: Sequence[Event]) -> bool:
        """A piece moved, or the seats, the setup's end, a new turn or the end of the game."""
        return before.pieces != after.pieces or any(e.kind in BOARD_EVENTS for e in events)

    def result_line(self, view: Any, names: Sequence[str]) -> str | None:
        """Winners or a draw."""
        return result_line(view, names)

    def timeout_note(self, kind: str, name: str) -> str | None:
        """WW-2: a World War 5 turn that ran out got a computer move."""
        if self.variant == "world_war_5" and kind == "turn":
            return _("{name} ran out of time: a computer move was made for them (WW-2).").format(
                name=name
            )
        return None

    def rulebook(self) -> tuple[RuleSection, ...]:
        """This variant's sections of RULES.md."""
        return tuple(s for v, s in rule_sections() if v == self.variant)

    def commands(self) -> tuple[CommandSpec, ...]:
        """PRODUCT.md's turn commands of this variant, described in the current language."""
        return ww_commands() if self._ww else ew_commands()

    def look_up(
        self, command: str, typed: Mapping[str, str], view: Any, names: Sequence[str]
    ) -> Shown:
        """No look-up commands: /board, /hand and /status tell everything.

        Raises:
            RulesError: always.
        """
        raise RulesError(_("{game} has no /{command}.").format(game=self.title, command=command))

    def panel_decisions(self) -> Mapping[str, str]:
        """Setup, duel, diplomacy and retreat go on panels; turns use the commands."""
        return PANEL_DECISIONS

    def tally(self, kind: str, legal: Sequence[Any], view: Any, names: Sequence[str]) -> None:
        """None: no decision is answered by counts."""
        return None

    def decisions(self) -> Mapping[str, DecisionWords]:
        """Turns, setup, the diplomacy window, the duel and the retreat."""
        return decisions()

    def contest(self) -> BattleContest:
        """A declared attack's diplomacy window and duel, in one message."""
        return BattleContest()

    def choice_tone(self, kind: str) -> str:
        """Stopping an attack or a duel in red, letting it pass quietly."""
        return _TONES.get(kind, "primary")

    def value_of(self, param: Param, text: str, view: Any, names: Sequence[str]) -> Value | None:
        """A field by id or name, a player by seat number, name or power, a card by its
        name ("K♠", "ks"), yes / no."""
        text = text.strip()
        if param.kind == "space":
            return board_of_view(view).field_by_name(text)
        if param.kind == "seat":
            if text.isdigit():
                return int(text) if int(text) < len(names) else None
            low = text.lower()
            for seat, sv in enumerate(view.seats):
                if seat < len(names) and low == self.value_label(SEAT, seat, view, names).lower():
                    return seat
                name = names[seat].lower() if seat < len(names) else ""
                powers = (sv.power_name.lower(), sv.power_english.lower(), sv.power)
                if low and low in (name, *powers):
                    return seat
            return None
        if param.kind == "card":
            if text.isdigit():
                return int(text) if int(text) < 52 else None
            try:
                return parse_card(text)
            except ValueError:
                return None
        if param.kind == "flag":
            low = text.lower()
            mine = {_("yes").lower(): True, _("no").lower(): False}
            return _FLAG_WORDS.get(low, mine.get(low))
        return text or None

    def reader(self) -> LineReader:
        """The forgiving reader of typed lines (:mod:`rules.pyramids.typed`)."""
        from .typed import PyramidReader  # it reads action labels from this module

        return PyramidReader(self.variant, cards=self.variant != "world_war_5")

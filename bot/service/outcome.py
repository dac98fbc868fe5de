"""What the service hands a front end: outcomes, prompts, private notes, statuses.

An :class:`Outcome` is complete: a front end posts ``public_lines`` (plus a board image
when ``board_due``) in the game's channel, sends each :class:`PrivateNote` to its user
only, shows each :class:`Prompt` to its user with its choices and deadline, and needs no
further call to the engine. Public parts are made only from public events and the
spectator view; private parts only from the events addressed to that seat and its own
view (ARCHITECTURE house rule 4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import rules
from rules.cards import card_name
from rules.state import SIZE_NAMES


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat (or lobby entry) as anyone may see it."""

    seat: int | None
    """Engine seat once the game started; None in a lobby."""
    user_id: int | None
    """Discord user id; None for a computer player."""
    name: str
    computer_level: str | None
    power: str | None
    """Power id once started; the requested power (or None) in a lobby."""
    power_name: str | None
    hand_size: int | None = None
    agrees_draw: bool = False


@dataclass(frozen=True, slots=True)
class DecisionInfo:
    """An open decision with its deadline (wall-clock seconds; None: no limit/paused)."""

    seat: int
    kind: str
    user_id: int | None
    name: str
    deadline: float | None


@dataclass(frozen=True, slots=True)
class Prompt:
    """A private question to one player, answered with ``GameService.answer``.

    ``choices`` are what to offer (buttons / a select), ``labels`` their words. They are
    the legal actions, except in a diplomacy window where *Stop with K* is offered to
    every eligible player whatever they hold (EW-15; the engine refuses it without a K).
    Pass ``version`` back so an old or double-clicked button is refused.
    """

    game_id: int
    version: int
    seat: int
    user_id: int | None
    kind: str
    text: str
    choices: tuple[rules.Action, ...]
    labels: tuple[str, ...]
    deadline: float | None


@dataclass(frozen=True, slots=True)
class PrivateNote:
    """What one player alone learns from an outcome (DM or ephemeral)."""

    user_id: int
    seat: int
    lines: tuple[str, ...]
    """Private events in words (cards received, a spy's look)."""
    hand_changed: bool
    view: rules.View
    """The player's own view: its hand, what it learnt by espionage."""


@dataclass(frozen=True, slots=True)
class LobbyInfo:
    """A lobby as its message shows it."""

    host_id: int | None
    variant: str
    seats: tuple[SeatInfo, ...]
    max_players: int
    arranged: bool
    options: Mapping[str, Any]
    turn_timeout: float | None
    expires_at: float | None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of one service operation (or of a timer / computer move).

    ``ok`` False means nothing changed and ``error`` says why, in words for the user
    (send it ephemerally). ``version`` is the game's action count after the operation:
    outcomes of one game can be delivered in that order.
    """

    ok: bool
    game_id: int | None = None
    error: str | None = None
    kind: str = ""
    """What produced it: lobby, start, player, computer, timeout, reminder, seat, draw,
    pause, resume, cancel, expired, archive."""
    channel_id: int | None = None
    guild_id: int | None = None
    status: str = ""
    version: int = 0
    public_lines: tuple[str, ...] = ()
    board_due: bool = False
    spectator_view: rules.View | None = None
    events: tuple[rules.Event, ...] = ()
    """The public events only (for arrows and highlights on the board)."""
    private: Mapping[int, PrivateNote] = field(default_factory=dict)
    """user id -> what that user alone may see."""
    prompts: tuple[Prompt, ...] = ()
    """New questions for human players (computer seats are played by the service)."""
    decisions: tuple[DecisionInfo, ...] = ()
    """Every open decision after the operation, with deadlines."""
    mentions: tuple[int, ...] = ()
    """Users to ping (those with a new prompt)."""
    game_over: bool = False
    lobby: LobbyInfo | None = None
    names: tuple[str, ...] = ()
    """Display names by engine seat (running game) or join order (lobby): what a front
    end passes to the renderer."""

    @staticmethod
    def refused(game_id: int | None, error: str) -> Outcome:
        """A refusal: nothing changed."""
        return Outcome(ok=False, game_id=game_id, error=error)


@dataclass(frozen=True, slots=True)
class GameStatus:
    """``/status``: everything public about a game."""

    game_id: int
    channel_id: int
    guild_id: int | None
    status: str
    variant: str
    host_id: int | None
    version: int
    paused: bool
    seats: tuple[SeatInfo, ...]
    decisions: tuple[DecisionInfo, ...]
    lines: tuple[str, ...]
    view: rules.View | None
    result: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class UserView:
    """``/hand``, ``/board``: what one user may see of a game, and their open prompt."""

    game_id: int
    seat: int | None
    view: rules.View
    prompt: Prompt | None


# ---------------------------------------------------------------------- words
def short_power_name(name: str) -> str:
    """ "Central Powers (Germany and Austria-Hungary)" -> "Central Powers",
    "Britain and its allies" -> "Britain": for computer players' names."""
    return name.split(" (")[0].removesuffix(" and its allies")


def computer_name(power_name: str) -> str:
    """The display name of a computer player in a started game."""
    return f"{short_power_name(power_name)} (computer)"


def action_label(action: rules.Action, board: rules.Board, names: Sequence[str]) -> str:
    """A short label for a choice (a button, a select option, the console)."""
    f = board.fields

    def name(field_id: str) -> str:
        return f[field_id].name if field_id in f else field_id

    a: Any = action
    k = action.kind
    labels = {
        "arm": "Arm (draw two cards)",
        "pass": "Pass",
        "let_pass": "Let it pass",
        "stop_playing": "Stop playing",
        "timeout": "Time out",
        "agree_draw": "Agree to a draw",
    }
    if k in labels:
        return labels[k]
    if k == "place_all":
        return f"Large on {name(a.large)}, medium on {name(a.medium)}, small on {name(a.small)}"
    if k == "place_piece":
        return f"On {name(a.field)}"
    if k == "sabotage":
        return f"Sabotage {name(a.target)} with {'A' if a.ace else 'J'}"
    if k == "spy":
        target = names[a.target] if 0 <= a.target < len(names) else str(a.target)
        return f"Spy on {target} with {'A' if a.ace else 'Q'}"
    if k in ("conscript", "grow", "build"):
        return f"{k.capitalize()} on {name(a.field)}"
    if k == "move":
        return f"Move {name(a.src)} → {name(a.dst)}"
    if k == "attack":
        return f"Invade {name(a.dst)} from {name(a.src)}"
    if k == "stop_attack":
        return f"Stop with {'A' if a.ace else 'K'}"
    if k == "play_card":
        return f"Play {card_name(a.card)}"
    if k == "retreat":
        return f"Retreat to {name(a.field)}"
    return k


def prompt_text(kind: str, view: rules.View, board: rules.Board, names: Sequence[str]) -> str:
    """The question a prompt asks, in words, citing the variant's own rulings."""
    b = view.battle
    ww = view.variant == "world_war_5"
    home = "home territory" if ww else "home field"
    if kind == "setup":
        rule = "WW-6" if ww else "EW-5"
        queue = view.setup_queue
        if queue and queue[0][1]:
            return f"Place your {SIZE_NAMES[queue[0][1]]} on a {home} ({rule})."
        return f"Place your pieces: which {home} gets the large, medium and small ({rule})."
    if kind == "turn":
        if ww:
            return "Your turn: grow, build, move or invade (WW-2)."
        return "Your turn: sabotage or spy first if you like, then one action (EW-8, EW-11)."
    if kind == "action":
        return "Your attack was stopped: conscript, move, arm or pass (EW-14)."
    if b is not None:
        where = board.fields[b.dst].name
        if kind == "diplomacy":
            return (
                f"{names[b.attacker]} attacks {names[b.defender]} on {where}. "
                "Stop it with a K, or let it pass (EW-13)."
            )
        if kind == "duel":
            if view.viewer == b.attacker and not b.attacker_cards:
                return (
                    f"Duel on {where}: play your first card (if your time runs out, "
                    "the attack is withdrawn, EW-17)."
                )
            return f"Duel on {where}: play a card or stop (EW-17)."
        if kind == "retreat":
            rule = "WW-3" if ww else "EW-19"
            return f"Your piece lost {where}: choose where it retreats ({rule})."
    return "Your decision."


def prompt_choices(kind: str, legal: Sequence[rules.Action]) -> tuple[rules.Action, ...]:
    """What to offer: the legal actions, with *Stop with K* always offered in a
    diplomacy window (EW-15: the same prompt whatever the player holds)."""
    choices = list(legal)
    if kind == "diplomacy" and rules.StopAttack(False) not in choices:
        choices.insert(0, rules.StopAttack(False))
    return tuple(choices)

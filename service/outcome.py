"""What the service hands a front end: outcomes, prompts, private notes, statuses.

An :class:`Outcome` is complete: a front end posts ``public_lines`` (plus a board image
when ``board_due``) in the game's channel, sends each :class:`PrivateNote` to its user
only, shows each :class:`Prompt` to its user with its choices and deadline, and needs no
further call to the engine. Public parts are made only from public events and the
spectator view; private parts only from the events addressed to that seat and its own
view (ARCHITECTURE house rule 4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import rules
from rules import pyramids
from rules.pyramids.words import (  # noqa: F401  (the words' old home; callers import them here)
    action_label,
    computer_name,
    prompt_choices,
    prompt_text,
    short_power_name,
)


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
    choices: tuple[pyramids.Action, ...]
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
    view: pyramids.View
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
    spectator_view: pyramids.View | None = None
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
    view: pyramids.View | None
    result: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class UserView:
    """``/hand``, ``/board``: what one user may see of a game, and their open prompt."""

    game_id: int
    seat: int | None
    view: pyramids.View
    prompt: Prompt | None

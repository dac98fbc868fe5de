"""What the service hands a front end: outcomes, prompts, private notes, statuses.

An :class:`Outcome` is complete: a front end posts ``public_lines`` (plus a board image
when ``board_due``) in the game's channel, sends each :class:`PrivateNote` to its user
only, shows each :class:`Prompt` to its user with its choices and deadline, and needs no
further call to the engine. Public parts are made only from public events and the
spectator view; private parts only from the events addressed to that seat and its own
view (ARCHITECTURE house rule 4).

Views and actions are the game's own (``Any`` here): a front end words them through the
game's presentation spec (``rules.game_named(outcome.variant).presentation``), which
the service used for every line it made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import rules
from rules import i18n
from rules.presentation import Tally

from .catalogue import _


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
    """The seat's side (a power, a continent, a mark) once started; the requested side
    (or None) in a lobby."""
    power_name: str | None
    """The side's name for people."""
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

    ``choices`` are what to offer (buttons / a select), ``labels`` their words: the legal
    actions, plus any the game's rules say must be offered whatever the player holds
    (the presentation's ``offered``; the game refuses them if not held). ``text`` is the
    question. Pass ``version`` back so an old or double-clicked button is refused.
    """

    game_id: int
    version: int
    seat: int
    user_id: int | None
    kind: str
    text: str
    choices: tuple[Any, ...]
    labels: tuple[str, ...]
    deadline: float | None
    tally: Tally | None = None
    """For a decision the game answers by counts per type (its presentation's ``tally``):
    the types, how many to choose in all, and the suggestion a panel starts at."""
    language: str = i18n.DEFAULT
    """The language its words are in (its player's, see :mod:`service.languages`): what
    a front end writes its own words about it in."""


@dataclass(frozen=True, slots=True)
class PrivateNote:
    """What one player alone learns from an outcome (DM or ephemeral)."""

    user_id: int
    seat: int
    lines: tuple[str, ...]
    """Private events in words (cards received, a spy's look)."""
    hand_changed: bool
    """The player's own holding (its hand) changed: show it again."""
    view: Any
    """The player's own view (its hand, what it alone learnt)."""
    private_lines: tuple[str, ...] = ()
    """What the player alone knows now, in words (its hand): the presentation's
    ``private_lines`` of ``view``."""
    language: str = i18n.DEFAULT
    """The language its words are in (its player's, see :mod:`service.languages`)."""


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
    language: str = i18n.DEFAULT
    """The language of the game's channel."""


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
    pause, resume, cancel, expired, archive, undo."""
    channel_id: int | None = None
    guild_id: int | None = None
    status: str = ""
    version: int = 0
    public_lines: tuple[str, ...] = ()
    board_due: bool = False
    spectator_view: Any = None
    """The game as a spectator sees it (None before the start)."""
    events: tuple[rules.Event, ...] = ()
    """The public events of this operation only."""
    board_events: tuple[rules.Event, ...] = ()
    """The public events of the turn so far, oldest first: of every action taken in the
    turn of this operation's last action, that one included (see :mod:`service.turns`);
    what a board drawn now tells in words and shows with arrows and highlights. (Of a
    game another process hosts: this operation's own; its host draws the board.)"""
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
    variant: str = ""
    """The registry name of the game (its presentation words views and actions)."""
    status_lines: tuple[str, ...] = ()
    """Public lines about the position beyond the board (the presentation's
    ``status_lines`` of the spectator view; a battle under way)."""
    result_line: str | None = None
    """The end of a finished game in one line (None while it goes on)."""
    undo_until: float | None = None
    """The action may be taken back by the person who took it (:meth:`GameService.undo`)
    until this wall-clock time, unless someone acts first: a front end offers Undo."""
    language: str = i18n.DEFAULT
    """The language of the game's channel: its public words are in it, and a front end
    writes what it shows there itself (a board's text, the waiting lines) in it too."""

    @staticmethod
    def refused(game_id: int | None, error: str) -> Outcome:
        """A refusal: nothing changed."""
        return Outcome(ok=False, game_id=game_id, error=error)

    def then(self, later: Outcome) -> Outcome:
        """This outcome followed by ``later``, from the next action of the same game, as
        one: the words, events and private lines of both; the rest (the position, the
        prompts, the decisions) as ``later`` leaves them."""
        private = dict(later.private)
        for user, note in self.private.items():
            last = private.get(user)
            private[user] = (
                note
                if last is None
                else replace(
                    last,
                    lines=note.lines + last.lines,
                    hand_changed=note.hand_changed or last.hand_changed,
                )
            )
        return replace(
            later,
            public_lines=self.public_lines + later.public_lines,
            board_due=self.board_due or later.board_due,
            events=self.events + later.events,
            private=private,
        )


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
    """The status in words: the game, whose decision, the presentation's summary."""
    view: Any
    """The spectator's view (None before the start)."""
    result: Mapping[str, Any] | None
    language: str = i18n.DEFAULT
    """The language of the game's channel (``lines`` are in the caller's)."""


@dataclass(frozen=True, slots=True)
class GameListing:
    """``/games``: one unfinished game of a player, read from the store (whichever process
    hosts it): where it is, who sits there and who it waits for."""

    game_id: int
    channel_id: int
    guild_id: int | None
    status: str
    variant: str
    paused: bool
    seats: tuple[SeatInfo, ...]
    decisions: tuple[DecisionInfo, ...]
    """Every open decision with its deadline (None: no limit, or paused)."""


@dataclass(frozen=True, slots=True)
class UserView:
    """``/hand``, ``/board``: what one user may see of a game, and their open prompt."""

    game_id: int
    seat: int | None
    view: Any
    """The user's own view, or a spectator's if not seated."""
    prompt: Prompt | None
    variant: str = ""
    """The registry name of the game."""
    private_lines: tuple[str, ...] = ()
    """What the user alone knows (its hand), in words; empty for a spectator."""


@dataclass(frozen=True, slots=True)
class HintInfo:
    """``/hint``: what the strongest computer player would do in the asker's place, for
    the asker's own open decision (worked out from the asker's view alone)."""

    game_id: int
    seat: int
    kind: str
    """The decision it is for."""
    action: Any
    label: str
    """The action in the game's words."""
    why: tuple[str, ...]
    """One or two sentences why (none when the game's player cannot say)."""
    taken: int | None
    """Hints the asker has taken in this game, this one included (None: not counted)."""

    def lines(self) -> list[str]:
        """The hint in Markdown lines, in the current language: the action, why, and the
        count."""
        out = [_("**Hint:** {action}").format(action=self.label), *self.why]
        if self.taken is not None:
            out.append(_("(Hints you took in this game: {count}.)").format(count=self.taken))
        return out

"""Replays and the public record of a game, rebuilt from what the store keeps.

A started game is stored as its creation (the game, the sides asked for, the options and
the seed) and its action log (each action with every event it caused, the hidden chance
steps included). :func:`rebuild` starts the game again from its creation and applies the
logged actions in order, each with the chance outcomes it recorded, checking at the end
that it reached the stored position; every step keeps only what the channel saw: the
spectator's view after it and its public events, in words. So every game that ever
started has a replay, and nothing of it comes from a hand.

:meth:`ReplayOps.record` is the same as plain JSON data for an export. It leaves out the
seed (it deals every hand of the game again), the actions' own fields (a field may name
a card only its player saw; the public events tell what each action did) and anything
addressed to one seat or to nobody.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import rules
from rules import contract
from rules.chance import CHANCE
from rules.presentation import Presentation

from .catalogue import N_, _, n_
from .core import ServiceBase, ServiceError, describe_all
from .models import ActionRecord, GameRecord, PlayedGame, standing
from .outcome import SeatInfo
from .queries import STATUS_WORDS

log = logging.getLogger("service")

RECORD_FORMAT = "game-record"
"""The ``format`` of an exported record (:meth:`ReplayOps.record`)."""
RECORD_VERSION = 1
BROKEN = N_("This game's stored record cannot be replayed; nothing of it can be shown.")


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a game as its channel saw it: the start (``number`` 0) or an action."""

    number: int
    seat: int | None
    """Who acted (``None``: the start; :data:`rules.SYSTEM`: the table)."""
    at: float
    """When (wall-clock seconds)."""
    lines: tuple[str, ...]
    """What happened, in the channel's words (never empty)."""
    events: tuple[rules.Event, ...]
    """Its public events."""
    view: Any
    """The spectator's view after it."""
    title: str
    """Its name in a replay: ``Start``, or ``12 / 60``."""

    @property
    def caption(self) -> str:
        """What happened, in one paragraph."""
        return " ".join(self.lines)


@dataclass(frozen=True, slots=True)
class Replay:
    """A started game's steps as its channel saw them."""

    game_id: int
    variant: str
    title: str
    """The game's title, as its presentation gives it."""
    status: str
    seats: tuple[SeatInfo, ...]
    steps: tuple[ReplayStep, ...]
    result: rules.Result | None
    result_line: str | None
    started_at: float
    ended_at: float | None

    @property
    def names(self) -> tuple[str, ...]:
        """Display names by seat."""
        return tuple(s.name for s in self.seats)

    @property
    def actions(self) -> int:
        """How many actions the game had (so far)."""
        return len(self.steps) - 1

    def text(self) -> str:
        """The whole replay in words (the current language): a heading, then one
        paragraph per step."""
        head = _("{game}: {seats}.").format(
            game=self.title, seats=", ".join(seat_words(s) for s in self.seats)
        )
        status = _(STATUS_WORDS.get(self.status, self.status)).capitalize()
        count = n_("{status}, {count} action.", "{status}, {count} actions.", self.actions)
        out = [head, count.format(status=status, count=self.actions), ""]
        out += [f"{step.title}. {step.caption}" for step in self.steps]
        if self.result_line:
            out += ["", self.result_line]
        return "\n".join(out) + "\n"


def _quiet(seat: int, names: Sequence[str], words: Presentation, deciding: dict[int, str]) -> str:
    """The words of a step whose events the channel does not see: who acted, and on
    which decision."""
    kind = words.decisions().get(deciding.get(seat, ""))
    if 0 <= seat < len(names):
        if kind is not None:
            return _("{name} answered ({decision}).").format(name=names[seat], decision=kind.name)
        return _("{name} acted.").format(name=names[seat])
    if kind is not None:
        return _("The table answered ({decision}).").format(decision=kind.name)
    return _("The table acted.")


def seat_words(seat: SeatInfo) -> str:
    """A seat as a replay names it: a person with their side (``Ann (<side>)``), a
    computer by its name (which names its side already)."""
    if seat.power_name and seat.computer_level is None:
        return f"{seat.name} ({seat.power_name})"
    return seat.name


class ReplayOps(ServiceBase):
    """Replays and records of :class:`service.GameService` (read only)."""

    async def replay(self, game_id: int, channel_id: int | None = None) -> Replay:
        """Game ``game_id`` (running or over) as its channel saw it, step by step, from
        its stored log; with ``channel_id``, only a game of that channel. The game is
        rebuilt in a thread: a long log takes a while.

        Raises:
            ServiceError: no such game (in that channel), it has not started, or its
                record does not replay (a fault, logged).
        """
        rec = await self.store.load_game(game_id)
        if rec is None or channel_id not in (None, rec.channel_id):
            raise ServiceError(
                _("There is no game #{id} in this channel.").format(id=game_id)
                if channel_id is not None
                else _("There is no game #{id}.").format(id=game_id)
            )
        if rec.creation is None or rec.state is None or rec.started_at is None:
            raise ServiceError(_("That game has not started yet: there is nothing to replay."))
        records = played(await self.store.actions(game_id), rec.version)
        try:
            return await asyncio.to_thread(rebuild, rec, records)
        except (rules.RulesError, KeyError, TypeError, ValueError):
            log.exception("game %s: its stored record does not replay", game_id)
            raise ServiceError(_(BROKEN)) from None

    async def played_in_channel(
        self, guild_id: int, channel_id: int, limit: int = 25
    ) -> list[PlayedGame]:
        """The last ``limit`` games started in a server's channel, newest first."""
        return await self.store.played_in_channel(guild_id, channel_id, limit)

    async def record(self, game_id: int, channel_id: int | None = None) -> dict[str, Any]:
        """The public record of game ``game_id`` as JSON data (see the module docstring).

        Raises:
            ServiceError: as :meth:`replay`.
        """
        return public_record(await self.replay(game_id, channel_id))


def played(log: Sequence[ActionRecord], version: int) -> list[ActionRecord]:
    """The actions of a game's stored ``log`` that a replay plays, in order: those up to
    its stored position ``version`` (the log may have grown since the game was read),
    an action taken back and the row taking it back left out (:func:`standing`). The one
    place a replay reads the log."""
    return standing([r for r in log if r.seq <= version])


def rebuild(rec: GameRecord, records: Sequence[ActionRecord]) -> Replay:
    """The steps of the stored game ``rec`` from its creation and the actions of its log
    a replay plays (``records``, see :func:`played`), numbered from 1.

    Raises:
        rules.RulesError: an action does not apply, or the game rebuilt differs from the
            stored one.
        KeyError, TypeError, ValueError: a malformed creation record.
    """
    assert rec.creation is not None and rec.state is not None and rec.started_at is not None
    game = contract.game_named(rec.variant)
    words = game.presentation
    seats = sorted((s for s in rec.seats if s.seat is not None), key=lambda s: s.seat or 0)
    names = [s.display_name for s in seats]
    creation = rec.creation
    state, _events = game.new_game(
        list(creation["powers"]),
        int(creation["seed"]),
        game.options_from_dict(dict(creation["options"])),
        bool(creation["arranged"]),
    )
    total = len(records)
    start = [rules.Event.from_dict(e) for e in rec.start_events]
    steps = [_step(0, None, rec.started_at, start, state, words, names, _("Start"))]
    for number, r in enumerate(records, start=1):
        events = [rules.Event.from_dict(e) for e in r.events]
        state.force_chance(
            [e.data["outcome"] for e in events if e.kind == CHANCE and e.to == rules.HIDDEN]
        )
        deciding = {d.seat: d.kind for d in state.deciders()}
        state.apply(r.seat, game.action_from_dict(r.action))
        title = f"{number} / {total}"
        step = _step(number, r.seat, r.created_at, events, state, words, names, title)
        if not step.lines:
            step = replace(step, lines=(_quiet(r.seat, names, words, deciding),))
        steps.append(step)
    if json.loads(json.dumps(state.to_dict())) != rec.state:
        raise rules.InvalidState(f"game {rec.id}: its log does not lead to its stored position")
    last = steps[-1].view
    return Replay(
        game_id=rec.id,
        variant=rec.variant,
        title=words.title,
        status=rec.status,
        seats=tuple(
            SeatInfo(
                seat=s.seat,
                user_id=s.user_id,
                name=s.display_name,
                computer_level=s.computer_level,
                power=s.power,
                power_name=words.side_name(s.power) if s.power else None,
            )
            for s in seats
        ),
        steps=tuple(steps),
        result=state.result(),
        result_line=words.result_line(last, names),
        started_at=rec.started_at,
        ended_at=rec.ended_at,
    )


def _step(
    number: int,
    seat: int | None,
    at: float,
    events: Sequence[rules.Event],
    state: contract.State,
    words: Presentation,
    names: Sequence[str],
    title: str,
) -> ReplayStep:
    """A step: the spectator's view of ``state`` as it now stands, and the public
    ``events`` that led to it, in words."""
    view = state.view_for(None)
    public = tuple(e for e in events if e.public)
    lines = tuple(describe_all(words, public, view, names, None))
    return ReplayStep(number, seat, at, lines, public, view, title)


def _when(seconds: float | None) -> str | None:
    """A time as ISO 8601 in UTC."""
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def public_record(replay: Replay) -> dict[str, Any]:
    """``replay`` as JSON data: the game, its players, every step's public events and
    words, and how it ended (see the module docstring for what is left out)."""
    result = replay.result
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": {
            "id": replay.game_id,
            "variant": replay.variant,
            "title": replay.title,
            "status": replay.status,
            "started_at": _when(replay.started_at),
            "ended_at": _when(replay.ended_at),
            "actions": replay.actions,
        },
        "players": [
            {
                "seat": s.seat,
                "name": s.name,
                "side": s.power,
                "side_name": s.power_name,
                "computer": s.computer_level,
            }
            for s in replay.seats
        ],
        "result": None
        if result is None
        else {
            "winners": list(result.winners),
            "draw": result.draw,
            "reason": result.reason,
            "words": replay.result_line,
        },
        "steps": [
            {
                "number": step.number,
                "seat": step.seat,
                "at": _when(step.at),
                "events": [{"kind": e.kind, "data": e.data} for e in step.events],
                "words": list(step.lines),
            }
            for step in replay.steps
        ],
    }

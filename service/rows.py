"""Rows as the stores read them (the columns of :class:`service.sql.Q`'s selects, in
order) turned into records, and JSON as the stores keep it: the same for every
implementation of :class:`service.store.Store`."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from .models import (
    ActionRecord,
    DecisionRecord,
    Departure,
    FinishedGame,
    GameRecord,
    GameSettings,
    OutboxRecord,
    PlayedGame,
    PlayerResult,
    Rating,
    SeatedGame,
    SeatRecord,
)


class Row(Protocol):
    """A row as a driver returns it: its columns by position."""

    def __getitem__(self, index: int, /) -> Any: ...


def dumps(value: Any) -> str:
    """``value`` as compact JSON text (how the stores keep JSON)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | None) -> Any:
    """JSON text back to a value (None stays None)."""
    return None if text is None else json.loads(text)


def game(r: Row) -> GameRecord:
    """A row of ``Q.GAME_COLUMNS`` (seats, decisions and last actions not yet filled in)."""
    return GameRecord(
        id=int(r[0]),
        guild_id=r[1],
        channel_id=int(r[2]),
        status=str(r[3]),
        variant=str(r[4]),
        host_id=r[5],
        settings=GameSettings.from_dict(loads(r[6])),
        version=int(r[7]),
        revision=int(r[8]),
        created_at=float(r[9]),
        creation=loads(r[10]),
        start_events=loads(r[11]) or [],
        state=loads(r[12]),
        started_at=r[13],
        ended_at=r[14],
        result=loads(r[15]),
        paused_at=r[16],
    )


def seat(r: Row) -> SeatRecord:
    """A row of ``Q.SEAT_COLUMNS``."""
    return SeatRecord(
        id=int(r[1]),
        user_id=r[2],
        computer_level=r[3],
        display_name=str(r[4]),
        joined_at=float(r[5]),
        requested_power=r[6],
        seat=r[7],
        power=r[8],
        agrees_draw=bool(r[9]),
    )


def decision(r: Row) -> DecisionRecord:
    """A row of ``Q.DECISION_COLUMNS``."""
    return DecisionRecord(
        seat=int(r[1]),
        kind=str(r[2]),
        opened_version=int(r[3]),
        duration=r[4],
        due_at=r[5],
        remind_at=r[6],
    )


def seated_game(r: Row) -> SeatedGame:
    """A row of ``Q.select_user_games`` (its seats and decisions not yet filled in)."""
    return SeatedGame(int(r[0]), r[1], int(r[2]), str(r[3]), str(r[4]), r[5])


def action(r: Row) -> ActionRecord:
    """A row of ``Q.select_actions``."""
    return ActionRecord(
        seq=int(r[0]),
        seat=int(r[1]),
        user_id=r[2],
        source=str(r[3]),
        action=json.loads(r[4]),
        events=json.loads(r[5]),
        created_at=float(r[6]),
    )


def played(rows: Iterable[Row]) -> list[PlayedGame]:
    """Rows of ``Q.select_played_in_channel`` (a game's seats in a row, in seat order)
    as one record per game, in the rows' order."""
    games: dict[int, tuple[Row, list[str]]] = {}
    for r in rows:
        games.setdefault(int(r[0]), (r, []))[1].append(str(r[6]))
    return [
        PlayedGame(
            id=int(r[0]),
            variant=str(r[1]),
            status=str(r[2]),
            started_at=float(r[3]),
            ended_at=None if r[4] is None else float(r[4]),
            names=tuple(names),
        )
        for r, names in games.values()
    ]


def outbox(r: Row) -> OutboxRecord:
    """A row of ``Q.OUTBOX_COLUMNS`` (its files not yet filled in)."""
    return OutboxRecord(
        int(r[0]),
        r[1],
        r[2],
        r[3],
        r[4],
        r[5],
        int(r[6]),
        r[7],
        loads(r[8]) or {},
        loads(r[9]) or {},
        float(r[10]),
        [],
    )


def finished(r: Row) -> FinishedGame:
    """A row of ``Q.FINISHED_COLUMNS`` (seats and departures not yet filled in)."""
    return FinishedGame(
        id=int(r[0]),
        variant=str(r[1]),
        guild_id=r[2],
        ended_at=float(r[3]),
        result=loads(r[4]),
        rating_seq=None if r[5] is None else int(r[5]),
    )


def departure(r: Row) -> Departure:
    """A row of ``Q.DEPARTURE_COLUMNS`` (its game id first)."""
    return Departure(seat=int(r[1]), user_id=int(r[2]), display_name=str(r[3]), left_at=float(r[4]))


def finished_games(
    games: Sequence[Row], seats: Sequence[Row], departures: Sequence[Row]
) -> list[FinishedGame]:
    """Finished games (rows of ``Q.FINISHED_COLUMNS``, in order) with their seats (rows of
    ``Q.SEAT_COLUMNS``) and departures (rows of ``Q.DEPARTURE_COLUMNS``) filled in."""
    out = {int(r[0]): finished(r) for r in games}
    for r in seats:
        if (g := out.get(int(r[0]))) is not None:
            g.seats.append(seat(r))
    for r in departures:
        if (g := out.get(int(r[0]))) is not None:
            g.departures.append(departure(r))
    for g in out.values():
        g.seats.sort(key=lambda s: s.seat or 0)
    return list(out.values())


def result(r: Row) -> PlayerResult:
    """A row of ``Q.RESULT_COLUMNS``."""
    return PlayerResult(
        game_id=int(r[0]),
        user_id=int(r[1]),
        variant=str(r[2]),
        guild_id=r[3],
        seq=int(r[4]),
        seat=int(r[5]),
        power=r[6],
        display_name=str(r[7]),
        outcome=str(r[8]),
        ended_at=float(r[9]),
        mu=None if r[10] is None else float(r[10]),
        sigma=None if r[11] is None else float(r[11]),
    )


def result_params(p: PlayerResult) -> tuple[Any, ...]:
    """A result's values in the order of ``Q.RESULT_COLUMNS``."""
    return (
        p.game_id,
        p.user_id,
        p.variant,
        p.guild_id,
        p.seq,
        p.seat,
        p.power,
        p.display_name,
        p.outcome,
        p.ended_at,
        p.mu,
        p.sigma,
    )


def rating(r: Row) -> Rating:
    """A row of ``Q.RATING_COLUMNS``."""
    return Rating(
        variant=str(r[0]),
        user_id=int(r[1]),
        display_name=str(r[2]),
        mu=float(r[3]),
        sigma=float(r[4]),
        ordinal=float(r[5]),
        games=int(r[6]),
        wins=int(r[7]),
        updated_at=float(r[8]),
    )


def rating_params(r: Rating) -> tuple[Any, ...]:
    """A rating's values in the order of ``Q.RATING_COLUMNS``."""
    return (
        r.variant,
        r.user_id,
        r.display_name,
        r.mu,
        r.sigma,
        r.ordinal,
        r.games,
        r.wins,
        r.updated_at,
    )

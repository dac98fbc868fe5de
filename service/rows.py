"""Rows as the stores read them (the columns of :class:`service.sql.Q`'s selects, in
order) turned into records, and JSON as the stores keep it: the same for every
implementation of :class:`service.store.Store`."""

from __future__ import annotations

import json
from typing import Any, Protocol

from .models import (
    ActionRecord,
    DecisionRecord,
    GameRecord,
    GameSettings,
    OutboxRecord,
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

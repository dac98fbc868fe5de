"""Actions: small frozen value types, one per kind of decision a player can make.

Every action converts to a JSON-compatible dict (``{"kind": ..., **fields}``) and back, so
the action log can be stored and a game replayed exactly.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from ..contract import SYSTEM
from ..errors import InvalidState

__all__ = ["SYSTEM", "Action", "action_from_dict"]


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. ``kind`` is the stable name used in storage."""

    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-compatible dict."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = getattr(self, f.name)
        return out


@dataclass(frozen=True, slots=True)
class PlaceAll(Action):
    """Setup (EW-5, all at once): which home field gets the large, medium and small."""

    kind: ClassVar[str] = "place_all"
    large: str
    medium: str
    small: str


@dataclass(frozen=True, slots=True)
class PlacePiece(Action):
    """Setup by size (EW-5 option, WW-6): the size being placed now goes on ``field``."""

    kind: ClassVar[str] = "place_piece"
    field: str


@dataclass(frozen=True, slots=True)
class Sabotage(Action):
    """EW-9: shrink an enemy piece on one of your home fields, spending J (or A)."""

    kind: ClassVar[str] = "sabotage"
    target: str
    ace: bool = False


@dataclass(frozen=True, slots=True)
class Spy(Action):
    """EW-10: look at one opponent's hand, spending Q (or A)."""

    kind: ClassVar[str] = "spy"
    target: int
    ace: bool = False


@dataclass(frozen=True, slots=True)
class Conscript(Action):
    """EW-11: a small onto an empty home field, or grow your piece on a home field."""

    kind: ClassVar[str] = "conscript"
    field: str


@dataclass(frozen=True, slots=True)
class Grow(Action):
    """WW-2 GROW: a piece on a home territory becomes one size larger."""

    kind: ClassVar[str] = "grow"
    field: str


@dataclass(frozen=True, slots=True)
class Build(Action):
    """WW-2 BUILD: a small onto an empty home territory."""

    kind: ClassVar[str] = "build"
    field: str


@dataclass(frozen=True, slots=True)
class Move(Action):
    """EW-11 / WW-2: move a piece to an empty linked field (or by sea, EW)."""

    kind: ClassVar[str] = "move"
    src: str
    dst: str


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """EW-11 attack / WW-2 INVADE: the piece on ``src`` attacks the enemy on ``dst``."""

    kind: ClassVar[str] = "attack"
    src: str
    dst: str


@dataclass(frozen=True, slots=True)
class Arm(Action):
    """EW-11 armament: draw two cards."""

    kind: ClassVar[str] = "arm"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """End the turn without an action (EW-11; WW-2 only when nothing else is legal)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class StopAttack(Action):
    """EW-13: stop the declared attack with K (or A as K)."""

    kind: ClassVar[str] = "stop_attack"
    ace: bool = False


@dataclass(frozen=True, slots=True)
class LetPass(Action):
    """EW-15: let the declared attack go ahead."""

    kind: ClassVar[str] = "let_pass"


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """EW-17: put one card from your hand into the duel, face up."""

    kind: ClassVar[str] = "play_card"
    card: int


@dataclass(frozen=True, slots=True)
class StopPlaying(Action):
    """EW-17: play no more cards in this duel."""

    kind: ClassVar[str] = "stop_playing"


@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """EW-19: the beaten defender retreats to ``field``."""

    kind: ClassVar[str] = "retreat"
    field: str


@dataclass(frozen=True, slots=True)
class Timeout(Action):
    """The deciding player's time ran out; the rules say what happens (EW-15, EW-17, ...)."""

    kind: ClassVar[str] = "timeout"


@dataclass(frozen=True, slots=True)
class AgreeDraw(Action):
    """EW-25: all players agreed to end the game as a draw (applied as ``SYSTEM``)."""

    kind: ClassVar[str] = "agree_draw"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        PlaceAll,
        PlacePiece,
        Sabotage,
        Spy,
        Conscript,
        Grow,
        Build,
        Move,
        Attack,
        Arm,
        Pass,
        StopAttack,
        LetPass,
        PlayCard,
        StopPlaying,
        Retreat,
        Timeout,
        AgreeDraw,
    )
}

_FIELD_TYPES = {"str": str, "int": int, "bool": bool}


def action_from_dict(data: Any) -> Action:
    """Rebuild an action from :meth:`Action.to_dict` output, checking every field's type.

    Raises:
        InvalidState: unknown kind, missing or extra fields, or a wrongly typed field.
    """
    if not isinstance(data, dict) or data.get("kind") not in ACTION_TYPES:
        raise InvalidState(f"unknown action {data!r}")
    cls = ACTION_TYPES[data["kind"]]
    args: dict[str, Any] = {}
    names = {f.name for f in fields(cls)}
    if set(data) - names - {"kind"}:
        raise InvalidState(f"unexpected fields in action {data!r}")
    for f in fields(cls):
        if f.name not in data:
            if f.default is not MISSING:
                continue
            raise InvalidState(f"action {data['kind']} lacks {f.name}")
        value = data[f.name]
        want = _FIELD_TYPES[str(f.type)]
        if type(value) is not want:
            raise InvalidState(f"action {data['kind']}: {f.name} must be {want.__name__}")
        args[f.name] = value
    return cls(**args)

"""The actions of Europe at War: small frozen values, one class per kind.

Units and chits are named ``u<number>`` (a chit keeps its number on the board), cards by
their id in ``cards.json``, spaces by their id in the map, seats by number. A group that
moves is named by its leader (``u<number>``, a General or an Admiral) or, for ships with
no Admiral, ``fleet:<sea zone>``. A path (``via``) lists the spaces after the start,
joined by ``>``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..contract import ActionKind, Param
from ..errors import InvalidState

FLEET = "fleet:"
"""The prefix of a group of ships without an Admiral: ``fleet:<sea zone>``."""


def unit_ref(unit: int) -> str:
    """How an action names a unit or chit."""
    return f"u{unit}"


def unit_of(ref: str) -> int | None:
    """The unit number an action's ``u<number>`` names, or ``None``."""
    if len(ref) > 1 and ref[0] == "u" and ref[1:].isdigit():
        return int(ref[1:])
    return None


class _Base:
    """``to_dict`` for every action."""

    kind: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict, ``{"kind": ..., **parameters}``."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):  # type: ignore[arg-type]
            out[f.name] = getattr(self, f.name)
        return out


# ------------------------------------------------------------------ setup, placement
@dataclass(frozen=True, slots=True)
class Place(_Base):
    """EA-3, EA-29: place a drawn chit (setup, or a free unit from a card)."""

    kind: ClassVar[str] = "place"
    chit: str
    at: str


# ------------------------------------------------------------------ cards in hand
@dataclass(frozen=True, slots=True)
class Discard(_Base):
    """EA-5: discard a card (before drawing, or down to the hand limit)."""

    kind: ClassVar[str] = "discard"
    card: str


@dataclass(frozen=True, slots=True)
class PlayCard(_Base):
    """EA-32: play an own-turn card that needs no target."""

    kind: ClassVar[str] = "play"
    card: str


@dataclass(frozen=True, slots=True)
class PlayOn(_Base):
    """EA-32: play an own-turn card on another player."""

    kind: ClassVar[str] = "play_on"
    card: str
    seat: int


@dataclass(frozen=True, slots=True)
class PlayAt(_Base):
    """EA-32: play an own-turn card on another player's stack."""

    kind: ClassVar[str] = "play_at"
    card: str
    at: str
    seat: int


# ------------------------------------------------------------------ the move plan
@dataclass(frozen=True, slots=True)
class Move(_Base):
    """EA-10 to 14: a move order, chosen as group (its leader) -> destination -> path ->
    payment (``free``: the leader's free move, or a move card)."""

    kind: ClassVar[str] = "move"
    group: str
    dest: str
    via: str
    pay: str


@dataclass(frozen=True, slots=True)
class Drop(_Base):
    """EA-10(g): the last move order drops ``unit`` off at ``at`` (its start: it stays)."""

    kind: ClassVar[str] = "drop"
    unit: str
    at: str


@dataclass(frozen=True, slots=True)
class Compel(_Base):
    """EA-33: Compel Action or Revenge as an order: another player's stack at ``at`` moves
    to ``dest``."""

    kind: ClassVar[str] = "compel"
    card: str
    at: str
    seat: int
    dest: str


@dataclass(frozen=True, slots=True)
class Undo(_Base):
    """Take back the plan's last order or drop-off."""

    kind: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class Submit(_Base):
    """EA-15: the plan is complete; show it (window W1)."""

    kind: ClassVar[str] = "submit"


# ------------------------------------------------------------------ windows
@dataclass(frozen=True, slots=True)
class Negate(_Base):
    """EA-33, W1: cancel order number ``order`` of the plan with a negate-move card."""

    kind: ClassVar[str] = "negate"
    card: str
    order: int


@dataclass(frozen=True, slots=True)
class React(_Base):
    """EA-33, W1: Diplomacy, Treaty, Armistice or Winter Quarters."""

    kind: ClassVar[str] = "react"
    card: str


@dataclass(frozen=True, slots=True)
class Avoid(_Base):
    """EA-33, W2: Avoid Battle: your stack at ``at`` leaves to ``dest``."""

    kind: ClassVar[str] = "avoid"
    card: str
    at: str
    dest: str


@dataclass(frozen=True, slots=True)
class Interdict(_Base):
    """EA-33, W2: Interdiction: your ``group`` moves along ``via`` to ``dest``, a space
    holding the active player's units."""

    kind: ClassVar[str] = "interdict"
    card: str
    group: str
    dest: str
    via: str


@dataclass(frozen=True, slots=True)
class LostOrders(_Base):
    """EA-33: cancel the card ``target`` (in a battle: the opponent's card just played)."""

    kind: ClassVar[str] = "lost_orders"
    target: str


@dataclass(frozen=True, slots=True)
class Pass(_Base):
    """Play no (further) card now."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Done(_Base):
    """Finish this step (discards, a window's submission, recruiting, upkeep)."""

    kind: ClassVar[str] = "done"


# ------------------------------------------------------------------ battles
@dataclass(frozen=True, slots=True)
class Fight(_Base):
    """EA-16, EA-17: fight the battle against ``seat`` at ``at`` next."""

    kind: ClassVar[str] = "fight"
    at: str
    seat: int


@dataclass(frozen=True, slots=True)
class BattleCard(_Base):
    """EA-18: play a battle card."""

    kind: ClassVar[str] = "battle_card"
    card: str


@dataclass(frozen=True, slots=True)
class Destroy(_Base):
    """EA-18: a destroy-card (Target Artillery, Siege, Glorious Death) on ``unit``."""

    kind: ClassVar[str] = "destroy"
    card: str
    unit: str


@dataclass(frozen=True, slots=True)
class Casualty(_Base):
    """EA-23: take ``unit`` as a casualty."""

    kind: ClassVar[str] = "casualty"
    unit: str


@dataclass(frozen=True, slots=True)
class Capture(_Base):
    """EA-33: Capture Ship takes ``unit``."""

    kind: ClassVar[str] = "capture"
    unit: str


@dataclass(frozen=True, slots=True)
class Retreat(_Base):
    """EA-24: the beaten stack retreats to ``dest``."""

    kind: ClassVar[str] = "retreat"
    dest: str


# ------------------------------------------------------------------ economy
@dataclass(frozen=True, slots=True)
class Buy(_Base):
    """EA-29: buy a drawn chit and place it at ``at``."""

    kind: ClassVar[str] = "buy"
    chit: str
    at: str


@dataclass(frozen=True, slots=True)
class Disband(_Base):
    """EA-30: discard a unit in the Upkeep Phase."""

    kind: ClassVar[str] = "disband"
    unit: str


@dataclass(frozen=True, slots=True)
class Deposit(_Base):
    """EA-28: leave ``amount`` RP as a deposit at ``at``."""

    kind: ClassVar[str] = "deposit"
    at: str
    amount: int


@dataclass(frozen=True, slots=True)
class PayLoss(_Base):
    """EA-28: pay ``amount`` of a loss from the deposit at ``at``."""

    kind: ClassVar[str] = "pay_loss"
    at: str
    amount: int


@dataclass(frozen=True, slots=True)
class Top(_Base):
    """EA-6: show ``unit`` on top of its stack (others see only the top unit)."""

    kind: ClassVar[str] = "top"
    unit: str


@dataclass(frozen=True, slots=True)
class Timeout(_Base):
    """The decider's time ran out: the decision's default is applied."""

    kind: ClassVar[str] = "timeout"


Action = (
    Place
    | Discard
    | PlayCard
    | PlayOn
    | PlayAt
    | Move
    | Drop
    | Compel
    | Undo
    | Submit
    | Negate
    | React
    | Avoid
    | Interdict
    | LostOrders
    | Pass
    | Done
    | Fight
    | BattleCard
    | Destroy
    | Casualty
    | Capture
    | Retreat
    | Buy
    | Disband
    | Deposit
    | PayLoss
    | Top
    | Timeout
)

ACTION_TYPES: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (
        Place,
        Discard,
        PlayCard,
        PlayOn,
        PlayAt,
        Move,
        Drop,
        Compel,
        Undo,
        Submit,
        Negate,
        React,
        Avoid,
        Interdict,
        LostOrders,
        Pass,
        Done,
        Fight,
        BattleCard,
        Destroy,
        Casualty,
        Capture,
        Retreat,
        Buy,
        Disband,
        Deposit,
        PayLoss,
        Top,
        Timeout,
    )
}

_PARAM_KINDS = {
    "card": "card",
    "seat": "seat",
    "at": "space",
    "dest": "space",
    "order": "word",
    "amount": "word",
}


def _param(name: str) -> Param:
    return Param(name, _PARAM_KINDS.get(name, "word"))


ACTION_KINDS: dict[str, ActionKind] = {
    kind: ActionKind(kind, tuple(_param(f.name) for f in fields(cls)))
    for kind, cls in ACTION_TYPES.items()
}
"""The contract's description of every action kind, its parameters in choosing order."""


def action_from_dict(data: Any) -> Action:
    """Rebuild an action from its dict, checking every field.

    Raises:
        InvalidState: unknown kind, missing, extra or wrongly typed fields.
    """
    if not isinstance(data, dict) or data.get("kind") not in ACTION_TYPES:
        raise InvalidState(f"unknown Europe at War action {data!r}")
    cls = ACTION_TYPES[data["kind"]]
    names = [f.name for f in fields(cls)]
    if set(data) != {"kind", *names}:
        raise InvalidState(f"bad fields for a {data['kind']} action: {sorted(data)}")
    values = {}
    for f in fields(cls):
        value = data[f.name]
        want = int if str(f.type) == "int" else str
        if type(value) is not want:
            raise InvalidState(f"{data['kind']}.{f.name} must be {want.__name__}")
        values[f.name] = value
    action: Action = cls(**values)
    return action

"""Per-game options: the rulings RULES.md marks *(option)*, with their defaults."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from ..errors import InvalidState, RulesError
from .catalogue import _

VARIANTS = ("european_war", "world_war_5")
SETUP_ORDERS = ("together", "by_size")
TURN_TIMEOUT_ACTIONS = ("pass", "arm")


@dataclass(frozen=True, slots=True)
class Options:
    """Per-game settings. ``None`` for ``setup_order`` means the variant's default
    (European War: together, EW-5; World War 5: by size, WW-6)."""

    setup_order: str | None = None
    five_players: bool = False
    """EW-4: allow a fifth player. World War 5 (WW-1): allow five or six."""
    sea_attacks: bool = False
    """EW-11: attacks may also go between harbours of one group."""
    diplomacy_seconds: int = 30
    """EW-15: how long the diplomacy window stays open."""
    round_limit: int = 200
    """EW-25: rounds after which the game is a draw; 0 turns the limit off."""
    turn_timeout_action: str = "pass"
    """PRODUCT: an expired European War turn passes or arms."""
    pyramid_arcade: bool = False
    """WW-1: the printed Pyramid Arcade board's links."""

    def setup_by_size(self, variant: str) -> bool:
        """True when pieces are placed smalls first, in turn order (EW-5 option, WW-6)."""
        order = self.setup_order or ("by_size" if variant == "world_war_5" else "together")
        return order == "by_size"

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-compatible dict."""
        return asdict(self)

    @staticmethod
    def from_dict(data: Any) -> Options:
        """Rebuild and validate options.

        Raises:
            InvalidState: unknown keys or values out of range.
        """
        if not isinstance(data, dict):
            raise InvalidState("options must be an object")
        known = {f.name: f for f in fields(Options)}
        unknown = set(data) - set(known)
        if unknown:
            raise InvalidState(f"unknown options {sorted(unknown)}")
        try:
            return Options().with_changes(**data)
        except RulesError as exc:
            raise InvalidState(str(exc)) from exc

    def with_changes(self, **changes: Any) -> Options:
        """Return a copy with ``changes`` applied, checked.

        Raises:
            RulesError: a value is of the wrong type or out of range.
        """
        new = replace(self, **changes)
        for f in fields(Options):
            value = getattr(new, f.name)
            want = {"bool": bool, "int": int}.get(str(f.type))
            if want is not None and type(value) is not want:
                raise RulesError(
                    _("option {name} must be {type}").format(name=f.name, type=want.__name__)
                )
        if new.setup_order not in (None, *SETUP_ORDERS):
            raise RulesError(_("setup_order must be 'together' or 'by_size'"))
        if new.turn_timeout_action not in TURN_TIMEOUT_ACTIONS:
            raise RulesError(_("turn_timeout_action must be 'pass' or 'arm'"))
        if not 5 <= new.diplomacy_seconds <= 600:
            raise RulesError(_("diplomacy_seconds must be between 5 and 600"))
        if not 0 <= new.round_limit <= 10_000:
            raise RulesError(_("round_limit must be between 0 (off) and 10000"))
        return new

"""Per-game settings: the EA-36 options (all off by default) and the windows' length."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from functools import cache
from typing import Any

from ..errors import InvalidState, RulesError
from .catalogue import _

ROUNDS = (8, 12, 16)
"""EA-4, EA-36: the game ends after round 12; 8 (short) and 16 (long) are options."""
WINDOW_SECONDS = (5, 600)
"""The bounds of ``window_seconds``: how long W1, W2 and their answers stay open."""


@dataclass(frozen=True, slots=True)
class Options:
    """The options of one game (EA-36). Each departs from the text when switched on."""

    rounds: int = 12
    compact_map: bool = False
    """``map_compact.json``: 129 territories."""
    basic_set: bool = False
    """Every nation recruits from the Basic set."""
    teams: bool = False
    """Seats alternate into two teams (even and odd seats) whose territories are summed."""
    protected_leaders: bool = False
    """The winner's first pick of casualties may not be a leader."""
    leaders_in_play: bool = False
    """Every General and Admiral of a pile starts in play at home."""
    fast_windows: bool = False
    """A player with no card playable in a window is passed at once."""
    sealed_battle_cards: bool = False
    """Battle cards are chosen secretly and at once, then one Lost Orders round."""
    window_seconds: int = 60
    """How long W1, W2 and the Lost Orders answers stay open."""

    def to_dict(self) -> dict[str, Any]:
        """Every option as JSON data."""
        return dict(_as_dict(self))

    @staticmethod
    def from_dict(data: Any) -> Options:
        """Options from JSON data (``{}``: the defaults).

        Raises:
            RulesError: an unknown option, or a value of the wrong type or out of range.
        """
        if not isinstance(data, dict):
            raise RulesError(_("Europe at War's options must be an object."))
        known = {f.name for f in fields(Options)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(_("Europe at War has no option {name}.").format(name=repr(unknown[0])))
        return Options().with_changes(**data)

    def with_changes(self, **changes: Any) -> Options:
        """A copy with ``changes``, checked.

        Raises:
            RulesError: a value of the wrong type or out of range.
        """
        new = replace(self, **changes)
        for f in fields(Options):
            want = bool if str(f.type) == "bool" else int
            if type(getattr(new, f.name)) is not want:
                raise RulesError(
                    _("Option {name} must be {type}.").format(name=f.name, type=want.__name__)
                )
        if new.rounds not in ROUNDS:
            raise RulesError(_("rounds must be 8, 12 or 16 (EA-4, EA-36)."))
        if not WINDOW_SECONDS[0] <= new.window_seconds <= WINDOW_SECONDS[1]:
            raise RulesError(
                _("window_seconds must be between {low} and {high}.").format(
                    low=WINDOW_SECONDS[0], high=WINDOW_SECONDS[1]
                )
            )
        return new


@cache
def _as_dict(options: Options) -> dict[str, Any]:
    return asdict(options)


def options_from_stored(data: Any) -> Options:
    """Options read back from a stored game.

    Raises:
        InvalidState: the stored options are not valid.
    """
    try:
        return Options.from_dict(data)
    except RulesError as exc:
        raise InvalidState(f"stored Europe at War options: {exc}") from exc

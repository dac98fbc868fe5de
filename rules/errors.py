"""The one exception root for rule violations, with messages a player can read."""

from __future__ import annotations


class RulesError(ValueError):
    """Root of every rule violation. ``str(error)`` is a short sentence fit for a player."""


class NotYourTurn(RulesError):
    """The player is not among those who must decide now."""


class IllegalAction(RulesError):
    """The action breaks a rule (the message names the rule, e.g. ``(EW-11)``)."""


class GameOver(RulesError):
    """The game has ended; no further action is accepted."""


class InvalidState(RulesError):
    """Stored or loaded data is unknown, corrupt or inconsistent."""


class BoardError(InvalidState):
    """A board file breaks the board schema (asymmetric links, unknown owner, ...)."""

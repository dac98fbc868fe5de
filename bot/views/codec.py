"""Prompt choices as short strings for component custom ids (Discord allows 100 chars).

An answer button carries ``ew:a:<game>:<version>:<code>`` so it stays valid across a
restart (it names the game, the prompt's version and the action itself — not an index
into a list that may have changed). Field ids are written as their index on the board.
"""

from __future__ import annotations

import rules


def _fid(board: rules.Board, field: str) -> str:
    return str(board.field_order.index(field))


def _field(board: rules.Board, text: str) -> str:
    index = int(text)
    if not 0 <= index < len(board.field_order):
        raise ValueError(f"no field {index}")
    return board.field_order[index]


def encode(action: rules.Action, board: rules.Board) -> str:
    """A short code for a prompt's choice.

    Raises:
        ValueError: a kind that is never offered on a panel.
    """
    a = action
    if isinstance(a, rules.PlayCard):
        return f"c{a.card}"
    if isinstance(a, rules.StopPlaying):
        return "s"
    if isinstance(a, rules.StopAttack):
        return "k1" if a.ace else "k0"
    if isinstance(a, rules.LetPass):
        return "l"
    if isinstance(a, rules.Retreat):
        return "r" + _fid(board, a.field)
    if isinstance(a, rules.PlacePiece):
        return "p" + _fid(board, a.field)
    if isinstance(a, rules.PlaceAll):
        return "a" + ".".join(_fid(board, f) for f in (a.large, a.medium, a.small))
    if isinstance(a, rules.Arm):
        return "m"
    if isinstance(a, rules.Pass):
        return "n"
    raise ValueError(f"{a.kind} is not offered on a panel")


def decode(code: str, board: rules.Board) -> rules.Action:
    """The action of :func:`encode`.

    Raises:
        ValueError: a malformed code.
    """
    head, rest = code[:1], code[1:]
    if head == "c":
        card = int(rest)
        if not 0 <= card < 52:
            raise ValueError("no such card")
        return rules.PlayCard(card)
    if code == "s":
        return rules.StopPlaying()
    if code in ("k0", "k1"):
        return rules.StopAttack(code == "k1")
    if code == "l":
        return rules.LetPass()
    if head == "r":
        return rules.Retreat(_field(board, rest))
    if head == "p":
        return rules.PlacePiece(_field(board, rest))
    if head == "a":
        large, medium, small = (_field(board, x) for x in rest.split("."))
        return rules.PlaceAll(large, medium, small)
    if code == "m":
        return rules.Arm()
    if code == "n":
        return rules.Pass()
    raise ValueError(f"unknown code {code!r}")

"""Prompt choices as short strings for component custom ids (Discord allows 100 chars).

An answer button carries ``ew:a:<game>:<version>:<code>`` so it stays valid across a
restart (it names the game, the prompt's version and the action itself — not an index
into a list that may have changed). Field ids are written as their index on the board.
"""

from __future__ import annotations

from rules import pyramids


def _fid(board: pyramids.Board, field: str) -> str:
    return str(board.field_order.index(field))


def _field(board: pyramids.Board, text: str) -> str:
    index = int(text)
    if not 0 <= index < len(board.field_order):
        raise ValueError(f"no field {index}")
    return board.field_order[index]


def encode(action: pyramids.Action, board: pyramids.Board) -> str:
    """A short code for a prompt's choice.

    Raises:
        ValueError: a kind that is never offered on a panel.
    """
    a = action
    if isinstance(a, pyramids.PlayCard):
        return f"c{a.card}"
    if isinstance(a, pyramids.StopPlaying):
        return "s"
    if isinstance(a, pyramids.StopAttack):
        return "k1" if a.ace else "k0"
    if isinstance(a, pyramids.LetPass):
        return "l"
    if isinstance(a, pyramids.Retreat):
        return "r" + _fid(board, a.field)
    if isinstance(a, pyramids.PlacePiece):
        return "p" + _fid(board, a.field)
    if isinstance(a, pyramids.PlaceAll):
        return "a" + ".".join(_fid(board, f) for f in (a.large, a.medium, a.small))
    if isinstance(a, pyramids.Arm):
        return "m"
    if isinstance(a, pyramids.Pass):
        return "n"
    raise ValueError(f"{a.kind} is not offered on a panel")


def decode(code: str, board: pyramids.Board) -> pyramids.Action:
    """The action of :func:`encode`.

    Raises:
        ValueError: a malformed code.
    """
    head, rest = code[:1], code[1:]
    if head == "c":
        card = int(rest)
        if not 0 <= card < 52:
            raise ValueError("no such card")
        return pyramids.PlayCard(card)
    if code == "s":
        return pyramids.StopPlaying()
    if code in ("k0", "k1"):
        return pyramids.StopAttack(code == "k1")
    if code == "l":
        return pyramids.LetPass()
    if head == "r":
        return pyramids.Retreat(_field(board, rest))
    if head == "p":
        return pyramids.PlacePiece(_field(board, rest))
    if head == "a":
        large, medium, small = (_field(board, x) for x in rest.split("."))
        return pyramids.PlaceAll(large, medium, small)
    if code == "m":
        return pyramids.Arm()
    if code == "n":
        return pyramids.Pass()
    raise ValueError(f"unknown code {code!r}")

"""The 52-card deck of European War (EW-2): cards are the integers 0..51.

``rank = card // 4 + 2`` (2..14, where 11=J, 12=Q, 13=K, 14=A) and ``suit = card % 4``.
"""

from __future__ import annotations

from collections.abc import Iterable

JACK, QUEEN, KING, ACE = 11, 12, 13, 14
SUITS = ("♣", "♦", "♥", "♠")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
FIGURE_POWERS = {JACK: "Sabotage", QUEEN: "Espionage", KING: "Diplomacy", ACE: "Wild"}
DECK: tuple[int, ...] = tuple(range(52))


def rank(card: int) -> int:
    """Return the rank, 2..14."""
    return card // 4 + 2


def suit(card: int) -> int:
    """Return the suit index, 0..3 (clubs, diamonds, hearts, spades)."""
    return card % 4


def duel_value(card: int) -> int:
    """Return the card's strength in a duel: face value for 2-10, 4 for figures (EW-2)."""
    r = card // 4 + 2
    return r if r <= 10 else 4


def is_figure(card: int) -> bool:
    """True for J, Q, K and A."""
    return card >= 36


def figure_card(hand: Iterable[int], figure: int, ace: bool) -> int | None:
    """The card a figure power spends from ``hand``: the lowest ``figure`` (J, Q or K),
    or with ``ace`` the lowest A standing in for it (EW-8, EW-13); None if not held."""
    want = ACE if ace else figure
    found = [c for c in hand if rank(c) == want]
    return min(found) if found else None


def rank_name(card: int) -> str:
    """Return '2'..'10', 'J', 'Q', 'K' or 'A'."""
    r = rank(card)
    return RANK_NAMES.get(r, str(r))


def card_name(card: int) -> str:
    """Return a short readable name such as ``'10♥'`` or ``'K♠'``."""
    return rank_name(card) + SUITS[suit(card)]


def parse_card(text: str) -> int:
    """Parse a name such as ``'10♥'``, ``'kh'``, ``'Qs'`` back to a card.

    Raises:
        ValueError: the text names no card.
    """
    t = text.strip().upper()
    letters = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}
    if len(t) < 2 or t[-1] not in letters:
        raise ValueError(f"unknown card {text!r}")
    head = t[:-1]
    names = {"J": JACK, "Q": QUEEN, "K": KING, "A": ACE}
    if head in names:
        r = names[head]
    elif head.isdigit() and 2 <= int(head) <= 10:
        r = int(head)
    else:
        raise ValueError(f"unknown card {text!r}")
    return (r - 2) * 4 + letters[t[-1]]


def can_sabotage(card: int) -> bool:
    """J, or A as J (EW-8)."""
    return rank(card) in (JACK, ACE)


def can_spy(card: int) -> bool:
    """Q, or A as Q (EW-8)."""
    return rank(card) in (QUEEN, ACE)


def can_stop_attack(card: int) -> bool:
    """K, or A as K (EW-13)."""
    return rank(card) in (KING, ACE)

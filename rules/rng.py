"""A tiny seeded generator whose whole state is one integer (SplitMix64).

Python's ``random.Random`` carries 625 integers of state; this one carries one, so a
game's state stays small to store and cheap to copy.
"""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1


class Rng:
    """SplitMix64: ``state`` is a 64-bit counter; every draw advances it."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next_u64(self) -> int:
        """Return the next 64-bit value."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return an integer in ``[0, n)``. The modulo bias is below 2**-50 for our n."""
        return self.next_u64() % n

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.next_u64() % (i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> Rng:
        """Return an independent generator in the same state."""
        return Rng(self.state)

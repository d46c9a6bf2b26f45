"""Shuffling: secure for real events, reproducible from a seed for tests and replays.

Both use the same Fisher–Yates; only the source of random numbers differs. The seeded stream is
SHA-256 in counter mode with rejection sampling, so a deal is a documented function of its seed
that anyone can recompute in any language (no dependence on Python's ``random`` internals).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable


def fisher_yates(items: list[int], randbelow: Callable[[int], int]) -> list[int]:
    """Shuffle a copy of ``items``: for i from the end, swap with a uniform j ≤ i."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def secure_shuffle(items: list[int]) -> list[int]:
    """Shuffle with the operating system's CSPRNG (``secrets``): the only shuffle for real boards."""
    return fisher_yates(items, secrets.randbelow)


class SeededStream:
    """Uniform integers from SHA-256(seed ‖ counter), unbiased by rejection sampling."""

    def __init__(self, seed: str) -> None:
        self._seed = seed.encode()
        self._counter = 0
        self._buffer = b""

    def _next_u32(self) -> int:
        if len(self._buffer) < 4:
            self._buffer = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
        value = int.from_bytes(self._buffer[:4], "big")
        self._buffer = self._buffer[4:]
        return value

    def randbelow(self, n: int) -> int:
        if not 0 < n <= 1 << 32:
            raise ValueError("n must be in 1..2**32")
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            value = self._next_u32()
            if value < limit:
                return value % n


def seeded_shuffle(items: list[int], seed: str) -> list[int]:
    """The same seed always gives the same order, on every machine."""
    return fisher_yates(items, SeededStream(seed).randbelow)

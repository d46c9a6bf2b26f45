"""Per-thing token buckets: how many messages one thing may have handled, so one client cannot take
every worker's time. Checked on the broker client's receive thread: no I/O, O(1), bounded memory."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Rate:
    """``burst`` messages at once, then ``per_second`` on average."""

    burst: float
    per_second: float


# Generous for what devices send: a handset acts only on its turn (a closed-loop bench table makes
# ~40 plays a second shared by four seats) and says hello once per connection (reconnects back off
# from 1 s); a simulated device resending after a dropped link stays far below both.
MESSAGES = Rate(burst=200, per_second=50)
HELLOS = Rate(burst=20, per_second=2)  # each one reads the table's boards: the costliest message
# All things at no known table together: a venue's every device reconnecting at once after a restart
# (64 tables of five: 320 hellos) passes; a flood of made-up names costs at most 50 lookups a second.
STRANGERS = Rate(burst=500, per_second=50)


class Buckets:
    """One token bucket per key; the least recently used keys are forgotten past ``keys`` (a flood of
    made-up names cannot grow it without bound: a forgotten key starts again with a full bucket)."""

    def __init__(self, rate: Rate, keys: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.keys = keys
        self.clock = clock
        self._tokens: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key → (tokens, at)

    def allow(self, key: str) -> bool:
        """Take a token for ``key``; False when it has none left (the message is to be dropped)."""
        now = self.clock()
        tokens, at = self._tokens.pop(key, (self.rate.burst, now))
        tokens = min(self.rate.burst, tokens + (now - at) * self.rate.per_second)
        allowed = tokens >= 1
        self._tokens[key] = (tokens - 1 if allowed else tokens, now)
        if len(self._tokens) > self.keys:
            self._tokens.popitem(last=False)
        return allowed

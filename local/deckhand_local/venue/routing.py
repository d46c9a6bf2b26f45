"""Which bridge worker a thing's message goes to, decided with no I/O on the receive thread.

One table's messages must reach one worker in arrival order (a simulated event stays reproducible),
but finding a thing's table is a database read, and paho has one receive thread for every device: a
read there lets one client with made-up names stall every table. So the receive thread only looks
up routes the workers learned. A thing with no known route goes to the worker its own name hashes
to; that worker finds the table and forwards the message to the table's worker. While any of the
thing's messages waits for that, its later ones follow the same way, so none of the thing's messages
overtakes another (against the table's other things, only its first ones, until its table is found,
may: as on AWS, where every message is an invocation of its own). A learned route that has expired
is still used, and the table's worker checks it again before handling the message (a thing can move
to another event): the table's order holds. Learned routes are bounded in number.
"""

from __future__ import annotations

import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Literal

# What a worker must find before handling a message: nothing; the thing's table (not known yet);
# whether the thing is still at the table its expired route names.
Find = Literal["", "table", "again"]


def worker_of(key: str, workers: int) -> int:
    return zlib.crc32(key.encode()) % workers


class Routes:
    KNOWN_SECONDS = 60.0  # a thing's table, once found (assignments change only between events)
    UNKNOWN_SECONDS = 5.0  # a thing at no table: routed by its own name (registered later: found then)

    def __init__(self, workers: int, keys: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.workers = workers
        self.keys = keys
        self.clock = clock
        self._lock = threading.Lock()
        self._learned: OrderedDict[str, tuple[str, float]] = OrderedDict()  # thing → (table key, until)
        self._unresolved: dict[str, int] = {}  # thing → its messages waiting for a worker to find the table

    def inbox_for(self, thing: str) -> tuple[int, Find, bool]:
        """(the worker, what it must find first: nothing, the thing's table, or whether it moved;
        whether the thing is known to be at a table). No I/O."""
        with self._lock:
            learned = self._learned.get(thing)
            if learned is not None and not self._unresolved.get(thing):
                find: Find = "" if learned[1] > self.clock() else "again"
                return worker_of(learned[0], self.workers), find, learned[0] != thing
            self._unresolved[thing] = self._unresolved.get(thing, 0) + 1
            return worker_of(thing, self.workers), "table", False

    def fresh(self, thing: str) -> str | None:
        """The route just learned for the thing (by its message before this one), if not expired."""
        with self._lock:
            learned = self._learned.get(thing)
            return learned[0] if learned is not None and learned[1] > self.clock() else None

    def learn(self, thing: str, table: str | None) -> int:
        """A worker found the thing's table (None: at no table); returns the table's worker."""
        key = table if table is not None else thing
        seconds = self.KNOWN_SECONDS if table is not None else self.UNKNOWN_SECONDS
        with self._lock:
            self._learned.pop(thing, None)
            self._learned[thing] = (key, self.clock() + seconds)
            if len(self._learned) > self.keys:
                self._learned.popitem(last=False)
        return worker_of(key, self.workers)

    def resolved(self, thing: str) -> None:
        """One of the thing's messages has left the finding worker (forwarded, handled or dropped)."""
        with self._lock:
            left = self._unresolved.get(thing, 0) - 1
            if left > 0:
                self._unresolved[thing] = left
            else:
                self._unresolved.pop(thing, None)

    def forget(self, thing: str | None = None) -> None:
        """Drop learned routes (one thing's, or all): the next message finds the table again."""
        with self._lock:
            if thing is None:
                self._learned.clear()
            else:
                self._learned.pop(thing, None)

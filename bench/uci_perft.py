"""Perft of a UCI engine over a pipe: Fairy-Stockfish as the Xiangqi bench's physical reference.

The engine is a binary the bench-runner built (never part of the project); this module speaks to it in
plain UCI (``uci``, ``setoption name UCI_Variant``, ``position fen``, ``go perft N``) with the standard
library only. The parsing is separate from the pipe so that it is tested without a binary.
"""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Callable, Iterable

NODES = "Nodes searched:"


class UciError(RuntimeError):
    """The engine ended, refused the variant, or said something a perft run cannot go on from."""


def perft_nodes(line: str) -> int | None:
    """The node count of a ``go perft`` run's closing line (``Nodes searched: N``), else None."""
    text = line.strip()
    if not text.startswith(NODES):
        return None
    count = text[len(NODES) :].strip()
    if not count.isdigit():
        raise UciError(f"a perft result that is not a count: {line!r}")
    return int(count)


def uci_variants(lines: Iterable[str]) -> set[str]:
    """The values of the ``UCI_Variant`` combo option in the engine's answer to ``uci``."""
    for line in lines:
        words = line.split()
        if words[:3] == ["option", "name", "UCI_Variant"]:
            return {words[i + 1] for i, word in enumerate(words[:-1]) if word == "var"}
    return set()


def uci_fen(fen: str) -> str:
    """Our Xiangqi FEN (side ``w``/``r``/``b``, the last four fields optional) as UCI's six fields."""
    fields = fen.split()
    side = "b" if len(fields) > 1 and fields[1] == "b" else "w"
    rest = fields[2:6] + ["-", "-", "0", "1"][len(fields[2:6]) :]
    return " ".join([fields[0], side, *rest])


class UciPerft:
    """One engine process, set to a variant; ``perft`` times ``go perft`` in wall-clock seconds (the
    engine's CPU time is not visible from here while it runs, so its figure is if anything low)."""

    def __init__(self, path: str, variant: str = "xiangqi") -> None:
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        self.send("uci")
        offered = uci_variants(self.until(lambda line: line.strip() == "uciok"))
        if variant not in offered:
            self.close()
            raise UciError(
                f"the engine does not offer the variant {variant!r} (a Fairy-Stockfish build without "
                f"large-board support leaves Xiangqi out)"
            )
        self.send(f"setoption name UCI_Variant value {variant}")
        self.ready()

    def send(self, command: str) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise self.ended(f"before {command!r}") from None

    def ended(self, when: str) -> UciError:
        try:
            code: int | None = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        return UciError(f"the engine ended (exit status {code}) {when}")

    def until(self, last: Callable[[str], bool]) -> list[str]:
        """The engine's lines up to and including the first for which ``last(line)`` holds."""
        assert self.process.stdout is not None
        lines: list[str] = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise self.ended(f"after {lines[-3:]!r}")
            lines.append(line)
            if last(line):
                return lines

    def ready(self) -> None:
        self.send("isready")
        self.until(lambda line: line.strip() == "readyok")

    def perft(self, fen: str, depth: int) -> tuple[int, float]:
        """Leaf count and wall-clock seconds of ``go perft depth`` from ``fen``."""
        self.send(f"position fen {uci_fen(fen)}")
        self.ready()
        began = time.perf_counter()
        self.send(f"go perft {depth}")
        lines = self.until(lambda line: perft_nodes(line) is not None)
        seconds = time.perf_counter() - began
        nodes = perft_nodes(lines[-1])
        assert nodes is not None
        return nodes, seconds

    def timed(self, fen: str, depth: int, runs: int) -> tuple[int, float]:
        """The count and the median seconds of ``runs`` runs."""
        results = [self.perft(fen, depth) for _ in range(runs)]
        return results[-1][0], statistics.median(seconds for _, seconds in results)

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(timeout=5)
            except (OSError, UciError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()

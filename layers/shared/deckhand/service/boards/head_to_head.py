"""A match of a board game between two players (RULES.md §6.5): its games' colours, who wins it, and
the lots it takes — each drawn from the round's secret, so anyone can check them once it is revealed.

A match is played between its two sides (side 0 the player named first); each game is one board,
whose seat 0 moves first. At least two games are played; from game 2 on the match ends as soon as
one side leads; still level after ``max_games``, a lot decides (a Swiss's match: two games, a
level match drawn). The coin toss (game 3 of the draw-then-toss rule),
猜先 (game 1 by lot) and the deciding lot are each a bit of SHA-256 of the round's secret, the
table's number and the lot's name: committed with the round, revealed when it is done.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...engines.spec import FirstMove, Position

MIN_GAMES = 2  # the first move swapped once at least
TOSS_GAME = 3  # the draw-then-toss rule: game 3's colours by a coin toss, then alternate

LOTS = ("first", "toss", "tie")  # 猜先 of game 1, the coin toss of game 3, the tie after max_games


def lot(salt: str, number: int, name: str) -> int:
    """The side (0 or 1) a lot of the match at table number ``number`` names: a bit of SHA-256."""
    digest = hashlib.sha256(f"deckhand/match-lot/{salt}/table/{number}/{name}".encode()).digest()
    return digest[0] & 1


def first_side(rule: FirstMove, salt: str, number: int, game_no: int, low: int) -> int:
    """The side that moves first (seat 0) in game ``game_no`` of a match; ``low``: the side with the
    lower draw number."""
    if rule is FirstMove.LOT:
        return lot(salt, number, "first") ^ ((game_no - 1) & 1)
    if rule is FirstMove.DRAW or game_no < TOSS_GAME:
        return low ^ ((game_no - 1) & 1)
    return lot(salt, number, "toss") ^ ((game_no - TOSS_GAME) & 1)


def first_by(rule: FirstMove, game_no: int) -> str:
    """How game ``game_no``'s first mover was decided, as the records name it: ``draw`` (the lower
    draw number), ``toss`` (the coin toss), ``lot`` (猜先) or ``alternate`` (the game before's swapped)."""
    if rule is FirstMove.LOT:
        return "lot" if game_no == 1 else "alternate"
    if game_no == 1:
        return "draw"
    return "toss" if rule is FirstMove.DRAW_THEN_TOSS and game_no == TOSS_GAME else "alternate"


def game_carry(position: Position, options: dict[str, Any] | None, game_no: int) -> dict[str, Any] | None:
    """What game ``game_no`` starts from: the event's options, as the rules set them for that game."""
    if position.game_options is not None:
        return {"options": position.game_options(options, game_no)}
    return None if options is None else {"options": options}


def game_seed(salt: str, number: int, game_no: int) -> str:
    """The seed of game ``game_no`` of the match at table number ``number`` (a timed-out seat's random
    choice is drawn from it): SHA-256 of the round's secret and the game, checkable once revealed."""
    return hashlib.sha256(f"deckhand/game-seed/{salt}/table/{number}/game/{game_no}".encode()).hexdigest()


def seated(pair: Sequence[Any], first: int) -> list[Any]:
    """A match's sides' seats (players, devices) in a game's seat order: the first mover at seat 0."""
    return [pair[first], pair[1 - first]]


def seated_devices(devices: Sequence[str], handsets: Sequence[str], first: int) -> list[str]:
    """Each seat's device in a game whose first mover is side ``first``: a table's handset stays at
    its seat, a player's own device (one that is not the table's handset at the player's seat in the
    round's seating) follows its player to whichever seat the player takes."""
    out = []
    for seat, side in enumerate((first, 1 - first)):
        own = devices[side] != handsets[side]
        out.append(devices[side] if own else handsets[seat])
    return out


@dataclass(frozen=True)
class MatchOfGames:
    """Who has won a match of games scored 1 / ½ / 0 (kept doubled, 2 / 1 / 0, as each game's ``mp``
    side by side: whole numbers, as storage keeps them)."""

    max_games: int  # the event's option: still level after it, the tie is decided by lot
    draws: bool = False  # a Swiss's match: exactly ``max_games`` games, a level match a draw (1:1)

    @staticmethod
    def totals(games: Sequence[dict[str, Any]]) -> tuple[int, int]:
        return (sum(int(g["mp"][0]) for g in games), sum(int(g["mp"][1]) for g in games))

    def decided(self, games: Sequence[dict[str, Any]]) -> bool:
        a, b = self.totals(games)
        return len(games) >= self.max_games or (not self.draws and len(games) >= MIN_GAMES and a != b)

    def result(self, games: Sequence[dict[str, Any]], salt: str, number: int) -> dict[str, Any]:
        """The match's result side by side: 2 / 0 match points to the winner (by lot when level after
        ``max_games``: its side recorded; a Swiss's level match 1 / 1), level points the games'
        points doubled, summed."""
        a, b = self.totals(games)
        tie = a == b and not self.draws
        won = lot(salt, number, "tie") if tie else (0 if a > b else 1)
        forfeited = any(g["ended_by"] in ("forfeit", "disqualify") for g in games)
        return {
            "mp": [1, 1] if a == b and self.draws else [2, 0] if won == 0 else [0, 2],
            "lp": [a, b],
            "kind": "forfeit" if forfeited else "played",
            **({"lot": won} if tie else {}),
        }


def game_entry(points: Sequence[float], first: int, ended_by: str, board: str) -> dict[str, Any]:
    """A game as the match keeps it: its points doubled side by side (from its seats'), who moved first."""
    doubled = [round(2 * float(p)) for p in points]
    by_side = doubled if first == 0 else doubled[::-1]
    return {
        "mp": by_side,
        "lp": list(by_side),
        "first": first,
        "ended_by": ended_by,
        "boards": [board],
    }

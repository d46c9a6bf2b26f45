"""A board game's match game by game, and the event's bracket, read from an export (docs/results-site.md,
"Board games"): each game's first mover and how that was decided, its result and why, its moves as the
engine's record writes them, its text record where the game has one, and the pictures the replay steps
through. The engine wrote every notation, and draws every picture again from the record's carry and the
game's play (docs/export.md, "Game records"), reached through the registry: nothing here knows a game."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckhand.competition.match_render import MatchView
from deckhand.engines.common.game_record import RecordError
from deckhand.engines.registry import game
from deckhand.errors import DeckhandError

from .words import Words


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _seq(value: Any) -> Sequence[Any]:
    return value if isinstance(value, list | tuple) else []


@dataclass
class Cell:
    label: str  # "" an empty point
    side: str  # "0" or "1" (the seat whose piece), "" none
    square: bool  # False: no point there (a gap in a board that is not a grid)
    marked: bool  # a point of the last move


@dataclass
class GameMove:
    n: int
    player: str
    text: str


@dataclass
class GameView:
    number: int
    slug: str
    first: str  # the sentence: who moved first, and how it was decided
    result: str
    moves: list[GameMove]
    text: str  # the text record ("" when the game has none)
    board: list[list[Cell]]  # the last picture: the page without its script shows the final board
    frames: str  # every picture and its caption, as JSON for the replay script
    steps: list[str] = field(default_factory=list)  # each frame's caption: the move that led to it


@dataclass
class BracketMatch:
    label: str
    players: list[tuple[str, str, bool]]  # name, score, won
    lot: bool
    link: str


def cells(picture: Mapping[str, Any]) -> list[list[Cell]]:
    """A picture's rows as cells."""
    marks = {(int(m[0]), int(m[1])) for m in map(_seq, _seq(picture.get("marks"))) if len(m) == 2}
    out = []
    for i, row in enumerate(_seq(picture.get("rows"))):
        line = []
        for j, cell in enumerate(_seq(row)):
            text = "" if cell is None else str(cell)
            side, label = (text[:1], text[1:]) if text[:1] in ("0", "1") else ("", text)
            line.append(Cell(label, side, cell is not None, (i, j) in marks))
        out.append(line)
    return out


def move_text(move: Mapping[str, Any], w: Words) -> str:
    """A move as the engine wrote it; a word (resign, a clock's warning) in the reader's words."""
    notation = move.get("notation")
    if notation:
        return str(notation)
    return w.known(f"kind.{move.get('kind')}", move.get("kind"))


def pictures(ruleset: str, record: Mapping[str, Any], play: Any) -> list[Mapping[str, Any]]:
    """The board at the start and after each action, drawn by the game's engine from the record's
    carry and the game's play; none when the export's rule set or play does not replay. Kept between
    builds: the venue's live site rebuilds often, and a finished game never changes."""
    key = json.dumps([ruleset, _map(record.get("carry")), _seq(play)], sort_keys=True, default=str)
    return list(_drawn(key))


@functools.lru_cache(maxsize=1024)
def _drawn(key: str) -> tuple[Mapping[str, Any], ...]:
    ruleset, carry, play = json.loads(key)
    try:
        position = game(ruleset).position
        if position is None or position.record is None:
            return ()
        drawn = position.record(dict(_map(carry)) or None, [_map(s) for s in _seq(play)], ["", ""], {})
    except (RecordError, DeckhandError, KeyError, TypeError, ValueError):
        return ()
    return tuple(_map(f) for f in _seq(drawn.get("frames")))


def read_games(m: MatchView, slug: str, w: Words, ruleset: str) -> list[GameView]:
    """Every game of a board game's match that has its record, in order."""
    out: list[GameView] = []
    for b in m.boards:
        record = _map(b.get("record"))
        if not record:
            continue
        players = [str(p) for p in _seq(record.get("players"))]
        result = _map(record.get("result"))
        why = w.known(f"why.{result.get('why')}", result.get("why"))
        winner = result.get("winner")
        moves = [
            GameMove(int(_map(x).get("n") or 0), m.name(players[int(_map(x).get("seat") or 0)]) if players else "",
                     move_text(_map(x), w))
            for x in _seq(record.get("moves"))
        ]  # fmt: skip
        frames = pictures(ruleset, record, b.get("play"))
        number = int(b.get("game") or len(out) + 1)
        out.append(
            GameView(
                number,
                f"{slug}-g{number}",
                w(
                    "game.first",
                    player=m.name(record.get("first")),
                    how=w.known(f"first_by.{record.get('first_by')}", record.get("first_by")),
                ),
                w("game.won", winner=m.name(winner), why=why) if winner else w("game.drawn", why=why),
                moves,
                str(record.get("text") or ""),
                cells(frames[-1]) if frames else [],
                _replay(frames, [w("game.start")] + [f"{x.n}. {x.player} {x.text}" for x in moves]),
                [w("game.start")] + [f"{x.n}. {x.player} {x.text}" for x in moves],
            )
        )
    return out


def _replay(frames: Sequence[Mapping[str, Any]], steps: list[str]) -> str:
    """The replay's data as JSON (``<`` escaped: the page embeds it in a script element): each picture
    and the caption of the step that led to it."""
    data = {
        "frames": [{"rows": list(_seq(f.get("rows"))), "marks": list(_seq(f.get("marks")))} for f in frames],
        "steps": steps,
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def read_bracket(
    matches: Sequence[tuple[MatchView, str]], w: Words, label: Callable[[str, Words], str]
) -> list[tuple[str, list[BracketMatch]]]:
    """A board game's knockout by round: each match's players, their scores (games won, a draw ½), the
    winner, whether a lot decided it, its bracket label in words (``label``) and its page; empty for
    other events."""
    rounds: dict[int, list[BracketMatch]] = {}
    for m, link in matches:
        score = game_points(m)
        if score is None:
            continue
        mp = _map(m.result.get("mp"))
        players = [(m.name(t), score[t], mp.get(t) == 2) for t in score]
        named = str(m.raw.get("bracket") or "")
        words = label(named, w) if named else ""
        rounds.setdefault(int(m.round or 0), []).append(BracketMatch(words, players, "lot" in m.result, link))
    return [(w("bracket.round", round=r), rounds[r]) for r in sorted(rounds)]


def game_points(m: MatchView) -> dict[str, str] | None:
    """A board game's match: each player's games' points summed (1, ½, 0 a game), as people write them
    (``1½``); None for a match of another game or a bye."""
    if "head_to_head" not in m.raw or m.a is None or m.b is None:
        return None
    games = [_map(g) for g in _seq(m.result.get("games"))]
    return {t: _score(sum(int(_map(g.get("mp")).get(t) or 0) for g in games) / 2) for t in (m.a, m.b)}


def _score(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{int(x)}½" if x > 1 else "½"

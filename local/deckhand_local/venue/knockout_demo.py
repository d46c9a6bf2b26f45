"""``make demo`` for a game of two players (RULES.md §6.5): individuals in a knockout drawn by lot, each
tie a match of games. The demo's players bring their own bot styles to whichever seat a game gives
them; a line says each match's result as it ends; the files and the results site come from the export.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deckhand.competition.match_render import (
    match_boards_csv,
    match_results_csv,
    match_results_html,
    match_standings_csv,
)

from .simulated import RESIGNS

# The demo's players' bot styles, in turn by registration number: the quicker ones (a knockout plays
# its games one after another, the demo runs in minutes); players of different styles play different
# games, two of one style the same game each with the other colour (level: the tie goes to the lot).
STYLES = ("careful", "bold")
# The demo's ties: games before the lot decides a level one (the rules' default is longer; two players
# of one style play the same game again and again, the demo keeps that short).
MAX_GAMES = 4


def style_of_player(player: str, resigners: frozenset[str] = frozenset()) -> str:
    """A demo player's bot style, from its registration number (``P07``): the same player plays the
    same way in every game, whichever colour and handset the game gives it (``resigners`` resign)."""
    if player in resigners:
        return RESIGNS
    return STYLES[(int(player.lstrip("P")) - 1) % len(STYLES)]


class SeatedPlayers:
    """Who sits at a handset in the game its view shows, read from the stored game (the bench is
    trusted, as the referee's tools are): the players change seats between the games of a match."""

    def __init__(
        self, event_id: str, table_of: dict[str, str], resigners: frozenset[str] = frozenset()
    ) -> None:
        self.event_id = event_id
        self.table_of = table_of
        self.resigners = resigners
        self._seen: dict[tuple[str, int, str], str] = {}

    def player(self, thing: str, message: dict[str, Any]) -> str:
        key = (thing, message["r"], message["b"])
        if key not in self._seen:
            from deckhand.service.boards import store as board_store

            item = board_store.load(self.event_id, message["r"], self.table_of[thing], message["b"])
            if item is None or thing not in item.devices:
                raise RuntimeError(f"{thing} shows game {message['b']} of round {message['r']}, not stored")
            self._seen[key] = str(item.players[item.devices.index(thing)])
        return self._seen[key]

    def style(self, thing: str, message: dict[str, Any]) -> str:
        return style_of_player(self.player(thing, message), self.resigners)


def points(doubled: int) -> str:
    """A score kept doubled (1 / ½ / 0 a game), as people write it: ``2½``."""
    whole, half = divmod(doubled, 2)
    return (str(whole) if whole or not half else "") + ("½" if half else "")


def match_line(round_no: int, table: dict[str, Any], names: dict[str, str]) -> str:
    """One ended match of the round's status (its table's row): who went through, the score, how."""
    a, b = table["pairs"]
    result = table["match"]["result"]
    games = table["match"]["games"]
    won, lost = (a, b) if result["mp"][0] > result["mp"][1] else (b, a)
    score = {a: result["lp"][0], b: result["lp"][1]}
    return f"  round {round_no}, table {table['table']}: " + outcome(
        names.get(won, won),
        names.get(lost, lost),
        points(score[won]),
        points(score[lost]),
        games,
        "lot" in result,
    )


def outcome(won: str, lost: str, score_won: str, score_lost: str, games: int, by_lot: bool) -> str:
    """``A beat B 2–1 in 3 games``; a tie level after its last game: decided by lot."""
    if by_lot:
        return f"{won} and {lost} level {score_won}–{score_lost} after {games} games: {won} through by lot"
    return f"{won} beat {lost} {score_won}–{score_lost} in {games} games"


def ended_matches(status: dict[str, Any], announced: set[str]) -> list[dict[str, Any]]:
    """The round's matches that ended since last asked (their tables' rows), in table order."""
    out = []
    for table in status["tables"]:
        match = table.get("match")
        if match and match.get("result") and table["table"] not in announced:
            announced.add(table["table"])
            out.append(table)
    return out


def finish_knockout(
    out: Path,
    export: dict[str, Any],
    title: str,
    say: Callable[[str], None],
    write_site: Callable[[dict[str, Any]], None],
) -> dict[str, Any]:
    """The event's files from its export: results.json (every match game by game, the standings and
    the bracket), a CSV per match, per game and of the standings, the results page (Chinese, and its
    English twin ``results.en.html``) and site."""
    results = export["results"]
    document = {
        "event": export["event"],
        "pairs": export.get("pairs", []),
        "ruleset": results["ruleset"],
        "matches": results["matches"],
        "standings": results["standings"],
        "bracket": export["standings"]["bracket"],
        "deals": results["deals"],
        "rounds": export["rounds"],
    }
    (out / "results.json").write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    (out / "results.csv").write_text(match_results_csv(results))
    (out / "boards.csv").write_text(match_boards_csv(results))
    (out / "standings.csv").write_text(match_standings_csv(results))
    # The page in Chinese and its English twin, each with the rounds' commitments the lots came from.
    with_rounds = {**results, "rounds": export["rounds"]}
    (out / "results.html").write_text(match_results_html(with_rounds, title, "zh"))
    (out / "results.en.html").write_text(match_results_html(with_rounds, title, "en"))
    write_site(document)
    names = {s["team"]: s["name"] for s in results["standings"]}
    final = document["bracket"][-1]
    a, b = final["players"]
    winner = final["winner"]
    loser = b if winner == a else a
    score = {p: points(round(2 * final["score"][p])) for p in (a, b)}
    games = len(final["games"])
    say(
        "\nFinal: "
        + outcome(names[winner], names[loser], score[winner], score[loser], games, final["by_lot"])
    )
    say("Final standings")
    for s in results["standings"]:
        say(f"  {s['place']:>2}. {s['name']}")
    return document

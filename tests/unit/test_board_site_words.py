"""The results site says a board game's event in its own words (docs/results-site.md, "Board games"):
the header's format is the event's match format (a knockout, a Swiss), never the API's ``pvp``; a
match's result gives the games' points as its bracket does (``1½:½``: 1, ½, 0 a game), not the level
points the match machinery keeps doubled; the standings name players, not pairs. A card game's match
event keeps its pairs and level points."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from deckhand_local.site import model
from deckhand_local.site.build import build_site
from deckhand_local.site.words import EN, ZH

NAMES = {"ANN": "Li Lei", "BEN": "Han Meimei"}
# (language, the format in words, the board game's sentence, its entrants' column, a card game's sentence and column)
WORDS = [
    (ZH, "单败淘汰赛", "Li Lei 获胜：比赛分 2:0，局分 1½:½。", "选手", "比赛分 2:0，级分 3:1", "组合"),
    (EN, "knockout", "Li Lei wins: match points 2:0, games 1½:½.", "Player", "match points 2:0, level points 3:1", "Pair"),
]  # fmt: skip


def export(ruleset: str, board_game: bool) -> dict[str, Any]:
    """An API export (``GET /events/{id}/export``) of a knockout's one match: ANN won game 1 and drew
    game 2 (a board game's match: its ``head_to_head`` and each game's first mover)."""
    games = [{"mp": {"ANN": 2, "BEN": 0}, "lp": {"ANN": 2, "BEN": 0}, "first": "ANN", "ended_by": "resignation"},
             {"mp": {"ANN": 1, "BEN": 1}, "lp": {"ANN": 1, "BEN": 1}, "first": "BEN", "ended_by": "draw"}]  # fmt: skip
    match = {
        "round": 1, "table": "T1", "number": 1, "bracket": "F", "pairs": ["ANN", "BEN"], "names": NAMES,
        "seats": {"ANN": [0], "BEN": [1]}, "players": {"ANN": ["ANN"], "BEN": ["BEN"]}, "games": [1, 2], "boards": [],
        "result": {"mp": {"ANN": 2, "BEN": 0}, "lp": {"ANN": 3, "BEN": 1}, "kind": "played", "games": games},
        **({"head_to_head": {"max_games": 8, "lower_draw": "ANN"}} if board_game else {}),
    }  # fmt: skip
    standings = [
        {"team": t, "name": NAMES[t], "place": i + 1, "mp": 2 - 2 * i, "lp": 3 - 2 * i, "opp": 0, "decided_by": "knockout"}
        for i, t in enumerate(NAMES)
    ]  # fmt: skip
    event = {"event_id": "cup", "name": "Harbour Cup", "ruleset": ruleset, "grade": "unrated", "format": "pvp",
             "rounds": 1, "match": {"format": "knockout"}}  # fmt: skip
    results = {"ruleset": ruleset, "event": {"name": "Harbour Cup", "format": "knockout"}, "matches": [match],
               "standings": standings, "deals": "secret"}  # fmt: skip
    pairs = [{"id": t, "name": n, "number": i + 1} for i, (t, n) in enumerate(NAMES.items())]
    return {
        "event": event,
        "pairs": pairs,
        "rounds": [],
        "results": results,
        "standings": {"standings": standings},
    }


def entrants_column(doc: dict[str, Any], out: Path, lang: str) -> str:
    """The standings' column that names the entrants, on the index the site built in ``lang``."""
    build_site(doc, out)
    index = (out / ("en/index.html" if lang == EN else "index.html")).read_text(encoding="utf-8")
    head = index.split('<table id="standings"', 1)[1].split("</thead>", 1)[0]
    return head.split('<th scope="col">', 1)[1].split("</th>", 1)[0]


@pytest.mark.parametrize(
    ("lang", "fmt", "sentence", "column", "card_sentence", "card_column"), WORDS, ids=[ZH, EN]
)
def test_a_board_games_site_names_its_format_games_and_players(
    tmp_path: Path, lang: str, fmt: str, sentence: str, column: str, card_sentence: str, card_column: str
) -> None:
    shown_format = (model.Words(lang)("header.format"), fmt)
    board = export("xiangqi-2004", True)
    site = model.read(board, lang)
    assert shown_format in site.header and not any("pvp" in value for _, value in site.header)
    assert site.matches[0].sentence == sentence
    assert entrants_column(board, tmp_path / "board", lang) == column
    # A card game's match event: pairs, and the level points its games carry.
    card = export("guandan-2023", False)
    site = model.read(card, lang)
    assert shown_format in site.header and card_sentence in site.matches[0].sentence
    assert entrants_column(card, tmp_path / "card", lang) == card_column

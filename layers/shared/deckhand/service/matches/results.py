"""A match event's results: the history of matches, the standings, and the results document.

The competition core does the arithmetic (competition/matchplay: tally, ranking); this module reads
the stored matches into its form and writes its answers into documents (docs/export.md).
"""

from __future__ import annotations

from typing import Any

from ...competition.matchplay.entrants import MatchResult, ResultKind
from ...engines.contract import outcome_of
from ...engines.registry import game
from ..boards import store as board_store
from ..boards.head_to_head import first_by
from ..boards.records import add_match_records, game_record
from ..boards.round_boards import list_matches
from ..boards.round_items import revealed_rounds
from ..organiser.disclosure import deals_from
from ..organiser.events import event_id_of
from ..organiser.match_settings import KnockoutDraw, MatchFormat, MatchSettings
from ..organiser.pairs import entrants, list_teams
from ..storage.keys import event_pk, pairing_sk, team_of
from ..storage.models import EventItem, MatchItem, PairingItem
from .formats import NOTHING_KEPT, Frozen, places


def history(event_id: str, upto_round: int | None = None) -> list[MatchResult]:
    """Every finished match (and bye) of the event, up to a round, as the competition core reads them."""
    out = []
    for m in list_matches(event_id):
        if m.result is None or (upto_round is not None and m.round > upto_round):
            continue
        a, b = m.pairs
        kind = ResultKind(m.result["kind"])
        mp, lp = tuple(m.result["mp"]), tuple(m.result["lp"])
        out.append(MatchResult(m.round, a, b, mp, lp, kind))
    return out


def frozen_draws(event: EventItem, settings: MatchSettings) -> Frozen:
    """The draws kept with the stored pairings (match_formats.Frozen): the knockout's seeds after a
    Swiss, and who each cut removed."""
    rounds: list[int] = []
    if settings.knockout.draw is KnockoutDraw.LOT and settings.format is MatchFormat.KNOCKOUT:
        rounds.append(1)  # the bracket drawn by lot at round 1's start
    if settings.stages.qualifiers:
        rounds.append(settings.stages.swiss_rounds + 1)
    if settings.stages.cut is not None:
        end = 0
        for unit in settings.stages.cut.units[:-1]:
            end += unit.rounds
            rounds.append(end + 1)
    if not rounds:
        return NOTHING_KEPT
    keys = [(event_pk(event_id_of(event)), pairing_sk(r)) for r in rounds]
    seeds: tuple[str, ...] = ()
    cuts: list[tuple[int, tuple[str, ...]]] = []
    for item in PairingItem.batch_get(keys, consistent_read=True):
        seeds = seeds or tuple(item.seeds or ())
        cuts += [(int(end), tuple(teams)) for end, teams in (item.cuts or {}).items()]
    return Frozen(seeds, tuple(sorted(cuts)))


def standings(event: EventItem, upto_round: int) -> dict[str, Any]:
    """The standings after ``upto_round``: place, match points, level points, opponents' level points,
    and the step of the ranking chain that decided each place (RULES.md §4.3); none before the pairs
    register."""
    event_id = event_id_of(event)
    teams = list_teams(event_id)
    names = {team_of(t.sk): t.name for t in teams}
    settings = MatchSettings.from_dict(event.match)
    frozen = frozen_draws(event, settings)
    # No pairs yet (an event just created): no standings, whatever its format would make of none.
    placed = (
        places(settings, entrants(teams), history(event_id, upto_round), upto_round, frozen) if teams else []
    )
    bracket = bracket_of(event_id, upto_round) if game(event.ruleset).position is not None else None
    return {
        "round": upto_round,
        **({"bracket": bracket} if bracket is not None else {}),
        "standings": [
            {
                "team": p.standing.team,
                "name": names.get(p.standing.team, p.standing.team),
                **({"group": p.group} if p.group else {}),
                "place": p.standing.place,
                "mp": p.standing.mp,
                "lp": p.standing.lp,
                "opp": p.standing.opp,
                "decided_by": p.standing.decided_by.value,
            }
            for p in placed
        ],
    }


def bracket_of(event_id: str, upto_round: int) -> list[dict[str, Any]]:
    """A board game's bracket so far (RULES.md §6.5): each match by round, its players, each game's
    first mover and points (1 / ½ / 0), the score, the winner (None while it is played, and for a
    Swiss's drawn match) and whether a lot decided it."""
    out = []
    for m in list_matches(event_id):
        if not m.table or m.round > upto_round:
            continue
        pairs: list[str] = list(m.pairs)
        games: list[dict[str, Any]] = [
            {"first": pairs[int(g["first"])], "points": _by_pair(pairs, [int(x) / 2 for x in g["mp"]])}
            for g in m.games
        ]
        mp = [0, 0] if m.result is None else m.result["mp"]
        won = None if mp[0] == mp[1] else pairs[0 if mp[0] > mp[1] else 1]
        out.append(
            {
                "round": m.round,
                "match": m.rules.get("label"),
                "players": pairs,
                "games": games,
                "score": {p: sum(g["points"][p] for g in games) for p in pairs},
                "winner": won,
                "by_lot": m.result is not None and "lot" in m.result,
            }
        )
    return out


def _by_pair(pairs: list[str], values: list[Any]) -> dict[str, Any]:
    return {p: v for p, v in zip(pairs, values, strict=True) if p is not None}


def board_summary(item: Any, pairs: list[str], game_no: int) -> dict[str, Any]:
    """A board of a match as its score card shows it: the level played, the levels before and after,
    the finishing order, tributes; the sides named by their pairs (side 0 sits at seats 0 and 2)."""
    entry: dict[str, Any] = {"board": int(item.board), "game": game_no, "status": item.status}
    if item.status != "ended":
        return entry
    summary = dict(outcome_of(board_store.result_of(item)).summary or {})
    if "level_side" in summary:
        summary["level_side"] = pairs[summary["level_side"]]
    for key in ("levels_before", "levels_after"):
        if key in summary:
            summary[key] = _by_pair(pairs, summary[key])
    return {**entry, **summary}


def match_document(
    event_id: str,
    m: MatchItem,
    names: dict[str, str],
    seats: dict[str, list[int]],
    ruleset: str = "",
    event_name: str = "",
) -> dict[str, Any]:
    """One match of the results document (docs/competition.md); ``ruleset`` given (its round is done):
    with each ended board's hand and play records, and a board game's each game's record."""
    if m.table == "" and m.pairs[1] is not None:  # a game forfeited by a withdrawn pair: no table
        winner, loser = m.pairs
        return {
            "round": m.round,
            "table": None,
            "pairs": [winner, loser],
            "names": {p: names.get(p, p) for p in m.pairs},
            "forfeit": True,
            "boards": [],
            "result": {
                "mp": {winner: m.result["mp"][0], loser: m.result["mp"][1]},
                "lp": {winner: m.result["lp"][0], loser: m.result["lp"][1]},
                "kind": "forfeit",
            },
        }
    if m.table == "" or m.result is not None and m.result.get("kind") == "bye":
        (team,) = [p for p in m.pairs if p is not None]
        return {
            "round": m.round,
            "table": None,
            "pairs": [team, None],
            "names": {team: names.get(team, team)},
            "bye": True,
            "boards": [],
            "result": {"mp": {team: m.result["mp"][0]}, "lp": {team: m.result["lp"][0]}, "kind": "bye"},
        }
    pairs: list[str] = list(m.pairs)
    items = board_store.load_many(event_id, m.round, [(m.table, b) for b in m.boards])
    starts = [str(s) for s in (m.rules.get("game_starts") or m.boards[:1])]
    boards = []
    game_no = 0
    for b in m.boards:
        if b in starts:
            game_no += 1
        item = items.get((m.table, b))
        if item is not None:
            boards.append(board_summary(item, pairs, game_no))
    if ruleset:
        add_match_records(event_id, ruleset, m.round, m.table, boards, items)
        _add_game_records(m, ruleset, boards, items, names, event_name)
    result = None
    if m.result is not None:
        last_levels = next((x["levels_after"] for x in reversed(boards) if "levels_after" in x), None)
        result = {
            "levels": last_levels,
            "mp": _by_pair(pairs, m.result["mp"]),
            "lp": _by_pair(pairs, m.result["lp"]),
            "kind": m.result["kind"],
            "games": [
                {
                    "mp": _by_pair(pairs, g["mp"]),
                    "lp": _by_pair(pairs, g["lp"]),
                    "ended_by": g["ended_by"],
                    **({"first": pairs[int(g["first"])]} if "first" in g else {}),
                }
                for g in m.games
            ],
            **({"lot": pairs[int(m.result["lot"])]} if "lot" in m.result else {}),
        }
    return {
        "round": m.round,
        "table": m.table,
        "number": m.number,  # the table's number in the round: its boards' deal derivation names it
        **({"bracket": m.rules["label"]} if m.rules.get("label") else {}),
        **(
            {
                "head_to_head": {
                    "max_games": int(m.rules["max_games"]),
                    "lower_draw": pairs[int(m.rules["low"])],
                }
            }
            if "low" in m.rules
            else {}
        ),
        "pairs": pairs,
        "names": {p: names.get(p, p) for p in pairs},
        "seats": seats,
        "players": {p: [m.players[s] for s in seats[p]] for p in pairs},
        "games": list(range(1, game_no + 1)),
        "boards": boards,
        "result": result,
    }


def _add_game_records(m: MatchItem, ruleset: str, boards: list[dict[str, Any]],
                      items: dict[tuple[str, str], Any], names: dict[str, str], event_name: str) -> None:  # fmt: skip
    """A board game's each ended game gets its record (docs/export.md, "Game records")."""
    position = game(ruleset).position
    if position is None:
        return
    for b in boards:
        item = items.get((m.table, str(b["board"])))
        if b.get("status") != "ended" or item is None:
            continue
        game_no = int(b["game"])
        tags = {"Event": event_name, "Round": f"{m.round}.{m.number}.{game_no}"} if event_name else {}
        record = game_record(position, item, first_by(position.first_move, game_no), tags, names)
        if record is not None:
            b["record"] = record


def draw_document(event: EventItem, settings: MatchSettings) -> dict[str, Any] | None:
    """A knockout drawn by lot: who was drawn (id, registration number, seed) and the seeds the draw
    gave, best first — ``deckhand verify`` draws them again from round 1's secret."""
    if settings.format is not MatchFormat.KNOCKOUT or settings.knockout.draw is not KnockoutDraw.LOT:
        return None
    seeds = frozen_draws(event, settings).seeds
    if not seeds:
        return None
    drawn = [
        {"id": e.id, "reg": e.reg, **({"seed": e.seed} if e.seed is not None else {})}
        for e in entrants(list_teams(event_id_of(event)))
    ]
    return {"round": 1, "entrants": drawn, "seeds": list(seeds)}


def results_document(event: EventItem, upto_round: int) -> dict[str, Any]:
    """The event's matches up to a round, board by board, and the standings after it (docs/export.md)."""
    event_id = event_id_of(event)
    names = {team_of(t.sk): t.name for t in list_teams(event_id)}
    matches = [m for m in list_matches(event_id) if m.round <= upto_round]
    done = {r["round"] for r in revealed_rounds(event_id, upto_round)}
    sides = game(event.ruleset).match_sides  # side 0 (the pair named first) sits at seats 0 and 2
    docs = []
    for m in matches:
        seats = {p: list(sides[i]) for i, p in enumerate(m.pairs) if p is not None}
        ruleset = event.ruleset if m.round in done else ""
        docs.append(match_document(event_id, m, names, seats, ruleset, event.name))
    settings = MatchSettings.from_dict(event.match)
    drawn = draw_document(event, settings) if 1 in done else None
    return {
        "ruleset": event.ruleset,
        "event": {"name": event.name, "format": settings.format.value},
        **({"draw": drawn} if drawn is not None else {}),
        "matches": docs,
        "standings": standings(event, upto_round)["standings"],
        "deals": deals_from(event),
    }

"""JSON documents of ``deckhand pairings`` and ``deckhand match-standings`` (docs/cli.md).

Parsing checks every field and names it in the error (``history[2].mp``); the pure modules never
see raw JSON. JSON names of rule variants map to their Enums here and in the Enums' values.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, TypeVar

from . import knockout, ranking, round_robin, swiss
from .entrants import Entrant, MatchResult, ResultKind, Status
from .errors import MatchPlayError

MAX_KNOCKOUT = 1 << 16  # a bound on the answer's size: no real bracket comes near it
MAX_LEGS = 4


class Format(Enum):
    SWISS = "swiss"
    KNOCKOUT = "knockout"
    ROUND_ROBIN = "round_robin"


E = TypeVar("E", bound=Enum)


def _object(value: object, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise MatchPlayError(field, "expected a JSON object")
    return value


def _list(value: object, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise MatchPlayError(field, "expected a JSON list")
    return value


def _int(value: object, field: str, minimum: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MatchPlayError(field, f"expected a whole number, got {value!r}")
    if minimum is not None and value < minimum:
        raise MatchPlayError(field, f"must be at least {minimum}, got {value}")
    return value


def _bool(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise MatchPlayError(field, f"expected true or false, got {value!r}")
    return value


def _str(value: object, field: str) -> str:
    if not isinstance(value, str) or not value:
        raise MatchPlayError(field, f"expected a non-empty string, got {value!r}")
    return value


def _opt_str(doc: Mapping[str, Any], key: str, field: str) -> str | None:
    value = doc.get(key)
    return None if value is None else _str(value, f"{field}.{key}")


def _enum(kind: type[E], value: object, field: str) -> E:
    for member in kind:
        if member.value == value:
            return member
    choices = ", ".join(repr(m.value) for m in kind)
    raise MatchPlayError(field, f"expected one of {choices}, got {value!r}")


def _pair(value: object, field: str) -> tuple[int, int]:
    items = _list(value, field)
    if len(items) != 2:
        raise MatchPlayError(field, f"expected two numbers, got {len(items)}")
    return _int(items[0], f"{field}[0]"), _int(items[1], f"{field}[1]")


def _known_keys(doc: Mapping[str, Any], keys: set[str], field: str) -> None:
    for key in doc:
        if key not in keys:
            raise MatchPlayError(f"{field}.{key}" if field else key, "unknown field")


def parse_teams(value: object) -> list[Entrant]:
    teams: list[Entrant] = []
    seen: set[str] = set()
    for i, raw in enumerate(_list(value, "teams")):
        field = f"teams[{i}]"
        doc = _object(raw, field)
        _known_keys(doc, {"id", "name", "reg", "seed", "region", "club", "active", "players"}, field)
        team_id = _str(doc.get("id"), f"{field}.id")
        if team_id in seen:
            raise MatchPlayError(f"{field}.id", f"team {team_id!r} is listed twice")
        seen.add(team_id)
        seed = doc.get("seed")
        players = tuple(
            _str(p, f"{field}.players[{j}]")
            for j, p in enumerate(_list(doc.get("players", []), f"{field}.players"))
        )
        teams.append(
            Entrant(
                id=team_id,
                reg=_int(doc.get("reg", i + 1), f"{field}.reg", 1),
                name=_opt_str(doc, "name", field) or team_id,
                players=players,
                seed=None if seed is None else _int(seed, f"{field}.seed", 1),
                region=_opt_str(doc, "region", field),
                club=_opt_str(doc, "club", field),
                status=Status.ACTIVE
                if _bool(doc.get("active", True), f"{field}.active")
                else Status.WITHDRAWN,
            )
        )
    if not teams:
        raise MatchPlayError("teams", "the field has no teams")
    regs: dict[int, str] = {}
    for i, team in enumerate(teams):
        if team.reg in regs:
            raise MatchPlayError(f"teams[{i}].reg", f"{team.reg} is also {regs[team.reg]!r}'s number")
        regs[team.reg] = team.id
    return teams


def parse_history(value: object, teams: list[Entrant], before_round: int | None = None) -> list[MatchResult]:
    known = {t.id for t in teams}
    results: list[MatchResult] = []
    seated: dict[tuple[int, str], int] = {}  # (round, team) → the entry that seats it
    for i, raw in enumerate(_list(value if value is not None else [], "history")):
        field = f"history[{i}]"
        doc = _object(raw, field)
        _known_keys(doc, {"round", "a", "b", "bye", "forfeit", "mp", "lp"}, field)
        round_no = _int(doc.get("round"), f"{field}.round", 1)
        if before_round is not None and round_no >= before_round:
            raise MatchPlayError(f"{field}.round", f"round {round_no} is not before round {before_round}")
        a = _str(doc.get("a"), f"{field}.a")
        if a not in known:
            raise MatchPlayError(f"{field}.a", f"unknown team {a!r}")
        is_bye = _bool(doc.get("bye", False), f"{field}.bye")
        is_forfeit = _bool(doc.get("forfeit", False), f"{field}.forfeit")
        b_raw = doc.get("b")
        b = None if b_raw is None else _str(b_raw, f"{field}.b")
        if b is None and not is_bye:
            raise MatchPlayError(f"{field}.b", 'is missing (a game without an opponent must say "bye": true)')
        if b is not None and is_bye:
            raise MatchPlayError(f"{field}.b", "a bye has no opponent: give null")
        if b is not None and b not in known:
            raise MatchPlayError(f"{field}.b", f"unknown team {b!r}")
        if b == a:
            raise MatchPlayError(f"{field}.b", f"{a!r} cannot meet itself")
        if is_bye and is_forfeit:
            raise MatchPlayError(f"{field}.forfeit", "a bye is not a forfeit: give one of the two")
        for side, team in (("a", a), ("b", b)):
            if team is None:
                continue
            if (round_no, team) in seated:
                raise MatchPlayError(
                    f"{field}.{side}",
                    f"{team!r} already plays in round {round_no} (history[{seated[round_no, team]}])",
                )
            seated[round_no, team] = i
        mp = _pair(doc.get("mp"), f"{field}.mp")
        if sorted(mp) not in ([0, 2], [1, 1]) or (is_bye and mp != (2, 0)):
            raise MatchPlayError(
                f"{field}.mp", f"expected [2,0], [1,1] or [0,2] (a bye [2,0]), got {list(mp)}"
            )
        lp = _pair(doc.get("lp"), f"{field}.lp")
        kind = ResultKind.BYE if is_bye else ResultKind.FORFEIT if is_forfeit else ResultKind.PLAYED
        results.append(MatchResult(round_no, a, b, mp, lp, kind))
    return results


def parse_swiss_options(value: object, teams: list[Entrant]) -> swiss.SwissOptions:
    doc = _object(value if value is not None else {}, "options")
    keys = {"round1", "lot_seed", "no_same_region_round1", "forbid_same_club", "forbidden_pairs"}
    _known_keys(doc, keys, "options")
    known = {t.id for t in teams}
    forbidden: set[frozenset[str]] = set()
    for i, raw in enumerate(_list(doc.get("forbidden_pairs", []), "options.forbidden_pairs")):
        field = f"options.forbidden_pairs[{i}]"
        items = _list(raw, field)
        if len(items) != 2:
            raise MatchPlayError(field, "expected two team ids")
        ids = [_str(x, f"{field}[{j}]") for j, x in enumerate(items)]
        for j, x in enumerate(ids):
            if x not in known:
                raise MatchPlayError(f"{field}[{j}]", f"unknown team {x!r}")
        if ids[0] == ids[1]:
            raise MatchPlayError(field, "a pair cannot be forbidden to meet itself")
        forbidden.add(frozenset(ids))
    separate = _bool(doc.get("no_same_region_round1", True), "options.no_same_region_round1")
    forbid_club = _bool(doc.get("forbid_same_club", False), "options.forbid_same_club")
    return swiss.SwissOptions(
        round1=_enum(swiss.Round1Method, doc.get("round1", "lot"), "options.round1"),
        lot_seed=_int(doc.get("lot_seed", 0), "options.lot_seed"),
        regions=swiss.RegionRule.SEPARATE_ROUND1 if separate else swiss.RegionRule.IGNORE,
        clubs=swiss.ClubRule.FORBID if forbid_club else swiss.ClubRule.ALLOW,
        forbidden_pairs=frozenset(forbidden),
    )


def pairings_document(doc: object) -> dict[str, Any]:
    """Answer a ``deckhand pairings`` request; raises MatchPlayError / CannotPairError."""
    body = _object(doc, "")
    fmt = _enum(Format, body.get("format"), "format")
    if fmt is Format.KNOCKOUT:
        _known_keys(body, {"format", "teams"}, "")
        size = _int(body.get("teams"), "teams", 2)
        if size > MAX_KNOCKOUT:
            raise MatchPlayError("teams", f"at most {MAX_KNOCKOUT} teams in a knockout, got {size}")
        return {"first_round": [list(m) for m in knockout.first_round(size)]}
    if fmt is Format.ROUND_ROBIN:
        _known_keys(body, {"format", "teams", "legs"}, "")
        names = [_str(t, f"teams[{i}]") for i, t in enumerate(_list(body.get("teams"), "teams"))]
        if len(set(names)) != len(names):
            raise MatchPlayError("teams", "a team is listed twice")
        if len(names) < 2:
            raise MatchPlayError("teams", "a round robin needs at least two teams")
        legs = _int(body.get("legs", 1), "legs", 1)
        if legs > MAX_LEGS:
            raise MatchPlayError("legs", f"at most {MAX_LEGS} legs, got {legs}")
        return {"rounds": [[list(t) for t in rnd] for rnd in round_robin.schedule(names, legs)]}
    _known_keys(body, {"format", "round", "options", "teams", "history"}, "")
    round_no = _int(body.get("round"), "round", 1)
    teams = parse_teams(body.get("teams"))
    history = parse_history(body.get("history"), teams, before_round=round_no)
    options = parse_swiss_options(body.get("options"), teams)
    pairing = swiss.pair_round(teams, history, round_no, options)
    return {"pairs": [list(p) for p in pairing.pairs], "bye": pairing.bye}


def parse_ranking_options(value: object) -> ranking.RankingOptions:
    doc = _object(value if value is not None else {}, "options")
    _known_keys(doc, {"chain", "h2h", "h2h_recursive", "final", "lot_seed"}, "options")
    recursive = _bool(doc.get("h2h_recursive", False), "options.h2h_recursive")
    return ranking.RankingOptions(
        chain=_enum(ranking.Chain, doc.get("chain", ranking.Chain.LEVEL_POINTS.value), "options.chain"),
        h2h=_enum(ranking.HeadToHead, doc.get("h2h", "literal"), "options.h2h"),
        h2h_repeat=ranking.HeadToHeadRepeat.RECURSIVE if recursive else ranking.HeadToHeadRepeat.ONCE,
        final=_enum(ranking.FinalTie, doc.get("final", "share"), "options.final"),
        lot_seed=_int(doc.get("lot_seed", 0), "options.lot_seed"),
    )


def standings_document(doc: object) -> dict[str, Any]:
    """Answer a ``deckhand match-standings`` request."""
    body = _object(doc, "")
    _known_keys(body, {"format", "round", "teams", "history", "options"}, "")
    teams = parse_teams(body.get("teams"))
    history = parse_history(body.get("history"), teams)
    options = parse_ranking_options(body.get("options"))
    return {
        "standings": [
            {
                "team": s.team,
                "place": s.place,
                "mp": s.mp,
                "lp": s.lp,
                "opp": s.opp,
                "decided_by": s.decided_by.value,
            }
            for s in ranking.rank(teams, history, options)
        ]
    }

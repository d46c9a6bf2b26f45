"""``deckhand verify EXPORT``: every deal recomputed from the salts revealed, checked against the
commitments published at each round's start and against the hand records of the boards played.

A commitment is SHA-256 of a round's secret (and, for a duplicate round, of every deal it fixes),
published before the round begins; the secret (salt) is revealed when the round is done. Anyone can
then rebuild every board of the round from the salt (docs/protocol.md, Verification): if the hash
matches and the hands played are the ones rebuilt, nobody could have chosen the cards.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from deckhand.competition.matchplay.entrants import Entrant
from deckhand.engines.common.game_record import RecordError
from deckhand.engines.registry import game
from deckhand.errors import DeckhandError
from deckhand.service.boards.head_to_head import first_side, game_seed, lot
from deckhand.service.boards.match_boards import match_deal
from deckhand.service.boards.records import hand_record
from deckhand.service.duplicate.rounds import commitment, deal_order
from deckhand.service.matches.formats import drawn_by_lot
from deckhand.service.matches.knockouts import first_round
from deckhand.service.matches.round_of_matches import round_commitment


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def verify(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Per round: whether the salt gives the commitment, and how many boards' hands match."""
    results = _map(doc.get("results"))
    body = results if ("matches" in results or "boards" in results) else doc
    event = _map(doc.get("event")) or _map(body.get("event"))
    ruleset = str(body.get("ruleset") or doc.get("ruleset") or event.get("ruleset") or "")
    g = game(ruleset)
    match = "matches" in body
    same_boards = bool(_map(event.get("match")).get("same_boards"))
    out = []
    for r in doc.get("rounds") or []:
        r = _map(r)
        n, salt, published = (
            int(r.get("round") or 0),
            str(r.get("salt") or ""),
            str(r.get("commitment") or ""),
        )
        problems: list[str] = []
        checked = 0
        if not salt:
            out.append({"round": n, "ok": False, "problems": ["the salt is not revealed yet"]})
            continue
        if match:
            ok_commitment = round_commitment(salt) == published
            problems += _draw_problems(_map(body.get("draw")), salt, body.get("matches") or [], n)
            for m in body.get("matches") or []:
                m = _map(m)
                if m.get("round") != n or not m.get("table"):
                    continue
                problems += _lots_problems(g, salt, m, list(_map(body.get("draw")).get("seeds") or []))
                for b in m.get("boards") or []:
                    b = _map(b)
                    if b.get("status") != "ended":
                        continue
                    if g.position is not None:
                        problems += _record_problems(g, salt, m, b)
                        checked += 1
                        continue
                    if "deal" not in b:
                        problems.append(
                            f"table {m.get('table')} board {b.get('board')}: no hand record to check"
                        )
                        continue
                    order = match_deal(salt, int(m.get("number") or 0), int(b["board"]), g, same_boards)
                    checked += 1
                    if not _same_hands(g, order, _map(b["deal"])):
                        problems.append(
                            f"table {m.get('table')} board {b['board']}: the hands differ from the deal"
                        )
        else:
            boards = [_map(b) for b in body.get("boards") or [] if _map(b).get("round") == n]
            deals = {
                f"{b['group']}/{b['board']}": deal_order(salt, int(b["group"]), str(b["board"]), g)
                for b in boards
            }
            ok_commitment = commitment(salt, deals) == published
            for b in boards:
                where = f"board {b['board']} (group {b['group']})"
                if "deal" not in b:
                    problems.append(f"{where}: no hand record to check")
                    continue
                checked += 1
                order = deals[f"{b['group']}/{b['board']}"]
                if not _same_hands(g, order, _map(b["deal"])):
                    problems.append(f"{where}: the hands differ from the deal")
                for p in map(_map, b.get("play") or []):
                    deal = _map(p.get("deal")) or _map(b["deal"])
                    derived = _deal_played(p)
                    if (
                        int(p.get("deal_number") or 1) != derived
                        or int(deal.get("deal_number") or 1) != derived
                    ):
                        problems.append(
                            f"{where} table {p.get('table')}: its redeals do not give the deal shown"
                        )
                    elif not _same_hands(g, order, deal):
                        problems.append(f"{where} table {p.get('table')}: the hands differ from the deal")
        if not ok_commitment:
            problems.insert(0, "the salt does not give the published commitment")
        out.append({"round": n, "ok": not problems, "commitment": ok_commitment, "boards_checked": checked,
                    "problems": problems})  # fmt: skip
    revealed = {r["round"] for r in out}
    played = {int(_map(x).get("round") or 0) for x in (body.get("matches") or body.get("boards") or [])}
    unrevealed = [
        f"round {n} has results but no revealed salt to check them by" for n in sorted(played - revealed)
    ]
    ok = bool(out) and all(r["ok"] for r in out) and not unrevealed
    return {"ruleset": ruleset, "ok": ok, "rounds": out, "problems": unrevealed}


def _lots_problems(g: Any, salt: str, m: Mapping[str, Any], seeds: list[str]) -> list[str]:
    """A board game's match (RULES.md §6.5): the lower draw number the draw's (``seeds``, when drawn
    by lot), each game's first mover as the rules and the round's lots give it (the coin toss, 猜先),
    and a tie after ``max_games`` decided by the lot drawn."""
    rules = _map(m.get("head_to_head"))
    result = _map(m.get("result"))
    position = g.position
    if not rules or not result or position is None:
        return []
    pairs = list(m.get("pairs") or [])
    number = int(m.get("number") or 0)
    where = f"table {m.get('table')}"
    if rules.get("lower_draw") not in pairs:
        return [f"{where}: the lower draw number names neither player"]
    low = pairs.index(rules.get("lower_draw"))
    out = []
    if seeds and all(p in seeds for p in pairs) and pairs[low] != min(pairs, key=seeds.index):
        out.append(f"{where}: {min(pairs, key=seeds.index)} has the lower draw number, not {pairs[low]}")
    games = [_map(x) for x in result.get("games") or []]
    for game_no, played in enumerate(games, 1):
        first = pairs[first_side(position.first_move, salt, number, game_no, low)]
        if played.get("first") != first:
            out.append(
                f"{where} game {game_no}: {first} moves first by the rules and the lots, not {played.get('first')}"
            )
    totals = {p: sum(int(_map(x.get("mp")).get(p) or 0) for x in games) for p in pairs}
    if len(set(totals.values())) == 1:
        drawn = pairs[lot(salt, number, "tie")]
        mp = _map(result.get("mp"))
        if result.get("lot") != drawn or int(mp.get(drawn) or 0) != 2:
            out.append(f"{where}: the tie's lot names {drawn}, the result {result.get('lot')}")
    elif "lot" in result:
        out.append(f"{where}: a lot is recorded for a match that was not level")
    return out


def _draw_problems(draw: Mapping[str, Any], salt: str, matches: list[Any], n: int) -> list[str]:
    """A knockout drawn by lot (RULES.md §6.5): the seeds drawn again from round 1's secret, and round
    1's matches those the bracket of these seeds plays."""
    if not draw or int(draw.get("round") or 0) != n:
        return []
    field = [
        Entrant(str(_map(e).get("id")), int(_map(e).get("reg") or 0), seed=_map(e).get("seed"))
        for e in draw.get("entrants") or []
    ]
    seeds = drawn_by_lot(field, salt)
    if seeds != list(draw.get("seeds") or []):
        return [
            f"the draw by lot gives the seeds {', '.join(seeds)}, not {', '.join(draw.get('seeds') or [])}"
        ]
    played = {
        frozenset(_map(m).get("pairs") or [])
        for m in matches
        if _map(m).get("round") == n and _map(m).get("table") and not _map(m).get("forfeit")
    }
    drawn = {frozenset(p) for p in first_round(seeds)}
    if not played <= drawn:
        return ["round 1's matches are not the ones the draw gives"]
    return []


def _record_problems(g: Any, salt: str, m: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """A board game's game (docs/export.md, "Game records"): its first mover the match's, its seed
    the round's secret's, and its play replayed through the engine from its carry giving the record's
    moves and result, and the match's points for the game."""
    where = f"table {m.get('table')} game {b.get('game')}"
    record = _map(b.get("record"))
    position = g.position
    if not record or position.record is None:
        return [f"{where}: no game record to check"]
    game_no = int(b.get("game") or 0)
    players = list(record.get("players") or [])
    games = [_map(x) for x in _map(m.get("result")).get("games") or []]
    out = []
    played = games[game_no - 1] if 0 < game_no <= len(games) else {}
    if not players or record.get("first") != players[0] or played.get("first") != players[0]:
        out.append(f"{where}: the record's first mover is not the match's")
    carry = _map(record.get("carry"))
    if position.seeded:
        seed = game_seed(salt, int(m.get("number") or 0), game_no)
        if record.get("seed") != seed or carry.get("seed") != seed:
            out.append(f"{where}: the game's seed is not the one the round's secret gives")
    names = [str(_map(m.get("names")).get(p, p)) for p in players]
    tags = {str(k): str(v) for k, v in _map(record.get("tags")).items()}
    try:
        rec = position.record(dict(carry) or None, list(b.get("play") or []), names, tags)
    except (RecordError, KeyError, TypeError, ValueError) as exc:
        return [*out, f"{where}: the record does not replay: {exc}"]
    winner = rec["result"]["winner"]
    result = _map(record.get("result"))
    if rec["moves"] != record.get("moves") or rec.get("text") != record.get("text"):
        out.append(f"{where}: the record's moves are not the play's")
    if (None if winner is None else players[winner]) != result.get("winner") or rec["result"][
        "why"
    ] != result.get("why"):
        out.append(f"{where}: the play ends {rec['result']['why']}, not as the record says")
    points = {p: int(_map(played.get("mp")).get(p) or 0) for p in players}
    if points != {p: round(2 * x) for p, x in zip(players, rec["result"]["points"], strict=True)}:
        out.append(f"{where}: the match scores the game otherwise than its play ends")
    return out


def _deal_played(play: Mapping[str, Any]) -> int:
    """The deal a table played, by its play record: one more than its last redeal's number."""
    redeals = [int(_map(s).get("n") or 0) for s in play.get("steps") or [] if _map(s).get("t") == "redeal"]
    return redeals[-1] + 1 if redeals else 1


def _same_hands(g: Any, order: list[int], deal: Mapping[str, Any]) -> bool:
    number = int(deal.get("deal_number") or 1)
    rebuilt = hand_record(g, order, number - 1)
    return bool(rebuilt["hands"] == deal.get("hands") and rebuilt["kitty"] == deal.get("kitty"))


def _printable(text: str) -> str:
    """Text from an export for a terminal: no control characters (escape sequences) get through."""
    return "".join(c if c.isprintable() else "?" for c in text)


def run_verify(export: str, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """The verdict as JSON on stdout and a sentence per round on stderr; exit 0 when every round
    checks, 1 when one does not."""
    try:
        text = stdin.read() if export == "-" else Path(export).read_text(encoding="utf-8")
        doc = json.loads(text)
    except OSError as exc:
        raise DeckhandError(f"cannot read {export}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise DeckhandError(f"{export} is not JSON: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(doc, dict) or not doc.get("rounds"):
        raise DeckhandError(f"{export} has no rounds with commitments to check (an event's export has)")
    try:
        verdict = verify(doc)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DeckhandError(f"{export} is not a well-formed export: {type(exc).__name__} {exc}") from None
    for r in verdict["rounds"]:
        state = "verified" if r["ok"] else "NOT verified"
        detail = f"{r.get('boards_checked', 0)} board(s) checked" + "".join(f"; {p}" for p in r["problems"])
        print(_printable(f"round {r['round']}: {state} ({detail})"), file=stderr)
    for problem in verdict["problems"]:
        print(_printable(problem), file=stderr)
    print(json.dumps(verdict), file=stdout)
    return 0 if verdict["ok"] else 1

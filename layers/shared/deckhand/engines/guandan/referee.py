"""The ops of ``deckhand rules --game guandan`` (issue 16): a referee's calculator, one JSON object each.

Every op takes the request dict and returns the answer dict; bad input raises
:class:`deckhand.errors.DeckhandError` with a message naming the field, which the CLI turns into
``{"error": …}`` for that line.
"""

from __future__ import annotations

from typing import Any

from ...errors import CardError, DeckhandError
from ..common.cards import format_card, parse_cards
from ..common.requests import Op, cards_in, field
from . import levels as lv
from . import tribute as tb
from .combos import RANK_TOKENS, beats, reading_from_json, reading_to_json, readings


def parse_level_rank(token: object, name: str = "level") -> int:
    """A level token ("2"…"9", "T" or "10", "J", "Q", "K", "A") to the level card's rank index."""
    text = token.strip().upper() if isinstance(token, str) else None
    if text == "10":
        text = "T"
    if text is None or len(text) != 1 or text not in RANK_TOKENS:
        raise DeckhandError(f"{name!r} must be a level 2…9, T, J, Q, K or A, got {token!r}")
    return RANK_TOKENS.index(text)


def _cards(request: dict[str, Any], name: str) -> list[int]:
    return cards_in(field(request, name), name, decks=2, jokers=True)


def classify(request: dict[str, Any]) -> dict[str, Any]:
    """``{"op":"classify","level":"7","cards":[…]}`` → every reading of the cards (RULES.md §4, §4.2)."""
    level = parse_level_rank(field(request, "level"))
    cards = _cards(request, "cards")
    return {"readings": [reading_to_json(r) for r in readings(cards, level)]}


def beats_op(request: dict[str, Any]) -> dict[str, Any]:
    """``{"op":"beats","level":"7","prev":{reading},"play":[…]}`` → whether some reading of the play
    beats ``prev`` (§4 bomb order; a bomb ``prev`` carries its ``size``)."""
    level = parse_level_rank(field(request, "level"))
    prev = reading_from_json(field(request, "prev"), level, "prev")
    play = _cards(request, "play")
    return {"beats": any(beats(r, prev) for r in readings(play, level))}


# --- board ops (issue 16; RULES.md §4, §4.1, §4.2): levels, tribute and return, level points -------


def _intfield(request: dict[str, Any], name: str, low: int, high: int) -> int:
    value = field(request, name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise DeckhandError(f"{name!r} must be an integer {low}…{high}, got {value!r}")
    return value


def _levelsfield(request: dict[str, Any]) -> list[int]:
    value = field(request, "levels")
    if not isinstance(value, list) or len(value) != 2:
        raise DeckhandError("'levels' must be two levels, e.g. ['A', '5']")
    return [lv.parse_level(x) for x in value]


def _played_level(request: dict[str, Any]) -> int:
    """The level card's rank index from ``level`` (a level 2…A being played)."""
    return lv.level_rank(lv.parse_level(field(request, "level")))


def upgrade_op(request: dict[str, Any]) -> dict[str, Any]:
    """``{"op":"upgrade","level_side":0,"levels":["A","5"],"order":[0,2,1,3],"a_attempts":[0,0]}`` →
    ``{"levels":["A+","5"],"winner_side":0,"game_over":true}`` (§4 "Upgrade", §4.2 "The A rule");
    with ``"a_drop": true`` (the drop option) the answer also has the new ``a_attempts``."""
    levels = _levelsfield(request)
    side = _intfield(request, "level_side", 0, 1)
    order = field(request, "order")
    if not isinstance(order, list):
        raise DeckhandError("'order' must be the finishing order, a list of seats")
    attempts = request.get("a_attempts", [0, 0])
    if (
        not isinstance(attempts, list)
        or len(attempts) != 2
        or not all(isinstance(a, int) and not isinstance(a, bool) and a >= 0 for a in attempts)
    ):
        raise DeckhandError("'a_attempts' must be two counts, e.g. [0, 0]")
    drop = request.get("a_drop", False)
    if not isinstance(drop, bool):
        raise DeckhandError("'a_drop' must be true or false")
    options = lv.Options(a_drop=drop)
    up = lv.upgrade(levels, side, order, attempts, options)
    out: dict[str, Any] = {
        "levels": [lv.format_level(x) for x in up.levels],
        "winner_side": up.winner_side,
        "game_over": up.game_over,
    }
    if drop:
        out["a_attempts"] = list(up.a_attempts)
    return out


def tribute_op(request: dict[str, Any]) -> dict[str, Any]:
    """``{"op":"tribute","level":"7","order":[0,2,1,3],"hands":[[…],[…],[…],[…]]}`` →
    ``{"resisted":false,"tributes":[{"from":1,"to":0,"card":"RJ"},…],"leader":1}`` (§4 "Tribute", §4.2):
    each payer's highest card (never the heart level card; of several suits the first in card order)."""
    level = _played_level(request)
    order = field(request, "order")
    hands = field(request, "hands")
    if not isinstance(hands, list) or len(hands) != 4:
        raise DeckhandError("'hands' must be four hands (seats 0…3)")
    parsed: list[list[int]] = []
    for seat, hand in enumerate(hands):
        try:
            parsed.append(parse_cards(hand, decks=2, jokers=True))
        except CardError as exc:
            raise DeckhandError(f"'hands'[{seat}]: {exc}") from None
    cards_in([c for h in hands for c in h], "hands", decks=2, jokers=True)
    if not isinstance(order, list):
        raise DeckhandError("'order' must be the finishing order, a list of seats")
    plan, transfers, leader = tb.auto_tribute(order, parsed, level)
    return {
        "resisted": plan.resisted,
        "tributes": [{"from": t.giver, "to": t.receiver, "card": format_card(t.card)} for t in transfers],
        "leader": leader,
    }


def return_ok_op(request: dict[str, Any]) -> dict[str, Any]:
    """``{"op":"return_ok","level":"7","from":0,"to":1,"card":"S9","partner":false}`` → ``{"ok":true}``
    (§4.2 "Return"). ``partner`` defaults to whether the seats are partners; with ``"hand"`` (the
    returner's) the no-small-card case (its lowest card) is checked too; ``"rule":"2022"`` the option."""
    level = _played_level(request)
    giver = _intfield(request, "from", 0, 3)
    receiver = _intfield(request, "to", 0, 3)
    card = _cards(request | {"card": [field(request, "card")]}, "card")[0]
    partner = request.get("partner", lv.partner_of(giver) == receiver)
    if not isinstance(partner, bool):
        raise DeckhandError("'partner' must be true or false")
    try:
        rule = lv.ReturnRule(str(request.get("rule", lv.ReturnRule.R2023.value)))
    except ValueError:
        raise DeckhandError("'rule' must be '2023' or '2022'") from None
    if "hand" in request:
        hand = _cards(request, "hand")
        if card not in hand:
            raise DeckhandError("'card' is not in 'hand'")
        return {"ok": tb.return_ok(card, hand, level, partner, rule)}
    needs_small = partner or rule == lv.ReturnRule.R2022
    return {"ok": not needs_small or tb.is_small(card, level)}


def level_points_op(request: dict[str, Any]) -> dict[str, Any]:
    """``{"op":"level_points","levels":["A+","7"]}`` → ``{"match_points":[2,0],"level_points":[21,5]}``
    (§4.1: winner 13+d, loser 13−d; a draw 1:1 and 13:13). Optional ``"table"`` (14 [winner, loser]
    rows) and ``"forfeit_by"`` (the side that forfeited: 2:0 and 18:0, or the real margin if larger)."""
    levels = _levelsfield(request)
    table = lv.LevelTable.from_data(request["table"]) if "table" in request else lv.LevelTable()
    if "forfeit_by" in request:
        loser = _intfield(request, "forfeit_by", 0, 1)
        pts = lv.forfeit_points(levels, 1 - loser, table)
    else:
        pts = lv.level_points(levels, table)
    return {"match_points": list(pts.match_points), "level_points": list(pts.level_points)}


OPS: dict[str, Op] = {
    "classify": classify,
    "beats": beats_op,
    # --- board ops (upgrade, tribute, return_ok, level_points) are added here by the board module ---
    "upgrade": upgrade_op,
    "tribute": tribute_op,
    "return_ok": return_ok_op,
    "level_points": level_points_op,
}


class GuandanReferee:
    """classify, beats, upgrade, tribute, return_ok and level_points (RULES.md §4)."""

    def ops(self) -> dict[str, Op]:
        return OPS

"""The ops of ``deckhand rules --game shengji`` (issue 20): a referee's calculator, one JSON object each.

Every request carries ``"preset": "yaoji2010" | "common"``; bad input raises
:class:`deckhand.errors.DeckhandError` naming the field, which the CLI turns into ``{"error": …}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import CardError, DeckhandError
from ..common.cards import check_cards, format_card, format_cards
from ..common.requests import Op, cards_in, field
from . import declare as dc
from . import levels as lv
from .cards import Trump, parse_suit, trump
from .combos import (
    Component,
    Kind,
    decompose,
    follow_error,
    forced_component,
    kitty_multiplier,
    play_key,
    suit_of_play,
    throw_failures,
    trick_winner,
)
from .options import NoDeclaration, Options, ThrowPenalty, parse_level, preset_of


def _cards(value: object, name: str) -> list[int]:
    return cards_in(value, name, decks=2, jokers=True)


def _all_cards(cards: list[int], name: str) -> None:
    """Cards of several hands together still come from two decks."""
    try:
        check_cards(cards, decks=2, jokers=True)
    except CardError as exc:
        raise DeckhandError(f"{name!r}: {exc}") from None


def _context(request: dict[str, Any]) -> tuple[Options, Trump]:
    options = preset_of(request)
    level = parse_level(field(request, "level"))
    try:
        suit = parse_suit(field(request, "trump"))
    except ValueError as exc:
        raise DeckhandError(str(exc)) from None
    return options, trump(level, suit, options.level_chain)


def _one_suit(cards: Sequence[int], ctx: Trump, name: str) -> int:
    if not cards:
        raise DeckhandError(f"{name!r} must not be empty")
    suit = suit_of_play(cards, ctx)
    if suit is None:
        raise DeckhandError(f"{name!r} must be cards of one suit (trump counting as one)")
    return suit


def component_json(comp: Component) -> dict[str, Any]:
    out: dict[str, Any] = {"type": comp.kind.value}
    if comp.kind is Kind.TRACTOR:
        out["pairs"] = comp.pairs
    out["high"] = format_card(comp.cards[0])
    return out


def order_op(request: dict[str, Any]) -> dict[str, Any]:
    """``order`` {level, trump, cards} → the cards highest first with their effective suit."""
    _, ctx = _context(request)
    cards = _cards(field(request, "cards"), "cards")
    return {"cards": [{"card": format_card(c), "suit": ctx.suit_letter(c)} for c in ctx.ordered(cards)]}


def components_op(request: dict[str, Any]) -> dict[str, Any]:
    """``components`` {level, trump, cards of one effective suit} → tractors, pairs, singles."""
    _, ctx = _context(request)
    cards = _cards(field(request, "cards"), "cards")
    _one_suit(cards, ctx, "cards")
    return {
        "suit": ctx.suit_letter(cards[0]),
        "components": [component_json(c) for c in decompose(cards, ctx)],
    }


def follow_ok_op(request: dict[str, Any]) -> dict[str, Any]:
    """``follow_ok`` {level, trump, lead, hand (including the play), play} → ``{"ok":…,"reason":…}``."""
    _, ctx = _context(request)
    lead = _cards(field(request, "lead"), "lead")
    _one_suit(lead, ctx, "lead")
    hand = _cards(field(request, "hand"), "hand")
    play = _cards(field(request, "play"), "play")
    error = follow_error(lead, hand, play, ctx)
    return {"ok": True} if error is None else {"ok": False, "reason": error.value}


def trick_winner_op(request: dict[str, Any]) -> dict[str, Any]:
    """``trick_winner`` {level, trump, leader, plays: 4 lists by seat} → ``{"winner": seat}``."""
    _, ctx = _context(request)
    leader = field(request, "leader")
    if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader <= 3:
        raise DeckhandError(f"'leader' must be a seat 0…3, got {leader!r}")
    plays = field(request, "plays")
    if not isinstance(plays, list) or len(plays) != 4:
        raise DeckhandError("'plays' must be four lists of cards, indexed by seat")
    parsed = [_cards(p, f"plays[{i}]") for i, p in enumerate(plays)]
    _all_cards([c for p in parsed for c in p], "plays")
    order = [(leader + i) % 4 for i in range(4)]
    lead = parsed[leader]
    _one_suit(lead, ctx, f"plays[{leader}]")
    for seat in order[1:]:
        if len(parsed[seat]) != len(lead):
            raise DeckhandError(f"plays[{seat}] must have as many cards as the lead ({len(lead)})")
    return {"winner": order[trick_winner([parsed[s] for s in order], ctx)]}


def _penalty(options: Options, cards: int) -> int:
    return 10 * cards if options.throw_penalty is ThrowPenalty.TEN_PER_CARD else 0


def throw_ok_op(request: dict[str, Any]) -> dict[str, Any]:
    """``throw_ok`` {level, trump, throw, others: three hands} → stands, or the forced component and the
    penalty (004: 10 per card thrown)."""
    options, ctx = _context(request)
    throw = _cards(field(request, "throw"), "throw")
    _one_suit(throw, ctx, "throw")
    others = field(request, "others")
    if not isinstance(others, list) or len(others) != 3:
        raise DeckhandError("'others' must be three hands: the thrower's 下家, partner and 上家")
    hands = [_cards(h, f"others[{i}]") for i, h in enumerate(others)]
    _all_cards(throw + [c for h in hands for c in h], "throw and others")
    failures = throw_failures(throw, hands, ctx)
    if not failures:
        return {"ok": True, "penalty": 0}
    forced = forced_component(failures)
    return {"ok": False, "forced": format_cards(forced.cards), "penalty": _penalty(options, len(throw))}


def result_op(request: dict[str, Any]) -> dict[str, Any]:
    """``result`` {defender_points} → the side that goes up, by how many, and who deals next."""
    options = preset_of(request)
    points = field(request, "defender_points")
    if not isinstance(points, int) or isinstance(points, bool):
        raise DeckhandError(f"'defender_points' must be an integer, got {points!r}")
    change = lv.result(points, options.result_table)
    return {
        "side": "dealer" if change.dealer_side_won else "defenders",
        "levels": change.levels,
        "dealer_change": change.dealer_change,
        "next_dealer": "dealer_partner" if change.dealer_side_won else "dealer_next",
    }


def _shape(value: object, name: str) -> Component:
    """A component as a request gives it: {"type": "single"|"pair"|"tractor", "pairs": n}."""
    if not isinstance(value, dict):
        raise DeckhandError(f"{name!r} must be an object with a 'type'")
    try:
        kind = Kind(str(value.get("type")))
    except ValueError:
        raise DeckhandError(f"{name!r}: 'type' must be single, pair or tractor") from None
    pairs = {Kind.SINGLE: 0, Kind.PAIR: 1}.get(kind, value.get("pairs"))
    if kind is Kind.TRACTOR and (not isinstance(pairs, int) or isinstance(pairs, bool) or pairs < 2):
        raise DeckhandError(f"{name!r}: a tractor has 'pairs' ≥ 2")
    assert isinstance(pairs, int)
    size = max(1, 2 * pairs)
    return Component(kind, (0,) * size, 0)


def kitty_op(request: dict[str, Any]) -> dict[str, Any]:
    """``kitty`` {kitty_points, last_trick} → the points the defenders add and the multiplier."""
    options = preset_of(request)
    points = field(request, "kitty_points")
    if not isinstance(points, int) or isinstance(points, bool) or points < 0:
        raise DeckhandError(f"'kitty_points' must be an integer ≥ 0, got {points!r}")
    last = field(request, "last_trick")
    if isinstance(last, dict) and last.get("type") == "throw":
        comps = last.get("components")
        if not isinstance(comps, list) or len(comps) < 2:
            raise DeckhandError("a throw's 'components' must list two or more components")
        lead = [_shape(c, f"last_trick.components[{i}]") for i, c in enumerate(comps)]
    else:
        lead = [_shape(last, "last_trick")]
    multiplier = kitty_multiplier(lead, options.singles_throw_kitty.factor)
    return {"points": points * multiplier, "multiplier": multiplier}


def declare_op(request: dict[str, Any]) -> dict[str, Any]:
    """``declare`` {level, bids in time order, kitty (004, when nobody declared)} → which bids stand,
    the trump, the declarer and board 1's dealer."""
    options = preset_of(request)
    level = parse_level(field(request, "level"))
    bids = field(request, "bids")
    if not isinstance(bids, list):
        raise DeckhandError("'bids' must be a list of {seat, cards}")
    state = dc.Declared()
    accepted: list[bool] = []
    for i, bid in enumerate(bids):
        if not isinstance(bid, dict):
            raise DeckhandError(f"'bids'[{i}] must be an object with 'seat' and 'cards'")
        seat = bid.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise DeckhandError(f"'bids'[{i}].seat must be a seat 0…3, got {seat!r}")
        cards = _cards(bid.get("cards"), f"bids[{i}].cards")
        try:
            state = dc.check(state, dc.read(seat, cards, level), options)
        except ValueError:
            accepted.append(False)
        else:
            accepted.append(True)
    kitty: list[int] = []
    if state.standing is None and options.no_declaration is NoDeclaration.KITTY_FIRST_CARD:
        if "kitty" not in request:
            raise DeckhandError("nobody declared: 'kitty' (its cards in order) names trump in this preset")
        kitty = _cards(request["kitty"], "kitty")
    suit, declarer, dealer = dc.outcome(state, options, kitty)
    return {
        "accepted": accepted,
        "trump": None if suit is None else "DCHS"[suit],
        "declarer": declarer,
        "dealer_board1": dealer,
    }


def classify_op(request: dict[str, Any]) -> dict[str, Any]:
    """``classify`` (every game's op): the lead's type — single, pair, tractor or throw."""
    _, ctx = _context(request)
    cards = _cards(field(request, "cards"), "cards")
    _one_suit(cards, ctx, "cards")
    comps = decompose(cards, ctx)
    return {"type": comps[0].kind.value if len(comps) == 1 else "throw"}


def beats_op(request: dict[str, Any]) -> dict[str, Any]:
    """``beats`` (every game's op) {level, trump, lead, play} → whether the play beats the lead."""
    _, ctx = _context(request)
    lead = _cards(field(request, "lead"), "lead")
    _one_suit(lead, ctx, "lead")
    play = _cards(field(request, "play"), "play")
    if len(play) != len(lead):
        raise DeckhandError("'play' must have as many cards as 'lead'")
    key, own = play_key(lead, play, ctx), play_key(lead, lead, ctx)
    return {"beats": key is not None and own is not None and key > own}


OPS: dict[str, Op] = {
    "order": order_op,
    "components": components_op,
    "follow_ok": follow_ok_op,
    "trick_winner": trick_winner_op,
    "throw_ok": throw_ok_op,
    "result": result_op,
    "kitty": kitty_op,
    "declare": declare_op,
    "classify": classify_op,
    "beats": beats_op,
}


class ShengjiReferee:
    """The calculator's ops, for the spec (loaded only when ``deckhand rules`` asks)."""

    def ops(self) -> dict[str, Op]:
        return OPS

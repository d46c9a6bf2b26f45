"""A match's boards, one after another (RULES.md §4.3): nobody knows in advance how many there will be.

When a board of a match ends, one transaction saves it together with what follows from it: the next
board (made from the ended one's carry, its deal derived from the round's secret) or, when the match
is over, the match's result and the round's count of finished matches. So no crash leaves an ended
board without its successor or its result, and a retry finds everything or nothing.

Board ``k`` of the match at table number ``t`` of a round is the card order derived from
``<salt>/table/<t>/board/<k>`` (with the event's same-boards option: ``<salt>/board/<k>``, the same at
every table); the round's commitment is SHA-256 of the salt (docs/protocol.md, Verification).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pynamodb.exceptions import DoesNotExist
from pynamodb.transactions import TransactWrite

from ...competition.matchplay.entrants import RoundFormat, combine_games
from ...competition.matchplay.errors import ExtraBoardNeeded
from ...competition.matchplay.knockout import KnockoutDecision, KnockoutMatchRule, knockout_winner
from ...competition.matchplay.level_points import GameScore, Side
from ...engines.contract import outcome_of
from ...engines.registry import Game, game
from ..infra.clock import now_ms
from ..storage.keys import STATE, board_pk, deal_sk, event_pk, kept_sk, match_sk, round_sk
from ..storage.models import BoardStateItem, DealItem, KeptItem, MatchItem, RoundItem, transaction
from . import head_to_head, round_progress
from .round_items import derived_order


def match_deal(salt: str, number: int, board_no: int, g: Game, same_boards: bool) -> list[int]:
    """The card order of board ``board_no`` of the match at table number ``number`` (module doc)."""
    place = f"board/{board_no}" if same_boards else f"table/{number}/board/{board_no}"
    return derived_order(f"{salt}/{place}", g)


def first_carry(match: MatchItem) -> dict[str, Any] | None:
    """What a card game's first board starts from: the event's rule options, nothing carried (a board
    game's: ``head_to_head_carry``)."""
    options = match.rules.get("options")
    return None if options is None else {"options": options}


def head_to_head_carry(
    event_id: str, match: MatchItem, g: Game, salt: str, game_no: int, just_kept: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """What game ``game_no`` of a board game's match starts from: the options the rules give it, the
    game's seed (from the round's secret: ``deckhand verify`` can recompute it) where the game takes
    one, and each seat's player's kept choice where it keeps one (``just_kept``: the game just ended's,
    not stored yet) — each seat's own: the engine offers it to that seat alone."""
    position = g.position
    assert position is not None
    carry = head_to_head.game_carry(position, match.rules.get("options"), game_no)
    if position.seeded:
        carry = {**(carry or {}), "seed": head_to_head.game_seed(salt, match.number, game_no)}
    if position.keeps:
        first = first_mover(match, g, salt, game_no) or 0
        players = head_to_head.seated(list(match.players), first)
        kept = {**kept_choices(event_id, players), **(just_kept or {})}
        carry = {**(carry or {}), "last": [kept.get(p) for p in players]}
    return carry


def kept_choices(event_id: str, players: list[str]) -> dict[str, Any]:
    """player → their kept choice in the event (players without one are absent)."""
    keys = [(event_pk(event_id), kept_sk(p)) for p in players if p]
    return (
        {item.sk.removeprefix(kept_sk("")): item.choice for item in KeptItem.batch_get(keys)} if keys else {}
    )


def kept_items(event_id: str, item: BoardStateItem, ended: dict[str, Any]) -> list[KeptItem]:
    """Each seat's choice the ended game keeps (its result's ``keep``), for the seat's player."""
    where = f"{item.round}/{item.table}/{item.board}"
    return [
        KeptItem(event_pk(event_id), kept_sk(player), choice=choice, board=where)
        for player, choice in zip(item.players or [], ended.get("keep") or [], strict=False)
        if player and choice is not None
    ]


def first_mover(match: MatchItem, g: Game, salt: str, game_no: int) -> int | None:
    """A board game's match: the side that moves first (seat 0) in game ``game_no`` (RULES.md §6.5);
    None for a card game, whose seats never change within a match."""
    if g.position is None or "low" not in match.rules:
        return None
    return head_to_head.first_side(
        g.position.first_move, salt, match.number, game_no, int(match.rules["low"])
    )


def decider_carry(match: MatchItem, g: Game) -> dict[str, Any]:
    """The extra board that decides a knockout match level on summed level points (§4.3 Draws): the
    rule set's options for one board played until a side wins it."""
    if g.decider is None:
        raise RuntimeError(f"{g.name} has no extra board: summed level points cannot be decided")
    return {"options": g.decider(match.rules.get("options") or {})}


def board_item(
    event_id: str,
    match: MatchItem,
    board_no: int,
    carry: dict[str, Any] | None,
    order: list[int],
    ruleset: str,
    commitment: str,
    clock_ends_at: int | None = None,
    langs: dict[str, str] | None = None,
    first: int | None = None,
) -> BoardStateItem:
    """Board ``board_no`` of ``match``, waiting to start; its state is made now (the board before it
    has ended, so its carry is known). ``first``: a board game's side that moves first, at seat 0
    (the players change seats between games, the table's handsets stay, the players' own devices
    follow them: ``match.rules["handsets"]`` are the table's, by the round's seating)."""
    g = game(ruleset)
    board = str(board_no)
    names = list(match.rules.get("names") or [])
    players, devices = list(match.players), list(match.devices)
    if first is not None:  # the players change seats, the table's handsets stay at theirs
        players = head_to_head.seated(players, first)
        handsets = match.rules.get("handsets")
        if handsets:  # a player's own device goes with its player
            devices = head_to_head.seated_devices(devices, list(handsets), first)
    return BoardStateItem(
        board_pk(event_id, match.round, match.table, board),
        STATE,
        event_id=event_id,
        round=match.round,
        group=match.table,  # a match's deals are keyed by its table (deal_sk)
        table=match.table,
        board=board,
        position=board_no - 1,
        ruleset=ruleset,
        players=players,
        names=(head_to_head.seated(names, first) if first is not None and names else names) or None,
        devices=devices,
        langs=langs,
        dealer=match.dealer,
        eboard=match.eboard,
        next_board="",
        previous_board=str(board_no - 1) if board_no > 1 else "",
        carry=carry,
        status="waiting",
        # A game whose seats act during the deal starts with no card out (tableboard gives them out).
        state=(g.new_board_in_steps or g.new_board)(order, carry).to_json(),
        deal_ms=int(match.rules.get("deal_ms", 0)) if g.new_board_in_steps else 0,
        log=[],
        asked_at=[0] * g.seats,
        play_ms=[0] * g.seats,
        commitment=commitment,
        in_match=True,
        clock_ends_at=match.clock_ends_at if clock_ends_at is None else clock_ends_at,
    )


def deal_item(event_id: str, round_no: int, table: str, board_no: int, order: list[int]) -> DealItem:
    return DealItem(event_pk(event_id), deal_sk(round_no, table, str(board_no)), order=order)


def get_match(event_id: str, round_no: int, table: str) -> MatchItem:
    return MatchItem.get(event_pk(event_id), match_sk(round_no, table), consistent_read=True)


@dataclass(frozen=True)
class GamesRule:
    """How many games a match takes and who wins it (RULES.md §4.3): one game or best of three a
    round; a bracket's match by the knockout rule (002 §29: best of 3 or 5, or 2–3 games by summed
    level points with one extra board deciding equal sums)."""

    round_format: RoundFormat
    knockout: KnockoutMatchRule | None

    @classmethod
    def of(cls, match: MatchItem) -> GamesRule:
        ko = match.rules.get("knockout")
        rule = None if not ko else KnockoutMatchRule(KnockoutDecision(ko["decision"]), int(ko["games"]))
        return cls(RoundFormat(match.rules.get("games", RoundFormat.ONE_GAME.value)), rule)

    def decided(self, games: list[dict[str, Any]]) -> bool:
        if self.knockout is None:
            if self.round_format is RoundFormat.ONE_GAME:
                return len(games) >= 1
            wins = [sum(1 for g in games if g["mp"][side] == 2) for side in (0, 1)]
            return max(wins) >= 2 or len(games) >= 3
        return self.winner(games) is not None

    def needs_decider(self, games: list[dict[str, Any]]) -> bool:
        """Summed level points equal after the match's games: one extra board decides (§4.3 Draws)."""
        ko = self.knockout
        if ko is None or ko.decision is not KnockoutDecision.SUMMED_LEVEL_POINTS:
            return False
        counted = [GameScore(tuple(g["mp"]), tuple(g["lp"])) for g in games if not g.get("decider")]
        if len(counted) < ko.games:
            return False
        try:
            knockout_winner(ko, counted)
        except ExtraBoardNeeded:
            return not any(g.get("decider") for g in games)
        return False

    def winner(self, games: list[dict[str, Any]]) -> int | None:
        """A knockout match's winning side (0 or 1), or None while more games are due."""
        assert self.knockout is not None
        counted = [GameScore(tuple(g["mp"]), tuple(g["lp"])) for g in games if not g.get("decider")]
        extra = next((g for g in games if g.get("decider")), None)
        extra_side = None if extra is None else (Side.A if extra["mp"][0] > extra["mp"][1] else Side.B)
        try:
            side = knockout_winner(self.knockout, counted, extra_side)
        except ExtraBoardNeeded:
            return None
        return None if side is None else (0 if side is Side.A else 1)

    def result(self, games: list[dict[str, Any]], loser: int | None = None) -> dict[str, Any]:
        """The match's score side by side and its kind; ``loser``: the side disqualified, who loses it
        whatever its games (RULES.md §4.3)."""
        forfeited = any(g["ended_by"] in ("forfeit", "disqualify") for g in games)
        kind = "forfeit" if forfeited else "played"
        counted = [g for g in games if not g.get("decider")]
        lp = [sum(g["lp"][0] for g in counted), sum(g["lp"][1] for g in counted)]
        if self.knockout is not None or loser is not None:
            won = (1 - loser) if loser is not None else self.winner(games)
            assert won is not None
            return {"mp": [2, 0] if won == 0 else [0, 2], "lp": lp, "kind": kind}
        score = combine_games([GameScore(tuple(g["mp"]), tuple(g["lp"])) for g in games], self.round_format)
        return {"mp": list(score.mp), "lp": list(score.lp), "kind": kind}


def save_ended(item: BoardStateItem) -> None:
    """Save a match's board that has just ended, with the next board or the match's result (module
    doc). A lost race (the board or the match changed meanwhile) raises TransactWriteError: the
    caller's locking loop loads the board again and redoes its change."""
    match = get_match(item.event_id, item.round, item.table)
    if match.status != "playing" or not match.boards or match.boards[-1] != item.board:
        item.save()  # not the match's board in play (cannot happen): saved alone, nothing follows
        return
    ended = game(item.ruleset).load_board(item.state).result()
    outcome = outcome_of(ended)
    if outcome.points is not None and "low" in match.rules:
        _save_game_ended(item, match, outcome.points, ended)
        return
    games = list(match.games)
    if outcome.game is not None:
        first = next((i for i, b in enumerate(match.boards) if b == _game_start(match)), 0)
        games.append(
            {
                "mp": list(outcome.game.mp),
                "lp": list(outcome.game.lp),
                "ended_by": (outcome.summary or {}).get("ended_by", "played"),
                "boards": match.boards[first:],
                **({"decider": True} if match.rules.get("decider") == _game_start(match) else {}),
            }
        )
    rule = GamesRule.of(match)
    disqualified: int | None = None
    if games and games[-1]["ended_by"] == "disqualify":
        # RULES.md §4.3: a disqualified pair's later games are forfeits; the match ends now, lost.
        disqualified = 0 if games[-1]["mp"][0] == 0 else 1
        points = list(match.rules.get("forfeit") or [18, 0])
        limit = rule.knockout.games if rule.knockout is not None else 3
        while not rule.decided(games) and len(games) < limit:
            won = [2, 0] if disqualified == 1 else [0, 2]
            lp = points if disqualified == 1 else points[::-1]
            games.append({"mp": won, "lp": lp, "ended_by": "disqualify", "boards": []})
    with transaction() as tx:
        over = disqualified is not None or rule.decided(games)
        if outcome.game is not None and over:
            _match_done(tx, item, match, games, rule.result(games, disqualified))
            return
        board_no = len(match.boards) + 1
        carry = first_carry(match) if outcome.game is not None else outcome.carry
        decider = outcome.game is not None and rule.needs_decider(games)
        if decider:
            carry = decider_carry(match, game(item.ruleset))
        salt = _salt(item.event_id, item.round)
        g = game(item.ruleset)
        order = match_deal(salt, match.number, board_no, g, bool(match.rules.get("same_boards")))
        clock = match.clock_ends_at
        minutes = match.rules.get("clock_minutes")
        if outcome.game is not None and minutes:
            clock = now_ms() + int(minutes) * 60_000  # a new game of a best of three: its own clock
        if decider:
            clock = 0  # one board, won outright: no clock
        following = board_item(
            item.event_id,
            match,
            board_no,
            carry,
            order,
            item.ruleset,
            item.commitment or "",
            clock,
            item.langs,
        )
        item.next_board = following.board
        tx.save(item)
        tx.save(following, condition=BoardStateItem.pk.does_not_exist())
        tx.save(deal_item(item.event_id, item.round, item.table, board_no, order))
        starts = list(match.rules.get("game_starts", [match.boards[0]]))
        if outcome.game is not None:
            starts.append(following.board)
        tx.update(
            match,
            actions=[
                MatchItem.boards.set([*match.boards, following.board]),
                MatchItem.games.set(games),
                MatchItem.rules.set(
                    {
                        **match.rules,
                        "game_starts": starts,
                        **({"decider": following.board} if decider else {}),
                    }
                ),
                MatchItem.clock_ends_at.set(clock),
            ],
        )


def _match_done(
    tx: TransactWrite,
    item: BoardStateItem,
    match: MatchItem,
    games: list[dict[str, Any]],
    result: dict[str, Any],
) -> None:
    """The board that ended the match saved with the match's result, and the round's count moved on."""
    tx.save(item)
    tx.update(
        match,
        actions=[MatchItem.status.set("done"), MatchItem.games.set(games), MatchItem.result.set(result)],
    )
    round_progress.count(tx, item.event_id, item.round, item.table)


def _game_start(match: MatchItem) -> str:
    """The first board of the game in play (best of three plays several games in one match)."""
    starts = match.rules.get("game_starts") or [match.boards[0]]
    return str(starts[-1])


def _salt(event_id: str, round_no: int) -> str:
    try:
        r = RoundItem.get(
            event_pk(event_id), round_sk(round_no), consistent_read=True, attributes_to_get=["salt"]
        )
    except DoesNotExist:
        raise RuntimeError(f"round {round_no} of {event_id} has no round item") from None
    return r.salt


def _save_game_ended(
    item: BoardStateItem, match: MatchItem, points: tuple[float, float], ended: dict[str, Any]
) -> None:
    """A board game's game has ended (RULES.md §6.5): the match's result once it is decided (a lot
    after ``max_games`` level), else its next game, the colours as the rules give them; with it, each
    player's choice the game keeps for their next one."""
    g = game(item.ruleset)
    salt = _salt(item.event_id, item.round)
    game_no = len(match.games) + 1
    first = first_mover(match, g, salt, game_no) or 0
    ended_by = str(ended.get("why") or "played")
    games = [*match.games, head_to_head.game_entry(points, first, ended_by, item.board)]
    rule = head_to_head.MatchOfGames(int(match.rules["max_games"]), bool(match.rules.get("draws")))
    if ended_by == "forfeit":
        # A player who did not appear (the referee's no-show) loses the match: its later games are
        # forfeits too, each with the colours the rules give it, until the match is decided.
        lost = list(games[-1]["mp"])  # side by side
        while not rule.decided(games):
            n = len(games) + 1
            games.append(
                {
                    "mp": lost,
                    "lp": list(lost),
                    "first": first_mover(match, g, salt, n) or 0,
                    "ended_by": ended_by,
                    "boards": [],
                }  # fmt: skip
            )
    kept = kept_items(item.event_id, item, ended)
    with transaction() as tx:
        for choice in kept:
            tx.save(choice)
        if rule.decided(games):
            _match_done(tx, item, match, games, rule.result(games, salt, match.number))
            return
        board_no = game_no + 1
        order = match_deal(salt, match.number, board_no, g, bool(match.rules.get("same_boards")))
        following = board_item(
            item.event_id,
            match,
            board_no,
            head_to_head_carry(
                item.event_id,
                match,
                g,
                salt,
                board_no,
                {k.sk.removeprefix(kept_sk("")): k.choice for k in kept},
            ),
            order,
            item.ruleset,
            item.commitment or "",
            0,
            item.langs,
            first_mover(match, g, salt, board_no),
        )
        item.next_board = following.board
        tx.save(item)
        tx.save(following, condition=BoardStateItem.pk.does_not_exist())
        tx.save(deal_item(item.event_id, item.round, item.table, board_no, order))
        tx.update(
            match,
            actions=[
                MatchItem.boards.set([*match.boards, following.board]),
                MatchItem.games.set(games),
                MatchItem.rules.set({**match.rules, "game_starts": [*match.boards, following.board]}),
            ],
        )

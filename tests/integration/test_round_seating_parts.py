"""A round's seating kept in parts when it passes DynamoDB's 400 KB item limit (5,000 pairs', 10,000
players' with join links), and each seated player's placement (service/storage/seating.py): the round
starts, reads back equal, re-seats (all or nothing, a racing change refused), and its players' own
devices find their seats by one small read (its boards scored from a seating in parts:
test_board_matchpoints.py; its deal killed and dealt again: test_batched_deal.py). The limit is lowered
here: the cup's few hundred bytes of seating take several parts."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest
from backend import SEEDED, Backend, DeviceBot, prepare, setup_moto_env
from deckhand.engines.contract import Rejected
from deckhand.service.boards import round_items
from deckhand.service.boards import store as board_store
from deckhand.service.duplicate import rounds
from deckhand.service.organiser import player_links
from deckhand.service.organiser.events import get_event
from deckhand.service.refereeing import reseat as reseat_module
from deckhand.service.storage import batches, keys, parts, seating
from deckhand.service.storage.models import PlacementItem, RoundItem
from test_board_matchpoints import calls_made

setup_moto_env()

Rows = list[dict[str, Any]]


@pytest.fixture
def in_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any seating over 100 bytes kept in parts of 100 characters; nothing remembered from another test."""
    monkeypatch.setattr(parts, "WHOLE_BYTES", 100)
    monkeypatch.setattr(parts, "PART_CHARS", 100)
    monkeypatch.setattr(seating, "_JOINED", OrderedDict())


def head() -> RoundItem:
    return RoundItem.get(keys.event_pk("cup"), keys.round_sk(1), consistent_read=True)


def read_back() -> Rows:
    """Round 1's seating as a reader gets it from the table (nothing remembered)."""
    seating._JOINED.clear()
    return seating.round_seating(head())


def seats_of(rows: Rows) -> dict[str, tuple[str, int]]:
    """player → (table, seat) by the seating."""
    return {p: (row["table"], s) for row in rows for s, p in enumerate(row["seats"]) if p}


def placed() -> dict[str, tuple[str, int]]:
    """player → (table, seat) by round 1's placements."""
    prefix = keys.placement_sk(1, "")
    found = PlacementItem.query(
        keys.event_pk("cup"), PlacementItem.sk.startswith(prefix), consistent_read=True
    )
    return {p.sk.removeprefix(prefix): (p.table, p.seat) for p in found}


def boards_now() -> dict[tuple[str, str], list[str]]:
    return {(t, b): list(board_store.load("cup", 1, t, b).players) for t in "AB" for b in "12"}


def reads(made: list[tuple[str, dict[str, Any], bool]]) -> list[tuple[str, str]]:
    """The items read among DynamoDB calls made: (operation, sort key) — a GetItem's, or each of a
    BatchGetItem's keys."""
    out: list[tuple[str, str]] = []
    for operation, params, _ in made:
        if operation == "GetItem":
            out.append((operation, params["Key"]["sk"]["S"]))
        elif operation == "BatchGetItem":
            out.extend((operation, k["sk"]["S"]) for r in params["RequestItems"].values() for k in r["Keys"])
    return out


def player_devices(b: Backend) -> dict[str, DeviceBot]:
    """player → their own device (a join link each): the round's seats' views go to them."""
    return {link.player: DeviceBot(b, link.thing) for link in player_links.issue_links("cup")}


def test_a_round_seated_in_parts_starts_reads_back_equal_and_its_players_devices_get_their_seats(
    backend: Backend, in_parts: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    prepare(backend, **SEEDED)
    devices = player_devices(backend)
    stored: list[Rows] = []
    save = round_items.save_seating
    monkeypatch.setattr(
        round_items, "save_seating", lambda e, sk, rows: stored.append(rows) or save(e, sk, rows)
    )
    rounds.request_next_round(backend.rt, "cup")
    r = head()
    assert r.seating == [] and (r.seating_parts or 0) > 1, "the round item holds no seating of its own"
    assert read_back() == stored[0] and len(stored[0]) == 2
    assert placed() == seats_of(stored[0]) and len(placed()) == 8
    for player, bot in devices.items():  # the first boards' views went to each player's own device
        got = {v["s"] for v in backend.publisher.to(bot.thing) if v["t"] == "view" and v["r"] == 1}
        assert got == {seats_of(stored[0])[player][1]}, player


def test_a_players_device_finds_its_seat_by_its_placement_and_without_one_in_the_seating(
    backend: Backend, in_parts: None
) -> None:
    prepare(backend, **SEEDED)
    devices = list(player_devices(backend).values())
    rounds.request_next_round(backend.rt, "cup")
    with calls_made() as calls:
        outcome = next(o for o in (bot.act() for bot in devices) if o is not None)
    assert outcome["status"] == "accepted", outcome
    made = reads(calls)
    round_reads = [sk for _, sk in made if sk.startswith(keys.round_sk(1))]
    assert len(round_reads) == 1 and round_reads[0].startswith(keys.placement_sk(1, "")), made
    # A round stored before placements (or a deal still writing them): the player is found in the seating.
    for item in PlacementItem.query(
        keys.event_pk("cup"), PlacementItem.sk.startswith(keys.placement_sk(1, ""))
    ):
        item.delete()
    seating._JOINED.clear()
    with calls_made() as calls:
        outcome = next(o for o in (bot.act() for bot in devices) if o is not None)
    assert outcome["status"] == "accepted", outcome
    made = reads(calls)
    assert ("GetItem", keys.round_sk(1)) in made, made
    assert any(op == "BatchGetItem" and sk.startswith(f"{keys.round_sk(1)}#") for op, sk in made), made


def test_a_reseat_of_a_round_in_parts_changes_its_seating_and_placements_at_once(
    backend: Backend, in_parts: None
) -> None:
    prepare(backend, **SEEDED)
    rounds.request_next_round(backend.rt, "cup")
    assert placed() == {}, "the handsets' players need no placement"
    before, version = {row["table"]: row["seats"] for row in read_back()}, head().seating_digest
    p, q = before["A"][0], before["B"][1]
    record = reseat_module.reseat(get_event("cup"), {"player": p, "table": "B", "seat": 1})
    assert record["displaced"] == q and record["boards"] == ["A/2", "B/2"]
    r = head()
    assert r.seating == [] and (r.seating_parts or 0) > 1 and r.seating_digest != version
    after = read_back()
    assert seats_of(after)[p] == ("B", 1) and seats_of(after)[q] == ("A", 0)
    assert placed() == {p: ("B", 1), q: ("A", 0)}, "the moved players', written with the move"
    assert board_store.load("cup", 1, "B", "2").players[1] == p
    assert board_store.load("cup", 1, "B", "1").players[1] == q  # in play: unchanged


def test_a_reseat_racing_a_change_of_a_seating_in_parts_is_refused_and_tried_again(
    backend: Backend, in_parts: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    prepare(backend, **SEEDED)
    player_devices(backend)
    rounds.request_next_round(backend.rt, "cup")
    before = {row["table"]: row["seats"] for row in read_back()}
    p, q, r, s = before["A"][0], before["B"][1], before["A"][2], before["A"][3]
    real = reseat_module.transaction
    raced: list[bool] = []

    def racing() -> Any:
        if not raced:  # another re-seat (r and s swap) lands between this one's reads and its write
            raced.append(True)
            reseat_module.reseat(get_event("cup"), {"player": r, "table": "A", "seat": 3})
        return real()

    monkeypatch.setattr(reseat_module, "transaction", racing)
    reseat_module.reseat(get_event("cup"), {"player": p, "table": "B", "seat": 1})
    want = {"A": [q, before["A"][1], s, r], "B": [before["B"][0], p, *before["B"][2:]]}
    assert raced and {row["table"]: row["seats"] for row in read_back()} == want, "both kept"
    assert placed() == seats_of(read_back())

    def changed_meanwhile() -> Any:
        """Before every try, another change of the seating (a new version) lands first."""
        now = head()
        rows = seating.round_seating(now)
        rows[0] = dict(rows[0], dealer=rows[0]["dealer"] + "+")
        now.update(actions=seating.seating_set(seating.save_seating("cup", now.sk, rows)))
        return real()

    monkeypatch.setattr(reseat_module, "transaction", changed_meanwhile)
    monkeypatch.setattr(reseat_module, "ATTEMPTS", 2)
    placements, boards, seated = placed(), boards_now(), seats_of(read_back())
    with pytest.raises(Rejected) as refused:
        reseat_module.reseat(get_event("cup"), {"player": q, "table": "B", "seat": 0})
    assert refused.value.code == "reseat_busy"
    assert placed() == placements and boards_now() == boards and seats_of(read_back()) == seated


def test_placements_a_redriven_deal_wrote_over_a_racing_reseat_are_written_again(
    backend: Backend, in_parts: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deal dealt again reads the seating, a re-seat lands (with its moved players' placements), then
    the deal writes the placements it read: it finds the seating's version changed and writes them again."""
    prepare(backend, **SEEDED)
    player_devices(backend)
    rounds.request_next_round(backend.rt, "cup")
    before = {row["table"]: row["seats"] for row in read_back()}
    put_all = batches.put_all
    raced: list[bool] = []

    def reseat_first(items: Any, **kw: Any) -> None:
        if items and isinstance(items[0], PlacementItem) and not raced:
            raced.append(True)
            reseat_module.reseat(get_event("cup"), {"player": before["A"][0], "table": "B", "seat": 1})
        put_all(items, **kw)

    monkeypatch.setattr(batches, "put_all", reseat_first)
    rounds.retry_deal(backend.rt, "cup", 1)
    assert raced and seats_of(read_back())[before["A"][0]] == ("B", 1)
    assert placed() == seats_of(read_back())

"""A round's deal in batched writes (storage/batches.py): a deal killed at any batch and dealt again
ends with exactly the items of a deal never killed; items DynamoDB leaves unprocessed are sent again;
a board already under play is never written over by a deal dealt again, nor by a writer racing it."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from backend import SEEDED, THINGS, Backend, Crash, create_table, prepare, setup_moto_env
from deckhand.engines.registry import RULESETS, game
from deckhand.engines.spec import Competition
from deckhand.service.duplicate import rounds
from deckhand.service.organiser import events, pairs
from deckhand.service.storage import batches, parts
from deckhand.service.storage.keys import STATE, board_pk, deal_sk, event_pk, link_sk, placement_sk, round_sk
from deckhand.service.storage.models import BoardStateItem, DealItem, LinkItem, shared_connection
from moto import mock_aws
from pynamodb.transactions import TransactWrite

setup_moto_env()


def table_items() -> list[dict[str, Any]]:
    """Every item of the table, raw, in key order."""
    client = shared_connection().client
    items = client.scan(TableName=BoardStateItem.Meta.table_name)["Items"]
    return sorted(items, key=lambda i: (i["pk"]["S"], i["sk"]["S"]))


def differences(items: list[dict[str, Any]], expected: list[dict[str, Any]]) -> dict[str, Any]:
    """(pk, sk) → the attributes that differ (or the item, where only one side has it)."""
    mine = {(i["pk"]["S"], i["sk"]["S"]): i for i in items}
    theirs = {(i["pk"]["S"], i["sk"]["S"]): i for i in expected}
    out: dict[str, Any] = {}
    for key in sorted(mine.keys() | theirs.keys()):
        a, b = mine.get(key), theirs.get(key)
        if a is None or b is None:
            out["#".join(key)] = "missing" if a is None else "extra"
        elif a != b:
            out["#".join(key)] = {
                k: (a.get(k), b.get(k)) for k in a.keys() | b.keys() if a.get(k) != b.get(k)
            }
    return out


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two items a call: the cup's four boards and two deals take several batches each."""
    for limit in ("BATCH_WRITE_LIMIT", "BATCH_GET_LIMIT", "TRANSACTION_LIMIT"):
        monkeypatch.setattr(batches, limit, 2)
    monkeypatch.setattr(batches, "pause", lambda attempt: None)


class Batches:
    """Counts the deal's batched calls (batch reads and writes, transactions) and kills the deal at one."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        self.kill_at = 0  # the call that dies (1 = the first); 0: none
        self.after = False  # the call is made, and the invocation dies before it hears back
        send, commit = batches._send, TransactWrite._commit

        def counted_send(operation: str, **request: Any) -> Any:
            return self._call(lambda: send(operation, **request))

        def counted_commit(tx: TransactWrite) -> Any:
            return self._call(lambda: commit(tx))

        monkeypatch.setattr(batches, "_send", counted_send)
        monkeypatch.setattr(TransactWrite, "_commit", counted_commit)

    def _call(self, call: Any) -> Any:
        self.calls += 1
        if self.calls != self.kill_at:
            return call()
        if self.after:
            call()
        raise Crash(f"the deal dies at batch {self.calls}")


def cup(b: Backend) -> str:
    prepare(b, **SEEDED)
    return "cup"


def league(b: Backend) -> str:
    """A Swiss of five pairs of the first rule set that runs matches: two matches and a bye."""
    ruleset = next(r for r in RULESETS if game(r).competition is Competition.MATCH)
    events.create_event(
        {
            "event_id": "league", "name": "Pairs", "ruleset": ruleset, "grade": "unrated", "rounds": 2,
            "start": date(2026, 12, 14), "seed": "league", "deal_seed": "league", "match": {"format": "swiss"},
            "options": {"end_mode": "boards", "boards": 2},
        }
    )  # fmt: skip
    pairs.register_pairs(
        "league", [{"id": p, "players": [{"id": f"{p}1"}, {"id": f"{p}2"}]} for p in "NESWC"]
    )
    things = [f"hs-{t}-{s}" for t in "AB" for s in range(4)]
    events.register_tables("league", [{"id": "A", "seats": things[:4]}, {"id": "B", "seats": things[4:]}])
    return "league"


def dealt(
    b: Backend, counter: Batches, event: Any, kill_at: int = 0, after: bool = False
) -> list[dict[str, Any]]:
    """``event``'s round 1 dealt (killed at batch ``kill_at`` and dealt again): every item of the table."""
    event_id = event(b)
    counter.calls, counter.kill_at, counter.after = 0, kill_at, after
    if kill_at:
        with pytest.raises(Crash):
            rounds.request_next_round(b.rt, event_id)
        counter.kill_at = 0
        rounds.retry_deal(b.rt, event_id, 1)
    else:
        rounds.request_next_round(b.rt, event_id)
    return table_items()


def wipe() -> None:
    """An empty table again (cheaper than a new one)."""
    client, table = shared_connection().client, BoardStateItem.Meta.table_name
    deletes = [{"DeleteRequest": {"Key": {"pk": i["pk"], "sk": i["sk"]}}} for i in table_items()]
    for start in range(0, len(deletes), 25):
        client.batch_write_item(RequestItems={table: deletes[start : start + 25]})
    events._DEVICE_CACHE.clear()


# The cup: the round, 1 of deals, 2 reads and 2 writes of boards, 1 of starts; the league: the round,
# 1 read and 1 write of matches, 1 of deals, 1 read and 1 write of boards, the bye's read and write, 1 of starts.
@pytest.mark.parametrize(("event", "batches_made"), [(cup, 7), (league, 9)], ids=["duplicate", "matches"])
def test_a_deal_killed_at_any_batch_and_dealt_again_ends_as_one_never_killed(
    small_batches, monkeypatch, event, batches_made
):
    counter = Batches(monkeypatch)
    # Killed before each batch is sent, and after the last is written (before it is answered).
    kills = [*((k, False) for k in range(1, batches_made + 1)), (batches_made, True)]
    killed_at(counter, event, batches_made, kills)


def linked_cup(b: Backend) -> str:
    """The cup, its players on their own devices (a join link each, its id fixed): the round's seating
    names them, and each gets a placement."""
    prepare(b, **SEEDED)
    for n in range(1, 9):
        LinkItem(event_pk("cup"), link_sk(f"P{n}"), link_id=f"link{n}", digest="0" * 64, created_at=0).save()
    return "cup"


def test_a_deal_seated_in_parts_killed_at_any_batch_to_its_placements_and_dealt_again_ends_as_one_never_killed(
    small_batches, monkeypatch
):
    """The linked cup's seating in parts (3 parts of 100 characters: 2 batches), written before the
    round, its eight players' placements after it (4 batches): killed between the parts, after the
    round's transaction is made (unanswered) and between the placements; what follows is the deal above."""
    monkeypatch.setattr(parts, "WHOLE_BYTES", 100)
    monkeypatch.setattr(parts, "PART_CHARS", 100)
    counter = Batches(monkeypatch)
    kills = [(2, False), (3, True), (5, False)]
    whole = killed_at(counter, linked_cup, 13, kills)
    [head] = [i for i in whole if i["sk"]["S"] == round_sk(1)]
    assert head["seating"] == {"S": "[]"} and int(head["seating_parts"]["N"]) == 3
    assert len([i for i in whole if i["sk"]["S"].startswith(placement_sk(1, ""))]) == 8


def killed_at(
    counter: Batches, event: Any, batches_made: int, kills: list[tuple[int, bool]]
) -> list[dict[str, Any]]:
    """``event`` dealt in ``batches_made`` batches, then killed at each of ``kills`` (the batch; made,
    unanswered) and dealt again: each time every item of the table as when never killed (returned)."""
    with mock_aws():
        create_table()
        whole = dealt(Backend(), counter, event)
        assert counter.calls == batches_made
        for kill_at, after in kills:
            wipe()
            items = dealt(Backend(), counter, event, kill_at, after)
            assert items == whole, (kill_at, after, differences(items, whole))
    return whole


def test_a_board_under_play_is_left_as_it_is_by_a_deal_dealt_again(backend):
    bots = prepare(backend, **SEEDED)
    rounds.request_next_round(backend.rt, "cup")
    for bot in bots[:4]:  # table A's seats act once each on its first board
        bot.act()
    keys = [(board_pk("cup", 1, t, b), STATE) for t in "AB" for b in "12"]
    before = {k: BoardStateItem.get(*k).serialize() for k in keys}
    assert before[keys[0]]["version"] != {"N": "2"}  # played on since it began
    rounds.retry_deal(backend.rt, "cup", 1)
    assert {k: BoardStateItem.get(*k).serialize() for k in keys} == before


def deal(n: int) -> DealItem:
    return DealItem(event_pk("e"), deal_sk(1, "1", str(n)), order=[n, n + 1])


def test_items_left_unprocessed_are_sent_again_with_growing_pauses(backend, monkeypatch):
    pauses: list[int] = []
    monkeypatch.setattr(batches, "pause", pauses.append)
    table = DealItem.Meta.table_name
    leave = [2, 1]  # the first answers leave the last items unprocessed (written on a later call)

    def throttled(operation: str, **request: Any) -> Any:
        asked = request["RequestItems"][table]
        if operation == "batch_get_item":  # one key an answer
            answer = batches._send(operation, RequestItems={table: {**asked, "Keys": asked["Keys"][:1]}})
            rest = asked["Keys"][1:]
            return {**answer, "UnprocessedKeys": {table: {**asked, "Keys": rest}} if rest else {}}
        keep = leave.pop(0) if leave else 0
        answer = batches._send(operation, RequestItems={table: asked[: len(asked) - keep]})
        return {**answer, "UnprocessedItems": {table: asked[len(asked) - keep :]} if keep else {}}

    items = [deal(n) for n in range(5)]
    batches.put_all(items, send=throttled)
    assert pauses == [0, 1]  # two answers left some out: a pause before each resend, longer each time
    found = batches.get_many(DealItem, [batches.key_of(i) for i in items], send=throttled)
    assert {k: v.order for k, v in found.items()} == {batches.key_of(i): i.order for i in items}
    assert pauses == [0, 1, 0, 1, 2, 3]  # the reads: one key an answer, the rest asked again


def test_a_batch_left_unprocessed_for_good_is_an_error_for_a_redrive(backend, monkeypatch):
    monkeypatch.setattr(batches, "pause", lambda attempt: None)
    table = DealItem.Meta.table_name

    def throttled_for_good(operation: str, **request: Any) -> Any:
        return {"UnprocessedItems": {table: request["RequestItems"][table]}}

    with pytest.raises(batches.BatchIncomplete):
        batches.put_all([deal(1)], send=throttled_for_good)


def test_an_item_stored_by_a_racing_writer_is_kept_and_the_rest_written(backend, monkeypatch):
    """Between the read that finds the keys free and the conditional writes, another writer stores
    one: its transaction is refused, that item stays as the other wrote it, the others are written."""

    def board(table: str, status: str) -> BoardStateItem:
        return BoardStateItem(
            board_pk("e", 1, table, "1"), STATE, event_id="e", round=1, group="1", table=table, board="1",
            position=0, ruleset="bigtwo-2017", players=[], devices=[], dealer="", next_board="",
            previous_board="", status=status, state="", log=[],
        )  # fmt: skip

    send = batches._send
    raced: list[str] = []

    def racing(operation: str, **request: Any) -> Any:
        answer = send(operation, **request)
        if operation == "batch_get_item" and not raced:
            raced.append("B")
            board("B", "playing").save()  # the other writer's board, under play
        return answer

    monkeypatch.setattr(batches, "_send", racing)
    stored = batches.put_absent([board(t, "waiting") for t in "ABC"])
    assert {k[0]: v.status for k, v in stored.items()} == {
        board_pk("e", 1, t, "1"): s for t, s in zip("ABC", ("waiting", "playing", "waiting"), strict=True)
    }
    assert [BoardStateItem.get(board_pk("e", 1, t, "1"), STATE).status for t in "ABC"] == [
        "waiting",
        "playing",
        "waiting",
    ]


def test_the_seated_devices_are_read_in_one_batch_not_one_by_one(backend, monkeypatch):
    """Each board carries its devices' languages: a cold deal read every device alone (10,000 reads at
    2,500 tables of handsets); now one BatchGetItem of 100 devices a call."""
    from deckhand.service.storage.models import DeviceItem

    prepare(backend, **SEEDED)
    events.remember_lang(THINGS[5], events.get_device(THINGS[5]), "zh-CN")  # type: ignore[arg-type]
    events._DEVICE_CACHE.clear()  # a cold Lambda
    read_alone: list[str] = []
    get = DeviceItem.get.__func__  # type: ignore[attr-defined]

    def counted(cls: type[DeviceItem], pk: str, *args: Any, **kwargs: Any) -> DeviceItem:
        read_alone.append(pk)
        return get(cls, pk, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(DeviceItem, "get", classmethod(counted))
    rounds.request_next_round(backend.rt, "cup")
    assert read_alone == []
    table_b = next(e for e in rounds.get_round("cup", 1).seating if THINGS[5] in e["devices"])
    assert BoardStateItem.get(board_pk("cup", 1, table_b["table"], "2"), STATE).langs == {
        str(table_b["devices"].index(THINGS[5])): "zh-CN"
    }

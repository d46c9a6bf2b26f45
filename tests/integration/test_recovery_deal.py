"""A deal that fails: one that cannot be made puts the event back, with the reason, for the organiser
to fix and start the round again; one whose invocation failed is dealt again by the organiser's route
(``deckhand event retry-deal``). Either way the event then ends as a run without the fault."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest
from backend import (
    CUP_EVENT,
    SEEDED,
    THINGS,
    Backend,
    Crash,
    DeviceBot,
    event_outcome,
    run_round,
    setup_moto_env,
)
from deckhand.service import api
from deckhand.service.duplicate import rounds
from deckhand.service.organiser import events
from deckhand.service.storage import batches
from deckhand_local.cli import events_cli
from deckhand_local.cli.main import main
from deckhand_local.venue.api_client import ApiError
from handlers import FakeContext, api_event

setup_moto_env()

TABLE_A = {"id": "A", "seats": THINGS[:4], "dealer": "dealer-A"}
TABLE_B = {"id": "B", "seats": THINGS[4:]}


ORGANISER = "arn:aws:iam::123456789012:user/organiser"  # the sample events' caller: the event's owner


def register(b: Backend, tables: list[dict[str, Any]]) -> list[DeviceBot]:
    events.create_event({**CUP_EVENT, **SEEDED}, owner=ORGANISER)
    events.register_players("cup", [{"id": f"P{i}"} for i in range(1, 9)])
    events.register_tables("cup", tables)
    return [DeviceBot(b, t) for t in THINGS]


def finish_event(b: Backend, bots: list[DeviceBot]) -> None:
    """Round 1 is dealt: play it, and round 2."""
    run_round(b, bots)
    assert rounds.request_next_round(b.rt, "cup") == 2
    run_round(b, bots)


def test_too_few_tables_put_the_event_back_with_the_reason(reference, backend):
    bots = register(backend, [TABLE_A])
    with pytest.raises(rounds.DealFailed, match="needs 2 tables; 1 are registered"):
        rounds.request_next_round(backend.rt, "cup")
    event = events.get_event("cup")
    assert (event.status, event.current_round) == ("registering", 0)
    assert event.deal_error == "round 1 was not dealt: round 1 needs 2 tables; 1 are registered"
    with pytest.raises(events.NotFound):
        rounds.get_round("cup", 1)  # nothing of the round was written
    # The organiser registers the missing table and starts the round again.
    events.register_tables("cup", [TABLE_B])
    assert rounds.request_next_round(backend.rt, "cup") == 1
    assert events.get_event("cup").deal_error is None
    finish_event(backend, bots)
    assert event_outcome("cup") == reference[0]


def test_a_deal_that_crashed_is_dealt_again_by_the_organiser(reference, backend, monkeypatch):
    bots = register(backend, [TABLE_A, TABLE_B])
    send = batches._send
    calls: list[str] = []

    def failing(operation: str, **request: Any) -> Any:
        calls.append(operation)
        if operation == "batch_get_item":  # the deals written, the round item already there
            raise Crash("the deal invocation dies")
        return send(operation, **request)

    monkeypatch.setattr(batches, "_send", failing)
    with pytest.raises(Crash):
        rounds.request_next_round(backend.rt, "cup")
    assert calls == ["batch_write_item", "batch_get_item"]
    monkeypatch.setattr(batches, "_send", send)
    assert events.get_event("cup").status == "dealing"
    with pytest.raises(events.Conflict, match="while the event is dealing"):
        rounds.request_next_round(backend.rt, "cup")
    with pytest.raises(events.Conflict, match="round 2 is not being dealt"):
        rounds.retry_deal(backend.rt, "cup", 2)
    rounds.retry_deal(backend.rt, "cup", 1)
    assert events.get_event("cup").status == "playing"
    finish_event(backend, bots)
    assert event_outcome("cup") == reference[0]
    assert [p for t, p in backend.publisher.sent if t.startswith("dh/events/")] == reference[1]


class AsyncBackend(Backend):
    """Deals run after the API has answered, as Lambda's asynchronous invocations (and the venue's)."""

    def __init__(self) -> None:
        super().__init__()
        self.pending: list[tuple[str, dict[str, Any]]] = []
        self.lose_next = False  # the next deal invocation is lost (failed for good)

    def invoke(self, name: str, payload: dict[str, Any]) -> None:
        if name == "deal":
            if not self.lose_next:
                self.pending.append((name, payload))
            self.lose_next = False
        else:
            super().invoke(name, payload)

    def run_pending(self) -> None:
        while self.pending:
            # The deal handler returns on DealFailed: the reason is on the event.
            with contextlib.suppress(rounds.DealFailed):
                super().invoke(*self.pending.pop(0))


class InProcessApi:
    """The CLI's API client, answered by the API's routes in this process."""

    def __init__(self, b: AsyncBackend) -> None:
        self.app = api.build_app(lambda: b.rt)
        self.backend = b

    def __call__(self, *args: Any, **kwargs: Any) -> InProcessApi:
        return self

    def request(self, method: str, path: str, body: Any = None, *, raw: bool = False) -> Any:
        event = api_event("api-start-round.json", path=path, method=method, body=body)
        response = self.app.resolve(event, FakeContext())
        self.backend.run_pending()
        answer = json.loads(response["body"]) if response["body"] else None
        if response["statusCode"] >= 400:
            raise ApiError(response["statusCode"], answer)
        return answer


def deckhand(capsys: Any, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code = main(["event", "--api", "http://in-process", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_organiser_sees_why_a_deal_failed_and_deals_again_from_the_command_line(capsys, monkeypatch):
    from backend import create_table
    from moto import mock_aws

    with mock_aws():
        create_table()
        b = AsyncBackend()
        register(b, [TABLE_A])
        client = InProcessApi(b)
        monkeypatch.setattr(events_cli, "ApiClient", client)
        monkeypatch.setattr(events_cli.time, "sleep", lambda _: None)

        code, _, err = deckhand(capsys, monkeypatch, "start-round", "cup")
        assert code == 2 and "round 1 needs 2 tables; 1 are registered" in err
        event = client.request("GET", "/events/cup")
        assert event["status"] == "registering" and "1 are registered" in event["deal_error"]
        code, _, err = deckhand(capsys, monkeypatch, "retry-deal", "cup", "--round", "1")
        assert code == 2 and "HTTP 409: round 1 is not being dealt" in err

        # A deal stuck in dealing (its invocation lost): retry-deal deals it.
        events.register_tables("cup", [TABLE_B])
        b.lose_next = True
        assert client.request("POST", "/events/cup/rounds") == {"round": 1, "status": "dealing"}
        assert client.request("GET", "/events/cup")["status"] == "dealing"
        code, out, _ = deckhand(capsys, monkeypatch, "retry-deal", "cup")
        answer = json.loads(out)
        assert code == 0 and answer["round"] == 1 and answer["status"] == "playing"
        assert answer["commitment"] == rounds.get_round("cup", 1).commitment
        assert "deal_error" not in client.request("GET", "/events/cup")


def test_a_deal_killed_as_it_stores_the_round_stores_it_whole_on_its_retry(reference, backend, monkeypatch):
    """The round and its board counter are one write: a deal killed at that write leaves neither, and
    its retry stores both (a venue killed between the two, when they were two, left a round without
    its counter; its boards then counted into a counter with no total, and the round never ended)."""
    from deckhand.service.storage.keys import round_sk
    from pynamodb.transactions import TransactWrite

    bots = register(backend, [TABLE_A, TABLE_B])
    commit = TransactWrite._commit
    killed: list[bool] = []

    def dies_once(self: TransactWrite) -> Any:
        puts = [op.get("Item", {}).get("sk", {}).get("S") for op in self._put_items]
        if not killed and round_sk(1) in puts:
            killed.append(True)
            raise Crash("the deal invocation dies as it stores the round")
        return commit(self)

    monkeypatch.setattr(TransactWrite, "_commit", dies_once)
    with pytest.raises(Crash):
        rounds.request_next_round(backend.rt, "cup")
    with pytest.raises(events.NotFound):
        rounds.get_round("cup", 1)
    assert rounds.get_progress("cup", 1) == (0, 0)  # neither was written
    rounds.retry_deal(backend.rt, "cup", 1)
    assert rounds.get_progress("cup", 1) == (0, 4)
    finish_event(backend, bots)
    assert event_outcome("cup") == reference[0]


def test_a_round_stored_without_its_counter_still_ends(reference, backend):
    """A round a venue stored before the two writes were one, and died between them: its boards' counts
    went into a counter without a total. The round still ends, with the same results."""
    from deckhand.service.storage.keys import event_pk, progress_sk
    from deckhand.service.storage.models import ProgressItem

    bots = register(backend, [TABLE_A, TABLE_B])
    assert rounds.request_next_round(backend.rt, "cup") == 1
    ProgressItem.get(event_pk("cup"), progress_sk(1)).delete()
    run_round(backend, bots)
    assert rounds.get_progress("cup", 1) == (4, 4)
    assert rounds.get_round("cup", 1).status == "done"
    assert rounds.request_next_round(backend.rt, "cup") == 2
    run_round(backend, bots)
    assert event_outcome("cup") == reference[0]

"""Fuzzing (hypothesis) of device messages and API bodies: no unhandled exception, and input that is
refused changes nothing. ``make test`` runs a few hundred cases; ``bench/fuzz_bench.py`` runs ≥10,000
each (``FUZZ_EXAMPLES``) and prints the counts."""

import json
import os
from collections import Counter

import boto3
from backend import THINGS, Backend, create_table, prepare, setup_moto_env
from deckhand.service.duplicate import rounds
from deckhand.service.infra import lambda_runtime
from deckhand.service.infra.messaging import RecordingPublisher
from deckhand.service.infra.runtime import Runtime
from deckhand.service.storage.models import _Base
from handlers import FakeContext, api_event, load_handler
from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from moto import mock_aws

setup_moto_env()

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", examples(200)))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TALLY: dict[str, Counter] = {"device": Counter(), "api": Counter()}
_CLIENT: dict[str, object] = {}  # one client per mock: making one costs more than the scan

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 200), st.floats(allow_nan=False), st.text(max_size=12)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
tokens = st.one_of(
    st.sampled_from(["D3", "C3", "H3", "S3", "D4", "SA", "S2", "BJ", "RJ", "d3", "10H", "X9", ""]),
    json_scalars,
)


def mostly(valid, other, tenths=8):
    """``valid`` in ``tenths`` of ten cases, else ``other`` (``one_of`` would weigh their branches)."""
    return st.integers(0, 9).flatmap(lambda n: valid if n < tenths else other)


# Each field is mostly valid, so that most cases get past the message checks and reach the board
# and the engine (arbitrary text is almost never a message id).
kinds = st.sampled_from(["hello", "act", "act", "act", "dealt", "x", "play"])  # play: a v1 type, now unknown
actions = st.fixed_dictionaries(
    {"k": mostly(st.sampled_from(["show", "double", "bid", "play", "pass", "x"]), json_scalars)},
    optional={
        "c": mostly(st.lists(tokens, min_size=1, max_size=5), json_values),
        "v": mostly(st.integers(0, 3), st.one_of(st.integers(-1, 4), st.booleans(), json_scalars)),
        "d": json_values,
    },
)
message_ids = st.from_regex(r"[A-Za-z0-9_.:-]{1,64}", fullmatch=True)
structured = st.fixed_dictionaries(
    {
        "t": mostly(kinds, json_scalars),
        "msg": mostly(message_ids, st.one_of(st.text(min_size=1, max_size=70), json_scalars)),
        "board": mostly(
            st.sampled_from(["1", "2"]), st.one_of(st.sampled_from(["9", "1.0", "../1"]), json_scalars)
        ),
    },
    optional={
        "cards": mostly(st.lists(tokens, min_size=1, max_size=5), json_values),
        "a": mostly(actions, json_values),
        "r": mostly(st.just(1), st.one_of(st.integers(0, 3), json_scalars)),
    },
)
# Mostly well-formed-looking messages from assigned devices (8 in 10), so cases get past the first checks.
device_messages = mostly(structured, json_values)
assigned = st.sampled_from([*THINGS, "dealer-A"])
odd_things = st.one_of(st.sampled_from(["nobody", "bad thing", ""]), json_scalars)
things = mostly(assigned, odd_things)


def table_snapshot():
    """Every item of the table, raw: a refused input must leave all of them as they were."""
    client = _client()
    items = client.scan(TableName=_Base.Meta.table_name, ConsistentRead=True)["Items"]
    return sorted(json.dumps(i, sort_keys=True) for i in items)


def restore(snapshot):
    """Put the table back as ``snapshot`` holds it: what an accepted case added is deleted, what it
    changed is written back. Keeps the table (and each case's scan) the same size however many cases
    run; without it the 10,000-case run grew the table and slowed down case after case."""
    client, table = _client(), _Base.Meta.table_name
    wanted = {_key(item): item for item in map(json.loads, snapshot)}
    current = {_key(item): item for item in client.scan(TableName=table, ConsistentRead=True)["Items"]}
    for key, item in current.items():
        if key not in wanted:
            client.delete_item(TableName=table, Key={"pk": item["pk"], "sk": item["sk"]})
    for key, item in wanted.items():
        if json.dumps(current.get(key), sort_keys=True) != json.dumps(item, sort_keys=True):
            client.put_item(TableName=table, Item=item)


def _key(item):
    return item["pk"]["S"], item["sk"]["S"]


def _client():
    if "dynamodb" not in _CLIENT:
        _CLIENT["dynamodb"] = boto3.client("dynamodb", region_name="us-east-1")
    return _CLIENT["dynamodb"]


def device_snapshot():
    """What a device message can write — the round's boards, the round, the event — raw, and the
    number of items (a write anywhere else would add one): a full scan per case would be 3× slower."""
    client = _client()
    table = _Base.Meta.table_name
    keys = [{"pk": {"S": f"BOARD#cup#001#{t}#{b}"}, "sk": {"S": "STATE"}} for t in "AB" for b in "12"]
    keys += [
        {"pk": {"S": "EVENT#cup"}, "sk": {"S": "META"}},
        {"pk": {"S": "EVENT#cup"}, "sk": {"S": "ROUND#001"}},
    ]
    got = client.batch_get_item(RequestItems={table: {"Keys": keys, "ConsistentRead": True}})["Responses"][
        table
    ]
    count = client.scan(TableName=table, Select="COUNT")["Count"]
    return count, sorted(json.dumps(i, sort_keys=True) for i in got)


def test_fuzzed_device_messages_never_crash_and_refused_ones_change_nothing():
    with mock_aws():
        _CLIENT.clear()
        create_table()
        b = Backend()
        prepare(b)
        rounds.request_next_round(b.rt, "cup")

        assert len(device_snapshot()[1]) == 6  # the keys above are the real ones

        @FUZZ
        @given(things, device_messages)
        def check(thing, payload):
            before = device_snapshot()
            outcome = b.send(thing, payload)  # through JSON, as from the broker; must not raise
            assert outcome["status"] in ("accepted", "duplicate", "rejected"), outcome
            TALLY["device"][outcome.get("code") or outcome["status"]] += 1
            if outcome.get("code") == "deal_mismatch":
                # Not a refusal: the dealing table's report is taken, and a wrong deal stops the
                # board by design (docs/protocol.md). Only that board changed; it is put back so
                # that later cases still reach a board in play.
                count, items = device_snapshot()
                changed = [json.loads(i) for i in items if i not in before[1]]
                assert count == before[0] and len(changed) == 1, changed
                assert changed[0]["status"]["S"] == "stopped" and outcome["why"]
                for item in map(json.loads, before[1]):
                    _client().put_item(TableName=_Base.Meta.table_name, Item=item)
            elif outcome["status"] == "rejected":
                assert outcome["why"] and device_snapshot() == before

        check()
    assert TALLY["device"]["malformed"] > 0
    engine = set(TALLY["device"]) - {"malformed", "unknown_device", "accepted", "duplicate"}
    assert engine, TALLY["device"]  # cases get past the message checks to the board and the engine
    print("device messages:", dict(TALLY["device"]))


ROUTES = [
    ("api-create-event.json", None),
    ("api-register-players.json", None),
    ("api-register-tables.json", None),
    ("api-start-round.json", None),
    ("api-referee-warning.json", None),
]


def mutated(valid):
    """A valid body with one field replaced, removed or added — or anything at all."""
    anything = st.one_of(json_values, st.text(max_size=30))
    if not isinstance(valid, dict):
        return anything
    field_change = st.tuples(
        st.sampled_from([*sorted(valid), "extra"]), st.one_of(st.just(...), json_values)
    ).map(lambda kv: {k: v for k, v in {**valid, kv[0]: kv[1]}.items() if v is not ...})
    return st.one_of(field_change, anything)


def test_fuzzed_api_bodies_get_a_client_error_never_a_crash_and_write_nothing():
    with mock_aws():
        _CLIENT.clear()
        create_table()
        api = load_handler("api")
        publisher = RecordingPublisher()
        lambda_runtime.set_runtime(Runtime(publisher, lambda name, payload: None))
        try:
            for route, _ in ROUTES[:3]:  # a registered event with players and tables to refer to
                api.handler(api_event(route), FakeContext())
            bodies = {route: json.loads(api_event(route)["body"] or "null") for route, _ in ROUTES}

            @FUZZ
            @given(
                st.sampled_from([r for r, _ in ROUTES]).flatmap(
                    lambda r: st.tuples(st.just(r), mutated(bodies[r]))
                )
            )
            def check(case):
                route, body = case
                event = api_event(route, body=body if isinstance(body, str) else json.dumps(body))
                response = api.handler(event, FakeContext())
                status = response["statusCode"]
                TALLY["api"][str(status)] += 1
                assert status < 500, response
                if status >= 400:
                    answer = json.loads(response["body"])  # every refusal in the one shape
                    assert answer.get("error") and set(answer) <= {"error", "field", "code", "violations"}
                    assert table_snapshot() == baseline
                else:
                    restore(baseline)  # every case starts from the same registered event

            baseline = table_snapshot()
            check()
        finally:
            lambda_runtime.set_runtime(None)
    assert any(code.startswith("4") for code in TALLY["api"])
    print("API bodies:", dict(TALLY["api"]))

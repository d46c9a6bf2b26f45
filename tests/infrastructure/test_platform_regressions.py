"""Regressions found by the platform benchmarks (docs/performance.md): counted, never timed."""

import subprocess
import sys
from pathlib import Path

import botocore.client
import pytest
from backend import Backend, create_table, prepare, setup_moto_env
from deckhand.service.duplicate import rounds
from deckhand.service.storage import models
from moto import mock_aws

setup_moto_env()
ROOT = Path(__file__).resolve().parents[2]


def imported_by_handler(name: str, module: str) -> bool:
    """Whether importing the handler ``name`` (a fresh interpreter, as Lambda starts one) imports ``module``."""
    probe = (
        f"import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]; import app; print({module!r} in sys.modules)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe, str(ROOT / "layers" / "shared"), str(ROOT / "functions" / name)],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "", "AWS_DEFAULT_REGION": "us-east-1", "POWERTOOLS_METRICS_NAMESPACE": "Deckhand"},
    )
    return proc.stdout.strip() == "True"


@pytest.mark.parametrize("name", ["api", "play", "deal", "score", "timers", "presence"])
def test_handlers_start_without_the_xray_sdk(name):
    """The X-Ray SDK cost 130-150 ms of every cold start and is not in the layer: no handler imports it."""
    assert not imported_by_handler(name, "aws_xray_sdk")


@pytest.mark.parametrize("name", ["play", "deal", "score", "timers", "presence"])
def test_handlers_that_pair_no_round_start_without_networkx(name):
    """networkx (a quarter of a cold start) is imported only when a round is paired, which the API
    handler does: the device-message handler reads an event's match settings and never pairs."""
    assert not imported_by_handler(name, "networkx")


def test_transactions_reuse_one_connection():
    """A new connection is a new botocore client (~0.2 s of CPU): every scoring made one."""
    models.configure(region="us-east-1")
    assert models.transaction()._connection is models.transaction()._connection


def test_a_play_message_costs_two_dynamodb_requests():
    """Read the board, write it: the device's round (``r``) saves reading the event on every play."""
    calls = []
    original = botocore.client.BaseClient._make_api_call

    def counting(client, operation, params):
        if client.meta.service_model.service_name == "dynamodb":
            calls.append(operation)
        return original(client, operation, params)

    with mock_aws():
        create_table()
        b = Backend()
        prepare(b)
        rounds.request_next_round(b.rt, "cup")
        b.send("hs-A-0", {"t": "hello", "msg": "h"})  # warm: the thing's seat is cached for a minute
        view = b.last_view("hs-A-0")
        botocore.client.BaseClient._make_api_call = counting
        try:
            outcome = b.send(
                "hs-A-0",
                {"t": "act", "msg": "s1", "board": view["b"], "r": view["r"], "a": {"k": "show", "v": 0}},
            )
        finally:
            botocore.client.BaseClient._make_api_call = original
    assert outcome["status"] == "accepted"
    assert calls == ["GetItem", "PutItem"]

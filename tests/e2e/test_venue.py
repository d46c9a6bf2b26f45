"""The whole local venue (DynamoDB Local, broker, bridge, firmware devices, HTTP API) running a small
event, and its results page in a real browser."""

import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from deckhand.competition.documents import parse_results, standings_document
from deckhand.competition.standings import standings
from deckhand.engines.registry import game
from deckhand_local.venue.demo_event import DemoEvent, Faults
from deckhand_local.venue.mosquitto import find_mosquitto
from helpers import dropped_only_waiting_resends, plays_in_any_order

# 7 players at 2 tables (an AI seat at each), both with a dealing table, 2 rounds of 1 board.
SMALL = {"seed": "ci-venue", "players": 7, "tables": 2, "groups": 1, "rounds": 2, "boards": 1, "dealers": 2}


@pytest.fixture(scope="module")
def small_event(tmp_path_factory, dynamodb_local):
    out = tmp_path_factory.mktemp("out")
    log = io.StringIO()
    document = DemoEvent(**SMALL, out=out, log=log, dynamodb_endpoint=dynamodb_local).run()
    return out, document, log.getvalue()


def test_exported_standings_equal_the_core_recomputed_from_the_exported_logs(small_event):
    out, document, log = small_event
    assert "Round 2 done" in log and "Final standings" in log
    ruleset, boards = parse_results(document["results"])
    assert ruleset == "bigtwo-2017" and len(boards) == 2
    ai = [r for b in boards for r in b.results if r.ai]
    assert len(ai) == 2  # 7 players at 2 tables of 4: one AI seat in each round, never ranked
    names = {p["id"]: p["name"] for p in document["players"]}
    assert standings_document(*standings(boards, ruleset), names) == document["standings"]
    assert names["P01"] == "Player 1" and len(names) == 7
    assert sorted(s["player"] for s in document["standings"]["standings"]) == [
        f"P{i:02d}" for i in range(1, 8)
    ]
    on_disk = json.loads((out / "results.json").read_text())
    assert on_disk == document
    assert (out / "standings.csv").read_text().splitlines()[0] == "place,player,total,tie_break,name"
    # The progress names the players and says "waiting" only when a table waits.
    assert "0 table(s) waiting" not in log
    final = log.split("Final standings")[1].splitlines()[1:]
    assert len(final) >= 7 and all("Player " in line for line in final[:7])
    assert len((out / "results.csv").read_text().splitlines()) == 1 + 2 * 7  # header + 7 players × 2 rounds


def test_commitments_are_revealed_and_verify(small_event):
    from deckhand.service.duplicate.rounds import commitment, deal_order

    _, document, _ = small_event
    for r in document["rounds"]:
        assert r["salt"]
        deals = {"1/1": deal_order(r["salt"], 1, "1", game("bigtwo-2017"))}
        assert commitment(r["salt"], deals) == r["commitment"]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(
    chromium() is None, reason="no Chromium on this machine (.ci/run installs Debian's chromium)"
)
def test_results_page_renders_in_headless_chromium(small_event, tmp_path):
    out, document, _ = small_event
    page = Path(out) / "results.html"
    proc = subprocess.run(
        [
            chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    console = [line for line in proc.stderr.splitlines() if "CONSOLE" in line]
    assert console == []
    dom = proc.stdout
    assert 'id="standings"' in dom and 'id="commitments"' in dom
    for s in document["standings"]["standings"]:
        assert f'<td class="name">{s["name"]} ({s["player"]})</td>' in dom  # the registered name, and the id


def test_faults_through_the_venue_change_no_result(small_event, tmp_path, dynamodb_local):
    """Handsets losing their link right after an action (the acknowledgement is lost, the action is
    resent on reconnect), actions delivered twice, a second handset pressing at the same moment out of
    turn, the play handler failing on a first try (retried), messages overtaken by later ones, and a
    dealing table misreading a card (the board stops, the referee clears the jam, the
    table deals again): the event finishes with exactly the results and standings of the run without
    faults — a second run of the same seed, which also shows that the same seed gives the same event."""
    _, clean, _ = small_event
    log = io.StringIO()
    event = DemoEvent(
        **SMALL,
        out=tmp_path / "out",
        faults=Faults(
            drop_every=9,
            duplicate_every=5,
            concurrent_every=7,
            misread_board="1",
            handler_fails=11,
            reorder_every=6,
        ),
        log=log,
        dynamodb_endpoint=dynamodb_local,
    )
    faulty = event.run()
    assert event.injected["drops"] >= 3 and event.injected["duplicates"] >= 5
    assert event.injected["concurrent"] >= 3 and event.injected["handler_failures"] >= 5
    assert event.injected["delayed"] >= 5 and event.injected["reordered"] >= 1
    assert event.failed == 0  # each failed first try was retried, as Lambda retries, and went through
    assert dropped_only_waiting_resends(
        event.dropped
    )  # the bridge's per-thing rates are far above what devices send
    # Every board's log replays to its stored state and result; no device action was applied twice.
    assert event.audit["boards"] == 4 and event.audit["device_actions"] > 0
    assert event.audit["doubled"] == event.audit["replay_mismatches"] == event.audit["results_missing"] == 0
    assert event.audit["lost"] == 0  # every action the server acknowledged is in a board's log
    assert event.devices[4].misreads == 1  # the first dealing table (after table 1's four handsets)
    assert "Faults injected" in log.getvalue()
    refused = sum(event.outcomes.get(code, 0) for code in ("not_your_turn", "phase_closed", "board_over"))
    assert refused == event.injected["concurrent"]  # every out-of-turn press refused, none applied
    assert event.outcomes["duplicate"] >= event.injected["duplicates"]  # recognised, not applied again
    # The misread stops the board and is answered deal_mismatch — unless the correct report after the
    # redeal overtook it (reordered), when the late misread rightly changes nothing.
    assert event.outcomes.get("deal_mismatch", 0) <= 1
    assert plays_in_any_order(faulty["results"]) == plays_in_any_order(clean["results"])
    assert faulty["standings"] == clean["standings"]
    assert [r["commitment"] for r in faulty["rounds"]] == [r["commitment"] for r in clean["rounds"]]


def test_a_doudizhu_event_runs_through_the_venue_like_big_two(tmp_path, dynamodb_local):
    """3 seats per table, bidding and doubling on the handsets' buttons, a dealing table dealing the
    kitty: the exported standings equal the core's, recomputed with the Dou Dizhu tie-break chain."""
    log = io.StringIO()
    document = DemoEvent(
        seed="ci-ddz",
        ruleset="doudizhu-2016",
        out=tmp_path,
        tables=2,
        groups=1,
        rounds=2,
        boards=1,
        dealers=1,
        log=log,
        dynamodb_endpoint=dynamodb_local,
    ).run()
    ruleset, boards = parse_results(document["results"])
    assert ruleset == "doudizhu-2016" and len(boards) == 2
    assert all(len(b.results) == 6 and {r.seat for r in b.results} == {0, 1, 2} for b in boards)
    names = {p["id"]: p["name"] for p in document["players"]}
    assert standings_document(*standings(boards, ruleset), names) == document["standings"]
    assert "Dou Dizhu" in log.getvalue() and "Final standings" in log.getvalue()


@pytest.mark.skipif(find_mosquitto() is None, reason="mosquitto is not installed (.ci/run installs it)")
def test_the_venue_runs_the_same_event_on_mosquitto(small_event, tmp_path, dynamodb_local):
    """``--broker mosquitto``: the same seed gives the same event as on the embedded broker."""
    _, clean, _ = small_event
    document = DemoEvent(
        **SMALL, out=tmp_path, log=io.StringIO(), broker="mosquitto", dynamodb_endpoint=dynamodb_local
    ).run()
    assert plays_in_any_order(document["results"]) == plays_in_any_order(clean["results"])
    assert document["standings"] == clean["standings"]

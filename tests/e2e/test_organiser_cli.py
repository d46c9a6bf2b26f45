"""``deckhand event …`` over HTTP against the local venue: every organiser step, JSON on stdout,
progress of long waits on stderr, and bad input refused with a clear message and no traceback."""

import datetime as dt
import io
import json
import threading

from deckhand_local.cli.main import main
from deckhand_local.venue.simulated import BotHandset

THINGS = [f"org-{s}" for s in range(4)]
EVENT = {
    "event_id": "org",
    "name": "Organiser Cup",
    "ruleset": "bigtwo-2017",
    "grade": "unrated",
    "format": "pvp",
    "rounds": 1,
    "boards_per_round": 1,
    "groups": 1,
    "venue": True,
    "start": dt.date.today().isoformat(),
    "seed": "organiser",
}


def deckhand(capsys, monkeypatch, state, *args, stdin=None):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(stdin) if stdin is not None else ""))
    code = main(["event", "--state", str(state), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_organiser_runs_an_event_from_the_command_line(venue, capsys, monkeypatch, tmp_path):
    venue, state = venue
    code, out, _ = deckhand(capsys, monkeypatch, state, "create", stdin=EVENT)
    assert code == 0 and json.loads(out)["event_id"] == "org"
    players = {"players": [{"id": f"P{i}", "name": f"Player {i}"} for i in range(4)]}
    assert deckhand(capsys, monkeypatch, state, "players", "org", stdin=players)[0] == 0
    tables = {"tables": [{"id": "T1", "seats": THINGS, "dealer": None}]}
    assert deckhand(capsys, monkeypatch, state, "tables", "org", stdin=tables)[0] == 0

    code, _, err = deckhand(capsys, monkeypatch, state, "status", "org")
    assert code == 2 and "has no round yet" in err

    bots = [BotHandset(t, venue.link, tmp_path / t, views=venue.sent) for t in THINGS]
    code, out, _ = deckhand(capsys, monkeypatch, state, "start-round", "org")
    started = json.loads(out)  # stdout is the JSON answer alone
    assert code == 0 and started["round"] == 1 and len(started["commitment"]) == 64
    # Where everyone sits, with the handset (the organiser is the event's staff), and guide cards.
    assert sorted((s["seat"], s["thing"]) for s in started["seating"]) == list(enumerate(THINGS))
    code, page, _ = deckhand(capsys, monkeypatch, state, "seating", "org", "--format", "html")
    assert code == 0 and page.count('class="card"') == len(THINGS) and "T1 桌" in page
    # The live results site, for anyone in the hall: no token, the round's progress, no score yet.
    import urllib.request

    with urllib.request.urlopen(f"{venue.api_url}/site/org/", timeout=30) as reply:
        live = reply.read().decode()
    assert "第 1 轮：比赛中" in live and 'http-equiv="refresh"' in live, "Chinese by default"
    with urllib.request.urlopen(f"{venue.api_url}/site/org/en/", timeout=30) as reply:
        assert "Round 1: playing" in reply.read().decode()

    stop = threading.Event()

    def play() -> None:
        stop.wait(1.5)  # the first status poll (at once) sees the board not yet played
        while not stop.is_set():
            for bot in bots:
                bot.step()
                bot.play()
            venue.idle(timeout=0.2)

    players_thread = threading.Thread(target=play, daemon=True)
    players_thread.start()
    try:
        code, out, err = deckhand(capsys, monkeypatch, state, "status", "org", "--wait", "--timeout", "120")
    finally:
        stop.set()
        players_thread.join(10)
    status = json.loads(out)
    assert code == 0 and status["status"] == "done" and status["boards_done"] == 1
    assert "round 1: playing, boards 0/1 done" in err  # progress while waiting, on stderr

    code, out, _ = deckhand(capsys, monkeypatch, state, "standings", "org")
    assert code == 0 and sorted(s["player"] for s in json.loads(out)["standings"]) == [
        "P0",
        "P1",
        "P2",
        "P3",
    ]
    code, out, _ = deckhand(capsys, monkeypatch, state, "export", "org", "--format", "csv")
    assert code == 0 and out.splitlines()[0].startswith("round,board,group,table,seat,player,score")
    code, out, _ = deckhand(capsys, monkeypatch, state, "export", "org")
    assert code == 0 and json.loads(out)["results"]["ruleset"] == "bigtwo-2017"


def test_a_bad_body_is_refused_with_the_api_reason(venue, capsys, monkeypatch):
    _, state = venue
    code, out, err = deckhand(capsys, monkeypatch, state, "create", stdin={"event_id": "x"})
    assert code == 2 and out == "" and err.startswith("deckhand event create: error: HTTP 4")
    assert "Traceback" not in err


def test_without_a_running_venue_the_command_says_so(capsys, monkeypatch, tmp_path):
    code, _, err = deckhand(capsys, monkeypatch, tmp_path, "standings", "org")
    assert code == 2 and "no local venue is running" in err


def test_a_post_retried_with_its_key_acts_once_on_the_venues_database(venue):
    import urllib.request

    from deckhand.service.storage import keys

    venue, state = venue
    info = json.loads((state / "venue.json").read_text())
    body = json.dumps({k: v for k, v in EVENT.items() if k != "event_id"}).encode()

    def create() -> tuple[dict, str | None]:
        request = urllib.request.Request(
            info["api"] + "/events",
            data=body,
            method="POST",
            headers={
                "Authorization": f"Bearer {info['token']}",
                "Content-Type": "application/json",
                "Idempotency-Key": "e2e-create-1",
            },
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read()), response.headers.get("Idempotent-Replayed")

    (first, replayed_first), (retry, replayed_retry) = create(), create()
    assert retry == first and replayed_first is None and replayed_retry == "true"
    records = venue.dynamodb.query(
        TableName=venue.table,
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": keys.IDEMPOTENCY_PK}},
    )["Items"]
    assert any(r["status"]["S"] == "COMPLETED" for r in records)  # on the venue's endpoint, not elsewhere

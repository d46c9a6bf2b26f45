"""``deckhand event status``: a round that does not exist is an error at once, never an hour's wait."""

import io

import pytest
from deckhand_local.cli import events_cli
from deckhand_local.cli.main import main
from deckhand_local.venue.api_client import ApiError


class FakeApi:
    """The API of an event in play at round ``current``: rounds above it have no status (404)."""

    def __init__(self, current: int, status: str = "playing") -> None:
        self.current = current
        self.status = status
        self.calls: list[str] = []

    def request(self, method: str, path: str, body=None, *, raw: bool = False):
        self.calls.append(path)
        if path == "/events/cup":
            return {"event_id": "cup", "status": self.status, "current_round": self.current}
        number = int(path.rsplit("/", 1)[1])
        if number > self.current or (self.status == "dealing" and number == self.current):
            raise ApiError(404, {"error": f"event 'cup' has no round {number}"})
        return {"round": number, "status": "playing", "boards_done": 0, "boards_total": 4, "tables": []}


@pytest.fixture
def no_sleep(monkeypatch):
    def sleep(seconds):
        raise AssertionError("the command waited")

    monkeypatch.setattr(events_cli.time, "sleep", sleep)


def test_a_round_that_does_not_exist_is_an_error_at_once(no_sleep):
    api = FakeApi(current=2)
    progress = io.StringIO()
    with pytest.raises(
        events_cli.DeckhandError, match="event cup has no round 9 \\(its rounds so far: 1–2\\)"
    ):
        events_cli.wait_for_round(api, "cup", 9, until_done=False, timeout=3600, progress=progress)
    assert "dealing" not in progress.getvalue()
    with pytest.raises(events_cli.DeckhandError, match="has no round 9"):
        events_cli.wait_for_round(api, "cup", 9, until_done=True, timeout=3600, progress=progress)


def test_a_round_being_dealt_is_waited_for(monkeypatch):
    api = FakeApi(current=3, status="dealing")
    slept = []

    def sleep(seconds):
        slept.append(seconds)
        api.status = "playing"  # dealt meanwhile

    monkeypatch.setattr(events_cli.time, "sleep", sleep)
    progress = io.StringIO()
    status = events_cli.wait_for_round(api, "cup", 3, until_done=False, timeout=60, progress=progress)
    assert status["round"] == 3 and slept == [1.0] and progress.getvalue() == "dealing round 3 …\n"


def test_the_command_exits_non_zero_with_the_reason(no_sleep, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(
        events_cli, "ApiClient", lambda *args, **kwargs: FakeApi(current=0, status="registering")
    )
    code = main(["event", "--state", str(tmp_path), "status", "cup", "--round", "9"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == "deckhand event status: error: event cup has no round 9 (no round yet)\n"

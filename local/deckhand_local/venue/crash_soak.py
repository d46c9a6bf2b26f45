"""A crash soak: an event on a venue in its own process, killed with SIGKILL at chosen moments and
started again on the same data while the simulated devices reconnect by themselves.

The organiser's steps go through the HTTP API; the event's progress, the audit and the stall report
are read straight from the venue's DynamoDB Local (the soak is trusted, like a referee's tool). A run
with no kills, same seed, is the baseline its results are compared with.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from deckhand.engines.registry import DEFAULT, game
from deckhand.errors import DeckhandError, VenueStartError

from .api_client import ApiClient
from .crash_report import clocks_stopped, comparable, stall_report, timed_out
from .event_setup import EventShape, make_devices, register
from .local import free_port
from .realtime import TICK_SECONDS, RealTimeDevices
from .seat_views import DatabaseSeatViews
from .venue_process import VenueProcess

EVENT_ID = "crash"
START_TRIES = 3  # a venue that fails to start is started again, as its operator would, this often
DEALING, DEALT, MID_BOARD, SCORING = "dealing", "dealt", "mid-board", "scoring"
KINDS = (DEALING, DEALT, MID_BOARD, SCORING)


class Stalled(DeckhandError):
    """The event made no progress for too long: what is stuck, and in which state, is in the message."""


@dataclass
class Kill:
    # DEALING: right after POST /rounds answered (the deal itself still under way); DEALT: as soon as
    # the round is stored (deal orders and first views going out); MID_BOARD: a random moment;
    # SCORING: right after a board ended (its result and the next board under way).
    kind: str
    round: int
    restart_seconds: float  # until the restarted venue answered
    reconnect_seconds: float  # until every device was connected again
    back_at: int = 0  # ms (wall clock): when the restarted venue answered


@dataclass
class SoakResult:
    seconds: float
    kills: list[Kill] = field(default_factory=list)
    audit: dict[str, int] = field(default_factory=dict)
    accepted: int = 0
    timeouts: int = 0  # decisions taken by their default because their time ran out
    timed_out_at: list[int] = field(default_factory=list)  # ms (wall clock): when each ran out
    stopped: list[int] = field(default_factory=list)  # ms: each outage the clocks were stopped for
    results: dict[str, Any] = field(default_factory=dict)  # comparable(export): scores without play time
    stalled: str | None = None
    device_errors: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)  # restarts refused for a port still taken
    failed_starts: list[str] = field(default_factory=list)  # restarts that failed, and why (started again)


class CrashSoak:
    def __init__(
        self,
        *,
        work: Path,
        seed: str,
        log: IO[str],
        tables: int = 16,
        groups: int = 2,
        rounds: int = 2,
        boards: int = 2,
        dealers: int = 4,
        kills: int = 0,
        ruleset: str = DEFAULT,
        stall_seconds: float = 90.0,
        gap_seconds: tuple[float, float] = (2.0, 8.0),
        kinds: tuple[str, ...] = KINDS,
        tick_seconds: float = TICK_SECONDS,
    ) -> None:
        self.work = work
        self.seed = seed
        self.log = log
        self.tables = tables
        self.groups = groups
        self.rounds = rounds
        self.boards = boards
        self.dealers = dealers
        self.kills = kills
        self.ruleset = ruleset
        self.seats = game(ruleset).seats
        self.stall_seconds = stall_seconds  # no progress for this long: the run stops and says where
        self.gap_seconds = gap_seconds  # play between a restart and the next random kill
        self.kinds = kinds
        self.tick_seconds = tick_seconds  # bots think 1–3 ticks (few tables can play faster)
        self.random = random.Random(f"{seed}/kills")
        ports = (free_port(), free_port(), free_port())
        self.venue = VenueProcess(work / "venue", ports)
        self.devices: RealTimeDevices | None = None
        self.result = SoakResult(0.0)

    def say(self, text: str) -> None:
        self.log.write(text + "\n")
        self.log.flush()

    def run(self) -> SoakResult:
        from deckhand.service.refereeing.replay_audit import audit_event
        from deckhand.service.storage import models

        began = time.monotonic()
        self.say(f"Starting the venue ({self.venue.start():.1f} s)")
        info = self.venue.info()
        os.environ["AWS_ACCESS_KEY_ID"] = info["dynamodb_key"]  # the venue's database is its key's
        os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "local")
        models.configure(table_name=info["table"], host=info["dynamodb"], region="us-east-1")
        try:
            self._register()
            plan = self._plan()
            for number in range(1, self.rounds + 1):
                self._play_round(number, plan[number])
            self.result.audit = audit_event(EVENT_ID, accepted=self.devices.accepted if self.devices else ())
            self.result.timed_out_at = timed_out(EVENT_ID)
            self.result.timeouts = len(self.result.timed_out_at)
            self.result.stopped = clocks_stopped(EVENT_ID)
            self.result.results = comparable(
                self._api().request("GET", f"/events/{EVENT_ID}/export?format=json")
            )
        except Stalled as exc:
            self.result.stalled = str(exc)
            # What was played so far is audited all the same: a stall must not hide a lost action.
            self.result.audit = audit_event(EVENT_ID, accepted=self.devices.accepted if self.devices else ())
        finally:
            if self.devices is not None:
                self.devices.close()
                self.result.accepted = len(self.devices.accepted)
                self.result.device_errors = self.devices.errors
            self.venue.stop()
            self.result.refusals = self.venue.refusals
        self.result.seconds = time.monotonic() - began
        return self.result

    def _api(self) -> ApiClient:
        return self.venue.api()

    def _plan(self) -> dict[int, int]:
        """How many kills each round gets (the first of a round's kills is during its dealing)."""
        base, extra = divmod(self.kills, self.rounds)
        return {n: base + (1 if n <= extra else 0) for n in range(1, self.rounds + 1)}

    def _register(self) -> None:
        shape = EventShape(
            event_id=EVENT_ID,
            name="Crash soak",
            ruleset=self.ruleset,
            seed=self.seed,
            players=self.seats * self.tables,
            seats=self.seats,
            tables=self.tables,
            groups=self.groups,
            rounds=self.rounds,
            boards=self.boards,
            dealers=self.dealers,
        )
        tables = register(self._api(), shape)
        views = DatabaseSeatViews()
        devices = make_devices(tables, self.venue.link(), self.work / "devices", views)
        self.devices = RealTimeDevices(devices, self.tick_seconds).start()
        self.say(f"Event {EVENT_ID!r}: {self.tables} tables, {self.rounds} rounds × {self.boards} boards")

    def _play_round(self, number: int, kills: int) -> None:
        from deckhand.service.duplicate.rounds import round_status

        self._post_round(number)
        self.say(f"Round {number}: requested")
        first = DEALING if DEALING in self.kinds else DEALT if DEALT in self.kinds else None
        if kills and first == DEALING:
            self._crash(DEALING, number)
            kills -= 1
        kind, due = (DEALT, 0.0) if kills and first == DEALT else self._next_kill(kills)
        ended: set[tuple[str, str]] = set()
        progress, last_change = None, time.monotonic()
        while True:
            try:
                status = round_status(EVENT_ID, number)
            except Exception:  # noqa: BLE001 - the database is restarting: look again
                status = None
            if status is not None:
                if status["status"] == "done" and self._event_status() in ("between_rounds", "finished"):
                    self.say(f"Round {number}: done")
                    return
                now_ended = {
                    (t["table"], b["board"])
                    for t in status["tables"]
                    for b in t["boards"]
                    if b["status"] == "ended"
                }
                seen = (
                    self.devices.accepted.__len__() if self.devices else 0,
                    len(now_ended),
                    status["status"],
                )
                if seen != progress:
                    progress, last_change = seen, time.monotonic()
                if kind == DEALT:
                    self._crash(DEALT, number)
                    kills -= 1
                    kind, due = self._next_kill(kills)
                    last_change = time.monotonic()
                if kind == SCORING and now_ended - ended:
                    self._crash(SCORING, number)
                    kills -= 1
                    kind, due = self._next_kill(kills)
                    last_change = time.monotonic()
                ended = now_ended
            if kind == MID_BOARD and time.monotonic() >= due:
                self._crash(MID_BOARD, number)
                kills -= 1
                kind, due = self._next_kill(kills)
                last_change = time.monotonic()
            if time.monotonic() - last_change > self.stall_seconds:
                raise Stalled(
                    f"round {number}: no progress for {self.stall_seconds:.0f} s\n"
                    + stall_report(EVENT_ID, number)
                )
            time.sleep(0.05)

    def _restart(self) -> float:
        """Start the killed venue again; a start that fails is noted (a finding) and tried again."""
        for _ in range(START_TRIES):
            try:
                return self.venue.start()
            except VenueStartError as exc:
                self.result.failed_starts.append(str(exc)[-1500:])
                self.say(f"  the venue did not start: {str(exc)[-300:]}")
        raise Stalled(f"the venue did not start {START_TRIES} times: {self.result.failed_starts[-1]}")

    def _next_kill(self, left: int) -> tuple[str | None, float]:
        """Mid-board (a random moment) and scoring (the next board's end) kills, in turn."""
        kinds = [k for k in (SCORING, MID_BOARD) if k in self.kinds]
        if left <= 0 or not kinds:
            return None, 0.0
        kind = kinds[len(self.result.kills) % len(kinds)]
        return kind, time.monotonic() + self.random.uniform(*self.gap_seconds)

    def _event_status(self) -> str | None:
        from deckhand.service.organiser.events import get_event

        try:
            return str(get_event(EVENT_ID).status)
        except Exception:  # noqa: BLE001 - the database is restarting
            return None

    def _post_round(self, number: int) -> None:
        """POST /rounds; refused while the previous round has not let the event move on (a stall)."""
        deadline = time.monotonic() + self.stall_seconds
        while True:
            try:
                self._api().request("POST", f"/events/{EVENT_ID}/rounds")
                return
            except DeckhandError as exc:
                if time.monotonic() > deadline:
                    raise Stalled(
                        f"round {number} refused for {self.stall_seconds:.0f} s: {exc}\n"
                        + stall_report(EVENT_ID, number - 1)
                    ) from None
                time.sleep(1.0)

    def _crash(self, kind: str, number: int) -> None:
        """SIGKILL the venue, start it again on the same data, and wait until the devices are back."""
        assert self.devices is not None
        self.devices.pause()
        self.venue.kill()
        connects = self.devices.connects()
        restart = self._restart()
        began, back_at = time.monotonic(), int(time.time() * 1000)
        self.devices.resume()
        while not self.devices.reconnected(connects) and time.monotonic() - began < 60:
            time.sleep(0.05)
        kill = Kill(kind, number, restart, time.monotonic() - began, back_at)
        self.result.kills.append(kill)
        self.say(
            f"  kill {len(self.result.kills)} ({kind}, round {number}): venue back in {restart:.1f} s, "
            f"devices in {kill.reconnect_seconds:.1f} s more"
        )

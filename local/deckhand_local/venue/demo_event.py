"""``make demo``: a real duplicate event through the whole local venue, with live progress.

Devices run the real firmware over MQTT, the Lambda handlers do the work, data lives in moto's
DynamoDB server; the organiser steps go through the HTTP API like any organiser's would.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from deckhand.competition.match_render import (
    match_boards_csv,
    match_results_csv,
    match_results_html,
    match_standings_csv,
)
from deckhand.competition.render import board_results_csv, results_html, standings_csv
from deckhand.engines.registry import DEFAULT, game
from deckhand.engines.spec import Competition
from deckhand.errors import DeckhandError
from deckhand.service.infra.clock import set_clock

from .api_client import ApiClient
from .board_hands import TableHands
from .event_setup import EventShape, make_devices, register
from .knockout_demo import MAX_GAMES, SeatedPlayers, ended_matches, finish_knockout, match_line
from .local import Venue
from .local import free_port as free_port  # where the tests and benches have taken it from
from .lockstep import TICK_MS, SimulatedClock, settle
from .simulated import BotHandset, DealingTable, ElectronicBoard, SimulatedDevice
from .tables import unique_table_name

# The venue's own sweep, when the demo sweeps in lock-step (a paced deal): never, in practice.
LOCKSTEP_SWEEP = 3600.0

PACED_MINUTES = 8  # the demo's matches of a game whose deal is paced
KNOCKOUT_PLAYERS = 16  # a game of two players: the knockout's field
# A paced deal: the round's status is looked at every this many idle ticks in a row.
IDLE_LOOK = 4
# The first electronic board's one wrong move: the first move made on it at a position numbered this
# or later (the opening's second move of the first mover: the game under way, its pieces all still on).
WRONG_MOVE_FROM = 2


@dataclass
class Faults:
    """Faults injected on purpose (fault tests), each after every n-th action of the event (0: never)."""

    drop_every: int = 0  # the handset's link dies right after it sent the action (its ack is lost)
    duplicate_every: int = 0  # the action is delivered twice, as a QoS 1 redelivery would
    concurrent_every: int = 0  # the seat before it presses pass at the same moment, out of turn
    misread_board: str | None = None  # the first dealing table jams once on this board (round 1)
    handler_fails: int = 0  # the play handler raises on the first try of every n-th device message
    reorder_every: int = 0  # every n-th device message is delayed until the next one has been handled
    # A paced deal: each dealing table's link dies after it read this many cards of a board (0: never)
    dealer_drops_at: int = 0
    reboot_at_tick: int = 0  # the first handset is power-cycled this many ticks into round 1 (0: never)
    # A declaration while the cards come: another seat of the table that may declare presses its own at
    # the same moment (the two race through the bridge's workers; the rules take one after the other).
    race_declarations: bool = False


NAMED_LEADERS = 5  # more than this many level with the third are counted, not named


def leaders(rows: list[tuple[str, Any, str]]) -> str:
    """The round's leaders from the standings, best first (``(name, score, score as shown)``): the
    first three and everyone level with the third — named when they are few, else counted
    (``Player 15 114000, 6 tied on 111000``): never three names picked out of a larger tie."""
    if len(rows) <= 3:
        return ", ".join(f"{name} {shown}" for name, _, shown in rows)
    third = rows[2][1]
    level = [r for r in rows if r[1] == third]
    ahead = [r for r in rows[:3] if r[1] != third]
    if len(ahead) + len(level) <= NAMED_LEADERS:
        return ", ".join(f"{name} {shown}" for name, _, shown in [*ahead, *level])
    return ", ".join([*(f"{name} {shown}" for name, _, shown in ahead), f"{len(level)} tied on {rows[2][2]}"])


class DemoEvent:
    def __init__(
        self,
        *,
        seed: str,
        out: Path,
        ruleset: str = DEFAULT,
        players: int | None = None,
        tables: int | None = None,
        groups: int | None = None,
        rounds: int | None = None,
        boards: int | None = None,
        dealers: int = 1,
        minutes: int | None = None,
        log: IO[str],
        faults: Faults | None = None,
        round_limit: float = 600.0,
        broker: str = "aedes",
        dynamodb_endpoint: str | None = None,
        max_games: int | None = None,
        resigners: int = 0,
        electronic_boards: int = 0,
        wrong_move_from: int | None = WRONG_MOVE_FROM,
    ) -> None:
        self.seed = seed
        self.dynamodb_endpoint = dynamodb_endpoint  # a database already running (tests share one)
        self.out = out
        self.ruleset = ruleset
        self.seats = game(ruleset).seats
        # Matches of pairs (a game that carries levels): 16 pairs at 8 tables, matches of 8 boards.
        self.match = game(ruleset).competition is Competition.MATCH
        # A game of two players: individuals (16) in a knockout drawn by lot, each tie a match of games.
        self.head_to_head = game(ruleset).competition is Competition.HEAD_TO_HEAD
        # A game whose cards are given out at a pace (seats declare meanwhile): the server's timers give
        # them out, so they sweep in lock-step with the simulated clock, never on the wall clock.
        self.paced = game(ruleset).new_board_in_steps is not None
        if self.head_to_head:
            players = players or KNOCKOUT_PLAYERS
            tables = tables or players // 2
            rounds = rounds or (players - 1).bit_length()  # the bracket's rounds to its final
            dealers = 0  # a board game's tables have no dealing table
        self.tables = tables or (8 if self.match else 4)
        if not 0 <= electronic_boards <= self.tables:
            raise DeckhandError(f"{electronic_boards} electronic boards for {self.tables} tables")
        self.players = players if players is not None else self.seats * self.tables
        self.groups = groups or (1 if self.match or self.head_to_head else 2)
        self.rounds = rounds or 3
        self.max_games = max_games or (MAX_GAMES if self.head_to_head else None)  # a tie's, before a lot
        # A knockout's last players who resign each game at once (tests: short matches; 0 in the demo).
        self.resigners = frozenset(f"P{i:02d}" for i in range(self.players - resigners + 1, self.players + 1))
        position = game(ruleset).position
        if electronic_boards and (position is None or position.hidden):
            raise DeckhandError(
                f"{game(ruleset).name} has no electronic board: it is for a board game whose seats see one board"
            )
        # Electronic boards at the first tables: the players there move the pieces on them (their
        # handsets show the screen); the first one's ``wrong_move_from`` (None: never) stops its game
        # once, and the demo's referee puts the pieces back and resumes it through the API.
        self.electronic_boards = electronic_boards
        self.wrong_move_from = wrong_move_from
        self.eboards: list[tuple[ElectronicBoard, str]] = []  # with its table
        self.attended: dict[str, int] = {}  # the stops of each electronic board the referee saw to
        self.resumes = 0
        self.referee_log: list[dict[str, Any]] = []  # the event's audit (the referee's actions)
        self.boards = boards or (8 if self.match else 4)
        # A match's clock on the simulated time (match events); a paced deal's boards are long (the
        # cards alone take 25 s), so its matches are shorter: the demo stays within its 3 minutes.
        self.minutes = minutes or (PACED_MINUTES if self.paced else 12)
        self.dealers = dealers
        self.log = log
        self.faults = faults or Faults()
        self.round_limit = round_limit  # wall seconds a round may take before the run gives up
        self.broker = broker
        self.actions = 0
        self.injected = {
            "drops": 0,
            "duplicates": 0,
            "concurrent": 0,
            "handler_failures": 0,
            "delayed": 0,
            "reordered": 0,
            "reboots": 0,
            "dealer_drops": 0,
            "races": 0,
        }
        self.clock = SimulatedClock(int(time.time()) * 1000)
        self.tick = 0
        self.failed = 0  # device messages that failed every try (none may)
        self.dropped: dict[str, int] = {}  # device messages the bridge dropped, by why (none may)
        self.audit: dict[str, int] = {}  # service.replay_audit.audit_event of the finished event
        self.outcomes: dict[str, int] = {}  # what the server answered to device messages, by status/code
        self.work = Path(tempfile.mkdtemp(prefix="deckhand-venue-"))
        self.devices: list[SimulatedDevice] = []
        self.table_of: dict[str, str] = {}  # handset → its table
        self._last_line = ""
        self.announced: set[str] = set()  # a knockout round's tables whose match result was said
        self.names: dict[str, str] = {}  # a knockout's players by id

    def say(self, text: str) -> None:
        self.log.write(text + "\n")
        self.log.flush()

    @property
    def handsets(self) -> list[BotHandset]:
        return [d for d in self.devices if isinstance(d, BotHandset)]

    def run(self) -> dict[str, Any]:
        started = time.monotonic()
        self.say("Starting the local venue: DynamoDB Local, MQTT broker, bridge, API, timers …")
        set_clock(self.clock.now)
        venue = Venue(
            dynamodb_port=free_port(),
            mqtt_port=free_port(),
            http_port=0,
            state_dir=self.work / "venue",
            broker=self.broker,
            dynamodb_endpoint=self.dynamodb_endpoint,
            table=unique_table_name("demo"),
            sweep_seconds=LOCKSTEP_SWEEP if self.paced else 1.0,
        ).start()
        if self.faults.handler_fails:
            self._failing_handler(venue)
        venue.bridge.reorder_every = self.faults.reorder_every
        try:
            api = ApiClient(state_dir=self.work / "venue")
            self._register(api, venue)
            for number in range(1, self.rounds + 1):
                self._play_round(api, venue, number)
            result = self._finish(api)
            if self.eboards:
                self.referee_log = api.request("GET", "/events/demo/audit")["audit"]
            from deckhand.service.refereeing.replay_audit import audit_event

            # Read straight from the venue's DynamoDB, before it stops.
            self.audit = audit_event("demo", accepted=venue.bridge.accepted)
            self.failed = len(venue.bridge.failed)
            self.dropped = dict(venue.bridge.dropped)
            self.injected["delayed"] = venue.bridge.delayed
            self.injected["reordered"] = venue.bridge.overtaken
            self.injected["dealer_drops"] = sum(d.drops for d in self.devices if isinstance(d, DealingTable))
            for outcome in venue.bridge.outcomes:
                key = outcome.get("code") or outcome.get("status", "?")
                self.outcomes[key] = self.outcomes.get(key, 0) + 1
        finally:
            for device in self.devices:
                if device.conn.client is not None:
                    device.conn.drop()
            venue.stop()
            set_clock(None)
            shutil.rmtree(self.work, ignore_errors=True)
        if any(self.injected.values()) or self.faults.misread_board:
            self.say(
                "Faults injected: {drops} dropped links, {duplicates} duplicate deliveries, "
                "{concurrent} out-of-turn presses at the same moment, {handler_failures} handler "
                "failures on a first try, {delayed} messages delayed ({reordered} overtaken by a later "
                "one)".format(**self.injected)
                + (
                    f", a misread deal of board {self.faults.misread_board}"
                    if self.faults.misread_board
                    else ""
                )
            )
        if self.dropped:  # a simulated device over its thing's rate, or a full queue: the limits are wrong
            self.say(f"The bridge dropped device messages: {self.dropped}")
        self.say(f"Done in {time.monotonic() - started:.0f} s. Results in {self.out}/")
        return result

    def _register(self, api: ApiClient, venue: Venue) -> None:
        shape = EventShape(
            event_id="demo",
            name="Deckhand demo event",
            ruleset=self.ruleset,
            seed=self.seed,
            players=self.players,
            seats=self.seats,
            tables=self.tables,
            groups=self.groups,
            rounds=self.rounds,
            boards=self.boards,
            dealers=self.dealers,
            minutes=self.minutes,
            max_games=self.max_games,
            eboards=self.electronic_boards,
        )
        tables = register(api, shape)
        self.table_of = {thing: t["id"] for t in tables for thing in t["seats"]}
        position = game(self.ruleset).position
        hands = {
            t["id"]: TableHands("demo", t["id"], position.move_data, self.wrong_move_from if n == 0 else None)
            for n, t in enumerate(tables)
            if t.get("eboard") and position is not None
        }
        seated = None
        if self.head_to_head:
            self.names = {f"P{i:02d}": f"Player {i}" for i in range(1, self.players + 1)}
            seated = SeatedPlayers("demo", self.table_of, self.resigners).style
            ties = f"up to {self.max_games} games" if self.max_games else "games"
            self.say(
                f"Event 'demo' ({game(self.ruleset).name}): {self.players} players in a knockout drawn by "
                f"lot, {self.rounds} rounds to the final at {self.tables} tables; each tie a match of "
                f"{ties}, the first move swapped, on the simulated clock."
            )
            if hands:
                boards = "An electronic board" if len(hands) == 1 else "Electronic boards"
                self.say(
                    f"{boards} at {', '.join(hands)}: the players there move the pieces on the board, its "
                    "sensors report each move (their handsets show the screen)."
                )
        elif self.match:
            self.say(
                f"Event 'demo' ({game(self.ruleset).name}): {self.players // 2} pairs at {self.tables} "
                f"tables, a {self.rounds}-round Swiss of matches ended by {self._match_end()} on the "
                f"simulated clock; {self.dealers} automatic dealing table(s)."
            )
        else:
            self.say(
                f"Event 'demo' ({game(self.ruleset).name}): {self.players} players, {self.tables} tables "
                f"in {self.groups} groups, "
                f"{self.rounds} rounds × {self.boards} boards; {self.dealers} automatic dealing table(s)."
            )
        self.devices.extend(
            make_devices(
                tables,
                venue.link,
                self.work,
                venue.sent,
                self.faults.misread_board,
                self.faults.dealer_drops_at,
                seated,
                hands,
            )
        )
        at_table = {t.get("eboard"): t["id"] for t in tables}
        self.eboards = [(d, at_table[d.thing]) for d in self.devices if isinstance(d, ElectronicBoard)]
        self._settle(venue)

    def _match_end(self) -> str:
        """How the demo's matches end, as far as the game's rules have such ends."""
        short = game(self.ruleset).short_match
        options = short(self.boards, self.minutes) if short is not None else {}
        if "boards" in options:
            return f"{self.boards} boards or {self.minutes} minutes"
        return f"the clock (no new board after {self.minutes} minutes)"

    def _settle(self, venue: Venue) -> None:
        def step_all() -> None:
            for device in self.devices:
                device.step()

        def unsettled() -> list[str]:
            return [d.thing for d in self.devices if not d.settled(venue.sent.views, venue.sent.deals)]

        settle(
            step_all,
            venue.quiet,
            lambda: all(d.settled(venue.sent.views, venue.sent.deals) for d in self.devices),
            timeout=max(120.0, 1.0 * len(self.devices)),  # connecting hundreds of devices takes a while
            unsettled=unsettled,
        )

    def _play_round(self, api: ApiClient, venue: Venue, number: int) -> None:
        """Tick by tick: the bots whose decision is due act, everything settles, the clock moves on."""
        api.request("POST", "/events/demo/rounds")
        if self.head_to_head:
            drawn = "the bracket drawn by lot" if number == 1 else "its matches from the bracket"
            self.say(f"Round {number}: {drawn}; commitment published.")
        else:
            self.say(f"Round {number}: dealt; commitment published.")
        self.announced = set()
        last_report = 0.0
        idle_ticks = 0
        deadline = time.monotonic() + self.round_limit
        self._settle(venue)
        reboot_at = (
            self.tick + self.faults.reboot_at_tick if number == 1 and self.faults.reboot_at_tick else None
        )
        while time.monotonic() < deadline:
            if reboot_at is not None and self.tick >= reboot_at:
                reboot_at = None
                self.handsets[0].reboot()  # a paced deal: it comes back with the cards dealt so far
                self.injected["reboots"] += 1
                self._settle(venue)
            due = [h for h in self.handsets if h.due(self.tick)]
            for handset in due:
                if handset.play():
                    self.actions += 1
                    self._inject(handset)
            if due or not self.paced:  # a paced deal's quiet ticks have nothing on its way
                self._settle(venue)
            self._attend_boards(api, venue, number)
            idle = not due and not any(h.deciding(self.tick) for h in self.handsets)
            now = time.monotonic()
            idle_ticks = idle_ticks + 1 if idle else 0
            # Idle ticks are many in a paced deal (nobody decides while the cards come): the round's
            # status is looked at every few of them (counted in ticks: the same clock in every run).
            look = idle and (not self.paced or idle_ticks % IDLE_LOOK == 1)
            if look or now - last_report >= 2.0:
                last_report = now
                status = api.request("GET", f"/events/demo/rounds/{number}")
                if status["status"] == "done":
                    break
                self._progress(status)
                self._matches_ended(status)
            self.clock.advance()
            self.tick += 1
            # Ticks in which nobody is due change nothing but the clock: they pass at once (the clock
            # reaches the same time, the run the same outcome, without settling the venue for each).
            waits = [h.seen_tick + h.think - self.tick for h in self.handsets if h.deciding(self.tick)]
            skip = max(0, min(waits, default=0))
            self.clock.advance(skip * TICK_MS)
            self.tick += skip
            if self.paced and self._sweep_due(venue, number):
                self._settle(venue)  # cards given out (or a decision timed out): views on their way
        else:
            raise RuntimeError(f"round {number} did not finish in {self.round_limit:.0f} s")
        status = api.request("GET", f"/events/demo/rounds/{number}")
        self._progress(status)
        if self.head_to_head:
            self._matches_ended(status)
            through = [
                self.names.get(p, p)
                for t in status["tables"]
                for p in t.get("pairs") or []
                if self._won(t, p)
            ]
            left = "the winner" if len(through) == 1 else f"{len(through)} players through"
            self.say(f"Round {number} done; salt revealed. {left.capitalize()}: {', '.join(through)}")
            return
        standings = api.request("GET", "/events/demo/standings")["standings"]
        if self.match:
            rows = [
                (s["name"] or s["team"], (s["mp"], s["lp"]), f"{s['mp']} MP {s['lp']} LP") for s in standings
            ]
        else:
            rows = [(s.get("name") or s["player"], s["total"], f"{s['total']:.0f}") for s in standings]
        self.say(f"Round {number} done; salt revealed. Leaders: {leaders(rows)}")

    def _attend_boards(self, api: ApiClient, venue: Venue, number: int) -> None:
        """The referee at a table whose electronic board stopped its game (a wrong move sensed): the
        pieces put back where the game has them (the board's button reports the position it senses:
        a new version), then the game resumed through the API, bound to its version as the round's
        status shows it then."""
        for eboard, table in self.eboards:
            if eboard.stops == self.attended.get(eboard.thing, 0):
                continue
            self.attended[eboard.thing] = eboard.stops
            eboard.put_back()
            self._settle(venue)
            status = api.request("GET", f"/events/demo/rounds/{number}")  # the version after the report
            row = next(t for t in status["tables"] if t["table"] == table)
            stopped = next((b for b in row["boards"] if b["status"] == "stopped" and "version" in b), None)
            if stopped is None:
                continue
            self.say(
                f"  round {number}, table {table}: the electronic board stopped the game ({stopped['why']}); "
                "the referee puts the pieces back"
            )
            resume = {
                "kind": "resume",
                "table": table,
                "version": stopped["version"],
                "reason": "the pieces put back where the game has them",
            }
            api.request("POST", "/events/demo/referee", resume)
            self.resumes += 1
            self._settle(venue)
            self.say(f"  round {number}, table {table}: the referee resumed the game; play goes on")

    def _matches_ended(self, status: dict[str, Any]) -> None:
        """A line for each match of a knockout's round that ended since the last look."""
        if self.head_to_head:
            for table in ended_matches(status, self.announced):
                self.say(match_line(status["round"], table, self.names))

    @staticmethod
    def _won(table: dict[str, Any], side: str) -> bool:
        result = (table.get("match") or {}).get("result")
        return result is not None and result["mp"][table["pairs"].index(side)] == max(result["mp"])

    def _sweep_due(self, venue: Venue, number: int) -> bool:
        """The timers' work on the boards that have a card or a decision due now (their devices' last
        views say which): what the venue's sweep would do there, in step with the simulated clock."""
        from deckhand.service.infra.lambda_runtime import runtime
        from deckhand.service.schedule.sweep import sweep_boards

        due = self.clock.now()
        boards = sorted({(self.table_of[t], b) for t, b in venue.sent.due_boards(due) if t in self.table_of})
        return bool(boards) and sweep_boards(runtime(), "demo", number, boards) > 0

    def _failing_handler(self, venue: Venue) -> None:
        """Every n-th device message makes the play handler fail on its first try (a Lambda error):
        the bridge retries it as Lambda retries an asynchronous invocation."""
        handler = venue.bridge.handler
        seen: set[tuple[Any, Any]] = set()
        lock = threading.Lock()  # the bridge's workers call this at once

        def flaky(event: dict[str, Any]) -> dict[str, Any]:
            key = (event.get("thing"), event.get("msg"))
            with lock:
                first = key not in seen
                seen.add(key)
                fail = first and len(seen) % self.faults.handler_fails == 0
                if fail:
                    self.injected["handler_failures"] += 1
            if fail:
                raise RuntimeError("injected failure on the first try")
            return handler(event)

        venue.bridge.handler = flaky

    def _inject(self, handset: BotHandset) -> None:
        """The faults due after this action (Faults): the action is already on its way."""
        n, f = self.actions, self.faults
        if f.concurrent_every and n % f.concurrent_every == 0:
            table, seat = handset.thing.rsplit("-", 1)
            before = next(
                (h for h in self.handsets if h.thing == f"{table}-{(int(seat) - 1) % self.seats}"), None
            )
            shown = before.engine_view() if before is not None else None
            everyone_in = shown is not None and all(n > 0 for n in shown.get("counts", [1]))
            if (
                before is not None
                and shown is not None
                and shown["phase"] == "play"
                and everyone_in
                and before.app.ready()
            ):
                # Not its turn, before or after this action: its prompt offers nothing, so the action
                # goes out as a faulty handset would send it, and is refused. (While every seat holds
                # cards the seat before never acts next; once one is out — a game of pairs plays on —
                # the lead may pass to it, as to a partner by passing wind, so none is pressed then.)
                before.app.act({"k": "pass"})
                self.injected["concurrent"] += 1
        if f.race_declarations and handset.decision is not None and handset.decision.kind == "declare":
            self._race(handset)
        if f.duplicate_every and n % f.duplicate_every == 0 and handset.redeliver():
            self.injected["duplicates"] += 1
        if f.drop_every and n % f.drop_every == 0 and handset.conn.client is not None:
            handset.conn.client.drop()  # before the acknowledgement can come back
            self.injected["drops"] += 1

    def _race(self, handset: BotHandset) -> None:
        """Another seat of the table presses Declare with the first card its prompt lets it choose."""
        table = self.table_of.get(handset.thing)
        for other in self.handsets:
            if other is handset or self.table_of.get(other.thing) != table or not other.app.ready():
                continue
            ask = other.app.ask()
            option = next((o for o in (ask or {}).get("o", []) if o["a"]["k"] == "declare"), None)
            places = (ask or {}).get("s") or []
            if option is not None and places:
                other.app.act(option["a"], [other.app.hand()[places[0]]])
                self.injected["races"] += 1
                return

    def _progress(self, status: dict[str, Any]) -> None:
        waiting = sum(1 for t in status["tables"] if all(b["status"] == "ended" for b in t["boards"]))
        stopped = sum(1 for t in status["tables"] for b in t["boards"] if b["status"] == "stopped")
        if "matches_total" in status:
            boards = sum(1 for t in status["tables"] for b in t["boards"] if b["status"] == "ended")
            line = (
                f"  round {status['round']}: matches {status['matches_done']}/{status['matches_total']} "
                f"done ({boards} boards played)"
            )
        else:
            line = f"  round {status['round']}: boards {status['boards_done']}/{status['boards_total']} done"
        if waiting:
            line += f", {waiting} table(s) waiting for the others"
        if stopped:
            line += f", {stopped} board(s) stopped for a referee"
        if line != self._last_line:
            self.say(line)
            self._last_line = line

    def _finish(self, api: ApiClient) -> dict[str, Any]:
        export = api.request("GET", "/events/demo/export?format=json")
        rounds = export["rounds"]  # every round is done: each one's commitment and salt
        document = {
            "event": export["event"],
            "players": export.get("players", []),
            "results": export["results"],
            "standings": export["standings"],
            "rounds": rounds,
        }
        self.out.mkdir(parents=True, exist_ok=True)
        if self.head_to_head:
            title = f"Deckhand demo event ({game(self.ruleset).name}) — results"
            return finish_knockout(self.out, export, title, self.say, self._write_site)
        if self.match:
            return self._finish_matches(export, rounds)
        (self.out / "results.json").write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        (self.out / "standings.csv").write_text(standings_csv(export["standings"]))
        (self.out / "results.csv").write_text(board_results_csv(export["standings"]))
        commitments = "".join(
            f'<tr><td>{r["round"]}</td><td class="name"><code>{r["commitment"]}</code></td>'
            f'<td class="name"><code>{r["salt"]}</code></td></tr>'
            for r in rounds
        )
        extra = (
            '<table id="commitments"><caption>Deal commitments (published at the start of each round) and '
            "their reveal (salt, published at its end)</caption><thead><tr><th>Round</th><th>SHA-256 "
            f"commitment</th><th>Salt</th></tr></thead><tbody>{commitments}</tbody></table>"
        )
        (self.out / "results.html").write_text(
            results_html(
                export["standings"],
                title=f"Deckhand demo event ({game(self.ruleset).name}) — results",
                extra_sections=extra,
            )
        )
        self._write_site(document)
        self.say("\nFinal standings")
        final = export["standings"]["standings"]
        width = max((len(s.get("name") or "") for s in final), default=0)
        for s in final:
            decided = f"  (tie-break: {s['tie_break']})" if s["tie_break"] else ""
            name = f"  {s.get('name') or '':<{width}}" if width else ""
            self.say(f"  {s['place']:>2}. {s['player']}{name}  {s['total']:>10.2f}{decided}")
        return document

    def _write_site(self, document: dict[str, Any]) -> None:
        """The results site beside the files (docs/results-site.md): open site/index.html."""
        from ..site.build import build_site

        pages = [f for f in build_site(document, self.out / "site") if f.suffix == ".html"]
        self.say(f"Results site: {self.out / 'site' / 'index.html'} ({len(pages)} pages)")

    def _finish_matches(self, export: dict[str, Any], rounds: list[dict[str, Any]]) -> dict[str, Any]:
        """A match event's files: results.json (every match board by board, the standings), a CSV per
        match, per board and of the standings, and the results page."""
        results = export["results"]
        document = {
            "event": export["event"],
            "pairs": export.get("pairs", []),
            "ruleset": results["ruleset"],
            "matches": results["matches"],
            "standings": results["standings"],
            "deals": results["deals"],
            "rounds": rounds,
        }
        (self.out / "results.json").write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        (self.out / "results.csv").write_text(match_results_csv(results))
        (self.out / "boards.csv").write_text(match_boards_csv(results))
        (self.out / "standings.csv").write_text(match_standings_csv(results))
        (self.out / "results.html").write_text(
            match_results_html(results, f"Deckhand demo event ({game(self.ruleset).name}) — results")
        )
        self._write_site(document)
        self.say("\nFinal standings")
        for s in results["standings"]:
            self.say(
                f"  {s['place']:>2}. {s['name']}  {s['mp']:>2} MP  {s['lp']:>3} LP  (decided by {s['decided_by']})"
            )
        return document

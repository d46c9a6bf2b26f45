"""Online players at the venue's scale (issue 41): simulated players on their own devices, each an MQTT
client over WebSocket to the local venue's Aedes broker — the player page's path (docs/client.md) —
admitted by the join link the organiser issued (client id and username ``web-<link id>``, the token
as password), playing an online Big Two event (no venue tables: four players a table).

Each player acts when its screen asks it to, after a think time drawn from an exponential law
(mean ``--think`` s, seeded; a decision with a clock is made a second before it runs out), and
chooses from the screen alone as a person would: "no" to every yes/no, pass when it may, else a
single card (the 3♦ when it holds it, else its highest). The acknowledgement latency is the time
from the action's publish to the server's ``ack`` or ``reject`` for that message id; an action with
no answer within 10 s is lost (it is resent with its id every 5 s, as the page does); after the run
the stored boards are audited: every acknowledged action on a board's log once.

Run (under ``nice -n 19`` on a shared machine)::

    python bench/online_bench.py --players 1000 --seconds 120
    python bench/online_bench.py --ramp 100,250,500,1000,1500,2000 --seconds 90

The venue runs as ``deckhand venue`` in a process of its own (Aedes, DynamoDB Local on disk), a
fresh one per field; this process holds every player in one thread (paho-mqtt's clients driven by
one selector). Prints the figures, the CPU of each process, and per field of a ramp one line;
asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import heapq
import json
import os
import random
import selectors
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

EVENT = "online"
LOST_SECONDS = 10.0  # an action with no answer within this is lost
RESEND_SECONDS = 5.0  # the page resends an unanswered action every 5 s with its message id
FIRST_PAUSE, LONGEST_PAUSE = 1.0, 30.0  # the page's reconnect backoff, s
STEADY_AFTER = 30.0  # s after the round's start: its deal and the show and double decisions are behind
TARGET_MS = 100.0  # the aim for the median
FIRST_LEAD = "D3"  # Big Two: the first lead holds the 3♦ (its holder leads first)


def choose(view: dict[str, Any]) -> dict[str, Any] | None:
    """The action a player picks from its screen alone (no engine view: the device gets none): "no"
    to a yes/no, pass when it may; leading, the 3♦ when held, else the highest single (always legal,
    the seat before a last card included)."""
    ask = view.get("ask")
    if not ask or view.get("st") != "playing":
        return None
    actions: list[dict[str, Any]] = [o["a"] for o in ask["o"]]
    plain = [a for a in actions if not a.get("c") and not a.get("q")]
    if plain:
        return dict(next((a for a in plain if a.get("v", 0) == 0), plain[-1]))
    hand: list[str] = view["h"]
    allowed = ask.get("s") or list(range(len(hand)))
    card = FIRST_LEAD if FIRST_LEAD in hand else hand[allowed[-1]]
    return {**{k: v for k, v in actions[0].items() if k != "c"}, "c": [card]}


@dataclass
class Sent:
    first: float  # monotonic time of its first publish
    last: float
    body: bytes


@dataclass
class Tally:
    """What the players saw, for the whole run."""

    latencies: list[tuple[float, float]] = field(default_factory=list)  # (sent at, seconds to its answer)
    accepted: set[tuple[str, str]] = field(default_factory=set)  # (thing, msg) acknowledged
    rejects: Counter[str] = field(default_factory=Counter)
    dup_acks: int = 0
    resends: int = 0
    sent: int = 0
    views: int = 0
    refusals: Counter[str] = field(default_factory=Counter)  # failed tries to connect, by reason
    disconnects: int = 0


class Player:
    """One player's device: connects, says hello, and acts on its screen after its think time."""

    def __init__(self, swarm: Swarm, thing: str, token: str, seed: int) -> None:
        self.swarm = swarm
        self.thing = thing
        self.rng = random.Random(seed)
        self.view: dict[str, Any] | None = None
        self.acted: tuple[str, int] | None = None  # (board, version) of the view last acted on
        self.needs: tuple[str, int] | None = None  # an ack's board and version: older views are stale
        self.pending: dict[str, Sent] = {}
        self.thinking = False
        self.ready = False  # connected, subscribed, its hello answered
        self.counter = 0
        self.connects = 0
        self.pause = 0.0  # seconds before the next try to connect (0: connected)
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=thing,
            transport="websockets",
            protocol=mqtt.MQTTv311,
            clean_session=True,
        )
        client.username_pw_set(thing, token)
        client.ws_set_options(path="/")
        client.on_connect = self._on_connect
        client.on_subscribe = self._on_subscribe
        client.on_message = self._on_message
        client.on_disconnect = self._on_disconnect
        client.on_socket_open = lambda c, u, sock: swarm.selector.register(sock, selectors.EVENT_READ, self)
        client.on_socket_close = lambda c, u, sock: swarm.forget(sock)
        client.on_socket_register_write = lambda c, u, sock: swarm.writers.add(self)
        client.on_socket_unregister_write = lambda c, u, sock: swarm.writers.discard(self)
        self.client = client

    def connect(self) -> None:
        """Connect (or again, after a refusal or a lost link: the page's backoff, 1 s doubling to 30 s)."""
        if self.swarm.closing:
            return
        self.connects += 1
        try:
            if self.connects > 1:
                self.client.reconnect()
            else:
                self.client.connect(self.swarm.host, self.swarm.port, keepalive=30)
        except (OSError, ValueError) as exc:
            self.swarm.tally.refusals[type(exc).__name__] += 1
            self._again()

    def _again(self) -> None:
        self.pause = min(LONGEST_PAUSE, self.pause * 2) if self.pause else FIRST_PAUSE
        self.swarm.later(self.pause, self.connect)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            self.swarm.tally.refusals[str(reason)] += 1
            return  # the broker closes the connection: _on_disconnect tries again
        self.pause = 0.0
        client.subscribe(f"dh/{self.thing}/down", qos=1)

    def _on_subscribe(self, client: Any, *args: Any) -> None:
        """Hello on every connect, and every unanswered action sent again with its id (as the page)."""
        for msg in [m for m in self.pending if m.startswith("h")]:
            del self.pending[msg]
        unanswered = list(self.pending.values())
        self._publish({"t": "hello", "lang": "en"}, hello=True)
        for sent in unanswered:
            sent.last = time.monotonic()
            self.swarm.tally.resends += 1
            client.publish(f"dh/{self.thing}/up", sent.body, qos=1)

    def _on_disconnect(self, *args: Any) -> None:
        if not self.swarm.closing:
            self.swarm.tally.disconnects += 1
            self._again()

    def _publish(self, body: dict[str, Any], hello: bool = False) -> None:
        self.counter += 1
        msg = f"{'h' if hello else 'a'}{self.counter}"
        data = json.dumps({**body, "msg": msg}, separators=(",", ":")).encode()
        now = time.monotonic()
        self.pending[msg] = Sent(now, now, data)
        if not hello:
            self.swarm.tally.sent += 1
        self.client.publish(f"dh/{self.thing}/up", data, qos=1)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        now = time.monotonic()
        payload = json.loads(message.payload)
        kind = payload.get("t")
        tally = self.swarm.tally
        if kind in ("ack", "reject"):
            msg = payload.get("msg")
            tally.dup_acks += kind == "ack" and bool(payload.get("dup"))  # a copy's answer, first or not
            sent = self.pending.pop(msg, None)
            if sent is None:
                return  # the answer to a resend of an action answered already
            if msg.startswith("h"):
                self.ready = True
            else:
                tally.latencies.append((sent.first, now - sent.first))
                if kind == "ack":
                    tally.accepted.add((self.thing, msg))
                    if self.acted is not None and "v" in payload:
                        self.needs = (self.acted[0], payload["v"])
                else:
                    tally.rejects[payload.get("code", "?")] += 1
            self.consider()
        elif kind == "view":
            tally.views += 1
            old = self.view
            if old is None or old["b"] != payload["b"] or old["v"] <= payload["v"]:
                self.view = payload
            self.consider()

    def _current(self) -> dict[str, Any] | None:
        """The view to decide on now, if any: newer than the last acted on and than the last ack."""
        view = self.view
        if view is None or self.pending or self.swarm.stopping:
            return None
        key = (view["b"], view["v"])
        if key == self.acted or (self.needs and self.needs[0] == view["b"] and view["v"] < self.needs[1]):
            return None
        return view if choose(view) is not None else None

    def consider(self) -> None:
        """A new screen or answer: think before acting on it (one decision at a time)."""
        view = self._current()
        if view is None or self.thinking:
            return
        think = self.rng.expovariate(1 / self.swarm.think) if self.swarm.think > 0 else 0.0
        if view.get("dl"):
            think = min(think, max(0.0, view["dl"] / 1000 - 1.0))
        self.thinking = True
        self.swarm.later(think, self.act)

    def act(self) -> None:
        self.thinking = False
        view = self._current()
        if view is None:
            return
        action = choose(view)
        assert action is not None
        self.acted = (view["b"], view["v"])
        self._publish({"t": "act", "board": view["b"], "r": view["r"], "a": action})

    def resend(self, now: float) -> None:
        for msg, sent in self.pending.items():
            if now - sent.last >= RESEND_SECONDS and self.client.is_connected():
                sent.last = now
                self.swarm.tally.resends += not msg.startswith("h")
                self.client.publish(f"dh/{self.thing}/up", sent.body, qos=1)


class Swarm:
    """Every player in one thread: a selector over their WebSockets, and a heap of timers."""

    def __init__(
        self, host: str, port: int, links: Iterable[tuple[str, str]], think: float, seed: int
    ) -> None:
        self.host = host
        self.port = port
        self.think = think
        self.selector = selectors.DefaultSelector()
        self.writers: set[Player] = set()
        self.timers: list[tuple[float, int, Callable[[], None]]] = []
        self.stopping = False
        self.closing = False
        self.tally = Tally()
        self._order = 0
        self.players = [
            Player(self, thing, token, seed * 1_000_003 + n) for n, (thing, token) in enumerate(links)
        ]

    def later(self, seconds: float, call: Callable[[], None]) -> None:
        self._order += 1
        heapq.heappush(self.timers, (time.monotonic() + seconds, self._order, call))

    def forget(self, sock: Any) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(sock)

    def connect_all(self, per_second: float, timeout: float = 300) -> float:
        """Connect every player (``per_second`` at most) until each has its hello answered; seconds taken."""
        start = time.monotonic()
        for n, player in enumerate(self.players):
            self.later(n / per_second, player.connect)
        self.run_until(lambda: all(p.ready for p in self.players), timeout)
        if not all(p.ready for p in self.players):
            ready = sum(p.ready for p in self.players)
            raise RuntimeError(
                f"{ready} of {len(self.players)} players connected ({dict(self.tally.refusals)})"
            )
        self.tally.disconnects = 0  # refused tries closed their connections: count the playing's only
        return time.monotonic() - start

    def run_until(self, done: Callable[[], bool], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        housekeeping = 0.0
        while not done() and time.monotonic() < deadline:
            self.step()
            now = time.monotonic()
            if now - housekeeping >= 1.0:
                housekeeping = now
                for player in self.players:
                    if player.client.socket() is not None:
                        player.client.loop_misc()
                        player.resend(now)

    def step(self) -> None:
        now = time.monotonic()
        wait = 0.05 if not self.timers else min(0.05, max(0.0, self.timers[0][0] - now))
        for key, _ in self.selector.select(wait) if self.selector.get_map() else ():
            key.data.client.loop_read()
        now = time.monotonic()
        while self.timers and self.timers[0][0] <= now:
            _, _, call = heapq.heappop(self.timers)
            call()
        for player in list(self.writers):
            player.client.loop_write()
        if not self.selector.get_map():
            time.sleep(wait)

    def play(self, seconds: float, enough: Callable[[], bool] = lambda: False) -> None:
        """Play for ``seconds`` (or until ``enough``), then stop deciding and wait (up to the loss
        limit) for the answers."""
        self.run_until(enough, seconds)
        self.stopping = True
        self.run_until(lambda: not any(p.pending for p in self.players), LOST_SECONDS + 5)

    def close(self) -> None:
        self.closing = True
        for player in self.players:
            player.client.disconnect()
        self.run_until(lambda: not self.writers, 2)


@dataclass
class Figures:
    players: int
    connections: int
    connect_s: float
    actions: int
    answered: int
    median_ms: float
    p90_ms: float
    p99_ms: float
    lost: int
    unanswered: int  # of the lost: never answered (the others were answered late)
    rejects: Counter[str]
    refusals: Counter[str]
    disconnects: int
    resends: int
    dup_acks: int
    audit: dict[str, int]
    cpu: dict[str, float]  # process → cores used over the run
    threads: list[tuple[str, float]]  # the venue's busiest threads → cores
    load: tuple[float, float]  # load average (1 min) at the start and the end
    seconds: float
    windows: list[tuple[int, int, float, float]]  # (start s, answers, median ms, p99 ms)
    steady: tuple[int, float, float]  # after STEADY_AFTER: answers, median ms, p99 ms
    round_item: tuple[int, float]  # bytes, median ms of a read


def percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))] if ordered else float("nan")


def summarise(swarm: Swarm, began: float) -> dict[str, Any]:
    """The players' side of the figures: latencies over the whole run and per 10 s window, losses."""
    tally = swarm.tally
    late = [s for _, s in tally.latencies if s > LOST_SECONDS]
    unanswered = sum(1 for p in swarm.players for m in p.pending if m.startswith("a"))
    ordered = sorted(s * 1000 for _, s in tally.latencies)
    windows = []
    by_window: dict[int, list[float]] = {}
    for at, s in tally.latencies:
        by_window.setdefault(int((at - began) // 10) * 10, []).append(s * 1000)
    for start, values in sorted(by_window.items()):
        values.sort()
        windows.append((start, len(values), statistics.median(values), percentile(values, 0.99)))
    steady = sorted(s * 1000 for at, s in tally.latencies if at - began >= STEADY_AFTER)
    return {
        "steady": (
            len(steady),
            statistics.median(steady) if steady else float("nan"),
            percentile(steady, 0.99),
        ),
        "actions": tally.sent,
        "answered": len(ordered),
        "median_ms": statistics.median(ordered) if ordered else float("nan"),
        "p90_ms": percentile(ordered, 0.90),
        "p99_ms": percentile(ordered, 0.99),
        "lost": len(late) + unanswered,
        "unanswered": unanswered,
        "windows": windows,
    }


class CpuMeter:
    """CPU seconds of processes (and of one process's threads) from /proc, between two readings."""

    TICK = os.sysconf("SC_CLK_TCK")

    def __init__(self, pids: dict[str, int], threads_of: int | None) -> None:
        self.pids = pids
        self.threads_of = threads_of
        self.start = time.monotonic()
        self.before = {name: self._cpu(f"/proc/{pid}/stat") for name, pid in pids.items()}
        self.threads_before = self._threads()

    def _cpu(self, path: str) -> float:
        try:
            fields = Path(path).read_text().rpartition(")")[2].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / self.TICK

    def _threads(self) -> dict[str, float]:
        if self.threads_of is None:
            return {}
        out: dict[str, float] = {}
        for task in Path(f"/proc/{self.threads_of}/task").glob("*"):
            try:
                name = (task / "comm").read_text().strip()
            except OSError:
                continue
            out[f"{name}#{task.name}"] = self._cpu(str(task / "stat"))
        return out

    def read(self) -> tuple[dict[str, float], list[tuple[str, float]]]:
        wall = max(1e-9, time.monotonic() - self.start)
        cores = {
            name: (self._cpu(f"/proc/{pid}/stat") - self.before[name]) / wall
            for name, pid in self.pids.items()
        }
        after = self._threads()
        busy = [(n.split("#")[0], (t - self.threads_before.get(n, 0.0)) / wall) for n, t in after.items()]
        return cores, sorted(busy, key=lambda x: -x[1])[:6]


def start_venue(state: Path) -> tuple[subprocess.Popen[bytes], dict[str, Any]]:
    """``deckhand venue`` (Aedes with its WebSocket listener, DynamoDB Local on disk) in its own process."""
    from deckhand_local.venue.demo_event import free_port

    ports = [str(free_port()) for _ in range(4)]
    process = subprocess.Popen(
        [sys.executable, "-m", "deckhand_local.cli.main", "venue", "--state", str(state), "--fresh"]
        + [
            "--dynamodb-port",
            ports[0],
            "--mqtt-port",
            ports[1],
            "--http-port",
            ports[2],
            "--ws-port",
            ports[3],
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while not (state / "venue.json").exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"the venue did not start: {process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
        time.sleep(0.1)
    return process, json.loads((state / "venue.json").read_text())


def online_event(api: Any, players: int, boards: int) -> list[tuple[str, str]]:
    """An online Big Two event (no venue tables) of ``players``, each with a join link: (thing, token)."""
    api.request(
        "POST",
        "/events",
        {
            "event_id": EVENT,
            "name": "Online bench",
            "ruleset": "bigtwo-2017",
            "grade": "unrated",
            "rounds": 1,
            "boards_per_round": boards,
            "venue": False,
            "start": dt.date.today().isoformat(),
            "seed": "online-bench",
            "deal_seed": "online-bench",
        },
    )
    api.request(
        "POST", f"/events/{EVENT}/players", {"players": [{"id": f"P{i:05d}"} for i in range(players)]}
    )
    links = api.request("POST", f"/events/{EVENT}/links", {})["links"]
    return [(link["thing"], link["url"].rpartition("#t=")[2]) for link in links]


def audit(info: dict[str, Any], accepted: set[tuple[str, str]]) -> dict[str, int]:
    """The stored boards read back from the venue's database: every acknowledged action logged once."""
    from deckhand.service.refereeing.replay_audit import audit_event
    from deckhand.service.storage import models

    os.environ["AWS_ACCESS_KEY_ID"] = info["dynamodb_key"]
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "local")
    models.configure(table_name=info["table"], host=info["dynamodb"], region="us-east-1")
    counts: dict[str, int] = audit_event(EVENT, accepted=accepted)
    return counts


def round_item_cost(reads: int = 20) -> tuple[int, float]:
    """The round item every message of a player device reads whole (its seating places the player):
    its size in bytes and the median ms of a consistent read from this process."""
    from deckhand.service.duplicate.rounds import get_round

    times = []
    for _ in range(reads):
        start = time.perf_counter()
        item = get_round(EVENT, 1)
        times.append((time.perf_counter() - start) * 1000)
    size = len(json.dumps(item.seating)) + len(json.dumps(item.boards))
    return size, statistics.median(times)


def run_field(
    players: int, seconds: float, think: float, seed: int, boards: int, connect_rate: float
) -> Figures:
    from deckhand_local.venue.api_client import ApiClient

    state = Path(tempfile.mkdtemp(prefix="deckhand-online-"))
    venue, info = start_venue(state)
    swarm: Swarm | None = None
    try:
        api = ApiClient(state_dir=state)
        links = online_event(api, players, boards)
        swarm = Swarm("127.0.0.1", info["ws_port"], links, think, seed)
        progress(f"{players} players: venue up, event and links made; connecting")
        connect_s = swarm.connect_all(connect_rate)
        progress(f"connected in {connect_s:.0f} s; starting the round")
        pids = {"venue (python)": info["pid"], "broker (node)": info["broker_pid"]}
        pids["DynamoDB Local (java)"] = info["dynamodb_pid"]
        meter = CpuMeter({**pids, "players (this process)": os.getpid()}, threads_of=info["pid"])
        load_before = os.getloadavg()[0]
        began = time.monotonic()
        starter = threading.Thread(target=api.request, args=("POST", f"/events/{EVENT}/rounds"), daemon=True)
        starter.start()
        swarm.play(seconds)
        progress(f"played {seconds:.0f} s; auditing")
        cpu, threads = meter.read()
        elapsed = time.monotonic() - began
        load_after = os.getloadavg()[0]
        summary = summarise(swarm, began)
        starter.join(30)
        tally = swarm.tally
        return Figures(
            players=players,
            connections=sum(p.ready for p in swarm.players),
            connect_s=connect_s,
            audit=audit(info, tally.accepted),
            round_item=round_item_cost(),
            rejects=tally.rejects,
            refusals=tally.refusals,
            disconnects=tally.disconnects,
            resends=tally.resends,
            dup_acks=tally.dup_acks,
            cpu=cpu,
            threads=threads,
            load=(load_before, load_after),
            seconds=elapsed,
            **summary,
        )
    finally:
        if swarm is not None:
            swarm.close()
        venue.terminate()
        try:
            venue.wait(60)
        except subprocess.TimeoutExpired:
            venue.kill()
        shutil.rmtree(state, ignore_errors=True)


def progress(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def report(f: Figures) -> None:
    print(f"online players over MQTT-over-WebSocket: {f.players} players, {f.players // 4} tables")
    refused = ", ".join(f"{why} {n}" for why, n in f.refusals.most_common()) or "none"
    print(
        f"  connections      {f.connections} (all hellos answered in {f.connect_s:.1f} s); tries refused: {refused}"
    )
    print(f"  disconnects      {f.disconnects} while playing")
    rate = f.actions / f.seconds if f.seconds else 0.0
    print(f"  actions          {f.actions} in {f.seconds:.0f} s ({rate:.1f}/s), answered {f.answered}")
    print(f"  ack latency      median {f.median_ms:.1f} ms, p90 {f.p90_ms:.1f} ms, p99 {f.p99_ms:.1f} ms")
    n, median, p99 = f.steady
    print(f"  after {STEADY_AFTER:.0f} s       {n} answers: median {median:.1f} ms, p99 {p99:.1f} ms")
    rejects = ", ".join(f"{code} {n}" for code, n in f.rejects.most_common()) or "none"
    print(
        f"  lost             {f.lost} (no answer within {LOST_SECONDS:.0f} s; never answered {f.unanswered}); resends {f.resends}; dup acks {f.dup_acks}"
    )
    print(f"  rejects          {rejects}")
    a = f.audit
    print(
        f"  stored log       {a['device_actions']} device actions on {a['boards']} boards; acknowledged but"
        f" not logged {a['lost']}; applied twice {a['doubled']}; replay mismatches {a['replay_mismatches']}"
    )
    print(
        f"  round item       {f.round_item[0] / 1000:.0f} kB read whole by every player message: {f.round_item[1]:.1f} ms a read"
    )
    print("  CPU (cores)      " + ", ".join(f"{name} {c:.2f}" for name, c in f.cpu.items()))
    per = ", ".join(
        f"{name.split()[0]} {c * f.seconds / max(1, f.answered) * 1000:.1f}" for name, c in f.cpu.items()
    )
    print(
        f"  CPU ms/action    {per} (CPU over the run ÷ actions answered: what the machine's load does not change)"
    )
    print("  venue threads    " + ", ".join(f"{name} {c:.2f}" for name, c in f.threads))
    print(f"  load average     {f.load[0]:.1f} at the start, {f.load[1]:.1f} at the end (2 cores)")
    print("  per 10 s         " + "; ".join(f"{s}s: {n} {m:.0f}/{p:.0f}" for s, n, m, p in f.windows))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000, help="players (rounded down to whole tables)")
    parser.add_argument("--ramp", help="fields to run one after another, e.g. 100,250,500,1000,1500,2000")
    parser.add_argument("--seconds", type=float, default=120, help="seconds of play measured per field")
    parser.add_argument("--think", type=float, default=5.0, help="mean think time, s (exponential)")
    parser.add_argument("--boards", type=int, default=2, help="boards of the round")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--connect-rate", type=float, default=100, help="new connections a second")
    args = parser.parse_args()
    fields = [int(n) for n in args.ramp.split(",")] if args.ramp else [args.players]
    rows = []
    for players in fields:
        players -= players % 4
        f = run_field(players, args.seconds, args.think, args.seed, args.boards, args.connect_rate)
        report(f)
        rows.append(f)
        sys.stdout.flush()
    if len(rows) > 1:
        print(
            "ramp: players, actions/s, median ms, p99 ms, lost, twice, cores: venue python / node / java / players"
        )
        for f in rows:
            c = list(f.cpu.values())
            print(
                f"  {f.players:>6} {f.actions / f.seconds:>7.1f} {f.median_ms:>8.1f} {f.p99_ms:>8.1f} {f.lost:>5}"
                f" {f.audit['doubled']:>5}   " + " / ".join(f"{x:.2f}" for x in c)
            )
        held = [f.players for f in rows if f.median_ms <= TARGET_MS]
        print(f"largest field with the median ack within {TARGET_MS:.0f} ms: {max(held) if held else 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

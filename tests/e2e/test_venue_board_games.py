"""Board games through the whole local venue (DynamoDB Local, the broker, the bridge, the handlers) with
the real handset firmware, whose seats pick squares on the grid the server draws (docs/protocol.md,
"Boards"): a Junqi match whose every frame to both handsets is read for the opponent's hidden ranks,
and a Xiangqi match played again with faults (a handset power-cycled, moves delivered twice, a move
racing the clock's warning) that must end exactly as the match without them.

One venue for the module; each event is a knockout of two players at one venue table (one match),
the clock simulated (it moves only when a test moves it), every wait a wait on the venue's work."""

from __future__ import annotations

import datetime as dt
import json
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from deckhand.engines.common.grid import square_names
from deckhand.engines.contract import Action
from deckhand.engines.junqi.pieces import TABLE
from deckhand.engines.junqi.record import CHINESE
from deckhand.engines.junqi.screen import WORDS as JUNQI_WORDS
from deckhand.engines.registry import by_alias, game
from deckhand.service.boards import log as board_log
from deckhand.service.boards import store as board_store
from deckhand.service.boards.round_boards import list_matches
from deckhand.service.infra.clock import set_clock
from deckhand.service.refereeing.replay_audit import audit_event
from deckhand_local.venue.api_client import ApiClient
from deckhand_local.venue.lambdas import call
from deckhand_local.venue.lockstep import SimulatedClock
from deckhand_local.venue.simulated import SimulatedDevice, host_client

TABLE_ID = "T1"
PLAYERS = ("P1", "P2")


@pytest.fixture(scope="module")
def clock():
    """The handlers' clock (they run in this process): it moves only when a test moves it."""
    simulated = SimulatedClock(int(time.time()) * 1000)
    set_clock(simulated.now)
    yield simulated
    set_clock(None)


class Handset(SimulatedDevice):
    """A table's handset on the real firmware that keeps every frame its MQTT client receives (the raw
    payloads, before the firmware parses them), and whose buttons are pressed for its player."""

    def __init__(self, thing: str, venue: Any, state: Path) -> None:
        self.frames: list[bytes] = []
        super().__init__(thing, "handset", venue.link, state)
        self.conn.make_client = self._recording
        self.acted: tuple[int, str, int] | None = None  # the view (round, board, version) it acted on

    def _recording(self, cfg: dict[str, Any]) -> Any:
        client = host_client(cfg)
        plain = client.set_callback

        def set_callback(callback: Callable[[bytes, bytes], None]) -> None:
            def recorded(topic: bytes, payload: bytes) -> None:
                self.frames.append(bytes(payload))
                callback(topic, payload)

            plain(recorded)

        client.set_callback = set_callback
        return client

    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(frame) for frame in self.frames]

    def press(self, action: Action) -> None:
        """The buttons for ``action``: a move's squares picked on the grid (as their names say), then its
        option and ok; a setup, resignation or other option by its kind (Junqi: the standard setup)."""
        app = self.app
        options = [o["a"] for o in app.options()]
        if action.kind == "move":
            n = next(i for i, a in enumerate(options) if a["k"] == "move")
            cells = square_names(app.message["grid"])
            for field in options[n]["q"]:
                app.on_input(f"sq:{cells[action.data[field]]}")
        elif action.kind == "setup":
            # The standard setup (from the second game on, the same one offered as the player's last).
            labels = [o["l"] for o in app.options()]
            n = next(
                labels.index(JUNQI_WORDS["en"][k])
                for k in ("standard", "mine")
                if JUNQI_WORDS["en"][k] in labels
            )
        else:
            n = next(i for i, a in enumerate(options) if a["k"] == action.kind)
        app.on_input(f"opt:{n}")
        app.on_input("ok")
        assert app.rejection is None, app.rejection


Decide = Callable[[str, dict[str, Any], Handset], Action | None]


class Table:
    """One event at one venue table: its two handsets, what each player does, and waits on the venue."""

    def __init__(self, venue: Any, state: Path, event: str, alias: str, decide: Decide) -> None:
        self.venue, self.event, self.alias, self.decide = venue, event, alias, decide
        self.api = ApiClient(state_dir=state)
        self.things = [f"{event}-{s}" for s in range(2)]
        self.state = state / event
        self.handsets = [Handset(t, venue, self.state / t) for t in self.things]
        self.bot = game(by_alias(alias).ruleset).view_bot("steady")
        self.turns: dict[tuple[str, str], int] = {}  # (board, player) → the turns it was asked
        self.seated: dict[str, list[str]] = {}  # board → its players by seat (devices stay, players swap)

    def register(self) -> None:
        """A knockout of two players (one match) at the venue table with the two handsets."""
        self.api.request(
            "POST",
            "/events",
            {
                "event_id": self.event,
                "name": f"Venue {self.alias}",
                "ruleset": by_alias(self.alias).ruleset,
                "grade": "unrated",
                "rounds": 1,
                "venue": True,
                "start": dt.date.today().isoformat(),
                "seed": f"venue-{self.alias}",
                "deal_seed": f"venue-{self.alias}",
                "match": {"format": "knockout"},
            },
        )
        pairs = [{"id": p, "name": f"Player {p}", "players": [{"id": p}]} for p in PLAYERS]
        self.api.request("POST", f"/events/{self.event}/pairs", {"pairs": pairs})
        tables = [{"id": TABLE_ID, "seats": self.things, "dealer": None}]
        self.api.request("POST", f"/events/{self.event}/tables", {"tables": tables})

    def item(self, board: str) -> Any:
        return board_store.load(self.event, 1, TABLE_ID, board)

    def players(self, board: str) -> list[str]:
        if board not in self.seated:
            self.seated[board] = list(self.item(board).players)
        return self.seated[board]

    def pump(self, until: Callable[[], bool], what: str, timeout: float = 30, step: bool = True) -> None:
        """Step the handsets and let the venue work until ``until()`` holds (``step``: else only look)."""
        deadline = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < deadline, f"not reached in time: {what}"
            if not step:
                time.sleep(0.001)
                continue
            for h in self.handsets:
                h.step()
            self.venue.idle(timeout=0.5)
            time.sleep(0.002)

    def due(self, h: Handset) -> tuple[dict[str, Any], Action] | None:
        """The handset's decision on the view it shows, when its player takes one now."""
        app = h.app
        message = app.message
        if message is None or message["st"] != "playing" or not app.ready() or not app.options():
            return None
        key = (message["r"], message["b"], message["v"])
        if key == h.acted:
            return None
        view = self.venue.sent.seat_view(h.thing, message)
        if view is None:
            return None
        player = self.players(message["b"])[message["s"]]
        action = self.decide(player, view, h)
        if action is None:
            return None
        turn = (message["b"], player)
        self.turns[turn] = self.turns.get(turn, 0) + 1
        h.acted = key
        return message, action

    def step(self, on_press: Callable[[Handset, dict[str, Any], Action], None] | None = None) -> bool:
        """Each handset whose player decides presses its buttons; True if one did."""
        pressed = False
        for h in self.handsets:
            decided = self.due(h)
            if decided is None:
                continue
            message, action = decided
            if on_press is not None:
                on_press(h, message, action)
            else:
                h.press(action)
            pressed = True
        return pressed

    def settled(self) -> bool:
        sent = self.venue.sent.views
        return self.venue.quiet() and all(
            h.conn.connected and len(h.conn.queue) == 0 and h.last_view == sent.get(h.thing)
            for h in self.handsets
        )

    def settle(self) -> None:
        self.pump(self.settled, "the venue and the handsets settled")

    def matches(self) -> list[Any]:
        return [m for m in list_matches(self.event, 1) if m.table]

    def finished(self) -> bool:
        if not any(h.app.message and h.app.message["st"] == "ended" for h in self.handsets):
            return False  # a game in play, or the next one not shown yet
        ms = self.matches()
        return bool(ms) and all(m.result is not None for m in ms)

    def play(
        self,
        idle: Callable[[], None] | None = None,
        on_press: Callable[[Handset, dict[str, Any], Action], None] | None = None,
        limit: int = 600,
    ) -> None:
        """Start the round and play it out: whoever is asked decides; when nobody does, ``idle`` (the
        clock moved on for an idle player)."""
        for h in self.handsets:
            h.step()
        self.pump(lambda: all(h.conn.connected for h in self.handsets), "the handsets connected")
        self.api.request("POST", f"/events/{self.event}/rounds")
        for _ in range(limit):
            self.settle()
            if self.finished():
                return
            if not self.step(on_press) and idle is not None:
                idle()
        raise AssertionError("the match did not finish")

    def games(self) -> list[dict[str, Any]]:
        """Each game: its first mover, winner and why (players), and its moves."""
        (match,) = self.matches()
        out = []
        for b in match.boards:
            item = self.item(b)
            _, board = board_store.engine_of(item)
            result = board.result()
            won = [s for s, score in enumerate(result["scores"]) if score > 0]
            moves = [e.get("d") for e in item.log if e["t"] == "move"]
            out.append(
                {
                    "players": list(item.players),
                    "winner": item.players[won[0]] if won else None,
                    "why": result.get("why"),
                    "moves": moves,
                }
            )
        return out


# -- Junqi: no hidden rank in any frame ---------------------------------------------------------------

JUNQI_IDLE_AFTER = 12  # P2 plays the bot for this many turns of a game, then lets its clock run out
RANK_GLYPHS = {token: str(rank) if rank else token[0].upper() for token, (_, rank) in TABLE.items()}
EMPTY_GLYPHS = {".", "o", "H"}  # a post, a camp, a headquarters with no piece on it
# The pieces' names in both languages: none may name an opponent's piece anywhere in a frame (the legend
# names the ranks the seat's own pieces are drawn by: it is left out).
RANK_WORDS = re.compile("|".join([rf"\b{t}\b" for t in TABLE] + list(CHINESE.values())), re.IGNORECASE)
LEGENDS = {words["legend"] for words in JUNQI_WORDS.values()}


def junqi_player(table: Table) -> Decide:
    def decide(player: str, view: dict[str, Any], h: Handset) -> Action | None:
        if view["phase"] == "setup":
            return Action(view["seat"], "setup")  # the handset's "standard setup" option
        board = h.app.message["b"]
        if player == "P2" and table.turns.get((board, player), 0) >= JUNQI_IDLE_AFTER:
            return None  # idle: its clock times its turns out, the fifth loses the game
        return table.bot(view)

    return decide


def snapshots(item: Any) -> list[tuple[str, list[Any], list[int | None]]]:
    """The game after each of its logged actions (the first: before any), replayed through the engine
    from the board's log: its phase, every piece by square (both sides') and each side's shown flag."""
    g = game(item.ruleset)
    board = g.new_board([], item.carry)
    out = [(board.phase, list(board.cells), [board.flag_shown(s) for s in (0, 1)])]
    for entry in item.log:
        if entry["t"] in board_log.NOT_ACTIONS:
            continue
        board.apply(
            Action(entry["s"], entry["t"], (), entry.get("v", 0), bool(entry.get("to")), entry.get("d"))
        )
        out.append((board.phase, list(board.cells), [board.flag_shown(s) for s in (0, 1)]))
    assert board.to_json() == item.state  # the log replays to the stored game
    return out


def grid_glyphs(grid: dict[str, Any]) -> dict[str, str]:
    """Each square's glyph on the handset's grid, by the square's name."""
    w = grid["w"]
    return {name: grid["r"][cell // w][cell % w] for name, cell in square_names(grid).items()}


def strings(value: Any) -> list[str]:
    """Every string in a message: keys and values, at any depth."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def hidden_ranks_shown(table: Table, h: Handset, seat_of: Callable[[str], int]) -> list[str]:
    """What the frames ``h`` received tell of the opponent's pieces' ranks (nothing, as it must be).

    Each view is matched, in the order it came, to the game's position it shows (the first position
    from the one before, replayed from the log, whose squares with a piece the seat sees are the grid's
    pieces); then every square of an opponent's piece must show ``?`` (its flag, once the rules show it,
    ``f``) and every own piece its rank; and no frame names a piece anywhere, the legend aside."""
    from deckhand.engines.junqi.geometry import NAMES

    found: list[str] = []
    games: dict[str, list[tuple[str, list[Any], list[int | None]]]] = {}
    at: dict[str, int] = {}
    for message in h.messages():
        words = [s for s in strings(message) if s not in LEGENDS]
        found += [f"{message.get('t')} {message.get('b')}: {s!r}" for s in words if RANK_WORDS.search(s)]
        if message.get("t") != "view" or "grid" not in message:
            continue
        b = message["b"]
        if b not in games:
            games[b] = snapshots(table.item(b))
            at[b] = 0
        seat = seat_of(b)
        glyphs = grid_glyphs(message["grid"])
        shown = {sq for sq, g in glyphs.items() if g not in EMPTY_GLYPHS}

        def seen(snapshot: tuple[str, list[Any], list[int | None]], seat: int = seat) -> set[str]:
            phase, cells, _ = snapshot
            return {NAMES[i] for i, c in enumerate(cells) if c and (c[0] == seat or phase != "setup")}

        k = next((k for k in range(at[b], len(games[b])) if seen(games[b][k]) == shown), None)
        if k is None:
            found.append(f"view {b} v{message['v']}: a grid that shows no position of the game")
            continue
        at[b] = k
        phase, cells, flags = games[b][k]
        for i, cell in enumerate(cells):
            if cell is None or NAMES[i] not in shown:
                continue
            side, token = cell
            glyph = glyphs[NAMES[i]]
            if side == seat:
                assert glyph == RANK_GLYPHS[token], (b, NAMES[i], glyph, token)
            elif glyph != ("f" if flags[side] == i else "?"):
                found.append(f"view {b} v{message['v']}: {NAMES[i]} shows {glyph!r} (a {token})")
    return found


def test_no_frame_to_either_junqi_seat_tells_an_opponent_rank(venue, clock):
    """Every frame both handsets receive, from the round's start to the match's end, read raw: each view
    is matched to the engine's position (replayed from the board's log), and no square of an opponent's
    piece shows more than ``?``, no frame names any piece. The rules reveal nothing to a handset during
    the game but each ply's squares and battle outcome (D12) and a side's flag once its marshal is gone
    (D8, drawn ``f``); the end reveals nothing either: the ranks are told only in the game's record on
    the results site, after the game."""
    venue, state = venue
    table = Table(venue, state, "bgjq", "junqi", lambda *_: None)
    table.decide = junqi_player(table)
    table.register()
    move_ms = game(by_alias("junqi").ruleset).new_board([], None).options.move_seconds * 1000

    def let_clock_run() -> None:
        clock.advance(move_ms)
        call(venue.handlers["timers"], "timers", {"source": "local.schedule"})

    table.play(idle=let_clock_run)
    games = table.games()
    assert len(games) == 2 and all(g["winner"] == "P1" and g["why"] == "time" for g in games), games
    assert {g["players"][0] for g in games} == set(PLAYERS)  # the first move swapped in game 2
    assert all(len(g["moves"]) > 2 * JUNQI_IDLE_AFTER for g in games)
    for b in table.matches()[0].boards:  # pieces met: the frames told battles' outcomes, never ranks
        assert any(":" in ply for ply in board_store.engine_of(table.item(b))[1].log)
    for thing, h in zip(table.things, table.handsets, strict=True):
        views = [m for m in h.messages() if m.get("t") == "view"]
        assert len({m["b"] for m in views}) == 2 and views[-1]["st"] == "ended"

        seats = {b: table.item(b).devices.index(thing) for b in table.matches()[0].boards}
        assert hidden_ranks_shown(table, h, seats.__getitem__) == []


# -- Xiangqi: faults change nothing ------------------------------------------------------------------

XIANGQI_RESIGN_AT = 4  # P2 moves at three turns of a game and resigns at its fourth: P1 wins 2–0


def xiangqi_player(table: Table) -> Decide:
    """Each player's move picked among the legal ones by the number of moves played (the same position
    gets the same move, with or without faults; the search bot would cost most of the test's time)."""

    def decide(player: str, view: dict[str, Any], h: Handset) -> Action | None:
        b = h.app.message["b"]
        if player == "P2" and table.turns.get((b, player), 0) + 1 >= XIANGQI_RESIGN_AT:
            return Action(view["seat"], "resign")
        item = table.item(b)
        _, board = board_store.engine_of(item)
        moves = [a for a in board.legal_actions(view["seat"]) if a.kind == "move"]
        assert moves, ("the seat asked has no move in the stored game", view["seat"], item.log[-3:])
        return moves[7 * sum(1 for e in item.log if e["t"] == "move") % len(moves)]

    return decide


@pytest.fixture(scope="module")
def clean_xiangqi(venue):
    """The match without faults."""
    venue, state = venue
    table = Table(venue, state, "bgxq", "xiangqi", lambda *_: None)
    table.decide = xiangqi_player(table)
    table.register()
    table.play()
    return table.games()


class Faults:
    """The faults of the match, by each game's press (1 first): a move racing the clock's warning
    (``RACES``), a handset power-cycled right after it pressed, its move not yet answered
    (``REBOOT``), and once its move was answered and shown (``REBOOT_SHOWN``: only its hello can
    bring its screen back), and every other press delivered twice as a QoS 1 redelivery would."""

    # The sweep set going as the move is pressed, and the move reaching the bridge as the sweep starts.
    RACES = {("1", 2): "sweep", ("2", 5): "move"}
    REBOOT = ("1", 5)
    REBOOT_SHOWN = ("2", 3)

    def __init__(self, table: Table, clock: SimulatedClock) -> None:
        self.table, self.clock = table, clock
        self.presses: dict[str, int] = {}
        self.injected = {"races": 0, "reboots": 0, "duplicates": 0}
        self.raced: list[tuple[str, int, str]] = []  # (board, seat, the move's message id)
        self.rebooted: list[Handset] = []
        self.retired: list[Handset] = []  # the firmware before its power cycle, with what it received

    def __call__(self, h: Handset, message: dict[str, Any], action: Action) -> None:
        b = message["b"]
        self.presses[b] = self.presses.get(b, 0) + 1
        press = (b, self.presses[b])
        if press in self.RACES:
            self.race(h, message, action)
        elif press == self.REBOOT:
            h.press(action)
            self.power_cycle(h)
        elif press == self.REBOOT_SHOWN:
            h.press(action)
            self.table.settle()
            shown = h.app.message
            again = self.power_cycle(h)
            # Nobody acts meanwhile: the screen it gets back is its hello's answer.
            self.table.pump(lambda: again.app.message is not None, "the screen back after the hello")
            assert again.app.message == shown
        else:
            h.press(action)
            if self.presses[b] % 2 and h.redeliver():
                self.injected["duplicates"] += 1

    def race(self, h: Handset, message: dict[str, Any], action: Action) -> None:
        """The clock at the move's time limit exactly: the timers' sweep gives the warning while the
        move goes through the broker and the bridge — two threads of the venue at once."""
        venue = self.table.venue
        item = self.table.item(message["b"])
        self.clock.ms = item.deadline
        go = threading.Event()

        def sweep() -> None:
            go.wait()
            call(venue.handlers["timers"], "timers", {"source": "local.schedule"})

        sweeper = threading.Thread(target=sweep)
        sweeper.start()
        if self.RACES[(message["b"], self.presses[message["b"]])] == "sweep":
            go.set()
            h.press(action)
        else:
            received = venue.bridge.received
            h.press(action)
            self.table.pump(lambda: venue.bridge.received > received, "the move at the bridge", step=False)
            go.set()
        sweeper.join()
        self.injected["races"] += 1
        self.raced.append((message["b"], message["s"], h.conn.queue.pending()[-1]["msg"]))
        self.table.settle()
        self.views_agree(message["b"])

    def views_agree(self, b: str) -> None:
        """Both handsets show the board's stored version, with the warnings the engine counts."""
        item = self.table.item(b)
        _, board = board_store.engine_of(item)
        for h in self.table.handsets:
            assert h.last_view == (b, item.version)
            seat_view = self.table.venue.sent.seat_view(h.thing, h.app.message)
            assert seat_view["warnings"] == list(board.warnings)
        screens = [[line for line in h.app.message["l"] if "warning" in line] for h in self.table.handsets]
        assert screens[0] == screens[1] == ([] if not any(board.warnings) else screens[0]) and (
            any(board.warnings) == bool(screens[0])
        )

    def power_cycle(self, h: Handset) -> Handset:
        """The handset's process killed right after it pressed (its link dies without a goodbye) and
        started again from its flash: a new firmware on the same state folder, which says hello."""
        assert h.conn.client is not None
        h.conn.client.drop()
        self.retired.append(h)
        again = Handset(h.thing, self.table.venue, h.state)
        self.table.handsets[self.table.handsets.index(h)] = again
        self.rebooted.append(again)
        self.injected["reboots"] += 1
        return again


def test_faults_on_a_xiangqi_match_change_nothing(venue, clock, clean_xiangqi):
    """A handset power-cycled mid-game, twice (killed right after it pressed: it says hello, resends its
    move from flash and plays on; and killed once its move was shown: its hello alone brings its screen
    back, the same screen), every other move delivered twice (applied once: the server answers the copy
    as a duplicate, nothing is refused), and twice a move racing the clock's warning from the timers'
    sweep at the move's time limit exactly. At the limit the move's own handler gives the due warning
    before applying the move, so whichever thread wins the log holds one warning, then the move: what
    the race proves is one order applied — the warning not given twice (by the sweep and the handler),
    none given after the move, the move once — and both handsets showing the board's stored version
    with the engine's warnings. The match ends exactly as without the faults (each game's players,
    winner, reason and moves), and every game's log replays through the engine to its stored state and
    result (the replay audit)."""
    venue, state = venue
    table = Table(venue, state, "bgxf", "xiangqi", lambda *_: None)
    table.decide = xiangqi_player(table)
    table.register()
    faults = Faults(table, clock)
    table.play(on_press=faults)
    assert faults.injected["races"] == 2 and faults.injected["reboots"] == 2
    assert faults.injected["duplicates"] >= 4
    games = table.games()
    assert games == clean_xiangqi
    assert [g["winner"] for g in games] == ["P1", "P1"] and all(g["why"] == "resignation" for g in games)
    audit = audit_event(table.event)
    assert audit["boards"] == 2 and audit["device_actions"] > 0
    assert audit["doubled"] == audit["replay_mismatches"] == audit["results_missing"] == 0
    # Every copy was answered as one, and nothing was refused.
    received = [m for h in [*table.handsets, *faults.retired] for m in h.messages()]
    answers = [m for m in received if m.get("t") in ("ack", "reject")]
    assert not [m for m in answers if m["t"] == "reject"]
    assert sum(1 for m in answers if m.get("dup")) >= faults.injected["duplicates"] - 1
    # The rebooted handsets said hello, got their screens back and played on to the match's end.
    for rebooted, b in zip(faults.rebooted, ("1", "2"), strict=True):
        views = [m for m in rebooted.messages() if m.get("t") == "view"]
        assert len(views) > 1 and views[0]["b"] == b  # its screen back, then the game went on
    assert all(h.app.message["st"] == "ended" for h in table.handsets)
    # Each race: its move once in the log, after at most one warning of its seat, and none after it.
    for b, seat, msg in faults.raced:
        log = table.item(b).log
        (at,) = [i for i, e in enumerate(log) if e.get("m") == msg]
        before = [e["t"] for e in log[:at]]
        assert log[at]["t"] == "move" and log[at]["s"] == seat
        assert before[-1] == "move" or (before[-1] == "overtime" and before[-2] == "move"), before[-3:]
        assert at + 1 == len(log) or log[at + 1]["t"] != "overtime"  # no stale warning after it

"""Simulated devices: the real firmware (device/lib) with the host hardware layer, over MQTT.

Handsets are played by the deterministic bot through their buttons (select cards, choose an option
of the prompt the server drew), exactly as a person would press them; a dealing table deals from a
simulated physical deck that holds the board's cards.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .lambdas import repository_root
from .provisioning import VenueLink

if TYPE_CHECKING:
    from deckhand.engines.contract import Action


def firmware_on_path(root: Path | None = None) -> None:
    root = root or repository_root()
    for folder in (root / "device" / "lib", root / "device" / "host"):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))


def host_client(cfg: dict[str, Any]) -> Any:
    """The firmware's MQTT client on the host, connecting as the device's configuration says."""
    from umqtt.simple import MQTTClient

    return MQTTClient(
        cfg["thing"],
        cfg["endpoint"],
        cfg["port"],
        user=cfg.get("username"),
        password=cfg.get("password"),
        keepalive=30,
    )


class SimulatedDevice:
    def __init__(self, thing: str, role: str, link: VenueLink, state: Path, small: bool = False) -> None:
        """``link``: the venue's broker and credentials, from which the device is configured as a
        real one is provisioned; ``small``: its display shows what the ESP32's 128x64 one does."""
        firmware_on_path()
        from deckhand_fw.app import build
        from deckhand_fw.hal.host import HostHal

        self.thing = thing
        self.hal = HostHal(small)
        self.cfg = link.device_config(thing, role)
        self.state = state
        state.mkdir(parents=True, exist_ok=True)
        make_client = host_client

        self.app, self.conn = build(self.cfg, self.hal, make_client, str(state))
        self.last_view: tuple[str, int] | None = None  # the last view (board, version) received
        self.last_deal: str | None = None  # the last board whose deal order was received
        self.received = 0
        self._deliver = self.app.on_message
        self.conn.on_message = self._on_message

    def _on_message(self, message: dict[str, Any]) -> None:
        self.received += 1
        if message.get("t") in ("view", "pos"):  # a handset's view, an electronic board's position
            self.last_view = (message["b"], message["v"])
        elif message.get("t") == "deal":
            self.last_deal = message["b"]
        self._deliver(message)

    def step(self) -> None:
        self.conn.step()

    def reboot(self) -> None:
        """Power off and on: the link dies without a goodbye, and the firmware starts again from what
        it kept in flash (its message ids, its unanswered messages); it says hello on connecting and
        gets its view, as a real handset does."""
        from deckhand_fw.app import build

        if self.conn.client is not None:
            self.conn.client.drop()
        self.app, self.conn = build(self.cfg, self.hal, host_client, str(self.state))
        self._deliver = self.app.on_message
        self.conn.on_message = self._on_message
        self.last_view = None
        self.last_deal = None

    def redeliver(self) -> bool:
        """Send the last unanswered message once more, same id: what a QoS 1 redelivery looks like."""
        pending = self.conn.queue.pending()
        if not pending or self.conn.client is None:
            return False
        self.conn.send_again(pending[-1])
        return True

    def settled(self, views: dict[str, tuple[str, int]], deals: dict[str, str]) -> bool:
        """Connected, nothing unanswered, and the last view and deal sent to it have arrived."""
        return (
            self.conn.connected
            and len(self.conn.queue) == 0
            and self.last_view == views.get(self.thing)
            and self.last_deal == deals.get(self.thing)
        )


class SeatViews(Protocol):
    """Where a simulated handset's bot reads the engine's own view of its seat, kept by the server's
    publisher next to each view message (``lockstep.LastSent``): the device itself gets the screen only."""

    def seat_view(self, thing: str, message: dict[str, Any]) -> dict[str, Any] | None: ...


class BoardMoves(Protocol):
    """The table's electronic board, where the players make their moves (``board_hands.TableHands``)."""

    def take(self, key: tuple[str, int, int], action: Action) -> bool:
        """The bot's decision on the view ``key``: True when it is a move, made on the board."""
        ...


def _sends(option: dict[str, Any], action: Action) -> bool:
    """Whether the option sends ``action``: its kind, its value, and the data it carries (a reading a
    refusal offered) agreeing with the action's on every key the option names."""
    a = option["a"]
    if a["k"] != action.kind or a.get("v", action.value) != action.value:
        return False
    data = a.get("d")
    if data is None:
        return True
    mine = action.data if isinstance(action.data, dict) else {}
    return isinstance(data, dict) and all(mine.get(k) == v for k, v in data.items())


def press(app: Any, action: Action) -> bool:
    """Press a handset's buttons for ``action``, as a person would: select its cards (by their place
    in the hand shown; a selection already made is kept, so an offer made for it stays) or pick its
    squares on a board game's grid, highlight the option of the prompt that sends it, then ok. False
    when the prompt offers no such option (nothing is sent)."""
    from deckhand.engines.common.cards import format_cards

    options = app.options()
    wanted = next((n for n, option in enumerate(options) if _sends(option, action)), None)
    if wanted is None:
        wanted = _offered_instead(options, action)
    if wanted is None:
        return False
    if options[wanted]["a"].get("q"):
        pick_squares(app, [action.data[key] for key in options[wanted]["a"]["q"]])
    elif options[wanted]["a"].get("c"):
        hand = app.hand()
        picks: list[int] = []
        for token in format_cards(action.cards):
            picks.append(next(i for i, t in enumerate(hand) if t == token and i not in picks))
        if set(picks) != set(app.selected):
            for i in sorted(app.selected):
                app.on_input(f"sel:{i}")  # start from an empty selection
            for i in picks:
                app.on_input(f"sel:{i}")
    app.on_input(f"opt:{wanted}")
    app.on_input("ok")
    return True


def _offered_instead(options: list[dict[str, Any]], action: Action) -> int | None:
    """The option a person takes when the screen offers a few named choices of the bot's kind but not
    the bot's own (a board game's setups: the handset offers some by number, the bot composes its
    own): the first of them. Only where the options name their data by keys the bot's action does
    not carry at all: a choice the screen does name (a reading of a play) is never replaced."""
    data = action.data
    if not isinstance(data, dict) or not data:
        return None
    return next(
        (
            n
            for n, option in enumerate(options)
            if option["a"]["k"] == action.kind
            and isinstance(option["a"].get("d"), dict)
            and not set(option["a"]["d"]) & set(data)
        ),
        None,
    )


def pick_squares(app: Any, names: list[str]) -> None:
    """Pick a move's squares on the handset's grid by their names, as the firmware names them, in
    order (a square picked before is unpicked first, as a person starts afresh)."""
    from deckhand_fw import board

    grid = app.message["grid"]
    cells = {board.name(grid, cell): cell for cell in board.squares(grid)}
    for cell in list(app.picked):
        app.on_input(f"sq:{cell}")
    for name in names:
        app.on_input(f"sq:{cells[name]}")


def offered(app: Any) -> bool:
    """A refusal offered a choice (a play's readings) for the cards still selected: the decision is
    not taken yet, it is answered from the offer."""
    return getattr(app, "offered", None) is not None and app.ready()


# A player who resigns each game at its first decision, where the game has the word (a test's short
# match through the venue); in a game without it, the player plays the bot's steady style.
RESIGNS = "resigns"
RESIGN = "resign"


class BotHandset(SimulatedDevice):
    """A handset whose buttons are pressed by the deterministic bot of the game its views are of: the
    bot decides from the engine's view of the seat (``views``), and presses the buttons for it."""

    THINK_TICKS = {"bold": 1, "steady": 2, "careful": 3}

    def __init__(
        self,
        thing: str,
        link: VenueLink,
        state: Path,
        style: str = "steady",
        *,
        views: SeatViews,
        player_style: Callable[[str, dict[str, Any]], str] | None = None,
        board: BoardMoves | None = None,
    ) -> None:
        super().__init__(thing, "handset", link, state)
        self.style = style
        self.views = views
        # The table's electronic board: the bot's moves are made on it, the handset shows the screen.
        self.board = board
        # The style of the player seated at this handset for the view shown (a board game's players
        # change seats between the games of a match, the table's handsets stay): None, the handset's.
        self.player_style = player_style
        self.think = self.THINK_TICKS.get(style, 1)
        self.bots: dict[str, Callable[[dict[str, Any]], Action | None]] = {}
        self.acted: tuple[str, int, int] | None = None
        self.seen: tuple[str, int, int] | None = None
        self.seen_tick = 0
        self.decision: Action | None = None
        self.unseen = False  # the engine's view of the current screen was not known when last asked
        self.answered: Any = None  # the last offer a refusal made that the bot answered

    def _offer_open(self) -> bool:
        """A refusal of its decision offered a choice it has not answered yet."""
        return self.decision is not None and offered(self.app) and self.app.offered is not self.answered

    def _current(self) -> tuple[str, int, int] | None:
        message = self.app.message
        if message is None or message["st"] != "playing" or not self.app.ready():
            return None
        return (message["b"], message["r"], message["v"])

    def engine_view(self) -> dict[str, Any] | None:
        """The engine's view of the seat that goes with the view the handset shows."""
        message = self.app.message
        return None if message is None else self.views.seat_view(self.thing, message)

    def _decide(self) -> Action | None:
        from deckhand.engines.registry import DEFAULT, game

        message = self.app.message
        if not self.app.options():
            return None  # nothing asked of this seat
        view = self.engine_view()
        self.unseen = view is None
        if view is None:
            return None  # not known yet (a view read from a database that is restarting): asked again
        ruleset = message.get("g", DEFAULT)
        style = self.style if self.player_style is None else self.player_style(self.thing, message)
        if style == RESIGNS:
            if any(o["a"]["k"] == RESIGN for o in self.app.options()):
                from deckhand.engines.contract import Action

                return Action(message["s"], RESIGN)
            style = "steady"
        key = ruleset if style == self.style else f"{ruleset} {style}"
        if key not in self.bots:
            self.bots[key] = game(ruleset).view_bot(style)
        return self.bots[key](view)

    def deciding(self, tick: int) -> bool:
        """The bot has a decision to take on the view it shows (noting the tick it first saw it), or
        the choice a refusal offered for the decision it took (a play that reads several ways)."""
        key = self._current()
        if key is not None and key == self.acted and self._offer_open():
            return True
        if key is None or key == self.acted:
            return False
        if key != self.seen:
            # A decision not yet taken on the view before (a card arriving while it thinks of declaring):
            # the same decision on the new view is the same thought, its thinking time runs on.
            before = self.decision if self.seen is not None and self.acted != self.seen else None
            self.seen = key
            self.decision = self._decide()
            if before is None or self.decision != before:
                self.seen_tick = tick
        elif self.unseen:
            self.decision = self._decide()
        return self.decision is not None

    def due(self, tick: int) -> bool:
        """Its decision is due: it has been thinking for its style's number of ticks."""
        return self.deciding(tick) and tick >= self.seen_tick + self.think

    def play(self) -> bool:
        """Press the buttons for the bot's decision on the current view; True if it acted."""
        key = self._current()
        if key is not None and key == self.acted and self._offer_open():
            assert self.decision is not None
            self.answered = self.app.offered  # each offer answered once, whatever the answer
            return press(self.app, self.decision)  # the reading it meant, from the refusal's offer
        if key is None or key == self.acted:
            return False
        action = self.decision if key == self.seen else self._decide()
        if action is None:
            return False
        self.decision = action
        self.acted = key
        if self.board is not None and self.board.take(key, action):
            return True  # the player's hands move the piece on the board
        return press(self.app, action)


class DealingTable(SimulatedDevice):
    """Deals from a simulated deck: the cards of each board as the deal order arrives (``misread``
    swaps two cards, as a jammed shoe would)."""

    def __init__(
        self,
        thing: str,
        link: VenueLink,
        state: Path,
        misread_board: str | None = None,
        drops_at: int = 0,
    ) -> None:
        super().__init__(thing, "dealer", link, state)
        self.misread_board = misread_board
        self.redeal_pending = False
        self.misreads = 0
        # A paced deal (``each``): the link dies after this many cards read (0: never); the reports of
        # the rest wait in the firmware's resend queue and go out when it reconnects.
        self.drops_at = drops_at
        self.drops = 0
        self._read = self.hal.reader.read  # the reader's own: each deal's fault wraps it afresh
        original = self._deliver

        def on_message(message: dict[str, Any]) -> None:
            if message.get("t") == "deal":
                deck = list(message["order"])
                if message["b"] == self.misread_board:
                    deck[7], deck[8] = deck[8], deck[7]
                    self.misread_board = None  # one jam; the referee clears it
                    self.misreads += 1
                self.hal.reader.deck = deck
                if message.get("each") and self.drops_at:
                    self._drop_after(self.drops_at)
                original(message)
                if self.app.problem:
                    self.hal.reader.deck = list(message["order"])
                    self.redeal_pending = True
                return
            original(message)

        self._deliver = on_message

    def _drop_after(self, cards: int) -> None:
        """The link dies as the ``cards``-th card is read, in the middle of dealing."""
        reader = self.hal.reader
        plain = self._read
        count = 0

        def read() -> Any:
            nonlocal count
            count += 1
            if count == cards and self.conn.client is not None:
                self.conn.client.drop()
                self.drops += 1
            return plain()

        reader.read = read

    def step(self) -> None:
        super().step()
        if self.redeal_pending and self.conn.connected:
            # The referee cleared the jam and put the cards back: the table deals the board again.
            self.redeal_pending = False
            self.app.redeal()

    def settled(self, views: dict[str, tuple[str, int]], deals: dict[str, str]) -> bool:
        return not self.redeal_pending and super().settled(views, deals)


Hands = Callable[[dict[str, Any]], "list[str] | None"]


class ElectronicBoard(SimulatedDevice):
    """A board game's electronic board: the players' hands move the pieces on it and its sensors report
    each move as the piece is set down, through the real firmware (``deckhand_fw.eboard``).

    ``hands``: from the server's position (``pos``), the squares of the move the seat to move makes
    (from, to; a stone: its point), or None while it thinks. ``illegal``: once, at the position numbered
    ``illegal_at``, the hands make that move instead, as a player who moved a piece wrongly would: the
    server stops the board, and the referee puts the pieces back (:meth:`put_back`) and resumes it."""

    def __init__(
        self,
        thing: str,
        link: VenueLink,
        state: Path,
        hands: Hands,
        illegal_at: int | None = None,
        illegal: list[str] | None = None,
    ) -> None:
        super().__init__(thing, "eboard", link, state)
        self.hands = hands
        self.illegal_at = illegal_at
        self.illegal = illegal
        self.moved: tuple[str, int, int] | None = None  # the position (board, moves, version) moved in
        self.stops = 0
        original = self._deliver

        def on_message(message: dict[str, Any]) -> None:
            if message.get("t") == "stopped":
                self.stops += 1
            original(message)

        self._deliver = on_message

    def step(self) -> None:
        super().step()
        pos = self.app.pos
        if pos is None or not pos.get("q") or self.app.sent is not None or self.app.error:
            return
        key = (pos["b"], pos["n"], pos["v"])
        if key == self.moved:
            return
        squares = self.hands(pos)
        if self.illegal and pos["n"] == self.illegal_at:
            squares, self.illegal = self.illegal, None  # one wrong move; the referee sets it right
        if not squares:
            return
        self.moved = key
        cells = _cells(pos["grid"], squares)
        for cell in cells[:-1]:
            self.hal.sensors.push("up", cell)
        self.hal.sensors.push("down", cells[-1])
        for _ in cells:
            self.app.sense()

    def put_back(self) -> None:
        """The referee put the pieces back where the game has them: the sensors read the server's
        position, and the board's button reports it (the resume itself is the referee's API action)."""
        pos = self.app.pos
        if pos is not None:
            self.hal.sensors.rows = list(pos["grid"]["r"])
            self.app.report_position()


def _cells(grid: dict[str, Any], squares: list[str]) -> list[int]:
    """The grid's cells of the squares named, as the firmware names them."""
    from deckhand_fw import board

    named = {board.name(grid, cell): cell for cell in board.squares(grid)}
    return [named[name] for name in squares]

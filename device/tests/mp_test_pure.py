# Firmware pure modules under real MicroPython: cards, protocol, resend queue, config, views, apps.
# The views are v2 screens (docs/protocol.md): the hand in display order, status lines, an ask.
import json

from deckhand_fw import board, cards, config, protocol, views
from deckhand_fw.dealer import Dealer
from deckhand_fw.handset import Handset
from deckhand_fw.resend import ResendQueue
from deckhand_fw.store import FileStore


class MemStore:
    def __init__(self):
        self.data = {}

    def load(self, name, default):
        return self.data.get(name, default)

    def save(self, name, value):
        self.data[name] = json.loads(json.dumps(value))

    def load_int(self, name, default):
        return self.data.get(name, default)

    def save_int(self, name, value):
        self.data[name] = value


class Part:
    def __init__(self):
        self.lines = []
        self.beeps = 0
        self.dealt = []
        self.stops = 0
        self.deck = []

    def show(self, lines):
        self.lines = lines

    def beep(self):
        self.beeps += 1

    def deal(self, seat):
        self.dealt.append(seat)

    def stop(self):
        self.stops += 1

    def read(self):
        return self.deck.pop(0) if self.deck else None


class Hal:
    def __init__(self):
        part = Part()
        self.display = self.buzzer = self.motor = self.reader = part
        self.part = part
        self.now = 0

    def ticks_ms(self):
        return self.now


class Conn:
    def __init__(self):
        self.sent = []

    def send(self, message):
        self.sent.append(message)


PLAY_ASK = {
    "p": "Beat seat 1's pair or pass",
    "o": [{"l": "Play", "a": {"k": "play", "c": True}}, {"l": "Pass", "a": {"k": "pass"}}],
}


def view(seat=0, ask=PLAY_ASK, hand=("D3", "C3", "S2"), version=5, deadline=0, lines=None, status="playing"):
    message = {
        "t": "view",
        "g": "any-game",
        "b": "1",
        "r": 1,
        "v": version,
        "s": seat,
        "st": status,
        "dl": deadline,
        "h": list(hand),
        "l": lines
        if lines is not None
        else ["You to play", "Cards: 0:3 1:13 2:1 3:13  last card: seat 2", "Seat 1 shows: 4\u2666 A\u2665"],
    }
    if ask is not None:
        message["ask"] = ask
    return message


def test_cards_are_shown_with_suit_symbols_in_the_order_sent():
    assert cards.pretty("ST") == "10\u2660" and cards.pretty("D3") == "3\u2666" and cards.pretty("BJ") == "BJ"
    assert not hasattr(cards, "sort_hand")  # the server sends the hand in the game's display order


def test_message_ids_survive_a_reboot():
    store = MemStore()
    ids = protocol.MessageIds("hs-1", store)
    assert [ids.next(), ids.next()] == ["hs-1-1", "hs-1-2"]
    assert store.data["msgid"] == protocol.ID_BLOCK  # a block reserved: one flash write for 32 ids
    again = protocol.MessageIds("hs-1", store)
    assert again.next() == "hs-1-" + str(protocol.ID_BLOCK + 1)  # past the block: never an id used


def test_build_and_parse_messages():
    m = protocol.act("hs-1-4", "1", {"k": "play", "c": True}, ["D3", "C3"])
    assert m == {"t": "act", "msg": "hs-1-4", "board": "1", "a": {"k": "play", "c": ["D3", "C3"]}}
    assert protocol.act("x", "1", {"k": "show", "v": 1})["a"] == {"k": "show", "v": 1}
    assert protocol.act("x", "1", {"k": "pass"}) == {"t": "act", "msg": "x", "board": "1", "a": {"k": "pass"}}
    assert protocol.act("x", "1", {"k": "pass"}, None, 2) == {
        "t": "act",
        "msg": "x",
        "board": "1",
        "a": {"k": "pass"},
        "r": 2,
    }
    declared = protocol.act("x", "1", {"k": "play", "c": True, "d": {"as": "H5"}}, ["HA"])
    assert declared["a"] == {"k": "play", "c": ["HA"], "d": {"as": "H5"}}
    assert json.loads(protocol.encode(m)) == m
    assert protocol.parse(b"not json") is None and protocol.parse(b"[1]") is None
    assert protocol.parse(b'{"t":"ack","msg":"x"}')["t"] == "ack"
    try:
        protocol.encode({"t": "x", "pad": "y" * 1100})
        raise AssertionError("too large accepted")
    except ValueError:
        pass


def test_resend_queue_persists_in_files():
    store = FileStore("/tmp")
    queue = ResendQueue(store, "q-test")
    queue.add({"t": "pass", "msg": "a"})
    queue.add({"t": "pass", "msg": "b"})
    assert ResendQueue(FileStore("/tmp"), "q-test").pending() == [
        {"t": "pass", "msg": "a"},
        {"t": "pass", "msg": "b"},
    ]
    assert queue.ack("a") and not queue.ack("a")
    assert [m["msg"] for m in ResendQueue(FileStore("/tmp"), "q-test").pending()] == ["b"]


def test_config_errors_name_the_field():
    good = {"thing": "hs-1", "role": "handset", "endpoint": "h", "tls": False, "port": 1883}
    assert config.parse(json.dumps(good))["port"] == 1883
    # A local venue's handset: its password and the venue CA instead of a certificate.
    venue = dict(good, tls=True, port=8883, username="hs-1", password="p", ca="/certs/venue-ca.pem")
    assert config.parse(json.dumps(venue))["password"] == "p"
    for bad, words in (
        ("{", "not valid JSON"),
        (json.dumps(dict(good, thing="")), "'thing'"),
        (json.dumps(dict(good, role="x")), "role"),
        (json.dumps(dict(good, port=0)), "port"),
        (json.dumps(dict(good, tls=True)), "certificate"),
        (json.dumps(dict(good, tls=True, password="p")), "'ca'"),
        (json.dumps(dict(good, password=5)), "'password'"),
        (json.dumps(dict(good, username="hs-2", password="p")), "'username'"),
    ):
        try:
            config.parse(bad)
            raise AssertionError("accepted " + bad)
        except config.ConfigError as exc:
            assert words in str(exc), str(exc)


def test_screen_shows_turn_countdown_lines_hand_and_the_prompt():
    lines = views.screen(view(deadline=7500), {0}, 1000)
    assert lines[0] == "Board 1  seat 0  YOUR TURN 7s"
    assert "Cards: 0:3 1:13 2:1 3:13  last card: seat 2" in lines
    assert "Seat 1 shows: 4\u2666 A\u2665" in lines
    assert "Hand: [3\u2666] 3\u2663 2\u2660" in lines
    assert lines[-2:] == ["Beat seat 1's pair or pass", "[1 Play]  2 Pass"]
    assert views.screen(view(ask=None), set(), 0)[0] == "Board 1  seat 0"
    assert views.screen(view(status="ended"), set(), 0)[0].endswith("board over")
    assert views.screen(view(), set(), 0, None, 1)[-1] == "1 Play  [2 Pass]"


def test_the_countdown_runs_from_the_views_arrival_whatever_the_uptime():
    # ``dl``: milliseconds left when the server sent the view; the handset's ticks count from its boot.
    hal = Hal()
    hal.now = 123456789
    app = Handset(hal, protocol.MessageIds("hs-1", MemStore()))
    app.on_message(view(deadline=10000))
    assert hal.part.lines[0] == "Board 1  seat 0  YOUR TURN 10s", hal.part.lines[0]
    shown = list(hal.part.lines)
    hal.now += 400
    app.tick()  # the same second: not redrawn
    assert hal.part.lines == shown
    hal.now += 3100
    app.tick()
    assert hal.part.lines[0] == "Board 1  seat 0  YOUR TURN 7s", hal.part.lines[0]
    hal.now += 7000
    app.tick()
    assert hal.part.lines[0] == "Board 1  seat 0  YOUR TURN", hal.part.lines[0]
    hal.now = (1 << 30) - 1000
    app.on_message(view(deadline=10000, version=6))
    hal.now = 1500  # 2.5 s later the ticks wrapped around (MicroPython's wrap every 2**30 ms)
    app.tick()
    assert hal.part.lines[0].endswith("YOUR TURN 8s"), hal.part.lines[0]


def test_a_thing_no_table_has_says_so_until_the_server_answers_otherwise():
    hal = Hal()
    app = Handset(hal, protocol.MessageIds("hs-9", MemStore()))
    refusal = {"t": "reject", "msg": "hs-9-1", "code": protocol.UNKNOWN_DEVICE, "why": "no table has hs-9"}
    app.on_message(refusal)
    assert hal.part.lines == ["UNKNOWN DEVICE", "no table has hs-9", "Ask the referee to register it"]
    app.on_message(dict(refusal, msg="hs-9-2"))  # the next hello's refusal: one beep only
    assert hal.part.beeps == 1
    app.on_message(view())  # registered and seated: the board
    assert hal.part.lines[0].startswith("Board 1  seat 0") and app.unknown is None


def test_selection_marked_legal_when_the_server_sent_legal_plays():
    message = view()
    message["legal"] = [["D3"], ["D3", "C3"]]
    assert "Selection: legal" in views.screen(message, {0, 1}, 0)
    assert "Selection: not a legal play" in views.screen(message, {2}, 0)
    assert not any(line.startswith("Selection") for line in views.screen(view(), {2}, 0))


def test_handset_selects_plays_and_waits_for_the_answer():
    hal, conn = Hal(), Conn()
    app = Handset(hal, protocol.MessageIds("hs", MemStore()))
    app.attach(conn)
    app.on_message(view())
    app.on_input("ok")  # the option takes cards and none is selected: nothing is sent
    assert conn.sent == [] and hal.part.lines[-1] == "Refused: select the cards first"
    app.on_input("sel:0")
    app.on_input("sel:1")
    app.on_input("ok")
    assert conn.sent == [
        {"t": "act", "msg": "hs-1", "board": "1", "a": {"k": "play", "c": ["D3", "C3"]}, "r": 1}
    ]
    app.on_input("next")
    app.on_input("ok")  # a second decision while the first is unanswered is ignored
    assert len(conn.sent) == 1
    app.on_message({"t": "reject", "msg": "hs-1", "code": "does_not_beat", "why": "pair does not beat"})
    assert hal.part.beeps == 1 and hal.part.lines[-1].startswith("Refused: does_not_beat")
    app.on_input("ok")  # pass stayed highlighted
    assert conn.sent[-1]["a"] == {"k": "pass"}
    app.on_message({"t": "ack", "msg": "hs-2", "v": 9})
    app.on_message(view(version=8))  # older than the acknowledged action: stale
    assert not app.ready()
    app.on_message(view(version=9))
    assert app.ready()
    later = view(version=2)
    later["r"] = 2  # the same board id in the next round is a new board, not a stale view
    app.on_message(later)
    assert app.ready() and app.message["r"] == 2


def test_nothing_is_sent_when_the_view_asks_nothing():
    hal, conn = Hal(), Conn()
    app = Handset(hal, protocol.MessageIds("hs", MemStore()))
    app.attach(conn)
    app.on_message(view(ask=None))
    for event in ("sel:0", "next", "opt:0", "ok", "opt:x", "sel:99"):
        app.on_input(event)
    assert conn.sent == [] and app.options() == []
    stopped = view(status="stopped")
    stopped["v"] = 6
    app.on_message(stopped)  # a stopped board asks nothing, whatever the view carried
    app.on_input("ok")
    assert conn.sent == [] and hal.part.lines[0].endswith("STOPPED")


def test_any_seat_calls_the_referee_without_holding_up_its_play():
    hal, conn = Hal(), Conn()
    app = Handset(hal, protocol.MessageIds("hs", MemStore()))
    app.attach(conn)
    app.on_input("call")  # no board shown yet: nothing to call about
    assert conn.sent == []
    app.on_message(view(ask=None))  # not this seat's turn: it may call all the same
    app.on_input("call")
    assert conn.sent == [{"t": "act", "msg": "hs-1", "board": "1", "a": {"k": "call"}, "r": 1}]
    assert hal.part.lines[-1] == "Referee called"
    app.on_message(view(version=6))  # its turn now: the call does not block the decision
    assert app.ready()
    app.on_input("next")
    app.on_input("ok")
    assert conn.sent[-1]["a"] == {"k": "pass"} and hal.part.lines[-1] == "Referee called"
    later = view(version=1)
    later["b"] = "2"
    app.on_message(later)  # the next board: the note is gone
    assert "Referee called" not in hal.part.lines


def pass_(app):
    app.on_input("opt:1")
    app.on_input("ok")


def test_an_answer_without_a_version_never_leaves_the_handset_waiting():
    # Regression (soak): round 1's last action left the version 63; in round 2 the first action's
    # ack was lost with the link and the resend was answered without a version, so the handset
    # waited for a view of version 63 of the new board for ever.
    hal, conn = Hal(), Conn()
    app = Handset(hal, protocol.MessageIds("hs", MemStore()))
    app.attach(conn)
    app.on_message(view(version=62))
    pass_(app)
    app.on_message({"t": "ack", "msg": "hs-1", "v": 63})
    round_two = view(version=5)
    round_two["r"] = 2
    app.on_message(round_two)
    pass_(app)
    app.on_message({"t": "ack", "msg": "hs-2", "dup": True})
    after = view(version=6)
    after["r"] = 2
    app.on_message(after)
    assert app.ready()
    pass_(app)
    app.on_message({"t": "reject", "msg": "hs-3", "code": "not_your_turn", "why": "seat 1 to act"})
    assert app.ready()  # a refused action changed nothing: the view shown is current


def test_dealer_deals_checks_and_reports():
    hal, conn = Hal(), Conn()
    app = Dealer(hal, protocol.MessageIds("dl", MemStore()))
    app.attach(conn)
    order = ["D3", "C3", "H3", "S3", "D4"]
    hal.part.deck = list(order)
    app.on_message({"t": "deal", "b": "1", "r": 1, "seats": 4, "order": order})
    assert hal.part.dealt == [0, 1, 2, 3, 0]
    assert conn.sent == [{"t": "dealt", "msg": "dl-1", "board": "1", "cards": order, "r": 1}]
    app.on_message({"t": "deal", "b": "1", "r": 1, "seats": 4, "order": order})
    assert len(conn.sent) == 1  # a resent order is not dealt twice
    hal.part.deck = ["D3", "C3"]
    app.on_message({"t": "deal", "b": "2", "r": 1, "seats": 4, "order": order})
    assert app.problem == "card 3 missing or unreadable" and hal.part.stops == 1
    assert conn.sent[-1]["cards"] == ["D3", "C3"]
    hal.part.deck = list(order)  # the referee cleared the jam
    app.redeal()
    assert app.problem is None and conn.sent[-1]["cards"] == order


def test_a_selection_survives_a_card_arriving_while_the_same_decision_stands():
    """A paced deal: a new card (a new view) comes while the player selects cards to declare; the
    same ask keeps the selected cards, found where they now lie; another ask drops the selection."""
    declare = {"p": "Declare trump now", "o": [{"l": "Declare", "a": {"k": "declare", "c": True}}], "s": [1]}
    hal, conn = Hal(), Conn()
    app = Handset(hal, protocol.MessageIds("hs", MemStore()))
    app.attach(conn)
    app.on_message(view(ask=declare, hand=("D3", "H2"), version=1))
    app.on_input("sel:1")
    moved = dict(declare, s=[2])
    app.on_message(view(ask=moved, hand=("C3", "D3", "H2"), version=2))
    assert app.selected == {2}
    app.on_input("ok")
    assert conn.sent[-1]["a"] == {"k": "declare", "c": ["H2"]}
    app.on_message(view(ask=PLAY_ASK, hand=("C3", "D3", "H2"), version=4))
    assert app.selected == set()


def test_dealer_reports_each_card_read_when_the_deal_asks_it():
    """A game whose seats act during the deal: each card reaches its seat's handset only once the table
    has read it, so the table reports after every card (the cards read so far), then the whole deal."""
    hal, conn = Hal(), Conn()
    app = Dealer(hal, protocol.MessageIds("dl", MemStore()))
    app.attach(conn)
    order = ["D3", "C3", "H3", "S3", "D4", "C4"]
    hal.part.deck = list(order)
    app.on_message({"t": "deal", "b": "1", "r": 1, "seats": 2, "kitty": 2, "each": True, "order": order})
    assert [m.get("upto") for m in conn.sent] == [1, 2, 3, 4, None]  # the kitty's cards reach no seat
    assert conn.sent[2]["cards"] == order[:3] and conn.sent[-1]["cards"] == order
    hal.part.deck = ["D3", "S4"]
    app.on_message({"t": "deal", "b": "2", "r": 1, "seats": 2, "kitty": 2, "each": True, "order": order})
    assert conn.sent[-2]["upto"] == 1 and conn.sent[-1] == {
        "t": "dealt",
        "msg": conn.sent[-1]["msg"],
        "board": "2",
        "cards": ["D3", "S4"],
        "r": 1,
    }  # a misread card is never reported as progress: the whole report says where it went wrong


def test_a_report_while_dealing_replaces_the_boards_earlier_unanswered_ones():
    store = MemStore()
    queue = ResendQueue(store, "q-deal")
    queue.add(protocol.dealt("dl-1", "1", ["D3"], 1, 1))
    queue.add(protocol.act("hs-9", "1", {"k": "pass"}))
    queue.add(protocol.dealt("dl-2", "1", ["D3", "C3"], 1, 2))
    queue.add(protocol.dealt("dl-3", "2", ["D3"], 1, 1))
    assert [m["msg"] for m in queue.pending()] == ["hs-9", "dl-2", "dl-3"]
    queue.add(protocol.dealt("dl-4", "1", ["D3", "C3", "H3"], 1))  # the whole deal: kept beside them
    assert [m["msg"] for m in queue.pending()] == ["hs-9", "dl-2", "dl-3", "dl-4"]
    assert [m["msg"] for m in store.data["q-deal"]] == ["hs-9", "dl-4"], (
        "reports while dealing stay off flash"
    )
    assert queue.ack("dl-2") and [m["msg"] for m in store.data["q-deal"]] == ["hs-9", "dl-4"]


def bid_view(version=3, high=1):
    """A three-seat game's auction: the server draws the bids and offers the bids above the highest."""
    options = [{"l": str(v), "a": {"k": "bid", "v": v}} for v in range(high + 1, 4)]
    options.append({"l": "Pass", "a": {"k": "bid", "v": 0}})
    return {
        "t": "view",
        "g": "any-game",
        "b": "4",
        "r": 1,
        "v": version,
        "s": 1,
        "st": "playing",
        "dl": 0,
        "h": ["D3", "C3", "H3", "S2", "BJ", "RJ"],
        "l": ["You to bid", "Bids: 0:1 1:- 2:-", "Cards: 0:17 1:17 2:17"],
        "ask": {"p": "Bid above " + str(high) + ":", "o": options},
    }


def double_view(version):
    ask = {
        "p": "Double?",
        "o": [
            {"l": "Double", "a": {"k": "double", "v": 1}},
            {"l": "Don't double", "a": {"k": "double", "v": 0}},
        ],
    }
    message = bid_view(version)
    message["l"] = [
        "Double phase: waiting for you, seat 2",
        "Landlord: seat 0  bid 3  kitty 7\u2666 7\u2663 7\u2665",
    ]
    message["ask"] = ask
    return message


def test_screens_prompt_every_phase_in_words():
    lines = views.screen(bid_view(), set(), 0)
    assert lines[0] == "Board 4  seat 1  YOUR TURN"
    assert "Bids: 0:1 1:- 2:-" in lines and lines[-2:] == ["Bid above 1:", "[1 2]  2 3  3 Pass"]
    assert "Hand: 3\u2666 3\u2663 3\u2665 2\u2660 BJ RJ" in lines  # in the order sent
    lines = views.screen(double_view(5), set(), 0)
    assert "Landlord: seat 0  bid 3  kitty 7\u2666 7\u2663 7\u2665" in lines
    assert lines[-2:] == ["Double?", "[1 Double]  2 Don't double"] and lines[0].endswith("YOUR TURN")


def test_handset_bids_and_doubles_with_its_buttons():
    hal, conn = Hal(), Conn()
    app = Handset(hal, protocol.MessageIds("hs", MemStore()))
    app.attach(conn)
    app.on_message(bid_view())
    app.on_input("next")  # next steps through the options: 2, then 3
    assert "1 2  [2 3]  3 Pass" in hal.part.lines
    app.on_input("ok")
    assert conn.sent == [{"t": "act", "msg": "hs-1", "board": "4", "a": {"k": "bid", "v": 3}, "r": 1}]
    app.on_message({"t": "ack", "msg": "hs-1", "v": 4})
    app.on_message(bid_view(4))
    app.on_input("opt:2")
    app.on_input("ok")
    assert conn.sent[-1] == {"t": "act", "msg": "hs-2", "board": "4", "a": {"k": "bid", "v": 0}, "r": 1}
    app.on_message({"t": "ack", "msg": "hs-2", "v": 5})
    app.on_message(double_view(5))
    app.on_input("ok")
    assert conn.sent[-1] == {"t": "act", "msg": "hs-3", "board": "4", "a": {"k": "double", "v": 1}, "r": 1}


def test_a_27_card_hand_and_5_options_stay_under_1_kib():
    """Two decks: every token may come twice. The largest view the protocol allows for, sent and drawn."""
    tokens = ["D3", "C3", "H3", "S3", "D4", "C4", "H4", "S4", "D5", "C5", "H5", "S5", "DT", "CT", "HT", "ST"]
    hand = tokens + tokens[:9] + ["BJ", "RJ"]
    assert len(hand) == 27
    labels = ("Play", "Play as a straight flush", "Pass", "Tribute", "Declare")
    options = [{"l": label, "a": {"k": "k" + str(n), "v": n, "c": True}} for n, label in enumerate(labels)]
    lines = [
        "Seat 2 to play",
        "Cards: 0:27 1:20 2:11 3:27  last card: none",
        "Levels: us 10, them A  dealer seat 3",
        "Trick: \u2026, seat 1 10\u2660 10\u2660 10\u2665 10\u2665 10\u2663 10\u2663, seat 2 pass, seat 3 pass",
        "Tribute: seat 3 gave you A\u2660",
    ]
    message = view(
        hand=hand, lines=lines, ask={"p": "Beat seat 1's plane or pass", "o": options}, deadline=1800000010000
    )
    data = protocol.encode(message)
    assert len(data) < 1024, len(data)
    hal, conn = Hal(), Conn()
    app = Handset(hal, protocol.MessageIds("hs", MemStore()))
    app.attach(conn)
    app.on_message(json.loads(data))
    app.on_input("sel:4")
    app.on_input("sel:20")  # the second D4 of the two decks
    app.on_input("opt:4")
    app.on_input("ok")
    sent = conn.sent[-1]
    assert sent["a"] == {"k": "k4", "v": 4, "c": ["D4", "D4"]} and len(protocol.encode(sent)) < 1024


def test_dealer_deals_the_kitty_to_its_slot_and_deals_a_redeal_again():
    hal, conn = Hal(), Conn()
    app = Dealer(hal, protocol.MessageIds("dl", MemStore()))
    app.attach(conn)
    order = ["D3", "C3", "H3", "S3", "D4", "C4", "H4", "S4"]
    hal.part.deck = list(order)
    app.on_message({"t": "deal", "b": "1", "r": 1, "seats": 3, "kitty": 3, "order": order})
    assert hal.part.dealt == [0, 1, 2, 0, 1, 3, 3, 3]
    hal.part.deck = list(order)
    app.on_message({"t": "deal", "b": "1", "r": 1, "seats": 3, "kitty": 3, "n": 2, "order": order})
    assert len(conn.sent) == 2 and hal.part.lines[0] == "Board 1 dealt"


READINGS = {
    "p": "Which reading?",
    "o": [
        {
            "l": "straight 2\u20136",
            "a": {"k": "play", "c": True, "d": {"type": "straight", "as": ["H2", "S3"]}},
        },
        {
            "l": "straight 3\u20137",
            "a": {"k": "play", "c": True, "d": {"type": "straight", "as": ["S3", "H7"]}},
        },
    ],
}


def test_a_refusal_that_offers_a_choice_sends_the_same_cards_with_it():
    """A play that reads several ways is refused with the readings; the player picks one and the same
    selected cards go up with its data. A new selection, or a new view, drops the offer."""
    hal, conn = Hal(), Conn()
    app = Handset(hal, protocol.MessageIds("hs", MemStore()))
    app.attach(conn)
    app.on_message(view(hand=("S3", "D4", "C5", "H6", "H6")))
    for i in (0, 1, 2, 3):
        app.on_input("sel:" + str(i))
    app.on_input("ok")
    assert conn.sent[-1]["a"] == {"k": "play", "c": ["S3", "D4", "C5", "H6"]}
    other = {"t": "reject", "msg": "hs-0", "code": "x", "why": "not ours", "ask": READINGS}
    app.on_message(other)  # the answer to another message offers nothing here
    assert app.offered is None
    app.on_message({"t": "reject", "msg": "hs-1", "code": "reading_needed", "why": "choose", "ask": READINGS})
    assert app.options() == READINGS["o"] and hal.part.lines[-3:-1] == [
        "Which reading?",
        "[1 straight 2\u20136]  2 straight 3\u20137",
    ]
    app.on_input("next")
    app.on_input("ok")
    assert conn.sent[-1]["a"] == {
        "k": "play",
        "c": ["S3", "D4", "C5", "H6"],
        "d": {"type": "straight", "as": ["S3", "H7"]},
    }
    app.on_message({"t": "reject", "msg": "hs-2", "code": "reading_needed", "why": "choose", "ask": READINGS})
    app.on_input("sel:4")  # another selection: the readings were of the old one
    assert app.offered is None and app.options() == PLAY_ASK["o"]
    app.on_message({"t": "reject", "msg": "hs-2", "code": "reading_needed", "why": "choose", "ask": READINGS})
    app.on_message(view(version=6))
    assert app.offered is None and app.options() == PLAY_ASK["o"]


def test_only_the_cards_an_ask_names_can_be_selected():
    ask = {
        "p": "Pay your tribute: select A\u2660",
        "o": [{"l": "Pay", "a": {"k": "tribute", "c": True}}],
        "s": [2, 3],
    }
    hal, conn = Hal(), Conn()
    app = Handset(hal, protocol.MessageIds("hs", MemStore()))
    app.attach(conn)
    app.on_message(view(hand=("D3", "C3", "SA", "SA"), ask=ask))
    app.on_input("sel:0")
    assert app.selected == set() and hal.part.beeps == 1
    assert "Hand: (3\u2666) (3\u2663) A\u2660 A\u2660" in hal.part.lines
    app.on_input("sel:3")
    app.on_input("ok")
    assert conn.sent[-1]["a"] == {"k": "tribute", "c": ["SA"]}


def two_decks():
    one = [s + r for r in "3456789TJQKA2" for s in "DCHS"] + ["BJ", "RJ"]
    order = []
    for i in range(54):  # a shuffled-looking order where the two copies of a card lie apart
        order.append(one[(i * 7) % 54])
    return order + list(reversed(order))


def test_dealer_deals_108_cards_of_two_decks_copies_being_two_places():
    order = two_decks()
    assert len(order) == 108 and len(set(order)) == 54
    deal = {"t": "deal", "b": "1", "r": 1, "seats": 4, "order": order}
    assert len(protocol.encode(deal)) < 1024
    hal, conn = Hal(), Conn()
    app = Dealer(hal, protocol.MessageIds("dl", MemStore()))
    app.attach(conn)
    first, second = order.index("HA"), 107 - order.index("HA")
    deck = list(order)
    deck[first], deck[second] = deck[second], deck[first]  # the two copies swapped: the same cards
    hal.part.deck = deck
    app.on_message(deal)
    assert app.problem is None and hal.part.dealt == [i % 4 for i in range(108)]
    report = conn.sent[-1]
    assert report["cards"] == order and len(protocol.encode(report)) < 1024
    hal.part.deck = [c for i, c in enumerate(order) if i != second]  # one copy of HA missing
    app.on_message(dict(deal, b="2"))
    assert app.problem == "card 86 is " + order[86] + ", the board has HA" and hal.part.stops == 1
    assert conn.sent[-1]["cards"] == order[:second] + [order[86]]  # what was read, up to the wrong card


# A board game's view (docs/protocol.md, "Boards"): a 3-wide grid whose second row has a hole, rows
# numbered down from 2, squares named {x}{y}; the pieces on a2 and b1 may move first; b2 was the last move.
GRID = {"w": 3, "r": ["Rr.", "K .", "..."], "y": 2, "x": "abc", "n": "{x}{y}", "m": [1], "s": [0, 3]}
MOVE_ASK = {
    "p": "your move: pick a piece, then its point",
    "o": [{"l": "Move", "a": {"k": "move", "q": ["from", "to"]}}, {"l": "Resign", "a": {"k": "resign"}}],
}


def board_view(grid=GRID, ask=MOVE_ASK, version=5):
    message = view(ask=ask, hand=(), version=version, lines=["you play Red", "Red to move"])
    message["grid"] = grid
    return message


def test_a_grid_names_its_squares_by_its_template():
    assert board.squares(GRID) == [0, 1, 2, 3, 5, 6, 7, 8]  # cell 4 is no square
    assert [board.name(GRID, c) for c in (0, 3, 5, 8)] == ["a2", "a1", "c1", "c0"]
    star = {"w": 5, "r": ["  B", " . .", ". R ."], "y": 3, "n": "r{y}c{k}"}  # rows of varying width
    assert [board.name(star, c) for c in board.squares(star)] == [
        "r3c1",
        "r2c1",
        "r2c2",
        "r1c1",
        "r1c2",
        "r1c3",
    ]
    assert not board.is_square(star, 0) and not board.is_square(star, 9) and board.is_square(star, 10)


def test_a_board_is_drawn_and_a_move_sent_by_the_squares_picked():
    hal = Hal()
    app = Handset(hal, protocol.MessageIds("hs-1", MemStore()))
    conn = Conn()
    app.attach(conn)
    app.on_message(board_view())
    lines = hal.part.lines
    assert lines[3:7] == ["  a b c", "2 R+r .", "1 K   .", "0 . . ."] and not any(
        line.startswith("Hand:") for line in lines
    )
    app.on_input("sq:1")  # b2 holds no piece that may move: refused on the screen, nothing picked
    assert (
        hal.part.beeps == 1
        and app.picked == []
        and "Refused: that square cannot be chosen now" in hal.part.lines
    )
    app.on_input("ok")  # no squares yet: nothing is sent
    assert conn.sent == [] and "Refused: choose the squares first" in hal.part.lines
    app.on_input("right")  # the buttons: the cursor over the pieces that may move, select picks
    app.on_input("right")
    app.on_input("select")
    assert app.picked == [3] and "Picked: a1" in hal.part.lines
    app.on_input("sq:8")  # then any square; a second pick of the "to" square replaces it
    app.on_input("sq:7")
    assert app.picked == [3, 7] and "Picked: a1 b0" in hal.part.lines
    assert "0 .>. ." in hal.part.lines  # the cursor on b0
    app.on_input("ok")
    sent = conn.sent[-1]
    assert sent["a"] == {"k": "move", "d": {"from": "a1", "to": "b0"}} and sent["r"] == 1
    assert len(protocol.encode(sent)) < 200
    app.on_message({"t": "ack", "msg": sent["msg"], "v": 6})
    app.on_message(board_view(version=6))  # the next position: the picks are dropped
    assert app.picked == [] and app.cursor is None


def test_the_buttons_move_over_the_hand_without_a_grid():
    hal = Hal()
    app = Handset(hal, protocol.MessageIds("hs-1", MemStore()))
    app.attach(Conn())
    app.on_message(view())  # three cards
    for event in ("right", "select", "left", "left", "select", "right", "right", "right", "select"):
        app.on_input(event)
    assert app.selected == {0, 1, 2} and app.hand_cursor == 2  # the cursor stays on the hand

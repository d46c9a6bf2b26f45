# Firmware pure modules under real MicroPython: cards, protocol, resend queue, config, views, apps.
import json

from deckhand_fw import cards, config, protocol, views
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


def view(seat=0, turn=0, phase="play", hand=("D3", "S2", "C3"), last=None, version=5, deadline=0):
    return {
        "t": "view",
        "b": "1",
        "r": 1,
        "v": version,
        "s": seat,
        "st": "playing",
        "dl": deadline,
        "view": {
            "seat": seat,
            "phase": phase,
            "turn": turn,
            "first": 0,
            "hand": list(hand),
            "counts": [len(hand), 13, 1, 13],
            "shown": [False, False, False, False],
            "doubled": [False, False, False, False],
            "shown_hands": {"1": ["HA", "D4"]},
            "last": last,
            "trick": [],
            "one_card": [2],
            "opened": True,
            "winner": None,
        },
    }


def test_sort_hand_in_big_two_order():
    assert cards.sort_hand(["S2", "D3", "HA", "C3", "ST"]) == ["D3", "C3", "ST", "HA", "S2"]
    assert cards.pretty("ST") == "10\u2660" and cards.pretty("D3") == "3\u2666"


def test_message_ids_survive_a_reboot():
    store = MemStore()
    ids = protocol.MessageIds("hs-1", store)
    assert [ids.next(), ids.next()] == ["hs-1-1", "hs-1-2"]
    again = protocol.MessageIds("hs-1", store)
    assert again.next() == "hs-1-3"


def test_build_and_parse_messages():
    m = protocol.action("play", "hs-1-4", "1", ["D3", "C3"])
    assert m == {"t": "play", "msg": "hs-1-4", "board": "1", "cards": ["D3", "C3"]}
    assert protocol.action("show", "x", "1", None, True)["v"] == 1
    assert protocol.action("pass", "x", "1") == {"t": "pass", "msg": "x", "board": "1"}
    assert protocol.action("pass", "x", "1", None, None, 2) == {"t": "pass", "msg": "x", "board": "1", "r": 2}
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
    for bad, words in (
        ("{", "not valid JSON"),
        (json.dumps(dict(good, thing="")), "'thing'"),
        (json.dumps(dict(good, role="x")), "role"),
        (json.dumps(dict(good, port=0)), "port"),
        (json.dumps(dict(good, tls=True)), "certificate"),
    ):
        try:
            config.parse(bad)
            raise AssertionError("accepted " + bad)
        except config.ConfigError as exc:
            assert words in str(exc), str(exc)


def test_screen_shows_turn_countdown_hand_and_warnings():
    lines = views.screen(view(deadline=7500), {0}, 1000)
    assert lines[0] == "Board 1  seat 0  YOUR TURN 7s"
    assert "LAST CARD: seat 2" in lines
    assert "Shown 1: 4\u2666 A\u2665" in lines
    assert lines[-1] == "Hand: [3\u2666] 3\u2663 2\u2660"
    assert views.screen(view(turn=1), set(), 0)[0].endswith("seat 1 to act")


def test_selection_marked_legal_when_the_server_sent_legal_plays():
    message = view()
    message["legal"] = [["D3"], ["D3", "C3"]]
    assert views.screen(message, {0, 1}, 0)[-1] == "Selection: legal"
    assert views.screen(message, {2}, 0)[-1] == "Selection: not a legal play"
    assert not views.screen(view(), {2}, 0)[-1].startswith("Selection")


def test_handset_selects_plays_and_waits_for_the_answer():
    hal, conn = Hal(), Conn()
    app = Handset(hal, protocol.MessageIds("hs", MemStore()))
    app.attach(conn)
    app.on_message(view())
    app.on_input("sel:0")
    app.on_input("sel:1")
    app.on_input("play")
    assert conn.sent == [{"t": "play", "msg": "hs-1", "board": "1", "cards": ["D3", "C3"], "r": 1}]
    app.on_input("pass")  # a second decision while the first is unanswered is ignored
    assert len(conn.sent) == 1
    app.on_message({"t": "reject", "msg": "hs-1", "code": "does_not_beat", "why": "pair does not beat"})
    assert hal.part.beeps == 1 and hal.part.lines[-1].startswith("Refused: does_not_beat")
    app.on_input("pass")
    assert conn.sent[-1]["t"] == "pass"
    app.on_message({"t": "ack", "msg": "hs-2", "v": 9})
    app.on_message(view(version=8))  # older than the acknowledged action: stale
    assert not app.ready()
    app.on_message(view(version=9))
    assert app.ready()
    later = view(version=2)
    later["r"] = 2  # the same board id in the next round is a new board, not a stale view
    app.on_message(later)
    assert app.ready() and app.message["r"] == 2


def test_an_answer_without_a_version_never_leaves_the_handset_waiting():
    # Regression (soak): round 1's last action left the version 63; in round 2 the first action's
    # ack was lost with the link and the resend was answered without a version, so the handset
    # waited for a view of version 63 of the new board for ever.
    hal, conn = Hal(), Conn()
    app = Handset(hal, protocol.MessageIds("hs", MemStore()))
    app.attach(conn)
    app.on_message(view(version=62))
    app.on_input("pass")
    app.on_message({"t": "ack", "msg": "hs-1", "v": 63})
    round_two = view(version=5)
    round_two["r"] = 2
    app.on_message(round_two)
    app.on_input("pass")
    app.on_message({"t": "ack", "msg": "hs-2", "dup": True})
    after = view(version=6)
    after["r"] = 2
    app.on_message(after)
    assert app.ready()
    app.on_input("pass")
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


def landlord_view(
    seat=1, turn=1, phase="bid", bids=(1, None, None), landlord=None, doubled=(None, None, None)
):
    hand = ["D3", "C3", "H3", "BJ", "RJ", "S2"]
    return {
        "t": "view",
        "g": "doudizhu-2016",
        "b": "4",
        "r": 1,
        "v": 3,
        "s": seat,
        "st": "playing",
        "dl": 0,
        "view": {
            "seat": seat,
            "phase": phase,
            "turn": turn,
            "hand": hand,
            "counts": [17, 17, 17] if landlord is None else [20, 17, 17],
            "bids": list(bids),
            "bid": max(b or 0 for b in bids),
            "landlord": landlord,
            "kitty": [] if landlord is None else ["D7", "C7", "H7"],
            "doubled": list(doubled),
            "redoubled": None,
            "last": None,
            "trick": [],
            "one_card": [],
            "bombs": 0,
            "rockets": 0,
            "deal": 1,
            "winner": None,
        },
    }


def test_landlord_screens_for_bidding_and_doubling():
    lines = views.screen(landlord_view(), set(), 0)
    assert lines[0] == "Board 4  seat 1  YOUR TURN"
    assert "Bids: 0:1 1:- 2:-" in lines and "Bid 2? play=bid select=change pass=no bid" in lines
    assert lines[-1] == "Hand: 3\u2666 3\u2663 3\u2665 2\u2660 BJ RJ"
    lines = views.screen(landlord_view(seat=2, phase="double", bids=(1, 3, 0), landlord=1), set(), 0)
    assert "Landlord: seat 1  bid 3" in lines and "Kitty: 7\u2666 7\u2663 7\u2665" in lines
    assert "Double? play=yes pass=no" in lines and lines[0].endswith("YOUR TURN")
    mine = views.screen(landlord_view(seat=1, phase="double", bids=(1, 3, 0), landlord=1), set(), 0)
    assert "Landlord: you  bid 3" in mine and not mine[0].endswith("YOUR TURN")


def test_handset_bids_and_doubles_with_its_buttons():
    hal, conn = Hal(), Conn()
    app = Handset(hal, protocol.MessageIds("hs", MemStore()))
    app.attach(conn)
    app.on_message(landlord_view())
    app.on_input("sel:0")  # select steps through the bids allowed: 2, then 3
    assert "Bid 3? play=bid select=change pass=no bid" in hal.part.lines
    app.on_input("play")
    assert conn.sent == [{"t": "bid", "msg": "hs-1", "board": "4", "v": 3, "r": 1}]
    app.on_message({"t": "ack", "msg": "hs-1", "v": 4})
    following = landlord_view(seat=1, turn=1, bids=(1, None, None))
    following["v"] = 4
    app.on_message(following)
    app.on_input("pass")
    assert conn.sent[-1] == {"t": "bid", "msg": "hs-2", "board": "4", "v": 0, "r": 1}
    app.on_message({"t": "ack", "msg": "hs-2", "v": 5})
    doubling = landlord_view(seat=1, phase="double", bids=(3, 0, 0), landlord=0)
    doubling["v"] = 5
    app.on_message(doubling)
    app.on_input("play")
    assert conn.sent[-1] == {"t": "double", "msg": "hs-3", "board": "4", "v": 1, "r": 1}


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

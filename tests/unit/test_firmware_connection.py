"""The firmware's connection loop (device/lib/deckhand_fw/conn.py) with a fake MQTT client."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "device" / "lib") not in sys.path:
    sys.path.insert(0, str(ROOT / "device" / "lib"))

from deckhand_fw.conn import HELLO_AGAIN_MS, RESEND_MS, Connection  # noqa: E402


class Ids:
    n = 0

    def next(self):
        self.n += 1
        return f"m{self.n}"


class Queue:
    def __init__(self):
        self.items = []

    def add(self, message):
        self.items.append(message)

    def ack(self, msg):
        self.items = [m for m in self.items if m.get("msg") != msg]

    def pending(self):
        return list(self.items)

    def __len__(self):
        return len(self.items)


class FlakyClient:
    """Delivers one message on check_msg; every publish after connecting fails (the link died)."""

    def __init__(self):
        self.broken = False
        self.pings = 0
        self.callback = None

    def set_callback(self, callback):
        self.callback = callback

    def connect(self):
        pass

    def subscribe(self, topic, qos):
        pass

    def publish(self, topic, payload, retain, qos):
        if self.broken:
            raise OSError("link down")

    def check_msg(self):
        self.broken = True
        self.callback(b"dh/t/down", b'{"t":"view","b":"1","r":1,"v":2}')

    def ping(self):
        self.pings += 1

    def disconnect(self):
        pass


def test_a_handler_that_drops_the_link_mid_step_does_not_crash_the_loop():
    """The message handler sends (an action answering the view); the send fails and drops the link;
    the same step must not then ping a client that is gone."""
    now = [0]
    client = FlakyClient()
    conn = None

    def on_message(message):
        conn.send({"t": "act", "msg": "a1"})

    conn = Connection(
        {"thing": "t"}, lambda cfg: client, lambda: now[0], Ids(), Queue(), on_message, keepalive_s=0
    )
    conn.step()  # connects
    assert conn.connected
    now[0] = 1000
    conn.step()  # reads the view; the handler's send fails and drops the link; no ping on None
    assert not conn.connected and client.pings == 0
    assert conn.queue.pending() == [{"t": "act", "msg": "a1"}]  # the action is kept for the resend


class QuietClient:
    """A live link on which nothing ever comes back: the server shed the action, or its answer."""

    def __init__(self):
        self.published = []
        self.callback = None

    def set_callback(self, callback):
        self.callback = callback

    def connect(self):
        pass

    def subscribe(self, topic, qos):
        pass

    def publish(self, topic, payload, retain, qos):
        self.published.append(payload)

    def check_msg(self):
        pass

    def ping(self):
        pass

    def disconnect(self):
        pass


def test_an_unanswered_action_is_sent_again_with_its_id_on_a_live_link():
    now = [0]
    client = QuietClient()
    conn = Connection({"thing": "t"}, lambda cfg: client, lambda: now[0], Ids(), Queue(), lambda m: None)
    conn.step()  # connects: its hello
    conn.send({"t": "act", "msg": "a1"})
    sent = len(client.published)
    now[0] = RESEND_MS - 1
    conn.step()
    assert len(client.published) == sent  # not yet: an answer may still come
    now[0] = RESEND_MS
    conn.step()
    assert client.published[-1] == client.published[sent - 1]  # the same action, the same id
    conn._callback(b"dh/t/down", b'{"t":"ack","msg":"a1"}')
    now[0] = 3 * RESEND_MS
    resent = len(client.published)
    conn.step()
    assert len(client.published) == resent  # answered: never again


def test_a_thing_the_server_does_not_know_says_hello_again_until_it_is_answered():
    """Refused `unknown_device` (no table has the thing): a hello every HELLO_AGAIN_MS, so a thing the
    referee registers later is taken without a restart; an answer stops them."""
    now = [0]
    client = QuietClient()
    conn = Connection({"thing": "t"}, lambda cfg: client, lambda: now[0], Ids(), Queue(), lambda m: None)
    conn.step()  # connects: its hello
    assert [b'"hello"' in p for p in client.published] == [True]
    conn._callback(b"dh/t/down", b'{"t":"reject","msg":"m1","code":"unknown_device","why":"no table"}')
    now[0] = HELLO_AGAIN_MS - 1
    conn.step()
    assert len(client.published) == 1
    now[0] = HELLO_AGAIN_MS
    conn.step()
    assert len(client.published) == 2 and b'"msg": "m2"' in client.published[1]
    conn._callback(b"dh/t/down", b'{"t":"ack","msg":"m2"}')  # registered since: acknowledged
    now[0] = 5 * HELLO_AGAIN_MS
    conn.step()
    assert len(client.published) == 2

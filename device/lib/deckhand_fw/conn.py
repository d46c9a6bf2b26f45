# The connection manager: MQTT 3.1.1 (umqtt.simple) with keep-alive, reconnect with back-off,
# `hello` on every connect, and every unacknowledged action resent with its own message id.
from . import protocol

BACKOFF_MIN_MS = 1000
BACKOFF_MAX_MS = 30000
# An action unanswered this long is sent again with its id, on a live link too: its answer, or the
# action itself, was lost (a server that shed it under load, say). The server applies it at most once.
RESEND_MS = 5000
# A thing the server refused as unknown (no table has it) says hello again this often: once the
# referee registers it, the answer (an ack, or its view) comes without a restart.
HELLO_AGAIN_MS = 30000


class Connection:
    def __init__(self, cfg, make_client, ticks_ms, ids, queue, on_message, keepalive_s=30):
        self.thing = cfg["thing"]
        self.cfg = cfg
        self.make_client = make_client
        self.ticks_ms = ticks_ms
        self.ids = ids
        self.queue = queue
        self.on_message = on_message
        self.keepalive_ms = keepalive_s * 1000
        self.client = None
        self.backoff_ms = BACKOFF_MIN_MS
        self.next_try = 0
        self.last_io = 0
        self.last_send = 0
        self.connects = 0
        self.hello_at = None  # when to say hello again (the server did not know this thing)

    @property
    def connected(self):
        return self.client is not None

    def _callback(self, topic, payload):
        message = protocol.parse(payload)
        if message is None:
            return
        if message["t"] in ("ack", "reject") and isinstance(message.get("msg"), str):
            self.queue.ack(message["msg"])  # answered either way: never resend it
        if message["t"] == "reject" and message.get("code") == protocol.UNKNOWN_DEVICE:
            self.hello_at = self.ticks_ms() + HELLO_AGAIN_MS
        elif message["t"] in ("ack", "view", "deal"):
            self.hello_at = None
        self.on_message(message)

    def connect(self):
        client = self.make_client(self.cfg)
        client.set_callback(self._callback)
        client.connect()
        self.client = client
        client.subscribe(protocol.down_topic(self.thing), 1)
        self.connects += 1
        self.backoff_ms = BACKOFF_MIN_MS
        self.last_io = self.ticks_ms()
        self.hello_at = None
        self._publish(protocol.hello(self.ids.next()))
        self._resend_pending()

    def _resend_pending(self):
        self.last_send = self.ticks_ms()
        for message in self.queue.pending():
            self._publish(message)

    def _publish(self, message):
        client = self.client
        if client is None:
            return
        client.publish(protocol.up_topic(self.thing), protocol.encode(message), False, 1)
        self.last_io = self.ticks_ms()

    def send(self, message):
        """Persist first, then send: an action survives a dropped link or a reboot."""
        self.queue.add(message)
        self.last_send = self.ticks_ms()
        if self.client is not None:
            try:
                self._publish(message)
            except OSError:
                self.drop()

    def send_again(self, message):
        """Publish a queued message once more (same id); the server acknowledges it as a duplicate."""
        try:
            self._publish(message)
        except OSError:
            self.drop()

    def drop(self):
        client = self.client
        self.client = None
        if client is not None:
            try:
                client.disconnect()
            except OSError:
                pass
        self.next_try = self.ticks_ms() + self.backoff_ms
        self.backoff_ms = min(self.backoff_ms * 2, BACKOFF_MAX_MS)

    def step(self):
        """One turn of the main loop: (re)connect when due, read what arrived, keep the link alive."""
        now = self.ticks_ms()
        if self.client is None:
            if now - self.next_try >= 0:
                try:
                    self.connect()
                except OSError:
                    self.drop()
            return
        try:
            self.client.check_msg()
            if self.client is not None and now - self.last_send >= RESEND_MS and len(self.queue):
                self._resend_pending()
            if self.client is not None and self.hello_at is not None and now - self.hello_at >= 0:
                self.hello_at = None
                self._publish(protocol.hello(self.ids.next()))
            # A message handler may have dropped the link (a resend that failed): nothing to ping then.
            if self.client is not None and now - self.last_io >= self.keepalive_ms // 2:
                self.client.ping()
                self.last_io = now
        except OSError:
            self.drop()

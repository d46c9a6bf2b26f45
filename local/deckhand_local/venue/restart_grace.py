"""How long the players' clocks stay stopped once a venue that died runs again (``heartbeat.py``):
the rest of the venue's start, and the handsets' return. A handset's firmware tries to reconnect at
least every 30 s (its longest back-off, device/lib/deckhand_fw/conn.py), then asks for its view."""

RESTART_GRACE_SECONDS = 35.0

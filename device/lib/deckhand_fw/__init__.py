# Deckhand device firmware (MicroPython): venue handsets and automatic dealing tables.
VERSION = "0.1.0"

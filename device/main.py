# Device entry point: the app is chosen by config.json ("role": "handset" or "dealer").
import os

from deckhand_fw.app import run
from deckhand_fw.hal.esp32 import Esp32Hal, make_client

try:
    os.mkdir("/state")
except OSError:
    pass
run(Esp32Hal(), make_client, "config.json", "/state")

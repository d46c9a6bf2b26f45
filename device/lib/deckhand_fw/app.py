# Runs the app the configuration names: one loop of network, inputs and redraws.
from . import protocol
from .config import ConfigError, load
from .conn import Connection
from .dealer import Dealer
from .eboard import EBoard
from .handset import Handset
from .resend import ResendQueue
from .store import FileStore


def build(cfg, hal, make_client, state_folder):
    store = FileStore(state_folder)
    ids = protocol.MessageIds(cfg["thing"], store)
    queue = ResendQueue(store)
    apps = {"handset": Handset, "dealer": Dealer, "eboard": EBoard}
    app = apps[cfg["role"]](hal, ids)
    conn = Connection(cfg, make_client, hal.ticks_ms, ids, queue, app.on_message)
    app.attach(conn)
    return app, conn


def run(hal, make_client, config_path="config.json", state_folder="/state", steps=None):
    try:
        cfg = load(config_path)
    except ConfigError as exc:
        hal.display.show(["CONFIG ERROR", str(exc)])
        return None
    hal.display.show(["Deckhand " + cfg["role"], cfg["thing"], "connecting…"])
    if not hal.connect_network(cfg):
        hal.display.show(["No Wi-Fi", "check config.json"])
    app, conn = build(cfg, hal, make_client, state_folder)
    n = 0
    while steps is None or n < steps:
        conn.step()
        event = hal.buttons.poll()
        if event is not None and isinstance(app, Handset):
            app.on_input(event)
        elif isinstance(app, Handset):
            app.tick()  # the countdown of a timed decision
        elif event in ("ok", "redeal") and isinstance(app, Dealer):
            # On a dealing table the ok button is "deal again", pressed after a referee cleared a jam.
            app.redeal()
        elif isinstance(app, EBoard):
            app.sense()  # a piece lifted or set down
            if event == "ok":
                app.report_position()  # the referee put the pieces back: the board says what it senses
        n += 1
    return app

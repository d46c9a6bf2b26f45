"""``deckhand venue``: start everything on 127.0.0.1 and keep it up until Ctrl-C; ``deckhand handset``:
a terminal handset against it."""

from __future__ import annotations

import argparse
import json
import re
import signal
import threading
from pathlib import Path
from typing import IO

from deckhand.errors import DeckhandError

from ..venue import organisers
from ..venue.database import Database
from ..venue.local import Venue


def run_venue(args: argparse.Namespace) -> int:
    # Handlers first: Ctrl-C while starting stops the venue as soon as it is up, cleanly.
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    venue = Venue(
        dynamodb_port=args.dynamodb_port,
        mqtt_port=args.mqtt_port,
        http_port=args.http_port,
        state_dir=Path(args.state),
        database=Database(args.database),
        fresh=args.fresh,
        broker=args.broker,
        bridge_workers=args.bridge_workers,
    ).start()
    print("Deckhand venue running on 127.0.0.1 (Ctrl-C stops it)")
    print(f"  organiser API  {venue.api_url}   (token in {Path(args.state) / 'venue.json'})")
    print(
        f"  MQTT broker    127.0.0.1:{venue.mqtt_port}   ({args.broker}) devices use dh/<thing>/up and dh/<thing>/down"
    )
    print(f"  DynamoDB       http://127.0.0.1:{venue.dynamodb_port}   table {venue.table} ({args.database})")
    if venue.database is Database.DYNAMODB_LOCAL:
        print(f"  data kept in   {venue.data_dir}   (restart to go on; --fresh to start empty)")
    stop.wait()
    print("stopping …")
    venue.stop()
    return 0


def run_organiser(args: argparse.Namespace, stdout: IO[str]) -> int:
    """``deckhand venue organiser add|remove NAME``: the token goes to the state folder's
    organisers.json (0600), never to the terminal; ``deckhand event --as NAME`` uses it."""
    state = Path(args.state)
    if args.action == "add":
        organisers.add(state, args.name)
        stdout.write(
            f"organiser {organisers.identity_of(args.name)}: token in {state / organisers.FILE} "
            f"(deckhand event --as {args.name} …); the event's owner grants it a role\n"
        )
    else:
        organisers.remove(state, args.name)
        stdout.write(f"organiser {organisers.identity_of(args.name)} removed: its token no longer works\n")
    return 0


def run_handset(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    from ..venue.terminal import TerminalHandset

    if not re.fullmatch(r"[A-Za-z0-9_:-]{1,128}", args.thing):
        raise DeckhandError(f"--thing {args.thing!r}: a thing name is 1–128 letters, digits or _:-")
    state = Path(args.state)
    port = args.port
    if port is None:
        running = state / "venue.json"
        port = json.loads(running.read_text())["mqtt_port"] if running.exists() else 1883
    # The handset keeps its message ids and unanswered actions here, as a device keeps them in flash.
    handset = TerminalHandset(args.thing, port, state / "handsets" / args.thing, stdout, host=args.host)
    return handset.run(stdin)

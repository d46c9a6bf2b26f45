"""``deckhand venue``: start everything on 127.0.0.1 and keep it up until Ctrl-C; ``deckhand handset``:
a terminal handset against it."""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import threading
from pathlib import Path
from typing import IO

from deckhand.errors import DeckhandError

from ..venue import organisers
from ..venue.database import Database
from ..venue.local import Venue
from ..venue.thread_names import name_threads


def run_venue(args: argparse.Namespace) -> int:
    # Handlers first: Ctrl-C while starting stops the venue as soon as it is up, cleanly.
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    name_threads()  # each thread's name where ``top -H`` and /proc show it (bench/online_bench.py reads it)
    venue = Venue(
        dynamodb_port=args.dynamodb_port,
        mqtt_port=args.mqtt_port,
        http_port=args.http_port,
        state_dir=Path(args.state),
        database=Database(args.database),
        fresh=args.fresh,
        broker=args.broker,
        bridge_workers=args.bridge_workers,
        api_host=args.api_host,
        tls_port=args.tls_port,
        device_host=args.device_host,
        restart_grace=args.restart_grace,
        ws_port=args.ws_port if args.ws_port is not None else (0 if args.broker == "aedes" else None),
        ws_host=args.ws_host,
    ).start()
    print("Deckhand venue running on 127.0.0.1 (Ctrl-C stops it)")
    print(f"  organiser API  {venue.api_url}   (token in {Path(args.state) / 'venue.json'})")
    print(
        f"  MQTT broker    127.0.0.1:{venue.mqtt_port}   ({args.broker}) devices use dh/<thing>/up and dh/<thing>/down"
    )
    if venue.tls is not None:
        print(f"  MQTT over TLS  {venue.tls.host}:{venue.tls.port}   (venue CA {venue.tls.ca})")
    if venue.ws_port is not None:
        print(
            f"  player page    {venue.api_url}/play/   (MQTT over WebSocket {venue.ws_host}:{venue.ws_port})"
        )
    code = organisers.sign_in_code(Path(args.state), organisers.VENUE_IDENTITY)
    print(
        f"  console        {venue.api_url}/console/sign-in#c={code}   (this link signs in once, within 10 minutes)"
    )
    print(f"  credentials    deckhand venue credentials <thing> --state {args.state}")
    print(f"  DynamoDB       http://127.0.0.1:{venue.dynamodb_port}   table {venue.table} ({args.database})")
    if venue.database is Database.DYNAMODB_LOCAL:
        print(f"  data kept in   {venue.data_dir}   (restart to go on; --fresh to start empty)")
    while not stop.wait(1):
        if not venue.bridge.receiving:  # no device's message would be handled: fail loudly, not on quietly
            print(
                "the bridge's receive thread stopped: no device message is handled; stopping", file=sys.stderr
            )
            venue.stop()
            return 1
    print("stopping …")
    venue.stop()
    return 0


def run_credentials(args: argparse.Namespace, stdout: IO[str]) -> int:
    """A thing's provisioning as one JSON object: its config.json for this venue (over TLS when the
    running venue serves it, with the venue CA's text), password included: handle it as a secret."""
    from ..venue.credentials import VenueCredentials, is_thing_name
    from ..venue.provisioning import VenueLink
    from ..venue.venue_tls import listener, names

    if not is_thing_name(args.thing):
        raise DeckhandError(
            f"{args.thing!r}: a thing name is 1–128 letters, digits or _:- (and not the server's)"
        )
    state = Path(args.state)
    running = state / "venue.json"
    if not running.exists():
        raise DeckhandError(
            f"no venue is running from {state}: start it first (its ports and TLS go in the config)"
        )
    info = json.loads(running.read_text())
    tls = None
    if info.get("tls_port"):
        tls = listener(state, info["device_host"], info["tls_port"])
        if args.endpoint and args.endpoint not in names(tls):
            raise DeckhandError(
                f"the venue's certificate does not name {args.endpoint}: restart the venue with "
                f"--device-host {args.endpoint} (the CA stays the same)"
            )
    link = VenueLink(info["mqtt_port"], VenueCredentials.for_state(state), tls=tls)
    stdout.write(json.dumps(link.provisioning(args.thing, args.role, args.endpoint), indent=2) + "\n")
    return 0


def run_organiser(args: argparse.Namespace, stdout: IO[str]) -> int:
    """``deckhand venue organiser add|remove NAME``: the token goes to the state folder's
    organisers.json (0600), never to the terminal; ``deckhand event --as NAME`` uses it. ``add`` also
    prints a link that signs NAME in to the console once (a one-time code in its fragment)."""
    state = Path(args.state)
    if args.action == "add":
        organisers.add(state, args.name)
        code = organisers.sign_in_code(state, organisers.identity_of(args.name))
        stdout.write(
            f"organiser {organisers.identity_of(args.name)}: token in {state / organisers.FILE} "
            f"(deckhand event --as {args.name} …); the event's owner grants it a role\n"
            f"console sign-in (once, within {organisers.CODE_SECONDS // 60} minutes): "
            f"{console_url(state)}sign-in#c={code}\n"
        )
    else:
        organisers.remove(state, args.name)
        stdout.write(f"organiser {organisers.identity_of(args.name)} removed: its token no longer works\n")
    return 0


def console_url(state: Path) -> str:
    """The console's address at the venue running from ``state`` (its default port if none runs)."""
    running = state / "venue.json"
    api = json.loads(running.read_text())["api"] if running.exists() else "http://127.0.0.1:8080"
    return f"{api}/console/"


def run_handset(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    from ..venue.credentials import VenueCredentials
    from ..venue.provisioning import VenueLink
    from ..venue.terminal import TerminalHandset

    if not re.fullmatch(r"[A-Za-z0-9_:-]{1,128}", args.thing):
        raise DeckhandError(f"--thing {args.thing!r}: a thing name is 1–128 letters, digits or _:-")
    state = Path(args.state)
    port = args.port
    if port is None:
        running = state / "venue.json"
        port = json.loads(running.read_text())["mqtt_port"] if running.exists() else 1883
    # The handset keeps its message ids and unanswered actions here, as a device keeps them in flash.
    link = VenueLink(port, VenueCredentials.for_state(state), host=args.host)
    handset = TerminalHandset(args.thing, link, state / "handsets" / args.thing, stdout, args.small_screen)
    return handset.run(stdin)

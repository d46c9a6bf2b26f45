"""``deckhand venue``: start everything on 127.0.0.1 and keep it up until Ctrl-C."""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path

from ..venue.local import Venue


def run_venue(args: argparse.Namespace) -> int:
    venue = Venue(
        dynamodb_port=args.dynamodb_port,
        mqtt_port=args.mqtt_port,
        http_port=args.http_port,
        state_dir=Path(args.state),
        persist=args.persist,
    ).start()
    print("Deckhand venue running on 127.0.0.1 (Ctrl-C stops it)")
    print(f"  organiser API  {venue.api_url}   (token in {Path(args.state) / 'venue.json'})")
    print(f"  MQTT broker    127.0.0.1:{venue.mqtt_port}   devices use dh/<thing>/up and dh/<thing>/down")
    print(f"  DynamoDB       http://127.0.0.1:{venue.dynamodb_port}   table {venue.table}")
    if args.persist:
        print(f"  data is saved to {venue.data_file} on exit and loaded on start")
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    print("stopping …")
    venue.stop()
    return 0

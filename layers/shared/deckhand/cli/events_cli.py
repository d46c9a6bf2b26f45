"""``deckhand event create|players|tables|start-round|status|standings|export`` over the API."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import IO, Any

from .competition import dump, read_document
from .organiser import ApiClient


def run_event_command(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    api = ApiClient(args.api, Path(args.state))
    command = args.event_command
    result: Any
    if command == "create":
        result = api.request("POST", "/events", read_document(stdin))
    elif command in ("players", "tables"):
        result = api.request("POST", f"/events/{args.event_id}/{command}", read_document(stdin))
    elif command == "start-round":
        result = api.request("POST", f"/events/{args.event_id}/rounds")
        number = result["round"]
        # Dealing is asynchronous: wait (with progress) until the round is in play.
        for _ in range(120):
            try:
                status = api.request("GET", f"/events/{args.event_id}/rounds/{number}")
            except Exception:  # noqa: BLE001 - not dealt yet
                stdout.write(f"dealing round {number} …\n")
                time.sleep(0.5)
                continue
            result = {"round": number, "status": status["status"], "commitment": status["commitment"]}
            break
    elif command == "status":
        number = args.round or api.request("GET", f"/events/{args.event_id}")["current_round"]
        result = api.request("GET", f"/events/{args.event_id}/rounds/{number}")
    elif command == "standings":
        result = api.request("GET", f"/events/{args.event_id}/standings")
    else:
        text = api.request("GET", f"/events/{args.event_id}/export?format={args.fmt}", raw=True)
        if args.fmt == "json":
            dump(json.loads(text), stdout)
        else:
            stdout.write(text)
        return 0
    dump(result, stdout)
    return 0

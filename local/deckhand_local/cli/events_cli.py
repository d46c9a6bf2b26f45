"""``deckhand event create|players|pairs|tables|pairing|referee|start-round|…|export`` over the API.

The answer (JSON) goes to stdout; progress of long waits goes to stderr, so scripts can read stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import IO, Any

from deckhand.errors import DeckhandError

from ..guide_cards import seating_of
from ..venue.api_client import ApiClient, ApiError
from .competition import dump, read_document


def round_progress(status: dict[str, Any]) -> str:
    if "matches_total" in status:  # a round of matches: each takes as many boards as its end mode gives
        done, total, unit = status["matches_done"], status["matches_total"], "matches"
    else:
        done, total, unit = status["boards_done"], status["boards_total"], "boards"
    line = f"round {status['round']}: {status['status']}, {unit} {done}/{total} done"
    stopped = sum(1 for t in status["tables"] for b in t["boards"] if b["status"] == "stopped")
    if stopped:
        line += f", {stopped} board(s) stopped for a referee"
    return line


def wait_for_round(
    api: ApiClient,
    event_id: str,
    number: int,
    *,
    until_done: bool,
    timeout: float,
    progress: IO[str],
    dealing: bool = False,
) -> dict[str, Any]:
    """Poll a round's status (once a second) until it is dealt — or done — printing each change.
    ``dealing``: the round was just requested; a deal that failed ends the wait with its reason."""
    deadline = time.monotonic() + timeout
    last = ""
    while True:
        try:
            status: dict[str, Any] = api.request("GET", f"/events/{event_id}/rounds/{number}")
        except ApiError as exc:
            if exc.status != 404:
                raise
            _check_deal(api, event_id, number, requested=dealing)
            status = {}
            line = f"dealing round {number} …"
        else:
            if not until_done or status["status"] == "done":
                return status
            line = round_progress(status)
        if line != last:
            progress.write(line + "\n")
            progress.flush()
            last = line
        if time.monotonic() > deadline:
            raise DeckhandError(
                f"round {number} is not {'done' if until_done else 'dealt'} after {timeout:.0f} s"
            )
        time.sleep(1.0)


def _check_deal(api: ApiClient, event_id: str, number: int, *, requested: bool) -> None:
    """A round without a status yet is worth waiting for only while it is being dealt. ``requested``:
    this command asked for its deal, which failed if the event went back before it (with the reason);
    otherwise a round the event is not dealing does not exist (a 404 is never "still dealing")."""
    event = api.request("GET", f"/events/{event_id}")
    if requested:
        if event["status"] != "dealing" and event["current_round"] < number:
            raise DeckhandError(event.get("deal_error") or f"round {number} was not dealt")
        return
    if event["status"] == "dealing" and event["current_round"] == number:
        return
    current = event["current_round"]
    rounds = (
        f"its rounds so far: 1–{current}"
        if current > 1
        else "its round so far: 1"
        if current
        else "no round yet"
    )
    raise DeckhandError(f"event {event_id} has no round {number} ({rounds})")


def _deal_and_wait(api: ApiClient, event_id: str, path: str, progress: IO[str]) -> dict[str, Any]:
    """Dealing is asynchronous: wait (with progress) until the round is in play."""
    number = api.request("POST", path)["round"]
    status = wait_for_round(
        api, event_id, number, until_done=False, timeout=120, progress=progress, dealing=True
    )
    return {
        "round": number,
        "status": status["status"],
        "commitment": status["commitment"],
        "seating": seating_of(status),
    }


def calls_of(status: dict[str, Any]) -> list[dict[str, Any]]:
    """Every "call the referee" of a round, by table then time: where to go, and who called."""
    out = []
    for t in status.get("tables", []):
        names = {p["seat"]: p.get("name") or p.get("player") for p in t.get("players", [])}
        for b in t.get("boards", []):
            for c in b.get("calls", []):
                out.append({"table": t["table"], "board": b["board"], "seat": c["seat"],
                            "player": names.get(c["seat"]), "at": c["at"],
                            **({"handled": c["handled"]} if c.get("handled") else {})})  # fmt: skip
    return sorted(out, key=lambda c: (str(c["table"]), c["at"]))


def join_links(
    api: ApiClient, event_id: str, players: list[str] | None, *, base: str | None, deployed: bool
) -> list[dict[str, str]]:
    """Issue the links and make each URL absolute: ``<base>/play/#t=<token>`` (the token in the
    fragment: a browser never sends it to a server, so it reaches no log and no Referer)."""
    if base is None and deployed:
        raise DeckhandError("--base is required with --api: the address where players open the client")
    # The page's own address (a stack's PlayerPageUrl output, https://<distribution>/play/) is taken as
    # its site's: the links' path already names the page.
    root = (base or api.api).rstrip("/").removesuffix("/play")
    if not root.startswith(("http://", "https://")):
        raise DeckhandError(f"--base {root!r} is not an http:// or https:// address")
    body = {"players": players} if players else None
    answer = api.request("POST", f"/events/{event_id}/links", body)
    return [{"player": link["player"], "url": root + link["url"]} for link in answer["links"]]


def run_event_command(
    args: argparse.Namespace, stdin: IO[str], stdout: IO[str], progress: IO[str] | None = None
) -> int:
    progress = progress or sys.stderr  # looked up now: a default bound at import would keep an old stream
    api = ApiClient(args.api, Path(args.state), organiser=getattr(args, "organiser", None))
    command = args.event_command
    result: Any
    if command == "create":
        result = api.request("POST", "/events", read_document(stdin))
    elif command == "pairing":
        number = args.round or api.request("GET", f"/events/{args.event_id}")["current_round"] + 1
        path = f"/events/{args.event_id}/rounds/{number}/pairing"
        result = api.request("PUT", path, read_document(stdin)) if args.override else api.request("GET", path)
    elif command == "join-links":
        links = join_links(api, args.event_id, args.players, base=args.base, deployed=args.api is not None)
        if getattr(args, "fmt", "jsonl") == "html":
            from ..guide_cards import join_cards, names_of

            names = names_of(api.request("GET", f"/events/{args.event_id}/export"))
            stdout.write(join_cards(args.event_id, links, names, args.lang))
            return 0
        for link in links:
            stdout.write(json.dumps(link, ensure_ascii=False) + "\n")
        return 0
    elif command == "revoke-link":
        result = api.request("DELETE", f"/events/{args.event_id}/links/{args.player}")
    elif command in ("players", "tables", "pairs", "referee"):
        result = api.request("POST", f"/events/{args.event_id}/{command}", read_document(stdin))
    elif command == "start-round":
        result = _deal_and_wait(api, args.event_id, f"/events/{args.event_id}/rounds", progress)
    elif command == "retry-deal":
        # A deal that failed for good: the current round is dealt again (the same boards).
        number = args.round or api.request("GET", f"/events/{args.event_id}")["current_round"]
        result = _deal_and_wait(api, args.event_id, f"/events/{args.event_id}/rounds/{number}/deal", progress)
    elif command == "status":
        number = args.round or api.request("GET", f"/events/{args.event_id}")["current_round"]
        if not number:
            raise DeckhandError(f"event {args.event_id} has no round yet (start one with start-round)")
        result = wait_for_round(
            api, args.event_id, number, until_done=args.wait, timeout=args.timeout, progress=progress
        )
    elif command == "standings":
        result = api.request("GET", f"/events/{args.event_id}/standings")
    elif command == "audit":
        result = api.request("GET", f"/events/{args.event_id}/audit")
    elif command == "calls":
        number = args.round or api.request("GET", f"/events/{args.event_id}")["current_round"]
        if not number:
            raise DeckhandError(f"event {args.event_id} has no round yet (start one with start-round)")
        status = api.request("GET", f"/events/{args.event_id}/rounds/{number}")
        result = {"round": number, "calls": calls_of(status)}
    elif command == "seating":
        number = args.round or api.request("GET", f"/events/{args.event_id}")["current_round"]
        if not number:
            raise DeckhandError(f"event {args.event_id} has no round yet (start one with start-round)")
        seating = seating_of(api.request("GET", f"/events/{args.event_id}/rounds/{number}"))
        if args.fmt == "html":
            from ..guide_cards import seat_cards

            stdout.write(seat_cards(args.event_id, number, seating, getattr(args, "lang", "zh-CN")))
            return 0
        result = {"round": number, "seating": seating}
    else:
        text = api.request("GET", f"/events/{args.event_id}/export?format={args.fmt}", raw=True)
        if args.fmt == "json":  # the others are text (CSV, HTML) as the API gives them
            dump(json.loads(text), stdout)
        else:
            stdout.write(text)
        return 0
    dump(result, stdout)
    return 0

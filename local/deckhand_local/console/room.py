"""The room's grid from a round's status as the API gives it to the event's staff
(``GET /events/{id}/rounds/{n}``: each table's seats and boards, a board's seats to act and the
clock's next deadline, calls and why a board stopped): one row a table, worked out on every request,
so a reload shows what the database holds."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

IN_PLAY = ("playing", "stopped", "waiting")


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    thing: str
    online: bool | None = None  # the device's connection up (None: the broker has said nothing of it)
    since: str = ""  # since when, on the venue's clock (HH:MM:SS)


def seat_of(p: dict[str, Any]) -> Seat:
    """A seat of the status's table, with its device's presence (the API gives it to staff)."""
    online = p.get("online")
    since = p.get("online_since")
    return Seat(
        p["seat"],
        p.get("name") or p.get("player") or "AI",
        p.get("thing") or "",
        online if isinstance(online, bool) else None,
        clock_time(since) if isinstance(since, int) and isinstance(online, bool) else "",
    )


def clock_time(at_ms: int) -> str:
    try:
        return dt.datetime.fromtimestamp(at_ms / 1000).strftime("%H:%M:%S")
    except (ValueError, OverflowError, OSError):
        return ""


@dataclass(frozen=True)
class TableRow:
    table: str
    group: str
    seats: list[Seat]
    board: str | None  # the board in play (None: the table has played them all)
    board_status: str
    turn: list[str]  # the names of the seats asked to act
    seconds_left: int | None  # until the clock acts for them (None: no clock running)
    done: int
    total: int
    calls: list[int]  # seats whose call for the referee is not handled yet (any board of the round)
    stopped: str | None  # why the board in play stopped ("" when not told)

    @property
    def called_seats(self) -> str:
        """The calling seats as the cards number them (seat 1 first; the status counts from 0)."""
        return ", ".join(str(seat + 1) for seat in self.calls)


def rows(status: dict[str, Any], now_ms: int) -> list[TableRow]:
    out = []
    for table in status.get("tables") or []:
        seats = [seat_of(p) for p in table.get("players") or []]
        boards = table.get("boards") or []
        current = next((b for b in boards if b.get("status") in IN_PLAY), None)
        turn: list[str] = []
        seconds = None
        stopped = None
        if current is not None:
            names = {s.seat: s.name for s in seats}
            turn = [names.get(s, str(s)) for s in current.get("turn") or []]
            if current.get("deadline"):
                seconds = max(0, (int(current["deadline"]) - now_ms + 999) // 1000)
            if current.get("status") == "stopped":
                stopped = str(current.get("why") or "")
        # a call flashes until a referee marks it handled (the status says so: the API's audit)
        calls = sorted({c["seat"] for b in boards for c in b.get("calls") or [] if not c.get("handled")})
        out.append(
            TableRow(
                table=table["table"],
                group=str(table.get("group", "")),
                seats=seats,
                board=current["board"] if current is not None else None,
                board_status=current["status"] if current is not None else "ended",
                turn=turn,
                seconds_left=seconds,
                done=sum(1 for b in boards if b.get("status") == "ended"),
                total=len(boards),
                calls=calls,
                stopped=stopped,
            )
        )
    return out

"""A whole event run from the tournament director's console alone, in Chromium against a real local venue,
in Chinese on a tablet (768 px, never scrolling sideways): the TD creates it, registers its players or
pairs from a CSV file, starts each round (a match event's pairing shown first), referees it — answers a
handset's call, gives a penalty and (Big Two) an artificial score through the referee's forms — and
publishes and verifies the results while simulated handsets play: a two-round Big Two event and a
two-round Guandan Swiss. The same event run through the CLI (the same seeds: the same seating, pairing,
deals and commitments, the same bots, the same referee actions through ``deckhand event referee``) ends
with the same standings the console shows."""

from __future__ import annotations

import datetime as dt
import io
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from phone_pages import no_sideways_scroll, wait
from test_td_console import CHROMIUM

pytest.importorskip("playwright")

pytestmark = [
    pytest.mark.xdist_group("console"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium"),
]
TABLET = {"width": 768, "height": 1024}
# An artificial score a seat (the form's select for seat n is labelled "座位 n 的人为分").
ARTIFICIAL = {
    f"座位 {s + 1} 的人为分": k for s, k in enumerate(("average_plus", "average", "average_minus", "average"))
}


def things(prefix: str, tables: int) -> list[dict[str, Any]]:
    return [
        {"id": f"T{t}", "seats": [f"{prefix}-{t}-{s}" for s in range(4)], "dealer": None}
        for t in range(1, tables + 1)
    ]


@contextmanager
def handsets(venue: Any, tables: list[dict[str, Any]], name: str) -> Iterator[Any]:
    """Bot handsets at every seat of ``tables``, playing as soon as a board is theirs."""
    from deckhand_local.venue.event_setup import make_devices
    from deckhand_local.venue.realtime import RealTimeDevices
    from deckhand_local.venue.seat_views import DatabaseSeatViews

    devices = RealTimeDevices(
        make_devices(tables, venue.link, venue.state_dir / name, DatabaseSeatViews()), tick_seconds=0.02
    )
    devices.start()
    try:
        yield devices
    finally:
        devices.close()
    assert devices.errors == []


def signed_in_page(venue: Any, new_context: Any) -> tuple[Any, list[str]]:
    from deckhand_local.venue import organisers

    page = new_context(viewport=TABLET).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(f"{m.text} {m.location}") if m.type == "error" else None)
    code = organisers.sign_in_code(venue.state_dir, organisers.identity_of("td"))
    page.goto(f"{venue.api_url}/console/sign-in#c={code}")
    page.wait_for_url(f"{venue.api_url}/console/")
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    return page, errors


def create(page: Any, venue: Any, fields: dict[str, str]) -> None:
    """The new-event form filled by its labels' fields, checked against the grade, then saved."""
    page.goto(f"{venue.api_url}/console/events/new")
    for field, value in fields.items():
        if field in ("ruleset", "grade", "match_format"):
            page.locator(f"#{field}").select_option(value)
        else:
            page.locator(f"#{field}").fill(value)
    no_sideways_scroll(page)
    page.get_by_role("button", name="检查级别要求（不保存）").click()
    assert page.locator("[data-checked]").get_attribute("data-checked") == "0"
    page.get_by_role("button", name="创建赛事").click()
    page.wait_for_url(f"{venue.api_url}/console/events/{fields['event_id']}")


def register(page: Any, kind: str, csv: str, done: str) -> None:
    """A CSV file chosen in the registration form (a first line of headings, a byte-order mark)."""
    data = ("\ufeff" + csv).encode()
    page.locator(f"#{kind}-file").set_input_files(
        {"name": f"{kind}.csv", "mimeType": "text/csv", "buffer": data}
    )
    page.locator(f"#{kind}-form button[type=submit]").click()
    assert page.locator("[data-done]").inner_text() == done


def tables_csv(tables: list[dict[str, Any]]) -> str:
    return "\n".join(", ".join([t["id"], *t["seats"]]) for t in tables)


def start_round(page: Any, venue: Any, event_id: str, number: int) -> str:
    """Start round ``number`` from the event's page; its commitment, once dealt."""
    page.goto(f"{venue.api_url}/console/events/{event_id}")
    page.get_by_role("button", name="开始下一轮").click()
    assert page.locator("[data-done]").inner_text() == f"第 {number} 轮已开始发牌。"
    wait(lambda: _commitment(page, venue, event_id) != "", timeout=20, what=f"round {number} dealt")
    no_sideways_scroll(page)
    return _commitment(page, venue, event_id)


def watch_round(page: Any, venue: Any, event_id: str, number: int) -> None:
    """The room, until round ``number`` is done."""
    page.goto(f"{venue.api_url}/console/events/{event_id}/room")
    summary = page.locator("#grid [data-round-status]")
    wait(
        lambda: (
            summary.count() == 1
            and summary.get_attribute("data-round") == str(number)
            and summary.get_attribute("data-round-status") == "done"
        ),
        timeout=90,
        what=f"round {number} done",
    )
    no_sideways_scroll(page)


def play_round(page: Any, venue: Any, event_id: str, number: int) -> str:
    """Start round ``number`` and watch the room until it is done; its commitment."""
    commitment = start_round(page, venue, event_id, number)
    watch_round(page, venue, event_id, number)
    return commitment


def call_from(devices: Any) -> None:
    """The first handset presses its referee button once its board is dealt (the game goes on)."""
    caller = devices.handsets[0]
    wait(lambda: caller.app.message is not None, timeout=20, what="the handset's first view")
    devices.pause()
    caller.app.on_input("call")
    devices.resume()


def answer_call(page: Any, venue: Any, event_id: str) -> None:
    """The call flashes in the room; the TD answers it on the calls page, and the audit has it."""
    page.goto(f"{venue.api_url}/console/events/{event_id}/room")
    wait(lambda: page.locator("#grid .table.called [data-call]").count() == 1, timeout=20, what="the call")
    page.get_by_role("link", name="呼叫", exact=True).click()
    page.wait_for_url(f"{venue.api_url}/console/events/{event_id}/calls")
    page.get_by_label("备注（可留空）").first.fill("到场处理")
    page.get_by_role("button", name="标记为已处理").first.click()
    wait(lambda: page.locator("[data-done]").count() == 1, timeout=10, what="the call handled")
    assert page.locator('[data-handled="yes"]').count() == 1
    assert page.locator('.audit-entry[data-audit-kind="call_handled"]').count() == 1


def referee(page: Any, venue: Any, event_id: str, slug: str, choices: dict[str, str], reason: str) -> None:
    """A referee form filled (``choices``: a select's label → its value), previewed, confirmed: its
    audit entry shown."""
    page.goto(f"{venue.api_url}/console/events/{event_id}/referee/{slug}")
    for label, value in choices.items():
        page.get_by_label(label).select_option(value)
    page.get_by_label("理由（记入审计）").fill(reason)
    page.get_by_role("button", name="预览").click()
    wait(lambda: page.locator("[data-preview]").count() == 1, timeout=10, what=f"the {slug} previewed")
    no_sideways_scroll(page)
    page.get_by_role("button", name="确认执行").click()
    wait(lambda: page.locator("[data-done]").count() == 1, timeout=10, what=f"the {slug} done")
    assert page.locator(f'.audit-entry[data-audit-kind="{slug}"]').count() == 1


def _commitment(page: Any, venue: Any, event_id: str) -> str:
    page.goto(f"{venue.api_url}/console/events/{event_id}")
    shown = page.locator("[data-commitment]")
    return (shown.inner_text() or "").strip() if shown.count() else ""


def publish_and_verify(page: Any, venue: Any, event_id: str) -> list[tuple[str, str, str]]:
    """The publish page, the verdict, and the standings the console shows (player or pair, place, total)."""
    page.goto(f"{venue.api_url}/console/events/{event_id}")
    page.locator("#to-publish").click()
    page.locator("[data-site]").wait_for()
    no_sideways_scroll(page)
    assert page.locator("[data-site]").get_attribute("href") == f"/site/{event_id}/"
    with page.expect_download() as download:
        page.locator("#site-zip").click()
    assert download.value.suggested_filename == f"{event_id}-site.zip"
    page.locator("#to-verify").click()
    assert page.locator("[data-verified]").get_attribute("data-verified") == "yes"
    assert page.locator("[data-verify-round]").count() == 2
    no_sideways_scroll(page)
    page.goto(f"{venue.api_url}/console/events/{event_id}/standings")
    rows = page.locator("[data-standings] tbody tr")
    return [
        (
            rows.nth(i).get_attribute("data-player") or "",
            rows.nth(i).locator("td").first.inner_text(),
            rows.nth(i).get_attribute("data-total") or "",
        )
        for i in range(rows.count())
    ]


def same_standings(a: list[tuple[str, str, str]], b: list[tuple[str, str, str]]) -> bool:
    """Everyone's total the same, and the same place for every total nobody shares: players tied on
    their total are parted by the rules' chain, whose last steps (a duplicate event's think time) two
    runs of the same play cannot share."""
    totals = {player: total for player, _, total in a}
    if totals != {player: total for player, _, total in b}:
        return False
    alone = {t for t in totals.values() if list(totals.values()).count(t) == 1}
    return {p: place for p, place, t in a if t in alone} == {p: place for p, place, t in b if t in alone}


def cli(monkeypatch: Any, capsys: Any, state: Path, *args: str, stdin: Any = None) -> Any:
    from deckhand_local.cli.main import main

    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(stdin) if stdin is not None else ""))
    code = main(["event", "--state", str(state), *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out) if out.strip() else None


def cli_event(
    venue: Any,
    monkeypatch: Any,
    capsys: Any,
    spec: dict[str, Any],
    entrants: dict[str, Any],
    tables: list[dict[str, Any]],
    steps: dict[tuple[str, int], Callable[[Any], None]] | None = None,
) -> tuple[list[str], list[tuple[str, str, str]]]:
    """The same event through ``deckhand event``: its commitments and final standings. ``steps``: what
    is done to the handsets (given) at a stage of a round — ("before", n) its start, ("started", n)
    after, ("done", n) once it is over."""
    step = steps or {}
    state = venue.state_dir
    event_id = spec["event_id"]
    cli(monkeypatch, capsys, state, "create", stdin=spec)
    cli(monkeypatch, capsys, state, "pairs" if "pairs" in entrants else "players", event_id, stdin=entrants)
    cli(
        monkeypatch,
        capsys,
        state,
        "tables",
        event_id,
        stdin={"tables": [{"id": t["id"], "seats": t["seats"]} for t in tables]},
    )
    commitments = []
    with handsets(venue, tables, event_id) as devices:
        for n in (1, 2):
            if "pairs" in entrants:
                cli(
                    monkeypatch, capsys, state, "pairing", event_id
                )  # shown before the round, as in the console
            step.get(("before", n), lambda _: None)(devices)
            started = cli(monkeypatch, capsys, state, "start-round", event_id)
            commitments.append(started["commitment"])
            step.get(("started", n), lambda _: None)(devices)
            cli(monkeypatch, capsys, state, "status", event_id, "--wait", "--timeout", "90")
            step.get(("done", n), lambda _: None)(devices)
    standings = cli(monkeypatch, capsys, state, "standings", event_id)["standings"]
    rows = [
        (s.get("player") or s.get("team"), str(s["place"]), str(s["total"] if "total" in s else s["mp"]))
        for s in standings
    ]
    return commitments, rows


def test_a_td_runs_a_two_round_big_two_event_from_the_console(
    console_venue, new_context, monkeypatch, capsys
):
    venue = console_venue
    page, errors = signed_in_page(venue, new_context)
    spec = {
        "name": "控制台大二杯",
        "ruleset": "bigtwo-2017",
        "grade": "unrated",
        "rounds": "2",
        "boards_per_round": "1",
        "start": dt.date.today().isoformat(),
        "seed": "td-console-bigtwo",
        "deal_seed": "td-console-bigtwo-deals",
    }
    create(page, venue, {**spec, "event_id": "td-b2"})
    players = [(f"选手 {i}", f"P{i}", f"地区 {i % 2}") for i in range(1, 9)]
    register(
        page,
        "players",
        "姓名, 注册号, 地区\n" + "\n".join(", ".join(p) for p in players),
        "已登记 8 名选手。",
    )
    tables = things("tdb2", 2)
    page.locator("#tables-csv").fill(tables_csv(tables))
    page.get_by_role("button", name="登记牌桌").click()
    assert page.locator("[data-done]").inner_text() == "已登记 2 张牌桌。"
    no_sideways_scroll(page)
    with handsets(venue, tables, "td-b2") as devices:
        commitments = [start_round(page, venue, "td-b2", 1)]
        call_from(devices)
        answer_call(page, venue, "td-b2")
        watch_round(page, venue, "td-b2", 1)
        commitments.append(play_round(page, venue, "td-b2", 2))
    # Once the last round is over (an artificial score earlier would tie players whom the next round's
    # seating parts by their think time, which two runs cannot share): a penalty, and an artificial
    # score for table T1's board.
    referee(page, venue, "td-b2", "violation", {"选手": "P3"}, "拖延出牌")
    referee(page, venue, "td-b2", "artificial", {"牌桌": "T1", "牌副": "1", **ARTIFICIAL}, "牌掉在地上")
    shown = publish_and_verify(page, venue, "td-b2")
    assert len(shown) == 8 and errors == [], errors

    cli_spec = {**spec, "event_id": "cli-b2", "rounds": 2, "boards_per_round": 1}
    entrants = {
        "players": [{"id": number, "name": name, "region": region} for name, number, region in players]
    }
    from deckhand_local.venue.api_client import ApiClient

    state = venue.state_dir

    def call(devices: Any) -> None:
        call_from(devices)

        def calls() -> list[dict[str, Any]]:
            return list(cli(monkeypatch, capsys, state, "calls", "cli-b2")["calls"])

        wait(lambda: calls() != [], timeout=20, what="the call")
        c = calls()[0]
        where = {"round": 1, "table": c["table"], "board": c["board"], "seat": c["seat"], "at": c["at"]}
        ApiClient(state_dir=state).request("POST", "/events/cli-b2/calls/handled", where)

    def penalise(_: Any) -> None:
        for action in (
            {"kind": "violation", "player": "P3", "reason": "拖延出牌"},
            {"kind": "artificial", "round": 2, "table": "T1", "board": "1", "reason": "牌掉在地上",
             "artificial": list(ARTIFICIAL.values())},
        ):  # fmt: skip
            cli(monkeypatch, capsys, state, "referee", "cli-b2", stdin=action)

    steps = {("started", 1): call, ("done", 2): penalise}
    cli_commitments, cli_standings = cli_event(
        venue, monkeypatch, capsys, cli_spec, entrants, things("clib2", 2), steps
    )
    assert commitments == cli_commitments  # the same deals, committed to before each round
    assert same_standings(shown, cli_standings)


def test_a_td_runs_a_two_round_guandan_swiss_from_the_console(
    console_venue, new_context, monkeypatch, capsys
):
    venue = console_venue
    page, errors = signed_in_page(venue, new_context)
    options = {"end_mode": "boards", "boards": 1}
    spec = {
        "name": "控制台掼蛋积分赛",
        "ruleset": "guandan-2023",
        "grade": "unrated",
        "rounds": "2",
        "start": dt.date.today().isoformat(),
        "seed": "td-console-guandan",
        "deal_seed": "td-console-guandan-deals",
        "match_format": "swiss",
        "match_swiss": json.dumps({"lot_seed": 7}),
        "options": json.dumps(options),
    }
    create(page, venue, {**spec, "event_id": "td-gd"})
    pairs = [
        (f"第 {p} 对", p, f"地区 {i % 2}", f"{p} 甲", f"{p}1", f"{p} 乙", f"{p}2")
        for i, p in enumerate("ABCD")
    ]
    register(page, "pairs", "\n".join(", ".join(p) for p in pairs), "已登记 4 对。")
    tables = things("tdgd", 2)
    page.locator("#tables-csv").fill(tables_csv(tables))
    page.get_by_role("button", name="登记牌桌").click()
    assert page.locator("[data-done]").inner_text() == "已登记 2 张牌桌。"
    commitments = []
    with handsets(venue, tables, "td-gd") as devices:
        for number in (1, 2):
            page.goto(f"{venue.api_url}/console/events/td-gd")
            page.locator("#to-pairing").click()  # the pairing the Swiss makes, before the round
            assert page.locator("[data-pairing]").get_attribute("data-pairing") == str(number)
            assert page.locator("[data-pairs] [data-match]").count() == 2
            no_sideways_scroll(page)
            if number == 1:  # the handsets wait while the TD gives a foul on the board just dealt
                devices.pause()
            commitments.append(start_round(page, venue, "td-gd", number))
            if number == 1:
                referee(page, venue, "td-gd", "foul", {"选手": "A1"}, "看了对手的牌")
                devices.resume()
            watch_round(page, venue, "td-gd", number)
    shown = publish_and_verify(page, venue, "td-gd")
    assert sorted(row[0] for row in shown) == list("ABCD") and errors == [], errors

    cli_spec = {
        **{k: v for k, v in spec.items() if not k.startswith("match_") and k != "options"},
        "event_id": "cli-gd",
        "rounds": 2,
        "match": {"format": "swiss", "swiss": {"lot_seed": 7}},
        "options": options,
    }
    entrants = {
        "pairs": [
            {
                "id": p,
                "name": name,
                "region": region,
                "players": [{"id": n1, "name": a}, {"id": n2, "name": b}],
            }
            for name, p, region, a, n1, b, n2 in pairs
        ]
    }
    foul = {"kind": "foul", "player": "A1", "reason": "看了对手的牌"}

    def penalise(devices: Any) -> None:
        cli(monkeypatch, capsys, venue.state_dir, "referee", "cli-gd", stdin=foul)
        devices.resume()

    steps = {("before", 1): lambda devices: devices.pause(), ("started", 1): penalise}
    cli_commitments, cli_standings = cli_event(
        venue, monkeypatch, capsys, cli_spec, entrants, things("cligd", 2), steps
    )
    assert commitments == cli_commitments
    assert same_standings(shown, cli_standings)

"""A player's own device (a join link's thing) follows its player from table to table (issue 36).

Handsets stay at their tables; a player device acts for whatever seat the round's seating gives its
player, gets that seat's views only, and is refused from the moment its link is revoked.
"""

from __future__ import annotations

from typing import Any

from backend import THINGS, Backend, DeviceBot, act, create_table, prepare, run_round
from deckhand.service.duplicate import rounds
from deckhand.service.infra import outgoing
from deckhand.service.organiser import player_links
from deckhand.service.storage import keys, models
from moto import mock_aws


def seat_in(round_no: int, player: str) -> tuple[str, int]:
    seating = models.RoundItem.get(keys.event_pk("cup"), keys.round_sk(round_no)).seating
    row = next(row for row in seating if player in row["seats"])
    return row["table"], row["seats"].index(player)


def views(b: Backend, thing: str) -> list[dict[str, Any]]:
    return [p for p in b.publisher.to(thing) if p["t"] == "view"]


def test_player_devices_follow_their_players_through_the_rounds_and_see_only_their_seat() -> None:
    with mock_aws():
        create_table()
        b = Backend()
        prepare(b)
        links = {link.player: link.thing for link in player_links.issue_links("cup")}
        web = [DeviceBot(b, thing) for thing in links.values()]
        moved = set()
        for round_no in (1, 2):
            rounds.request_next_round(b.rt, "cup")
            run_round(b, web)  # the players' own devices alone play the round to its end
            assert models.RoundItem.get(keys.event_pk("cup"), keys.round_sk(round_no)).status == "done"
            for player, thing in links.items():
                table, seat = seat_in(round_no, player)
                got = [v for v in views(b, thing) if v["r"] == round_no]
                assert got and {v["s"] for v in got} == {seat}, (player, round_no)
                moved.add((player, table, seat))
        assert len(moved) > len(links)  # the Swiss movement moved players between rounds
        for handset in THINGS:
            assert views(b, handset) == []  # a seated player's views go to their own device


def test_a_revoked_links_device_is_refused_from_its_next_message() -> None:
    with mock_aws():
        create_table()
        b = Backend()
        prepare(b)
        links = {link.player: link.thing for link in player_links.issue_links("cup", ["P1", "P2"])}
        rounds.request_next_round(b.rt, "cup")
        thing = links["P1"]
        sent = len(views(b, thing))  # its views since the round started
        assert b.send(thing, {"t": "hello", "msg": "h1"})["status"] == "accepted"
        table, seat = seat_in(1, "P1")
        assert len(views(b, thing)) == sent + 1  # a hello resends its view
        view = views(b, thing)[-1]
        assert view["s"] == seat
        player_links.revoke_link("cup", "P1")
        before = models.BoardStateItem.get(keys.board_pk("cup", 1, table, view["b"]), keys.STATE).version
        for payload in ({"t": "hello", "msg": "h2"}, act("m1", view["b"], "pass", r=1)):
            outcome = b.send(thing, payload)
            assert outcome["status"] == "rejected" and outcome["code"] == outgoing.UNKNOWN_DEVICE, outcome
        after = models.BoardStateItem.get(keys.board_pk("cup", 1, table, view["b"]), keys.STATE).version
        assert after == before
        # The other player's device is untouched.
        assert b.send(links["P2"], {"t": "hello", "msg": "h3"})["status"] == "accepted"


def test_a_device_whose_player_sits_out_is_only_acknowledged() -> None:
    with mock_aws():
        create_table()
        b = Backend()
        prepare(b)
        (link,) = player_links.issue_links("cup", ["P1"])
        assert b.send(link.thing, {"t": "hello", "msg": "h1"})["status"] == "accepted"  # no round yet
        assert [p["t"] for p in b.publisher.to(link.thing)] == ["ack"]


def test_a_match_events_players_get_links_and_play_their_matches_on_them() -> None:
    """A match event's players are its pairs' (links are issued per player), and a round of matches
    names their own devices too: they alone play the round's matches to their end."""
    from test_backend_match import THINGS as HANDSETS
    from test_backend_match import SeatBot
    from test_backend_match import prepare as prepare_league

    with mock_aws():
        create_table()
        b = Backend()
        prepare_league(b)
        issued = player_links.issue_links("league")
        assert sorted(link.player for link in issued) == sorted(f"{p}{n}" for p in "NESW" for n in (1, 2))
        rounds.request_next_round(b.rt, "league")
        run_round(b, [SeatBot(b, link.thing) for link in issued])  # type: ignore[list-item]
        item = models.RoundItem.get(keys.event_pk("league"), keys.round_sk(1))
        assert item.status == "done"
        for link in issued:
            assert views(b, link.thing), link.player
        for handset in HANDSETS:
            assert views(b, handset) == []


def test_a_link_issued_or_revoked_mid_round_moves_the_seats_views_at_once() -> None:
    """Issued while the round is in play, the player's device gets the seat's view at once and plays
    on it; revoked, the table's handset has the seat again and the round plays to its end."""
    from api_calls import call, cup_dealt

    with cup_dealt() as (api, table_a, table_b):
        b = table_a[0].backend
        handsets = {bot.thing: bot for bot in table_a + table_b}
        table, seat = seat_in(1, "P1")
        handset = next(t for t in handsets if t.startswith(f"hs-{table}-") and t.endswith(f"-{seat}"))
        status, body = call(api, "POST", "/events/cup/links", {"players": ["P1"]})
        assert status == 201
        thing = body["links"][0]["thing"]
        assert [v["s"] for v in views(b, thing)] == [seat]  # the current view, at once
        web = DeviceBot(b, thing)
        bots = [web if t == handset else bot for t, bot in handsets.items()]
        for _ in range(3):  # a few plays round the tables, the player's on their own device
            for bot in bots:
                bot.act()
        sent_to_handset = len(views(b, handset))
        status, _ = call(api, "DELETE", "/events/cup/links/P1")
        assert status == 200
        assert len(views(b, handset)) == sent_to_handset + 1  # the handset has the seat's view again
        run_round(b, list(handsets.values()))
        assert models.RoundItem.get(keys.event_pk("cup"), keys.round_sk(1)).status == "done"
        assert web.counter > 0


def test_a_player_devices_message_for_a_round_that_does_not_exist_is_refused() -> None:
    with mock_aws():
        create_table()
        b = Backend()
        prepare(b)
        (link,) = player_links.issue_links("cup", ["P1"])
        rounds.request_next_round(b.rt, "cup")
        outcome = b.send(link.thing, act("m1", "1", "pass", r=99))
        assert (outcome["status"], outcome["code"]) == ("rejected", "no_round"), outcome

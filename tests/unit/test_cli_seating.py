"""`deckhand event seating`: the seating rows from a round's status, and printable guide cards."""

from deckhand_local.cli.events_cli import seating_of
from deckhand_local.guide_cards import seat_cards

STATUS = {
    "round": 2,
    "tables": [
        {
            "table": "A",
            "players": [
                # the device's presence is the status's, not the seating's
                {
                    "seat": 0,
                    "player": "P1",
                    "name": "<b>Li</b>",
                    "thing": "hs-A-0",
                    "online": True,
                    "online_since": 5,
                },
                {"seat": 1, "player": None, "name": None},
            ],
        },
        {"table": "B", "players": [{"seat": 3, "player": "P2", "name": "Wang", "thing": "hs-B-3"}]},
    ],
}


def test_seating_lists_every_seated_player_with_table_and_handset():
    assert seating_of(STATUS) == [
        {"table": "A", "seat": 0, "player": "P1", "name": "<b>Li</b>", "thing": "hs-A-0"},
        {"table": "B", "seat": 3, "player": "P2", "name": "Wang", "thing": "hs-B-3"},
    ]


def test_guide_cards_give_each_player_a_card_escaped_and_in_name_order():
    page = seat_cards("cup", 2, seating_of(STATUS), "en")
    assert page.count('class="card"') == 2 and "&lt;b&gt;Li&lt;/b&gt;" in page and "<b>Li" not in page
    assert (
        page.index("Li&lt;") < page.index("Wang") and "Table B, seat 3" in page and "Handset hs-B-3" in page
    )
    assert '<meta name="viewport"' in page and "round 2" in page


def test_guide_cards_are_in_chinese_by_default():
    page = seat_cards("cup", 2, seating_of(STATUS), "zh-CN")
    assert '<html lang="zh-CN">' in page and "第 2 轮" in page and "B 桌 · 3 号位" in page
    assert "终端 hs-B-3" in page and "Table" not in page and "Handset" not in page


def test_calls_are_listed_by_table_and_time_with_who_called():
    from deckhand_local.cli.events_cli import calls_of

    status = {
        "tables": [
            {"table": "B", "players": [{"seat": 1, "player": "P2", "name": "Wang"}],
             "boards": [{"board": "1", "calls": [{"seat": 1, "at": 30},
                                                 {"seat": 1, "at": 10, "handled": {"by": "ref", "at": 15}}]}]},
            {"table": "A", "players": [], "boards": [{"board": "2", "calls": [{"seat": 0, "at": 20}]}, {"board": "3"}]},
        ]
    }  # fmt: skip
    assert calls_of(status) == [
        {"table": "A", "board": "2", "seat": 0, "player": None, "at": 20},
        {
            "table": "B",
            "board": "1",
            "seat": 1,
            "player": "Wang",
            "at": 10,
            "handled": {"by": "ref", "at": 15},
        },
        {"table": "B", "board": "1", "seat": 1, "player": "Wang", "at": 30},
    ]

"""A device's language (docs/protocol.md, ``hello``'s ``lang``): a hello that says one has the device's
next views drawn in it — the board shown, the table's next boards, the next round's — and another one
switches back; a device that never says one (the handsets) gets English, unchanged; a language the
service does not draw is refused naming the field, and changes nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from backend import THINGS, WRITES, cup_started, database_calls, run_round, setup_moto_env
from deckhand.service.duplicate import rounds
from deckhand.service.storage.keys import META, device_pk
from deckhand.service.storage.models import DeviceItem

setup_moto_env()

CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef]")
CHINESE, HANDSET = THINGS[1], THINGS[0]


@pytest.fixture
def started() -> Iterator[Any]:
    with cup_started() as (b, bots):
        yield b, bots


def words(view: dict[str, Any] | None) -> str:
    assert view is not None
    ask = view.get("ask") or {}
    return " ".join([*view["l"], ask.get("p", ""), *(o["l"] for o in ask.get("o", []))])


def views(b: Any, thing: str) -> list[dict[str, Any]]:
    return [p for p in b.publisher.to(thing) if p["t"] == "view"]


def writes(b: Any, thing: str, payload: dict[str, Any]) -> tuple[dict[str, Any], int]:
    with database_calls() as calls:
        outcome = b.send(thing, payload)
    return outcome, sum(n for op, n in calls.items() if op in WRITES)


def test_a_hello_with_a_language_draws_the_device_s_views_in_it_from_then_on(started) -> None:
    b, bots = started
    english = words(b.last_view(CHINESE))
    assert not CJK.search(english) and "Deal commitment" in english
    handset_before = views(b, HANDSET)[-1]
    assert b.send(CHINESE, {"t": "hello", "msg": "h-1", "lang": "zh-CN"})["status"] == "accepted"
    chinese = b.last_view(CHINESE)
    assert CJK.search(words(chinese)) and any(line.startswith("发牌承诺 ") for line in chinese["l"])
    assert DeviceItem.get(device_pk(CHINESE), META).lang == "zh-CN"
    assert views(b, HANDSET)[-1] == handset_before  # nothing sent to the others
    run_round(b, bots)  # both boards of the round: every later view in Chinese, the handsets' in English
    shown = views(b, CHINESE)
    after = shown[next(i for i, v in enumerate(shown) if v is chinese) :]
    assert {v["b"] for v in after} == {"1", "2"}
    assert all(CJK.search(words(v)) for v in after), [words(v) for v in after if not CJK.search(words(v))]
    assert all(not CJK.search(words(v)) for v in views(b, HANDSET))
    rounds.request_next_round(b.rt, "cup")  # the next round's boards: from the device's assignment
    assert CJK.search(words(b.last_view(CHINESE))) and not CJK.search(words(b.last_view(HANDSET)))
    assert b.send(CHINESE, {"t": "hello", "msg": "h-2", "lang": "en"})["status"] == "accepted"
    assert not CJK.search(words(b.last_view(CHINESE)))
    assert DeviceItem.get(device_pk(CHINESE), META).lang == "en"


def test_saying_the_same_language_again_writes_nothing(started) -> None:
    b, _ = started
    first, written = writes(b, CHINESE, {"t": "hello", "msg": "h-1", "lang": "zh-CN"})
    assert first["status"] == "accepted" and written == 2  # the assignment, the board shown
    again, written = writes(b, CHINESE, {"t": "hello", "msg": "h-2", "lang": "zh-CN"})
    assert again["status"] == "accepted" and written == 0
    assert CJK.search(words(b.last_view(CHINESE)))


@pytest.mark.parametrize("lang", ["fr", "zh", "ZH-CN", 7, None])
def test_a_language_not_drawn_is_refused_naming_the_field(started, lang: Any) -> None:
    b, _ = started
    before = len(views(b, CHINESE))
    outcome = b.send(CHINESE, {"t": "hello", "msg": "h-1", "lang": lang})
    assert outcome["status"] == "rejected" and outcome["code"] == "malformed"
    assert outcome["why"].startswith("lang must be one of 'en', 'zh-CN'")
    assert len(views(b, CHINESE)) == before
    assert DeviceItem.get(device_pk(CHINESE), META).lang is None

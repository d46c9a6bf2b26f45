"""Printable cards for the players, Chinese by default and English on request: where each one sits in
a round (``deckhand event seating EVENT --format html``, and the console's), and each one's join link as a QR code for
playing on their own phone (``deckhand event join-links EVENT --format html``; drawn by segno as inline
SVG: the page needs nothing from elsewhere)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any, Literal

import segno

Lang = Literal["zh-CN", "en"]

WORDS: Mapping[Lang, Mapping[str, str]] = {
    "zh-CN": {
        "title": "{event} · 入座卡",
        "scan": "用手机扫码入座",
        "player": "选手 {id}",
        "private": "此二维码仅限本人使用，请勿转发或拍照分享。",
        "open": "或在浏览器中打开：",
        "seats_title": "{event} · 第 {round} 轮 · 座位卡",
        "round": "第 {round} 轮",
        "where": "{table} 桌 · {seat} 号位",
        "handset": "终端 {thing}",
    },
    "en": {
        "title": "{event} · join cards",
        "scan": "Scan with your phone to take your seat",
        "player": "Player {id}",
        "private": "This code is yours alone: do not forward or share a photo of it.",
        "open": "Or open in a browser:",
        "seats_title": "{event}: round {round} guide cards",
        "round": "Round {round}",
        "where": "Table {table}, seat {seat}",
        "handset": "Handset {thing}",
    },
}


def names_of(export: Mapping[str, Any]) -> dict[str, str]:
    """Each registered player's name by id, from an event's export (players, or a match event's pairs)."""
    names: dict[str, str] = {}
    for entry in export.get("players") or []:
        names[str(entry["id"])] = str(entry.get("name") or "")
    for pair in export.get("pairs") or []:
        for player in pair.get("players") or []:
            names[str(player["id"])] = str(player.get("name") or "")
    return names


PRESENCE_FIELDS = ("online", "online_since")


def seating_of(status: dict[str, Any]) -> list[dict[str, Any]]:
    """Where everyone sits in a round: a row per seat of every table (the handset to staff; whether it
    is online is the status's, not the seating's)."""
    return [
        {"table": t["table"], **{k: v for k, v in p.items() if k not in PRESENCE_FIELDS}}
        for t in status.get("tables", [])
        for p in t.get("players", [])
        if p.get("player")
    ]


def qr_svg(url: str) -> str:
    """The URL as a QR code (error correction M: a card may be creased), an inline SVG scaled by CSS."""
    return str(segno.make(url, error="m").svg_inline(scale=4, omitsize=True, title="QR"))


def join_cards(event: str, links: Sequence[Mapping[str, str]], names: Mapping[str, str], lang: Lang) -> str:
    """A printable page: a card per link, in the players' name order."""
    w = WORDS[lang]

    def label(link: Mapping[str, str]) -> str:
        return names.get(link["player"]) or link["player"]

    cards = "".join(
        '<div class="card">'
        f'<p class="name">{escape(label(link))}</p>'
        f'<p class="id">{escape(w["player"].format(id=link["player"]))}</p>'
        f'<div class="qr" role="img" aria-label="{escape(w["scan"])}">{qr_svg(link["url"])}</div>'
        f'<p class="scan">{escape(w["scan"])}</p>'
        f'<p class="url">{escape(w["open"])}<br><span>{escape(link["url"])}</span></p>'
        f'<p class="private">{escape(w["private"])}</p>'
        "</div>"
        for link in sorted(links, key=lambda link: (label(link).casefold(), link["player"]))
    )
    return _page(lang, w["title"].format(event=event), cards)


def seat_cards(event: str, round_no: int, seating: Sequence[Mapping[str, Any]], lang: Lang) -> str:
    """A printable page: a card per seated player (in name order) saying where they sit this round."""
    w = WORDS[lang]

    def label(s: Mapping[str, Any]) -> str:
        return str(s["name"] or s["player"])

    cards = "".join(
        f'<div class="card"><p class="name">{escape(label(s))}</p>'
        f"<p>{escape(w['round'].format(round=round_no))}</p>"
        f'<p class="where">{escape(w["where"].format(table=s["table"], seat=s["seat"]))}</p>'
        + (f"<p>{escape(w['handset'].format(thing=s['thing']))}</p>" if s.get("thing") else "")
        + "</div>"
        for s in sorted(seating, key=lambda s: (label(s).casefold(), str(s["player"])))
    )
    return _page(lang, w["seats_title"].format(event=event, round=round_no), cards)


def _page(lang: Lang, title: str, cards: str) -> str:
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>"
        "body{font:14px system-ui,'Noto Sans CJK SC',sans-serif;margin:1cm}"
        ".cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(6.5cm,1fr));gap:4mm}"
        ".card{border:1px dashed #555;padding:3mm 4mm;break-inside:avoid;text-align:center}"
        ".card p{margin:1mm 0}.name{font-weight:700;font-size:18px}.where{font-size:18px}"
        ".qr svg{width:4cm;height:4cm}.url{font-size:9px;overflow-wrap:anywhere}"
        ".private{font-size:10px;color:#444}</style></head><body>"
        f'<h1>{escape(title)}</h1><div class="cards">{cards}</div></body></html>\n'
    )

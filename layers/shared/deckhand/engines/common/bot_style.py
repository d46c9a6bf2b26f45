"""A bot's style by name: the handsets' styles (steady, bold, careful) make a field of bots play unalike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

Style = TypeVar("Style")


def style_of(styles: Mapping[str, Style], name: str) -> Style:
    """The style called ``name``; an unknown name is an error that lists the styles, so a typo never
    plays a field other than the one asked for."""
    if name not in styles:
        raise ValueError(f"unknown bot style {name!r}; choose from {', '.join(styles)}")
    return styles[name]

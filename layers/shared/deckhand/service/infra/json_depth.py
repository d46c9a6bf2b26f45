"""How deep a JSON text nests, found without parsing it.

Python's parser recurses once per ``[`` or ``{``: a thousand of them (a kilobyte) raise
``RecursionError``, which no ``except ValueError`` catches. Every JSON that comes from outside (a
device's message, an API body) is measured here first, in one pass and constant memory, and refused
when it nests deeper than anything the protocol or the API needs.
"""

from __future__ import annotations

from typing import Any

MAX_DEPTH = 32  # the deepest API body or device message nests 4 levels; 32 leaves room and is far from 1000


def text_depth(text: str | bytes) -> int:
    """The deepest nesting of ``[``/``{`` in a JSON text (brackets inside strings not counted), or
    at most ``MAX_DEPTH`` when the text opens no more brackets than that."""
    data = text.encode() if isinstance(text, str) else text
    opened = data.count(b"[") + data.count(b"{")
    if opened <= MAX_DEPTH:  # the common case, at C speed: it cannot nest deeper than it opens
        return opened
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def value_depth(value: Any) -> int:
    """The nesting depth of a parsed value (lists and dicts), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            items: Any = item.values()
        elif isinstance(item, list):
            items = item
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        stack.extend((child, depth) for child in items)
    return deepest


def too_deep(text: str | bytes) -> bool:
    return text_depth(text) > MAX_DEPTH

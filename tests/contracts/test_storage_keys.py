"""Storage keys are built in one module (service/storage/keys.py): no other module of the layer spells one."""

from __future__ import annotations

import re
from pathlib import Path

from deckhand.service.storage import keys

PACKAGE = Path(keys.__file__).resolve().parents[2]
# A key literal: an item-kind prefix with its separator ("EVENT#", f"DEAL#{…}") or a fixed sort key.
KEY = re.compile(r"""["'](?:[A-Z]+#|STATE["']|META["']|ACTIVE["'])""")


def test_no_module_but_keys_spells_a_storage_key() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{n}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "keys.py" or path.parent.name != "storage"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if KEY.search(line) and not line.lstrip().startswith(("#", '"""'))
    ]
    assert not found, "storage keys built outside service/storage/keys.py:\n" + "\n".join(found)


def test_the_check_would_catch_a_key() -> None:
    assert KEY.search('DealItem.get(pk, f"DEAL#{n}#1#1")')
    assert KEY.search('BoardStateItem.get(pk, "STATE")')


def test_keys_sort_in_round_order_and_read_back() -> None:
    assert keys.round_sk(2) < keys.round_sk(10)
    assert keys.deal_sk(1, 2, "3") == "DEAL#001#2#3"
    assert keys.result_sk(1, "A", "2").startswith(keys.result_prefix(1))
    assert keys.event_of(keys.event_pk("cup")) == "cup"
    assert keys.player_of(keys.player_sk("P1")) == "P1"
    assert keys.table_of(keys.table_sk("T1")) == "T1"

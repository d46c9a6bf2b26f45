"""Every reason code a device can be refused with is listed in docs/protocol.md (Reason codes): a
refusal's ``why`` is English, so a client showing refusals in another language translates the code,
and must know them all. The codes are read from the sources that raise them: the engines' ``Rejected``,
the device pipeline's ``BadMessage`` and ``reject``, Shengji's declaration and follow errors."""

from __future__ import annotations

import re
from pathlib import Path

from deckhand.engines.shengji.combos import FollowError
from deckhand.engines.shengji.declare import DeclareError
from deckhand.service.infra import outgoing

ROOT = Path(__file__).resolve().parents[2]
LAYER = ROOT / "layers" / "shared" / "deckhand"
RAISED = re.compile(r"\b(?:Rejected|BadMessage|reject)\(\s*(?:rt, thing, msg, )?\"([a-z_0-9]+)\"")


def raised_codes() -> set[str]:
    sources = [*(LAYER / "engines").rglob("*.py"), *(LAYER / "service" / "device_io").rglob("*.py")]
    codes = {code for path in sources for code in RAISED.findall(path.read_text())}
    return (
        codes | {e.value for e in DeclareError} | {e.value for e in FollowError} | {outgoing.UNKNOWN_DEVICE}
    )


def test_every_code_a_device_can_be_refused_with_is_documented() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text()
    section = doc[doc.index("## Reason codes") :]
    codes = raised_codes()
    assert {"not_your_turn", "reading_needed", "malformed", "deal_mismatch", "must_follow_suit"} <= codes
    missing = sorted(code for code in codes if f"`{code}`" not in section)
    assert not missing, f"not in docs/protocol.md's Reason codes: {missing}"

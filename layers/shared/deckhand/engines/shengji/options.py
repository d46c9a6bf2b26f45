"""The Shengji rule options (RULES.md §5, §5.1): each difference between the presets is an enum, and
a preset is a named set of them, so a result records exactly what it was played under."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from ...errors import DeckhandError
from . import COMMON, YAOJI


class Preset(StrEnum):
    """The named option sets; the value is what a referee's request carries in ``"preset"``."""

    YAOJI2010 = "yaoji2010"
    COMMON = "common"

    @property
    def ruleset(self) -> str:
        return YAOJI if self is Preset.YAOJI2010 else COMMON


class Board1Dealer(StrEnum):
    """Who deals board 1 (§5.1 "board-1 dealer")."""

    LAST_DECLARER = "last_declarer"  # 003: 亮主即坐庄，反主即反庄 — an overcall takes the deal too
    FIRST_DECLARER = "first_declarer"  # 004: 第一局可反主但不反庄


class Overcall(StrEnum):
    """What overcalls a standing declaration (§5.1 "overcalls")."""

    # 003: a level pair over a level single; a joker pair over a level single or pair; nothing over
    # a joker pair; jokers alone never declare.
    PAIR_THEN_JOKERS = "pair_then_jokers"
    # 004: a level-card overcall needs more cards than the standing declaration, of another suit
    # (其他花色); a joker pair overcalls any level-card declaration, single or pair, reinforced or not;
    # nothing overcalls a joker pair; jokers never open.
    MORE_CARDS = "more_cards"


class NoDeclaration(StrEnum):
    """Nobody declared by the time the dealer takes the kitty (§5.1 "nobody declared")."""

    NO_TRUMP = "no_trump"  # 003: 打无主
    KITTY_FIRST_CARD = "kitty_first_card"  # 004: the kitty's first card (jokers skipped) names trump


class LevelChain(StrEnum):
    """How level cards and jokers join tractors (§5.1 "tractors"); the level gap closes in both."""

    # 003: off-suit level pair → trump-suit level pair → BJ → RJ, and the top plain trump → off-suit
    # level pair (never AA22: at level 2 trump AA does not reach the 2s).
    THROUGH_TRUMP = "through_trump"
    # 004: level cards chain with each other and the jokers, never with plain trump cards.
    LEVELS_AND_JOKERS = "levels_and_jokers"


class ThrowPenalty(StrEnum):
    """What a failed throw costs (§5.1 "failed throw")."""

    NONE = "none"  # 003
    TEN_PER_CARD = "ten_per_card"  # 004: 10 × cards thrown, to (or off) the defenders' points


class SinglesThrowKitty(StrEnum):
    """The kitty multiplier when the last trick was a throw of singles only (§5.1 "kitty multiplier")."""

    TIMES_3 = "times_3"  # 003: 甩牌抠底 ×3
    TIMES_2 = "times_2"  # 004: "什么都没有" ×2

    @property
    def factor(self) -> int:
        return 3 if self is SinglesThrowKitty.TIMES_3 else 2


class ResultTable(StrEnum):
    """The defenders' points → levels table (§5.1 "result")."""

    YAOJI = "yaoji"  # 003: <40 → dealer +2 (no extra level for 0)
    COMMON = "common"  # 004: 0 → dealer +3


class EndMode(StrEnum):
    """How a game (局) ends (§5 "Match"); a side passing the target level ends it in both."""

    LEVEL_OR_TIME = "level_or_time"  # 003: first past A, or the higher level when time is up
    FIRST_PAST = "first_past"  # 004: first past the target (10; finals A), else the leader at time


LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")


def parse_level(token: object, name: str = "level") -> int:
    """A level token ("2"…"9", "T"/"10", "J", "Q", "K", "A") → its natural rank 2…14."""
    text = token.strip().upper() if isinstance(token, str) else None
    if text == "10":
        text = "T"
    if text is None or text not in LEVELS:
        raise DeckhandError(f"{name!r} must be a level 2…9, T, J, Q, K or A, got {token!r}")
    return LEVELS.index(text) + 2


def format_level(level: int) -> str:
    """2…14 → "2"…"A"; past A (15) → "A+"."""
    return "A+" if level > 14 else LEVELS[level - 2]


@dataclass(frozen=True)
class Options:
    """One rule set's options: the preset's differences, and the match's end (event settings)."""

    preset: Preset = Preset.YAOJI2010
    board1_dealer: Board1Dealer = Board1Dealer.LAST_DECLARER
    overcall: Overcall = Overcall.PAIR_THEN_JOKERS
    no_declaration: NoDeclaration = NoDeclaration.NO_TRUMP
    level_chain: LevelChain = LevelChain.THROUGH_TRUMP
    throw_penalty: ThrowPenalty = ThrowPenalty.NONE
    singles_throw_kitty: SinglesThrowKitty = SinglesThrowKitty.TIMES_3
    result_table: ResultTable = ResultTable.YAOJI
    end_mode: EndMode = EndMode.LEVEL_OR_TIME
    target: int = 14  # the level to pass (A); 004: 10
    minutes: int = 60  # the game's time (003: 60; 004: 90, finals 180)
    last_board_minutes: int = 50  # no new board after this many minutes (003: 50)
    draws: bool = True  # False in knockouts: a game level at time plays one more board (§4.3)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "target":
                value = format_level(value)
            elif isinstance(value, StrEnum):
                value = value.value
            out[f.name] = value
        return out

    @classmethod
    def for_preset(cls, preset: Preset) -> Options:
        return PRESETS[preset]

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None, preset: Preset = Preset.YAOJI2010) -> Options:
        """The preset's options with the given keys changed; unknown keys and bad values are errors."""
        base = PRESETS[preset]
        if not data:
            return base
        if not isinstance(data, dict):
            raise DeckhandError(f"Shengji options must be an object, got {data!r}")
        known = {f.name: f for f in fields(cls)}
        unknown = set(data) - set(known)
        if unknown:
            raise DeckhandError(f"unknown Shengji options: {', '.join(sorted(unknown))}")
        if "preset" in data and data["preset"] != preset.value:
            base = PRESETS[_enum(Preset, data["preset"], "preset")]
        changes: dict[str, Any] = {}
        for name, value in data.items():
            if name == "preset":
                continue
            current = getattr(base, name)
            if isinstance(current, StrEnum):
                changes[name] = _enum(type(current), value, name)
            elif name == "target":
                changes[name] = parse_level(value, "target")
            elif isinstance(current, bool):
                if not isinstance(value, bool):
                    raise DeckhandError(f"option {name!r} must be true or false, got {value!r}")
                changes[name] = value
            else:
                if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                    raise DeckhandError(f"option {name!r} must be a positive integer, got {value!r}")
                changes[name] = value
        return replace(base, **changes)


def _enum(kind: type[Any], value: object, name: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise DeckhandError(f"option {name!r} must be one of {allowed}, got {value!r}") from None


PRESETS: dict[Preset, Options] = {
    Preset.YAOJI2010: Options(),
    Preset.COMMON: Options(
        preset=Preset.COMMON,
        board1_dealer=Board1Dealer.FIRST_DECLARER,
        overcall=Overcall.MORE_CARDS,
        no_declaration=NoDeclaration.KITTY_FIRST_CARD,
        level_chain=LevelChain.LEVELS_AND_JOKERS,
        throw_penalty=ThrowPenalty.TEN_PER_CARD,
        singles_throw_kitty=SinglesThrowKitty.TIMES_2,
        result_table=ResultTable.COMMON,
        end_mode=EndMode.FIRST_PAST,
        target=10,
        minutes=90,
        last_board_minutes=90,
    ),
}


def preset_of(request: dict[str, Any]) -> Options:
    """The options named by a referee request's ``"preset"``."""
    if "preset" not in request:
        raise DeckhandError("missing field 'preset' (yaoji2010 or common)")
    try:
        return PRESETS[Preset(request["preset"])]
    except ValueError:
        raise DeckhandError(f"'preset' must be yaoji2010 or common, got {request['preset']!r}") from None

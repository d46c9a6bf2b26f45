"""Shengji (升级, Tractor), rule sets ``shengji-yaoji2010`` (seed 003) and ``shengji-common`` (seed 004).

RULES.md §5 and §5.1: one engine, two presets. Every difference between them is a typed option
(:mod:`.options`); a preset is a named set of options.
"""

YAOJI = "shengji-yaoji2010"
COMMON = "shengji-common"
SEATS = 4
HAND_SIZE = 25
KITTY = 8
DECKS = 2

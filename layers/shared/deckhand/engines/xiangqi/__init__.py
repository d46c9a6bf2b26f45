"""Xiangqi (象棋), rule set ``xiangqi-2004`` (RULES.md §6.1): a board game on the engine contract."""

"""Deckhand: competitive Chinese card-game events under the national competition rules."""

__version__ = "0.1.0"

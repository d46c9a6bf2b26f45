"""Errors shared by every engine and tool, so callers can map them to structured replies."""


class DeckhandError(ValueError):
    """Base for every error caused by bad input (as opposed to a bug)."""


class CardError(DeckhandError):
    """A card token, card set or hand that breaks the card rules of the game."""


class NotFound(DeckhandError):
    """A stored thing the request names does not exist (an API's 404)."""


class Conflict(DeckhandError):
    """A write that lost a race or meets a state that forbids it (an API's 409): read again and retry."""


class VenueStartError(DeckhandError):
    """A part of the local venue could not start (a port in use, a broker not installed)."""

"""The ``deckhand`` command line."""

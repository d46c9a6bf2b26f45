"""Rounds and their results for every event, and the duplicate events' own: starting a round
(Swiss seating, secure deals, the commitment, the first board at every table: ``rounds``) and board
results in, standings out, a round finished (``scoring``). A round of matches is handed to ``matches``.

Uses ``matches``, ``boards``, ``organiser``, ``storage`` and ``infra``; nothing above them."""

"""Match events: a round of matches (its pairing, its matches at the venue's tables, each match's first
board: ``round_of_matches``), what a format decides (``formats``, ``knockouts``) and the matches' results
(``results``).

Uses ``boards``, ``organiser``, ``storage`` and ``infra``; never ``duplicate`` (a round's end is
handed in by the caller)."""

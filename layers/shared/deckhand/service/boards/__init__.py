"""A table's boards: as stored and changed with a version check (``store``), their log (``log``), their
clocks (``clocks``), what each seat is shown (``views``), the table's rules applied to them (``table``),
what follows every change (``progress``), a match's boards one after another (``match_boards``), the
rounds they belong to as stored (``round_items``, ``round_boards``) and their hand and play records
(``records``).

Uses ``storage`` and ``infra`` only: never an event's registration, pairing or standings."""

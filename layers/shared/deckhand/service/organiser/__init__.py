"""What an organiser sets up: events and their settings (``events``, ``match_settings``), who may act
on them (``access``), registration of players, tables, devices and pairs (``events``, ``pairs``), and
what results an event may show while it runs (``disclosure``).

Uses ``storage`` and ``infra`` only; never a board, a round or a result."""

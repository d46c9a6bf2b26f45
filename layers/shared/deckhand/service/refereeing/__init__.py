"""The referee's actions, each audited: warnings, violations and adjustments (``actions``), artificial
scores and boards ended unplayed, penalties in a match, a deal taken over, a player re-seated, clocks
stopped for an outage, and the audit that replays an event's boards (``replay_audit``).

Uses ``duplicate``, ``matches``, ``boards``, ``organiser``, ``storage`` and ``infra``; never ``device_io``
or ``api``."""

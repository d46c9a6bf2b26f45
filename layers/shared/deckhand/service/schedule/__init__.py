"""Work on a clock: the timers' sweep (``sweep``: timeouts, boards a crash left, rounds to finish) and a
paced deal given out on time (``pacing``).

Uses ``duplicate``, ``boards``, ``storage`` and ``infra``; never ``api`` or ``device_io``."""

"""Device messages in: a message's way top to bottom (``pipeline``), parsed before anything is read
(``incoming``), a device's hello (``hello``), a dealing table's reports (``dealing_reports``), a call for
the referee (``referee_calls``), and the answer a device gets (``replies``).

Uses ``duplicate``, ``boards``, ``organiser``, ``storage`` and ``infra``; never ``refereeing`` or ``api``."""

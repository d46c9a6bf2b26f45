# The electronic-board app: a board game's physical board whose sensors (behind the hal) say which
# square's piece was lifted and where one was set down. It reports each move it senses (``moved``) and,
# on its button after the referee put the pieces back, the whole position it senses (``position``). It
# knows no game: the server's ``pos`` gives the grid that names the squares and the keys of the move.
from . import board, protocol


class EBoard:
    def __init__(self, hal, ids):
        self.hal = hal
        self.ids = ids
        self.conn = None
        self.pos = None  # the server's last position
        self.lifted = []  # cells whose pieces are up, in order
        self.sent = None  # the position number of the move sent, until the next position comes
        self.error = None  # the latest stop or refusal

    def attach(self, conn):
        self.conn = conn

    def on_message(self, message):
        t = message["t"]
        if t == "pos":
            self.pos = message
            self.lifted = []
            self.sent = None
            if message.get("st") == "playing":
                self.error = None
            self.hal.display.show(self._lines(message))
        elif t == "stopped":
            self.error = message.get("why", "stopped")
            self.hal.display.show(["STOPPED", self.error, "Call a referee"])
            self.hal.buzzer.beep()
        elif t == "reject":
            self.sent = None
            self.error = message.get("code", "") + ": " + message.get("why", "")
            self.hal.display.show(["Refused", self.error])
            self.hal.buzzer.beep()

    @staticmethod
    def _lines(pos):
        state = "move " + str(pos["n"] + 1) if pos.get("q") else pos.get("st", "")
        return ["Board " + str(pos["b"]) + " " + state]

    def sense(self):
        """One sensor event: a piece lifted (``up``) or set down (``down``) on a cell of the grid. A
        piece set down ends a move: the squares lifted (not the one it lands on), then where it lands,
        as many as the move has keys (a stone placed: only where it lands). A piece put back where it
        was sends nothing."""
        event = self.hal.sensors.poll()
        if event is None:
            return None
        kind, cell = event
        pos = self.pos
        if pos is None or not pos.get("q") or self.sent is not None or self.error:
            return None  # nothing to report now: the referee's or the players' hands between moves
        if kind == "up":
            if cell not in self.lifted:
                self.lifted.append(cell)
            return None
        keys = pos["q"]
        cells = [c for c in self.lifted if c != cell][: len(keys) - 1] + [cell]
        self.lifted = []
        if len(cells) != len(keys) or not all(board.is_square(pos["grid"], c) for c in cells):
            return None
        names = [board.name(pos["grid"], c) for c in cells]
        self.sent = pos["n"]
        message = protocol.moved(self.ids.next(), pos["b"], pos["n"], names, pos.get("r"))
        if self.conn is not None:
            self.conn.send(message)
        return message

    def report_position(self):
        """The referee's button: the whole position as the sensors read it, for the server to check."""
        pos = self.pos
        if pos is None:
            return None
        grid = pos["grid"]
        message = protocol.position(self.ids.next(), pos["b"], self.hal.sensors.scan(grid), pos.get("r"))
        if self.conn is not None:
            self.conn.send(message)
        return message

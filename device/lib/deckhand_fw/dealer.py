# The dealing-table app: deals a board's card order, reads every card, reports what it read.
from . import protocol


class Dealer:
    def __init__(self, hal, ids):
        self.hal = hal
        self.ids = ids
        self.conn = None
        self.done = {}
        self.last = None
        self.problem = None  # what this table found while dealing
        self.error = None  # the latest stop, its own or the server's

    def attach(self, conn):
        self.conn = conn

    def on_message(self, message):
        if message["t"] == "deal":
            key = self._key(message)
            if key not in self.done:  # a resent order (after hello) is not dealt twice
                self.deal(message)
        elif message["t"] == "stopped":
            self.error = message.get("why", "stopped")
            self.hal.motor.stop()
            self.hal.display.show(["STOPPED", self.error])
        elif message["t"] == "reject":
            self.hal.display.show(["Refused: " + message.get("code", ""), message.get("why", "")])

    @staticmethod
    def _key(message):
        """Round/board, and the deal number when a board is redealt (a game that redeals when all pass)."""
        key = str(message["r"]) + "/" + str(message["b"])
        return key + "/" + str(message["n"]) if "n" in message else key

    def redeal(self):
        """After a referee cleared a fault (button or touch): deal the last board again from the start."""
        if self.last is not None:
            self.problem = None
            self.error = None
            self.deal(self.last)

    def deal(self, message):
        self.last = message
        order = message["order"]
        seats = message["seats"]
        board = message["b"]
        read = []
        problem = None
        self.hal.display.show(
            ["Dealing board " + str(board) + (" deal " + str(message["n"]) if "n" in message else "")]
        )
        to_seats = len(order) - message.get("kitty", 0)
        for i in range(len(order)):
            # One card to each seat in turn; a kitty's cards to the kitty slot, numbered ``seats``.
            self.hal.motor.deal(i % seats if i < to_seats else seats)
            card = self.hal.reader.read()
            if card is None:
                problem = "card " + str(i + 1) + " missing or unreadable"
                break
            read.append(card)
            if card != order[i]:
                problem = "card " + str(i + 1) + " is " + card + ", the board has " + order[i]
                break
            if message.get("each") and i < to_seats and self.conn is not None:
                # The seats' handsets get this card only now: the server gives out what was read.
                self.conn.send(protocol.dealt(self.ids.next(), board, read, message["r"], len(read)))
        if problem:
            self.hal.motor.stop()
            self.problem = problem
            self.error = problem
            self.hal.display.show(["STOP board " + str(board), problem, "Call a referee"])
        else:
            self.hal.display.show(["Board " + str(board) + " dealt", str(len(read)) + " cards checked"])
        self.done[self._key(message)] = read
        if self.conn is not None:
            self.conn.send(protocol.dealt(self.ids.next(), board, read, message["r"]))

# Actions not yet acknowledged, kept in flash: after a reconnect or a reboot they are sent again
# with the same message id, and the server applies each id at most once.


class ResendQueue:
    def __init__(self, store, name="pending"):
        self.store = store
        self.name = name
        self.items = store.load(name, [])

    def add(self, message):
        if "upto" in message:
            # A dealing table's report while dealing carries every card read so far: it replaces the
            # board's earlier reports still unanswered (the queue stays one message long while dealing),
            # and is not written to flash (a card a write would wear it for nothing: after a reboot the
            # table deals the board again, and its whole report comes last anyway).
            self.items = [m for m in self.items if not _same_deal(m, message)]
            self.items.append(message)
            return
        self.items.append(message)
        self._save()

    def ack(self, msg_id):
        gone = [m for m in self.items if m.get("msg") == msg_id]
        if not gone:
            return False
        self.items = [m for m in self.items if m.get("msg") != msg_id]
        if any("upto" not in m for m in gone):
            self._save()  # a report while dealing was never written: nothing to rewrite
        return True

    def _save(self):
        """What survives a reboot: every message but the reports while dealing (the table deals the
        board again after a reboot, and its whole report comes last)."""
        self.store.save(self.name, [m for m in self.items if "upto" not in m])

    def pending(self):
        return list(self.items)

    def __len__(self):
        return len(self.items)


def _same_deal(queued, message):
    return (
        "upto" in queued
        and queued.get("board") == message.get("board")
        and queued.get("r") == message.get("r")
    )

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
        self.store.save(self.name, self.items)

    def ack(self, msg_id):
        kept = [m for m in self.items if m.get("msg") != msg_id]
        if len(kept) != len(self.items):
            self.items = kept
            self.store.save(self.name, self.items)
            return True
        return False

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

"""Simulated devices on the wall clock, in a thread of their own, against a venue in another process.

Unlike the lock-step demo (lockstep.py) nothing here waits for the server: bots act when their think
time is up, devices find a dead link and reconnect by themselves through the firmware's own
``conn.step()``. The devices are stepped by a few threads, each its share of them: a bot waiting for
its seat's view from the database must not hold up the other tables' devices (at 16 tables one thread
let decisions run out on their clocks). What the devices were told was accepted (an ``ack`` for an action they sent) is
recorded, for the audit: an acknowledged action must be in a board's log exactly once.
"""

from __future__ import annotations

import select
import threading
import time
from collections.abc import Sequence
from typing import Any

from .simulated import BotHandset, SimulatedDevice

TICK_SECONDS = 0.25  # a bot's think time is its style's number of ticks (simulated.BotHandset)
THREADS = 4  # device-stepping threads
PASS_SECONDS = 0.01  # rest between two passes over a thread's devices without a link to wait on
# Between two passes a thread waits for a message to any of its devices, or the next tick (a bot's
# decision falling due), but no longer than this (resends, reconnects, a seat view asked again).
WAIT_SECONDS = 0.05


class RealTimeDevices:
    def __init__(
        self, devices: Sequence[SimulatedDevice], tick_seconds: float = TICK_SECONDS, threads: int = THREADS
    ) -> None:
        self.devices = list(devices)
        self.handsets = [d for d in self.devices if isinstance(d, BotHandset)]
        self.tick_seconds = tick_seconds
        self.accepted: set[tuple[str, str]] = set()  # (thing, message id) acknowledged by the server
        self.actions = 0  # button presses that sent an action
        self.errors: list[str] = []  # exceptions out of a device's step (none expected)
        self._sent: dict[str, set[str]] = {d.thing: set() for d in self.devices}
        self._paused = threading.Event()
        self._closed = threading.Event()
        count = max(1, min(threads, len(self.devices)))
        self._shares = [self.devices[n::count] for n in range(count)]
        self._stepping = [threading.Lock() for _ in self._shares]
        self._threads = [
            threading.Thread(target=self._run, args=(n,), name=f"devices-{n}", daemon=True)
            for n in range(count)
        ]
        self._counting = threading.Lock()
        for device in self.devices:
            self._record(device)

    def _record(self, device: SimulatedDevice) -> None:
        """Note the ids of the actions the device queues, and the acks that answer them (the firmware
        drops an action from its resend queue on that ack: the device believes it accepted)."""
        sent = self._sent[device.thing]
        queue, conn = device.conn.queue, device.conn
        add, deliver = queue.add, conn.on_message

        def queued(message: dict[str, Any]) -> None:
            sent.add(message["msg"])
            add(message)

        def on_message(message: dict[str, Any]) -> None:
            if message.get("t") == "ack" and message.get("msg") in sent:
                self.accepted.add((device.thing, message["msg"]))
            deliver(message)

        queue.add = queued
        conn.on_message = on_message

    def start(self) -> RealTimeDevices:
        self._began = time.monotonic()  # the ticks of every thread count from the same moment
        for thread in self._threads:
            thread.start()
        return self

    def pause(self) -> None:
        """Stop stepping the devices (returns once no step is under way). While the venue is down a
        device would back off up to 30 s between reconnects; paused, it reconnects a second after
        the venue is back, so the bench measures recovery rather than back-off."""
        self._paused.set()
        for lock in self._stepping:
            with lock:
                pass

    def resume(self) -> None:
        self._paused.clear()

    def close(self) -> None:
        self._closed.set()
        for thread in self._threads:
            thread.join(timeout=30)
        for device in self.devices:
            if device.conn.client is not None:
                device.conn.drop()

    def connects(self) -> dict[str, int]:
        """How many times each device has connected so far."""
        return {d.thing: d.conn.connects for d in self.devices}

    def reconnected(self, before: dict[str, int]) -> bool:
        """Every device has connected again since ``before`` and is connected now."""
        return all(d.conn.connected and d.conn.connects > before[d.thing] for d in self.devices)

    def _run(self, share: int) -> None:
        devices, stepping = self._shares[share], self._stepping[share]
        while not self._closed.is_set():
            if self._paused.is_set():
                time.sleep(0.01)
                continue
            with stepping:
                tick = int((time.monotonic() - self._began) / self.tick_seconds)
                for device in devices:
                    try:
                        device.step()
                        if isinstance(device, BotHandset) and device.due(tick) and device.play():
                            with self._counting:
                                self.actions += 1
                    except Exception as exc:  # noqa: BLE001 - one device's fault must not stop the others
                        self.errors.append(f"{device.thing}: {exc!r}")
            self._wait(devices, tick)

    def _wait(self, devices: Sequence[SimulatedDevice], tick: int) -> None:
        """Until a message arrives for one of ``devices`` or the next tick begins (at most
        WAIT_SECONDS): passes at a fixed short rest stepped idle devices a hundred times a second,
        for nothing but CPU."""
        poller = select.poll()
        for device in devices:
            client = device.conn.client
            link = client.socket() if hasattr(client, "socket") else None
            if link is None:  # a device without a link (reconnecting), or with data to send
                time.sleep(PASS_SECONDS)
                return
            poller.register(link, select.POLLIN)
        next_tick = self._began + (tick + 1) * self.tick_seconds - time.monotonic()
        poller.poll(max(0.0, min(next_tick, WAIT_SECONDS)) * 1000)

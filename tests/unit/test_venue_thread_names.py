"""The venue names its threads for the kernel (venue/thread_names.py): a benchmark reading
/proc/<pid>/task/*/comm from outside tells the bridge's threads apart."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from deckhand_local.venue.thread_names import name_threads, os_name


def test_the_kernel_keeps_the_last_15_bytes_without_the_common_prefixes():
    assert os_name("bridge-worker-3") == b"bridge-worker-3"
    assert os_name("paho-mqtt-client-deckhand-server/bridge-in") == b"bridge-in"
    assert os_name("a-much-longer-thread-name") == b"ger-thread-name"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and prctl are Linux's")
def test_a_thread_started_after_the_hook_has_its_name_in_proc():
    names: list[str] = []

    def read_own_name() -> None:
        names.append(Path(f"/proc/self/task/{threading.get_native_id()}/comm").read_text().strip())

    try:
        assert name_threads()
        thread = threading.Thread(target=read_own_name, name="bridge-worker-0")
        thread.start()
        thread.join()
    finally:
        threading.setprofile(None)  # the threads of the tests after this one start without the hook
    assert names == ["bridge-worker-0"]

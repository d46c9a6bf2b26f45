"""The warm cache of device assignments is kept per table: a process that works on two tables (a
bench's devices beside a venue, one test after another) never answers from the other one's."""

from backend import setup_moto_env
from deckhand.service.organiser import events
from deckhand.service.storage import models
from deckhand.service.storage.keys import META, device_pk
from moto import mock_aws

setup_moto_env()


def test_a_device_cached_from_one_table_is_not_found_on_another():
    with mock_aws():
        for table in ("deckhand-first", "deckhand-second"):
            models.configure(table_name=table, region="us-east-1")
            models.create_table()
        models.configure(table_name="deckhand-first")
        models.DeviceItem(device_pk("hs-1"), META, event_id="old", table="T1", seat=0).save()
        assert events.get_device("hs-1").event_id == "old"
        models.configure(table_name="deckhand-second")
        assert events.get_device("hs-1") is None  # not the first table's assignment
        models.DeviceItem(device_pk("hs-1"), META, event_id="new", table="T2", seat=1).save()
        events.forget_device("hs-1")  # what a registration does (else its absence is kept a few seconds)
        assert events.get_device("hs-1").event_id == "new"
        models.configure(table_name="deckhand-first")
        assert events.get_device("hs-1").event_id == "old"

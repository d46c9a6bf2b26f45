"""The venue's state folder and database, attacked by another user of the machine or a client on the
network: the folder is 0700 and every file in it 0600 (venue.json holds the API token, venue-key every
thing's password), even when it existed with wider modes; DynamoDB Local, which cannot listen on
loopback only, shows a client with any other access key an empty database; the API listens on
loopback."""

import os
import stat

import boto3
import pytest
from deckhand.errors import VenueStartError
from deckhand_local.venue.demo_event import free_port
from deckhand_local.venue.dynamodb_local import SHARED_FILE, DynamoDBLocal, has_shared_database
from deckhand_local.venue.local import Venue

OLD_KEY = "ab" * 32


@pytest.fixture(scope="module")
def venue(tmp_path_factory):
    state = tmp_path_factory.mktemp("state")
    os.chmod(state, 0o755)  # a folder from an older venue, or made by hand
    (state / "venue-key").write_text(OLD_KEY + "\n")
    os.chmod(state / "venue-key", 0o644)
    for attempt in range(3):  # a free port may be taken by another worker's socket before Java binds it
        try:
            venue = Venue(
                dynamodb_port=free_port(), mqtt_port=free_port(), http_port=0, state_dir=state
            ).start()
            break
        except VenueStartError:
            if attempt == 2:
                raise
    yield venue, state
    venue.stop()


def modes(folder):
    return {str(p.relative_to(folder)): stat.S_IMODE(p.stat().st_mode) for p in folder.rglob("*")}


def test_the_state_folder_and_every_file_in_it_are_owner_only(venue):
    venue, state = venue
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    found = modes(state)
    for name in ("venue.json", "servers.json", "venue-key", "dynamodb-key"):
        assert found[name] == 0o600, name
    leaks = {name: oct(mode) for name, mode in found.items() if mode & 0o077}
    assert leaks == {}  # the database's own files too
    assert (state / "venue-key").read_text().strip() == OLD_KEY  # made private, not replaced


def test_a_client_with_another_access_key_sees_an_empty_database(venue):
    venue, state = venue
    endpoint = f"http://127.0.0.1:{venue.dynamodb_port}"

    def tables(key):
        client = boto3.client(
            "dynamodb",
            endpoint_url=endpoint,
            region_name="us-east-1",
            aws_access_key_id=key,
            aws_secret_access_key="anything",
        )
        return client.list_tables()["TableNames"]

    assert tables("local") == [] and tables("AKIAEXAMPLE") == []
    assert tables((state / "dynamodb-key").read_text().strip()) == [venue.table]


def test_the_api_listens_on_loopback_only(venue):
    venue, _ = venue
    assert venue.api.server.server_address[0] == "127.0.0.1"
    assert venue.api_url.startswith("http://127.0.0.1:")


def test_a_folder_with_a_shared_database_keeps_it_readable_until_fresh(tmp_path):
    """Migration: a venue from before per-key databases keeps its data (``-sharedDb``) and says so."""
    (tmp_path / SHARED_FILE).write_bytes(b"")
    assert has_shared_database(tmp_path)
    assert "-sharedDb" in DynamoDBLocal(1, tmp_path, shared=True).command()
    assert "-sharedDb" not in DynamoDBLocal(1, tmp_path, shared=False).command()

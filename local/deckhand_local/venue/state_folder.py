"""The venue's state folder holds its secrets (the API token, the venue key that every thing's password
derives from, the database's access key, the TLS keys): the folder is 0700 and every file the venue
writes there 0600, so another user of the machine reads none of them."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def make_private(folder: Path) -> Path:
    """Create ``folder`` (and its parents) and make it owner-only, even if it existed with wider modes."""
    folder.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
    os.chmod(folder, FOLDER_MODE)
    return folder


def write_private(path: Path, data: str | bytes) -> None:
    """Replace ``path`` atomically by a file only its owner can read: the staged file is created 0600,
    so the secret is never readable by others, not even for a moment."""
    staged = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    raw = data.encode() if isinstance(data, str) else data
    descriptor = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(raw)
        staged.replace(path)
    except BaseException:
        staged.unlink(missing_ok=True)
        raise


def read_or_create(path: Path, make: Callable[[], str]) -> str:
    """The secret kept in ``path``, made (and written 0600) the first time: it survives restarts."""
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        text = ""
    if not text:
        text = make()
        write_private(path, text + "\n")
    else:
        os.chmod(path, FILE_MODE)  # a folder from an older venue: its files were 0644
    return text

"""Where a local venue keeps its data (its own module: the CLI lists the choices without loading the venue)."""

from __future__ import annotations

from enum import StrEnum


class Database(StrEnum):
    DYNAMODB_LOCAL = "dynamodb-local"  # AWS's DynamoDB Local, on disk in the state folder: nothing lost
    MOTO = "moto"  # moto's server, in memory: gone when the venue stops

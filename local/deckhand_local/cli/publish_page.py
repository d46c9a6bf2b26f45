"""``deckhand publish-page --stack NAME``: the player's page (web/player/) onto a deployed stack's
bucket under ``play/``, with the ``config.json`` that points it at IoT Core, then a CloudFront
invalidation so players get it at once.

The page is the same files the venue serves; only ``config.json`` differs: on AWS it names the
account's ``iot:Data-ATS`` endpoint and the stack's custom authorizer on the WebSocket URL (a browser
cannot set the upgrade request's headers), ``wss://<endpoint>/mqtt?x-amz-customauthorizer-name=<name>``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote

from deckhand.errors import DeckhandError

from ..static_files import SEGMENT, TYPES
from ..venue.player_site import page_folder

PREFIX = "play/"
VENDOR_CACHE = "public, max-age=86400"  # as the venue serves them: pinned versions
OWN_CACHE = "no-cache"  # the page's own files and config.json: revalidated on every load


def page_config(endpoint: str, authorizer: str) -> dict[str, str]:
    """The page's ``config.json`` on AWS (docs/client.md): where its MQTT over WSS goes."""
    if not endpoint or "/" in endpoint or ":" in endpoint:
        raise DeckhandError(f"IoT endpoint {endpoint!r} is not a host name")
    return {"ws": f"wss://{endpoint}/mqtt?x-amz-customauthorizer-name={quote(authorizer, safe='')}"}


def page_files(root: Path) -> list[tuple[str, Path]]:
    """(path relative to the page, file) of every file the page serves — the ones the venue would
    serve: known types, no hidden files — in a stable order. Refuses a page without its vendored
    files (``make web/player/vendor/.installed``)."""
    files = []
    for file in sorted(root.rglob("*")):
        relative = file.relative_to(root).as_posix()
        parts = relative.split("/")
        if file.is_file() and file.suffix in TYPES and all(SEGMENT.fullmatch(p) for p in parts):
            files.append((relative, file))
    if not any(relative.startswith("vendor/") for relative, _ in files):
        raise DeckhandError(f"{root} has no vendor/ files: run make web/player/vendor/.installed first")
    return files


def upload(s3: Any, bucket: str, root: Path, config: dict[str, str]) -> list[str]:
    """Write the page and its config.json under ``play/``: each with its content type and caching.
    Every put replaces the object whole, so publishing again is harmless. The keys written."""
    written = []
    for relative, file in page_files(root):
        if relative == "config.json":
            continue  # the venue's own, if any: never published over the stack's
        cache = VENDOR_CACHE if relative.startswith("vendor/") else OWN_CACHE
        key = PREFIX + relative
        s3.put_object(
            Bucket=bucket, Key=key, Body=file.read_bytes(), ContentType=TYPES[file.suffix], CacheControl=cache
        )
        written.append(key)
    s3.put_object(
        Bucket=bucket,
        Key=PREFIX + "config.json",
        Body=json.dumps(config).encode(),
        ContentType=TYPES[".json"],
        CacheControl=OWN_CACHE,
    )
    written.append(PREFIX + "config.json")
    return written


PAGE_OUTPUTS = ("PlayerPageBucketName", "PlayerPageDistributionId", "PlayerPageUrl", "PlayerAuthorizerName")


def stack_outputs(cloudformation: Any, stack: str, needed: tuple[str, ...] = PAGE_OUTPUTS) -> dict[str, str]:
    """The deployed stack's outputs, ``needed`` among them (a stack of an older template lacks some)."""
    try:
        (described,) = cloudformation.describe_stacks(StackName=stack)["Stacks"]
    except Exception as exc:  # botocore's ClientError: the stack does not exist or is not ours
        raise DeckhandError(f"stack {stack!r}: {exc}") from None
    outputs = {o["OutputKey"]: o["OutputValue"] for o in described.get("Outputs", [])}
    missing = [name for name in needed if name not in outputs]
    if missing:
        raise DeckhandError(f"stack {stack!r} has no output {', '.join(missing)}: deploy template.yaml first")
    return outputs


def publish(session: Any, stack: str, root: Path | None = None) -> dict[str, Any]:
    """Everything ``deckhand publish-page`` does, with one boto3 session's clients."""
    outputs = stack_outputs(session.client("cloudformation"), stack)
    endpoint = session.client("iot").describe_endpoint(endpointType="iot:Data-ATS")["endpointAddress"]
    config = page_config(endpoint, outputs["PlayerAuthorizerName"])
    keys = upload(session.client("s3"), outputs["PlayerPageBucketName"], root or page_folder(), config)
    session.client("cloudfront").create_invalidation(
        DistributionId=outputs["PlayerPageDistributionId"],
        InvalidationBatch={
            "Paths": {"Quantity": 1, "Items": ["/" + PREFIX + "*"]},
            "CallerReference": f"deckhand-{time.time_ns()}",
        },
    )
    return {"url": outputs["PlayerPageUrl"], "ws": config["ws"], "files": len(keys)}


def run_publish_page(stack: str, region: str | None, out: IO[str]) -> int:
    import boto3

    out.write(json.dumps(publish(boto3.Session(region_name=region), stack)) + "\n")
    return 0

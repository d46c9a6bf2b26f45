"""deckhand publish-page: the player's page and its AWS config.json onto a stack's bucket (moto)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from backend import moto_account
from deckhand.errors import DeckhandError
from deckhand_local.cli import publish_page

REGION = "eu-west-1"
AUTHORIZER = "deckhand-players-dev"


@pytest.fixture
def page(tmp_path: Path) -> Path:
    root = tmp_path / "player"
    (root / "vendor").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>play</title>")
    (root / "main.js").write_text("import './vendor/mqtt.esm.js'")
    (root / "style.css").write_text("body{}")
    (root / "vendor" / "mqtt.esm.js").write_text("export default {}")
    (root / "vendor" / ".installed").write_text("")  # make's stamp: not part of the page
    (root / ".hidden.js").write_text("secret")
    (root / "notes.md").write_text("not a served type")
    (root / "config.json").write_text('{"ws": "ws://127.0.0.1:1"}')  # a venue's: never published
    return root


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_account(monkeypatch, REGION)


def objects(s3: Any, bucket: str) -> dict[str, dict[str, Any]]:
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=bucket).get("Contents", [])]
    return {key: s3.get_object(Bucket=bucket, Key=key) for key in keys}


def test_the_config_names_the_endpoint_and_the_authorizer_on_the_wss_url() -> None:
    config = publish_page.page_config("abc123-ats.iot.eu-west-1.amazonaws.com", AUTHORIZER)
    assert config == {
        "ws": f"wss://abc123-ats.iot.eu-west-1.amazonaws.com/mqtt?x-amz-customauthorizer-name={AUTHORIZER}"
    }
    for bad in ["", "https://abc123-ats.iot.eu-west-1.amazonaws.com", "host:443"]:
        with pytest.raises(DeckhandError):
            publish_page.page_config(bad, AUTHORIZER)


def test_upload_writes_the_page_under_play_with_types_caching_and_the_stacks_config(
    aws: Any, page: Path
) -> None:
    s3 = aws.client("s3")
    s3.create_bucket(Bucket="page", CreateBucketConfiguration={"LocationConstraint": REGION})
    config = publish_page.page_config("abc123-ats.iot.eu-west-1.amazonaws.com", AUTHORIZER)
    publish_page.upload(s3, "page", page, config)
    publish_page.upload(s3, "page", page, config)  # again: the same objects, nothing more
    stored = objects(s3, "page")
    assert set(stored) == {
        "play/index.html",
        "play/main.js",
        "play/style.css",
        "play/vendor/mqtt.esm.js",
        "play/config.json",
    }
    assert stored["play/index.html"]["ContentType"] == "text/html; charset=utf-8"
    assert stored["play/main.js"]["ContentType"] == "text/javascript; charset=utf-8"
    assert stored["play/index.html"]["CacheControl"] == "no-cache"
    assert stored["play/vendor/mqtt.esm.js"]["CacheControl"] == "public, max-age=86400"
    assert json.loads(stored["play/config.json"]["Body"].read()) == config
    assert stored["play/config.json"]["CacheControl"] == "no-cache"


def test_a_page_without_its_vendored_files_is_refused(aws: Any, tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html>")
    with pytest.raises(DeckhandError, match="vendor"):
        publish_page.page_files(tmp_path)


STACK_TEMPLATE = {
    "Resources": {"Nothing": {"Type": "AWS::SQS::Queue"}},
    "Outputs": {
        "PlayerPageBucketName": {"Value": "page"},
        "PlayerPageUrl": {"Value": "https://d111111abcdef8.cloudfront.net/play/"},
        "PlayerAuthorizerName": {"Value": AUTHORIZER},
    },
}


def test_publish_reads_the_stack_writes_the_page_and_invalidates_it(aws: Any, page: Path) -> None:
    s3 = aws.client("s3")
    s3.create_bucket(Bucket="page", CreateBucketConfiguration={"LocationConstraint": REGION})
    cloudfront = aws.client("cloudfront")
    distribution = cloudfront.create_distribution(
        DistributionConfig={
            "CallerReference": "test",
            "Comment": "",
            "Enabled": True,
            "Origins": {"Quantity": 1, "Items": [{"Id": "page", "DomainName": "page.s3.amazonaws.com"}]},
            "DefaultCacheBehavior": {"TargetOriginId": "page", "ViewerProtocolPolicy": "redirect-to-https"},
        }
    )["Distribution"]["Id"]
    template = json.loads(json.dumps(STACK_TEMPLATE))
    template["Outputs"]["PlayerPageDistributionId"] = {"Value": distribution}
    aws.client("cloudformation").create_stack(StackName="deckhand", TemplateBody=json.dumps(template))

    answer = publish_page.publish(aws, "deckhand", page)

    assert answer["url"] == "https://d111111abcdef8.cloudfront.net/play/" and answer["files"] == 5
    # The account's ATS data endpoint (moto names a new one on each call), this stack's authorizer.
    assert re.fullmatch(
        rf"wss://[a-z0-9]+-ats\.iot\.{REGION}\.amazonaws\.com/mqtt\?x-amz-customauthorizer-name={AUTHORIZER}",
        answer["ws"],
    )
    config = json.loads(objects(s3, "page")["play/config.json"]["Body"].read())
    assert config == {"ws": answer["ws"]}
    (invalidation,) = cloudfront.list_invalidations(DistributionId=distribution)["InvalidationList"]["Items"]
    paths = cloudfront.get_invalidation(DistributionId=distribution, Id=invalidation["Id"])
    assert paths["Invalidation"]["InvalidationBatch"]["Paths"]["Items"] == ["/play/*"]


def test_a_stack_without_the_page_s_outputs_is_refused(aws: Any, page: Path) -> None:
    template = {"Resources": STACK_TEMPLATE["Resources"]}
    aws.client("cloudformation").create_stack(StackName="old", TemplateBody=json.dumps(template))
    with pytest.raises(DeckhandError, match="PlayerPageBucketName"):
        publish_page.publish(aws, "old", page)
    with pytest.raises(DeckhandError, match="missing"):
        publish_page.publish(aws, "missing", page)

"""The tournament director's console on AWS (API Gateway behind CloudFront, signed in through the Cognito
user pool): a thin adapter over deckhand_local.console, which calls the organiser API's own handler
in-process as the signed-in identity (docs/console.md, docs/access.md).

The stack's settings (the pool, its app client and sign-in domain, the console's address) come from the
SSM parameter named by DECKHAND_CONSOLE_SETTINGS, read once per instance: the template cannot hand them
over as environment variables without a cycle (the app client names the distribution that names this
function's API). The console's browser files are packaged beside this file (`make console-function`).
"""

import os
from functools import cache
from pathlib import Path

import boto3
from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.metrics import MetricUnit
from deckhand.service.api import build_app
from deckhand.service.infra.lambda_runtime import runtime
from deckhand_local.console.aws import ConsoleFunction, Settings
from deckhand_local.console.cognito import CognitoSessions, Jwks, TableLedger

logger = Logger(service="console")
metrics = Metrics(namespace="Deckhand", service="console")
api = build_app(runtime)
FILES = Path(os.environ.get("DECKHAND_CONSOLE_FILES") or Path(__file__).parent / "web" / "console")


@cache
def console():
    """The console of this instance: its settings read, the pool's keys fetched on first need."""
    name = os.environ["DECKHAND_CONSOLE_SETTINGS"]
    settings = Settings.from_json(boto3.client("ssm").get_parameter(Name=name)["Parameter"]["Value"])
    ledger = TableLedger(os.environ["DECKHAND_TABLE"], boto3.client("dynamodb"))
    sessions = CognitoSessions(settings.pool, Jwks(settings.pool.jwks_url), ledger)
    return ConsoleFunction(settings, sessions, api.resolve, FILES)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
@metrics.log_metrics
def handler(event, context):
    metrics.add_metric(name="ConsoleRequests", unit=MetricUnit.Count, value=1)
    return console()(event, context)

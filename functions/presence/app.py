"""Device lifecycle events (IoT rule target on ``$aws/events/presence/+/+``): each device's presence."""

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from deckhand.service.device_io import presence

logger = Logger(service="presence")
metrics = Metrics(namespace="Deckhand", service="presence")


@logger.inject_lambda_context
@metrics.log_metrics
def handler(event, context):
    outcome = presence.handle(event)
    metrics.add_metric(name=f"Presence_{outcome['status']}", unit=MetricUnit.Count, value=1)
    if outcome["status"] != "recorded":
        logger.info(outcome["status"], extra={"code": outcome.get("code")})
    return outcome

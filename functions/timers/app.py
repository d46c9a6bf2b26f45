"""Scheduled sweep: timeout defaults for decisions whose deadline has passed; ended boards scored."""

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from deckhand.service.context import runtime
from deckhand.service.timers import sweep

logger = Logger(service="timers")
metrics = Metrics(namespace="Deckhand", service="timers")


@logger.inject_lambda_context
@metrics.log_metrics
def handler(event, context):
    counts = sweep(runtime())
    metrics.add_metric(name="Timeouts", unit=MetricUnit.Count, value=counts["timeouts"])
    return counts

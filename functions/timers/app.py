"""Scheduled sweep: timeout defaults for decisions whose deadline has passed; ended boards scored.

Invoked with ``{"pace": board}`` it is a deal's pacer instead (service/schedule/pacing.py): the cards of a
board the server deals given out as they fall due, far oftener than the schedule's minute."""

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from deckhand.service.infra.lambda_runtime import runtime
from deckhand.service.schedule.pacing import pace_deal
from deckhand.service.schedule.sweep import sweep

logger = Logger(service="timers")
metrics = Metrics(namespace="Deckhand", service="timers")


@logger.inject_lambda_context
@metrics.log_metrics
def handler(event, context):
    if isinstance(event, dict) and isinstance(event.get("pace"), dict):
        steps = pace_deal(runtime(), event["pace"])
        metrics.add_metric(name="DealSteps", unit=MetricUnit.Count, value=steps)
        return {"steps": steps}
    counts = sweep(runtime())
    metrics.add_metric(name="Timeouts", unit=MetricUnit.Count, value=counts["timeouts"])
    return counts

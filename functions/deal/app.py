"""Deals a round (invoked asynchronously by the API): seating, boards, commitment, first views."""

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from deckhand.service.duplicate.rounds import DealFailed, deal_round
from deckhand.service.infra.lambda_runtime import runtime
from deckhand.service.storage.seating import round_seating

logger = Logger(service="deal")
metrics = Metrics(namespace="Deckhand", service="deal")


@logger.inject_lambda_context
@metrics.log_metrics
def handler(event, context):
    try:
        item = deal_round(runtime(), event["event_id"], int(event["round"]))
    except DealFailed as exc:
        # Not retried: the event is back before the round, with the reason, for the organiser to fix.
        logger.warning("deal failed", extra={"event_id": event["event_id"], "why": str(exc)})
        return {"event_id": event["event_id"], "round": int(event["round"]), "error": str(exc)}
    metrics.add_metric(name="TablesDealt", unit=MetricUnit.Count, value=len(round_seating(item)))
    return {"event_id": event["event_id"], "round": int(event["round"]), "commitment": item.commitment}

"""Device messages (IoT rule target): thing name → seat, validated, applied once, views out."""

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from deckhand.service.device_io import pipeline as devices
from deckhand.service.infra.json_depth import MAX_DEPTH, value_depth
from deckhand.service.infra.lambda_runtime import runtime

logger = Logger(service="play")
metrics = Metrics(namespace="Deckhand", service="play")


@logger.inject_lambda_context
@metrics.log_metrics
def handler(event, context):
    # The IoT rule delivers the protocol's fields of the device's JSON and the thing name from the topic.
    thing = event.get("thing") if isinstance(event, dict) else None
    if value_depth(event) > MAX_DEPTH:  # no message nests so deep: refused before anything walks it
        logger.info("rejected", extra={"thing": thing, "code": "too_deep"})
        return {"status": "rejected", "code": "too_deep"}
    payload = {k: v for k, v in event.items() if k != "thing"} if isinstance(event, dict) else event
    outcome = devices.handle(runtime(), thing, payload)
    metrics.add_metric(name=f"Message_{outcome['status']}", unit=MetricUnit.Count, value=1)
    if outcome["status"] == "rejected":
        logger.info("rejected", extra={"thing": thing, "code": outcome["code"]})
    return outcome

"""Records a board's result when it ends; computes standings when a round is complete."""

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from deckhand.service.duplicate.scoring import record_result
from deckhand.service.infra.lambda_runtime import runtime

logger = Logger(service="score")
metrics = Metrics(namespace="Deckhand", service="score")


@logger.inject_lambda_context
@metrics.log_metrics
def handler(event, context):
    recorded = record_result(
        runtime(), event["event_id"], int(event["round"]), event["table"], event["board"]
    )
    metrics.add_metric(name="ResultsRecorded", unit=MetricUnit.Count, value=int(recorded))
    return {"recorded": recorded}

"""Organiser and referee API (API Gateway, IAM auth): a thin adapter over deckhand.service.api."""

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.metrics import MetricUnit
from deckhand.service import api_bounds
from deckhand.service.api import build_app
from deckhand.service.infra.lambda_runtime import runtime

logger = Logger(service="api")
metrics = Metrics(namespace="Deckhand", service="api")
app = build_app(runtime)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
@metrics.log_metrics
def handler(event, context):
    metrics.add_metric(name="ApiRequests", unit=MetricUnit.Count, value=1)
    refusal = api_bounds.refusal(event)  # before routing: no parser or database meets what is unbounded
    if refusal is not None:
        return api_bounds.refused(refusal)
    return app.resolve(event, context)

"""Storage: the one DynamoDB table as models (``models``), every key of it (``keys``), and idempotent
POSTs (``idempotency``).

Knows nothing of games, rounds or rules. Uses nothing else of the service."""

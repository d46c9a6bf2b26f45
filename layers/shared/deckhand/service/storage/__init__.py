"""Storage: the one DynamoDB table as models (``models``), every key of it (``keys``), idempotent
POSTs (``idempotency``), batched writes (``batches``), large documents in parts (``parts``), and a
round's seating as stored, with its players' placements (``seating``).

Knows nothing of games, rounds or rules. Uses nothing else of the service."""

"""Storage: the one DynamoDB table as models (``models``), every key of it (``keys``), idempotent
POSTs (``idempotency``), batched writes (``batches``), large documents in parts (``parts``), and a
round's seating as stored, with its players' placements (``seating``).

Knows nothing of games or rules (a round only as stored). Uses nothing else of the service."""

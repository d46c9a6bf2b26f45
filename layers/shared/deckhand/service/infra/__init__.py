"""What the service needs from its surroundings: time (``clock``), the runtime a service is given
(``runtime``: a publisher and a way to start other work; ``lambda_runtime`` builds it on AWS), the
publishers and topics (``messaging``) and every message the server sends a device (``outgoing``).

Owns no fact of an event and reads no storage. Uses nothing else of the service."""

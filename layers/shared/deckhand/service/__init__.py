"""Services of the event lifecycle: what the Lambda handlers and the local venue call.

They hold the rules of the *system* (who may act, idempotency, conditional writes, publishing);
the rules of the *games* stay in the engines, reached only through ``deckhand.engines.registry``.
"""

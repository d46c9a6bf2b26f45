"""Deckhand's local tools: the ``deckhand`` command line and the local venue.

Not part of the Lambda layer (``layers/shared/deckhand``): they import the layer, the layer never
imports them, and their dependencies (moto, amqtt, paho-mqtt, PyYAML) are the ``local`` extra.
"""

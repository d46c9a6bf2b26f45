"""The IoT policy's topic rules, for the local brokers (template.yaml's DevicePolicy says the same for
IoT Core; tools/broker/broker.mjs has them for Aedes, mosquitto.py as an ACL): a thing publishes only
``dh/<itself>/up`` and reads only ``dh/<itself>/down``; the server identity may use anything under
``dh/`` (``dh/+/up`` for the bridge, ``dh/<thing>/down`` and ``dh/events/<id>`` for the publishers)."""

from __future__ import annotations

from .credentials import SERVER


def may_publish(user: str, topic: str) -> bool:
    return topic.startswith("dh/") if user == SERVER else topic == f"dh/{user}/up"


def may_subscribe(user: str, topic_filter: str) -> bool:
    return topic_filter.startswith("dh/") if user == SERVER else topic_filter == f"dh/{user}/down"


def may_receive(user: str, topic: str) -> bool:
    return topic.startswith("dh/") if user == SERVER else topic == f"dh/{user}/down"

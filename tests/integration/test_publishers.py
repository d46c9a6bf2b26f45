"""The two publisher adapters deliver the same messages: AWS IoT data plane (moto) and a local broker."""

import json
import socket
import threading

import pytest
from backend import setup_moto_env
from deckhand.service.infra.messaging import IotDataPublisher, MqttPublisher, RecordingPublisher, down_topic
from moto import mock_aws

setup_moto_env()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_iot_data_plane_adapter():
    with mock_aws():
        from moto.core import DEFAULT_ACCOUNT_ID
        from moto.iotdata.models import iotdata_backends

        IotDataPublisher().publish(down_topic("hs-1"), {"t": "ack", "msg": "m1"})
        published = iotdata_backends[DEFAULT_ACCOUNT_ID]["us-east-1"].published_payloads
        assert [(t, json.loads(p)) for t, p in published] == [("dh/hs-1/down", {"t": "ack", "msg": "m1"})]


def test_mqtt_adapter_through_an_embedded_broker():
    import paho.mqtt.client as mqtt
    from deckhand_local.venue.broker import EmbeddedBroker
    from deckhand_local.venue.credentials import SERVER, VenueCredentials, server_client_id

    port = free_port()
    credentials = VenueCredentials.generate()
    broker = EmbeddedBroker(port, credentials).start()
    try:
        received = []
        got = threading.Event()
        device = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="hs-1", protocol=mqtt.MQTTv311)

        def on_message(client, userdata, message):
            received.append((message.topic, json.loads(message.payload)))
            got.set()

        subscribed = threading.Event()
        device.on_message = on_message
        device.on_subscribe = lambda *a: subscribed.set()
        device.username_pw_set("hs-1", credentials.password("hs-1"))
        device.connect("127.0.0.1", port)
        device.loop_start()
        device.subscribe("dh/hs-1/down", qos=1)
        assert subscribed.wait(5)
        server = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=server_client_id("publisher"), protocol=mqtt.MQTTv311
        )
        server.username_pw_set(SERVER, credentials.server_password)
        server.connect("127.0.0.1", port)
        server.loop_start()
        MqttPublisher(server).publish(down_topic("hs-1"), {"t": "ack", "msg": "m1"})
        assert got.wait(5)
        assert received == [("dh/hs-1/down", {"t": "ack", "msg": "m1"})]
        for client in (device, server):
            client.loop_stop()
            client.disconnect()
    finally:
        broker.stop()


def test_oversized_messages_are_refused_by_every_adapter():
    with pytest.raises(ValueError, match="exceeds 1024"):
        RecordingPublisher().publish("dh/x/down", {"t": "view", "pad": "x" * 1100})

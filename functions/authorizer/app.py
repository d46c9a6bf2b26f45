"""The IoT Core custom authorizer of players' own devices (MQTT over WSS, token in username/password).

A browser cannot set WebSocket headers: the device connects with its thing ``web-<link id>`` as MQTT
client id and username and its join token as password (base64 in the event, as IoT Core passes it).
The token is checked by ``player_links.authorize``, the same check the local venue's broker makes; a
valid one gets a policy for that thing's own two topics and nothing else. Neither the token nor the
password is ever logged.
"""

import base64
import binascii
import json

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from deckhand.service.organiser.player_links import Grant, authorize

logger = Logger(service="authorizer")
metrics = Metrics(namespace="Deckhand", service="authorizer")

# IoT Core runs the authorizer again this often while connected (a revoked or expired link then loses
# its connection), and closes the connection after at most a day (the device reconnects, checked again).
REFRESH_SECONDS = 300
DISCONNECT_SECONDS = 86_400
DENIED = {"isAuthenticated": False}


def credentials(event):
    """(username, password, client id) of an MQTT CONNECT, or None when the event carries none.

    IoT Core passes the CONNECT's username as the device sent it and its password base64-encoded. The
    page names this authorizer on its ``wss://…/mqtt?x-amz-customauthorizer-name=…`` URL (that query
    arrives in ``protocolData.http.queryString``, the username is the thing alone); a client that
    names it in the username instead sends ``<thing>?x-amz-customauthorizer-name=…`` (with an SDK's
    own ``SDK=…&Version=…`` there too): the thing is what precedes the ``?``."""
    data = event.get("protocolData") if isinstance(event, dict) else None
    mqtt = data.get("mqtt") if isinstance(data, dict) else None
    if not isinstance(mqtt, dict):
        return None
    username, password = mqtt.get("username"), mqtt.get("password")
    if not isinstance(username, str) or not isinstance(password, str) or len(password) > 256:
        return None
    try:
        decoded = base64.b64decode(password, validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return username.partition("?")[0], decoded, mqtt.get("clientId")


def policy(grant: Grant, arn_prefix: str) -> str:
    """The IoT policy of one player device: connect as itself, publish its up topic, subscribe to and
    receive its down topic (``arn_prefix``: ``arn:<partition>:iot:<region>:<account>``)."""
    thing = grant.thing
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {"Effect": "Allow", "Action": "iot:Connect", "Resource": f"{arn_prefix}:client/{thing}"},
                {"Effect": "Allow", "Action": "iot:Publish", "Resource": f"{arn_prefix}:topic/dh/{thing}/up"},
                {
                    "Effect": "Allow",
                    "Action": "iot:Subscribe",
                    "Resource": f"{arn_prefix}:topicfilter/dh/{thing}/down",
                },
                {
                    "Effect": "Allow",
                    "Action": "iot:Receive",
                    "Resource": f"{arn_prefix}:topic/dh/{thing}/down",
                },
            ],
        }
    )


def iot_arn_prefix(function_arn):
    """``arn:<partition>:iot:<region>:<account>`` from the function's own ARN."""
    _, partition, _, region, account = function_arn.split(":")[:5]
    return f"arn:{partition}:iot:{region}:{account}"


@logger.inject_lambda_context
@metrics.log_metrics
def handler(event, context):
    given = credentials(event)
    grant = None
    if given is not None:
        username, password, client_id = given
        grant = authorize(username, password)
        if grant is not None and client_id is not None and client_id != grant.thing:
            grant = None  # the client id must be the thing (the policy would refuse the connect anyway)
    if grant is None:
        metrics.add_metric(name="AuthorizerDenied", unit=MetricUnit.Count, value=1)
        logger.info("denied")
        return DENIED
    metrics.add_metric(name="AuthorizerAllowed", unit=MetricUnit.Count, value=1)
    logger.info("allowed", extra={"thing": grant.thing, "event": grant.event_id, "player": grant.player})
    return {
        "isAuthenticated": True,
        "principalId": grant.thing.replace("-", ""),  # alphanumeric only, as IoT Core requires
        "disconnectAfterInSeconds": DISCONNECT_SECONDS,
        "refreshAfterInSeconds": REFRESH_SECONDS,
        "policyDocuments": [policy(grant, iot_arn_prefix(context.invoked_function_arn))],
    }

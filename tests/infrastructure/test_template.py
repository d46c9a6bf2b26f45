"""template.yaml: cfn-lint clean (run by `make test`), and the security properties read from it."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

TEMPLATE = Path(__file__).resolve().parents[2] / "template.yaml"


class Loader(yaml.SafeLoader):
    pass


def _tag(loader, tag_suffix, node):
    if isinstance(node, yaml.ScalarNode):
        return {tag_suffix: loader.construct_scalar(node)}
    if isinstance(node, yaml.SequenceNode):
        return {tag_suffix: loader.construct_sequence(node, deep=True)}
    return {tag_suffix: loader.construct_mapping(node, deep=True)}


Loader.add_multi_constructor("!", _tag)


@pytest.fixture(scope="module")
def template():
    return yaml.load(TEMPLATE.read_text(), Loader=Loader)


def resources(template, kind):
    return {name: r for name, r in template["Resources"].items() if r["Type"] == kind}


def test_every_api_route_uses_iam_but_the_console_s_which_reach_only_the_console(template):
    """The organiser API is IAM-authorised route by route; the console's API (its browsers hold no AWS
    credentials) reaches the console function alone, which verifies the user pool's token itself."""
    apis = resources(template, "AWS::Serverless::Api")
    assert set(apis) == {"OrganiserApi", "ConsoleApi"}
    assert apis["OrganiserApi"]["Properties"]["Auth"]["DefaultAuthorizer"] == "AWS_IAM"
    assert "Auth" not in apis["ConsoleApi"]["Properties"]
    for name, fn in resources(template, "AWS::Serverless::Function").items():
        for event in fn["Properties"].get("Events", {}).values():
            if event["Type"] != "Api":
                continue
            if event["Properties"]["RestApiId"] == {"Ref": "ConsoleApi"}:
                assert name == "ConsoleFunction" and event["Properties"]["Path"].startswith("/console")
            else:
                assert event["Properties"]["RestApiId"] == {"Ref": "OrganiserApi"}
                assert event["Properties"].get("Auth", {}).get("Authorizer", "AWS_IAM") == "AWS_IAM"


def test_device_policy_is_scoped_to_the_thing_name(template):
    (policy,) = resources(template, "AWS::IoT::Policy").values()
    statements = policy["Properties"]["PolicyDocument"]["Statement"]
    actions = {s["Action"] for s in statements}
    assert actions == {"iot:Connect", "iot:Publish", "iot:Subscribe", "iot:Receive"}
    for s in statements:
        resource = s["Resource"]["Sub"]
        assert "${!iot:Connection.Thing.ThingName}" in resource
        assert "*" not in resource
    publish = next(s for s in statements if s["Action"] == "iot:Publish")
    assert publish["Resource"]["Sub"].endswith("/up")


def test_every_function_has_its_own_role_and_no_wildcard_actions(template):
    functions = resources(template, "AWS::Serverless::Function")
    assert set(functions) == {
        "ApiFunction",
        "AuthorizerFunction",
        "ConsoleFunction",
        "DealFunction",
        "PlayFunction",
        "PresenceFunction",
        "ScoreFunction",
        "TimersFunction",
    }
    for name, fn in functions.items():
        props = fn["Properties"]
        assert "Role" not in props, f"{name} shares a role"
        assert props["Policies"], f"{name} has no policies"
        text = str(props["Policies"])
        assert "'Action': '*'" not in text and "iot:*" not in text and "dynamodb:*" not in text


def test_async_functions_have_an_on_failure_destination(template):
    for name in ("DealFunction", "PlayFunction", "PresenceFunction", "ScoreFunction", "TimersFunction"):
        config = template["Resources"][name]["Properties"]["EventInvokeConfig"]
        assert config["DestinationConfig"]["OnFailure"]["Type"] == "SQS"


def test_every_function_that_starts_or_changes_a_board_may_invoke_its_pacer_and_publish(template):
    """A board dealt in steps gets a pacer (the timers function) when it starts or is taken over: the
    API (a referee's take-over), the deal, play and timers functions all may do it."""
    for name in ("ApiFunction", "ConsoleFunction", "DealFunction", "PlayFunction", "TimersFunction"):
        props = template["Resources"][name]["Properties"]
        assert "PACE_FUNCTION" in props["Environment"]["Variables"], name
        text = str(props["Policies"])
        assert "deckhand-timers-${Stage}" in text and "iot:Publish" in text, name


def test_iot_rule_routes_device_topics_to_play_with_an_error_action(template):
    payload = template["Resources"]["DeviceMessageRule"]["Properties"]["TopicRulePayload"]
    assert re.search(r"FROM 'dh/\+/up'", payload["Sql"]) and "topic(2) AS thing" in payload["Sql"]
    assert payload["Actions"][0]["Lambda"]["FunctionArn"] == {"GetAtt": "PlayFunction.Arn"}
    assert "Sqs" in payload["ErrorAction"]


def test_iot_rule_passes_exactly_the_protocol_s_message_fields(template):
    """Not ``SELECT *``: a device's extra fields never reach the play function, nor its own ``thing``."""
    from deckhand.service.infra.outgoing import UP_FIELDS

    sql = template["Resources"]["DeviceMessageRule"]["Properties"]["TopicRulePayload"]["Sql"]
    selected = re.fullmatch(r"SELECT (.+) FROM 'dh/\+/up'", sql)
    assert selected, sql
    fields = [f.strip() for f in selected.group(1).split(",")]
    assert fields[-1] == "topic(2) AS thing"
    protocol = {"t"} | {f for kind in UP_FIELDS.values() for f in kind}
    assert sorted(fields[:-1]) == sorted(protocol)


def test_lifecycle_events_reach_the_presence_function_which_may_only_read_and_put_items(template):
    """IoT Core's own connect and disconnect events (docs/console.md's online/offline) to the presence
    function, undeliverable ones to the failure queue; the function reads a device's assignment and
    writes its presence item, and may do nothing else (no publish, no invoke, no delete)."""
    rules = resources(template, "AWS::IoT::TopicRule")
    assert set(rules) == {"DeviceMessageRule", "PresenceRule"}
    payload = rules["PresenceRule"]["Properties"]["TopicRulePayload"]
    selected = re.fullmatch(r"SELECT (.+) FROM '\$aws/events/presence/\+/\+'", payload["Sql"])
    assert selected and selected.group(1).split(", ") == [
        "eventType",
        "clientId",
        "timestamp",
        "disconnectReason",
    ]
    assert payload["Actions"] == [{"Lambda": {"FunctionArn": {"GetAtt": "PresenceFunction.Arn"}}}]
    assert "Sqs" in payload["ErrorAction"]
    (permission,) = [
        p["Properties"]
        for p in resources(template, "AWS::Lambda::Permission").values()
        if p["Properties"]["FunctionName"] == {"Ref": "PresenceFunction"}
    ]
    assert (
        permission["Principal"] == "iot.amazonaws.com" and "${PresenceRule}" in permission["SourceArn"]["Sub"]
    )
    function = template["Resources"]["PresenceFunction"]["Properties"]
    assert function["CodeUri"] == "functions/presence/" and function["Handler"] == "app.handler"
    (policy,) = function["Policies"]
    (statement,) = policy["Statement"]
    assert statement["Action"] == ["dynamodb:GetItem", "dynamodb:PutItem"]
    assert statement["Resource"] == {"GetAtt": "EventTable.Arn"}


def test_play_function_has_reserved_concurrency(template):
    """A flood of device messages cannot take the account's whole concurrency (API, scoring, timers)."""
    play = template["Resources"]["PlayFunction"]["Properties"]
    assert play["ReservedConcurrentExecutions"] == {"Ref": "PlayConcurrency"}
    assert template["Parameters"]["PlayConcurrency"]["Type"] == "Number"


def test_every_function_is_told_the_results_site_s_address_when_the_stack_names_one(template):
    """Any function may publish a view of an ended board: its ``res`` comes from the stack's ResultsUrl,
    an https address or none (docs/protocol.md)."""
    env = template["Globals"]["Function"]["Environment"]["Variables"]
    assert env["DECKHAND_RESULTS_URL"] == {
        "If": ["HasResultsUrl", {"Ref": "ResultsUrl"}, {"Ref": "AWS::NoValue"}]
    }
    results = template["Parameters"]["ResultsUrl"]
    assert results["Default"] == ""
    pattern = re.compile(results["AllowedPattern"])
    assert pattern.fullmatch("https://results.example.org/{event}/") and pattern.fullmatch("")
    assert not pattern.fullmatch("javascript:alert(1)") and not pattern.fullmatch("http://x/{event}/")


def test_table_is_on_demand_with_point_in_time_recovery(template):
    (table,) = resources(template, "AWS::DynamoDB::Table").values()
    props = table["Properties"]
    assert props["BillingMode"] == "PAY_PER_REQUEST"
    assert props["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True
    assert [k["AttributeName"] for k in props["KeySchema"]] == ["pk", "sk"]


def test_openapi_document_is_current():
    import importlib.util

    spec = importlib.util.spec_from_file_location("openapi_tool", TEMPLATE.parent / "tools" / "openapi.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.DOC.read_text() == module.render(), "docs/openapi.json is stale: run `make openapi`"


def test_idempotency_records_expire_by_the_tables_ttl_and_the_api_may_write_them(template):
    from deckhand.service.storage import idempotency

    (table,) = resources(template, "AWS::DynamoDB::Table").values()
    ttl = table["Properties"]["TimeToLiveSpecification"]
    assert ttl == {"AttributeName": idempotency.TTL_ATTRIBUTE, "Enabled": True}
    # Powertools gets, puts, updates and deletes its records: all in the CRUD policy of the api's role.
    policies = template["Resources"]["ApiFunction"]["Properties"]["Policies"]
    assert {"DynamoDBCrudPolicy": {"TableName": {"Ref": "EventTable"}}} in policies


def test_every_post_documents_the_idempotency_key():
    import json

    doc = json.loads((TEMPLATE.parent / "docs" / "openapi.json").read_text())
    posts = [ops["post"] for ops in doc["paths"].values() if "post" in ops]
    assert posts
    for post in posts:
        assert {"$ref": "#/components/parameters/IdempotencyKey"} in post["parameters"], post["summary"]
        assert {"400", "409", "422"} <= set(post["responses"]), post["summary"]
    assert doc["components"]["parameters"]["IdempotencyKey"]["name"] == "Idempotency-Key"


def test_player_authorizer_is_unsigned_invoked_only_by_iot_and_reads_only(template):
    """Players' devices (WSS, token in username/password) pass the custom authorizer: signing disabled
    (a browser cannot sign), its Lambda invocable by IoT Core for this authorizer only, and the function
    may only read the table (a token check writes nothing)."""
    (authorizer,) = resources(template, "AWS::IoT::Authorizer").values()
    props = authorizer["Properties"]
    assert props["SigningDisabled"] is True and props["Status"] == "ACTIVE"
    assert props["AuthorizerFunctionArn"] == {"GetAtt": "AuthorizerFunction.Arn"}
    permissions = [
        p["Properties"]
        for p in resources(template, "AWS::Lambda::Permission").values()
        if p["Properties"]["FunctionName"] == {"Ref": "AuthorizerFunction"}
    ]
    assert permissions == [
        {
            "Action": "lambda:InvokeFunction",
            "FunctionName": {"Ref": "AuthorizerFunction"},
            "Principal": "iot.amazonaws.com",
            "SourceArn": {"GetAtt": "PlayerAuthorizer.Arn"},
        }
    ]
    function = template["Resources"]["AuthorizerFunction"]["Properties"]
    assert function["Policies"] == [{"DynamoDBReadPolicy": {"TableName": {"Ref": "EventTable"}}}]
    assert function["Handler"] == "app.handler" and function["CodeUri"] == "functions/authorizer/"


def the_one(template, kind):
    (resource,) = resources(template, kind).values()
    return resource["Properties"]


def test_player_page_bucket_is_private_encrypted_and_tls_only(template):
    bucket = the_one(template, "AWS::S3::Bucket")
    assert bucket["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    assert bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    assert "WebsiteConfiguration" not in bucket  # never the public website endpoint
    statements = the_one(template, "AWS::S3::BucketPolicy")["PolicyDocument"]["Statement"]
    (deny,) = [s for s in statements if s["Effect"] == "Deny"]
    assert deny["Condition"] == {"Bool": {"aws:SecureTransport": "false"}} and deny["Action"] == "s3:*"
    (allow,) = [s for s in statements if s["Effect"] == "Allow"]
    # Only CloudFront, and only for this distribution, reads; nobody else is granted anything.
    assert allow["Principal"] == {"Service": "cloudfront.amazonaws.com"} and allow["Action"] == "s3:GetObject"
    source = allow["Condition"]["StringEquals"]["AWS:SourceArn"]["Sub"]
    assert source.endswith(":distribution/${PlayerPageDistribution}")


def test_player_page_is_served_by_cloudfront_over_https_with_origin_access_control(template):
    config = the_one(template, "AWS::CloudFront::Distribution")["DistributionConfig"]
    (origin,) = [o for o in config["Origins"] if o["Id"] == "page"]
    assert origin["OriginAccessControlId"] == {"GetAtt": "PlayerPageOriginAccess.Id"}
    assert origin["S3OriginConfig"] == {"OriginAccessIdentity": ""}  # not the legacy identity
    assert not resources(template, "AWS::CloudFront::CloudFrontOriginAccessIdentity")
    oac = the_one(template, "AWS::CloudFront::OriginAccessControl")["OriginAccessControlConfig"]
    assert oac["SigningBehavior"] == "always" and oac["OriginAccessControlOriginType"] == "s3"
    behaviours = [
        config["DefaultCacheBehavior"],
        *[b for b in config["CacheBehaviors"] if b["TargetOriginId"] == "page"],
    ]
    for behaviour in behaviours:
        assert behaviour["ViewerProtocolPolicy"] == "redirect-to-https"
        assert behaviour["ResponseHeadersPolicyId"] == {"Ref": "PlayerPageHeaders"}
        assert behaviour["AllowedMethods"] == ["GET", "HEAD"]
    assert config["DefaultRootObject"] == "index.html"
    # The vendored files are cached long; the page's own files and config.json a minute.
    assert [b["PathPattern"] for b in config["CacheBehaviors"]] == ["play/vendor/*", "console*"]
    short = the_one(template, "AWS::CloudFront::CachePolicy")["CachePolicyConfig"]
    assert short["MaxTTL"] <= 300


def test_player_page_headers_are_the_venue_s(template):
    from deckhand_local.venue.player_site import POLICY

    headers = template["Resources"]["PlayerPageHeaders"]["Properties"]["ResponseHeadersPolicyConfig"]
    security = headers["SecurityHeadersConfig"]
    assert security["ContentSecurityPolicy"] == {"ContentSecurityPolicy": POLICY, "Override": True}
    assert security["ContentTypeOptions"] == {"Override": True}
    assert security["ReferrerPolicy"] == {"ReferrerPolicy": "no-referrer", "Override": True}


def test_player_page_url_is_an_output(template):
    output = template["Outputs"]["PlayerPageUrl"]["Value"]["Sub"]
    assert output == "https://${PlayerPageDistribution.DomainName}/play/"
    # publish-page finds the bucket and the distribution by these outputs.
    assert template["Outputs"]["PlayerPageBucketName"]["Value"] == {"Ref": "PlayerPageBucket"}
    assert template["Outputs"]["PlayerPageDistributionId"]["Value"] == {"Ref": "PlayerPageDistribution"}


def test_player_page_function_serves_play_s_index_and_sends_the_rest_there(template):
    """The viewer-request function, run in Node: /play/ is play/index.html (S3 has no folder index),
    / and /play go to /play/, every file's address is left alone."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node (make installs the venue's broker with it)")
    function = template["Resources"]["PlayerPageIndex"]["Properties"]
    behaviour = the_one(template, "AWS::CloudFront::Distribution")["DistributionConfig"][
        "DefaultCacheBehavior"
    ]
    assert behaviour["FunctionAssociations"] == [
        {
            "EventType": "viewer-request",
            "FunctionARN": {"GetAtt": "PlayerPageIndex.FunctionMetadata.FunctionARN"},
        }
    ]
    uris = ["/", "/play", "/play/", "/play/main.js", "/play/vendor/mqtt.esm.js", "/play/config.json"]
    script = function["FunctionCode"] + (
        f"\nconsole.log(JSON.stringify({json.dumps(uris)}.map(uri => handler({{request: {{uri}}}}))))"
    )
    ran = subprocess.run([node, "-e", script], capture_output=True, check=True, timeout=30)
    answers = dict(zip(uris, json.loads(ran.stdout), strict=True))
    for uri in ["/", "/play"]:
        assert answers[uri]["statusCode"] == 301 and answers[uri]["headers"]["location"] == {
            "value": "/play/"
        }
    assert answers["/play/"] == {"uri": "/play/index.html"}
    for uri in uris[3:]:
        assert answers[uri] == {"uri": uri}


def test_console_accounts_are_made_by_an_administrator_and_sign_in_by_code_with_pkce_only(template):
    from deckhand_local.console.aws import CALLBACK, SCOPES
    from deckhand_local.console.cognito import ORGANISERS, REFEREES

    pool = template["Resources"]["ConsoleUserPool"]["Properties"]
    assert pool["AdminCreateUserConfig"] == {"AllowAdminCreateUserOnly": True}  # no self sign-up
    assert pool["Policies"]["PasswordPolicy"]["MinimumLength"] >= 12
    client = template["Resources"]["ConsoleUserPoolClient"]["Properties"]
    assert client["GenerateSecret"] is False and client["AllowedOAuthFlows"] == ["code"]  # no implicit flow
    assert client["AllowedOAuthScopes"] == SCOPES.split()
    assert client["ExplicitAuthFlows"] == ["ALLOW_REFRESH_TOKEN_AUTH"]  # no password sent to the console
    assert client["SupportedIdentityProviders"] == ["COGNITO"]
    assert client["CallbackURLs"] == [{"Sub": f"https://${{PlayerPageDistribution.DomainName}}{CALLBACK}"}]
    assert client["PreventUserExistenceErrors"] == "ENABLED"
    assert client["TokenValidityUnits"]["IdToken"] == "hours" and client["IdTokenValidity"] <= 24
    groups = {
        r["Properties"]["GroupName"] for r in resources(template, "AWS::Cognito::UserPoolGroup").values()
    }
    assert groups == {ORGANISERS, REFEREES}


def test_console_settings_are_what_its_function_reads_and_only_it_may_read_them(template):
    from deckhand_local.console.aws import Settings

    parameter = template["Resources"]["ConsoleSettings"]["Properties"]
    value = json.loads(re.sub(r"\$\{[^}]+\}", "x", parameter["Value"]["Sub"]))
    assert Settings.from_json(json.dumps(value)).pool.client_id == "x"
    assert set(value) == {"region", "pool_id", "client_id", "domain", "url"}
    assert (
        "/console/" in parameter["Value"]["Sub"]
        and "${PlayerPageDistribution.DomainName}" in parameter["Value"]["Sub"]
    )
    function = template["Resources"]["ConsoleFunction"]
    assert (
        function["Properties"]["Environment"]["Variables"]["DECKHAND_CONSOLE_SETTINGS"] == parameter["Name"]
    )
    assert function["Metadata"] == {"BuildMethod": "makefile"} and function["Properties"]["CodeUri"] == "."
    assert "build-ConsoleFunction:" in (TEMPLATE.parent / "Makefile").read_text()
    readers = [
        name
        for name, fn in resources(template, "AWS::Serverless::Function").items()
        if "ssm:GetParameter" in str(fn["Properties"]["Policies"])
    ]
    assert readers == ["ConsoleFunction"]
    assert "parameter/deckhand/${Stage}/console" in str(function["Properties"]["Policies"])


def test_console_is_served_beside_the_player_page_uncached_over_https_to_its_own_api(template):
    config = the_one(template, "AWS::CloudFront::Distribution")["DistributionConfig"]
    (origin,) = [o for o in config["Origins"] if o["Id"] == "console"]
    assert origin["DomainName"]["Sub"].startswith("${ConsoleApi}.execute-api.")
    assert origin["CustomOriginConfig"]["OriginProtocolPolicy"] == "https-only"
    (behaviour,) = [b for b in config["CacheBehaviors"] if b["TargetOriginId"] == "console"]
    assert behaviour["ViewerProtocolPolicy"] == "https-only"  # a form's POST is never redirected
    assert behaviour["CachePolicyId"] == "4135ea2d-6df8-44a3-9df3-4b5a84be39ad"  # CachingDisabled
    assert behaviour["OriginRequestPolicyId"] == "b689b0a8-53d0-40ab-baf2-68738e2966ac"  # all but Host
    assert "FunctionAssociations" not in behaviour  # the player page's index function is not the console's
    # an uploaded file reaches the function base64-encoded (console/aws.py decodes it), never re-encoded as text
    assert template["Resources"]["ConsoleApi"]["Properties"]["BinaryMediaTypes"] == ["multipart~1form-data"]
    security = template["Resources"]["ConsoleHeaders"]["Properties"]["ResponseHeadersPolicyConfig"][
        "SecurityHeadersConfig"
    ]
    assert "ContentSecurityPolicy" not in security  # the console's own (console/app.py POLICY) stands
    assert security["FrameOptions"]["FrameOption"] == "DENY" and security["StrictTransportSecurity"]
    assert (
        template["Outputs"]["ConsoleUrl"]["Value"]["Sub"]
        == "https://${PlayerPageDistribution.DomainName}/console/"
    )

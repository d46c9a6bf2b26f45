"""template.yaml: callers reach the organiser API only through API Gateway, which verifies them."""

from pathlib import Path

import yaml

TEMPLATE = Path(__file__).resolve().parents[2] / "template.yaml"


class Loader(yaml.SafeLoader):
    pass


Loader.add_multi_constructor("!", lambda loader, suffix, node: None)


def test_api_gateway_invokes_the_function_with_its_own_permission_not_the_callers_credentials():
    """With CALLER_CREDENTIALS an organiser needs lambda:InvokeFunction on the api function, and with it
    can invoke the function directly with a hand-made requestContext (any identity, any audit ``by``)."""
    template = yaml.load(TEMPLATE.read_text(), Loader=Loader)
    apis = [
        r
        for name, r in template["Resources"].items()
        if r["Type"] == "AWS::Serverless::Api"
        and name != "ConsoleApi"  # the console's: no IAM (test_template)
    ]
    assert apis
    for api in apis:
        assert api["Properties"]["Auth"]["DefaultAuthorizer"] == "AWS_IAM"
        # SAM's default for AWS_IAM is CALLER_CREDENTIALS: NONE must be spelled out.
        assert api["Properties"]["Auth"].get("InvokeRole") == "NONE"


def test_the_example_policy_scopes_an_organiser_to_its_events():
    doc = (TEMPLATE.parent / "docs" / "access.md").read_text()
    assert "execute-api:Invoke" in doc and "/events/harbour-cup/*" in doc
    assert "lambda:InvokeFunction" in doc  # said to be what callers must not have

"""The console's Lambda handler (functions/console/app.py) on API Gateway's events: the sign-in page, the
user pool's sign-in with PKCE and its callback, an authorised page, a form with its one-time token, a
referee's narrower view, the body limit — over the real organiser API handler under moto."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import boto3
import pytest
from api_calls import EVENT, api_under_moto
from api_calls import call as api_call
from deckhand_local.api_events import api_gateway_event
from deckhand_local.console.aws import CALLBACK, FLOW_COOKIE, SIGN_IN_START
from deckhand_local.console.cognito import ORGANISERS, REFEREES
from handlers import ROOT, FakeContext, load_handler
from test_console_cognito import JWKS, NOW, claims, mint

SETTINGS = {
    "region": "eu-west-1",
    "pool_id": "eu-west-1_Deckhand1",
    "client_id": "console-client-1",
    "domain": "deckhand-test-123456789012.auth.eu-west-1.amazoncognito.com",
    "url": "https://d111111abcdef8.cloudfront.net/console/",
}
TD = "2f0c6a3e-8b1d-4c55-9a40-5d7e0c2b9a11"
REF = "7a6b0000-0000-4000-8000-000000000001"


class Pool:
    """The user pool's token endpoint: a code it issued, for the verifier of its challenge, gives the ID
    token of the user who signed in."""

    def __init__(self) -> None:
        self.codes: dict[str, tuple[str, str]] = {}  # code → (challenge, ID token)

    def issue(self, authorize_url: str, token: str) -> str:
        query = parse_qs(urlsplit(authorize_url).query)
        code = f"code-{len(self.codes)}"
        self.codes[code] = (query["code_challenge"][0], token)
        return code

    def post(self, url: str, fields: dict[str, str]) -> Any:
        assert url == f"https://{SETTINGS['domain']}/oauth2/token"
        challenge, token = self.codes.pop(fields["code"], ("", ""))
        digest = hashlib.sha256(fields["code_verifier"].encode()).digest()
        if not challenge or base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != challenge:
            raise OSError("invalid_grant")
        return {"id_token": token, "access_token": "not-used", "token_type": "Bearer"}


class Browser:
    def __init__(self, handler: Any) -> None:
        self.handler = handler
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        target: str,
        form: dict[str, str] | None = None,
        raw: str | None = None,
        *,
        encoded: bool = False,
    ) -> tuple[int, dict[str, str], str]:
        url = urlsplit(target)
        headers = {"Host": "abc123.execute-api.eu-west-1.amazonaws.com"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = raw if raw is not None else (urlencode(form) if form is not None else None)
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        # API Gateway's event of a browser's request: no AWS identity (the console's API has no authorizer)
        event = api_gateway_event(method, target, headers, body, identity="")
        event["requestContext"]["identity"] = {"sourceIp": "192.0.2.1"}
        if encoded and body is not None:  # as API Gateway passes a binary media type's body
            event["body"], event["isBase64Encoded"] = base64.b64encode(body.encode()).decode(), True
        response = self.handler.handler(event, FakeContext())
        out = dict(response["headers"])
        for cookie in response["multiValueHeaders"].get("Set-Cookie", []):
            out["Set-Cookie"] = cookie
            name, value = cookie.split(";", 1)[0].split("=", 1)
            if "Max-Age=0" in cookie:
                self.cookies.pop(name, None)
            elif name != FLOW_COOKIE or url.path == SIGN_IN_START:
                self.cookies[name] = value
        return response["statusCode"], out, response["body"]

    def sign_in(self, pool: Pool, token: str) -> tuple[int, dict[str, str], str]:
        status, headers, _ = self.request("GET", SIGN_IN_START)
        assert status == 302
        authorize = headers["Location"]
        state = parse_qs(urlsplit(authorize).query)["state"][0]
        return self.request(
            "GET", f"{CALLBACK}?{urlencode({'code': pool.issue(authorize, token), 'state': state})}"
        )

    def csrf(self, target: str, form_id: str) -> str:
        _, _, text = self.request("GET", target)
        form = re.search(rf'<form[^>]*id="{form_id}".*?</form>', text, re.S)
        assert form is not None, text
        found = re.search(r'name="csrf" value="([^"]+)"', form.group(0))
        assert found is not None
        return found.group(1)


@pytest.fixture
def console(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, Pool, Any]]:
    with api_under_moto() as api:
        ssm = boto3.client("ssm", region_name="us-east-1")
        ssm.put_parameter(Name="/deckhand/test/console", Type="String", Value=json.dumps(SETTINGS))
        monkeypatch.setenv("DECKHAND_CONSOLE_SETTINGS", "/deckhand/test/console")
        monkeypatch.setenv("DECKHAND_TABLE", "deckhand-test")
        monkeypatch.setenv("DECKHAND_CONSOLE_FILES", str(ROOT / "web" / "console"))
        monkeypatch.setattr("deckhand_local.console.cognito.fetch_json", lambda url: JWKS)
        module = load_handler("console")
        function = module.console()
        pool = Pool()
        function.sign_in.post = pool.post
        function.sessions.clock = lambda: NOW
        yield module, pool, api


def token(sub: str, group: str) -> str:
    return mint(claims(sub=sub, **{"cognito:groups": [group]}))


def test_the_console_without_a_session_is_the_sign_in_page_with_the_pool_s_sign_in(console):
    module, _, _ = console
    browser = Browser(module)
    status, headers, text = browser.request("GET", "/console/")
    assert status == 200 and 'id="sign-in-account"' in text and f'href="{SIGN_IN_START}"' in text
    assert 'name="token"' not in text  # no venue token is typed in on AWS
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert browser.request("GET", "/console/events/cup")[0] == 401
    assert browser.request("GET", "/console/static/console.css")[0] == 200


def test_sign_in_goes_to_the_pool_with_pkce_and_the_callback_keeps_a_strict_secure_cookie(console):
    module, pool, _ = console
    browser = Browser(module)
    status, headers, _ = browser.request("GET", SIGN_IN_START)
    authorize = urlsplit(headers["Location"])
    query = parse_qs(authorize.query)
    assert status == 302 and authorize.netloc == SETTINGS["domain"] and authorize.path == "/oauth2/authorize"
    assert query["response_type"] == ["code"] and query["code_challenge_method"] == ["S256"]
    assert query["client_id"] == [SETTINGS["client_id"]]
    assert query["redirect_uri"] == ["https://d111111abcdef8.cloudfront.net/console/callback"]
    flow = headers["Set-Cookie"]
    assert "HttpOnly" in flow and "Secure" in flow and f"Path={CALLBACK}" in flow
    code = pool.issue(headers["Location"], token(TD, ORGANISERS))
    status, headers, text = browser.request(
        "GET", f"{CALLBACK}?{urlencode({'code': code, 'state': query['state'][0]})}"
    )
    cookie = headers["Set-Cookie"]
    assert status == 200 and 'http-equiv="refresh"' in text and 'data-onward="signed-in"' in text
    assert cookie.startswith("deckhand_console=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert "Secure" in cookie and "Path=/console/" in cookie
    status, _, text = browser.request("GET", "/console/")
    assert status == 200 and f"cognito:{TD}" in text and 'id="sign-in-account"' not in text


def test_a_callback_with_another_state_a_replayed_code_or_a_token_out_of_the_groups_signs_nobody_in(console):
    module, pool, _ = console
    browser = Browser(module)
    _, headers, _ = browser.request("GET", SIGN_IN_START)
    code = pool.issue(headers["Location"], token(TD, ORGANISERS))
    status, _, text = browser.request("GET", f"{CALLBACK}?{urlencode({'code': code, 'state': 'forged'})}")
    assert status == 401 and 'data-error="sign-in"' in text and "deckhand_console" not in browser.cookies
    stranger = Browser(module)  # a callback without this browser's flow cookie (a link sent to a victim)
    assert stranger.request("GET", f"{CALLBACK}?{urlencode({'code': code, 'state': 'x'})}")[0] == 401
    outsider = Browser(module)
    status, _, _ = outsider.sign_in(pool, mint(claims(**{"cognito:groups": ["guests"]})))
    assert status == 401 and "deckhand_console" not in outsider.cookies
    forged = Browser(module)
    forged.cookies["deckhand_console"] = mint(claims(aud="another-client"))
    assert 'id="sign-in-account"' in forged.request("GET", "/console/")[2]


def test_an_organiser_creates_an_event_once_and_a_referee_sees_only_where_named(console):
    module, pool, api = console
    td = Browser(module)
    assert td.sign_in(pool, token(TD, ORGANISERS))[0] == 200
    csrf = td.csrf("/console/events/new", "new-event")
    fields = {**{k: str(v) for k, v in EVENT.items()}, "csrf": csrf}
    status, headers, _ = td.request("POST", "/console/events", fields)
    assert status == 303 and headers["Location"] == "/console/events/cup"
    assert td.request("POST", "/console/events", fields)[0] == 403  # the same form again: replayed
    status, _, text = td.request("GET", "/console/")
    assert status == 200 and 'data-event="cup"' in text and 'data-role="owner"' in text

    referee = Browser(module)
    assert referee.sign_in(pool, token(REF, REFEREES))[0] == 200
    assert 'data-event="cup"' not in referee.request("GET", "/console/")[2]
    assert referee.request("GET", "/console/events/cup")[0] == 403  # not named yet
    assert referee.request("GET", "/console/events/new")[0] == 403  # the pool's referees create nothing
    text = referee.request("GET", "/console/")[2]
    # a token of its own session (the sign-out form's)
    found = re.search(r'name="csrf" value="([^"]+)"', text)
    assert found is not None
    other = {**{k: str(v) for k, v in EVENT.items()}, "event_id": "refs-cup", "csrf": found.group(1)}
    assert referee.request("POST", "/console/events", other)[0] == 403
    assert api_call(api, "GET", "/events/refs-cup")[0] == 404  # nothing was made
    roles = {"roles": {f"cognito:{REF}": "referee"}}
    assert api_call(api, "PUT", "/events/cup/roles", roles, caller=f"cognito:{TD}")[0] == 200
    status, _, text = referee.request("GET", "/console/events/cup")
    assert status == 200 and 'id="players-form"' not in text


def test_a_body_over_the_limit_is_refused_before_it_is_read_and_sign_out_ends_the_session(console):
    module, pool, _ = console
    browser = Browser(module)
    assert browser.request("POST", "/console/events", raw="x" * 10)[0] == 413  # no session: no body at all
    assert browser.sign_in(pool, token(TD, ORGANISERS))[0] == 200
    assert browser.request("POST", "/console/events", raw="x" * (1024 * 1024 + 1))[0] == 413
    assert browser.request("POST", "/console/events", raw="x" * (1024 * 1024 + 1), encoded=True)[0] == 413
    session = browser.cookies["deckhand_console"]
    text = browser.request("GET", "/console/")[2]
    found = re.search(r'action="/console/sign-out".*?name="csrf" value="([^"]+)"', text, re.S)
    assert found is not None
    csrf = found.group(1)
    # sent base64-encoded (as API Gateway passes a binary media type's body): decoded before it is read
    status, headers, text = browser.request(
        "POST", "/console/sign-out", raw=urlencode({"csrf": csrf}), encoded=True
    )
    # on to the pool's sign-out by a page (its CSP's form-action 'self' would stop a redirect off the site)
    assert status == 200 and "Location" not in headers and 'data-onward="signed-out"' in text
    onward = re.search(r'<a href="([^"]+)" id="onward"', text)
    assert onward is not None
    logout = urlsplit(html.unescape(onward.group(1)))
    assert logout.netloc == SETTINGS["domain"] and logout.path == "/logout"
    assert parse_qs(logout.query) == {"client_id": [SETTINGS["client_id"]], "logout_uri": [SETTINGS["url"]]}
    assert "Max-Age=0" in headers["Set-Cookie"] and "deckhand_console" not in browser.cookies
    replay = Browser(module)
    replay.cookies["deckhand_console"] = session  # the signed-out token, kept by someone
    assert 'id="sign-in-account"' in replay.request("GET", "/console/")[2]

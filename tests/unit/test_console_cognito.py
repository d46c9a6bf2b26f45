"""The console's sign-in on AWS (console/cognito.py): only an ID token of the stack's user pool, for the
console's app client, signed by a key of the pool's JWKS and not expired, is a session; the forms'
one-time tokens and sign-out through the ledger; a real (moto) pool's tokens verified the same way."""

from __future__ import annotations

import base64
import gzip
import json
import time
from pathlib import Path
from typing import Any

import boto3
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from deckhand_local.console.cognito import (
    JWKS_REFETCH_SECONDS,
    ORGANISERS,
    REFEREES,
    CognitoSessions,
    Jwks,
    Pool,
    TableLedger,
    TokenRefused,
    public_keys,
    verify_id_token,
)
from deckhand_local.console.sessions import Session
from moto import mock_aws

POOL = Pool("eu-west-1", "eu-west-1_Deckhand1", "console-client-1")
NOW = 1_800_000_000
SUB = "2f0c6a3e-8b1d-4c55-9a40-5d7e0c2b9a11"
KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
OTHER_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwk(key: rsa.RSAPrivateKey, kid: str) -> dict[str, str]:
    numbers = key.public_key().public_numbers()
    n = numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big")
    return {"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": b64(n), "e": b64(b"\x01\x00\x01")}


JWKS = {"keys": [jwk(KEY, "k1")]}


def claims(**changes: Any) -> dict[str, Any]:
    base = {
        "sub": SUB,
        "iss": POOL.issuer,
        "aud": POOL.client_id,
        "token_use": "id",
        "iat": NOW - 60,
        "auth_time": NOW - 60,
        "exp": NOW + 3600,
        "cognito:groups": [ORGANISERS],
        "email": "td@example.org",
    }
    base.update(changes)
    return {k: v for k, v in base.items() if v is not None}


def mint(body: dict[str, Any], *, key: rsa.RSAPrivateKey = KEY, kid: str = "k1", alg: str = "RS256") -> str:
    head = b64(json.dumps({"kid": kid, "alg": alg}).encode())
    payload = b64(json.dumps(body).encode())
    signature = key.sign(f"{head}.{payload}".encode(), padding.PKCS1v15(), hashes.SHA256())
    return f"{head}.{payload}.{b64(signature)}"


def keys(kid: str) -> rsa.RSAPublicKey | None:
    return public_keys(JWKS).get(kid)


class MemoryLedger:
    def __init__(self) -> None:
        self.records: dict[str, int] = {}

    def once(self, key: str, until: int) -> bool:
        if key in self.records:
            return False
        self.records[key] = until
        return True

    def seen(self, key: str) -> bool:
        return key in self.records


def sessions(ledger: MemoryLedger | None = None) -> CognitoSessions:
    return CognitoSessions(POOL, keys, ledger or MemoryLedger(), clock=lambda: NOW)


def test_a_token_of_the_pool_for_the_console_is_its_subject_s_identity():
    verified = verify_id_token(mint(claims()), POOL, keys, NOW)
    assert verified.identity == f"cognito:{SUB}" and verified.groups == {ORGANISERS}
    session = sessions().get(mint(claims()))
    assert session is not None and session.identity == f"cognito:{SUB}" and session.may_create


# Each case is named by its why: the tokens are signed by keys made at import, so they differ per worker.
REFUSED = [
    ("forged: signed by another key under the pool's key id", mint(claims(), key=OTHER_KEY)),
    ("a key the pool does not have", mint(claims(), key=OTHER_KEY, kid="k2")),
    ("another pool", mint(claims(iss="https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Other"))),
    ("another region's issuer", mint(claims(iss=POOL.issuer.replace("eu-west-1.", "us-east-1.")))),
    ("another app client", mint(claims(aud="someone-elses-client"))),
    ("expired", mint(claims(exp=NOW))),
    ("issued in the future", mint(claims(iat=NOW + 3600, exp=NOW + 7200))),
    ("an access token", mint(claims(token_use="access"))),
    ("no expiry", mint(claims(exp=None))),
    ("no subject", mint(claims(sub=None))),
    ("a subject that is no identity", mint(claims(sub="a b"))),
    ("a header naming another algorithm", mint(claims(), alg="RS384")),
    ("not a JWT", "not-a-token"),
    ("garbage parts", "a.b.c"),
]


@pytest.mark.parametrize(("why", "token"), REFUSED, ids=[why for why, _ in REFUSED])
def test_a_token_that_is_not_the_pool_s_for_the_console_is_refused(why, token):
    with pytest.raises(TokenRefused):
        verify_id_token(token, POOL, keys, NOW)
    assert sessions().get(token) is None, why


def test_an_unsigned_or_hmac_token_is_refused_whatever_it_claims():
    head = b64(json.dumps({"kid": "k1", "alg": "none"}).encode())
    payload = b64(json.dumps(claims()).encode())
    with pytest.raises(TokenRefused):
        verify_id_token(f"{head}.{payload}.", POOL, keys, NOW)
    import hmac as hmac_module

    public = KEY.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.PKCS1)
    head = b64(json.dumps({"kid": "k1", "alg": "HS256"}).encode())
    mac = hmac_module.new(public, f"{head}.{payload}".encode(), "sha256").digest()
    with pytest.raises(TokenRefused):
        verify_id_token(f"{head}.{payload}.{b64(mac)}", POOL, keys, NOW)


def test_a_token_whose_claims_were_changed_after_signing_is_refused():
    token = mint(claims(**{"cognito:groups": [REFEREES]}))
    head, _, signature = token.split(".")
    promoted = b64(json.dumps(claims(**{"cognito:groups": [ORGANISERS]})).encode())
    assert sessions().get(f"{head}.{promoted}.{signature}") is None


def test_only_the_pool_s_organisers_and_referees_sign_in_and_only_organisers_create_events():
    assert sessions().get(mint(claims(**{"cognito:groups": None}))) is None
    assert sessions().get(mint(claims(**{"cognito:groups": ["guests"]}))) is None
    referee = sessions().get(mint(claims(**{"cognito:groups": [REFEREES]})))
    assert referee is not None and not referee.may_create
    assert sessions().sign_in("any code or token") is None  # nothing is typed in on AWS


def test_a_form_token_is_good_once_and_in_its_own_session_only():
    ledger = MemoryLedger()
    source = sessions(ledger)
    mine = source.get(mint(claims()))
    other = source.get(mint(claims(sub="9d1c0000-0000-4000-8000-000000000000")))
    assert mine is not None and other is not None
    token = source.form_token(mine)
    assert not source.spend(other, token)  # another session's
    assert not source.spend(mine, token.split(".")[0] + ".0000")  # forged
    assert not source.spend(mine, None) and not source.spend(mine, "")
    assert source.spend(mine, token)
    assert not source.spend(mine, token)  # replayed


def test_a_signed_out_token_is_no_session_even_before_it_expires():
    ledger = MemoryLedger()
    source = sessions(ledger)
    token = mint(claims())
    assert source.get(token) is not None
    source.sign_out(token)
    assert source.get(token) is None


def test_the_pool_s_keys_are_fetched_again_for_an_unknown_key_id_but_not_on_every_request():
    fetched: list[str] = []
    now = [0.0]

    def fetch(url: str) -> Any:
        fetched.append(url)
        return JWKS

    jwks = Jwks(POOL.jwks_url, fetch=fetch, clock=lambda: now[0])
    assert jwks("k1") is not None and fetched == [POOL.jwks_url]
    assert jwks("k1") is not None and jwks("rotated") is None and jwks("rotated") is None
    assert len(fetched) == 1  # a flood of unknown key ids fetches nothing more
    now[0] = JWKS_REFETCH_SECONDS
    assert jwks("rotated") is None and len(fetched) == 2
    now[0] = 2 * JWKS_REFETCH_SECONDS

    def unreachable(url: str) -> Any:
        raise OSError("the pool's address did not answer")

    jwks.fetch = unreachable  # a failed fetch keeps the keys it had, and the request is answered
    assert jwks("rotated") is None and jwks("k1") is not None
    assert (
        POOL.jwks_url
        == "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Deckhand1/.well-known/jwks.json"
    )


def moto_jwks() -> dict[str, Any]:
    import moto.cognitoidp

    path = Path(moto.cognitoidp.__file__).parent / "resources" / "jwks-public.json.gz"
    return json.loads(gzip.decompress(path.read_bytes()))


def test_a_user_pool_s_own_id_token_is_verified_and_names_its_user_and_groups():
    with mock_aws():
        idp = boto3.client("cognito-idp", region_name="us-east-1")
        pool_id = idp.create_user_pool(PoolName="deckhand-console-test")["UserPool"]["Id"]
        client_id = idp.create_user_pool_client(
            UserPoolId=pool_id, ClientName="console", ExplicitAuthFlows=["ADMIN_NO_SRP_AUTH"]
        )["UserPoolClient"]["ClientId"]
        idp.create_group(UserPoolId=pool_id, GroupName=REFEREES)
        idp.admin_create_user(
            UserPoolId=pool_id, Username="ref@example.org", TemporaryPassword="Temp-Pass-123"
        )
        idp.admin_set_user_password(
            UserPoolId=pool_id, Username="ref@example.org", Password="A-Real-Pass-123", Permanent=True
        )
        idp.admin_add_user_to_group(UserPoolId=pool_id, Username="ref@example.org", GroupName=REFEREES)
        sub = next(
            a["Value"]
            for a in idp.admin_get_user(UserPoolId=pool_id, Username="ref@example.org")["UserAttributes"]
            if a["Name"] == "sub"
        )
        tokens = idp.admin_initiate_auth(
            UserPoolId=pool_id,
            ClientId=client_id,
            AuthFlow="ADMIN_NO_SRP_AUTH",
            AuthParameters={"USERNAME": "ref@example.org", "PASSWORD": "A-Real-Pass-123"},
        )["AuthenticationResult"]
    pool = Pool("us-east-1", pool_id, client_id)
    pool_keys = Jwks(pool.jwks_url, fetch=lambda url: moto_jwks())
    source = CognitoSessions(pool, pool_keys, MemoryLedger())
    session = source.get(tokens["IdToken"])
    assert session is not None and session.identity == f"cognito:{sub}" and not session.may_create
    assert source.get(tokens["AccessToken"]) is None  # an access token is not an ID token
    other_client = CognitoSessions(Pool("us-east-1", pool_id, "another-client"), pool_keys, MemoryLedger())
    assert other_client.get(tokens["IdToken"]) is None


def test_the_ledger_in_the_event_table_writes_each_record_once():
    from backend import create_table, setup_moto_env

    setup_moto_env()
    with mock_aws():
        create_table()
        ledger = TableLedger("deckhand-test", boto3.client("dynamodb", region_name="us-east-1"))
        until = int(time.time()) + 60
        assert ledger.once("form#abc", until) and not ledger.once("form#abc", until)
        assert ledger.seen("form#abc") and not ledger.seen("form#abd")
        assert ledger.once("out#old", int(time.time()) - 1) and not ledger.seen(
            "out#old"
        )  # expired (TTL late)
        item = boto3.client("dynamodb", region_name="us-east-1").scan(TableName="deckhand-test")["Items"][0]
        assert (
            item["pk"]["S"].startswith("CONSOLE#") and "abc" not in item["pk"]["S"]
        )  # a digest, never the token


def test_a_session_s_form_tokens_are_bound_to_its_own_token():
    source = sessions()
    session = Session("cognito:x", "digest-a", 0.0)
    token = source.form_token(session)
    assert not source.spend(Session("cognito:x", "digest-b", 0.0), token)
    assert source.spend(session, token)


def test_a_request_checks_its_session_once_and_the_next_request_checks_again():
    class Counting(MemoryLedger):
        reads = 0

        def seen(self, key: str) -> bool:
            Counting.reads += 1
            return super().seen(key)

    ledger = Counting()
    source = sessions(ledger)
    token = mint(claims())
    source.begin_request()
    assert source.get(token) is not None and source.get(token) is not None and Counting.reads == 1
    ledger.records[f"out#{token}"] = NOW + 60  # signed out meanwhile, by another instance
    assert source.get(token) is not None  # the same request
    source.begin_request()
    assert source.get(token) is None and Counting.reads == 2

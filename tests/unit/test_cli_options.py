"""``deckhand event``'s options (--api, --state, --as) are taken before or after its subcommand."""

import pytest
from deckhand_local.cli import events_cli
from deckhand_local.cli.main import build_parser, main


@pytest.mark.parametrize(
    "argv",
    [
        ["event", "--state", "X", "--as", "bob", "status", "cup", "--round", "2"],
        ["event", "status", "cup", "--state", "X", "--round", "2", "--as", "bob"],
        ["event", "--as", "bob", "status", "--state", "X", "cup", "--round", "2"],
    ],
)
def test_event_options_before_or_after_the_subcommand(argv):
    args = build_parser().parse_args(argv)
    assert (args.state, args.organiser, args.api, args.event_id, args.round) == ("X", "bob", None, "cup", 2)


def test_defaults_stay_and_an_option_before_is_not_overwritten():
    parser = build_parser()
    args = parser.parse_args(["event", "export", "cup", "--format", "csv"])
    assert (args.state, args.organiser, args.api, args.fmt) == (".deckhand", None, None, "csv")
    args = parser.parse_args(["event", "--api", "https://api.example", "players", "cup"])
    assert (args.api, args.state) == ("https://api.example", ".deckhand")
    args = parser.parse_args(["event", "--state", "A", "create", "--state", "B"])
    assert args.state == "B"  # the later one, as argparse takes a repeated option


def test_the_command_uses_a_state_folder_given_after_the_subcommand(monkeypatch, capsys, tmp_path):
    seen = {}

    class Api:
        def __init__(self, api, state, organiser=None):
            seen.update(api=api, state=state, organiser=organiser)

        def request(self, method, path, body=None, *, raw=False):
            return {"standings": []}

    monkeypatch.setattr(events_cli, "ApiClient", Api)
    assert main(["event", "standings", "cup", "--state", str(tmp_path / "venue"), "--as", "bob"]) == 0
    assert seen == {"api": None, "state": tmp_path / "venue", "organiser": "bob"}
    assert capsys.readouterr().out == '{\n  "standings": []\n}\n'

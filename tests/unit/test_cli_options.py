"""``deckhand event``'s options (--api, --state, --as) are taken before or after its subcommand."""

import pytest
from deckhand.engines.registry import ENTRIES
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


def demo_arguments(monkeypatch) -> dict:
    """What ``deckhand demo`` hands the demo (the demo itself not run)."""
    from deckhand_local.venue import demo_event

    seen: dict = {}

    class Demo:
        def __init__(self, **kwargs):
            seen.update(kwargs)

        def run(self):
            return {}

    monkeypatch.setattr(demo_event, "DemoEvent", Demo)
    return seen


@pytest.mark.parametrize(("argv", "out"), [([], "out/bigtwo"), (["--game", "doudizhu"], "out/doudizhu")])
def test_each_games_demo_writes_its_own_folder(monkeypatch, argv, out):
    """`make demo GAME=doudizhu` wrote over the Big Two results in out/ without a word."""
    from pathlib import Path

    seen = demo_arguments(monkeypatch)
    assert main(["demo", *argv]) == 0
    assert seen["out"] == Path(out)
    assert main(["demo", *argv, "--out", "mine"]) == 0 and seen["out"] == Path("mine")


@pytest.mark.parametrize("alias", [e.alias for e in ENTRIES if not e.dealt])
def test_a_board_games_demo_is_offered_with_its_ties_games(monkeypatch, alias):
    """`make demo GAME=<a board game>`: the knockout demo, in its own folder, ``--max-games`` passed on."""
    from pathlib import Path

    seen = demo_arguments(monkeypatch)
    assert main(["demo", "--game", alias, "--max-games", "6"]) == 0
    assert seen["out"] == Path(f"out/{alias}") and seen["max_games"] == 6 and seen["rounds"] is None


@pytest.mark.parametrize("alias", [e.alias for e in ENTRIES])
def test_a_games_demo_has_its_electronic_boards_unless_told(monkeypatch, alias):
    """`make demo GAME=xiangqi` shows one electronic board (the game's spec says how many its demo
    shows: none for the others); ``--electronic-boards N`` overrides it."""
    from deckhand.engines.registry import by_alias

    seen = demo_arguments(monkeypatch)
    assert main(["demo", "--game", alias]) == 0
    assert seen["electronic_boards"] == by_alias(alias).demo_electronic_boards
    assert main(["demo", "--game", alias, "--electronic-boards", "0"]) == 0
    assert seen["electronic_boards"] == 0


def test_the_xiangqi_demo_has_one_electronic_board_by_default(monkeypatch):
    seen = demo_arguments(monkeypatch)
    assert main(["demo", "--game", "xiangqi"]) == 0 and seen["electronic_boards"] == 1
    assert main(["demo", "--game", "xiangqi", "--electronic-boards", "2"]) == 0
    assert seen["electronic_boards"] == 2

"""Entry point of the ``deckhand`` console script: one subcommand per job."""

from __future__ import annotations

import argparse
import signal
import sys
from typing import Any

from deckhand.engines.registry import ALIASES, DEFAULT_ALIAS, RULESETS, by_alias, game
from deckhand.errors import DeckhandError

from ..venue.database import Database
from ..venue.restart_grace import RESTART_GRACE_SECONDS
from . import competition, matchplay, rules


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not at least 1")
    return value


def non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"{value} is not between 0 and 3600")
    return value


def add_broker_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--broker",
        choices=("aedes", "embedded", "mosquitto"),
        default="aedes",
        help="MQTT broker: aedes (default, installed by make), embedded (amqtt, in Python) or mosquitto "
        "(installed separately); each takes only the things' credentials",
    )


def add_event_options(parser: argparse.ArgumentParser, *, defaults: bool) -> None:
    """``deckhand event``'s options, accepted before and after its subcommand."""

    def default(value: str | None) -> str | None:
        return value if defaults else argparse.SUPPRESS

    parser.add_argument(
        "--api",
        default=default(None),
        help="a deployed API's base URL (SigV4-signed); default: the local venue",
    )
    parser.add_argument(
        "--state", default=default(".deckhand"), help="the local venue's state folder (default .deckhand)"
    )
    parser.add_argument(
        "--as",
        dest="organiser",
        metavar="NAME",
        default=default(None),
        help="act as an organiser added with `deckhand venue organiser add NAME` (default: the venue's token)",
    )


def _with_parents(base: type[argparse.ArgumentParser], *parents: argparse.ArgumentParser) -> Any:
    """A parser class whose every instance (each subcommand's parser) also takes ``parents``' options."""

    def make(**kwargs: Any) -> argparse.ArgumentParser:
        return base(**kwargs, parents=[*kwargs.pop("parents", []), *parents])

    return make


def game_has_showcase(ruleset: str) -> bool:
    return game(ruleset).showcase is not None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="deckhand", description="Run competitive card-game events.")
    sub = parser.add_subparsers(dest="command", required=True)

    p_rules = sub.add_parser("rules", help="referee calculator: JSON Lines in, one JSON object out per line")
    p_rules.add_argument("--game", required=True, choices=sorted(ALIASES), help="which game's rules")

    p_standings = sub.add_parser(
        "standings", help="matchpoints, rank points and standings from board results"
    )
    p_standings.add_argument(
        "--ranking",
        choices=["competition", "dense"],
        default="competition",
        help="board places: competition 1,1,3 (default) or dense 1,1,2",
    )
    p_standings.add_argument("--format", choices=["json", "csv", "html"], default="json", dest="fmt")

    sub.add_parser("seat", help="Swiss movement: groups, tables and seats for the next round")

    p_event = sub.add_parser("event", help="event administration (checks offline; the rest through the API)")
    add_event_options(p_event, defaults=True)
    # The same options after the subcommand (`deckhand event status cup --state X`): without defaults
    # there, so one given before the subcommand is not overwritten by a subcommand's default.
    after = argparse.ArgumentParser(add_help=False)
    add_event_options(after, defaults=False)
    event_sub = p_event.add_subparsers(
        dest="event_command", required=True, parser_class=_with_parents(argparse.ArgumentParser, after)
    )
    event_sub.add_parser("check", help="check an event plan against its grade's rules (exit 1 on violations)")
    event_sub.add_parser("create", help="create an event from the JSON on stdin")
    for name, text in (
        ("players", 'register players: {"players": [...]} on stdin'),
        ("tables", 'register tables and devices: {"tables": [...]} on stdin'),
        ("pairs", 'a match event: register pairs of two players: {"pairs": [...]} on stdin'),
        (
            "referee",
            'a referee action: {"kind": "warning|violation|foul|forfeit|disqualify|adjust|withdraw", '
            '"player": …, "reason": …} on stdin (a match: applied to the player\'s board in play); '
            '{"kind": "serve_deal", "table": …, "reason": …}: the server deals where a dealing table failed; '
            '{"kind": "artificial", "round", "table", "board", "artificial": [average_plus|average|'
            'average_minus|averaged, one a seat], "reason"}: a duplicate board\'s artificial scores (a board '
            "the table has not ended is ended unplayed, and the table goes on); "
            '{"kind": "reseat", "player", "table", "seat", "reason"}: the player sits there from the next board; '
            'a board game\'s board in play, bound to its "version": {"kind": "adjudicate", "table", "claim", '
            '"decision": "upheld|rejected", "winner", "reason"}, {"kind": "correct_move", "table", "move", "data", '
            '"reason"}, {"kind": "no_show", "player", "reason"} (docs/cli.md)',
        ),
    ):
        p = event_sub.add_parser(name, help=text)
        p.add_argument("event_id")
    p = event_sub.add_parser(
        "join-links",
        help="a join link per registered player (JSON lines {player, url}); each replaces the player's link",
    )
    p.add_argument("event_id")
    p.add_argument("--player", action="append", dest="players", help="only this player (repeatable)")
    p.add_argument(
        "--base",
        help="where players open the client (default: the local venue's HTTP address; required with --api)",
    )
    p.add_argument(
        "--format",
        choices=["jsonl", "html"],
        default="jsonl",
        dest="fmt",
        help="jsonl (default), or html: printable join cards, a QR code each",
    )
    p.add_argument(
        "--lang", choices=["zh-CN", "en"], default="zh-CN", help="the cards' language (default zh-CN)"
    )
    p = event_sub.add_parser(
        "revoke-link", help="revoke a player's join link: their device is cut off at once"
    )
    p.add_argument("event_id")
    p.add_argument("player")
    p = event_sub.add_parser(
        "pairing", help="a match event: the next round's pairing; --override sets your own (JSON on stdin)"
    )
    p.add_argument("event_id")
    p.add_argument("--round", type=int, help="round number (default: the next round)")
    p.add_argument(
        "--override",
        action="store_true",
        help='pair by hand: {"pairs": [[a, b], …], "bye": null, "reason": "…"} on stdin (checked, logged)',
    )
    for name, text in (
        ("start-round", "start the next round"),
        ("retry-deal", "deal the current round again after its deal failed"),
        ("standings", "current standings"),
        ("status", "a round's status (default: the current round)"),
        (
            "seating",
            "where everyone sits in a round: table, seat, player, handset (--format html: guide cards, Chinese by default)",
        ),
        ("calls", "the handsets' calls for the referee in a round, by table and time"),
        ("audit", "the event's audit log: every referee action and pairing override, who and when"),
        ("export", "results for the governing platform"),
    ):
        p = event_sub.add_parser(name, help=text)
        p.add_argument("event_id")
        if name in ("seating", "calls"):
            p.add_argument("--round", type=int, help="round number (default: the current round)")
        if name == "seating":
            p.add_argument("--format", choices=["json", "html"], default="json", dest="fmt")
            p.add_argument(
                "--lang",
                choices=["zh-CN", "en"],
                default="zh-CN",
                help="the guide cards' language (default zh-CN)",
            )
        if name in ("status", "retry-deal"):
            p.add_argument("--round", type=int, help="round number (default: the current round)")
        if name == "status":
            p.add_argument(
                "--wait", action="store_true", help="wait until the round is done, with progress on stderr"
            )
            p.add_argument(
                "--timeout", type=float, default=3600, help="give up waiting after this many seconds"
            )
        if name == "export":
            p.add_argument(
                "--format",
                choices=["json", "csv", "boards-csv", "standings-csv", "html"],
                default="json",
                dest="fmt",
                help="csv: a row per player per board (a match event: per match); boards-csv: a match "
                "event's row per board; html: the results page",
            )

    p_venue = sub.add_parser("venue", help="run the whole system locally until Ctrl-C")
    p_venue.add_argument("--dynamodb-port", type=int, default=8000)
    p_venue.add_argument("--mqtt-port", type=int, default=1883)
    p_venue.add_argument("--http-port", type=int, default=8080)
    p_venue.add_argument(
        "--api-host", default="127.0.0.1", help="address the organiser API listens on (default loopback only)"
    )
    p_venue.add_argument(
        "--tls-port",
        type=int,
        help="also serve MQTT over TLS on this port (8883 for real handsets; the venue CA is in <state>/tls)",
    )
    p_venue.add_argument(
        "--ws-port",
        type=int,
        help="serve MQTT over WebSocket on this port for the player's page at <API>/play/ (Aedes only; "
        "default: a free port)",
    )
    p_venue.add_argument(
        "--ws-host",
        default="127.0.0.1",
        help="address the WebSocket listener takes (default loopback only; 0.0.0.0 for phones on the "
        "venue's network)",
    )
    p_venue.add_argument(
        "--device-host",
        default="127.0.0.1",
        help="address of the TLS listener: the venue's address on its network, where handsets connect",
    )
    p_venue.add_argument("--state", default=".deckhand", help="state folder (token, the database's files)")
    p_venue.add_argument(
        "--fresh",
        action="store_true",
        help="start from an empty database (the default keeps the venue's data)",
    )
    p_venue.add_argument(
        "--database",
        choices=[str(d) for d in Database],
        default=str(Database.DYNAMODB_LOCAL),
        help="dynamodb-local: on disk in the state folder (default); moto: in memory, gone on stop",
    )
    add_broker_option(p_venue)
    p_venue.add_argument(
        "--restart-grace",
        type=non_negative_float,
        default=RESTART_GRACE_SECONDS,
        help="after a crash, the seconds the clocks stay stopped once the venue is back, while handsets"
        f" reconnect (default {RESTART_GRACE_SECONDS:.0f})",
    )
    p_venue.add_argument(
        "--bridge-workers", type=positive_int, default=4, help="device messages handled at once (default 4)"
    )
    venue_sub = p_venue.add_subparsers(dest="venue_command")
    p_credentials = venue_sub.add_parser(
        "credentials", help="print a thing's provisioning (its config.json, with its password) as JSON"
    )
    p_credentials.add_argument("thing", help="the thing name, as registered at a table")
    p_credentials.add_argument("--role", choices=("handset", "dealer", "eboard"), default="handset")
    p_credentials.add_argument("--endpoint", help="host name or address devices use (default: the venue's)")
    p_credentials.add_argument(
        "--state", default=argparse.SUPPRESS, help="the venue's state folder (or before the subcommand)"
    )
    p_organiser = venue_sub.add_parser(
        "organiser", help="another organiser's token for the local API (the venue need not run)"
    )
    p_organiser.add_argument("action", choices=["add", "remove"])
    p_organiser.add_argument("name", help="1–64 letters, digits, '_', '.', '-'; the identity is local:NAME")
    p_organiser.add_argument("--state", default=argparse.SUPPRESS, help="the venue's state folder")

    p_handset = sub.add_parser("handset", help="play a seat from this terminal: a handset for a person")
    p_handset.add_argument(
        "--thing", required=True, help="the handset's thing name, as registered at a table"
    )
    p_handset.add_argument("--host", default="127.0.0.1", help="MQTT broker host (default: the local venue)")
    p_handset.add_argument("--port", type=int, help="MQTT port (default: the running venue's, else 1883)")
    p_handset.add_argument("--state", default=".deckhand", help="the venue's state folder")
    p_handset.add_argument(
        "--small-screen",
        action="store_true",
        help="show what the ESP32 handset's 128x64 display shows (8 rows of 16); its buttons with press",
    )

    p_demo = sub.add_parser(
        "demo",
        help="run a whole event through the local venue (duplicate, matches of pairs, or a knockout of "
        "individuals)",
    )
    p_demo.add_argument(
        "--seed",
        default="deckhand-demo",
        help="seed of the seating, boards and bots: the same seed gives the same event (play time runs on "
        "a simulated clock)",
    )
    p_demo.add_argument(
        "--out",
        help="folder for results.json, results.csv, standings.csv, results.html (default out/<game>: "
        "each game's demo keeps its own results)",
    )
    p_demo.add_argument(
        "--game",
        choices=[*ALIASES, *(r for r in RULESETS if r not in ALIASES)],
        default=DEFAULT_ALIAS,
        help=f"the game, or one of its rule sets (a preset) (default {DEFAULT_ALIAS})",
    )
    p_demo.add_argument(
        "--players", type=int, help="players (default: every seat of every table; a board game: 16)"
    )
    p_demo.add_argument(
        "--tables", type=int, help="tables (default 4; a match game: 8; a board game: half the players)"
    )
    p_demo.add_argument("--groups", type=int, help="groups (default 2; a match game: 1)")
    p_demo.add_argument(
        "--rounds", type=int, help="rounds (default 3; a board game's knockout: to its final)"
    )
    p_demo.add_argument(
        "--max-games", type=int, help="a board game: games a tie may take before a lot decides it (default 4)"
    )
    p_demo.add_argument(
        "--minutes",
        type=int,
        help="a match game: a match's clock on the simulated time (default 12: the demo's matches end by "
        "8 boards or the clock, whichever first; 8 for a game whose deal is paced, its boards being long)",
    )
    p_demo.add_argument(
        "--boards", type=int, help="boards a round (default 4); a match game: boards a match (default 8)"
    )
    p_demo.add_argument(
        "--electronic-boards",
        type=int,
        metavar="N",
        help="a board game whose seats see one board: electronic boards at the first N tables, the "
        "players' moves made on them (default: as many as the game's demo shows: 0 for most games)",
    )
    add_broker_option(p_demo)

    from .play import add_parser as add_play

    add_play(sub, list(ALIASES))

    p_engine = sub.add_parser(
        "engine-demo", help="one game's engine alone: bots at two tables, every trick printed"
    )
    p_engine.add_argument(
        "--game",
        choices=[a for a, r in ALIASES.items() if game_has_showcase(r)],
        default=DEFAULT_ALIAS,
        help=f"the game (default {DEFAULT_ALIAS})",
    )
    p_engine.add_argument("--boards", type=int, default=4, help="boards to play (default 4)")
    p_engine.add_argument("--seed", default="deckhand-demo", help="seed for reproducible deals")
    p_site = sub.add_parser(
        "site", help="the results site from an export: standings, boards, score cards, matches (static files)"
    )
    p_site.add_argument(
        "export", help="an export (results.json, or `deckhand event export` JSON); - for stdin"
    )
    p_site.add_argument("--out", default="site", help="folder to write the site to (default site)")
    p_verify = sub.add_parser(
        "verify", help="recompute every deal from the revealed salts; check commitments and hands played"
    )
    p_verify.add_argument(
        "export", help="an export (results.json, or `deckhand event export` JSON); - for stdin"
    )
    p_publish = sub.add_parser(
        "publish-page",
        help="the player's page onto a deployed stack: its files and config.json to the bucket, CloudFront invalidated",
    )
    p_publish.add_argument("--stack", required=True, help="the deployed stack's name (sam deploy's stack)")
    p_publish.add_argument("--region", help="the stack's region (default: the AWS configuration's)")
    p_account = sub.add_parser(
        "console-account", help="an account of a deployed stack's console (its Cognito user pool)"
    )
    account_sub = p_account.add_subparsers(dest="account_command", required=True)
    p_add = account_sub.add_parser(
        "add", help="make the account (or find it), put it in its group, print its identity"
    )
    p_add.add_argument(
        "email", help="the person's e-mail address: their user name; the pool mails a first password"
    )
    p_add.add_argument("--stack", required=True, help="the deployed stack's name (sam deploy's stack)")
    p_add.add_argument("--region", help="the stack's region (default: the AWS configuration's)")
    p_add.add_argument(
        "--referee", action="store_true", help="a referee (creates no events) rather than an organiser"
    )
    matchplay.add_parsers(sub)
    return parser


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM unwinds like Ctrl-C: the ``finally`` blocks stop the database, broker and venue that a
    command started, where Python's default would leave them running as orphans."""
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    signal.signal(signal.SIGTERM, _terminated)  # commands that wait (venue, play) install their own
    try:
        return _dispatch(args)
    except BrokenPipeError:
        # The reader went away (``deckhand demo | head``): not an error of ours.
        sys.stderr.close()
        return 0
    except DeckhandError as exc:
        name = args.command if args.command != "event" else f"event {args.event_command}"
        if args.command == "venue" and args.venue_command:
            name = f"venue {args.venue_command}"
        print(f"deckhand {name}: error: {exc}", file=sys.stderr)
        return competition.EXIT_BAD_INPUT


def _dispatch(args: argparse.Namespace) -> int:
    if matchplay.handles(args):
        return matchplay.run(args.command, sys.stdin, sys.stdout)
    if args.command == "rules":
        return rules.run(args.game, sys.stdin, sys.stdout)
    if args.command == "standings":
        return competition.run_standings(sys.stdin, sys.stdout, ranking=args.ranking, fmt=args.fmt)
    if args.command == "seat":
        return competition.run_seat(sys.stdin, sys.stdout)
    if args.command == "event":
        if args.event_command == "check":
            return competition.run_event_check(sys.stdin, sys.stdout)
        from .events_cli import run_event_command

        return run_event_command(args, sys.stdin, sys.stdout)
    if args.command == "handset":
        from .venue_cli import run_handset

        return run_handset(args, sys.stdin, sys.stdout)
    if args.command == "venue" and args.venue_command == "credentials":
        from .venue_cli import run_credentials

        return run_credentials(args, sys.stdout)
    if args.command == "venue":
        from .venue_cli import run_organiser, run_venue

        if args.venue_command == "organiser":
            return run_organiser(args, sys.stdout)
        return run_venue(args)
    if args.command == "demo":
        from pathlib import Path

        from ..venue.demo_event import DemoEvent

        ruleset = ALIASES.get(args.game, args.game)
        eboards = args.electronic_boards
        DemoEvent(
            seed=args.seed,
            out=Path(args.out or f"out/{args.game}"),
            ruleset=ruleset,
            players=args.players,
            tables=args.tables,
            groups=args.groups,
            rounds=args.rounds,
            boards=args.boards,
            **({"minutes": args.minutes} if args.minutes else {}),
            **({"max_games": args.max_games} if args.max_games else {}),
            electronic_boards=game(ruleset).demo_electronic_boards if eboards is None else eboards,
            log=sys.stdout,
            broker=args.broker,
        ).run()
        return 0
    if args.command == "site":
        from .site_cli import run_site

        return run_site(args.export, args.out, sys.stdin, sys.stdout)
    if args.command == "verify":
        from ..verification import run_verify

        return run_verify(args.export, sys.stdin, sys.stdout, sys.stderr)
    if args.command == "console-account":
        from .console_account import run_console_account

        return run_console_account(args.stack, args.region, args.email, args.referee, sys.stdout)
    if args.command == "publish-page":
        from .publish_page import run_publish_page

        return run_publish_page(args.stack, args.region, sys.stdout)
    if args.command == "play":
        from .play import run_play

        return run_play(args, sys.stdout, sys.stderr)
    if args.command == "engine-demo":
        from deckhand.competition.showcase import write_standings

        spec = by_alias(args.game)
        assert spec.showcase is not None  # the parser offers only games that have one
        write_standings(spec.showcase(args.boards, args.seed, sys.stdout), spec.ruleset, sys.stdout)
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())

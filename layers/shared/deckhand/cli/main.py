"""Entry point of the ``deckhand`` console script: one subcommand per job."""

from __future__ import annotations

import argparse
import sys

from ..errors import DeckhandError
from . import competition, rules


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="deckhand", description="Run competitive card-game events.")
    sub = parser.add_subparsers(dest="command", required=True)

    p_rules = sub.add_parser("rules", help="referee calculator: JSON Lines in, one JSON object out per line")
    p_rules.add_argument("--game", required=True, choices=sorted(rules.GAMES), help="which game's rules")

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

    p_event = sub.add_parser("event", help="event administration")
    event_sub = p_event.add_subparsers(dest="event_command", required=True)
    event_sub.add_parser("check", help="check an event plan against its grade's rules (exit 1 on violations)")

    p_demo = sub.add_parser("demo", help="play a duplicate set of Big Two boards with bots and print the log")
    p_demo.add_argument("--boards", type=int, default=4, help="boards to play (default 4)")
    p_demo.add_argument("--seed", default="deckhand-demo", help="seed for reproducible deals")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _dispatch(args)
    except BrokenPipeError:
        # The reader went away (``deckhand demo | head``): not an error of ours.
        sys.stderr.close()
        return 0
    except DeckhandError as exc:
        name = args.command if args.command != "event" else f"event {args.event_command}"
        print(f"deckhand {name}: error: {exc}", file=sys.stderr)
        return competition.EXIT_BAD_INPUT


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "rules":
        return rules.run(args.game, sys.stdin, sys.stdout)
    if args.command == "standings":
        return competition.run_standings(sys.stdin, sys.stdout, ranking=args.ranking, fmt=args.fmt)
    if args.command == "seat":
        return competition.run_seat(sys.stdin, sys.stdout)
    if args.command == "event":
        return competition.run_event_check(sys.stdin, sys.stdout)
    if args.command == "demo":
        from ..demo import run_demo

        return run_demo(boards=args.boards, seed=args.seed, out=sys.stdout)
    return 2


if __name__ == "__main__":
    sys.exit(main())

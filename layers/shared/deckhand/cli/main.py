"""Entry point of the ``deckhand`` console script: one subcommand per job."""

from __future__ import annotations

import argparse
import sys

from . import rules


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="deckhand", description="Run competitive card-game events.")
    sub = parser.add_subparsers(dest="command", required=True)

    p_rules = sub.add_parser("rules", help="referee calculator: JSON Lines in, one JSON object out per line")
    p_rules.add_argument("--game", required=True, choices=sorted(rules.GAMES), help="which game's rules")

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


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "rules":
        return rules.run(args.game, sys.stdin, sys.stdout)
    if args.command == "demo":
        from ..demo import run_demo

        return run_demo(boards=args.boards, seed=args.seed, out=sys.stdout)
    return 2


if __name__ == "__main__":
    sys.exit(main())

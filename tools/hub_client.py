#!/usr/bin/env python3
"""Plays complete games against `rafle hub` through pydraughts' HubEngine, a real Hub client.

Every move the engine returns is checked against pydraughts' own legal move list; the game goes
on until pydraughts says it is over (or a ply limit). Exit status 0 when every game completed
with legal moves only, 1 otherwise.

    python tools/hub_client.py --engine target/release/rafle [--variant standard] [--games 1]
"""

import argparse
import sys

from draughts import Board
from draughts.engine import HubEngine, Limit

# Games between equal engines can shuffle kings for a long time; the draw rules end real games,
# and this limit ends ours.
MAX_PLIES = 300


def play_game(engines, variant, limit):
    board = Board(variant=variant)
    for ply in range(MAX_PLIES):
        if board.is_over():
            return True, f"over after {ply} plies, winner {board.winner()}"
        engine = engines[ply % 2]
        result = engine.play(board, limit, ponder=False)
        legal = [move.hub_move for move in board.legal_moves()]
        if result.move is None or result.move.hub_move not in legal:
            return False, f"illegal move {result.move and result.move.hub_move} at ply {ply}; legal: {legal}"
        board.push(result.move)
    return True, f"stopped at the {MAX_PLIES}-ply limit"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="path of the rafle binary")
    parser.add_argument("--variant", default="standard", help="pydraughts variant name")
    parser.add_argument("--hub-variant", default=None, help="Hub variant parameter (default: none sent)")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--depth", type=int, default=None, help="fixed depth instead of a clock")
    parser.add_argument("--time", type=float, default=2.0, help="seconds on the clock")
    parser.add_argument("--inc", type=float, default=0.1, help="increment per move")
    args = parser.parse_args()

    engines = [HubEngine([args.engine, "hub"]), HubEngine([args.engine, "hub"])]
    for engine in engines:
        if args.hub_variant:
            engine.setoption("variant", args.hub_variant)
        engine.init()
        engine.ping()
    # A fixed clock per move keeps the script simple: the referee is the `rafle match` tool.
    limit = Limit(depth=args.depth) if args.depth else Limit(time=args.time, inc=args.inc)
    ok = True
    for game in range(args.games):
        completed, message = play_game(engines, args.variant, limit)
        print(f"game {game + 1}: {'ok' if completed else 'FAILED'}: {message}")
        ok = ok and completed
    for engine in engines:
        engine.quit()
        engine.p.communicate(timeout=10)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Plays full games through pydraughts' HubEngine (the client lidraughts bots use) against
`rafle hub`, one per variant, and checks that every move the engine answers is legal for
pydraughts and that the game reaches its end.

Setup (once):   python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts
Run:            cargo build --release
                tools/.venv/bin/python tools/hub_game.py --variant brazilian --variant russian

Both sides are played by the engine (two engine processes), with a short fixed time per move.
pydraughts sends `pos pos=<its start position> moves="<the game so far>"` before every search,
so every move of the game goes through the engine's position and move parsing.

Exit status: 0 when every game finished with legal moves only, 1 otherwise.
"""

import argparse
import sys
from pathlib import Path

import draughts
import draughts.engine
from draughts.engine import HubEngine, Limit

REPO = Path(__file__).resolve().parent.parent

# pydraughts variant name -> the value sent as the Hub `variant` parameter. The pydraughts names
# are accepted by Rafle as they are; Scan's names are used where Scan has the variant.
HUB_NAMES = {
    "standard": "normal",
    "killer": "killer",
    "breakthrough": "bt",
    "antidraughts": "losing",
    "brazilian": "brazilian",
    "russian": "russian",
    "english": "english",
    "italian": "italian",
}

# pydraughts has no Killer variant: its move generator plays international rules, which differ
# from Killer only in where a king stops after taking a king last. Such a move of the engine is
# checked against Rafle's own Killer generator instead.
PYDRAUGHTS_RULES = {"killer": "standard"}

MAX_PLIES = 400


def play(binary, variant, move_time, log):
    pydraughts_variant = PYDRAUGHTS_RULES.get(variant, variant)
    board = draughts.Board(pydraughts_variant)
    engines = []
    for _ in range(2):
        engine = HubEngine([str(binary), "hub"])
        engine.setoption("variant", HUB_NAMES[variant])
        engine.init()
        engines.append(engine)
    plies = 0
    try:
        while not board.is_over() and plies < MAX_PLIES:
            engine = engines[plies % 2]
            result = engine.play(board, Limit(movetime=move_time), ponder=False)
            move = result.move
            legal = {m.hub_move for m in board.legal_moves()}
            if move.hub_move not in legal:
                print(f"{variant}: ply {plies}: illegal move {move.hub_move} in {board.fen}")
                return False
            board.push(move)
            plies += 1
            if log:
                print(f"  {plies:3} {move.pdn_move:20} {result.info.get('score', '')}")
    finally:
        for engine in engines:
            engine.quit()
            engine.kill_process()
    winner = board.winner()
    outcome = {None: "unfinished", 0: "draw", draughts.WHITE: "white wins", draughts.BLACK: "black wins"}
    print(f"{variant:13} {plies:3} plies, {outcome.get(winner, winner)}; final FEN {board.fen}")
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", help="pydraughts variant name(s)")
    parser.add_argument("--move-time", type=float, default=0.05, help="seconds per move")
    parser.add_argument("--log", action="store_true", help="print every move")
    parser.add_argument(
        "--rafle", default=str(REPO / "target" / "release" / "rafle"), help="rafle binary"
    )
    args = parser.parse_args()
    variants = args.variant or ["brazilian", "russian", "killer"]
    ok = all([play(args.rafle, variant, args.move_time, args.log) for variant in variants])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

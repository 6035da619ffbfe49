#!/usr/bin/env python3
"""Plays complete games against `rafle dxp --listen` through pydraughts' DXPEngine, a real DXP
client (it always initiates). The other side is played by `rafle hub` through pydraughts'
HubEngine. Every move that comes over DXP is checked by pydraughts' own move generator (its
receiver only accepts legal moves) and against its legal move list here.

    rafle dxp --listen 127.0.0.1:27531 --depth 4 &
    python tools/dxp_client.py --port 27531 --opponent-engine target/release/rafle [--games 2]

Exit status 0 when every game completed with legal moves only, 1 otherwise.

pydraughts 0.6.7's DXP client has bugs that the script (or Rafle) must live with:
* DXPEngine.play() waits for the engine's move in a busy loop that never looks at GAMEEND, so a
  game the engine ends by itself (a draw by rule) would hang it: play() runs in a thread here,
  and the game is over when the receiver has seen a GAMEEND.
* The engine never hears the opponent's last move when that move ends the game (the move is only
  sent inside play()); quit() then ends the game with GAMEEND reason 0 (unknown).
"""

import argparse
import sys
import threading

from draughts import BLACK, Board, WHITE
from draughts.engine import DXPEngine, HubEngine, Limit

# Games between equal engines can shuffle kings for a long time; the draw rules end real games,
# and this limit ends ours.
MAX_PLIES = 400
# Longest wait for one DXP move, in seconds.
MOVE_TIMEOUT = 60


def dxp_move(engine, board):
    """The DXP engine's move, or None if it ended the game (or did not answer in time)."""
    result = {}

    def ask():
        result["play"] = engine.play(board)

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    waited = 0.0
    while thread.is_alive() and waited < MOVE_TIMEOUT:
        thread.join(0.05)
        waited += 0.05
        if engine.receiver.gameend_sent and not engine.sender.current.started:
            # The engine sent GAMEEND and pydraughts acknowledged it: no move will come.
            return None, "ended by the engine"
    if thread.is_alive():
        return None, "no move in time"
    return result["play"].move, None


def play_game(args, rafle_color):
    dxp = DXPEngine(None, {"engine-opened": True, "ip": args.host, "port": args.port,
                           "initial-time": args.initial_time})
    hub = HubEngine([args.opponent_engine, "hub"])
    hub.init()
    limit = Limit(depth=args.depth)
    board = Board(variant="standard")
    message = None
    ok = True
    try:
        for ply in range(MAX_PLIES):
            if board.is_over():
                message = f"over after {ply} plies, winner {board.winner()}"
                break
            legal = [move.hub_move for move in board.legal_moves()]
            if board.turn == rafle_color:
                move, ended = dxp_move(dxp, board)
                if move is None:
                    ok = ended == "ended by the engine"
                    message = f"{ended} after {ply} plies (reason {dxp.sender.current.result})"
                    break
            else:
                move = hub.play(board, limit, ponder=False).move
            if move is None or move.hub_move not in legal:
                ok = False
                message = f"illegal move {move and move.hub_move} at ply {ply}; legal: {legal}"
                break
            board.push(move)
        else:
            message = f"stopped at the {MAX_PLIES}-ply limit"
    finally:
        # Ends the game (GAMEEND reason 0, stop code 1) and closes the socket (pydraughts waits
        # 7 seconds in there).
        dxp.quit()
        hub.quit()
        hub.p.communicate(timeout=10)
    return ok, message


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=27531)
    parser.add_argument("--opponent-engine", required=True, help="rafle binary for the Hub side")
    parser.add_argument("--depth", type=int, default=2, help="depth of the Hub opponent")
    parser.add_argument("--games", type=int, default=1, help="games; rafle plays White in odd ones")
    parser.add_argument("--initial-time", type=int, default=0,
                        help="seconds sent in the game request (pydraughts' default 0 = none)")
    args = parser.parse_args()
    all_ok = True
    for game in range(args.games):
        rafle_color = WHITE if game % 2 == 0 else BLACK
        ok, message = play_game(args, rafle_color)
        print(f"game {game + 1}: {'ok' if ok else 'FAILED'}: {message}", flush=True)
        all_ok = all_ok and ok
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Check that pydraughts reads the PDN that Rafle writes.

Usage (from the repository root):

    python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts
    tools/.venv/bin/python tools/pdn_pydraughts_check.py [games.pdn]

Without an argument, the script has Rafle write its sample games (400 random international games
from the start position and from the rule positions of tests/data, ambiguous long captures included;
`cargo test --release --test pdn -- --ignored write_samples_for_pydraughts`) and checks those.

For every game, pydraughts' PDNReader must find the tags, the GameType, the moves and the result;
replaying the moves with pydraughts' own move generator (Move(board, pdn_move=...)) must be legal
and reach the final position Rafle recorded in the FinalFEN tag, after PlyCount moves.

Known pydraughts bug (0.6.7, PDN.py _PDNGame._read): in a game whose FEN has Black to move, the
reader lists the first move twice ("1... 24x19 2. ..." reads as 24x19, 24x19, ...), for its own
writer's output as well. The check removes that duplicate and counts the games it affected.
"""

import os
import subprocess
import sys
import tempfile

from draughts import Board, Move
from draughts.PDN import PDNReader


def pieces(fen):
    """The piece placement of a FEN as (side, frozenset of (colour, king, square))."""
    fen = fen.strip().strip('"').rstrip(".")
    sections = fen.split(":")
    side = sections[0]
    placed = set()
    for section in sections[1:]:
        if not section or section[0] not in "WB":
            continue
        colour = section[0]
        for item in filter(None, section[1:].split(",")):
            king = item.startswith("K")
            placed.add((colour, king, int(item.lstrip("K"))))
    return side, frozenset(placed)


def write_samples(path):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, RAFLE_PDN_SAMPLES=path)
    subprocess.run(
        ["cargo", "test", "--release", "--test", "pdn", "--", "--ignored",
         "write_samples_for_pydraughts"],
        cwd=root, env=env, check=True, stdout=subprocess.DEVNULL)


def check(path):
    games = PDNReader(filename=path).games
    failures = 0
    plies = 0
    long_captures = 0
    duplicated_first_moves = 0
    for index, game in enumerate(games, 1):
        try:
            moves = list(game.moves)
            black_starts = game.tags.get("FEN", "W").startswith("B")
            if black_starts and len(moves) >= 2 and moves[0] == moves[1]:
                del moves[0]
                duplicated_first_moves += 1
            assert game.variant == "standard", f"variant {game.variant}"
            assert game.game_ending == game.tags["Result"], (
                f"result {game.game_ending} vs tag {game.tags['Result']}")
            expected_plies = int(game.tags["PlyCount"])
            assert len(moves) == expected_plies, (
                f"{len(moves)} moves read, {expected_plies} written")
            board = Board("standard", game.tags.get("FEN", "startpos"))
            for text in moves:
                move = Move(board, pdn_move=text)
                board.push(move)
                long_captures += text.count("x") > 1
            plies += len(moves)
            assert pieces(board.fen) == pieces(game.tags["FinalFEN"]), (
                f"final position {board.fen} vs {game.tags['FinalFEN']}")
        except Exception as error:  # report every game, not only the first failure
            failures += 1
            print(f"game {index} (Round {game.tags.get('Round')}): {error!r}")
    print(f"{len(games)} games, {plies} plies, {long_captures} long-form captures, "
          f"{failures} failures ({duplicated_first_moves} games with Black to move had their "
          f"first move listed twice by pydraughts and were corrected)")
    return failures == 0


def main():
    if len(sys.argv) > 1:
        return 0 if check(sys.argv[1]) else 1
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "rafle_samples.pdn")
        write_samples(path)
        return 0 if check(path) else 1


if __name__ == "__main__":
    sys.exit(main())

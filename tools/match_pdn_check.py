#!/usr/bin/env python3
"""Re-read a `rafle match --pdn` file with pydraughts, an independent PDN reader and move generator.

    python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts
    tools/.venv/bin/python tools/match_pdn_check.py match.pdn

For every game, pydraughts' PDNReader must find the tags, the moves and the result; every move
must be legal for pydraughts' own move generator (Move(board, pdn_move=...)), the number of moves
must equal the PlyCount tag, and the result token must equal the Result tag. A game that ended by
the rules (Termination "rules: ...") must also be over for pydraughts when it ended with a player
who cannot move. At the end the script prints each engine's wins, draws and losses as counted
from the Result tags, to compare with the match's own summary. Exit status 0 when every game
passed.

Known pydraughts bugs (0.6.7, PDN.py _PDNGame._read), worked around here:
* a game without moves (an engine that forfeited its first move) ends the reading: `_read` returns
  before it keeps the rest of the text, so every later game is lost. The check therefore gives
  pydraughts one game at a time (the file split before each `[Event` tag).
* in a game whose FEN has Black to move, the reader lists the first move twice; the check removes
  that duplicate.
"""

import sys
from collections import defaultdict

from draughts import Board, Move
from draughts.PDN import PDNReader

POINTS = {"2-0": (2, 0), "1-1": (1, 1), "0-2": (0, 2), "1-0": (2, 0), "0-1": (0, 2),
          "1/2-1/2": (1, 1)}


def split_games(text):
    """The text of each game: a new game starts at an `[Event` tag."""
    games, current = [], []
    for line in text.splitlines():
        if line.startswith("[Event ") and any(l.strip() and not l.startswith("[") for l in current):
            games.append("\n".join(current) + "\n")
            current = []
        current.append(line)
    if any(line.strip() for line in current):
        games.append("\n".join(current) + "\n")
    return games


def check(path):
    with open(path, encoding="utf-8") as handle:
        texts = split_games(handle.read())
    games = []
    for text in texts:
        read = PDNReader(pdn_text=text).games
        assert len(read) == 1, f"pydraughts read {len(read)} games from one game's text"
        games.extend(read)
    failures = 0
    plies = 0
    tally = defaultdict(lambda: [0, 0, 0])  # wins, draws, losses
    for index, game in enumerate(games, 1):
        try:
            tags = game.tags
            moves = list(game.moves)
            if tags.get("FEN", "W").startswith("B") and len(moves) >= 2 and moves[0] == moves[1]:
                del moves[0]
            assert game.game_ending == tags["Result"], (
                f"result {game.game_ending} vs tag {tags['Result']}")
            assert len(moves) == int(tags["PlyCount"]), (
                f"{len(moves)} moves read, PlyCount {tags['PlyCount']}")
            board = Board("standard", tags.get("FEN", "startpos"))
            for text in moves:
                board.push(Move(board, pdn_move=text))
            termination = tags.get("Termination", "")
            if termination.startswith("rules:") and ("blocked" in termination
                                                     or "no pieces" in termination):
                assert board.is_over(), f"pydraughts says the game goes on: {termination}"
            plies += len(moves)
            white, black = POINTS[tags["Result"]]
            for name, points in ((tags["White"], white), (tags["Black"], black)):
                tally[name][{2: 0, 1: 1, 0: 2}[points]] += 1
        except Exception as error:  # report every game, not only the first failure
            failures += 1
            print(f"game {index} (Round {game.tags.get('Round')}): {error!r}")
    print(f"{path}: {len(games)} games, {plies} plies read and replayed by pydraughts, "
          f"{failures} failures")
    for name, (wins, draws, losses) in sorted(tally.items()):
        print(f"  {name}: {wins} wins, {draws} draws, {losses} losses")
    return failures == 0 and len(games) > 0


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    return 0 if check(sys.argv[1]) else 1


if __name__ == "__main__":
    sys.exit(main())

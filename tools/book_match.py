#!/usr/bin/env python3
"""Match: `rafle hub` with its opening book against `rafle hub` without, from a set of openings.

Each opening (one PDN FEN per line, `#` comments) is played twice, the book engine taking White
then Black. Each side has a clock (time + increment, the increment added after each move); the
time an engine takes from `go` to `done` is charged to it, and an empty clock loses. pydraughts
checks every move and applies the draw rules; games still going at the ply limit are drawn.
Prints one line per game and the W/D/L of the book engine.

    tools/.venv/bin/python tools/book_match.py --engine target/release/rafle \\
        --openings ../shared/openings/two_move_ballots.txt --time 10 --inc 0.1
"""

import argparse
import subprocess
import sys
import time

from draughts import Board, Move

MAX_PLIES = 300


class Hub:
    """A `rafle hub` process driven line by line."""

    def __init__(self, command, params):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("hub")
        self.wait_for("wait")
        for name, value in params.items():
            self.send(f'set-param name={name} value="{value}"')
        self.send("init")
        self.wait_for("ready")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, command):
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            words = line.split()
            if words and words[0] == command:
                return line.strip()

    def go(self, fen, moves, clock, inc):
        """Returns (move, seconds used, whether the answer came from the book)."""
        self.send(f'pos fen={fen} moves="{" ".join(moves)}"')
        self.send(f"level time={clock:.3f} inc={inc}")
        started = time.monotonic()
        self.send("go think")
        from_book = False
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            words = line.split()
            if words and words[0] == "info":
                from_book = not any(w.startswith("depth=") for w in words)
            if words and words[0] == "done":
                used = time.monotonic() - started
                move = next(w[5:] for w in words if w.startswith("move="))
                return move, used, from_book

    def quit(self):
        self.send("quit")
        self.process.communicate(timeout=10)


def play(engines, fen, book_side, args):
    """One game; engines[0] has the book and plays `book_side` (0 White, 1 Black).
    Returns (result for the book engine: 1, 0.5 or 0, plies, book moves, reason)."""
    board = Board(variant="standard", fen=fen)
    moves = []
    clocks = [args.time, args.time]
    book_moves = 0
    for engine in engines:
        engine.send("new-game")
    for ply in range(MAX_PLIES):
        if board.is_over():
            winner = board.winner()
            if winner == 0:
                return 0.5, ply, book_moves, "draw rule"
            # pydraughts: WHITE = 2, BLACK = 1.
            book_won = (winner == 2) == (book_side == 0)
            return (1 if book_won else 0), ply, book_moves, "win"
        side = ply % 2  # White moves first in every opening.
        engine = engines[0] if side == book_side else engines[1]
        move, used, from_book = engine.go(fen, moves, clocks[side], args.inc)
        clocks[side] -= used
        if clocks[side] < 0:
            lost = side == book_side
            return (0 if lost else 1), ply, book_moves, "time"
        clocks[side] += args.inc
        legal = [m.hub_move for m in board.legal_moves()]
        if move not in legal:
            raise RuntimeError(f"illegal move {move} at ply {ply} of {fen}; legal: {legal}")
        if side == book_side and from_book:
            book_moves += 1
        board.push(Move(board, hub_move=move))
        moves.append(move)
    return 0.5, MAX_PLIES, book_moves, "ply limit"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="path of the rafle binary")
    parser.add_argument("--openings", required=True, help="file of PDN FENs, one per line")
    parser.add_argument("--book", default="", help="book file (default: the engine's default)")
    parser.add_argument("--book-ply", type=int, default=4)
    parser.add_argument("--book-margin", type=int, default=4)
    parser.add_argument("--time", type=float, default=10.0, help="seconds on each clock")
    parser.add_argument("--inc", type=float, default=0.1, help="increment per move")
    parser.add_argument("--limit", type=int, default=0, help="play only the first N openings")
    args = parser.parse_args()

    with open(args.openings) as file:
        openings = [line.strip() for line in file if line.strip() and not line.startswith("#")]
    if args.limit:
        openings = openings[:args.limit]
    book_params = {"book": "true", "book-ply": args.book_ply, "book-margin": args.book_margin}
    if args.book:
        book_params["book-file"] = args.book
    engines = [Hub([args.engine, "hub"], book_params), Hub([args.engine, "hub"], {"book": "false"})]
    score = {"W": 0, "D": 0, "L": 0}
    by_colour = {0: [0, 0, 0], 1: [0, 0, 0]}
    total_book_moves = 0
    started = time.monotonic()
    for index, fen in enumerate(openings):
        for book_side in (0, 1):
            result, plies, book_moves, reason = play(engines, fen, book_side, args)
            key = {1: "W", 0.5: "D", 0: "L"}[result]
            score[key] += 1
            by_colour[book_side]["WDL".index(key)] += 1
            total_book_moves += book_moves
            colour = "white" if book_side == 0 else "black"
            print(f"opening {index + 1:2} book {colour}: {key} ({reason}, {plies} plies, "
                  f"{book_moves} book moves)", flush=True)
    games = sum(score.values())
    points = score["W"] + score["D"] / 2
    print(f"book vs no book: +{score['W']} ={score['D']} -{score['L']} in {games} games, "
          f"{points}/{games} ({100 * points / games:.1f}%); as White +{by_colour[0][0]} "
          f"={by_colour[0][1]} -{by_colour[0][2]}, as Black +{by_colour[1][0]} ={by_colour[1][1]} "
          f"-{by_colour[1][2]}; {total_book_moves / games:.1f} book moves a game; "
          f"{time.monotonic() - started:.0f} s")
    for engine in engines:
        engine.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())

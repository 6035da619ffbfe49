#!/usr/bin/env python3
"""Differential test of Rafle's move generator against pydraughts' (an independent generator).

For every variant both programs play, random games are generated with pydraughts; at every
position the legal moves of pydraughts are compared with those of `rafle moves` (Hub format),
as sets of (origin, destination, captured squares). pydraughts lists capture routes that differ
only in order separately; they are deduplicated first, as FMJD counting does.

Setup (once):   python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts
Run:            cargo build --release
                tools/.venv/bin/python tools/pydraughts_diff.py --games 100

Squares are compared as numbers in the Hub numbering of each variant, which is also the numbering
of pydraughts' `hub_move`: the variant's own numbers, and for Russian and Brazilian numbers
counted from a1 (a1 = 1, c1 = 2, b2 = 5, ...). Positions go from pydraughts to Rafle as FEN in
the variant's notation (algebraic for Russian and Brazilian).

Exit status: 0 when no position differs, 1 otherwise.
"""

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

import draughts

# pydraughts variant name -> Rafle variant name. pydraughts also plays frisian, frysk! and
# turkish, which Rafle does not implement; "american" is an alias of "english" and "from
# position" of "standard" in pydraughts, so they are not separate routes.
VARIANTS = {
    "standard": "international",
    "english": "english",
    "italian": "italian",
    "russian": "russian",
    "brazilian": "brazilian",
    "antidraughts": "antidraughts",
    "breakthrough": "breakthrough",
}

# Board shape per pydraughts variant: (playable squares per row, rows, algebraic FEN).
SHAPES = {
    "standard": (5, 10, False),
    "english": (4, 8, False),
    "italian": (4, 8, False),
    "russian": (4, 8, True),
    "brazilian": (4, 8, True),
    "antidraughts": (5, 10, False),
    "breakthrough": (5, 10, False),
}

MAX_PLIES = 300
REPO = Path(__file__).resolve().parent.parent


def parse_hub(text):
    """(from, to, frozenset(captured)) of a Hub move like 32-28 or 28x19x23."""
    if "-" in text:
        origin, destination = text.split("-")
        return int(origin), int(destination), frozenset()
    squares = [int(s) for s in text.split("x")]
    return squares[0], squares[1], frozenset(squares[2:])


def pydraughts_moves(board):
    """pydraughts' legal moves, deduplicated; the number of its capture orders; its raw route
    lists (to play them).

    pydraughts lists a king's capture once per square it may pass through before going straight
    on over the next piece; those are the same capture. What stays different is the order in
    which the pieces are taken: (origin, captured squares in order, destination) counts routes
    as `rafle moves --keep-duplicates` and keep-dup perft do."""
    board_moves, captures = board._legal_moves_board()
    keys = set()
    orders = set()
    for steps, captured in zip(board_moves, captures):
        taken = tuple(c for c in captured if c is not None)
        keys.add((steps[0][0], steps[-1][1], frozenset(taken)))
        orders.add((steps[0][0], taken, steps[-1][1]))
    return keys, len(orders), board_moves, captures


def random_fen(variant, rng):
    """A random legal-looking position in the variant's FEN notation: a few men and kings of
    each side, no man on its own promotion row, random side to move."""
    half, rows, algebraic = SHAPES[variant]
    squares = [(row, index) for row in range(rows) for index in range(half)]
    rng.shuffle(squares)
    with_kings = variant != "breakthrough"
    sides = {"W": [], "B": []}
    for colour in ("W", "B"):
        for _ in range(rng.randint(1, 7)):
            while squares:
                row, index = squares.pop()
                king = with_kings and rng.random() < 0.35
                # White men are crowned on row 0 (the top), black men on the last row.
                if not king and row == (0 if colour == "W" else rows - 1):
                    squares.insert(0, (row, index))
                    continue
                if algebraic:
                    file = 2 * index + (1 if row % 2 == 0 else 0)
                    name = "abcdefgh"[file] + str(rows - row)
                else:
                    name = str(row * half + index + 1)
                sides[colour].append(("K" if king else "") + name)
                break
    turn = rng.choice("WB")
    return f"{turn}:W{','.join(sides['W'])}:B{','.join(sides['B'])}"


def play_game(variant, rng, start_fen):
    """Random game with pydraughts: list of (fen, pydraughts move keys, capture orders)."""
    board = draughts.Board(variant, fen=start_fen) if start_fen else draughts.Board(variant)
    positions = []
    for _ in range(MAX_PLIES):
        if board.is_over():
            break
        keys, orders, board_moves, captures = pydraughts_moves(board)
        if not board_moves:
            break
        positions.append((board.fen, keys, orders))
        index = rng.randrange(len(board_moves))
        move = draughts.Move(
            board,
            board_move=board_moves[index],
            possible_moves=board_moves,
            possible_captures=captures,
        )
        board.push(move)
    return positions


def rafle_moves(binary, variant, fens, keep_duplicates=False):
    """Rafle's legal moves of each FEN, as lists of Hub move texts."""
    command = [str(binary), "moves", "--variant", variant, "--format", "hub"]
    if keep_duplicates:
        command.append("--keep-duplicates")
    result = subprocess.run(
        command, input="\n".join(fens) + "\n", capture_output=True, text=True, check=True
    )
    lines = result.stdout.split("\n")[: len(fens)]
    if len(lines) != len(fens):
        raise RuntimeError(f"rafle answered {len(lines)} lines for {len(fens)} FENs")
    return [line.split() for line in lines]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games per variant and start kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", help="pydraughts variant(s) to test")
    parser.add_argument(
        "--rafle", default=str(REPO / "target" / "release" / "rafle"), help="rafle binary"
    )
    args = parser.parse_args()
    variants = args.variant or list(VARIANTS)
    total_positions = total_mismatches = 0
    for variant in variants:
        rafle_variant = VARIANTS[variant]
        rng = random.Random(f"{args.seed}/{variant}")
        started = time.time()
        positions = []
        for game in range(args.games):
            positions += play_game(variant, rng, None)
            # Random positions with kings reach king captures that games from the start rarely do.
            try:
                positions += play_game(variant, rng, random_fen(variant, rng))
            except Exception as error:  # pydraughts refuses some random setups; try another.
                print(f"  {variant}: pydraughts refused a random setup ({error})", file=sys.stderr)
        fens = [fen for fen, _, _ in positions]
        answers = rafle_moves(args.rafle, rafle_variant, fens)
        routes = rafle_moves(args.rafle, rafle_variant, fens, keep_duplicates=True)
        mismatches = route_differences = 0
        for (fen, expected, orders), answer, with_routes in zip(positions, answers, routes):
            if answer and answer[0] == "error":
                got = None
            else:
                got = {parse_hub(text) for text in answer}
            if got != expected or len(got) != len(answer):
                mismatches += 1
                if mismatches <= 5:
                    show = lambda keys: sorted((a, b, tuple(sorted(c))) for a, b, c in keys or ())
                    print(f"MISMATCH {variant} {fen}")
                    print(f"  pydraughts only: {show(expected - (got or set()))}")
                    print(f"  rafle only:      {show((got or set()) - expected)}")
            if len(with_routes) != orders:
                route_differences += 1
                if route_differences <= 3:
                    print(f"ROUTES {variant} {fen}: pydraughts {orders}, rafle {with_routes}")
        total_positions += len(positions)
        total_mismatches += mismatches
        print(
            f"{variant:13} -> {rafle_variant:13} games {2 * args.games:5} positions "
            f"{len(positions):7} mismatches {mismatches} (capture orders differing: "
            f"{route_differences}) {time.time() - started:.0f} s"
        )
    print(f"total: positions {total_positions} mismatches {total_mismatches}")
    return 1 if total_mismatches else 0


if __name__ == "__main__":
    sys.exit(main())

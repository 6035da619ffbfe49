#!/usr/bin/env python3
"""An independent, plain Turkish draughts move generator and perft counter.

Written square by square from the rules in the project's variant table (refdata variants.md,
Turkish row), with no code shared with Rafle's bitboard generator, to check it:

* 8x8 board, all 64 squares; White's men on ranks 2-3, Black's on ranks 6-7; White moves first.
* Men step one square forward or sideways; kings move any distance along a row or column.
* Capturing is compulsory; men capture forward and sideways over an adjacent piece onto the
  empty square behind it; kings capture at any distance along rows and columns and may stop on
  any empty square behind the piece taken.
* Captured pieces are removed as they are jumped (their squares are free at once), and a
  capturing piece may not turn back 180 degrees between two captures.
* The capture taking the most pieces must be made (a king counts as one piece).
* A man that reaches the far row during a capture goes on as a man and is crowned if the capture
  ends there (pydraughts' reading, which Rafle follows; see src/rules/turkish.rs).
* Moves with the same origin, destination and captured set count once (drop-dup).

Usage: turkish_perft.py [MAX_DEPTH] [FEN]   prints "depth<TAB>nodes" rows.
       turkish_perft.py --moves FEN          prints the legal moves of a position.
FEN: W:Wa2,b2,...:Bh7,Ke4,... (side, white squares, black squares; K marks a king).
"""

import sys

SIZE = 8
WHITE, BLACK = "W", "B"
UP, DOWN, LEFT, RIGHT = (0, 1), (0, -1), (-1, 0), (1, 0)
ALL_WAYS = (UP, DOWN, LEFT, RIGHT)
START = "W:W" + ",".join(f"{f}{r}" for r in "23" for f in "abcdefgh") + \
    ":B" + ",".join(f"{f}{r}" for r in "67" for f in "abcdefgh")


def name(square):
    return "abcdefgh"[square[0]] + str(square[1] + 1)


def parse_square(text):
    return ("abcdefgh".index(text[0]), int(text[1:]) - 1)


def parse_fen(fen):
    """Returns (board, side): board maps (file, rank) to (colour, is_king)."""
    side, *parts = fen.strip().split(":")
    board = {}
    for part in parts:
        colour, items = part[0], part[1:]
        for item in filter(None, items.split(",")):
            king = item.startswith("K")
            board[parse_square(item.lstrip("K"))] = (colour, king)
    return board, side


def on_board(square):
    return 0 <= square[0] < SIZE and 0 <= square[1] < SIZE


def step(square, way, times=1):
    return (square[0] + way[0] * times, square[1] + way[1] * times)


def far_rank(colour):
    return SIZE - 1 if colour == WHITE else 0


def man_ways(colour):
    return (UP if colour == WHITE else DOWN, LEFT, RIGHT)


def opposite(way):
    return (-way[0], -way[1])


def captures_from(board, square, colour, king, last_way, taken, start, found):
    """Walks every capture continuing from `square`; appends (to, taken) of finished routes."""
    continued = False
    ways = ALL_WAYS if king else man_ways(colour)
    for way in ways:
        if last_way is not None and way == opposite(last_way):
            continue
        cursor = step(square, way)
        if king:
            while on_board(cursor) and cursor not in board:
                cursor = step(cursor, way)
        if not on_board(cursor) or cursor not in board or board[cursor][0] == colour:
            continue
        victim = cursor
        landings = []
        cursor = step(victim, way)
        while on_board(cursor) and cursor not in board:
            landings.append(cursor)
            if not king:
                break
            cursor = step(cursor, way)
        if not landings:
            continue
        continued = True
        removed = board.pop(victim)
        for landing in landings:
            captures_from(board, landing, colour, king, way, taken + [victim], start, found)
        board[victim] = removed
    if not continued and taken:
        found.append((square, tuple(taken)))


def legal_moves(board, side):
    """Moves as (from, to, captured tuple in order, promotes)."""
    captures = []
    for square, (colour, king) in list(board.items()):
        if colour != side:
            continue
        found = []
        piece = board.pop(square)
        captures_from(board, square, colour, king, None, [], square, found)
        board[square] = piece
        for to, taken in found:
            captures.append((square, to, taken, not king and to[1] == far_rank(colour)))
    if captures:
        most = max(len(c[2]) for c in captures)
        unique = {}
        for move in captures:
            if len(move[2]) == most:
                unique.setdefault((move[0], move[1], frozenset(move[2])), move)
        return list(unique.values())
    moves = []
    for square, (colour, king) in board.items():
        if colour != side:
            continue
        for way in (ALL_WAYS if king else man_ways(colour)):
            cursor = step(square, way)
            while on_board(cursor) and cursor not in board:
                moves.append((square, cursor, (), not king and cursor[1] == far_rank(colour)))
                if not king:
                    break
                cursor = step(cursor, way)
    return moves


def play(board, side, move):
    origin, to, taken, promotes = move
    board = dict(board)
    colour, king = board.pop(origin)
    for victim in taken:
        del board[victim]
    board[to] = (colour, king or promotes)
    return board, BLACK if side == WHITE else WHITE


def perft(board, side, depth):
    moves = legal_moves(board, side)
    if depth == 1:
        return len(moves)
    return sum(perft(*play(board, side, move), depth - 1) for move in moves)


def move_text(move):
    origin, to, taken, _ = move
    if not taken:
        return f"{name(origin)}-{name(to)}"
    return f"{name(origin)}x{name(to)}[{','.join(name(v) for v in sorted(taken, key=lambda s: (s[1], s[0])))}]"


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--moves":
        board, side = parse_fen(sys.argv[2])
        print(" ".join(sorted(move_text(m) for m in legal_moves(board, side))))
        return
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    fen = sys.argv[2] if len(sys.argv) > 2 else START
    board, side = parse_fen(fen)
    for d in range(1, depth + 1):
        print(f"{d}\t{perft(board, side, d)}", flush=True)


if __name__ == "__main__":
    main()

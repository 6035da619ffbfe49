#!/usr/bin/env python3
"""How long the games of a `rafle match --pdn` file stayed in an opening book.

    cargo build --release
    python3 tools/book_exit.py book.pdn [--book books/international.book] [--rafle target/release/rafle]

For every game it replays the moves and asks `rafle book probe` about each position in turn; the
game's book length is the number of plies played before the first position the book does not
hold (so a game whose opening already leaves the book scores the opening plies reached in it).
Games that start from a FEN tag are probed from that FEN. Prints the mean, median, smallest and
largest book length. Standard library only.
"""

import argparse
import re
import statistics
import subprocess
import sys

RESULTS = {"2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "*"}
MOVE_NUMBER = re.compile(r"^\d+\.+$")
TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]$')


def games(text):
    """(tags, moves) of each game of a PDN file."""
    for chunk in re.split(r"\n(?=\[Event )", text.strip()):
        tags, body = {}, []
        for line in chunk.splitlines():
            match = TAG.match(line.strip())
            if match:
                tags[match.group(1)] = match.group(2)
            else:
                body.append(re.sub(r"\{[^}]*\}", " ", line))
        moves = [word for word in " ".join(body).split()
                 if not MOVE_NUMBER.match(word) and word not in RESULTS]
        yield tags, moves


def in_book(rafle, book, fen, moves):
    command = [rafle, "book", "probe", "--moves", " ".join(moves)]
    if book:
        command += ["--book", book]
    if fen:
        command += ["--fen", fen]
    try:
        probe = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"cannot run {rafle}: {error.strerror}")
    if probe.returncode != 0:
        sys.exit(f"rafle book probe failed: {probe.stderr.strip()}")
    return "book moves" in probe.stdout


def book_length(rafle, book, fen, moves):
    plies = 0
    while plies < len(moves) and in_book(rafle, book, fen, moves[:plies]):
        plies += 1
    return plies


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdn", help="a PDN file written by `rafle match --pdn`")
    parser.add_argument("--book", help="the book file (default: the one rafle finds)")
    parser.add_argument("--rafle", default="target/release/rafle", help="the rafle binary")
    args = parser.parse_args()
    try:
        with open(args.pdn, encoding="utf-8") as file:
            text = file.read()
    except OSError as error:
        sys.exit(f"cannot read {args.pdn}: {error.strerror}")
    lengths = [book_length(args.rafle, args.book, tags.get("FEN"), moves)
               for tags, moves in games(text) if moves]
    if not lengths:
        sys.exit("no games with moves")
    print(f"{len(lengths)} games; plies played while the position was in the book: "
          f"mean {statistics.mean(lengths):.1f}, median {statistics.median(lengths)}, "
          f"min {min(lengths)}, max {max(lengths)}")


if __name__ == "__main__":
    main()

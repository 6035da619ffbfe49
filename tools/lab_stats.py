#!/usr/bin/env python3
"""What a match says about its time control, for choosing the strength lab's controls.

    tools/lab_stats.py MATCH.pdn [--seconds S] [--first NAME]

Reads a `rafle match --pdn` file (standard library only) and prints, for the first engine
(`--first`, default: White of game 1) against the other: games, W-D-L, draw rate, mean plies,
the pentanomial pair counts, the per-pair t (mean pair score minus 1/2, over the pairs' standard
deviation), normalized Elo with its 95 % interval, and the games a pentanomial SPRT with bounds
elo0=0 elo1=5 needs on average when the true difference is +5 Elo, at this pair variance
(2.94 x 2 var / delta^2 pairs, the normal approximation). With --seconds (the match's wall time),
also minutes per 1,000 games and the hours that SPRT would take.

Pairs are the two games of one opening (consecutive rounds 2k-1, 2k), as `rafle match` schedules
them.
"""

import argparse
import math
import re
import sys

LLR_BOUND = math.log((1 - 0.05) / 0.05)
NORMALIZED_ELO_SLOPE = 800 / math.log(10)


def score_from_elo(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def games(text):
    for chunk in text.split("[Event ")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        yield tags


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdn")
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--first")
    args = parser.parse_args()
    with open(args.pdn, encoding="utf-8") as handle:
        records = list(games(handle.read()))
    if not records:
        sys.exit("no games")
    by_round = {int(t["Round"]): t for t in records}
    first = args.first or by_round[min(by_round)]["White"]
    points = {}
    wins = draws = losses = 0
    plies = []
    for number, tags in by_round.items():
        result = tags["Result"]
        white, black = tags["White"], tags["Black"]
        if first not in (white, black):
            continue
        half = {"2-0": 2, "1-1": 1, "0-2": 0}.get(result)
        if half is None:
            continue
        if black == first:
            half = 2 - half
        wins += half == 2
        draws += half == 1
        losses += half == 0
        plies.append(int(tags.get("PlyCount", 0)))
        pair = (number - 1) // 2
        points.setdefault(pair, []).append(half)
    counts = [0] * 5
    for halves in points.values():
        if len(halves) == 2:
            counts[sum(halves)] += 1
    n = sum(counts)
    total = wins + draws + losses
    print(f"{args.pdn}: {first}: {total} games, +{wins} ={draws} -{losses}, "
          f"draws {100 * draws / total:.1f} %, mean {sum(plies) / len(plies):.0f} plies")
    print(f"pairs (0, 0.5, 1, 1.5, 2): {' '.join(map(str, counts))}")
    if n < 2:
        return
    scores = [k / 4 for k in range(5)]
    mean = sum(s * c for s, c in zip(scores, counts)) / n
    var = sum(c * (s - mean) ** 2 for s, c in zip(scores, counts)) / n
    if var == 0:
        print("no variance")
        return
    sd = math.sqrt(var)
    error = math.sqrt(var / n)
    scale = NORMALIZED_ELO_SLOPE / math.sqrt(2 * var)
    elo = 400 * math.log10(mean / (1 - mean)) if 0 < mean < 1 else float("inf")
    print(f"score {100 * mean:.1f} %, Elo {elo:+.1f}, per-pair t {(mean - 0.5) / sd:.3f}, "
          f"pair sd {sd:.3f}")
    print(f"normalized Elo {(mean - 0.5) * scale:+.1f} "
          f"[{(mean - 1.96 * error - 0.5) * scale:+.1f}, {(mean + 1.96 * error - 0.5) * scale:+.1f}]")
    delta = score_from_elo(5) - 0.5
    sprt_pairs = LLR_BOUND * 2 * var / delta ** 2
    line = f"SPRT [0, 5] at +5 Elo: about {2 * sprt_pairs:.0f} games"
    if args.seconds:
        per_game = args.seconds / total
        line += (f"; {1000 * per_game / 60:.1f} min per 1,000 games, "
                 f"about {2 * sprt_pairs * per_game / 3600:.1f} h")
    print(line)


if __name__ == "__main__":
    main()

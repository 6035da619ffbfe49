#!/usr/bin/env python3
"""Reference values for the match statistics (src/matches/stats.rs), computed independently.

The Rust code uses closed forms and a bisection on the Lagrange multiplier; this script uses the
Python standard library (statistics.NormalDist, pvariance over the expanded list of games) and a
general constrained optimiser (scipy's SLSQP) for the SPRT's maximum-likelihood fits, so the two
share the definitions only.

    python3 -m venv tools/.venv && tools/.venv/bin/pip install scipy
    tools/.venv/bin/python tools/elo_reference.py
"""

import math
from statistics import NormalDist, fmean, pvariance

import numpy as np
from scipy.optimize import minimize

Z95 = NormalDist().inv_cdf(0.975)


def elo(score):
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected(elo_difference):
    return 1.0 / (1.0 + 10.0 ** (-elo_difference / 400.0))


def interval(samples):
    """Elo and its 95 % interval from per-game (or per-pair) scores in [0, 1]."""
    mean = fmean(samples)
    error = math.sqrt(pvariance(samples, mean) / len(samples))
    return elo(mean), elo(mean - Z95 * error), elo(mean + Z95 * error)


def trinomial_samples(wins, draws, losses):
    return [1.0] * wins + [0.5] * draws + [0.0] * losses


def pentanomial_samples(counts):
    return [k / 4.0 for k, count in enumerate(counts) for _ in range(count)]


def los(wins, losses):
    return NormalDist().cdf((wins - losses) / math.sqrt(wins + losses))


def constrained_log_likelihood(values, counts, mean):
    """max sum n_i log p_i subject to sum p_i = 1, sum p_i x_i = mean (SLSQP)."""
    counts = np.asarray(counts, dtype=float)
    values = np.asarray(values, dtype=float)
    start = counts / counts.sum()
    constraints = [
        {"type": "eq", "fun": lambda p: p.sum() - 1.0},
        {"type": "eq", "fun": lambda p: p @ values - mean},
    ]
    result = minimize(
        lambda p: -(counts * np.log(np.maximum(p, 1e-300))).sum(),
        start,
        method="SLSQP",
        bounds=[(1e-12, 1.0)] * len(values),
        constraints=constraints,
        options={"ftol": 1e-15, "maxiter": 1000},
    )
    assert result.success, result.message
    return -result.fun


def llr(values, counts, elo0, elo1, pseudo=1e-3):
    counts = [c + pseudo for c in counts]
    return constrained_log_likelihood(values, counts, expected(elo1)) - constrained_log_likelihood(
        values, counts, expected(elo0)
    )


def llr_trinomial_golden(wins, draws, losses, elo0, elo1, pseudo=1e-3):
    """The trinomial LLR again, by a one-dimensional golden-section search over the draw rate."""

    def best(mean):
        w, d, l = wins + pseudo, draws + pseudo, losses + pseudo
        f = lambda pd: l * math.log(1 - mean - pd / 2) + d * math.log(pd) + w * math.log(mean - pd / 2)
        low, high = 1e-15, 2 * min(mean, 1 - mean) - 1e-15
        ratio = (math.sqrt(5) - 1) / 2
        for _ in range(300):
            a, b = high - ratio * (high - low), low + ratio * (high - low)
            if f(a) < f(b):
                low = a
            else:
                high = b
        return f((low + high) / 2)

    return best(expected(elo1)) - best(expected(elo0))


def llr_normal(samples, elo0, elo1):
    """Van den Bergh's normal approximation, for comparison."""
    s0, s1 = expected(elo0), expected(elo1)
    mean = fmean(samples)
    return len(samples) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * pvariance(samples, mean))


def main():
    print(f"z95 = {Z95!r}")
    print(f"elo(0.75) = {elo(0.75)!r}, elo(0.5) = {elo(0.5)!r}, elo(0.1) = {elo(0.1)!r}")
    for wins, draws, losses in [(60, 20, 20), (11353, 20821, 11042), (3, 0, 0)]:
        if losses:
            print(f"trinomial W{wins} D{draws} L{losses}: elo, lower, upper = "
                  f"{interval(trinomial_samples(wins, draws, losses))!r}")
        print(f"LOS W{wins} L{losses} = {los(wins, losses)!r}")
    for counts in [[10, 40, 100, 60, 20], [212, 2760, 5420, 2964, 252]]:
        print(f"pentanomial {counts}: elo, lower, upper = "
              f"{interval(pentanomial_samples(counts))!r}")
    tri = [0.0, 0.5, 1.0]
    penta = [0.0, 0.25, 0.5, 0.75, 1.0]
    for (wins, draws, losses), elo0, elo1 in [((11353, 20821, 11042), 0.0, 5.0),
                                               ((60, 20, 20), 0.0, 10.0),
                                               ((400, 1000, 450), -3.0, 1.0)]:
        value = llr(tri, [losses, draws, wins], elo0, elo1)
        approx = llr_normal(trinomial_samples(wins, draws, losses), elo0, elo1)
        golden = llr_trinomial_golden(wins, draws, losses, elo0, elo1)
        print(f"SPRT trinomial W{wins} D{draws} L{losses} [{elo0}, {elo1}]: "
              f"llr = {value!r} (golden section {golden!r}, normal approximation {approx!r})")
    for counts, elo0, elo1 in [([212, 2760, 5420, 2964, 252], 0.0, 5.0),
                               ([10, 40, 100, 60, 20], 0.0, 10.0)]:
        value = llr(penta, counts, elo0, elo1)
        approx = llr_normal(pentanomial_samples(counts), elo0, elo1)
        print(f"SPRT pentanomial {counts} [{elo0}, {elo1}]: llr = {value!r} "
              f"(normal approximation {approx!r})")
    alpha = beta = 0.05
    print(f"bounds alpha=beta=0.05: {math.log(beta / (1 - alpha))!r}, {math.log((1 - beta) / alpha)!r}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Independent Glicko-2 reference values for the rating tests.

Written from the formulas of Glickman's "Example of the Glicko-2 system"
(steps 1 to 8), in plain Python with no rating library, so that the Rust
tests (crates/rating/src/lib.rs, crates/server/tests/ratings.rs) compare
the skillratings crate against numbers computed another way.

Usage: python3 tools/glicko2_reference.py
Prints the paper's example (tau 0.5, one rating period of three games) and
Ply Yard's per-game updates (tau 0.75, one game per rating period).
"""

import math

SCALE = 173.7178
EPSILON = 1e-6


def g(phi):
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu, mu_j, phi_j):
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def new_sigma(sigma, phi, v, delta, tau):
    """Step 5: the Illinois iteration for the new volatility."""
    a = math.log(sigma * sigma)

    def f(x):
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def period(player, games, tau):
    """One rating period. player = (r, rd, sigma); games = [((r, rd), score)]."""
    r, rd, sigma = player
    mu, phi = (r - 1500.0) / SCALE, rd / SCALE
    opp = [((rj - 1500.0) / SCALE, rdj / SCALE, s) for (rj, rdj), s in games]
    v = 1.0 / sum(g(pj) ** 2 * expected(mu, mj, pj) * (1 - expected(mu, mj, pj)) for mj, pj, _ in opp)
    total = sum(g(pj) * (s - expected(mu, mj, pj)) for mj, pj, s in opp)
    delta = v * total
    sigma2 = new_sigma(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma2 * sigma2)
    phi2 = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu2 = mu + phi2 * phi2 * total
    return (SCALE * mu2 + 1500.0, SCALE * phi2, sigma2)


def game(white, black, score, tau=0.75):
    """One game, both players updated from the ratings they had before it."""
    w = period(white, [((black[0], black[1]), score)], tau)
    b = period(black, [((white[0], white[1]), 1.0 - score)], tau)
    return w, b


def inactive(player, days, periods_per_day=0.21436, cap=350.0):
    """Step 6 alone for a fractional number of idle rating periods."""
    r, rd, sigma = player
    n = days * periods_per_day
    return (r, min(cap, math.sqrt(rd * rd + n * (sigma * SCALE) ** 2)), sigma)


def show(label, x):
    print(f"{label}: rating {x[0]!r} deviation {x[1]!r} volatility {x[2]!r}")


def main():
    paper = period((1500.0, 200.0, 0.06), [((1400.0, 30.0), 1.0), ((1550.0, 100.0), 0.0), ((1700.0, 300.0), 0.0)], 0.5)
    show("paper example, tau 0.5", paper)

    fresh = (1500.0, 350.0, 0.06)
    w, b = game(fresh, fresh, 1.0)
    show("fresh vs fresh, white wins: white", w)
    show("fresh vs fresh, white wins: black", b)

    w, b = game((1700.0, 80.0, 0.06), (1450.0, 200.0, 0.07), 0.5)
    show("1700/80/0.06 vs 1450/200/0.07, draw: white", w)
    show("1700/80/0.06 vs 1450/200/0.07, draw: black", b)

    w, b = game((1620.0, 120.0, 0.059), (1830.0, 60.0, 0.061), 0.0)
    show("1620/120/0.059 vs 1830/60/0.061, black wins: white", w)
    show("1620/120/0.059 vs 1830/60/0.061, black wins: black", b)

    show("1600/60/0.06 idle 365 days", inactive((1600.0, 60.0, 0.06), 365.0))

    # Twelve games in a row between two fresh players, white winning the
    # even-numbered ones and drawing the rest (the integration test's series).
    a, c = fresh, fresh
    for i in range(12):
        a, c = game(a, c, 1.0 if i % 2 == 0 else 0.5)
    show("series of 12: first player", a)
    show("series of 12: second player", c)


if __name__ == "__main__":
    main()

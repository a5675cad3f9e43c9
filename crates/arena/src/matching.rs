//! Owns the matching step of the pairing wave: among the pairs allowed,
//! the largest matching, and among those the one of least total cost.
//!
//! The blossom algorithm itself is the `integer-blossom` crate's (Edmonds'
//! primal–dual maximum-weight matching, O(n³)). A minimum-cost *perfect*
//! matching is the maximum-weight matching under `weight = BIG − cost` when
//! every pair is allowed; forbidden pairs get weight 0 (no edge). With
//! `BIG > (n/2 + 1) × max cost`, one more pair always outweighs any saving
//! of cost, so the result has as many pairs as the allowed edges permit,
//! and the least cost among those — a perfect matching of minimum weight
//! whenever one exists.

/// The pairs `(i, j)`, `i < j`, of a maximum matching of least total cost
/// over `n` vertices, `cost(i, j)` being `None` where `i` and `j` may not
/// meet. Costs must be non-negative.
pub(crate) fn min_cost_max_matching(
    n: usize,
    cost: impl Fn(usize, usize) -> Option<i64>,
) -> Vec<(usize, usize)> {
    if n < 2 {
        return Vec::new();
    }
    let costs = cost_matrix(n, &cost);
    let Some(max_cost) = costs.iter().flatten().copied().max() else {
        return Vec::new();
    };
    let big = (n as i64 / 2 + 1).saturating_mul(max_cost + 1);
    let weight: Vec<i64> = costs.iter().map(|c| c.map_or(0, |c| big - c)).collect();
    let mate = integer_blossom::max_weight_matching(&weight, n);
    (0..n)
        .filter_map(|i| mate[i].filter(|&j| i < j).map(|j| (i, j)))
        .collect()
}

/// The row-major `n × n` matrix of `cost(i, j)`, filled above the diagonal
/// only (the solver reads no other entry).
fn cost_matrix(n: usize, cost: &impl Fn(usize, usize) -> Option<i64>) -> Vec<Option<i64>> {
    let mut out = vec![None; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let c = cost(i, j);
            debug_assert!(c.is_none_or(|c| c >= 0), "negative cost");
            out[i * n + j] = c;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The best (most pairs, then least cost) over all matchings, by
    /// exhaustive search.
    fn brute_force(n: usize, cost: &[Vec<Option<i64>>]) -> (usize, i64) {
        fn go(free: &mut Vec<bool>, cost: &[Vec<Option<i64>>]) -> (usize, i64) {
            let Some(i) = free.iter().position(|&f| f) else {
                return (0, 0);
            };
            free[i] = false;
            // i stays unmatched
            let mut best = go(free, cost);
            for j in i + 1..free.len() {
                if let (true, Some(c)) = (free[j], cost[i][j]) {
                    free[j] = false;
                    let (p, w) = go(free, cost);
                    free[j] = true;
                    if (p + 1, -(w + c)) > (best.0, -best.1) {
                        best = (p + 1, w + c);
                    }
                }
            }
            free[i] = true;
            best
        }
        go(&mut vec![true; n], cost)
    }

    fn random_instance(rng: &mut StdRng) -> Vec<Vec<Option<i64>>> {
        let n = rng.random_range(0..=10);
        let forbid = rng.random_range(0.0..0.6);
        let mut cost = vec![vec![None; n]; n];
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect();
        for (i, j) in pairs {
            if !rng.random_bool(forbid) {
                let c = rng.random_range(0..5_000);
                cost[i][j] = Some(c);
                cost[j][i] = Some(c);
            }
        }
        cost
    }

    #[test]
    fn optimal_against_brute_force_on_random_small_graphs() {
        let mut rng = StdRng::seed_from_u64(2026);
        for round in 0..3_000 {
            let cost = random_instance(&mut rng);
            let n = cost.len();
            let pairs = min_cost_max_matching(n, |i, j| cost[i][j]);
            let mut seen = vec![false; n];
            for &(i, j) in &pairs {
                assert!(cost[i][j].is_some(), "round {round}: forbidden pair used");
                assert!(!seen[i] && !seen[j], "round {round}: vertex used twice");
                seen[i] = true;
                seen[j] = true;
            }
            let got: i64 = pairs.iter().map(|&(i, j)| cost[i][j].unwrap()).sum();
            assert_eq!((pairs.len(), got), brute_force(n, &cost), "round {round}");
        }
    }

    #[test]
    fn complete_even_graph_gives_a_perfect_matching() {
        let pairs = min_cost_max_matching(6, |i, j| Some(((i as i64) - (j as i64)).abs()));
        assert_eq!(pairs, [(0, 1), (2, 3), (4, 5)]);
    }
}

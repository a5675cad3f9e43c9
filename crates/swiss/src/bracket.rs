//! The heart of the Dutch system: which players meet, decided bracket by
//! bracket from the top score down with a maximum-weight matching of the
//! whole field, as bbpPairings (the FIDE-endorsed engine) does it.
//!
//! Each edge's weight packs the criteria in priority order into fields of
//! bits (most significant first): completion and the bye (C4, C5, C9),
//! pairs in the current bracket and their scores (C6, C7), pairs in the
//! next bracket (the look-ahead of C4/C7), the colour criteria (C8, C10,
//! C11), the float criteria (C12–C19) and, lowest, room for the choices
//! the criteria leave to the order of the players (which MDPs pair, the
//! fewest exchanges, the smallest BSN differences: C20, C21 and the
//! transposition order of C.04.3 D). Where the criteria are satisfied
//! equally, the matching is re-run with nudged weights, one decision at a
//! time, to take the first pairing in the order the rules define; each
//! decision is then fixed ("finalized") before the next.

use std::collections::BTreeMap;

use crate::colour::{self, Strength};
use crate::history::{Float, State};
use crate::matching::max_weight_matching;
use crate::round::Round;
use crate::wide::{Packed, Wide};

/// The pairs found and the players left over (the bye, if one).
pub type Outcome<'a> = (Vec<(&'a State, &'a State)>, Vec<&'a State>);

fn bit_length(v: u64) -> u32 {
    64 - v.leading_zeros()
}

/// Pairs the round; `round.players` is sorted by score, then pairing number.
pub fn pair<'a>(round: &Round<'a>) -> Outcome<'a> {
    let n = round.players.len();
    if n < 2 {
        return (Vec::new(), round.players.clone());
    }
    let layout = Layout::new(round);
    // Headroom: sums over up to n/2 edges, doubled, and the dual variables.
    let bits = layout.total_bits() + bit_length(n as u64) + 8;
    match bits.div_ceil(64) {
        0..=2 => run::<Wide<2>>(round, layout),
        3 => run::<Wide<3>>(round, layout),
        4 => run::<Wide<4>>(round, layout),
        5..=6 => run::<Wide<6>>(round, layout),
        7..=8 => run::<Wide<8>>(round, layout),
        9..=10 => run::<Wide<10>>(round, layout),
        11..=12 => run::<Wide<12>>(round, layout),
        13..=16 => run::<Wide<16>>(round, layout),
        17..=24 => run::<Wide<24>>(round, layout),
        25..=32 => run::<Wide<32>>(round, layout),
        _ => run::<Wide<64>>(round, layout),
    }
}

/// The widths of the weight's fields for this round.
struct Layout {
    /// Bits of a small field (counts of pairs).
    b: u32,
    /// Bits of a score field: one sub-field per score group.
    sb: u32,
    /// Rounds played before this one.
    played: u32,
    /// Each score's shift inside a score field (lowest score at 0).
    shifts: BTreeMap<u32, u32>,
    /// Bits needed for the largest score group's size.
    group_size_bits: u32,
    /// Score groups as index ranges of the sorted players.
    groups: Vec<(usize, usize)>,
}

impl Layout {
    fn new(round: &Round<'_>) -> Layout {
        let ps = &round.players;
        let n = ps.len();
        let mut groups = Vec::new();
        let mut i = 0;
        while i < n {
            let mut j = i + 1;
            while j < n && ps[j].score == ps[i].score {
                j += 1;
            }
            groups.push((i, j));
            i = j;
        }
        let mut shifts = BTreeMap::new();
        let mut shift = 0;
        let mut largest = 0;
        for &(a, z) in groups.iter().rev() {
            shifts.insert(ps[a].score, shift);
            shift += bit_length((z - a) as u64).max(1);
            largest = largest.max(z - a);
        }
        Layout {
            b: 8.max(bit_length(n as u64) + 3),
            sb: shift,
            played: round.number - 1,
            shifts,
            group_size_bits: bit_length(largest as u64).max(1),
            groups,
        }
    }

    fn total_bits(&self) -> u32 {
        let (b, sb) = (self.b, self.sb);
        let mut t = 3 * b + 1;
        if self.played >= 2 {
            t += 2 * sb + 2 * b;
        }
        if self.played >= 1 {
            t += 2 * sb + 2 * b;
        }
        t + 4 * b + 2 * b + b + sb + b + sb + 2
    }
}

/// The state of the bye decision shared by the weights (C5, C9).
struct Bye {
    /// Who may get the bye (by sorted index); `None`: the count is even.
    candidates: Option<Vec<bool>>,
    /// The score group the bye will come from.
    score: Option<u32>,
    /// True while the bye's player is the only one to leave the brackets
    /// paired so far (then C9: fewest unplayed games for the bye).
    single_downfloater: bool,
    /// Rank of each number of played games at the bye's score.
    unplayed_ranks: BTreeMap<usize, u64>,
}

struct Engine<'r, 'a, W> {
    round: &'r Round<'a>,
    ps: &'r [&'a State],
    layout: Layout,
    compatible: Vec<Vec<bool>>,
    bye: Bye,
    weights: Vec<Vec<W>>,
}

impl<'a, W: Packed> Engine<'_, 'a, W> {
    fn score_bits(&self, score: u32) -> W {
        W::small(1) << self.layout.shifts[&score]
    }

    /// The weight of the edge between sorted players `i < j` (C1–C21).
    fn weight(&self, i: usize, j: usize, current: bool, next: bool) -> W {
        if !self.compatible[i][j] {
            return W::ZERO;
        }
        let (p1, p2) = (self.ps[i], self.ps[j]);
        let Layout { b, sb, played, .. } = self.layout;
        let one = W::small(1);
        let zero = W::ZERO;
        let mut w = W::ZERO;
        let mut s = 3 * b + 1;
        let upfloat_again = |k| p2.float_back(k) == Float::Up && p1.score > p2.score;
        let downfloaters = |k| {
            let mut v = zero;
            if p2.float_back(k) == Float::Down {
                v = v + self.score_bits(p2.score);
            }
            if p1.float_back(k) == Float::Down {
                v = v + self.score_bits(p1.score);
            }
            v
        };
        let kept_downfloaters = |k| {
            let mut c = 0;
            if p2.float_back(k) == Float::Down {
                c += 1;
            }
            if p1.float_back(k) == Float::Down && p1.score <= p2.score {
                c += 1;
            }
            W::small(c)
        };
        // C19, C18 (two rounds back), C17, C16 (previous round): scores.
        for k in [2usize, 1] {
            if played as usize >= k {
                if current && !upfloat_again(k) {
                    w = w | (self.score_bits(p1.score) << s);
                }
                s += sb;
                if current {
                    w = w | (downfloaters(k) << s);
                }
                s += sb;
            }
        }
        // C15, C14 (two rounds back), C13, C12 (previous round): counts.
        for k in [2usize, 1] {
            if played as usize >= k {
                if current && !upfloat_again(k) {
                    w = w | (one << s);
                }
                s += b;
                if current {
                    w = w | (kept_downfloaters(k) << s);
                }
                s += b;
            }
        }
        // Colours: C11 (strong), C10 (preferences), C8 details (absolute).
        let (pr1, pr2) = (colour::preference(p1), colour::preference(p2));
        let same = pr1.colour.is_some() && pr1.colour == pr2.colour;
        if current {
            let both_strong = pr1.strength >= Strength::Strong && pr2.strength >= Strength::Strong;
            let both_abs = pr1.strength == Strength::Absolute && pr2.strength == Strength::Absolute;
            if !(same && both_strong && !both_abs) {
                w = w | (one << s);
            }
        }
        s += b;
        if current && !same {
            w = w | (one << s);
        }
        s += b;
        if current {
            let mut ok = true;
            if pr1.strength == Strength::Absolute
                && pr2.strength == Strength::Absolute
                && pr1.colour == pr2.colour
            {
                let (i1, i2) = (
                    p1.colour_difference().unsigned_abs(),
                    p2.colour_difference().unsigned_abs(),
                );
                let (r1, r2) = (colour::repeated_colour(p1), colour::repeated_colour(p2));
                if i2 == i1 {
                    if r2.is_some() && r2 == r1 {
                        ok = false;
                    }
                } else {
                    let lower = if i2 > i1 { r1 } else { r2 };
                    let inverse = pr2.colour.map(|c| c.opposite());
                    if lower.is_some() && lower == inverse {
                        ok = false;
                    }
                }
            }
            if ok {
                w = w | (one << s);
            }
        }
        s += b;
        if current {
            let imbalanced =
                p1.colour_difference().abs() >= 2 && p2.colour_difference().abs() >= 2 && same;
            if !imbalanced {
                w = w | (one << s);
            }
        }
        s += b;
        // C9: the bye to the player with the fewest unplayed games.
        if self.bye.single_downfloater
            && let Some(bs) = self.bye.score
        {
            let mut c = 0;
            for p in [p1, p2] {
                if p.score == bs {
                    c += self
                        .bye
                        .unplayed_ranks
                        .get(&p.opponents.len())
                        .copied()
                        .unwrap_or(0);
                }
            }
            w = w | (W::small(c) << s);
        }
        s += 2 * b;
        // The next bracket: its pairs, then their scores.
        if next {
            w = w | (one << s);
        }
        s += b;
        if next {
            w = w | (self.score_bits(p1.score) << s);
        }
        s += sb;
        // The current bracket: its pairs (C6), then their scores (C7).
        if current {
            w = w | (one << s);
        }
        s += b;
        if current {
            w = w | (self.score_bits(p1.score) << s);
        }
        s += sb;
        // Completion (C4) and the bye (C5): pairs of non-candidates first.
        let completion = match &self.bye.candidates {
            Some(c) => 1 + u64::from(!c[i]) + u64::from(!c[j]),
            None => 3,
        };
        w | (W::small(completion) << s)
    }

    fn set(&mut self, i: usize, j: usize, w: W) {
        self.weights[i][j] = w;
        self.weights[j][i] = w;
    }

    /// The current maximum-cardinality maximum-weight matching: `m[i]` is
    /// `i`'s partner, or `i` when unpaired. Two players whose only edge is
    /// each other (a finalized pair) are always matched together, so they
    /// are left out of the search: the matching of the rest is the same and
    /// is found on a smaller graph.
    fn matching(&self) -> Vec<usize> {
        let n = self.ps.len();
        let only: Vec<Option<usize>> = (0..n)
            .map(|i| {
                let mut it = (0..n).filter(|&j| j != i && self.weights[i][j] > W::ZERO);
                match (it.next(), it.next()) {
                    (Some(j), None) => Some(j),
                    _ => None,
                }
            })
            .collect();
        let mut result: Vec<usize> = (0..n).collect();
        let mut index = vec![usize::MAX; n];
        let mut live = Vec::new();
        for i in 0..n {
            match only[i] {
                Some(j) if only[j] == Some(i) => result[i] = j,
                _ => {
                    index[i] = live.len();
                    live.push(i);
                }
            }
        }
        let mut edges = Vec::new();
        for (a, &i) in live.iter().enumerate() {
            for (b, &j) in live.iter().enumerate().skip(a + 1) {
                let w = self.weights[i][j];
                if w > W::ZERO {
                    edges.push((a, b, w));
                }
            }
        }
        for (a, m) in max_weight_matching(live.len(), &edges, true)
            .into_iter()
            .enumerate()
        {
            if let Some(b) = m {
                result[live[a]] = live[b];
            }
        }
        result
    }

    /// Fixes the pair `a`–`b`: every other edge of theirs goes.
    fn finalize(&mut self, a: usize, b: usize) {
        for k in 0..self.ps.len() {
            if k != b {
                self.set(a, k, W::ZERO);
            }
            if k != a {
                self.set(b, k, W::ZERO);
            }
        }
        self.set(a, b, W::small(1));
    }

    /// The preliminary matching that finds the bye's score group (C5) and
    /// whether it is the only downfloater of the top bracket (C9).
    fn prepare_bye(&mut self) {
        let n = self.ps.len();
        let Some(cands) = self.bye.candidates.clone() else {
            return;
        };
        if n.is_multiple_of(2) {
            return;
        }
        let top = self.ps[0].score;
        let shift_total = self.layout.sb;
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if !self.compatible[i][j] {
                    continue;
                }
                let completion = 1 + i128::from(!cands[i]) + i128::from(!cands[j]);
                let groups = i128::from(self.layout.shifts[&self.ps[i].score])
                    + i128::from(self.layout.shifts[&self.ps[j].score]);
                let mut w = completion << shift_total;
                w |= groups;
                w <<= self.layout.group_size_bits;
                w |= i128::from(self.ps[j].score >= top);
                edges.push((i, j, Wide::<4>::from_i128(w)));
            }
        }
        let m = max_weight_matching(n, &edges, true);
        let unmatched = (0..n).find(|&v| m[v].is_none());
        let bye_score = unmatched.map(|v| self.ps[v].score).unwrap_or(top);
        self.bye.score = Some(bye_score);
        self.bye.candidates = Some(
            (0..n)
                .map(|i| cands[i] && self.ps[i].score <= bye_score)
                .collect(),
        );
        self.bye.single_downfloater = bye_score >= top
            && (0..n)
                .take_while(|&v| self.ps[v].score >= top)
                .all(|v| m[v].is_none_or(|u| self.ps[u].score >= top));
        let mut counts: Vec<usize> = self
            .ps
            .iter()
            .filter(|p| p.score == bye_score)
            .map(|p| p.opponents.len())
            .collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        for (rank, c) in counts.into_iter().enumerate() {
            self.bye.unplayed_ranks.insert(c, rank as u64);
        }
    }
}

impl Wide<4> {
    fn from_i128(v: i128) -> Self {
        let u = v as u128;
        let ext = if v < 0 { u64::MAX } else { 0 };
        Wide([u as u64, (u >> 64) as u64, ext, ext])
    }
}

fn run<'a, W: Packed>(round: &Round<'a>, layout: Layout) -> Outcome<'a> {
    let ps = &round.players[..];
    let n = ps.len();
    let compatible: Vec<Vec<bool>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| i != j && round.compatible(ps[i], ps[j]))
                .collect()
        })
        .collect();
    let candidates = (n % 2 == 1 && round.number >= 2).then(|| {
        let eligible: Vec<bool> = ps.iter().map(|p| p.bye_eligible).collect();
        if eligible.iter().any(|&e| e) {
            eligible
        } else {
            vec![true; n]
        }
    });
    let mut e = Engine {
        round,
        ps,
        layout,
        compatible,
        bye: Bye {
            candidates,
            score: None,
            single_downfloater: false,
            unplayed_ranks: BTreeMap::new(),
        },
        weights: vec![vec![W::ZERO; n]; n],
    };
    e.prepare_bye();
    for i in 0..n {
        for j in i + 1..n {
            let w = e.weight(i, j, false, false);
            e.set(i, j, w);
        }
    }
    let b = e.layout.b;
    let groups = e.layout.groups.clone();
    let mut matched = vec![false; n];
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut bracket: Vec<usize> = (groups[0].0..groups[0].1).collect();
    let mut next_group = 1;
    let mut resident_begin = 0;
    let mut previous: Vec<usize> = Vec::new();

    while bracket.len() > 1 || next_group < groups.len() {
        let next_begin = bracket.len();
        let loaded = next_group < groups.len();
        let bracket_score = if loaded {
            let (a, z) = groups[next_group];
            bracket.extend(a..z);
            next_group += 1;
            ps[a].score
        } else {
            ps[*bracket.last().unwrap()].score
        };
        let len = bracket.len();
        let residents = |g: usize, br: &[usize]| br[resident_begin..next_begin].contains(&g);
        // base[li][lj] (lj < li): the criteria's weight, local indices.
        let mut base: Vec<Vec<W>> = vec![Vec::new(); len];
        for (li, row) in base.iter_mut().enumerate().skip(resident_begin) {
            *row = (0..li)
                .map(|lj| e.weight(bracket[lj], bracket[li], li < next_begin, li >= next_begin))
                .collect();
        }
        let base_at = |base: &Vec<Vec<W>>, hi: usize, lo: usize| -> W {
            base[hi].get(lo).copied().unwrap_or(W::ZERO)
        };
        for li in resident_begin..len {
            for lj in 0..li {
                let w = base_at(&base, li, lj);
                e.set(bracket[li], bracket[lj], w);
            }
        }
        // The order of the remainder's players: fewest exchanges, then the
        // smallest differences of BSN (C.04.3 D), in the reserved bits.
        let exchange = |base: &Vec<Vec<W>>, lo: usize, hi: usize, idx: usize, upper: usize| -> W {
            let w = base_at(base, hi, lo);
            if w.zero() {
                return w;
            }
            let flag = W::small(u64::from(idx < upper)) << (2 * b);
            let addend = (flag - W::small(idx as u64)) << 1;
            w + addend
        };
        let mut stable = e.matching();

        // Which moved-down players (MDPs) pair in this bracket (C6, C7).
        let mut md_score = None;
        let mut md_left = 0usize;
        let mut md_matched_left = 0usize;
        for li in 0..resident_begin {
            let g = bracket[li];
            if md_score.is_none_or(|s| ps[g].score < s) {
                md_score = Some(ps[g].score);
                md_left = 0;
                md_matched_left = 0;
                for &mg in &bracket[li..resident_begin] {
                    if ps[mg].score < ps[g].score {
                        break;
                    }
                    md_left += 1;
                    if stable[mg] != mg && residents(stable[mg], &bracket) {
                        md_matched_left += 1;
                    }
                }
            }
            if md_matched_left == 0 {
                continue;
            }
            if md_left <= md_matched_left {
                matched[g] = true;
                md_left -= 1;
                continue;
            }
            md_left -= 1;
            if !residents(stable[g], &bracket) || stable[g] == g {
                for (rli, &rg) in bracket
                    .iter()
                    .enumerate()
                    .take(next_begin)
                    .skip(resident_begin)
                {
                    let bw = base_at(&base, rli, li);
                    if !bw.zero() {
                        e.set(g, rg, bw | W::small(1));
                    }
                }
                stable = e.matching();
            }
            if stable[g] != g && residents(stable[g], &bracket) {
                matched[g] = true;
                md_matched_left -= 1;
                let size = (next_begin - resident_begin) as u64;
                for (rli, &rg) in bracket
                    .iter()
                    .enumerate()
                    .take(next_begin)
                    .skip(resident_begin)
                {
                    let bw = base_at(&base, rli, li);
                    if !bw.zero() {
                        e.set(g, rg, (bw | W::small(size)) + W::small(1));
                    }
                }
            }
        }

        // Each chosen MDP's opponent: the highest resident that works.
        let mut fixed = vec![false; n];
        for li in 0..resident_begin {
            let g = bracket[li];
            if !matched[g] || fixed[g] {
                continue;
            }
            let mut addend = len as u64;
            for rli in (resident_begin..next_begin).rev() {
                let rg = bracket[rli];
                if matched[rg] {
                    continue;
                }
                let bw = base_at(&base, rli, li);
                if !bw.zero() {
                    e.set(g, rg, bw + W::small(addend));
                    addend += 1;
                }
            }
            stable = e.matching();
            let m = stable[g];
            if m != g {
                matched[m] = true;
                e.finalize(g, m);
                fixed[g] = true;
                fixed[m] = true;
            } else {
                matched[g] = false;
            }
        }

        // The remainder: residents not paired with an MDP.
        let is_mdp = |g: usize, br: &[usize]| br[..resident_begin].contains(&g);
        let mut rem: Vec<usize> = Vec::new();
        let mut upper = 0usize;
        for li in resident_begin..next_begin {
            let g = bracket[li];
            let m = stable[g];
            if m != g && is_mdp(m, &bracket) {
                continue;
            }
            rem.push(li);
            if m != g && m < g {
                upper += 1;
            }
        }
        if upper > rem.len() {
            upper = rem.len() / 2;
        }
        let paired_down = |stable: &Vec<usize>, g: usize, br: &[usize]| {
            let m = stable[g];
            m != g && m > g && br[resident_begin..next_begin].contains(&m)
        };
        if rem.len() >= 2 {
            for (oi, &opp) in rem.iter().enumerate() {
                for (pi, &pl) in rem[..oi].iter().enumerate() {
                    let w = exchange(&base, pl, opp, pi, upper);
                    e.set(bracket[pl], bracket[opp], w);
                }
            }
            stable = e.matching();
            let exchanges = (0..upper)
                .filter(|&ri| !paired_down(&stable, bracket[rem[ri]], &bracket))
                .count();
            // Players of the upper group to exchange: the lowest first.
            let mut left = exchanges;
            for scan in (0..upper).rev() {
                if left == 0 {
                    break;
                }
                let li = rem[scan];
                let g = bracket[li];
                if paired_down(&stable, g, &bracket) {
                    for &opp in &rem[scan + 1..] {
                        let w = exchange(&base, li, opp, scan, upper);
                        if !w.zero() {
                            e.set(g, bracket[opp], w - W::small(1));
                        }
                    }
                    stable = e.matching();
                }
                let exchanged = !paired_down(&stable, g, &bracket);
                if exchanged {
                    left -= 1;
                }
                for &opp in &rem[scan + 1..] {
                    if exchanged {
                        base[opp][li] = W::ZERO;
                    }
                    let w = exchange(&base, li, opp, scan, upper);
                    e.set(g, bracket[opp], w);
                }
            }
            // Players of the lower group to exchange: the highest first.
            let mut left = exchanges;
            let mut ri = upper;
            for scan in upper..rem.len() {
                if left <= 1 {
                    break;
                }
                let li = rem[scan];
                let g = bracket[li];
                let already = paired_down(&stable, g, &bracket);
                if !already {
                    for &opp in &rem[scan + 1..] {
                        let w = exchange(&base, li, opp, ri, upper);
                        if !w.zero() {
                            e.set(g, bracket[opp], w + W::small(1));
                        }
                    }
                    stable = e.matching();
                }
                let exchanged = paired_down(&stable, g, &bracket);
                if exchanged {
                    left -= 1;
                    for (oi, &opp) in rem.iter().enumerate() {
                        if opp == li {
                            continue;
                        }
                        if oi < scan {
                            base[li][opp] = W::ZERO;
                            e.set(g, bracket[opp], W::ZERO);
                        }
                    }
                    for nli in next_begin..len {
                        base[nli][li] = W::ZERO;
                        e.set(g, bracket[nli], W::ZERO);
                    }
                }
                if !already {
                    for &opp in &rem[scan + 1..] {
                        let w = exchange(&base, li, opp, ri, upper);
                        e.set(g, bracket[opp], w);
                    }
                }
                ri += 1;
            }
            // Fix the split: only upper-to-lower edges stay.
            for (pi, &pl) in rem.iter().enumerate() {
                for &opp in &rem[pi + 1..] {
                    let p_upper = paired_down(&stable, bracket[pl], &bracket);
                    let o_upper = paired_down(&stable, bracket[opp], &bracket);
                    if !p_upper || o_upper {
                        base[opp][pl] = W::ZERO;
                    }
                    let w = base_at(&base, opp, pl);
                    e.set(bracket[pl], bracket[opp], w);
                }
            }
        }
        // Each upper player's opponent: the first that works (C.04.3 D).
        for &pl in &rem {
            let g = bracket[pl];
            if !paired_down(&stable, g, &bracket) {
                continue;
            }
            let mut addend = 0u64;
            for &opp in rem.iter().rev() {
                let og = bracket[opp];
                if opp <= pl || matched[og] {
                    continue;
                }
                let bw = base_at(&base, opp, pl);
                if !bw.zero() {
                    e.set(g, og, bw + W::small(addend));
                }
                addend += 1;
            }
            stable = e.matching();
            let m = stable[g];
            if m != g {
                matched[g] = true;
                matched[m] = true;
                e.finalize(g, m);
            }
        }

        // On to the next bracket with whoever is left.
        e.bye.single_downfloater =
            n % 2 == 1 && loaded && e.bye.score.is_some_and(|s| s >= bracket_score);
        let mut carried = Vec::new();
        let mut carried_mdps = 0;
        for (li, &g) in bracket.iter().enumerate() {
            if li < next_begin && matched[g] && stable[g] != g {
                let m = stable[g];
                let pair = if ps[g].pairing_number < ps[m].pairing_number {
                    (g, m)
                } else {
                    (m, g)
                };
                if !pairs.contains(&pair) {
                    pairs.push(pair);
                }
            } else {
                carried.push(g);
                if li < next_begin {
                    carried_mdps += 1;
                }
                if e.bye.single_downfloater {
                    let m = stable[g];
                    if m != g && ps[m].score < bracket_score {
                        e.bye.single_downfloater = false;
                    }
                }
            }
        }
        bracket = carried;
        resident_begin = carried_mdps;
        if next_group >= groups.len() && bracket == previous {
            break;
        }
        previous = bracket.clone();
    }
    let _ = e.round;
    let mut used = vec![false; n];
    for &(a, z) in &pairs {
        used[a] = true;
        used[z] = true;
    }
    let mut out: Vec<(&State, &State)> = pairs.iter().map(|&(a, z)| (ps[a], ps[z])).collect();
    let mut rest: Vec<usize> = (0..n).filter(|&i| !used[i]).collect();
    if rest.len() >= 2 {
        // Last resort (never seen in the checks): any legal completion.
        if let Some(extra) = backtrack(&rest, &e.compatible) {
            for (a, z) in extra {
                used[a] = true;
                used[z] = true;
                out.push((ps[a], ps[z]));
            }
            rest = (0..n).filter(|&i| !used[i]).collect();
        }
    }
    out.sort_by_key(|p| p.0.pairing_number);
    (out, rest.into_iter().map(|i| ps[i]).collect())
}

/// A perfect (or one-short) matching of `players` by depth-first search in
/// order, when the weighted method left more than one player out.
fn backtrack(players: &[usize], compatible: &[Vec<bool>]) -> Option<Vec<(usize, usize)>> {
    fn go(left: &[usize], c: &[Vec<bool>], out: &mut Vec<(usize, usize)>, odd: bool) -> bool {
        if left.len() <= usize::from(odd) {
            return true;
        }
        let a = left[0];
        for k in 1..left.len() {
            let z = left[k];
            if c[a][z] {
                let rest: Vec<usize> = left[1..].iter().copied().filter(|&x| x != z).collect();
                out.push((a, z));
                if go(&rest, c, out, odd) {
                    return true;
                }
                out.pop();
            }
        }
        if odd && left.len() % 2 == 1 {
            return go(&left[1..], c, out, false);
        }
        false
    }
    let mut out = Vec::new();
    go(players, compatible, &mut out, players.len() % 2 == 1).then_some(out)
}

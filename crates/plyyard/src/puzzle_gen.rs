//! `plyyard puzzles generate`: the trainer's own puzzles, mined from
//! self-play between Ply Yard's levels with lichess's published criteria
//! (`plyyard_puzzle::generator` holds the rules; this module runs the
//! engine and the games).
//!
//! Every game of a seed is played by two levels drawn from the seed; every
//! position after a move is scored at a fixed node count, and a move that
//! makes a candidate (`generator::candidate`) is checked again with two
//! lines (multipv 2). The solution is extended move by move while each
//! attacker move is the only good one, trimmed to end on the attacker's
//! move (`generator::solution_plies`), tagged (`plyyard_puzzle::tag`) and
//! rated by which of our calibrated levels find it (`rate`). Node counts,
//! never time, drive everything: a seed always gives the same file.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use plyyard_engine::level::Rng;
use plyyard_engine::{Engine, Level, Limits, SearchResult};
use plyyard_game::shakmaty::{Chess, Color, Move, Position};
use plyyard_puzzle::generator::{
    self, AttackerMove, Kind, Score, advantage_kept, candidate, only_move, solution_plies,
};
use plyyard_puzzle::line::{Line, after, uci};

/// Random plies before the levels take over.
const RANDOM_PLIES: usize = 4;
/// Plies after which a game is abandoned.
const MAX_PLIES: usize = 240;
/// Most attacker moves followed in a line.
const MAX_ATTACKER_MOVES: usize = 12;
/// Levels the two players are drawn from (weighted by repetition: the
/// weaker levels make more of the human-like mistakes).
const PLAYERS: [Level; 6] = [
    Level::Beginner,
    Level::Beginner,
    Level::Easy,
    Level::Easy,
    Level::Normal,
    Level::Hard,
];
/// Depth of the shallow search that proposes plausible mistakes.
const SHALLOW: u32 = 2;
/// Plausible moves tried in each position of a game (besides the one played).
const PLAUSIBLE: usize = 5;
/// The rating deviation given to a generated puzzle (provisional).
pub const DEVIATION: i32 = 150;
/// CSV header, lichess's columns.
pub const HEADER: &str =
    "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags";

/// What the generator searches, in nodes.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Nodes to score each position of a game (one line).
    pub scan: u64,
    /// Nodes of each multipv-2 judgement along a candidate line.
    pub judge: u64,
    /// Nodes of the same judgement made first, cheaply, to screen the
    /// candidates (0: none): most candidates fail it, and a line the
    /// cheap search does not see is rarely one the deep search keeps.
    pub screen: u64,
    /// Attempts of each level when rating a puzzle.
    pub tries: u32,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            scan: 4_000,
            judge: 150_000,
            screen: 15_000,
            tries: 3,
        }
    }
}

/// A generated puzzle, ready to be written as a CSV row.
#[derive(Debug, Clone)]
pub struct Generated {
    /// `py` and six letters or digits: never one of lichess's five-letter ids.
    pub id: String,
    /// The line: the position before the mistake, the mistake, the solution.
    pub line: Line,
    /// Rating estimate (see [`rate`]).
    pub rating: i32,
    /// Theme keys.
    pub themes: Vec<String>,
}

impl Generated {
    /// The CSV row, lichess's columns (no game URL, no opening).
    pub fn csv(&self) -> String {
        let fen = plyyard_game::shakmaty::fen::Fen::from_position(
            &self.line.before,
            plyyard_game::shakmaty::EnPassantMode::Legal,
        );
        let mut moves = self.line.opponent_uci();
        for m in self.line.solution_uci() {
            moves.push(' ');
            moves.push_str(&m);
        }
        format!(
            "{},{fen},{moves},{},{DEVIATION},0,0,{},,",
            self.id,
            self.rating,
            self.themes.join(" ")
        )
    }
}

/// Maps the engine's score to the criteria's.
fn score(s: plyyard_engine::Score) -> Score {
    match s {
        plyyard_engine::Score::Cp(c) => Score::Cp(c),
        plyyard_engine::Score::Mate(n) => Score::Mate(n),
    }
}

/// Where the generator's time went, summed over its games.
#[derive(Debug, Clone, Copy, Default)]
pub struct Spent {
    /// Playing the games.
    pub play: std::time::Duration,
    /// Scoring the games' positions and their plausible mistakes.
    pub scan: std::time::Duration,
    /// Judging candidates and following their lines.
    pub judge: std::time::Duration,
    /// Rating the puzzles found.
    pub rate: std::time::Duration,
}

/// The generator: one engine, its budget.
pub struct Generator {
    /// Candidates met by the scan so far (judged again by `puzzle_at`).
    pub candidates: u64,
    /// Where the time went.
    pub spent: Spent,
    engine: Engine,
    budget: Budget,
    stop: AtomicBool,
}

impl Generator {
    /// A generator with a fresh single-threaded engine.
    pub fn new(budget: Budget) -> Generator {
        Generator {
            candidates: 0,
            spent: Spent::default(),
            engine: Engine::new(32),
            budget,
            stop: AtomicBool::new(false),
        }
    }

    /// The best `multipv` lines of `pos` at `nodes`.
    fn analyse(&mut self, pos: &Chess, nodes: u64, multipv: usize) -> Vec<SearchResult> {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        self.engine.analyse(pos, &[], &limits, multipv, &self.stop)
    }

    /// The score of the best move other than `best` in `pos`: multipv's
    /// second line, checked by a search of its own over the other moves
    /// (a second line gets less of the search than the first), the better
    /// of the two kept.
    fn second_best(
        &mut self,
        pos: &Chess,
        best: Move,
        second: Option<&SearchResult>,
        nodes: u64,
    ) -> Option<Score> {
        let second = second.map(|r| score(r.score))?;
        let others: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| m != best)
            .collect();
        let limits = Limits {
            nodes: Some(nodes),
            searchmoves: others,
            ..Limits::default()
        };
        let own = self.engine.analyse(pos, &[], &limits, 1, &self.stop);
        let own = own.first().map(|r| score(r.score));
        Some(match own {
            Some(o) if o.win_chances() > second.win_chances() => o,
            _ => second,
        })
    }

    /// Plays game `n` of `seed` and returns its puzzles.
    pub fn game(&mut self, seed: u64, n: u64) -> Vec<Generated> {
        let clock = std::time::Instant::now();
        self.engine.clear();
        let (start, moves) = self.play(seed, n);
        self.engine.clear();
        self.spent.play += clock.elapsed();
        let mut positions = vec![start];
        for &m in &moves {
            let next = after(positions.last().expect("a position"), m);
            positions.push(next);
        }
        let mut found = Vec::new();
        let mut seen = std::collections::HashSet::new();
        // The score of the position after the move played: the next
        // position's, without a search of its own.
        let mut scored_next: Option<Score> = None;
        for i in RANDOM_PLIES..moves.len() {
            let clock = std::time::Instant::now();
            let pos = &positions[i];
            let before = match scored_next.take() {
                Some(s) => s,
                None => match self.scan(pos) {
                    Some(s) => s,
                    None => continue,
                },
            };
            if lost_already(before) {
                self.spent.scan += clock.elapsed();
                continue;
            }
            let mut candidates = Vec::new();
            for m in self.plausible(pos, moves[i]) {
                let Some(after_eval) = self.scan(&after(pos, m)) else {
                    continue;
                };
                if m == moves[i] {
                    scored_next = Some(after_eval);
                }
                if candidate(before.flip(), after_eval).is_some() && seen.insert((m, i)) {
                    candidates.push(m);
                }
            }
            self.spent.scan += clock.elapsed();
            for m in candidates {
                self.candidates += 1;
                if let Some(p) = self.puzzle_at(pos, m, seed, n) {
                    found.push(p);
                }
            }
        }
        found
    }

    /// The score of `pos` at the scan's nodes, from the side to move.
    fn scan(&mut self, pos: &Chess) -> Option<Score> {
        self.analyse(pos, self.budget.scan, 1)
            .first()
            .map(|r| score(r.score))
    }

    /// The mistakes tried in `pos`: the move played and the other moves a
    /// shallow search (a beginner's depth, [`SHALLOW`]) ranks among its
    /// best [`PLAUSIBLE`]: the slips a weak player could make there.
    fn plausible(&mut self, pos: &Chess, played: Move) -> Vec<Move> {
        let limits = Limits {
            depth: Some(SHALLOW),
            ..Limits::default()
        };
        let mut out = vec![played];
        for r in self
            .engine
            .analyse(pos, &[], &limits, PLAUSIBLE, &self.stop)
        {
            if !out.contains(&r.best_move) {
                out.push(r.best_move);
            }
        }
        out
    }

    /// Game `n` of `seed`: random opening plies, then two levels.
    fn play(&mut self, seed: u64, n: u64) -> (Chess, Vec<Move>) {
        let mut rng = Rng::new(
            seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        let levels = [
            PLAYERS[(rng.next_u64() % PLAYERS.len() as u64) as usize],
            PLAYERS[(rng.next_u64() % PLAYERS.len() as u64) as usize],
        ];
        let start = Chess::default();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        while moves.len() < MAX_PLIES && pos.outcome().is_unknown() && pos.halfmoves() < 100 {
            let m = if moves.len() < RANDOM_PLIES {
                let legal = pos.legal_moves();
                legal[(rng.next_u64() % legal.len() as u64) as usize]
            } else {
                let level = levels[usize::from(pos.turn() == Color::Black)];
                match self.level_move(&start, &moves, level, rng.next_u64()) {
                    Some(m) => m,
                    None => break,
                }
            };
            pos.play_unchecked(m);
            moves.push(m);
        }
        (start, moves)
    }

    /// The move `level` chooses after `moves` from `start`.
    fn level_move(
        &mut self,
        start: &Chess,
        moves: &[Move],
        level: Level,
        seed: u64,
    ) -> Option<Move> {
        let nodes = plyyard_engine::level::style(level).map_or(self.budget.judge, |s| s.nodes);
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        self.engine
            .search(start, moves, &limits, level, seed, &self.stop)
            .map(|r| r.best_move)
    }

    /// The puzzle set by `mistake` played in `before`, if any: judged
    /// again with two lines, then followed while every attacker move is
    /// the only good one.
    pub fn puzzle_at(
        &mut self,
        before: &Chess,
        mistake: Move,
        seed: u64,
        n: u64,
    ) -> Option<Generated> {
        let clock = std::time::Instant::now();
        let screened =
            self.budget.screen == 0 || self.judge(before, mistake, self.budget.screen).is_some();
        let found = if screened {
            self.judge(before, mistake, self.budget.judge)
        } else {
            None
        };
        self.spent.judge += clock.elapsed();
        let (line, eval) = found?;
        let themes = plyyard_puzzle::tag(&line, eval)
            .iter()
            .map(|t| t.key().to_owned())
            .collect();
        let id = puzzle_id(&line);
        let clock = std::time::Instant::now();
        let rating = self.rate(&line, seed ^ n);
        self.spent.rate += clock.elapsed();
        Some(Generated {
            id,
            line,
            rating,
            themes,
        })
    }

    /// The line `mistake` sets in `before`, if it makes a puzzle at
    /// `nodes` a judgement, with the attacker's first judged score. The cheapest refusals
    /// come first: the position after the mistake on its own, then its
    /// first move's two lines, and only then the position before.
    fn judge(
        &mut self,
        before: &Chess,
        mistake: Move,
        nodes: u64,
    ) -> Option<(Line, Option<Score>)> {
        let start = after(before, mistake);
        let first = self.analyse(&start, nodes, 2);
        let best = score(first.first()?.score);
        // Whatever stood before, this score alone must make a candidate
        // (from the worst "before" there is, a mate against the attacker).
        candidate(Score::Mate(-1), best)?;
        let mates_now = after(&start, first[0].best_move).is_checkmate();
        let rival = first.get(1).map(|r| score(r.score));
        if !may_be_only_move(best, rival, mates_now) {
            return None;
        }
        let prior = self.analyse(before, nodes, 1);
        let prior = score(prior.first()?.score).flip();
        let kind = candidate(prior, best)?;
        let attacker = start.turn();
        if kind == Kind::Advantage {
            let Score::Cp(cp) = best else {
                return None;
            };
            let down =
                generator::material(before, attacker) < generator::material(before, !attacker);
            if generator::ahead_in_material(before, attacker) || !advantage_kept(cp, down) {
                return None;
            }
        }
        let (judged, played) = self.follow(&start, first, nodes);
        let plies = solution_plies(kind, &judged)?;
        if kind == Kind::Mate && !judged[plies / 2].mates {
            return None;
        }
        let solution = played[..plies].to_vec();
        let line = Line::from_moves(
            before.clone(),
            std::iter::once(mistake).chain(solution).collect(),
        )
        .ok()?;
        let eval = judged.first().map(|m| m.best);
        Some((line, eval))
    }

    /// Follows the line from `pos` (attacker to move, `first` its two
    /// best lines): each attacker move judged, each defence the engine's
    /// best. Returns the judgements and the moves played.
    fn follow(
        &mut self,
        pos: &Chess,
        first: Vec<SearchResult>,
        nodes: u64,
    ) -> (Vec<AttackerMove>, Vec<Move>) {
        let mut judged = Vec::new();
        let mut played = Vec::new();
        let mut pos = pos.clone();
        let mut lines = first;
        while judged.len() < MAX_ATTACKER_MOVES {
            let Some(best) = lines.first() else { break };
            let best_move = best.best_move;
            let next = after(&pos, best_move);
            // A final mate may have rival mates (any mate solves it).
            let mates = next.is_checkmate();
            let rival = lines.get(1).map(|r| score(r.score));
            // The second line's own search can only raise the second
            // best: when the multipv line already ends the puzzle, it is
            // not needed (but a rival mate in one may still be found).
            let settled = !may_be_only_move(score(best.score), rival, mates);
            let m = AttackerMove {
                best: score(best.score),
                second: if settled {
                    rival
                } else {
                    self.second_best(&pos, best_move, lines.get(1), nodes)
                },
                mates,
            };
            judged.push(m);
            played.push(best_move);
            if m.mates || !only_move(m.best, m.second, m.mates) || !next.outcome().is_unknown() {
                break;
            }
            let Some(reply) = self.analyse(&next, nodes, 1).first().map(|r| r.best_move) else {
                break;
            };
            played.push(reply);
            pos = after(&next, reply);
            if !pos.outcome().is_unknown() {
                break;
            }
            lines = self.analyse(&pos, nodes, 2);
        }
        (judged, played)
    }

    /// The rating estimate of a line: each of our calibrated levels (Elo
    /// of docs/strength.md) tries it `tries` times with its own seeds; a
    /// try succeeds when the level plays every solution move (any mate
    /// for a final mate). Treating each try as a game the puzzle wins when
    /// the level fails, the rating is the maximum-likelihood Elo with a
    /// weak prior (1500 ± 700). Levels above one that solved every try are
    /// not asked (counted as solving); Expert, the generator's own engine,
    /// always finds the line.
    pub fn rate(&mut self, line: &Line, seed: u64) -> i32 {
        let mut games: Vec<(f64, f64)> = Vec::new();
        let mut all_solved = false;
        for (level, elo) in LEVEL_ELO {
            for t in 0..self.budget.tries {
                let solved = all_solved
                    || self.level_solves(line, level, seed.wrapping_add(u64::from(t) * 7919));
                games.push((elo, if solved { 0.0 } else { 1.0 }));
            }
            if !all_solved {
                let last = &games[games.len() - self.budget.tries as usize..];
                all_solved = last.iter().all(|g| g.1 == 0.0);
            }
        }
        for _ in 0..self.budget.tries {
            games.push((EXPERT_ELO, 0.0));
        }
        performance(&games)
    }

    /// Whether `level` finds every solution move of `line`.
    fn level_solves(&mut self, line: &Line, level: Level, seed: u64) -> bool {
        let mut pos = after(&line.before, line.opponent);
        for (i, &want) in line.solution.iter().enumerate() {
            if i % 2 == 0 {
                let Some(got) = self.level_move(&pos, &[], level, seed.wrapping_add(i as u64))
                else {
                    return false;
                };
                let last = i + 1 == line.solution.len();
                let ok = got == want
                    || (last
                        && after(&pos, want).is_checkmate()
                        && after(&pos, got).is_checkmate());
                if !ok {
                    return false;
                }
            }
            pos = after(&pos, want);
        }
        true
    }
}

/// Whether the best move can still be the only good one when the second
/// line scores `rival` (a search of the other moves can only find a
/// better second): it is by `rival` already, or it mates in one and a
/// rival mate in one may yet be found (rival mates are allowed).
fn may_be_only_move(best: Score, rival: Option<Score>, mates: bool) -> bool {
    only_move(best, rival, mates) || (mates && best == Score::Mate(1))
}

/// Whether the side to move, scored `before`, is already lost beyond
/// what a mistake could set up (the attacker above +300 or mating): no
/// move of it makes a `candidate`, so none is tried.
fn lost_already(before: Score) -> bool {
    match before {
        Score::Cp(cp) => -cp > generator::MAX_PREVIOUS,
        Score::Mate(n) => n < 0,
    }
}

/// Our levels below Expert with their measured Elo (docs/strength.md).
const LEVEL_ELO: [(Level, f64); 4] = [
    (Level::Beginner, 782.0),
    (Level::Easy, 1071.0),
    (Level::Normal, 1372.0),
    (Level::Hard, 1882.0),
];
/// Expert's measured Elo (docs/strength.md).
const EXPERT_ELO: f64 = 2604.0;
/// The lowest rating given: a puzzle every try of our weakest level
/// (782) solves is easy, but how much easier than 600 the levels cannot
/// tell.
pub const RATING_FLOOR: i32 = 600;
/// The prior of [`performance`].
const PRIOR: (f64, f64) = (1500.0, 700.0);

/// Maximum-likelihood rating (Elo, with a Gaussian prior) of a player who
/// scored `s` against each opponent `(elo, s)`; bisection on the
/// derivative of the log-likelihood, which falls as the rating rises.
pub fn performance(games: &[(f64, f64)]) -> i32 {
    let slope = |r: f64| {
        let likelihood: f64 = games
            .iter()
            .map(|&(elo, s)| {
                let expected = 1.0 / (1.0 + 10f64.powf((elo - r) / 400.0));
                s - expected
            })
            .sum::<f64>()
            * f64::ln(10.0)
            / 400.0;
        likelihood - (r - PRIOR.0) / (PRIOR.1 * PRIOR.1)
    };
    let (mut lo, mut hi) = (0.0f64, 4000.0f64);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if slope(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo.round() as i32).clamp(RATING_FLOOR, 3000)
}

/// `py` and six base-62 characters of a hash of the line: eight
/// characters, so never one of lichess's five.
pub fn puzzle_id(line: &Line) -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let fen = plyyard_game::shakmaty::fen::Fen::from_position(
        &line.before,
        plyyard_game::shakmaty::EnPassantMode::Legal,
    );
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let text = format!("{fen} {}", uci(line.opponent));
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let mut id = String::from("py");
    for _ in 0..6 {
        id.push(char::from(ALPHABET[(h % 62) as usize]));
        h /= 62;
    }
    id
}

/// Plays `games` games of `seed`, writing each puzzle as a CSV row to
/// `out` as soon as its game ends (header first) and a line per game to
/// `log`. Returns the number of puzzles.
///
/// # Errors
/// Writing failed.
pub fn generate(
    seed: u64,
    games: u64,
    first_game: u64,
    budget: Budget,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> std::io::Result<usize> {
    let mut generator = Generator::new(budget);
    writeln!(out, "{HEADER}")?;
    let mut count = 0;
    for n in first_game..first_game + games {
        let started = std::time::Instant::now();
        let found = generator.game(seed, n);
        for p in &found {
            writeln!(out, "{}", p.csv())?;
        }
        out.flush()?;
        count += found.len();
        let spent = generator.spent;
        let _ = writeln!(
            log,
            "seed {seed} game {n}: {} puzzles in {:.1} s ({count} in all, {} candidates scanned; \
             so far play {:.0} s, scan {:.0} s, judge {:.0} s, rate {:.0} s)",
            found.len(),
            started.elapsed().as_secs_f64(),
            generator.candidates,
            spent.play.as_secs_f64(),
            spent.scan.as_secs_f64(),
            spent.judge.as_secs_f64(),
            spent.rate.as_secs_f64(),
        );
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyyard_puzzle::line::{parse_fen, parse_move};

    fn budget() -> Budget {
        Budget {
            scan: 5_000,
            judge: 60_000,
            screen: 10_000,
            tries: 1,
        }
    }

    fn at(fen: &str, mistake: &str) -> (Chess, Move) {
        let pos = parse_fen(fen).expect("fen");
        let m = parse_move(&pos, mistake).expect("move");
        (pos, m)
    }

    #[test]
    fn a_mistake_allowing_a_forced_mate_is_found() {
        // The rook leaves the back rank: Ra8+ Rd8 Rxd8#.
        let (pos, m) = at("3r2k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", "d8d2");
        let p = Generator::new(budget())
            .puzzle_at(&pos, m, 1, 1)
            .expect("a puzzle");
        assert_eq!(p.line.solution_uci(), ["a1a8", "d2d8", "a8d8"]);
        assert!(p.themes.iter().any(|t| t == "mateIn2"), "{:?}", p.themes);
        assert!(p.id.starts_with("py") && p.id.len() == 8, "{}", p.id);
        assert!((RATING_FLOOR..=3000).contains(&p.rating));
        let row = p.csv();
        assert!(
            row.starts_with(&format!(
                "{},3r2k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1,d8d2 a1a8 d2d8 a8d8,",
                p.id
            )),
            "{row}"
        );
        // The row is one the importer accepts.
        let csv = format!("{HEADER}\n{row}\n");
        let read: Vec<_> = plyyard_puzzle::Reader::new(csv.as_bytes())
            .unwrap()
            .collect();
        assert!(read[0].is_ok(), "{:?}", read[0]);
    }

    #[test]
    fn the_line_ends_on_the_attackers_move() {
        let (pos, m) = at("3r2k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", "d8d2");
        let p = Generator::new(budget()).puzzle_at(&pos, m, 1, 1).unwrap();
        assert_eq!(p.line.solution.len() % 2, 1);
        let last = p.line.positions().pop().unwrap();
        assert!(last.is_checkmate());
        assert_eq!(last.turn(), !p.line.solver());
    }

    #[test]
    fn two_equally_good_moves_make_no_puzzle() {
        // The queen lands where two pawns take it: cxd4 and exd4 win alike.
        let (pos, m) = at(
            "rnbqkbnr/ppp2ppp/8/4p3/8/2P1P3/PP1P1PPP/RNBQKBNR b KQkq - 0 3",
            "d8d4",
        );
        let mut g = Generator::new(budget());
        let start = after(&pos, m);
        let first = g.analyse(&start, g.budget.judge, 2);
        let (judged, _) = g.follow(&start, first, g.budget.judge);
        assert!(!only_move(
            judged[0].best,
            judged[0].second,
            judged[0].mates
        ));
        assert!(g.puzzle_at(&pos, m, 1, 1).is_none());
    }

    #[test]
    fn one_move_puzzles_that_do_not_mate_are_rejected() {
        // Only Nxe5 wins the rook, and then nothing is forced any more.
        let (pos, m) = at("4r1k1/5ppp/8/8/8/5N2/PP3PPP/6K1 b - - 0 1", "e8e5");
        let mut g = Generator::new(budget());
        let start = after(&pos, m);
        let first = g.analyse(&start, g.budget.judge, 2);
        let (judged, played) = g.follow(&start, first, g.budget.judge);
        assert_eq!(uci(played[0]), "f3e5");
        assert!(only_move(judged[0].best, judged[0].second, judged[0].mates));
        assert!(g.puzzle_at(&pos, m, 1, 1).is_none());
    }

    #[test]
    fn a_mate_in_one_is_a_puzzle() {
        // The rook leaves the back rank for good: Rb8# at once.
        let (pos, m) = at("r5k1/8/6K1/8/8/8/8/1R6 b - - 0 1", "a8a2");
        let p = Generator::new(budget())
            .puzzle_at(&pos, m, 1, 1)
            .expect("mate in one");
        assert_eq!(p.line.solution_uci(), ["b1b8"]);
        assert!(p.themes.iter().any(|t| t == "mateIn1"));
    }

    #[test]
    fn a_second_search_is_made_only_when_it_can_change_the_verdict() {
        // The multipv line already refutes it: a search of its own could
        // only find a better second move.
        assert!(!may_be_only_move(
            Score::Cp(500),
            Some(Score::Cp(480)),
            false
        ));
        assert!(may_be_only_move(Score::Cp(900), Some(Score::Cp(0)), false));
        // A final mate in one: another mate in one may be found, and is allowed.
        assert!(may_be_only_move(
            Score::Mate(1),
            Some(Score::Cp(2000)),
            true
        ));
        assert!(!may_be_only_move(
            Score::Mate(2),
            Some(Score::Mate(3)),
            false
        ));
    }

    #[test]
    fn lost_positions_are_not_searched_for_mistakes() {
        assert!(lost_already(Score::Cp(-301)));
        assert!(lost_already(Score::Mate(-3)));
        assert!(!lost_already(Score::Cp(-300)));
        assert!(!lost_already(Score::Mate(2)));
        // The same rule as the criteria's: no candidate after such a position.
        assert_eq!(candidate(Score::Cp(-301).flip(), Score::Mate(1)), None);
        assert!(candidate(Score::Cp(-300).flip(), Score::Mate(1)).is_some());
    }

    #[test]
    fn ratings_follow_the_levels() {
        let solved = |s: [f64; 4]| {
            let mut g: Vec<(f64, f64)> =
                LEVEL_ELO.iter().zip(s).map(|(&(_, e), s)| (e, s)).collect();
            g.push((EXPERT_ELO, 0.0));
            performance(&g)
        };
        let easy = solved([0.0; 4]);
        let middling = solved([1.0, 1.0, 0.0, 0.0]);
        let hard = solved([1.0; 4]);
        assert!(easy < 900, "{easy}");
        assert!(
            easy < middling && middling < hard,
            "{easy} {middling} {hard}"
        );
        assert!(hard > 2000, "{hard}");
    }

    #[test]
    fn same_seed_same_puzzles() {
        let run = || {
            let mut out = Vec::new();
            generate(11, 1, 3, budget(), &mut out, &mut std::io::sink()).unwrap();
            out
        };
        assert_eq!(run(), run());
    }
}

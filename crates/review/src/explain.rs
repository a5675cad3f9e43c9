//! Why a move was labelled, as facts: each [`Explanation`] is established
//! by the rules core, [`plyyard_engine::tactics`] and the engine's lines, never
//! written freely. [`super::text`] turns them into sentences.
//!
//! The facts, in the order they are looked for:
//! 1. a forced mate the mover let go ([`Explanation::MissedMate`]);
//! 2. a forced mate the move gave the opponent ([`Explanation::AllowsMate`]);
//! 3. what the opponent's best reply does: an exchange on the square the
//!    mover captured on that loses material
//!    ([`Explanation::LosingExchange`]), a capture that wins a piece the
//!    move left hanging ([`Explanation::HangsPiece`]), or a
//!    move winning material, with its pattern when the board shows one
//!    ([`Explanation::AllowsWin`]);
//! 4. what the mover's best move would have won
//!    ([`Explanation::MissedWin`]), else simply the best move
//!    ([`Explanation::BestWas`]).
//!
//! Material is counted on the lessons' scale (pawn 1, knight and bishop 3,
//! rook 5, queen 9) along the engine's line, up to where its captures end.

use plyyard_engine::tactics;
use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Color, Move, Position, Role};

use super::label::{Judgement, MateChange};

/// Plies of a line within which a capture starts the material count.
const TALLY_PLIES: usize = 8;
/// Smallest gain (centipawns) worth naming as a win of material.
const WORTH_NAMING: i32 = 200;

/// A piece kind, as the review's data names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Piece {
    /// A pawn.
    Pawn,
    /// A knight.
    Knight,
    /// A bishop.
    Bishop,
    /// A rook.
    Rook,
    /// A queen.
    Queen,
    /// A king.
    King,
}

impl From<Role> for Piece {
    fn from(r: Role) -> Piece {
        match r {
            Role::Pawn => Piece::Pawn,
            Role::Knight => Piece::Knight,
            Role::Bishop => Piece::Bishop,
            Role::Rook => Piece::Rook,
            Role::Queen => Piece::Queen,
            Role::King => Piece::King,
        }
    }
}

impl Piece {
    /// Every piece kind.
    pub const ALL: [Piece; 6] = [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
        Piece::King,
    ];

    /// Lowercase name, as in the data.
    pub fn as_str(self) -> &'static str {
        match self {
            Piece::Pawn => "pawn",
            Piece::Knight => "knight",
            Piece::Bishop => "bishop",
            Piece::Rook => "rook",
            Piece::Queen => "queen",
            Piece::King => "king",
        }
    }
}

/// A tactical pattern the board shows after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// One piece attacks two targets.
    Fork,
    /// A piece cannot move without exposing one behind it.
    Pin,
    /// A valuable piece attacked along a line with another behind it.
    Skewer,
    /// Check from two pieces at once.
    DoubleCheck,
    /// A piece moves away and uncovers an attack.
    DiscoveredAttack,
    /// Mate by a rook or queen on the king's own back rank.
    BackRankMate,
}

impl Pattern {
    /// Every pattern.
    pub const ALL: [Pattern; 6] = [
        Pattern::Fork,
        Pattern::Pin,
        Pattern::Skewer,
        Pattern::DoubleCheck,
        Pattern::DiscoveredAttack,
        Pattern::BackRankMate,
    ];

    /// Name as in the data (`fork`, `double_check` …).
    pub fn as_str(self) -> &'static str {
        match self {
            Pattern::Fork => "fork",
            Pattern::Pin => "pin",
            Pattern::Skewer => "skewer",
            Pattern::DoubleCheck => "double_check",
            Pattern::DiscoveredAttack => "discovered_attack",
            Pattern::BackRankMate => "back_rank_mate",
        }
    }
}

/// A fact about a labelled move. SAN is English; the text layer localises
/// it. Amounts are centipawns on the lessons' scale.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Explanation {
    /// The mover had a forced mate starting with `san`.
    MissedMate {
        /// The first move of the mate.
        san: String,
        /// Its length in moves.
        moves: u32,
    },
    /// After the move, the opponent mates in `moves` starting with `san`.
    AllowsMate {
        /// The opponent's first move.
        san: String,
        /// Length of the mate in moves.
        moves: u32,
        /// Whether the mate (in one) is a back-rank mate.
        back_rank: bool,
    },
    /// The move left a piece that the opponent's `by` wins.
    HangsPiece {
        /// The piece lost.
        piece: Piece,
        /// Its square (`f6`).
        square: String,
        /// The opponent's capture.
        by: String,
        /// Whether nothing defended it.
        undefended: bool,
        /// Whether it was already en prise before the move (attacked and
        /// undefended, or attacked by a cheaper piece) and the move left it.
        #[serde(default)]
        already: bool,
    },
    /// The move started an exchange (captures on one square) that loses
    /// material. Pieces of one kind taken on both sides are left out.
    LosingExchange {
        /// The mover's pieces taken in it.
        given: Vec<Piece>,
        /// The opponent's pieces the mover takes.
        got: Vec<Piece>,
        /// The balance (negative).
        net: i32,
    },
    /// After the move, the opponent's `san` wins material.
    AllowsWin {
        /// The opponent's move.
        san: String,
        /// The pattern it makes, if one.
        pattern: Option<Pattern>,
        /// The most valuable piece it wins, if it wins a piece.
        wins: Option<Piece>,
        /// The material won.
        gain: i32,
    },
    /// The mover's best move `san` would have won material.
    MissedWin {
        /// The best move.
        san: String,
        /// Whether it gives check.
        check: bool,
        /// The pattern it makes, if one.
        pattern: Option<Pattern>,
        /// The most valuable piece it wins, if it wins a piece.
        wins: Option<Piece>,
        /// The material won.
        gain: i32,
    },
    /// The engine's best move.
    BestWas {
        /// The best move.
        san: String,
    },
}

/// What [`explain`] looks at.
#[derive(Debug, Clone, Copy)]
pub struct MoveFacts<'a> {
    /// The position before the move.
    pub pos: &'a Chess,
    /// The move played (legal in `pos`).
    pub played: Move,
    /// The engine's best line from `pos`.
    pub best: &'a [Move],
    /// The engine's best line after the move played (the opponent's).
    pub reply: &'a [Move],
    /// The move's label and mate change.
    pub judgement: &'a Judgement,
}

/// The facts explaining a labelled move, most important first.
pub fn explain(f: &MoveFacts) -> Vec<Explanation> {
    let mut out = Vec::new();
    let mut after = f.pos.clone();
    after.play_unchecked(f.played);
    match f.judgement.mate {
        Some(MateChange::Missed { moves }) => {
            if let Some(&m) = f.best.first() {
                out.push(Explanation::MissedMate {
                    san: san(f.pos, m),
                    moves,
                });
                return out;
            }
        }
        Some(MateChange::Allowed { moves }) => {
            if let Some(&m) = f.reply.first() {
                out.push(Explanation::AllowsMate {
                    san: san(&after, m),
                    moves,
                    back_rank: moves == 1 && tactics::back_rank_mate_after(&after, m).is_some(),
                });
            }
        }
        None => {}
    }
    if out.is_empty()
        && let Some(e) = what_the_reply_does(f, &after)
    {
        out.push(e);
    }
    if let Some(e) = what_was_missed(f) {
        out.push(e);
    }
    out
}

/// Facts 3: what the opponent's best reply does.
fn what_the_reply_does(f: &MoveFacts, after: &Chess) -> Option<Explanation> {
    let mover = f.pos.turn();
    let &reply = f.reply.first()?;
    if f.played.is_capture() {
        let square = f.played.to();
        let mut line = vec![f.played];
        line.extend(
            f.reply
                .iter()
                .take_while(|m| m.is_capture() && m.to() == square),
        );
        let t = tally(f.pos, &line, mover).without_trades();
        if t.settled && t.net <= -100 && line.len() > 1 {
            return Some(Explanation::LosingExchange {
                given: t.given,
                got: t.got,
                net: t.net,
            });
        }
    }
    let t = tally(after, f.reply, !mover);
    if !t.settled {
        return None;
    }
    let pattern = pattern_of(after, reply);
    // The piece taken is the point only when it is what the line wins: a
    // capture that also forks, pins … or starts a line winning more (a pawn
    // taken with check, then a rook) is told by what the line wins.
    if let Some(role) = reply.capture()
        && t.net >= 100
        && t.net <= tactics::value(role)
    {
        let square = reply.to();
        let already = f.played.from() != Some(square)
            && tactics::hanging(f.pos, mover)
                .iter()
                .any(|h| h.piece.square == square);
        return Some(Explanation::HangsPiece {
            piece: role.into(),
            square: square.to_string(),
            by: san(after, reply),
            undefended: tactics::defenders(after, square).is_empty(),
            already,
        });
    }
    let wins = t.best_got();
    (t.net >= WORTH_NAMING).then(|| Explanation::AllowsWin {
        san: san(after, reply),
        pattern: pattern_beside(reply, wins, pattern),
        wins,
        gain: t.net,
    })
}

/// Facts 4: what the best move would have achieved.
fn what_was_missed(f: &MoveFacts) -> Option<Explanation> {
    let &best = f.best.first()?;
    if best == f.played {
        return None;
    }
    let t = tally(f.pos, f.best, f.pos.turn());
    let mut after_best = f.pos.clone();
    after_best.play_unchecked(best);
    if t.settled && t.net >= WORTH_NAMING {
        let wins = t.best_got();
        return Some(Explanation::MissedWin {
            san: san(f.pos, best),
            check: after_best.is_check(),
            pattern: pattern_beside(best, wins, pattern_of(f.pos, best)),
            wins,
            gain: t.net,
        });
    }
    Some(Explanation::BestWas {
        san: san(f.pos, best),
    })
}

/// The pattern to name with "wins {piece}": none when the move simply
/// takes that piece (the capture, not the pattern, wins it).
fn pattern_beside(m: Move, wins: Option<Piece>, pattern: Option<Pattern>) -> Option<Pattern> {
    match (m.capture(), wins) {
        (Some(taken), Some(w)) if Piece::from(taken) == w => None,
        _ => pattern,
    }
}

/// The pattern the legal move `m` makes in `pos`, if any.
pub fn pattern_of(pos: &Chess, m: Move) -> Option<Pattern> {
    if tactics::back_rank_mate_after(pos, m).is_some() {
        return Some(Pattern::BackRankMate);
    }
    if tactics::double_check_after(pos, m).is_some() {
        return Some(Pattern::DoubleCheck);
    }
    if tactics::fork_after(pos, m).is_some() {
        return Some(Pattern::Fork);
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    let victim = after.turn();
    if tactics::skewers(&after, victim)
        .iter()
        .any(|s| s.attacker.square == m.to())
    {
        return Some(Pattern::Skewer);
    }
    if tactics::pins(&after, victim)
        .iter()
        .any(|p| p.pinner.square == m.to())
    {
        return Some(Pattern::Pin);
    }
    if !tactics::discoveries_after(pos, m).is_empty() {
        return Some(Pattern::DiscoveredAttack);
    }
    None
}

/// Material changing hands along a line, from one side's view.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Tally {
    /// What the side gains minus what it loses.
    net: i32,
    /// The side's pieces taken.
    given: Vec<Piece>,
    /// The other side's pieces the side takes.
    got: Vec<Piece>,
    /// The line goes on past its captures, or stops where nothing can be
    /// taken back: a line cut in the middle of an exchange settles nothing.
    settled: bool,
}

impl Tally {
    /// The same balance with the pieces of the same kind that changed
    /// hands both ways left out (a rook for a rook is no part of the loss).
    fn without_trades(mut self) -> Tally {
        let mut given = Vec::new();
        for p in self.given {
            match self.got.iter().position(|&g| g == p) {
                Some(i) => {
                    self.got.remove(i);
                }
                None => given.push(p),
            }
        }
        self.given = given;
        self
    }

    /// The piece the side can truly be said to win: the most valuable one
    /// it takes and does not give back in kind, worth more than what it
    /// gives for it (a queen for a bishop is a queen won). A bishop taken
    /// and a bishop lost is no bishop won, nor is a bishop for a knight.
    fn best_got(&self) -> Option<Piece> {
        let kept = self.clone().without_trades();
        let given: i32 = kept.given.iter().map(|&p| tactics::value(role_of(p))).sum();
        kept.got
            .iter()
            .copied()
            .filter(|&p| p != Piece::King && tactics::value(role_of(p)) - given >= 100)
            .max_by_key(|p| tactics::value(role_of(*p)))
    }
}

fn role_of(p: Piece) -> Role {
    match p {
        Piece::Pawn => Role::Pawn,
        Piece::Knight => Role::Knight,
        Piece::Bishop => Role::Bishop,
        Piece::Rook => Role::Rook,
        Piece::Queen => Role::Queen,
        Piece::King => Role::King,
    }
}

/// The material `side` wins along `line` from `pos`: every capture and
/// promotion up to the last one within [`TALLY_PLIES`] plies, and the
/// captures that follow it without a pause.
fn tally(pos: &Chess, line: &[Move], side: Color) -> Tally {
    let events = |m: &Move| m.is_capture() || m.is_promotion();
    let mut end = line
        .iter()
        .take(TALLY_PLIES)
        .rposition(events)
        .map_or(0, |i| i + 1);
    while end < line.len() && line[end].is_capture() {
        end += 1;
    }
    let mut t = Tally {
        settled: true,
        ..Tally::default()
    };
    let mut pos = pos.clone();
    for &m in &line[..end] {
        if !pos.is_legal(m) {
            t.settled = false;
            break;
        }
        let ours = pos.turn() == side;
        let sign = if ours { 1 } else { -1 };
        if let Some(role) = m.capture() {
            t.net += sign * tactics::value(role);
            if ours {
                t.got.push(role.into());
            } else {
                t.given.push(role.into());
            }
        }
        if let Some(p) = m.promotion() {
            t.net += sign * (tactics::value(p) - tactics::value(Role::Pawn));
        }
        pos.play_unchecked(m);
    }
    if t.settled
        && end == line.len()
        && let Some(last) = line.last().filter(|m| m.is_capture())
    {
        let square = last.to();
        t.settled = !pos
            .legal_moves()
            .iter()
            .any(|m| m.to() == square && m.is_capture());
    }
    t
}

fn san(pos: &Chess, m: Move) -> String {
    plyyard_game::notation::san(pos, m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn line(pos: &Chess, ucis: &[&str]) -> Vec<Move> {
        let mut p = pos.clone();
        ucis.iter()
            .map(|u| {
                let m = u.parse::<UciMove>().unwrap().to_move(&p).unwrap();
                p.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn tally_counts_until_the_captures_end() {
        // White's Bxf7+ Kxf7 Ng5+ Ke8: a bishop for a pawn.
        let p = pos("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let l = line(&p, &["c4f7", "e8f7", "f3g5", "f7e8"]);
        let t = tally(&p, &l, Color::White);
        assert_eq!(t.net, 100 - 300);
        assert_eq!(t.got, vec![Piece::Pawn]);
        assert_eq!(t.given, vec![Piece::Bishop]);
        assert_eq!(tally(&p, &l, Color::Black).net, 200);
        assert_eq!(
            tally(&p, &[], Color::White),
            Tally {
                settled: true,
                ..Tally::default()
            }
        );
        // Cut right after Bxf7+, where the king can take back: nothing is settled.
        assert!(!tally(&p, &l[..1], Color::White).settled);
        let trades = Tally {
            net: -400,
            given: vec![Piece::Rook, Piece::Rook],
            got: vec![Piece::Pawn, Piece::Rook],
            settled: true,
        };
        assert_eq!(
            trades.without_trades(),
            Tally {
                net: -400,
                given: vec![Piece::Rook],
                got: vec![Piece::Pawn],
                settled: true,
            }
        );
    }

    #[test]
    fn patterns_are_named() {
        let p = pos("r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1");
        assert_eq!(pattern_of(&p, line(&p, &["d5c7"])[0]), Some(Pattern::Fork));
        let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(
            pattern_of(&p, line(&p, &["a1a8"])[0]),
            Some(Pattern::BackRankMate)
        );
        let p = pos("8/1k6/8/3q4/8/8/8/4K2B w - - 0 1");
        assert_eq!(pattern_of(&p, line(&p, &["h1e4"])[0]), Some(Pattern::Pin));
        let p = pos("8/8/8/q2k4/8/8/8/6KR w - - 0 1");
        assert_eq!(
            pattern_of(&p, line(&p, &["h1h5"])[0]),
            Some(Pattern::Skewer)
        );
    }

    #[test]
    fn a_piece_left_en_prise_is_told_apart_from_one_put_there() {
        let blunder = Judgement {
            label: Some(super::super::label::Label::Blunder),
            mate: None,
            loss: 0.9,
        };
        // The pawn on d5 already attacks the queen; Ke2 does nothing about it.
        let p = pos("7k/8/8/3p4/4Q3/8/8/4K3 w - - 0 1");
        let (played, best) = (line(&p, &["e1e2"])[0], line(&p, &["e4d5"]));
        let mut after = p.clone();
        after.play_unchecked(played);
        let reply = line(&after, &["d5e4"]);
        let facts = MoveFacts {
            pos: &p,
            played,
            best: &best,
            reply: &reply,
            judgement: &blunder,
        };
        assert_eq!(
            explain(&facts),
            vec![
                Explanation::HangsPiece {
                    piece: Piece::Queen,
                    square: "e4".into(),
                    by: "dxe4".into(),
                    undefended: true,
                    already: true,
                },
                Explanation::BestWas { san: "Qxd5".into() },
            ]
        );
        // Qc4?? walks into the pawn's other capture: not "already".
        let played = line(&p, &["e4c4"])[0];
        let mut after = p.clone();
        after.play_unchecked(played);
        let reply = line(&after, &["d5c4"]);
        let facts = MoveFacts {
            played,
            reply: &reply,
            ..facts
        };
        assert!(matches!(
            explain(&facts)[0],
            Explanation::HangsPiece { already: false, .. }
        ));
    }

    #[test]
    fn a_pawn_taken_with_check_that_wins_a_rook_is_told_as_winning_the_rook() {
        // Issue 58: after ...h6, Bxf7+ Kxf7 Qxa8 wins a rook for the bishop;
        // the review said the pawn on f7 was what Bxf7+ won.
        let mistake = Judgement {
            label: Some(super::super::label::Label::Mistake),
            mate: None,
            loss: 0.2,
        };
        let p = pos("r3k3/5p1p/8/8/2B5/8/8/6KQ b - - 0 1");
        let played = line(&p, &["h7h6"])[0];
        let mut after = p.clone();
        after.play_unchecked(played);
        let reply = line(&after, &["c4f7", "e8f7", "h1a8"]);
        let best = line(&p, &["e8d7"]);
        let facts = MoveFacts {
            pos: &p,
            played,
            best: &best,
            reply: &reply,
            judgement: &mistake,
        };
        let t = tally(&after, &reply, Color::White);
        let got = explain(&facts);
        match &got[0] {
            Explanation::AllowsWin {
                san, wins, gain, ..
            } => {
                assert_eq!(san, "Bxf7+");
                assert_eq!(*wins, Some(Piece::Rook), "{got:?}");
                assert_eq!(*gain, t.net);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn data_names_are_stable() {
        let e = Explanation::HangsPiece {
            piece: Piece::Knight,
            square: "f6".into(),
            by: "Qxf6".into(),
            undefended: true,
            already: false,
        };
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "hangs_piece", "piece": "knight", "square": "f6", "by": "Qxf6", "undefended": true, "already": false})
        );
        for p in Pattern::ALL {
            assert_eq!(serde_json::to_value(p).unwrap(), p.as_str());
        }
        for p in Piece::ALL {
            assert_eq!(serde_json::to_value(p).unwrap(), p.as_str());
        }
    }
}

//! The tagger on random legal lines: it never panics, and every line gets
//! exactly one length and one phase, and mate themes exactly when the line
//! ends in checkmate.

use plyyard_game::shakmaty::{Chess, Position};
use plyyard_puzzle::tagger::tag;
use plyyard_puzzle::{Group, Line, Theme};

/// A small deterministic generator (64-bit LCG), enough to pick moves.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

fn random_game(rng: &mut Lcg, plies: usize) -> (Vec<Chess>, Vec<plyyard_game::shakmaty::Move>) {
    let mut pos = Chess::default();
    let (mut positions, mut moves) = (vec![pos.clone()], Vec::new());
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        // Prefer captures and checks now and then, so lines have tactics.
        let checks = |m: &plyyard_game::shakmaty::Move| {
            let mut next = pos.clone();
            next.play_unchecked(*m);
            next.is_check()
        };
        let forcing: Vec<_> = legal
            .iter()
            .copied()
            .filter(|m| m.is_capture() || checks(m))
            .collect();
        let m = if !forcing.is_empty() && rng.below(2) == 0 {
            forcing[rng.below(forcing.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        pos.play_unchecked(m);
        positions.push(pos.clone());
        moves.push(m);
    }
    (positions, moves)
}

#[test]
fn random_lines_get_one_length_and_one_phase() {
    let mut rng = Lcg(7);
    let mut lines = 0;
    for _ in 0..150 {
        let (positions, moves) = random_game(&mut rng, 120);
        for start in (0..moves.len().saturating_sub(1)).step_by(5) {
            let solution = 1 + 2 * rng.below(4);
            let end = (start + 1 + solution).min(moves.len());
            if (end - start - 1) % 2 == 0 {
                continue;
            }
            let line =
                Line::from_moves(positions[start].clone(), moves[start..end].to_vec()).unwrap();
            let themes = tag(&line, None);
            let count = |g: Group| themes.iter().filter(|t| t.group() == g).count();
            assert_eq!(count(Group::Lengths), 1, "{themes:?}");
            let phases = [Theme::Opening, Theme::Middlegame, Theme::Endgame];
            assert_eq!(themes.iter().filter(|t| phases.contains(t)).count(), 1);
            let mated = positions[end].is_checkmate();
            assert_eq!(themes.contains(&Theme::Mate), mated);
            if !mated {
                assert!(!themes.iter().any(|t| t.is_named_mate()), "{themes:?}");
            }
            lines += 1;
        }
    }
    assert!(lines > 1000, "{lines}");
}

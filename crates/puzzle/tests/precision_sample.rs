//! A guard on the tagger's measured precision (docs/puzzles.md): on the
//! sample's complete rows (those that kept a length and a goal key), the
//! themes we give must mostly be lichess's too. The thresholds sit a
//! little under today's figures so that a rule made looser fails here.

mod common;

use std::collections::HashMap;
use std::fs::File;

use plyyard_puzzle::import::Reader;
use plyyard_puzzle::tagger::tag;
use plyyard_puzzle::{Puzzle, Theme};

fn complete(p: &Puzzle) -> bool {
    use Theme::*;
    let any = |list: &[Theme]| list.iter().any(|&t| p.has(t));
    any(&[OneMove, Short, Long, VeryLong]) && any(&[Mate, Crushing, Advantage, Equality])
}

#[test]
fn precision_on_the_sample_holds() {
    let file = File::open(common::sample_path()).expect("the lichess sample beside the repo");
    let mut counts: HashMap<Theme, (u32, u32)> = HashMap::new();
    for p in Reader::new(file).unwrap().flatten().filter(complete) {
        for t in tag(&p.line().unwrap(), None) {
            let c = counts.entry(t).or_default();
            c.0 += 1;
            c.1 += u32::from(p.has(t));
        }
    }
    let floors = [
        (Theme::Mate, 1.0),
        (Theme::MateIn1, 1.0),
        (Theme::MateIn2, 1.0),
        (Theme::OneMove, 1.0),
        (Theme::Short, 1.0),
        (Theme::Long, 1.0),
        (Theme::Endgame, 1.0),
        (Theme::Middlegame, 0.97),
        (Theme::Opening, 0.9),
        (Theme::RookEndgame, 0.97),
        (Theme::BackRankMate, 0.97),
        (Theme::KingsideAttack, 0.95),
        (Theme::Fork, 0.95),
        (Theme::Sacrifice, 0.95),
        (Theme::AdvancedPawn, 0.95),
        (Theme::Deflection, 0.9),
        (Theme::HangingPiece, 0.95),
        (Theme::DiscoveredAttack, 0.9),
        (Theme::Pin, 0.95),
        (Theme::DefensiveMove, 0.9),
        (Theme::Skewer, 0.9),
        (Theme::Attraction, 0.9),
    ];
    for (theme, floor) in floors {
        let (tagged, agreed) = counts.get(&theme).copied().unwrap_or_default();
        assert!(tagged >= 10, "{theme}: only {tagged} tagged");
        let precision = f64::from(agreed) / f64::from(tagged);
        assert!(
            precision >= floor,
            "{theme}: {agreed}/{tagged} = {precision:.2} < {floor}"
        );
    }
}

//! The importer on lichess's sample (1,499 rows read in place).

mod common;

use std::fs::File;

use plyyard_puzzle::import::{Reader, RowProblem};
use plyyard_puzzle::record::Invalid;

#[test]
fn every_sample_row_is_a_puzzle_or_a_named_error() {
    let file = File::open(common::sample_path()).expect("the lichess sample beside the repo");
    let (mut ok, mut errors) = (Vec::new(), Vec::new());
    for item in Reader::new(file).unwrap() {
        match item {
            Ok(p) => ok.push(p),
            Err(e) => errors.push(e),
        }
    }
    assert_eq!(ok.len() + errors.len(), 1499);
    // The sample's damaged ids (a spreadsheet's doing) are refused, with
    // their line numbers; nothing else is.
    let bad_ids: Vec<(u64, &str)> = errors
        .iter()
        .map(|e| {
            assert!(
                matches!(e.reason, RowProblem::Invalid(Invalid::Id(_))),
                "{e}"
            );
            (e.line, e.id.as_str())
        })
        .collect();
    assert_eq!(bad_ids.len(), 7, "{bad_ids:?}");
    assert!(bad_ids.iter().any(|&(_, id)| id == "6E+087"));
    assert!(bad_ids.iter().all(|&(line, _)| line >= 2));
    // Each puzzle's initialPly is the ply before its game URL's anchor,
    // which points at the position after the opponent's move.
    for p in &ok {
        let anchor: u32 = p.game_url.rsplit('#').next().unwrap().parse().unwrap();
        assert_eq!(p.initial_ply + 1, anchor, "{}", p.id);
        assert_eq!(p.solution.len() % 2, 1);
        assert!(
            p.unknown_themes.is_empty(),
            "{}: {:?}",
            p.id,
            p.unknown_themes
        );
    }
}

#[test]
fn a_missing_column_is_refused() {
    let csv = "PuzzleId,FEN,Moves\n000rZ,x,y\n";
    assert!(Reader::new(csv.as_bytes()).is_err());
}

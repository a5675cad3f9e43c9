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

#[test]
fn short_rows_and_unreadable_rows_are_row_errors() {
    let csv = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n\
               000rZ,2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 13,d4e6 d6h2\n\
               001KR,6Qk/p1p3pp/4N3/1p6/2q1r1n1/2B5/PP4PP/3R1R1K b - - 0 28,h8g8 f1f8,588,81,100,177,mate newMate mate,,\n";
    let items: Vec<_> = Reader::new(csv.as_bytes()).unwrap().collect();
    let short = items[0].as_ref().unwrap_err();
    assert_eq!((short.line, short.id.as_str()), (2, "000rZ"));
    assert!(
        matches!(
            short.reason,
            RowProblem::Invalid(Invalid::Missing("Rating"))
        ),
        "{short}"
    );
    let ok = items[1].as_ref().unwrap();
    assert_eq!(ok.themes, [plyyard_puzzle::Theme::Mate]);
    assert_eq!(ok.unknown_themes, ["newMate"]);
    let bytes = b"PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n\xff\xfe,x,y,1,1,1,1,,,\n";
    let bad: Vec<_> = Reader::new(&bytes[..]).unwrap().collect();
    assert!(matches!(
        bad[0].as_ref().unwrap_err().reason,
        RowProblem::Csv(_)
    ));
}

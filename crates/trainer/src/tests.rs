//! The trainer on each store backend, over lichess's sample of its
//! puzzle database (`../shared/data/puzzles/lichess-sample.csv`, read in
//! place).

use std::collections::HashSet;
use std::path::PathBuf;

use plyyard_puzzle::{Angle, Difficulty, Theme};
use plyyard_store::testing::stores;

use crate::{Trainer, TrainerError};

fn sample() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/puzzles/lichess-sample.csv")
}

#[tokio::test]
async fn the_sample_imports_once_and_serves_without_repeats() {
    for (_dir, store) in stores().await {
        let trainer = Trainer::new(store.clone());
        let mut refused = Vec::new();
        let file = std::fs::File::open(sample()).unwrap();
        let report = trainer
            .import(file, |e| refused.push(e.line))
            .await
            .unwrap();
        assert_eq!(report.rows, 1499);
        assert_eq!(report.imported + report.refused, report.rows);
        assert_eq!(report.refused as usize, refused.len());
        assert!(report.imported > 1400, "{report:?}");
        // Again: nothing new, nothing lost.
        let again = trainer
            .import(std::fs::File::open(sample()).unwrap(), |_| {})
            .await
            .unwrap();
        assert_eq!((again.imported, again.already), (0, report.imported));

        // A malformed row is refused, the good one kept.
        let csv = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n\
                   zzzz1,8/8/8/8/8/8/8/8 w - - 0 1,e2e4 e7e5,1500,80,90,10,mate,,\n";
        let bad = trainer.import(csv.as_bytes(), |_| {}).await.unwrap();
        assert_eq!((bad.rows, bad.refused, bad.imported), (1, 1, 0));

        // Walking the mix: no puzzle twice while unseen ones remain.
        let mut seen = HashSet::new();
        for _ in 0..10 {
            let batch = trainer
                .next("anon1", &Angle::Mix, Difficulty::Normal, 20, 1)
                .await
                .unwrap();
            assert_eq!(batch.len(), 20);
            for p in &batch {
                assert!(seen.insert(p.id.clone()), "{} served twice", p.id);
            }
        }
        let forks = trainer
            .next(
                "anon1",
                &Angle::Theme(Theme::Fork),
                Difficulty::Harder,
                5,
                2,
            )
            .await
            .unwrap();
        assert!(
            forks
                .iter()
                .all(|p| p.themes.split(' ').any(|t| t == "fork"))
        );
        assert!(matches!(
            trainer
                .next("anon1", &Angle::Mix, Difficulty::Normal, 51, 3)
                .await,
            Err(TrainerError::Invalid(_))
        ));

        // Solving: a served puzzle rated once, an unserved one refused.
        store
            .create_account("acct", "Solver", "h", 1)
            .await
            .unwrap();
        let served = trainer
            .next("acct", &Angle::Mix, Difficulty::Normal, 2, 5)
            .await
            .unwrap();
        let id = served[0].id.clone();
        let rounds = trainer
            .solve("acct", true, &Angle::Mix, &[(id.clone(), true, true)], 6)
            .await
            .unwrap();
        assert!(rounds[0].rating_diff.is_some_and(|d| d > 0), "{rounds:?}");
        let replay = trainer
            .solve("acct", true, &Angle::Mix, &[(id.clone(), false, true)], 7)
            .await
            .unwrap();
        assert_eq!(replay[0].rating_diff, None);
        let (rating, games) = trainer.rating("acct").await.unwrap();
        assert!(rating.rating > 1500.0 && games == 1);
        // Served to anon1, never to acct (acct's two may be among anon1's).
        let unserved = seen
            .iter()
            .find(|id| served.iter().all(|p| &p.id != *id))
            .unwrap()
            .clone();
        assert!(matches!(
            trainer
                .solve("acct", true, &Angle::Mix, &[(unserved, true, true)], 8)
                .await,
            Err(TrainerError::NotServed(_))
        ));
        // An anonymous round is recorded, never rated.
        let anon = trainer
            .solve(
                "anon1",
                false,
                &Angle::Mix,
                &[(forks[0].id.clone(), true, true)],
                9,
            )
            .await
            .unwrap();
        assert_eq!(anon[0].rating_diff, None);
        assert_eq!(trainer.history("acct", 0, 10).await.unwrap().len(), 1);

        let d1 = trainer.daily(20_000).await.unwrap();
        assert_eq!(trainer.daily(20_000).await.unwrap().id, d1.id);
        assert!(matches!(
            trainer.show("nope!", None, 1).await,
            Err(TrainerError::NotFound)
        ));
    }
}

#[tokio::test]
async fn shipped_puzzles_load_once_with_their_origin() {
    use std::io::Write;
    let csv = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n\
               pyAAAAA1,3r2k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1,d8d2 a1a8 d2d8 a8d8,900,150,0,0,mate mateIn2,,\n\
               pyAAAAA2,r5k1/8/6K1/8/8/8/8/1R6 b - - 0 1,a8a2 b1b8,700,150,0,0,mate mateIn1,,\n";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(csv.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let shipped_rows = crate::shipped::csv().unwrap().lines().count() as u64 - 1;
    for (_dir, store) in stores().await {
        let first = crate::shipped::load_file(&store, &gz)
            .await
            .unwrap()
            .expect("loaded");
        assert_eq!((first.rows, first.imported, first.refused), (2, 2, 0));
        // Already there: nothing is read again.
        assert!(
            crate::shipped::load_file(&store, &gz)
                .await
                .unwrap()
                .is_none()
        );
        let row = store.puzzle("pyAAAAA2").await.unwrap().expect("stored");
        assert_eq!(row.source, "plyyard");
        let shown = Trainer::new(store.clone())
            .show("pyAAAAA2", None, 1)
            .await
            .unwrap();
        assert_eq!(shown.moves, "a8a2 b1b8");
        // The file the binary ships loads whole too.
        let report = crate::shipped::load(&store).await.unwrap();
        let report = report.unwrap_or_default();
        assert_eq!(report.refused, 0);
        assert_eq!(report.imported + report.already, report.rows);
        assert_eq!(report.rows, if shipped_rows > 0 { shipped_rows } else { 0 });
    }
}

/// `n` rows made from the sample's good rows with new five-letter ids
/// (`b` and four base-36 digits of `id_of(i)` for row `i`), the header
/// first.
fn many_rows(n: usize, id_of: impl Fn(usize) -> usize) -> String {
    let text = std::fs::read_to_string(sample()).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let good: Vec<&str> = lines
        .filter(|l| {
            let id = l.split(',').next().unwrap();
            plyyard_puzzle::Reader::new(format!("{header}\n{l}\n").as_bytes())
                .unwrap()
                .all(|r| r.is_ok())
                && id.len() == 5
        })
        .collect();
    let id = |i: usize| {
        let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
        let mut s = String::from("b");
        let mut v = i;
        for _ in 0..4 {
            s.insert(1, char::from(digits[v % 36]));
            v /= 36;
        }
        s
    };
    let mut out = format!("{header}\n");
    for i in 0..n {
        let row = good[i % good.len()];
        let rest = row.split_once(',').unwrap().1;
        out.push_str(&format!("{},{rest}\n", id(id_of(i))));
    }
    out
}

#[tokio::test]
async fn batches_written_at_once_store_each_puzzle_once() {
    // Five batches; the last 1,000 rows repeat ids of the first batch and
    // 500 rows of the third batch repeat ids of the second, which may be
    // written at the same time (PostgreSQL).
    let rows = 4 * crate::import::BATCH + 1_000;
    let id_of = |i: usize| match i {
        i if i >= 4 * crate::import::BATCH => i - 4 * crate::import::BATCH,
        i if (2 * crate::import::BATCH..2 * crate::import::BATCH + 500).contains(&i) => {
            i - crate::import::BATCH
        }
        i => i,
    };
    let csv = many_rows(rows, id_of);
    let distinct = (0..rows).map(id_of).collect::<HashSet<_>>().len() as u64;
    for (_dir, store) in stores().await {
        let trainer = Trainer::new(store.clone());
        let report = trainer
            .import(std::io::Cursor::new(csv.clone().into_bytes()), |_| {})
            .await
            .unwrap();
        assert_eq!(report.rows, rows as u64);
        assert_eq!(report.refused, 0);
        assert_eq!(report.imported, distinct, "{report:?}");
        assert_eq!(report.already, rows as u64 - distinct);
        assert_eq!(store.puzzle_count().await.unwrap(), distinct);
        // Every stored puzzle is in the mix once, and nothing else is.
        let mix = store
            .angle_walk("mix", (i64::MIN, ""), i64::MAX, 100_000)
            .await
            .unwrap();
        let ids: HashSet<String> = mix.iter().map(|(_, id)| id.clone()).collect();
        assert_eq!((mix.len() as u64, ids.len() as u64), (distinct, distinct));
        for id in ids.iter().step_by(997) {
            assert!(store.puzzle(id).await.unwrap().is_some(), "{id}");
        }
        let again = trainer
            .import(std::io::Cursor::new(csv.clone().into_bytes()), |_| {})
            .await
            .unwrap();
        assert_eq!((again.imported, again.already), (0, rows as u64));
    }
}

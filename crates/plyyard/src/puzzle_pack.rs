//! `plyyard puzzles pack`: the generator's CSV chunks merged into the
//! compact file the site ships (`data/puzzles.csv.gz`, loaded into the
//! store by the server at start-up): every row checked again by the
//! importer's rules, duplicates (the same position after the same
//! mistake) dropped, up to `--max` puzzles spread evenly over rating bands
//! of 100 from 600 to 2,600, written sorted by id and gzip-compressed.

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use plyyard_game::shakmaty::EnPassantMode;
use plyyard_game::shakmaty::fen::Epd;
use plyyard_puzzle::{Puzzle, Reader};

/// Lowest and highest rating band (ratings outside fall into the end bands).
const BANDS: (i32, i32) = (600, 2600);
/// Width of a rating band.
const BAND: i32 = 100;

/// Arguments of `plyyard puzzles pack`.
#[derive(Debug, clap::Args)]
pub struct PackArgs {
    /// The generator's CSV files (lichess's columns).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The compressed file to write (gzip CSV).
    #[arg(long, default_value = "data/puzzles.csv.gz")]
    pub out: PathBuf,
    /// Most puzzles kept.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub max: u64,
}

/// Runs `plyyard puzzles pack`: prints one JSON line with what it did.
pub fn run(args: &PackArgs) -> ExitCode {
    match pack(args) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn pack(args: &PackArgs) -> Result<serde_json::Value, String> {
    let mut seen = HashSet::new();
    let (mut rows, mut refused, mut duplicates) = (0u64, 0u64, 0u64);
    let mut kept = Vec::new();
    for path in &args.files {
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let reader = Reader::new(std::io::BufReader::new(file))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        for row in reader {
            rows += 1;
            let Ok(p) = row else {
                refused += 1;
                continue;
            };
            if !seen.insert(position_key(&p)?) {
                duplicates += 1;
                continue;
            }
            kept.push(p);
        }
    }
    let chosen = spread(kept, usize::try_from(args.max).unwrap_or(usize::MAX));
    write_gz(&args.out, &chosen)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    let ratings: Vec<i32> = chosen.iter().map(|p| p.rating).collect();
    Ok(serde_json::json!({
        "rows": rows,
        "refused": refused,
        "duplicates": duplicates,
        "written": chosen.len(),
        "min_rating": ratings.iter().min(),
        "max_rating": ratings.iter().max(),
        "out": args.out.display().to_string(),
    }))
}

/// The position after the mistake, as an EPD: two rows with the same key
/// are the same puzzle.
fn position_key(p: &Puzzle) -> Result<String, String> {
    let line = p.line().map_err(|e| format!("{}: {e}", p.id))?;
    Ok(Epd::from_position(&line.start(), EnPassantMode::Legal).to_string())
}

/// Up to `max` puzzles taken in turn from each rating band (lowest id
/// first within a band), sorted by id.
pub fn spread(puzzles: Vec<Puzzle>, max: usize) -> Vec<Puzzle> {
    let mut bands: BTreeMap<i32, Vec<Puzzle>> = BTreeMap::new();
    for p in puzzles {
        let band = (p.rating.clamp(BANDS.0, BANDS.1 - 1) - BANDS.0) / BAND;
        bands.entry(band).or_default().push(p);
    }
    for band in bands.values_mut() {
        // Reversed, so that `pop` takes the lowest id first.
        band.sort_by(|a, b| b.id.cmp(&a.id));
    }
    let mut chosen = Vec::new();
    while chosen.len() < max && bands.values().any(|b| !b.is_empty()) {
        for band in bands.values_mut() {
            if chosen.len() < max
                && let Some(p) = band.pop()
            {
                chosen.push(p);
            }
        }
    }
    chosen.sort_by(|a, b| a.id.cmp(&b.id));
    chosen
}

/// One CSV row in lichess's columns.
pub fn csv_row(p: &Puzzle) -> String {
    let mut moves = p.opponent_move.clone();
    for m in &p.solution {
        moves.push(' ');
        moves.push_str(m);
    }
    let themes: Vec<&str> = p.themes.iter().map(|t| t.key()).collect();
    format!(
        "{},{},{moves},{},{},{},{},{},{},{}",
        p.id,
        p.fen,
        p.rating,
        p.rating_deviation,
        p.popularity,
        p.plays,
        themes.join(" "),
        p.game_url,
        p.opening_tags.join(" ")
    )
}

fn write_gz(path: &std::path::Path, puzzles: &[Puzzle]) -> std::io::Result<()> {
    let file = std::fs::File::create(path)?;
    let mut gz =
        flate2::write::GzEncoder::new(std::io::BufWriter::new(file), flate2::Compression::best());
    writeln!(gz, "{}", crate::puzzle_gen::HEADER)?;
    for p in puzzles {
        writeln!(gz, "{}", csv_row(p))?;
    }
    gz.finish()?.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "3r2k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1";

    fn rows(list: &[(&str, &str, i32)]) -> String {
        let mut csv = format!("{}\n", crate::puzzle_gen::HEADER);
        for (id, first, rating) in list {
            csv.push_str(&format!(
                "{id},{FEN},{first} a1a8 d2d8 a8d8,{rating},150,0,0,mate mateIn2,,\n"
            ));
        }
        csv
    }

    fn read(csv: &str) -> Vec<Puzzle> {
        Reader::new(csv.as_bytes())
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn the_pick_spreads_over_the_rating_bands() {
        let all = read(&rows(&[
            ("pyAAAAA3", "d8d2", 650),
            ("pyAAAAA1", "d8d2", 660),
            ("pyAAAAA2", "d8d2", 670),
            ("pyAAAAA5", "d8d2", 1500),
            ("pyAAAAA4", "d8d2", 2900),
        ]));
        let ids: Vec<String> = spread(all.clone(), 3).into_iter().map(|p| p.id).collect();
        assert_eq!(ids, ["pyAAAAA1", "pyAAAAA4", "pyAAAAA5"]);
        assert_eq!(spread(all, 10).len(), 5);
    }

    #[test]
    fn packing_drops_duplicates_and_bad_rows_and_compresses() {
        let dir = std::env::temp_dir().join(format!("plyyard-pack-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a.csv");
        let b = dir.join("b.csv");
        std::fs::write(&a, rows(&[("pyAAAAA1", "d8d2", 900)])).unwrap();
        // The same position after the same mistake, under another id; and
        // a row whose mistake is illegal.
        std::fs::write(
            &b,
            rows(&[("pyAAAAA2", "d8d2", 1200), ("pyAAAAA3", "d8d1", 900)]),
        )
        .unwrap();
        let out = dir.join("p.csv.gz");
        let report = pack(&PackArgs {
            files: vec![a, b],
            out: out.clone(),
            max: 100,
        })
        .unwrap();
        assert_eq!(report["rows"], 3);
        assert_eq!(report["duplicates"], 1);
        assert_eq!(report["refused"], 1);
        assert_eq!(report["written"], 1);
        let mut text = String::new();
        use std::io::Read;
        flate2::read::GzDecoder::new(std::fs::File::open(&out).unwrap())
            .read_to_string(&mut text)
            .unwrap();
        let back = read(&text);
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].id, "pyAAAAA1");
        assert_eq!(csv_row(&back[0]), text.lines().nth(1).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

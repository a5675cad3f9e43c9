//! The streaming reader of lichess's puzzle database CSV: one item per
//! data row, either a validated [`Puzzle`] or a [`RowError`] with the
//! row's line number and the reason. Columns are found by their header
//! names, so extra columns (the `DailyDate` of some exports) are ignored.

use std::io::Read;

use csv::{ByteRecord, ReaderBuilder};

use crate::puzzle::Puzzle;
use crate::record::{Invalid, Row};

/// The columns the reader needs, in lichess's order.
pub const COLUMNS: [&str; 10] = [
    "PuzzleId",
    "FEN",
    "Moves",
    "Rating",
    "RatingDeviation",
    "Popularity",
    "NbPlays",
    "Themes",
    "GameUrl",
    "OpeningTags",
];

/// The file cannot be read as a puzzle CSV at all.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The header lacks a needed column.
    #[error("the header has no {0} column")]
    MissingColumn(&'static str),
    /// Reading or CSV syntax failed before the first row.
    #[error("reading the header: {0}")]
    Csv(#[from] csv::Error),
}

/// Why one row was refused.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct RowError {
    /// 1-based line number in the file (the header is line 1).
    pub line: u64,
    /// The puzzle id as written, if the row had one.
    pub id: String,
    /// What is wrong.
    pub reason: RowProblem,
}

/// What is wrong with a row.
#[derive(Debug, thiserror::Error)]
pub enum RowProblem {
    /// A field is invalid.
    #[error(transparent)]
    Invalid(#[from] Invalid),
    /// The row is not valid CSV or not UTF-8.
    #[error("unreadable row: {0}")]
    Csv(String),
}

/// Streams puzzles from a CSV source.
///
/// # Examples
/// ```
/// use plyyard_puzzle::import::Reader;
/// let csv = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n\
///            000rZ,2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 13,d4e6 d6h2,633,93,100,616,mate mateIn1,,\n\
///            4990,8/8/8/8/8/8/8/8 w - - 0 1,,1,1,1,1,,,\n";
/// let rows: Vec<_> = Reader::new(csv.as_bytes()).unwrap().collect();
/// assert_eq!(rows[0].as_ref().unwrap().initial_ply, 24);
/// assert_eq!(rows[1].as_ref().unwrap_err().line, 3);
/// ```
pub struct Reader<R> {
    csv: csv::Reader<R>,
    index: [usize; 10],
    record: ByteRecord,
    stopped: bool,
}

impl<R: Read> Reader<R> {
    /// A reader over `source`, after checking its header.
    pub fn new(source: R) -> Result<Reader<R>, ImportError> {
        let mut csv = ReaderBuilder::new()
            .has_headers(true)
            .flexible(true)
            .from_reader(source);
        let header = csv.byte_headers()?.clone();
        let mut index = [0; 10];
        for (slot, name) in index.iter_mut().zip(COLUMNS) {
            *slot = header
                .iter()
                .position(|h| h == name.as_bytes())
                .ok_or(ImportError::MissingColumn(name))?;
        }
        Ok(Reader {
            csv,
            index,
            record: ByteRecord::new(),
            stopped: false,
        })
    }

    fn field(&self, column: usize) -> Result<&str, RowProblem> {
        let bytes = self
            .record
            .get(self.index[column])
            .ok_or(Invalid::Missing(COLUMNS[column]))?;
        std::str::from_utf8(bytes).map_err(|e| RowProblem::Csv(e.to_string()))
    }

    fn row(&self) -> Result<Row<'_>, RowProblem> {
        Ok(Row {
            id: self.field(0)?,
            fen: self.field(1)?,
            moves: self.field(2)?,
            rating: self.field(3)?,
            rating_deviation: self.field(4)?,
            popularity: self.field(5)?,
            plays: self.field(6)?,
            themes: self.field(7)?,
            game_url: self.field(8)?,
            opening_tags: self.field(9)?,
        })
    }

    fn current(&self) -> Result<Puzzle, RowError> {
        let error = |reason: RowProblem| RowError {
            line: self.line(),
            id: self.field(0).unwrap_or_default().to_owned(),
            reason,
        };
        let row = self.row().map_err(error)?;
        row.validate().map_err(|e| error(e.into()))
    }

    fn line(&self) -> u64 {
        self.record.position().map_or(0, |p| p.line())
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Puzzle, RowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.stopped {
            return None;
        }
        match self.csv.read_byte_record(&mut self.record) {
            Ok(true) => Some(self.current()),
            Ok(false) => None,
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                // An I/O error ends the stream after it is reported.
                self.stopped = matches!(e.kind(), csv::ErrorKind::Io(_));
                Some(Err(RowError {
                    line,
                    id: String::new(),
                    reason: RowProblem::Csv(e.to_string()),
                }))
            }
        }
    }
}

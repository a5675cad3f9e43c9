//! The FIDE tournament report file, TRF16 (FIDE Handbook, "TRF16 format"),
//! written and read as strings, in the layout lichess's export uses: the
//! header lines (`012` name, `022` place or address, `042`/`052` dates,
//! `062` players, `092` type, `102` arbiter), the extension lines `XXR`
//! (rounds), `XXC` (first board's colour) and `XXP` (forbidden pairs, one
//! pair a line), and one `001` line per player with a 10-column block per
//! round (opponent, colour, result).

use std::fmt;

use crate::model::{Colour, Outcome, Player, RoundEntry, Tournament, format_points};
use crate::tiebreak;

/// A TRF16 file read back: the tournament, and the entries already set
/// for the round after the last paired one (byes asked for, absences).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trf {
    /// The tournament with its paired rounds.
    pub tournament: Tournament,
    /// Entries set in advance for the next round, by start number.
    pub next_round: Vec<(u32, RoundEntry)>,
}

impl Trf {
    /// The start numbers to pair in the next round: everyone without an
    /// entry set in advance.
    pub fn present(&self) -> Vec<u32> {
        self.tournament
            .players
            .iter()
            .map(|p| p.start)
            .filter(|s| !self.next_round.iter().any(|(x, _)| x == s))
            .collect()
    }
}

/// A line the reader could not understand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TRF line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TrfError {}

fn block(e: RoundEntry) -> String {
    match e {
        RoundEntry::Played {
            opponent,
            colour,
            outcome,
        } => {
            let r = match outcome {
                Outcome::Win => '1',
                Outcome::Draw => '=',
                Outcome::Loss => '0',
            };
            format!("{opponent:>4} {} {r}", colour.trf_char())
        }
        RoundEntry::Forfeit {
            opponent,
            colour,
            won,
        } => format!(
            "{opponent:>4} {} {}",
            colour.trf_char(),
            if won { '+' } else { '-' }
        ),
        RoundEntry::PairingBye => "0000 - U".into(),
        RoundEntry::HalfBye => "0000 - H".into(),
        RoundEntry::ZeroBye => "0000 - Z".into(),
        RoundEntry::Absent => "0000 - -".into(),
    }
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Writes the tournament as TRF16; `next_round` entries (byes asked for)
/// are written as one more round block.
pub fn write(t: &Tournament, next_round: &[(u32, RoundEntry)]) -> String {
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(format!("012 {}", t.name));
    if !t.place.is_empty() {
        line(format!("022 {}", t.place));
    }
    if !t.start_date.is_empty() {
        line(format!("042 {}", t.start_date));
    }
    if !t.end_date.is_empty() {
        line(format!("052 {}", t.end_date));
    }
    line(format!("062 {}", t.players.len()));
    line("092 Individual: Swiss-System".into());
    line("102 Ply Yard".into());
    line(format!("XXR {}", t.total_rounds));
    line(format!(
        "XXC {}",
        match t.initial_colour {
            Colour::White => "white1",
            Colour::Black => "black1",
        }
    ));
    for &(a, b) in &t.forbidden {
        line(format!("XXP {a} {b}"));
    }
    let standings = tiebreak::standings(t);
    let mut rank = vec![0; t.players.len()];
    for (i, s) in standings.iter().enumerate() {
        rank[*s as usize - 1] = i + 1;
    }
    for p in &t.players {
        let mut s = format!(
            "001 {:>4} {:1}{:>3} {:<33} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
            p.start,
            "",
            "",
            truncate(&p.name, 33),
            if p.rating > 0 {
                p.rating.to_string()
            } else {
                String::new()
            },
            "",
            "",
            "",
            format_points(p.half_points()),
            rank[p.start as usize - 1]
        );
        for e in &p.rounds {
            s.push_str("  ");
            s.push_str(&block(*e));
        }
        if let Some((_, e)) = next_round.iter().find(|(x, _)| *x == p.start) {
            for _ in p.rounds.len()..t.rounds_paired() {
                s.push_str(&format!("  {}", block(RoundEntry::Absent)));
            }
            s.push_str("  ");
            s.push_str(&block(*e));
        }
        line(s);
    }
    out
}

/// A round block as read: `None` when blank.
fn parse_block(b: &str) -> Result<Option<(Option<u32>, char, char)>, String> {
    let t = b.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let parts: Vec<&str> = t.split_whitespace().collect();
    let (opp, colour, result) = match parts.as_slice() {
        [o, c, r] => (*o, *c, *r),
        [o, r] if o.chars().all(|c| c.is_ascii_digit()) => (*o, "-", *r),
        [r] => ("0000", "-", *r),
        _ => return Err(format!("bad round block {b:?}")),
    };
    let opp: u32 = opp.parse().map_err(|_| format!("bad opponent {opp:?}"))?;
    let colour = colour.chars().next().unwrap_or('-');
    let result = result.chars().next().unwrap_or(' ');
    Ok(Some(((opp > 0).then_some(opp), colour, result)))
}

fn entry(opp: Option<u32>, colour: char, result: char) -> Result<RoundEntry, String> {
    let c = match colour {
        'w' | 'W' => Some(Colour::White),
        'b' | 'B' => Some(Colour::Black),
        _ => None,
    };
    Ok(match (opp, c, result) {
        (Some(o), Some(c), '1' | 'W') => RoundEntry::Played {
            opponent: o,
            colour: c,
            outcome: Outcome::Win,
        },
        (Some(o), Some(c), '=' | 'D') => RoundEntry::Played {
            opponent: o,
            colour: c,
            outcome: Outcome::Draw,
        },
        (Some(o), Some(c), '0' | 'L') => RoundEntry::Played {
            opponent: o,
            colour: c,
            outcome: Outcome::Loss,
        },
        (Some(o), Some(c), '+') => RoundEntry::Forfeit {
            opponent: o,
            colour: c,
            won: true,
        },
        (Some(o), Some(c), '-') => RoundEntry::Forfeit {
            opponent: o,
            colour: c,
            won: false,
        },
        (None, _, 'U' | 'F' | '+' | '1') => RoundEntry::PairingBye,
        (None, _, 'H' | '=') => RoundEntry::HalfBye,
        (None, _, 'Z') => RoundEntry::ZeroBye,
        (None, _, '-' | '0' | ' ') => RoundEntry::Absent,
        _ => return Err(format!("bad result {result:?}")),
    })
}

/// Reads a TRF16 file. The rounds paired are those with at least one
/// pairing (a game or a pairing-allocated bye); a later round's entries
/// become `Trf::next_round`; a blank block in a paired round is `Absent`.
pub fn read(text: &str) -> Result<Trf, TrfError> {
    let mut t = Tournament::new("", 0, Vec::new());
    let mut raw: Vec<(u32, String, u16, Vec<Option<RoundEntry>>)> = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let err = |m: String| TrfError {
            line: i + 1,
            message: m,
        };
        let l = l.trim_end_matches('\r');
        if l.len() < 3 {
            continue;
        }
        let code = &l[..3];
        let rest = l.get(4..).unwrap_or("").trim();
        match code {
            "012" => t.name = rest.to_string(),
            "022" => t.place = rest.to_string(),
            "042" => t.start_date = rest.to_string(),
            "052" => t.end_date = rest.to_string(),
            "XXR" => t.total_rounds = rest.parse().map_err(|_| err(format!("bad XXR {rest:?}")))?,
            "XXC" => {
                t.initial_colour = if rest.starts_with("black") {
                    Colour::Black
                } else {
                    Colour::White
                }
            }
            "XXP" => {
                let nums: Vec<u32> = rest
                    .split_whitespace()
                    .map(|x| x.parse().map_err(|_| err(format!("bad XXP {rest:?}"))))
                    .collect::<Result<_, _>>()?;
                for pair in nums.chunks(2) {
                    if let [a, b] = pair {
                        t.forbidden.push((*a, *b));
                    }
                }
            }
            "001" => {
                let col = |a: usize, z: usize| l.get(a..z.min(l.len())).unwrap_or("").trim();
                let start: u32 = col(4, 8)
                    .parse()
                    .map_err(|_| err(format!("bad start number {:?}", col(4, 8))))?;
                let name = col(14, 47).to_string();
                let rating: u16 = if col(48, 52).is_empty() {
                    0
                } else {
                    col(48, 52).parse().map_err(|_| err("bad rating".into()))?
                };
                let mut rounds = Vec::new();
                let mut at = 91;
                while at < l.len() {
                    let b = l.get(at..(at + 8).min(l.len())).unwrap_or("");
                    let parsed = parse_block(b).map_err(&err)?;
                    rounds.push(match parsed {
                        None => None,
                        Some((o, c, r)) => Some(entry(o, c, r).map_err(&err)?),
                    });
                    at += 10;
                }
                raw.push((start, name, rating, rounds));
            }
            _ => {}
        }
    }
    raw.sort_by_key(|r| r.0);
    for (i, r) in raw.iter().enumerate() {
        if r.0 as usize != i + 1 {
            return Err(TrfError {
                line: 0,
                message: format!("start numbers must be 1..n, found {}", r.0),
            });
        }
    }
    let paired = raw
        .iter()
        .flat_map(|r| {
            r.3.iter().enumerate().filter_map(|(k, e)| match e {
                Some(
                    RoundEntry::Played { .. } | RoundEntry::Forfeit { .. } | RoundEntry::PairingBye,
                ) => Some(k + 1),
                _ => None,
            })
        })
        .max()
        .unwrap_or(0);
    let mut next_round = Vec::new();
    for (start, name, rating, rounds) in raw {
        let mut entries: Vec<RoundEntry> = rounds
            .iter()
            .take(paired)
            .map(|e| e.unwrap_or(RoundEntry::Absent))
            .collect();
        entries.resize(paired, RoundEntry::Absent);
        if let Some(Some(e)) = rounds.get(paired) {
            next_round.push((start, *e));
        }
        t.players.push(Player {
            start,
            name,
            rating,
            rounds: entries,
        });
    }
    if t.total_rounds == 0 {
        t.total_rounds = paired as u32;
    }
    Ok(Trf {
        tournament: t,
        next_round,
    })
}

//! Move notation: SAN, long algebraic, UCI, localised piece letters and
//! figurines, in both directions, and the pieces' English names.
//!
//! SAN itself comes from shakmaty; this module only swaps piece letters
//! (English ⇄ French, Russian, Romanian, figurines) and writes the long
//! algebraic form.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position, Role};

use crate::rules::ParseNameError;

/// A language for piece letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English: K Q R B N.
    #[default]
    En,
    /// French: R D T F C.
    Fr,
    /// Russian: Кр Ф Л С К.
    Ru,
    /// Romanian: R D T N C.
    Ro,
    /// Figurines: ♔♕♖♗♘ (white) and ♚♛♜♝♞ (black).
    Figurine,
}

impl Lang {
    /// All languages.
    pub const ALL: [Lang; 5] = [Lang::En, Lang::Fr, Lang::Ru, Lang::Ro, Lang::Figurine];

    /// The short code: `en`, `fr`, `ru`, `ro`, `figurine`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
            Lang::Ru => "ru",
            Lang::Ro => "ro",
            Lang::Figurine => "figurine",
        }
    }

    /// The letter (or figurine) for `role` in this language; pawns have none.
    pub const fn piece(self, role: Role, white: bool) -> &'static str {
        match (self, role) {
            (_, Role::Pawn) => "",
            (Lang::En, Role::King) => "K",
            (Lang::En, Role::Queen) => "Q",
            (Lang::En, Role::Rook) => "R",
            (Lang::En, Role::Bishop) => "B",
            (Lang::En, Role::Knight) => "N",
            (Lang::Fr, Role::King) => "R",
            (Lang::Fr, Role::Queen) => "D",
            (Lang::Fr, Role::Rook) => "T",
            (Lang::Fr, Role::Bishop) => "F",
            (Lang::Fr, Role::Knight) => "C",
            (Lang::Ru, Role::King) => "Кр",
            (Lang::Ru, Role::Queen) => "Ф",
            (Lang::Ru, Role::Rook) => "Л",
            (Lang::Ru, Role::Bishop) => "С",
            (Lang::Ru, Role::Knight) => "К",
            (Lang::Ro, Role::King) => "R",
            (Lang::Ro, Role::Queen) => "D",
            (Lang::Ro, Role::Rook) => "T",
            (Lang::Ro, Role::Bishop) => "N",
            (Lang::Ro, Role::Knight) => "C",
            (Lang::Figurine, Role::King) => {
                if white {
                    "♔"
                } else {
                    "♚"
                }
            }
            (Lang::Figurine, Role::Queen) => {
                if white {
                    "♕"
                } else {
                    "♛"
                }
            }
            (Lang::Figurine, Role::Rook) => {
                if white {
                    "♖"
                } else {
                    "♜"
                }
            }
            (Lang::Figurine, Role::Bishop) => {
                if white {
                    "♗"
                } else {
                    "♝"
                }
            }
            (Lang::Figurine, Role::Knight) => {
                if white {
                    "♘"
                } else {
                    "♞"
                }
            }
        }
    }

    /// Piece tokens of this language with their role, longest first so that
    /// Russian `Кр` (king) wins over `К` (knight).
    fn tokens(self) -> Vec<(&'static str, Role)> {
        let mut v: Vec<(&'static str, Role)> = Vec::new();
        for role in [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
        ] {
            v.push((self.piece(role, true), role));
            if self == Lang::Figurine {
                v.push((self.piece(role, false), role));
            }
        }
        v.sort_by_key(|(t, _)| std::cmp::Reverse(t.chars().count()));
        v
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Lang {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<Lang, ParseNameError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "en" | "english" => Ok(Lang::En),
            "fr" | "french" | "français" => Ok(Lang::Fr),
            "ru" | "russian" => Ok(Lang::Ru),
            "ro" | "romanian" => Ok(Lang::Ro),
            "figurine" | "figurines" | "fig" => Ok(Lang::Figurine),
            _ => Err(ParseNameError {
                what: "language",
                input: s.to_owned(),
            }),
        }
    }
}

fn english_role(c: char) -> Option<Role> {
    match c {
        'K' => Some(Role::King),
        'Q' => Some(Role::Queen),
        'R' => Some(Role::Rook),
        'B' => Some(Role::Bishop),
        'N' => Some(Role::Knight),
        _ => None,
    }
}

/// Rewrites English SAN (or long algebraic) with the piece letters of `lang`.
/// `white` picks the figurine colour (ignored for letters).
///
/// Only piece letters change: the leading piece and a promotion piece.
///
/// # Examples
///
/// ```
/// use plyyard_game::notation::{localize_san, Lang};
/// assert_eq!(localize_san("Nf3", Lang::Fr, true), "Cf3");
/// assert_eq!(localize_san("Kxe2", Lang::Ru, false), "Крxe2");
/// assert_eq!(localize_san("e8=Q+", Lang::Ro, true), "e8=D+");
/// assert_eq!(localize_san("Bb5", Lang::Figurine, false), "♝b5");
/// ```
pub fn localize_san(san: &str, lang: Lang, white: bool) -> String {
    if lang == Lang::En {
        return san.to_owned();
    }
    let mut out = String::with_capacity(san.len() + 4);
    let mut prev: Option<char> = None;
    for (i, c) in san.char_indices() {
        let is_piece_slot = i == 0 || prev == Some('=');
        match english_role(c) {
            Some(role) if is_piece_slot => out.push_str(lang.piece(role, white)),
            _ => out.push(c),
        }
        prev = Some(c);
    }
    out
}

/// Rewrites SAN written with the piece letters of `lang` into English SAN.
/// Returns `None` if the text uses a piece letter that `lang` does not have.
///
/// # Examples
///
/// ```
/// use plyyard_game::notation::{delocalize_san, Lang};
/// assert_eq!(delocalize_san("Cf3", Lang::Fr).as_deref(), Some("Nf3"));
/// assert_eq!(delocalize_san("Крe2", Lang::Ru).as_deref(), Some("Ke2"));
/// assert_eq!(delocalize_san("Кf3", Lang::Ru).as_deref(), Some("Nf3"));
/// assert_eq!(delocalize_san("♞f6", Lang::Figurine).as_deref(), Some("Nf6"));
/// ```
pub fn delocalize_san(san: &str, lang: Lang) -> Option<String> {
    if lang == Lang::En {
        return Some(san.to_owned());
    }
    let tokens = lang.tokens();
    let mut out = String::with_capacity(san.len());
    let mut rest = san;
    let mut slot = true;
    while let Some(c) = rest.chars().next() {
        if slot && let Some((tok, role)) = tokens.iter().find(|(t, _)| rest.starts_with(t)) {
            out.push(role.upper_char());
            rest = &rest[tok.len()..];
            slot = false;
            continue;
        }
        if c.is_uppercase() && c != 'O' {
            // An unknown capital (for instance an English letter in French text) is not ours.
            return None;
        }
        out.push(c);
        slot = c == '=';
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

/// A role's English name in lower case (`pawn` … `king`), as the API and
/// the Learn boards spell it.
///
/// # Examples
///
/// ```
/// use plyyard_game::shakmaty::Role;
/// assert_eq!(plyyard_game::notation::role_name(Role::Knight), "knight");
/// ```
pub const fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The UCI text of `m`; with [`CastlingMode::Chess960`] castling is written
/// king-takes-rook (`e1h1`), otherwise as the king's two-square step (`e1g1`).
pub fn uci(m: Move, mode: CastlingMode) -> String {
    UciMove::from_move(m, mode).to_string()
}

/// The SAN of `m` in `pos` with `+`/`#`. The move must be legal.
pub fn san(pos: &Chess, m: Move) -> String {
    SanPlus::from_move(pos.clone(), m).to_string()
}

/// Long algebraic notation of the legal move `m` in `pos`: `e2-e4`, `Ng1-f3`,
/// `e4xd5`, `e7-e8=Q`, `O-O`, with `+`/`#` when it checks or mates.
///
/// # Examples
///
/// ```
/// use plyyard_game::shakmaty::{Chess, Position, Square, Role, Move};
/// use plyyard_game::notation::long_algebraic;
/// let pos = Chess::default();
/// let m = Move::Normal { role: Role::Knight, from: Square::G1, capture: None, to: Square::F3, promotion: None };
/// assert_eq!(long_algebraic(&pos, m), "Ng1-f3");
/// ```
pub fn long_algebraic(pos: &Chess, m: Move) -> String {
    let mut s = String::new();
    match m {
        Move::Castle { king, rook } => {
            s.push_str(if king.file() < rook.file() {
                "O-O"
            } else {
                "O-O-O"
            });
        }
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            if role != Role::Pawn {
                s.push(role.upper_char());
            }
            s.push_str(&from.to_string());
            s.push(if capture.is_some() { 'x' } else { '-' });
            s.push_str(&to.to_string());
            if let Some(p) = promotion {
                s.push('=');
                s.push(p.upper_char());
            }
        }
        Move::EnPassant { from, to } => {
            s.push_str(&from.to_string());
            s.push('x');
            s.push_str(&to.to_string());
        }
        Move::Put { role, to } => {
            s.push(role.upper_char());
            s.push('@');
            s.push_str(&to.to_string());
        }
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.is_checkmate() {
        s.push('#');
    } else if after.is_check() {
        s.push('+');
    }
    s
}

/// The legal moves of `pos` by from-square, as UCI squares in `mode`
/// (a board's "destinations": castling is the king's two-square move in
/// standard chess, king onto rook in Chess960).
///
/// # Examples
///
/// ```
/// use plyyard_game::shakmaty::{CastlingMode, Chess};
/// let dests = plyyard_game::notation::dests(&Chess::default(), CastlingMode::Standard);
/// assert_eq!(dests["g1"], ["f3", "h3"]);
/// assert_eq!(dests.len(), 10);
/// ```
pub fn dests(pos: &Chess, mode: CastlingMode) -> std::collections::BTreeMap<String, Vec<String>> {
    let mut dests: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for m in pos.legal_moves() {
        let uci = uci(m, mode);
        if uci.len() >= 4 {
            let to = dests.entry(uci[..2].to_owned()).or_default();
            if !to.iter().any(|t| t == &uci[2..4]) {
                to.push(uci[2..4].to_owned());
            }
        }
    }
    for to in dests.values_mut() {
        to.sort();
    }
    dests
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn localise_every_piece_in_every_language() {
        let cases = [
            ("Kf1", ["Kf1", "Rf1", "Крf1", "Rf1", "♔f1"]),
            ("Qd4", ["Qd4", "Dd4", "Фd4", "Dd4", "♕d4"]),
            ("Rxa8", ["Rxa8", "Txa8", "Лxa8", "Txa8", "♖xa8"]),
            ("Bb5+", ["Bb5+", "Fb5+", "Сb5+", "Nb5+", "♗b5+"]),
            ("Nbd2", ["Nbd2", "Cbd2", "Кbd2", "Cbd2", "♘bd2"]),
            (
                "exd8=N#",
                ["exd8=N#", "exd8=C#", "exd8=К#", "exd8=C#", "exd8=♘#"],
            ),
            ("O-O-O", ["O-O-O"; 5]),
            ("e4", ["e4"; 5]),
        ];
        for (en, expected) in cases {
            for (lang, want) in Lang::ALL.into_iter().zip(expected) {
                assert_eq!(localize_san(en, lang, true), want, "{en} in {lang}");
                assert_eq!(
                    delocalize_san(want, lang).as_deref(),
                    Some(en),
                    "{want} in {lang}"
                );
            }
        }
    }

    #[test]
    fn black_figurines() {
        assert_eq!(localize_san("Qh4#", Lang::Figurine, false), "♛h4#");
        assert_eq!(
            delocalize_san("♛h4#", Lang::Figurine).as_deref(),
            Some("Qh4#")
        );
        assert_eq!(localize_san("a1=R", Lang::Figurine, false), "a1=♜");
    }

    #[test]
    fn foreign_capitals_are_refused() {
        assert_eq!(delocalize_san("Nf3", Lang::Fr), None);
        assert_eq!(delocalize_san("Qd1", Lang::Ru), None);
    }

    #[test]
    fn long_algebraic_forms() {
        let p = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        let cap = Move::Normal {
            role: Role::Pawn,
            from: shakmaty::Square::E4,
            capture: Some(Role::Pawn),
            to: shakmaty::Square::D5,
            promotion: None,
        };
        assert_eq!(long_algebraic(&p, cap), "e4xd5");
        let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let oo = Move::Castle {
            king: shakmaty::Square::E1,
            rook: shakmaty::Square::H1,
        };
        let ooo = Move::Castle {
            king: shakmaty::Square::E1,
            rook: shakmaty::Square::A1,
        };
        assert_eq!(long_algebraic(&castle, oo), "O-O");
        assert_eq!(long_algebraic(&castle, ooo), "O-O-O");
        assert_eq!(uci(oo, CastlingMode::Standard), "e1g1");
        assert_eq!(uci(oo, CastlingMode::Chess960), "e1h1");
    }
}

//! Board blocks of the Learn pages: the `key: value` lines of a ```` ```board ````
//! block parsed into a [`Diagram`] (its FEN checked by the rules core), and
//! the diagram drawn as inline SVG — squares, coordinates, highlighted
//! squares, pieces and arrows — with presentation attributes only (the
//! Content-Security-Policy forbids `style` attributes).

use std::fmt::Write as _;

use plyyard_game::notation::role_name;
use shakmaty::{Board, Color, Role, Square};

use crate::words::escape;

/// Longest FEN accepted in a board block.
const MAX_FEN_LEN: usize = 120;
/// Most arrows on one board.
const MAX_ARROWS: usize = 32;
/// Side of one square in SVG units.
const SQ: i32 = 100;

/// An arrow's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Brush {
    /// The default.
    Green,
    /// For threats and mistakes.
    Red,
    /// For alternatives.
    Blue,
}

impl Brush {
    fn name(self) -> &'static str {
        match self {
            Brush::Green => "green",
            Brush::Red => "red",
            Brush::Blue => "blue",
        }
    }

    fn fill(self) -> &'static str {
        match self {
            Brush::Green => "#15781b",
            Brush::Red => "#b3261e",
            Brush::Blue => "#1f5fbf",
        }
    }
}

/// An arrow from one square to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrow {
    /// Where it starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
    /// Its colour.
    pub brush: Brush,
}

/// A diagram of a board block: a legal position and what is drawn on it.
#[derive(Debug, Clone)]
pub struct Diagram {
    /// The FEN as written (trimmed).
    pub fen: String,
    board: Board,
    /// Arrows, in the order written.
    pub arrows: Vec<Arrow>,
    /// Highlighted squares.
    pub squares: Vec<Square>,
    /// The side shown at the bottom.
    pub orientation: Color,
    /// The caption, as written (plain text).
    pub caption: Option<String>,
}

/// Reads a board block's body (`fen:` required; `arrows:`, `squares:`,
/// `orientation:`, `caption:` optional).
///
/// # Errors
///
/// A message naming the faulty line or value: a missing or illegal FEN
/// (in the rules core's words), an unknown key, a bad square or colour.
pub fn parse(body: &str) -> Result<Diagram, String> {
    let (mut fen, mut arrows, mut squares) = (None, Vec::new(), Vec::new());
    let (mut orientation, mut caption) = (Color::White, None);
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let Some((key, value)) = line.split_once(':') else {
            return Err(format!("board line `{line}` is not `key: value`"));
        };
        let value = value.trim();
        match key.trim() {
            "fen" => fen = Some(value.to_owned()),
            "arrows" => arrows = parse_arrows(value)?,
            "squares" => squares = parse_squares(value)?,
            "orientation" => {
                orientation = match value {
                    "white" => Color::White,
                    "black" => Color::Black,
                    _ => return Err(format!("orientation `{value}`: white or black")),
                }
            }
            "caption" => caption = Some(value.to_owned()).filter(|c| !c.is_empty()),
            other => return Err(format!("unknown board key `{other}`")),
        }
    }
    let fen = fen.ok_or("a board block needs a `fen:` line")?;
    let board = check_fen(&fen)?;
    Ok(Diagram {
        fen,
        board,
        arrows,
        squares,
        orientation,
        caption,
    })
}

/// Checks that `fen` is a legal position (standard chess or Chess960) and
/// returns its board.
///
/// # Errors
///
/// The rules core's description of what is wrong.
pub fn check_fen(fen: &str) -> Result<Board, String> {
    if fen.len() > MAX_FEN_LEN {
        return Err(format!("FEN longer than {MAX_FEN_LEN} characters"));
    }
    plyyard_game::Game::from_fen(fen, plyyard_game::RuleSet::default())
        .map(|g| shakmaty::Position::board(g.position()).clone())
        .map_err(|e| format!("illegal FEN `{fen}`: {e}"))
}

fn parse_square(s: &str) -> Result<Square, String> {
    s.parse::<Square>()
        .ok()
        .filter(|_| s.len() == 2 && s.bytes().all(|b| !b.is_ascii_uppercase()))
        .ok_or_else(|| format!("`{s}` is not a square (a1 … h8)"))
}

fn tokens(value: &str) -> impl Iterator<Item = &str> {
    value
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
}

fn parse_arrows(value: &str) -> Result<Vec<Arrow>, String> {
    let arrows = tokens(value)
        .map(|t| {
            let (uci, brush) = t.split_once(':').unwrap_or((t, "green"));
            let brush = match brush {
                "green" => Brush::Green,
                "red" => Brush::Red,
                "blue" => Brush::Blue,
                _ => return Err(format!("arrow colour `{brush}`: green, red or blue")),
            };
            if uci.len() != 4 || !uci.is_ascii() {
                return Err(format!("arrow `{uci}` is not two squares (e2e4)"));
            }
            let (from, to) = (parse_square(&uci[..2])?, parse_square(&uci[2..])?);
            if from == to {
                return Err(format!("arrow `{uci}` starts where it ends"));
            }
            Ok(Arrow { from, to, brush })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if arrows.len() > MAX_ARROWS {
        return Err(format!("more than {MAX_ARROWS} arrows"));
    }
    Ok(arrows)
}

fn parse_squares(value: &str) -> Result<Vec<Square>, String> {
    let mut squares = tokens(value)
        .map(parse_square)
        .collect::<Result<Vec<_>, _>>()?;
    squares.dedup();
    Ok(squares)
}

impl Diagram {
    /// The arrows as in `data-arrows`: `h5f7:green c4f7:red`.
    pub fn arrows_attr(&self) -> String {
        let v: Vec<String> = self
            .arrows
            .iter()
            .map(|a| format!("{}{}:{}", a.from, a.to, a.brush.name()))
            .collect();
        v.join(" ")
    }

    /// The squares as in `data-squares`: `f7 e8`.
    pub fn squares_attr(&self) -> String {
        let v: Vec<String> = self.squares.iter().map(ToString::to_string).collect();
        v.join(" ")
    }

    /// The whole figure: `<figure data-testid="learn-board" …>` with the
    /// SVG board and the caption. `label` names the diagram for screen
    /// readers (with the caption, when there is one).
    pub fn to_html(&self, label: &str) -> String {
        let orientation = self.orientation.fold_wb("white", "black");
        let aria = match &self.caption {
            Some(c) => format!("{label}: {c}"),
            None => label.to_owned(),
        };
        let mut out = format!(
            "<figure class=\"learn-board\" data-testid=\"learn-board\" data-fen=\"{}\" \
             data-arrows=\"{}\" data-squares=\"{}\" data-orientation=\"{orientation}\">",
            escape(&self.fen),
            self.arrows_attr(),
            self.squares_attr(),
        );
        out.push_str(&self.svg(&aria));
        if let Some(c) = &self.caption {
            let _ = write!(out, "<figcaption>{}</figcaption>", escape(c));
        }
        out.push_str("</figure>");
        out
    }

    /// Column and row (0 … 7 from the top left) of `sq` as drawn.
    fn cell(&self, sq: Square) -> (i32, i32) {
        let (f, r) = (i32::from(sq.file()), i32::from(sq.rank()));
        match self.orientation {
            Color::White => (f, 7 - r),
            Color::Black => (7 - f, r),
        }
    }

    fn svg(&self, aria: &str) -> String {
        let mut s = format!(
            "<svg class=\"board-svg\" viewBox=\"0 0 {0} {0}\" role=\"img\" aria-label=\"{1}\" \
             xmlns=\"http://www.w3.org/2000/svg\">",
            8 * SQ,
            escape(aria)
        );
        self.draw_squares(&mut s);
        for &sq in &self.squares {
            let (c, r) = self.cell(sq);
            let _ = write!(
                s,
                "<rect class=\"hl\" x=\"{}\" y=\"{}\" width=\"{SQ}\" height=\"{SQ}\" fill=\"#e8c547\" fill-opacity=\"0.6\"/>",
                c * SQ,
                r * SQ
            );
        }
        self.draw_coordinates(&mut s);
        for (sq, piece) in &self.board {
            let (c, r) = self.cell(sq);
            draw_piece(&mut s, piece.color, piece.role, c * SQ, r * SQ);
        }
        for a in &self.arrows {
            self.draw_arrow(&mut s, a);
        }
        s.push_str("</svg>");
        s
    }

    fn draw_squares(&self, s: &mut String) {
        let _ = write!(
            s,
            "<rect class=\"light\" width=\"{0}\" height=\"{0}\" fill=\"#ebe7da\"/>",
            8 * SQ
        );
        for sq in Square::ALL.into_iter().filter(|sq| sq.is_dark()) {
            let (c, r) = self.cell(sq);
            let _ = write!(
                s,
                "<rect class=\"dark\" x=\"{}\" y=\"{}\" width=\"{SQ}\" height=\"{SQ}\" fill=\"#88a1a9\"/>",
                c * SQ,
                r * SQ
            );
        }
    }

    /// File letters along the bottom row, rank numbers along the left
    /// column, each in the colour of the other square colour.
    fn draw_coordinates(&self, s: &mut String) {
        s.push_str("<g class=\"coords\" font-family=\"sans-serif\" font-size=\"20\" font-weight=\"600\" aria-hidden=\"true\">");
        for sq in Square::ALL {
            let (c, r) = self.cell(sq);
            let fill = if sq.is_dark() { "#ebe7da" } else { "#5b7881" };
            if r == 7 {
                let _ = write!(
                    s,
                    "<text x=\"{}\" y=\"{}\" fill=\"{fill}\" text-anchor=\"end\">{}</text>",
                    c * SQ + SQ - 6,
                    8 * SQ - 7,
                    sq.file().char()
                );
            }
            if c == 0 {
                let _ = write!(
                    s,
                    "<text x=\"5\" y=\"{}\" fill=\"{fill}\">{}</text>",
                    r * SQ + 21,
                    sq.rank().char()
                );
            }
        }
        s.push_str("</g>");
    }

    /// An arrow as one polygon: a shaft from the centre of `from` and a
    /// head whose tip is at the centre of `to`.
    fn draw_arrow(&self, s: &mut String, a: &Arrow) {
        let centre = |sq| {
            let (c, r) = self.cell(sq);
            (f64::from(c * SQ + SQ / 2), f64::from(r * SQ + SQ / 2))
        };
        let ((x1, y1), (x2, y2)) = (centre(a.from), centre(a.to));
        let len = (x2 - x1).hypot(y2 - y1);
        let (dx, dy) = ((x2 - x1) / len, (y2 - y1) / len);
        let (nx, ny) = (-dy, dx);
        let (shaft, head, head_len) = (8.0, 22.0, 38.0);
        let (bx, by) = (x2 - dx * head_len, y2 - dy * head_len);
        let pts = [
            (x1 + nx * shaft, y1 + ny * shaft),
            (bx + nx * shaft, by + ny * shaft),
            (bx + nx * head, by + ny * head),
            (x2, y2),
            (bx - nx * head, by - ny * head),
            (bx - nx * shaft, by - ny * shaft),
            (x1 - nx * shaft, y1 - ny * shaft),
        ];
        let _ = write!(
            s,
            "<polygon class=\"arrow {}\" fill=\"{}\" opacity=\"0.8\" points=\"",
            a.brush.name(),
            a.brush.fill()
        );
        for (i, (x, y)) in pts.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let _ = write!(s, "{sep}{x:.1},{y:.1}");
        }
        s.push_str("\"/>");
    }
}

/// The outline of a piece in a 100×100 square: its filled shapes, then
/// detail lines drawn in the contrasting colour.
fn piece_shapes(role: Role) -> (&'static str, &'static str) {
    match role {
        Role::Pawn => (
            "<circle cx=\"50\" cy=\"32\" r=\"12\"/>\
             <path d=\"M36 80C38 64 44 54 44 46L56 46C56 54 62 64 64 80Z\"/>\
             <rect x=\"27\" y=\"78\" width=\"46\" height=\"10\" rx=\"3\"/>",
            "",
        ),
        Role::Knight => (
            "<path d=\"M30 86L74 86C76 64 72 38 56 25L54 14L47 23C39 25 31 33 25 44L20 55C20 60 25 62 30 59L37 54C40 57 45 55 49 51C47 62 37 70 30 86Z\"/>",
            "<circle cx=\"43\" cy=\"36\" r=\"3\"/><path d=\"M60 34C66 46 68 62 66 80\" fill=\"none\"/>",
        ),
        Role::Bishop => (
            "<circle cx=\"50\" cy=\"17\" r=\"6\"/>\
             <path d=\"M50 23C63 33 67 48 60 62L40 62C33 48 37 33 50 23Z\"/>\
             <rect x=\"37\" y=\"62\" width=\"26\" height=\"9\" rx=\"2\"/>\
             <path d=\"M26 88C34 80 44 82 50 75C56 82 66 80 74 88Z\"/>",
            "<path d=\"M50 36V50M43 43H57\" fill=\"none\"/>",
        ),
        Role::Rook => (
            "<path d=\"M29 88L71 88L71 78L66 78L63 42L70 35L70 18L61 18L61 25L55 25L55 18L45 18L45 25L39 25L39 18L30 18L30 35L37 42L34 78L29 78Z\"/>",
            "<path d=\"M37 42H63M34 78H66\" fill=\"none\"/>",
        ),
        Role::Queen => (
            "<path d=\"M27 80L20 34L35 58L36 26L45 56L50 20L55 56L64 26L65 58L80 34L73 80Z\"/>\
             <circle cx=\"20\" cy=\"32\" r=\"5\"/><circle cx=\"36\" cy=\"24\" r=\"5\"/>\
             <circle cx=\"50\" cy=\"18\" r=\"5\"/><circle cx=\"64\" cy=\"24\" r=\"5\"/>\
             <circle cx=\"80\" cy=\"32\" r=\"5\"/>\
             <rect x=\"25\" y=\"79\" width=\"50\" height=\"9\" rx=\"3\"/>",
            "<path d=\"M29 71H71\" fill=\"none\"/>",
        ),
        Role::King => (
            "<path d=\"M47 9H53V16H60V22H53V31H47V22H40V16H47Z\"/>\
             <path d=\"M27 80C17 62 25 44 40 47C44 40 56 40 60 47C75 44 83 62 73 80Z\"/>\
             <rect x=\"25\" y=\"79\" width=\"50\" height=\"9\" rx=\"3\"/>",
            "<path d=\"M50 47V68M29 71H71\" fill=\"none\"/>",
        ),
    }
}

fn draw_piece(s: &mut String, color: Color, role: Role, x: i32, y: i32) {
    let (fill, stroke, detail) = color.fold_wb(
        ("#ffffff", "#1c1c1c", "#1c1c1c"),
        ("#1c1c1c", "#1c1c1c", "#e6e6e6"),
    );
    let (shapes, details) = piece_shapes(role);
    let _ = write!(
        s,
        "<g class=\"piece {} {}\" transform=\"translate({x} {y})\" fill=\"{fill}\" stroke=\"{stroke}\" \
         stroke-width=\"3\" stroke-linejoin=\"round\">{shapes}",
        color.fold_wb("white", "black"),
        role_name(role),
    );
    if !details.is_empty() {
        let _ = write!(
            s,
            "<g stroke=\"{detail}\" fill=\"{detail}\" stroke-width=\"2.5\" stroke-linecap=\"round\">{details}</g>"
        );
    }
    s.push_str("</g>");
}

#[cfg(test)]
mod tests {
    use super::*;

    const MATE: &str = "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4";

    #[test]
    fn a_full_block_is_read() {
        let d = parse(&format!(
            "fen: {MATE}\narrows: h5f7 c4f7:red\nsquares: f7, e8\norientation: black\ncaption: Mate: a < b"
        ))
        .unwrap();
        assert_eq!(d.arrows_attr(), "h5f7:green c4f7:red");
        assert_eq!(d.squares_attr(), "f7 e8");
        assert_eq!(d.orientation, Color::Black);
        let html = d.to_html("Diagram");
        assert!(html.contains("data-orientation=\"black\""), "{html}");
        assert!(
            html.contains("<figcaption>Mate: a &lt; b</figcaption>"),
            "{html}"
        );
        assert!(!html.contains("style="), "{html}");
        assert_eq!(html.matches("class=\"piece ").count(), 31);
        assert_eq!(html.matches("class=\"arrow ").count(), 2);
        assert_eq!(html.matches("class=\"hl\"").count(), 2);
        assert_eq!(html.matches("class=\"dark\"").count(), 32);
    }

    #[test]
    fn orientation_flips_the_drawing() {
        let white = parse(&format!("fen: {MATE}")).unwrap();
        let black = parse(&format!("fen: {MATE}\norientation: black")).unwrap();
        assert_eq!(white.cell(Square::A1), (0, 7));
        assert_eq!(black.cell(Square::A1), (7, 0));
        assert_eq!(black.cell(Square::H8), (0, 7));
        // Coordinates: a1's rank number on the left when White is below.
        assert!(white.svg("x").contains(">a</text>"));
    }

    #[test]
    fn bad_blocks_are_named() {
        for (body, wanted) in [
            ("arrows: e2e4", "needs a `fen:`"),
            ("fen: 8/8/8/8/8/8/8/8 w - - 0 1", "illegal FEN"),
            ("fen: not a fen", "illegal FEN"),
            (&format!("fen: {MATE}\nsquares: i9"), "not a square"),
            (
                &format!("fen: {MATE}\narrows: e2e2"),
                "starts where it ends",
            ),
            (&format!("fen: {MATE}\narrows: e2e4:pink"), "colour"),
            (&format!("fen: {MATE}\norientation: up"), "white or black"),
            (&format!("fen: {MATE}\nsize: 3"), "unknown board key"),
            (&format!("fen: {MATE}\njust words"), "not `key: value`"),
        ] {
            let e = parse(body).unwrap_err();
            assert!(e.contains(wanted), "{body}: {e}");
        }
        assert!(check_fen(&"8".repeat(200)).unwrap_err().contains("longer"));
    }

    #[test]
    fn chess960_positions_are_legal() {
        check_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1").unwrap();
    }
}

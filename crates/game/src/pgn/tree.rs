//! PGN with its variations read into a tree of positions: the analysis
//! board's import. The first game of the text is read (pgn-reader parses,
//! shakmaty checks every move); each move becomes a node under the
//! position it was played from, the main line first, variations in the
//! order written. Comments, NAGs and the result are left out. The tree is
//! bounded by [`TreeLimits`].

use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Position};

use crate::error::clip;
use crate::notation;
use crate::pgn::import::start_game;
use crate::rules::RuleSet;

/// How large a tree may grow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeLimits {
    /// Most nodes, the root included.
    pub max_nodes: usize,
    /// Most variations open inside one another.
    pub max_depth: usize,
}

/// One position of a tree: the root (no move) or the position after a move.
#[derive(Debug, Clone)]
pub struct TreeNode {
    /// The node this move was played from (`None` for the root).
    pub parent: Option<usize>,
    /// The move as UCI, in the tree's castling convention (`None` for the root).
    pub uci: Option<String>,
    /// The move as SAN with `+`/`#` (`None` for the root).
    pub san: Option<String>,
    /// The position after the move (the start position for the root).
    pub position: Chess,
}

/// A tree of moves: `nodes[0]` is the root; every other node's parent
/// comes before it, and a node's first child is its main line.
#[derive(Debug, Clone)]
pub struct MoveTree {
    /// The nodes in the order the text gives them.
    pub nodes: Vec<TreeNode>,
    /// UCI castling convention (Chess960 games write king takes rook).
    pub mode: CastlingMode,
    /// The tags of the game, in file order.
    pub tags: Vec<(String, String)>,
}

/// Why a PGN could not be read as a tree.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    /// The text holds no game.
    #[error("no game found in the PGN")]
    Empty,
    /// The tags give a position or variant that cannot be set up.
    #[error("{0}")]
    Setup(String),
    /// A move cannot be played where it stands.
    #[error("move {number}{dots} {san}: {reason}", dots = if *white { "." } else { "..." })]
    Move {
        /// The move number where it stands.
        number: u32,
        /// Whether it is White's move.
        white: bool,
        /// The move as written.
        san: String,
        /// What is wrong: illegal, ambiguous, or after the end of the game.
        reason: &'static str,
    },
    /// A variation opens before any move was played.
    #[error("a variation opens before the first move")]
    VariationFirst,
    /// Too many moves in all.
    #[error("more than {0} moves")]
    TooManyNodes(usize),
    /// Variations nested too deeply.
    #[error("variations nested more than {0} deep")]
    TooDeep(usize),
    /// The text cannot be parsed.
    #[error("{0}")]
    Syntax(String),
}

impl MoveTree {
    /// A tree holding only `root`.
    pub fn new(root: Chess, mode: CastlingMode) -> MoveTree {
        MoveTree {
            nodes: vec![TreeNode {
                parent: None,
                uci: None,
                san: None,
                position: root,
            }],
            mode,
            tags: Vec::new(),
        }
    }

    /// Plays `san` from node `from`: the existing child when that move was
    /// already there, else a new node. Returns the node's index.
    fn play(&mut self, from: usize, san: &SanPlus, limits: TreeLimits) -> Result<usize, TreeError> {
        let pos = &self.nodes[from].position;
        let error = |reason: &'static str| TreeError::Move {
            number: pos.fullmoves().get(),
            white: pos.turn().is_white(),
            san: clip(&san.to_string()),
            reason,
        };
        if matches!(san.san, San::Null | San::Put { .. }) {
            return Err(error("not a move of chess"));
        }
        if pos.is_game_over() {
            return Err(error("the game is already over"));
        }
        let m = san.san.to_move(pos).map_err(|e| match e {
            shakmaty::san::SanError::AmbiguousSan => error("ambiguous"),
            shakmaty::san::SanError::IllegalSan => error("illegal"),
        })?;
        let uci = notation::uci(m, self.mode);
        if let Some(i) = (from + 1..self.nodes.len()).find(|&i| {
            self.nodes[i].parent == Some(from) && self.nodes[i].uci.as_deref() == Some(&uci)
        }) {
            return Ok(i);
        }
        if self.nodes.len() >= limits.max_nodes {
            return Err(TreeError::TooManyNodes(limits.max_nodes - 1));
        }
        let san = notation::san(pos, m);
        let mut next = pos.clone();
        next.play_unchecked(m);
        self.nodes.push(TreeNode {
            parent: Some(from),
            uci: Some(uci),
            san: Some(san),
            position: next,
        });
        Ok(self.nodes.len() - 1)
    }
}

/// Reads the first game of `pgn` as a tree of its main line and variations.
///
/// # Errors
///
/// [`TreeError`] for an empty text, a position that cannot be set up, a move
/// that cannot be played where it stands (named by its number), a
/// variation before the first move, or a tree past `limits`.
///
/// # Examples
///
/// ```
/// use plyyard_game::pgn::{TreeLimits, read_tree};
/// let limits = TreeLimits { max_nodes: 100, max_depth: 8 };
/// let tree = read_tree("1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *", limits).unwrap();
/// let sans: Vec<_> = tree.nodes.iter().filter_map(|n| n.san.as_deref()).collect();
/// assert_eq!(sans, ["e4", "e5", "c5", "Nf3", "Nf3"]);
/// assert_eq!(tree.nodes[3].parent, Some(1));
/// let err = read_tree("1. e4 e5 2. Ke3", limits).unwrap_err();
/// assert_eq!(err.to_string(), "move 2. Ke3: illegal");
/// ```
pub fn read_tree(pgn: &str, limits: TreeLimits) -> Result<MoveTree, TreeError> {
    let mut builder = Builder { limits };
    match Reader::new(pgn.as_bytes()).read_game(&mut builder) {
        Ok(Some(result)) => result,
        Ok(None) => Err(TreeError::Empty),
        Err(e) => Err(TreeError::Syntax(e.to_string())),
    }
}

struct Builder {
    limits: TreeLimits,
}

struct Building {
    tree: MoveTree,
    /// The node the next move is played from.
    at: usize,
    /// Where to come back to when each open variation closes.
    open: Vec<usize>,
    error: Option<TreeError>,
    moves: usize,
}

impl Building {
    fn fail(&mut self, e: TreeError) -> ControlFlow<Result<MoveTree, TreeError>> {
        self.error = Some(e);
        ControlFlow::Break(Err(self.error.clone().unwrap_or(TreeError::Empty)))
    }
}

impl Visitor for Builder {
    type Tags = Vec<(String, String)>;
    type Movetext = Building;
    type Output = Result<MoveTree, TreeError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if let (Ok(name), Ok(value)) = (std::str::from_utf8(name), value.decode_utf8()) {
            tags.push((name.to_owned(), value.into_owned()));
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let game = match start_game(&tags, RuleSet::Fide) {
            Ok(g) => g,
            Err(e) => return ControlFlow::Break(Err(TreeError::Setup(e.to_string()))),
        };
        let mut tree = MoveTree::new(game.position().clone(), game.castling_mode());
        tree.tags = tags;
        ControlFlow::Continue(Building {
            tree,
            at: 0,
            open: Vec::new(),
            error: None,
            moves: 0,
        })
    }

    fn san(&mut self, b: &mut Building, san: SanPlus) -> ControlFlow<Self::Output> {
        b.moves += 1;
        match b.tree.play(b.at, &san, self.limits) {
            Ok(i) => {
                b.at = i;
                ControlFlow::Continue(())
            }
            Err(e) => b.fail(e),
        }
    }

    fn begin_variation(&mut self, b: &mut Building) -> ControlFlow<Self::Output, Skip> {
        let Some(parent) = b.tree.nodes[b.at].parent else {
            return b
                .fail(TreeError::VariationFirst)
                .map_continue(|()| Skip(true));
        };
        if b.open.len() >= self.limits.max_depth {
            return b
                .fail(TreeError::TooDeep(self.limits.max_depth))
                .map_continue(|()| Skip(true));
        }
        b.open.push(b.at);
        b.at = parent;
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, b: &mut Building) -> ControlFlow<Self::Output> {
        if let Some(back) = b.open.pop() {
            b.at = back;
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, b: Building) -> Self::Output {
        match b.error {
            Some(e) => Err(e),
            None => Ok(b.tree),
        }
    }
}

/// The tree of one line: `root` then `moves` (UCI in `mode`), each checked.
///
/// # Errors
///
/// The first move that is not legal where it stands, as a [`TreeError::Move`].
pub fn line_tree(root: Chess, mode: CastlingMode, moves: &[String]) -> Result<MoveTree, TreeError> {
    let mut tree = MoveTree::new(root, mode);
    for uci in moves {
        let last = tree.nodes.len() - 1;
        let pos = &tree.nodes[last].position;
        let m = uci
            .parse::<shakmaty::uci::UciMove>()
            .ok()
            .and_then(|u| u.to_move(pos).ok())
            .ok_or_else(|| TreeError::Move {
                number: pos.fullmoves().get(),
                white: pos.turn().is_white(),
                san: clip(uci),
                reason: "illegal",
            })?;
        let san = notation::san(pos, m);
        let mut next = pos.clone();
        next.play_unchecked(m);
        tree.nodes.push(TreeNode {
            parent: Some(last),
            uci: Some(notation::uci(m, mode)),
            san: Some(san),
            position: next,
        });
    }
    Ok(tree)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: TreeLimits = TreeLimits {
        max_nodes: 50,
        max_depth: 4,
    };

    fn sans(tree: &MoveTree) -> Vec<(Option<usize>, &str)> {
        tree.nodes
            .iter()
            .skip(1)
            .map(|n| (n.parent, n.san.as_deref().unwrap_or("")))
            .collect()
    }

    #[test]
    fn nested_variations_hang_under_the_position_they_start_from() {
        let t = read_tree(
            "[Event \"x\"]\n\n1. e4 {best} e5 (1... c5 2. Nf3 (2. c3) d6) (1... e6) 2. Nf3 $1 Nc6 1-0",
            LIMITS,
        )
        .unwrap();
        assert_eq!(
            sans(&t),
            [
                (Some(0), "e4"),
                (Some(1), "e5"),
                (Some(1), "c5"),
                (Some(3), "Nf3"),
                (Some(3), "c3"),
                (Some(4), "d6"),
                (Some(1), "e6"),
                (Some(2), "Nf3"),
                (Some(8), "Nc6"),
            ]
        );
        assert_eq!(t.tags, [("Event".to_owned(), "x".to_owned())]);
        assert_eq!(t.nodes[4].uci.as_deref(), Some("g1f3"));
    }

    #[test]
    fn a_repeated_variation_is_one_node_and_setup_tags_are_followed() {
        let t = read_tree("1. e4 (1. e4 e5) e6 *", LIMITS).unwrap();
        assert_eq!(
            sans(&t),
            [(Some(0), "e4"), (Some(1), "e5"), (Some(1), "e6")]
        );
        let t = read_tree(
            "[SetUp \"1\"]\n[FEN \"5k2/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Ke7 *",
            LIMITS,
        )
        .unwrap();
        assert_eq!(t.nodes[1].uci.as_deref(), Some("e1g1"));
        assert_eq!(t.nodes[1].san.as_deref(), Some("O-O+"));
    }

    #[test]
    fn bad_input_is_named() {
        let e = |pgn: &str, limits| read_tree(pgn, limits).unwrap_err().to_string();
        assert_eq!(e("", LIMITS), "no game found in the PGN");
        assert_eq!(e("1. e4 (e5) *", LIMITS), "move 1. e5: illegal");
        assert_eq!(e("1. e4 e5 (2. Nf3) *", LIMITS), "move 1... Nf3: illegal");
        assert_eq!(
            e("(1. d4) 1. e4 *", LIMITS),
            "a variation opens before the first move"
        );
        assert_eq!(
            e("1. f3 e5 2. g4 Qh4# 3. a3 *", LIMITS),
            "move 3. a3: the game is already over"
        );
        let small = TreeLimits {
            max_nodes: 3,
            max_depth: 1,
        };
        assert_eq!(e("1. e4 e5 2. Nf3 *", small), "more than 2 moves");
        let shallow = TreeLimits {
            max_nodes: 50,
            max_depth: 1,
        };
        assert_eq!(
            e("1. e4 e5 (1... c5 (1... c6)) *", shallow),
            "variations nested more than 1 deep"
        );
        assert!(e("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*", LIMITS).contains("king"));
    }

    #[test]
    fn a_line_is_checked_move_by_move() {
        let t = line_tree(
            Chess::default(),
            CastlingMode::Standard,
            &["e2e4".into(), "c7c5".into()],
        )
        .unwrap();
        assert_eq!(sans(&t), [(Some(0), "e4"), (Some(1), "c5")]);
        let e = line_tree(Chess::default(), CastlingMode::Standard, &["e2e5".into()]).unwrap_err();
        assert_eq!(e.to_string(), "move 1. e2e5: illegal");
    }
}

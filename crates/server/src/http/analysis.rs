//! The analysis board's positions: `POST /api/analysis/move` (a move played
//! on the board: its SAN, the position after it, that position's legal
//! moves and opening name) and `POST /api/analysis/tree` (the tree the board
//! starts from: a FEN, a stored game's moves, or a PGN with its variations).
//! The rules are shakmaty's through `plyyard-game`, the names
//! `plyyard-review`'s; the browser only shows them. Shapes in
//! `docs/protocol.md` ("Analysis board").

use std::collections::BTreeMap;

use axum::extract::{DefaultBodyLimit, State};
use axum::routing::post;
use axum::{Json, Router};
use plyyard_game::pgn::{MoveTree, TreeLimits, line_tree, read_tree};
use plyyard_game::shakmaty::fen::Fen;
use plyyard_game::shakmaty::{CastlingMode, Chess, EnPassantMode};
use plyyard_game::{Game, RuleSet, notation};
use plyyard_review::openings::{Opening, opening_of};
use serde::{Deserialize, Serialize};

use super::review::{load, reviewable};
use crate::AppState;
use crate::body::{JsonBody, json_body};
use crate::error::{ApiError, ErrorCode};

/// Longest FEN accepted.
pub const MAX_FEN_BYTES: usize = 128;
/// Longest move accepted (`e7e8q` is 5).
const MAX_UCI_BYTES: usize = 8;
/// Largest PGN accepted by `POST /api/analysis/tree`.
pub const MAX_TREE_PGN_BYTES: usize = 64 * 1024;
/// Most moves a tree may hold (main line and variations).
pub const MAX_TREE_MOVES: usize = 2000;
/// Most variations open inside one another.
pub const MAX_TREE_DEPTH: usize = 32;

/// The analysis board's routes.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/analysis/move", post(play_move))
        .route(
            "/api/analysis/tree",
            // Room for the PGN and its JSON escaping.
            post(tree).layer(DefaultBodyLimit::max(MAX_TREE_PGN_BYTES * 2)),
        )
}

/// One position of the board's tree.
#[derive(Debug, Serialize)]
struct NodeJson {
    /// Index of the node it was played from (`null` for the root).
    parent: Option<usize>,
    uci: Option<String>,
    san: Option<String>,
    fen: String,
    /// Its legal moves: from-square → to-squares.
    dests: BTreeMap<String, Vec<String>>,
    /// The opening the position is named after, when it has a name.
    opening: Option<Opening>,
}

fn node_json(
    parent: Option<usize>,
    uci: Option<String>,
    san: Option<String>,
    pos: &Chess,
    mode: CastlingMode,
) -> NodeJson {
    NodeJson {
        parent,
        uci,
        san,
        fen: Fen::from_position(pos, EnPassantMode::Legal).to_string(),
        dests: notation::dests(pos, mode),
        opening: opening_of(pos),
    }
}

/// The game starting at `fen`, refused with `400` when too long or invalid.
fn from_fen(fen: &str) -> Result<Game, ApiError> {
    if fen.len() > MAX_FEN_BYTES {
        return Err(ApiError::bad_request(format!(
            "a FEN has at most {MAX_FEN_BYTES} bytes"
        )));
    }
    Game::from_fen(fen.trim(), RuleSet::Fide).map_err(|e| ApiError::bad_request(e.to_string()))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    fen: String,
    uci: String,
}

async fn play_move(body: JsonBody) -> Result<Json<NodeJson>, ApiError> {
    let req: MoveRequest = json_body(body, "move request")?;
    let game = from_fen(&req.fen)?;
    if req.uci.len() > MAX_UCI_BYTES {
        return Err(ApiError::bad_request(format!(
            "a move is at most {MAX_UCI_BYTES} bytes of UCI"
        )));
    }
    let tree = line_tree(
        game.position().clone(),
        game.castling_mode(),
        std::slice::from_ref(&req.uci),
    )
    .map_err(|e| ApiError::new(ErrorCode::IllegalMove, e.to_string()))?;
    let node = &tree.nodes[1];
    Ok(Json(node_json(
        Some(0),
        node.uci.clone(),
        node.san.clone(),
        &node.position,
        tree.mode,
    )))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TreeRequest {
    fen: Option<String>,
    game: Option<String>,
    pgn: Option<String>,
}

#[derive(Debug, Serialize)]
struct TreeJson {
    /// The nodes, the root first; each node's parent comes before it and a
    /// node's first child is its main line.
    nodes: Vec<NodeJson>,
    /// The PGN tags of the game loaded (a stored game's export tags, an
    /// imported PGN's own), in order, as `[name, value]`; none for a FEN.
    tags: Vec<(String, String)>,
}

async fn tree(State(state): State<AppState>, body: JsonBody) -> Result<Json<TreeJson>, ApiError> {
    let req: TreeRequest = json_body(body, "tree request")?;
    let tree: MoveTree = match (req.fen, req.game, req.pgn) {
        (Some(fen), None, None) => {
            let game = from_fen(&fen)?;
            MoveTree::new(game.position().clone(), game.castling_mode())
        }
        (None, Some(id), None) => {
            let l = load(&state, &id).await?;
            reviewable(&l.row)?;
            let ucis: Vec<String> = l.game.history().iter().map(|m| m.uci.clone()).collect();
            let start = l
                .game
                .position_at(0)
                .ok_or_else(|| ApiError::internal("a game without a start"))?;
            let mut tree =
                line_tree(start, l.game.castling_mode(), &ucis).map_err(ApiError::internal)?;
            tree.tags = export_tags(&state, &id).await?;
            tree
        }
        (None, None, Some(pgn)) => {
            if pgn.len() > MAX_TREE_PGN_BYTES {
                return Err(ApiError::new(
                    ErrorCode::TooLarge,
                    format!(
                        "a PGN for the analysis board is limited to {} KiB",
                        MAX_TREE_PGN_BYTES / 1024
                    ),
                ));
            }
            read_tree(
                &pgn,
                TreeLimits {
                    max_nodes: MAX_TREE_MOVES + 1,
                    max_depth: MAX_TREE_DEPTH,
                },
            )
            .map_err(|e| ApiError::new(ErrorCode::InvalidPgn, e.to_string()))?
        }
        _ => {
            return Err(ApiError::bad_request(
                "give exactly one of a FEN (`fen`), a game (`game`) or a PGN (`pgn`)",
            ));
        }
    };
    let nodes = tree
        .nodes
        .iter()
        .map(|n| {
            node_json(
                n.parent,
                n.uci.clone(),
                n.san.clone(),
                &n.position,
                tree.mode,
            )
        })
        .collect();
    Ok(Json(TreeJson {
        nodes,
        tags: tree.tags,
    }))
}

/// The tags of stored game `id`'s PGN export (players, event, date, time
/// control, result …), so that the board's own export keeps them.
async fn export_tags(state: &AppState, id: &str) -> Result<Vec<(String, String)>, ApiError> {
    let pgn = state.live.pgn(id).await?;
    let limits = TreeLimits {
        max_nodes: MAX_TREE_MOVES + 1,
        max_depth: MAX_TREE_DEPTH,
    };
    // The export is ours: a game too long for the board's limits still has its tags read.
    Ok(read_tree(&pgn, limits).map(|t| t.tags).unwrap_or_default())
}

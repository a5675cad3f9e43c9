//! Durable storage: players, games, moves, accounts, sessions, API
//! tokens, clubs, puzzles, tournaments, relations, private messages,
//! notifications and moderation in SQL, on SQLite (embedded, the default)
//! or PostgreSQL (shared by several servers).
//!
//! This crate owns every SQL statement of the server. The schema lives in
//! `migrations/` (embedded in the binary and applied at start), written in
//! SQL that both databases accept (on SQLite, the tables read by their key
//! alone are then stored in key order: `sqlite_layout`); statements use numbered placeholders
//! (`$1`), which both read the same way, and run through sqlx's `Any`
//! driver, so the backend is chosen by the URL alone. Every write that
//! changes a game happens in one transaction that checks the version it
//! expects and stores the next: a move is either stored with its new
//! version or not at all, and two servers can never both write one game.

mod accounts;
mod addresses;
mod backend;
mod challenges;
mod chat;
mod clubs;
mod db;
mod error;
mod fair_play;
mod game_search;
mod games;
mod learn;
mod leases;
mod moderation;
mod msgs;
mod notifications;
mod player;
mod puzzle_rows;
mod puzzle_writer;
mod puzzle_writes;
mod puzzles;
mod ratings;
mod refunds;
mod relations;
pub mod replay;
pub mod reviews;
mod rows;
mod site;
mod sqlite_layout;
mod storm;
mod swiss;
mod tables;
mod tokens;
mod tournament_feed;
mod tournaments;
mod writer;

pub use accounts::{Account, AccountRow, LogIn, NewAccount, NewSession, SeatInfo};
pub use addresses::SharedAddressGame;
pub use backend::Backend;
pub use challenges::{ChallengeCap, ChallengeCaps, ChallengeRow, ChallengeStatus};
pub use chat::ChatLineRow;
pub use clubs::{ClubMember, ClubRequestRow, ClubRow, NewClub, Removal};
pub use db::{Store, now_ms, redact_url, resolve_url};
pub use error::StoreError;
pub use fair_play::FairPlayRow;
pub use game_search::{GameFilter, Outcome, PERF_KEYS};
pub use games::{Fence, insert_game_in};
pub use leases::Lease;
pub use moderation::{Actor, MarkChange, ModLogRow, ModMarkRow, NewReport, ReportRow, WarningRow};
pub use msgs::{MsgRow, ThreadRow, thread_id};
pub use notifications::NotificationRow;
pub use player::PlayerId;
pub use puzzle_rows::{Glicko, PuzzleRating, Rated, Recorded};
pub use puzzles::{NewPuzzle, PuzzleRoundRow, PuzzleRow, angle_rating};
pub use ratings::{RatedGame, RatingChange};
pub use refunds::Refund;
pub use relations::RelationKind;
pub use rows::{GameKind, GameRow, GameStatus, GameSummary, MoveRow, TableGame};
pub use site::InviteRow;
pub use storm::StormRunRow;
pub use swiss::SwissRoundRow;
pub use tables::{TableRow, TableStatus};
pub use tokens::{BotUpgrade, NewToken, OAuthCode, TokenKind, TokenRow};
pub use tournament_feed::FeedMark;
pub use tournaments::{
    EndedPairing, JoinResult, PairingRow, PairingStatus, TournamentPlayerRow, TournamentRow,
    TournamentStatus,
};

#[cfg(test)]
mod moderation_tests;
#[cfg(test)]
mod social_tests;
#[cfg(test)]
mod swiss_tests;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tournament_tests;

//! Why a club action is refused ([`ClubError`]).

use plyyard_store::StoreError;

/// A refused or failed club action. Each refusal says why in words a
/// player understands; the HTTP layer picks the status.
#[derive(Debug, thiserror::Error)]
pub enum ClubError {
    /// No club has this id.
    #[error("no such club")]
    NotFound,
    /// The input breaks a rule; the text says which.
    #[error("{0}")]
    Invalid(String),
    /// Only the club's leaders may do this.
    #[error("only a leader of this club may do that")]
    NotLeader,
    /// The player is not a member.
    #[error("{0} is not a member of this club")]
    NotMember(String),
    /// The player is a member already.
    #[error("already a member of this club")]
    AlreadyMember,
    /// The player asked to join already (pending or declined).
    #[error("a request to join this club was already sent")]
    AlreadyRequested,
    /// A closed club is joined by a request with a message.
    #[error("this club is closed: send a request with a message to its leaders")]
    MessageNeeded,
    /// No pending request of this player.
    #[error("no pending request to join from {0}")]
    NoRequest(String),
    /// The club's only leader cannot go (or stop leading).
    #[error("a club keeps at least one leader: make another member a leader first")]
    OnlyLeader,
    /// A leader is not kicked; they are made a member first.
    #[error("a leader cannot be kicked: remove their lead first")]
    KickLeader,
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

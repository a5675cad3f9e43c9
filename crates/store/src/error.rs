//! The one error type of the storage layer, and what it becomes on the
//! wire (an internal error: the details are logged, never shown).

/// A failure of the storage layer.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL could not be understood.
    #[error("invalid database URL {url:?}: {source}")]
    Url {
        /// The refused URL.
        url: String,
        /// What the driver said.
        source: sqlx::Error,
    },
    /// A query or connection failed.
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    /// Applying the embedded migrations failed.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored row holds a value the server does not understand.
    #[error("corrupt row in {table}: {detail}")]
    Corrupt {
        /// Table of the row.
        table: &'static str,
        /// What is wrong.
        detail: String,
    },
    /// The game is not at the version the write expected: another writer
    /// (another server, or a stale actor) changed it first. Nothing was written.
    #[error("game {game} is no longer at version {expected}")]
    Conflict {
        /// The game.
        game: String,
        /// The version the write expected.
        expected: u64,
    },
    /// A unique name is taken (an account name, in any case).
    #[error("{0} is taken")]
    Taken(String),
    /// A player is already in a game the change would give them a second
    /// of (a tournament pairing of someone still playing). Nothing was written.
    #[error("{0} is already playing")]
    Busy(String),
    /// The operation does not apply to this database.
    #[error("{0}")]
    Unsupported(&'static str),
    /// A sign-up's invitation code is unknown or used. Nothing was written.
    #[error("the invitation code is unknown or was used")]
    Uninvited,
}

impl From<StoreError> for plyyard_wire::ApiError {
    fn from(e: StoreError) -> plyyard_wire::ApiError {
        plyyard_wire::ApiError::internal(e)
    }
}

//! The operator's commands on a site's database, safe while the site
//! runs: `plyyard admin role` (give an account a staff role, or take it
//! away; logged in the moderation log as the command line's) and
//! `plyyard backup` (a consistent copy: SQLite's `VACUUM INTO`, or
//! `pg_dump` for PostgreSQL; see docs/deploy.md).

use std::path::Path;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use plyyard_moderation::Role;
use plyyard_store::{Backend, MarkChange, Store, now_ms};

/// Subcommands of `plyyard admin`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Give an account a staff role (`moderator`, `admin`) or take it
    /// away (`none`); works against a running site's database.
    Role(RoleArgs),
}

/// Flags of `plyyard admin role`.
#[derive(Debug, Args)]
pub struct RoleArgs {
    /// The server's database (as `plyyard serve --db`).
    #[arg(long, env = "PLYYARD_DB", default_value = "sqlite://plyyard.db")]
    pub db: String,
    /// The account's username (any case).
    #[arg(long)]
    pub user: String,
    /// `moderator`, `admin` or `none`.
    #[arg(long)]
    pub role: String,
}

/// Flags of `plyyard backup`.
#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The server's database (as `plyyard serve --db`).
    #[arg(long, env = "PLYYARD_DB", default_value = "sqlite://plyyard.db")]
    pub db: String,
    /// The copy to write: a new SQLite file, or for PostgreSQL a new
    /// `pg_dump` archive (custom format, restored with `pg_restore`). An
    /// existing file is never overwritten.
    #[arg(long)]
    pub out: String,
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())
}

fn finish(r: Result<String, String>) -> ExitCode {
    match r {
        Ok(done) => {
            eprintln!("plyyard: {done}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("plyyard: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `plyyard admin …`.
pub fn run(cmd: Command) -> ExitCode {
    match cmd {
        Command::Role(a) => finish(set_role(&a)),
    }
}

fn set_role(a: &RoleArgs) -> Result<String, String> {
    let role = Role::parse_choice(&a.role).map_err(|e| format!("--role: {e}"))?;
    runtime()?.block_on(async {
        let store = Store::open(&a.db).await.map_err(|e| e.to_string())?;
        let account = store
            .account_named(&a.user)
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no account named {:?}", a.user))?;
        let change = store
            .set_staff_role(None, &account.player_id, role.map(Role::as_str), now_ms())
            .await
            .map_err(|e| e.to_string())?;
        store.close().await;
        let what = role.map_or("no role", Role::as_str);
        Ok(match change {
            MarkChange::Done => format!("{} is now {what}", account.username),
            MarkChange::Unchanged => format!("{} was {what} already", account.username),
        })
    })
}

/// Runs `plyyard backup`.
pub fn backup(a: &BackupArgs) -> ExitCode {
    finish(make_backup(a))
}

fn make_backup(a: &BackupArgs) -> Result<String, String> {
    let out = Path::new(&a.out);
    if a.db.starts_with("postgres://") || a.db.starts_with("postgresql://") {
        return pg_dump(&a.db, out);
    }
    // Made here first: an existing file or an unwritable folder is
    // refused before the database is touched (VACUUM INTO fills an empty file).
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out)
        .map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let copied = runtime().and_then(|rt| {
        rt.block_on(async {
            let store = Store::open(&a.db).await.map_err(|e| e.to_string())?;
            if store.backend() != Backend::Sqlite {
                return Err("backups are of SQLite or PostgreSQL databases".to_owned());
            }
            let r = store.backup_into(&a.out).await.map_err(|e| e.to_string());
            store.close().await;
            r
        })
    });
    match copied {
        Ok(()) => Ok(format!("backed up to {}", out.display())),
        Err(e) => {
            let _ = std::fs::remove_file(out);
            Err(e)
        }
    }
}

/// `pg_dump --format=custom --file=OUT URL`, refusing an existing `out`.
fn pg_dump(url: &str, out: &Path) -> Result<String, String> {
    if out.exists() {
        return Err(format!(
            "{} exists: a backup never overwrites a file",
            out.display()
        ));
    }
    let status = std::process::Command::new("pg_dump")
        .arg("--format=custom")
        .arg("--no-owner")
        .arg(format!("--file={}", out.display()))
        .arg(url)
        .status()
        .map_err(|e| format!("cannot run pg_dump (is it installed?): {e}"))?;
    if status.success() {
        Ok(format!(
            "backed up to {} (pg_dump custom format)",
            out.display()
        ))
    } else {
        let _ = std::fs::remove_file(out);
        Err(format!("pg_dump failed ({status})"))
    }
}

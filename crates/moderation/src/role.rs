//! Staff roles and who may act on whom.
//!
//! An `admin` is a moderator who also grants roles. Nobody acts on
//! themselves (a moderator lifting their own mute would make it
//! pointless), and a moderator never acts on an admin.

use serde::{Deserialize, Serialize};

use crate::error::Refusal;

/// A staff role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Reads reports and the log, takes actions on players.
    Moderator,
    /// A moderator who also grants and removes roles.
    Admin,
}

impl Role {
    /// The role's name as stored and sent (`moderator`, `admin`).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Moderator => "moderator",
            Role::Admin => "admin",
        }
    }

    /// The role named `s`; `Ok(None)` for `none` (no role at all).
    ///
    /// # Errors
    /// [`Refusal::Invalid`] for any other name.
    pub fn parse_choice(s: &str) -> Result<Option<Role>, Refusal> {
        match s {
            "moderator" => Ok(Some(Role::Moderator)),
            "admin" => Ok(Some(Role::Admin)),
            "none" => Ok(None),
            _ => Err(Refusal::Invalid(format!(
                "role is moderator, admin or none (not {s:?})"
            ))),
        }
    }
}

/// Someone as moderation sees them: an account id and its role, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Staff<'a> {
    /// The account's player id.
    pub id: &'a str,
    /// Its role; `None` for a player without one.
    pub role: Option<Role>,
}

impl Staff<'_> {
    /// Whether they may read the queue and the log and take actions.
    pub fn is_moderator(&self) -> bool {
        self.role.is_some()
    }

    /// Whether they may grant roles.
    pub fn is_admin(&self) -> bool {
        self.role == Some(Role::Admin)
    }
}

/// Whether `actor` may see the moderation pages, the reports and the log.
///
/// # Errors
/// [`Refusal::Forbidden`] for anyone without a role.
pub fn may_moderate(actor: &Staff<'_>) -> Result<(), Refusal> {
    if actor.is_moderator() {
        Ok(())
    } else {
        Err(Refusal::Forbidden("moderators only"))
    }
}

/// Whether `actor` may take a moderation action on `target`.
///
/// # Errors
/// [`Refusal::Forbidden`] for a non-moderator, an action on oneself, or
/// a moderator's action on an admin.
pub fn may_act(actor: &Staff<'_>, target: &Staff<'_>) -> Result<(), Refusal> {
    may_moderate(actor)?;
    if actor.id == target.id {
        return Err(Refusal::Forbidden(
            "moderators do not act on their own account",
        ));
    }
    if target.is_admin() && !actor.is_admin() {
        return Err(Refusal::Forbidden("a moderator cannot act on an admin"));
    }
    Ok(())
}

/// Whether `actor` may give `target` a role (or take theirs away).
///
/// # Errors
/// [`Refusal::Forbidden`] for anyone but an admin, and for an admin's own
/// role (another admin, or the command line, changes it: a site never
/// loses its last admin by a slip).
pub fn may_grant(actor: &Staff<'_>, target: &Staff<'_>) -> Result<(), Refusal> {
    if !actor.is_admin() {
        return Err(Refusal::Forbidden("only admins grant roles"));
    }
    if actor.id == target.id {
        return Err(Refusal::Forbidden("admins do not change their own role"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(id: &str, role: Option<Role>) -> Staff<'_> {
        Staff { id, role }
    }

    #[test]
    fn roles_parse_and_print() {
        assert_eq!(Role::parse_choice("moderator"), Ok(Some(Role::Moderator)));
        assert_eq!(Role::parse_choice("admin"), Ok(Some(Role::Admin)));
        assert_eq!(Role::parse_choice("none"), Ok(None));
        assert!(Role::parse_choice("Admin").is_err());
        assert!(Role::parse_choice("").is_err());
        assert_eq!(Role::Admin.as_str(), "admin");
        assert_eq!(
            serde_json::to_string(&Role::Moderator).unwrap(),
            "\"moderator\""
        );
    }

    #[test]
    fn who_may_act_on_whom() {
        let player = who("p", None);
        let other = who("o", None);
        let moder = who("m", Some(Role::Moderator));
        let moder2 = who("m2", Some(Role::Moderator));
        let admin = who("a", Some(Role::Admin));
        let admin2 = who("a2", Some(Role::Admin));
        assert!(may_act(&player, &other).is_err());
        assert!(may_moderate(&player).is_err());
        assert!(may_moderate(&moder).is_ok());
        assert!(may_act(&moder, &player).is_ok());
        assert!(may_act(&moder, &moder2).is_ok());
        assert!(may_act(&moder, &moder).is_err());
        assert!(may_act(&moder, &admin).is_err());
        assert!(may_act(&admin, &admin2).is_ok());
        assert!(may_act(&admin, &admin).is_err());
        assert!(may_grant(&moder, &player).is_err());
        assert!(may_grant(&admin, &player).is_ok());
        assert!(may_grant(&admin, &admin).is_err());
        assert_eq!(
            may_act(&moder, &admin),
            Err(Refusal::Forbidden("a moderator cannot act on an admin"))
        );
    }
}

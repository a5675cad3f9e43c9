//! Moderation as pure rules: the staff roles ([`Role`]), the actions a
//! moderator takes on a player and their undo ([`Action`], [`Mark`]), who
//! may take which action on whom ([`may_act`], [`may_grant`]), and what a
//! player's report holds ([`Reason`], [`check_report_text`]), and the
//! fair-play signals and verdicts of engine use ([`fairplay`]), and the
//! site's settings admins change ([`SiteSettings`]).
//!
//! Nothing here runs or stores anything: the store keeps the roles, marks,
//! reports and the moderation log, and the server asks these functions
//! before it changes any of them. `docs/moderation.md` tells the whole.

mod action;
mod error;
pub mod fairplay;
mod report;
mod role;
mod site;

pub use action::{Action, MAX_WHY_CHARS, Mark, check_why};
pub use error::Refusal;
pub use report::{MAX_REPORT_CHARS, Reason, check_report_text, check_reported};
pub use role::{Role, Staff, may_act, may_grant, may_moderate};
pub use site::{
    DEFAULT_NAME, INVITE_LEN, MAX_CONTACT_CHARS, MAX_NAME_CHARS, Signups, SiteSettings,
};

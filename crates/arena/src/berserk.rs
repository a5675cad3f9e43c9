//! Owns going berserk: whether a player may, and the clock they get.
//!
//! lichess: berserk is allowed if the Arena allows it and the clock has
//! `increment == 0 || base > 0`; lichess accepts it while the game has had
//! fewer than 2 plies (`playedTurns < 2`). Ply Yard accepts it only before
//! the player's own first move (white: no ply yet; black: fewer than 2
//! plies), so white cannot berserk after seeing black's reply nor after
//! its own first move. Berserk halves the base and drops the increment
//! ([`ArenaClock::berserked`]).

use crate::clock::{ArenaClock, BerserkedClock};
use crate::colour::Colour;
use crate::settings::ArenaSettings;
use thiserror::Error;

/// Why berserk was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum BerserkError {
    /// The organiser turned berserk off.
    #[error("berserk is not allowed in this tournament")]
    NotInThisArena,
    /// A clock with no base time (0+x) cannot be halved.
    #[error("berserk is not possible with a clock that has no base time")]
    NotWithThisClock,
    /// The player has already moved.
    #[error("berserk is only possible before your first move")]
    AfterFirstMove,
    /// The player is berserk already.
    #[error("you are already berserk")]
    AlreadyBerserk,
}

/// Whether the player of `colour` may go berserk in a game of this Arena
/// that has had `plies_played` plies; the clock they get if so.
pub fn go_berserk(
    settings: &ArenaSettings,
    colour: Colour,
    plies_played: u16,
    already_berserk: bool,
) -> Result<BerserkedClock, BerserkError> {
    let clock: ArenaClock = settings.clock();
    if !settings.berserkable() {
        return Err(BerserkError::NotInThisArena);
    }
    if !clock.allows_berserk() {
        return Err(BerserkError::NotWithThisClock);
    }
    if already_berserk {
        return Err(BerserkError::AlreadyBerserk);
    }
    if has_moved(colour, plies_played) {
        return Err(BerserkError::AfterFirstMove);
    }
    Ok(clock.berserked())
}

/// Whether the player of `colour` has made a move after `plies` plies.
const fn has_moved(colour: Colour, plies: u16) -> bool {
    match colour {
        Colour::White => plies >= 1,
        Colour::Black => plies >= 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conditions::ConditionsDraft;
    use crate::settings::ArenaDraft;
    use crate::timestamp::Timestamp;

    fn arena(base: u32, inc: u32, berserkable: bool) -> ArenaSettings {
        let now = Timestamp::from_millis(0);
        ArenaDraft {
            clock_base_seconds: base,
            clock_increment_seconds: inc,
            minutes: 60,
            starts_at: now,
            berserkable,
            streakable: true,
            rated: true,
            variant: "standard".into(),
            conditions: ConditionsDraft::default(),
            has_chat: true,
        }
        .validate(now)
        .unwrap()
    }

    #[test]
    fn before_ones_first_move_only() {
        let a = arena(180, 0, true);
        assert!(go_berserk(&a, Colour::White, 0, false).is_ok());
        assert_eq!(
            go_berserk(&a, Colour::White, 1, false),
            Err(BerserkError::AfterFirstMove)
        );
        assert!(go_berserk(&a, Colour::Black, 1, false).is_ok());
        assert_eq!(
            go_berserk(&a, Colour::Black, 2, false),
            Err(BerserkError::AfterFirstMove)
        );
    }

    #[test]
    fn refused_where_not_allowed() {
        assert_eq!(
            go_berserk(&arena(180, 0, false), Colour::White, 0, false),
            Err(BerserkError::NotInThisArena)
        );
        assert_eq!(
            go_berserk(&arena(0, 2, true), Colour::White, 0, false),
            Err(BerserkError::NotWithThisClock)
        );
        assert_eq!(
            go_berserk(&arena(180, 0, true), Colour::Black, 0, true),
            Err(BerserkError::AlreadyBerserk)
        );
    }

    #[test]
    fn berserk_clock_is_half_base_no_increment() {
        let c = go_berserk(&arena(180, 2, true), Colour::White, 0, false).unwrap();
        assert_eq!((c.base_millis, c.increment_seconds), (90_000, 0));
    }
}

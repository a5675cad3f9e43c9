//! Owns [`Arena`], an Arena as stored (its row and its settings read back)
//! and [`NewArena`], an Arena as asked for, with the checks that are the
//! runtime's rather than the rules': the name, the description, and a
//! clock and variant that live games can play (lichess's Arena clocks from
//! ½ minute up: see [`check_clock_choice`]).

use plyyard_arena::{ArenaDraft, ArenaSettings, Timestamp};
use plyyard_game::{Speed, TimeControl, Variant};
use plyyard_store::{StoreError, TournamentRow, TournamentStatus};
use rand::Rng;

use crate::error::TournamentError;

/// The shortest name, in characters.
pub const MIN_NAME_CHARS: usize = 2;
/// The longest name, in characters (lichess's).
pub const MAX_NAME_CHARS: usize = 30;
/// The longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1200;
/// The characters of a tournament id.
const ID_ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/// The length of a tournament id.
pub const ID_LEN: usize = 8;

/// An Arena as asked for, not yet checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewArena {
    /// Its name (without the word "Arena"); `None`: named after its
    /// creator.
    pub name: Option<String>,
    /// What the creator says of it.
    pub description: String,
    /// Its settings (clock, length, start, options, conditions).
    pub draft: ArenaDraft,
}

/// An Arena as stored, with its settings read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arena {
    /// The stored row.
    pub row: TournamentRow,
    /// Its validated settings.
    pub settings: ArenaSettings,
}

impl Arena {
    /// The Arena of a stored row.
    ///
    /// # Errors
    /// A row whose settings no longer read or validate (a corrupt row).
    pub fn from_row(row: TournamentRow) -> Result<Arena, TournamentError> {
        let corrupt = |detail: String| {
            TournamentError::Store(StoreError::Corrupt {
                table: "tournaments",
                detail,
            })
        };
        let draft: ArenaDraft = serde_json::from_str(&row.settings)
            .map_err(|e| corrupt(format!("{}: settings: {e}", row.id)))?;
        let starts = draft.starts_at;
        let settings = draft
            .validate(starts)
            .map_err(|e| corrupt(format!("{}: settings: {e}", row.id)))?;
        Ok(Arena { row, settings })
    }

    /// Its id.
    pub fn id(&self) -> &str {
        &self.row.id
    }

    /// Where it stands.
    pub fn status(&self) -> TournamentStatus {
        self.row.status
    }

    /// Its name with the word "Arena" (lichess's `fullName`).
    pub fn full_name(&self) -> String {
        format!("{} Arena", self.row.name)
    }

    /// When it starts.
    pub fn starts_at(&self) -> Timestamp {
        Timestamp::from_millis(self.row.starts_at)
    }

    /// When it finishes (or finished, if terminated early).
    pub fn finishes_at(&self) -> Timestamp {
        Timestamp::from_millis(self.row.finishes_at)
    }

    /// The time control of its games.
    pub fn control(&self) -> TimeControl {
        control_of(&self.settings).unwrap_or(TimeControl::PRESET_3_2)
    }

    /// The variant of its games.
    pub fn variant(&self) -> Variant {
        self.settings.variant().parse().unwrap_or(Variant::Standard)
    }

    /// The rating category of its games.
    pub fn speed(&self) -> Speed {
        self.control().speed()
    }
}

/// The name to store: `name` trimmed, or `"{creator}"` when none is given.
///
/// # Errors
/// [`TournamentError::Invalid`] for a name shorter than
/// [`MIN_NAME_CHARS`] or longer than [`MAX_NAME_CHARS`], or with a
/// control character.
pub fn check_name(name: Option<&str>, creator: &str) -> Result<String, TournamentError> {
    let name = name.map_or_else(|| creator.to_owned(), |n| n.trim().to_owned());
    let n = name.chars().count();
    if !(MIN_NAME_CHARS..=MAX_NAME_CHARS).contains(&n) {
        return Err(TournamentError::Invalid(format!(
            "the name must have {MIN_NAME_CHARS} to {MAX_NAME_CHARS} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(TournamentError::Invalid(
            "the name has a control character".into(),
        ));
    }
    Ok(name)
}

/// The description to store, trimmed.
///
/// # Errors
/// [`TournamentError::Invalid`] when it is longer than
/// [`MAX_DESCRIPTION_CHARS`].
pub fn check_description(text: &str) -> Result<String, TournamentError> {
    let text = text.trim();
    if text.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(TournamentError::Invalid(format!(
            "the description has more than {MAX_DESCRIPTION_CHARS} characters"
        )));
    }
    Ok(text.to_owned())
}

/// The base times a new Arena may have, in seconds: lichess's
/// `clockTime` choices (½, ¾, 1, 1½, 2 to 8, 10 to 30 by 5 and 40 to 60 by
/// 10 minutes) but for 0 and ¼ minute, which no clock here plays.
pub const CLOCK_TIME_CHOICES_S: [u32; 19] = [
    30, 45, 60, 90, 120, 180, 240, 300, 360, 420, 480, 600, 900, 1200, 1500, 1800, 2400, 3000, 3600,
];

/// Whether `base_s` is one of [`CLOCK_TIME_CHOICES_S`].
fn is_clock_time_choice(base_s: u32) -> bool {
    CLOCK_TIME_CHOICES_S.contains(&base_s)
}

/// Whether `increment` is one of lichess's `clockIncrement` choices for
/// an Arena: 0 to 7, 10 to 30 by 5, 40 to 60 by 10 seconds.
fn is_increment_choice(increment: u32) -> bool {
    matches!(increment, 0..=7 | 10 | 15 | 20 | 25 | 30 | 40 | 50 | 60)
}

/// Checks that a new Arena's clock is one of lichess's choices.
///
/// # Errors
/// [`TournamentError::Invalid`] naming the choices.
pub fn check_clock_choice(settings: &ArenaSettings) -> Result<(), TournamentError> {
    let clock = settings.clock();
    let (base, increment) = (clock.base_seconds(), clock.increment_seconds());
    if is_clock_time_choice(base) && is_increment_choice(increment) {
        return Ok(());
    }
    Err(TournamentError::Invalid(format!(
        "clock {}+{increment}: clockTime is 0.5, 0.75, 1, 1.5, 2 to 8, 10, 15, 20, 25, 30, 40, \
         50 or 60 minutes and clockIncrement 0 to 7, 10, 15, 20, 25, 30, 40, 50 or 60 seconds",
        plyyard_game::minutes_text(base)
    )))
}

/// The live games' time control for an Arena's clock.
///
/// # Errors
/// [`TournamentError::Invalid`] for a clock live games cannot play (a base
/// under ½ minute).
pub fn control_of(settings: &ArenaSettings) -> Result<TimeControl, TournamentError> {
    let clock = settings.clock();
    TimeControl::from_secs(clock.base_seconds(), clock.increment_seconds())
        .map_err(|e| TournamentError::Invalid(format!("Arena games: {e}")))
}

/// Checks that live games can play the variant.
///
/// # Errors
/// [`TournamentError::Invalid`] for any variant but `standard` and
/// `chess960`.
pub fn check_variant(settings: &ArenaSettings) -> Result<Variant, TournamentError> {
    settings.variant().parse().map_err(|_| {
        TournamentError::Invalid(format!(
            "variant {:?} is not played here: standard or chess960",
            settings.variant()
        ))
    })
}

/// A fresh tournament id.
pub fn new_id() -> String {
    let mut rng = rand::rng();
    (0..ID_LEN)
        .map(|_| char::from(ID_ALPHABET[rng.random_range(0..ID_ALPHABET.len())]))
        .collect()
}

/// Whether `id` can be a tournament id (lichess's are 8 letters and digits).
pub fn well_formed(id: &str) -> bool {
    id.len() == ID_LEN && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyyard_arena::ConditionsDraft;

    fn settings(base: u32, inc: u32, variant: &str) -> ArenaSettings {
        let now = Timestamp::from_millis(0);
        ArenaDraft {
            clock_base_seconds: base,
            clock_increment_seconds: inc,
            minutes: 60,
            starts_at: now,
            berserkable: true,
            streakable: true,
            rated: true,
            variant: variant.into(),
            conditions: ConditionsDraft::default(),
            has_chat: true,
        }
        .validate(now)
        .unwrap()
    }

    #[test]
    fn clocks_are_lichess_s_arena_choices_from_half_a_minute() {
        assert_eq!(
            control_of(&settings(180, 2, "standard")).unwrap(),
            TimeControl::PRESET_3_2
        );
        for (base, inc) in [(30, 0), (45, 0), (60, 0), (90, 1), (480, 7), (3600, 60)] {
            let s = settings(base, inc, "standard");
            assert!(check_clock_choice(&s).is_ok(), "{base}+{inc}");
            let control = control_of(&s).unwrap();
            assert_eq!((control.base_secs(), control.increment_secs()), (base, inc));
        }
        assert_eq!(
            control_of(&settings(30, 0, "standard")).unwrap().speed(),
            Speed::Bullet
        );
        // Not lichess's choices, or under ½ minute.
        for (base, inc) in [(15, 0), (0, 2), (540, 2), (3000, 8), (180, 35), (720, 2)] {
            let s = settings(base, inc, "standard");
            let e = check_clock_choice(&s).unwrap_err();
            assert!(e.to_string().contains("clockTime is 0.5, 0.75"), "{e}");
        }
        assert!(control_of(&settings(15, 0, "standard")).is_err());
        assert!(control_of(&settings(0, 2, "standard")).is_err());
        // A stored clock outside the choices (a 9-minute Arena made before)
        // is still played as it is.
        assert_eq!(
            control_of(&settings(540, 2, "standard"))
                .unwrap()
                .base_secs(),
            540
        );
        assert_eq!(
            check_variant(&settings(180, 2, "chess960")).unwrap(),
            Variant::Chess960
        );
        assert!(check_variant(&settings(180, 2, "atomic")).is_err());
    }

    #[test]
    fn names_and_ids() {
        assert_eq!(check_name(None, "ann").unwrap(), "ann");
        assert_eq!(check_name(Some("  Friday  "), "ann").unwrap(), "Friday");
        assert!(check_name(Some("x"), "ann").is_err());
        assert!(check_name(Some(&"x".repeat(31)), "ann").is_err());
        assert!(check_name(Some("a\u{7}b"), "ann").is_err());
        assert!(check_description(&"d".repeat(1201)).is_err());
        let id = new_id();
        assert!(well_formed(&id), "{id}");
        assert!(!well_formed("abc"));
        assert!(!well_formed("abcd-fgh"));
    }
}

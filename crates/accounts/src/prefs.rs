//! An account's preferences: the board's look (theme, piece set,
//! coordinates), sound, and how moves and resignations are made (move
//! confirmation, auto-queen, premoves, resign confirmation, zen mode).
//! Pure: what the values are, their defaults, a change applied with every
//! value checked, and lichess's shape of them (`GET
//! /api/account/preferences`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// Board themes (square colours), lichess's names.
pub const THEMES: [&str; 4] = ["brown", "blue", "green", "grey"];
/// Piece sets shipped with the app: lichess's `cburnett` (chessground's),
/// and two drawn from freely licensed fonts.
pub const PIECE_SETS: [&str; 3] = ["cburnett", "noto", "dejavu"];
/// When a move waits for a confirmation.
pub const CONFIRM_MOVE: [&str; 3] = ["never", "correspondence", "always"];
/// When a promotion is to a queen without asking.
pub const AUTO_QUEEN: [&str; 3] = ["never", "premove", "always"];

/// The preferences of an account (or of a browser, kept there).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prefs {
    /// One of [`THEMES`].
    pub theme: String,
    /// One of [`PIECE_SETS`].
    pub piece_set: String,
    /// Sounds on.
    pub sound: bool,
    /// One of [`CONFIRM_MOVE`] (`correspondence`: in games without a clock).
    pub confirm_move: String,
    /// One of [`AUTO_QUEEN`].
    pub auto_queen: String,
    /// Moves may be chosen during the opponent's turn.
    pub premove: bool,
    /// Only the board and the clocks during a game.
    pub zen: bool,
    /// Resigning asks first.
    pub confirm_resign: bool,
    /// Coordinates beside the board.
    pub coords: bool,
}

impl Default for Prefs {
    fn default() -> Prefs {
        Prefs {
            theme: "brown".into(),
            piece_set: "cburnett".into(),
            sound: true,
            confirm_move: "never".into(),
            auto_queen: "premove".into(),
            premove: true,
            zen: false,
            confirm_resign: true,
            coords: true,
        }
    }
}

/// Why a change was refused: the message names the key and what it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrefError(pub String);

impl Prefs {
    /// These preferences with `change` (some keys, each with a new value)
    /// applied; nothing changes unless every key and value is valid.
    ///
    /// # Errors
    /// An unknown key, or a value the key does not take.
    ///
    /// # Examples
    /// ```
    /// use plyyard_accounts::prefs::Prefs;
    /// let change = serde_json::json!({"theme": "blue", "zen": true});
    /// let p = Prefs::default().with(change.as_object().unwrap()).unwrap();
    /// assert_eq!((p.theme.as_str(), p.zen), ("blue", true));
    /// let bad = serde_json::json!({"theme": "purple"});
    /// assert!(Prefs::default().with(bad.as_object().unwrap()).is_err());
    /// ```
    pub fn with(&self, change: &Map<String, Value>) -> Result<Prefs, PrefError> {
        let mut next = self.clone();
        for (key, value) in change {
            let text = |set: &[&str]| -> Result<String, PrefError> {
                value
                    .as_str()
                    .filter(|v| set.contains(v))
                    .map(str::to_owned)
                    .ok_or_else(|| PrefError(format!("{key} is one of {}", set.join(", "))))
            };
            let flag = || -> Result<bool, PrefError> {
                value
                    .as_bool()
                    .ok_or_else(|| PrefError(format!("{key} is true or false")))
            };
            match key.as_str() {
                "theme" => next.theme = text(&THEMES)?,
                "pieceSet" => next.piece_set = text(&PIECE_SETS)?,
                "confirmMove" => next.confirm_move = text(&CONFIRM_MOVE)?,
                "autoQueen" => next.auto_queen = text(&AUTO_QUEEN)?,
                "sound" => next.sound = flag()?,
                "premove" => next.premove = flag()?,
                "zen" => next.zen = flag()?,
                "confirmResign" => next.confirm_resign = flag()?,
                "coords" => next.coords = flag()?,
                _ => {
                    return Err(PrefError(format!(
                        "no preference {key}: theme, pieceSet, sound, confirmMove, autoQueen, premove, zen, confirmResign, coords"
                    )));
                }
            }
        }
        Ok(next)
    }

    /// An account's preferences from what the store holds (`None`: it
    /// never changed any, so all are the defaults).
    pub fn of_account(stored: Option<&str>) -> Prefs {
        stored.map_or_else(Prefs::default, Prefs::from_stored)
    }

    /// Stored preferences read back: what is unreadable or no longer valid
    /// is the default.
    pub fn from_stored(text: &str) -> Prefs {
        let Ok(Value::Object(map)) = serde_json::from_str::<Value>(text) else {
            return Prefs::default();
        };
        let mut p = Prefs::default();
        for (k, v) in map {
            let one: Map<String, Value> = [(k, v)].into_iter().collect();
            if let Ok(next) = p.with(&one) {
                p = next;
            }
        }
        p
    }

    /// Lichess's `prefs` object of `GET /api/account/preferences`, with
    /// its integer codes: `autoQueen` 1 never, 2 on premove, 3 always;
    /// `submitMove` 0 never, 4 in correspondence, 15 always; `coords` 0 or
    /// 1; `confirmResign` and `zen` 0 or 1; what we have no setting for at
    /// lichess's default.
    pub fn lichess(&self) -> Value {
        let auto_queen = match self.auto_queen.as_str() {
            "never" => 1,
            "always" => 3,
            _ => 2,
        };
        let submit_move = match self.confirm_move.as_str() {
            "always" => 15,
            "correspondence" => 4,
            _ => 0,
        };
        json!({
            "dark": false,
            "transp": false,
            "bgImg": "",
            "is3d": false,
            "theme": self.theme,
            "pieceSet": self.piece_set,
            "theme3d": "Woodi",
            "pieceSet3d": "Basic",
            "soundSet": if self.sound { "standard" } else { "silent" },
            "blindfold": 0,
            "autoQueen": auto_queen,
            "autoThreefold": 2,
            "takeback": 3,
            "moretime": 3,
            "clockTenths": 1,
            "clockBar": true,
            "clockSound": self.sound,
            "premove": self.premove,
            "animation": 2,
            "captured": true,
            "follow": true,
            "highlight": true,
            "destination": true,
            "coords": i32::from(self.coords),
            "replay": 2,
            "challenge": 4,
            "message": 3,
            "submitMove": submit_move,
            "confirmResign": i32::from(self.confirm_resign),
            "insightShare": 1,
            "keyboardMove": 0,
            "zen": i32::from(self.zen),
            "ratings": 1,
            "moveEvent": 2,
            "rookCastle": 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_all_or_nothing_and_names_the_bad_key() {
        let p = Prefs::default();
        let change = json!({"pieceSet": "noto", "autoQueen": "sometimes"});
        let e = p.with(change.as_object().unwrap()).unwrap_err();
        assert_eq!(e.0, "autoQueen is one of never, premove, always");
        let e = p
            .with(json!({"zen": "yes"}).as_object().unwrap())
            .unwrap_err();
        assert_eq!(e.0, "zen is true or false");
        let e = p
            .with(json!({"colour": 1}).as_object().unwrap())
            .unwrap_err();
        assert!(e.0.starts_with("no preference colour"), "{}", e.0);
        let all = json!({
            "theme": "grey", "pieceSet": "dejavu", "sound": false, "confirmMove": "always",
            "autoQueen": "never", "premove": false, "zen": true, "confirmResign": false, "coords": false
        });
        let next = p.with(all.as_object().unwrap()).unwrap();
        assert_eq!(serde_json::to_value(&next).unwrap(), all);
    }

    #[test]
    fn stored_text_is_read_back_and_lichess_codes_follow() {
        let p = Prefs::from_stored(r#"{"theme":"green","zen":true,"gone":1,"coords":"x"}"#);
        assert_eq!((p.theme.as_str(), p.zen, p.coords), ("green", true, true));
        assert_eq!(Prefs::from_stored("not json"), Prefs::default());
        let l = Prefs {
            auto_queen: "always".into(),
            confirm_move: "correspondence".into(),
            ..p
        }
        .lichess();
        assert_eq!(
            (
                l["autoQueen"].as_i64(),
                l["submitMove"].as_i64(),
                l["zen"].as_i64()
            ),
            (Some(3), Some(4), Some(1))
        );
        assert_eq!(l["theme"], "green");
    }
}

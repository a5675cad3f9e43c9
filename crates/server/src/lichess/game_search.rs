//! Lichess's game filters (`vs`, `color`, `rated`, `perfType`,
//! `analysed`, and our `result`), read from a query string into the
//! store's [`GameFilter`]: shared by the export
//! `GET /api/games/user/{username}` and the profile's game search
//! (`GET /api/users/{name}/games`).

use serde::Deserialize;

use super::error::LiError;
use crate::error::ApiError;
use plyyard_store::{GameFilter, Outcome, PERF_KEYS, Store, StoreError};

/// The filters of a game search, as written in a query string.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchQuery {
    vs: Option<String>,
    color: Option<String>,
    rated: Option<String>,
    perf_type: Option<String>,
    analysed: Option<String>,
    result: Option<String>,
}

/// Why a search's filters were refused, or the store failed reading them.
#[derive(Debug)]
pub enum SearchError {
    /// A filter's value is not one it takes (the message says which).
    Bad(String),
    /// The store failed.
    Store(StoreError),
}

impl From<StoreError> for SearchError {
    fn from(e: StoreError) -> SearchError {
        SearchError::Store(e)
    }
}

impl From<SearchError> for ApiError {
    fn from(e: SearchError) -> ApiError {
        match e {
            SearchError::Bad(m) => ApiError::bad_request(m),
            SearchError::Store(e) => ApiError::from(e),
        }
    }
}

impl From<SearchError> for LiError {
    fn from(e: SearchError) -> LiError {
        LiError::from(ApiError::from(e))
    }
}

impl SearchQuery {
    /// The store's filter for these parameters; `None` when no game can
    /// match (an opponent with no account: lichess answers no games).
    ///
    /// # Errors
    /// [`SearchError::Bad`] for a value a filter does not take.
    pub async fn filter(&self, store: &Store) -> Result<Option<GameFilter>, SearchError> {
        let mut f = GameFilter {
            white: choice(
                self.color.as_deref(),
                "color",
                &[("white", true), ("black", false)],
            )?,
            rated: yes_no(self.rated.as_deref(), "rated")?,
            analysed: yes_no(self.analysed.as_deref(), "analysed")?,
            outcome: choice(
                self.result.as_deref(),
                "result",
                &[
                    ("win", Outcome::Win),
                    ("draw", Outcome::Draw),
                    ("loss", Outcome::Loss),
                ],
            )?,
            perfs: perfs(self.perf_type.as_deref())?,
            ..GameFilter::default()
        };
        if let Some(name) = self.vs.as_deref().filter(|n| !n.is_empty()) {
            let found = if plyyard_accounts::rules::check_username(name).is_ok() {
                store.account_named(name).await?
            } else {
                None
            };
            let Some(opponent) = found else {
                return Ok(None);
            };
            f.vs = Some(opponent.player_id);
        }
        Ok(Some(f))
    }
}

/// A yes/no filter: `true`/`false` (berserk sends Python's `True` and
/// `False`); empty or absent: no filter.
fn yes_no(v: Option<&str>, name: &str) -> Result<Option<bool>, SearchError> {
    choice(
        v,
        name,
        &[
            ("true", true),
            ("True", true),
            ("false", false),
            ("False", false),
        ],
    )
}

/// One of `options` by its name; empty or absent: no filter.
fn choice<T: Copy>(
    v: Option<&str>,
    name: &str,
    options: &[(&str, T)],
) -> Result<Option<T>, SearchError> {
    let Some(v) = v.filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    match options.iter().find(|(k, _)| *k == v) {
        Some((_, t)) => Ok(Some(*t)),
        None => {
            let mut names: Vec<&str> = options.iter().map(|(k, _)| *k).collect();
            names.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
            Err(SearchError::Bad(format!(
                "{name} is one of {}",
                names.join(", ")
            )))
        }
    }
}

/// `perfType`: perf keys separated by commas.
fn perfs(v: Option<&str>) -> Result<Vec<&'static str>, SearchError> {
    let mut out = Vec::new();
    for key in v.unwrap_or("").split(',').filter(|k| !k.is_empty()) {
        let Some(k) = PERF_KEYS.iter().find(|p| **p == key) else {
            return Err(SearchError::Bad(format!(
                "perfType takes perfs separated by commas, of {}",
                PERF_KEYS.join(", ")
            )));
        };
        if !out.contains(k) {
            out.push(*k);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfs_are_known_keys_once_each() {
        assert_eq!(
            perfs(Some("blitz,bullet,blitz")).unwrap(),
            ["blitz", "bullet"]
        );
        assert!(perfs(None).unwrap().is_empty());
        assert!(matches!(
            perfs(Some("blitz,speedy")),
            Err(SearchError::Bad(_))
        ));
    }

    #[test]
    fn choices_name_what_they_take() {
        assert_eq!(yes_no(Some("True"), "rated").unwrap(), Some(true));
        assert_eq!(yes_no(Some(""), "rated").unwrap(), None);
        let Err(SearchError::Bad(m)) = yes_no(Some("maybe"), "rated") else {
            panic!("maybe is no yes or no");
        };
        assert_eq!(m, "rated is one of true, false");
    }
}

//! The rendered reviews most recently read, so that a stored review is put
//! into words once per language rather than on every request.
//!
//! An entry is keyed by game and language and remembers which stored
//! review it was rendered from (its format and time of storing): a review
//! stored again (another format, or after a reset) no longer matches and
//! is rendered anew. The cache holds at most [`RenderCache::capacity`]
//! entries; the one read least recently goes first.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use plyyard_store::reviews::StoredReview;

/// Rendered reviews kept by default.
pub const RENDERED_REVIEWS: usize = 128;

#[derive(Debug)]
struct Entry {
    format: u32,
    created_at: i64,
    review: Arc<Value>,
    used: u64,
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<(String, &'static str), Entry>,
    clock: u64,
}

/// A bounded, least-recently-used cache of rendered reviews.
#[derive(Debug)]
pub struct RenderCache {
    capacity: usize,
    inner: Mutex<Inner>,
}

impl Default for RenderCache {
    fn default() -> RenderCache {
        RenderCache::new(RENDERED_REVIEWS)
    }
}

impl RenderCache {
    /// An empty cache of at most `capacity` entries (at least one).
    pub fn new(capacity: usize) -> RenderCache {
        RenderCache {
            capacity: capacity.max(1),
            inner: Mutex::new(Inner::default()),
        }
    }

    /// Entries held at most.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Entries held now.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Whether the cache is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The review of game `id` from `stored`, rendered in `lang`: from the
    /// cache when it holds that rendering of that stored review, else by
    /// `render` (then kept).
    ///
    /// # Errors
    /// What `render` returns; nothing is kept then.
    pub fn get_or_render<E>(
        &self,
        id: &str,
        lang: &'static str,
        stored: &StoredReview,
        render: impl FnOnce() -> Result<Value, E>,
    ) -> Result<Arc<Value>, E> {
        {
            let mut inner = self.lock();
            inner.clock += 1;
            let now = inner.clock;
            if let Some(e) = inner.entries.get_mut(&(id.to_owned(), lang))
                && e.format == stored.format
                && e.created_at == stored.created_at
            {
                e.used = now;
                return Ok(Arc::clone(&e.review));
            }
        }
        // Rendered outside the lock: other games' readers need not wait.
        let review = Arc::new(render()?);
        let mut inner = self.lock();
        inner.clock += 1;
        let now = inner.clock;
        let key = (id.to_owned(), lang);
        if !inner.entries.contains_key(&key) && inner.entries.len() >= self.capacity {
            let oldest = inner
                .entries
                .iter()
                .min_by_key(|(_, e)| e.used)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                inner.entries.remove(&k);
            }
        }
        inner.entries.insert(
            key,
            Entry {
                format: stored.format,
                created_at: stored.created_at,
                review: Arc::clone(&review),
                used: now,
            },
        );
        Ok(review)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use serde_json::json;

    use super::*;

    fn stored(created_at: i64) -> StoredReview {
        StoredReview {
            format: 1,
            analysis: "{}".into(),
            created_at,
        }
    }

    #[test]
    fn renders_once_per_game_language_and_stored_review() {
        let cache = RenderCache::new(2);
        let renders = Cell::new(0);
        let render = |v: Value| {
            renders.set(renders.get() + 1);
            Ok::<_, String>(v)
        };
        let a1 = cache
            .get_or_render("a", "en", &stored(1), || render(json!(1)))
            .unwrap();
        let a2 = cache
            .get_or_render("a", "en", &stored(1), || render(json!(2)))
            .unwrap();
        assert_eq!((&*a1, &*a2, renders.get()), (&json!(1), &json!(1), 1));
        // Another language, then a review stored anew.
        cache
            .get_or_render("a", "fr", &stored(1), || render(json!(3)))
            .unwrap();
        let again = cache
            .get_or_render("a", "en", &stored(2), || render(json!(4)))
            .unwrap();
        assert_eq!((&*again, renders.get()), (&json!(4), 3));
        // Bounded: the least recently read goes ("a"/"fr").
        cache
            .get_or_render("b", "en", &stored(1), || render(json!(5)))
            .unwrap();
        assert_eq!(cache.len(), 2);
        cache
            .get_or_render("a", "en", &stored(2), || render(json!(6)))
            .unwrap();
        assert_eq!(renders.get(), 4);
        cache
            .get_or_render("a", "fr", &stored(1), || render(json!(7)))
            .unwrap();
        assert_eq!(renders.get(), 5);
        // A failed rendering keeps nothing.
        assert!(
            cache
                .get_or_render("c", "en", &stored(1), || Err::<Value, _>("bad".to_owned()))
                .is_err()
        );
        assert_eq!(cache.len(), 2);
    }
}

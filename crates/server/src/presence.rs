//! Who is online: an account with an open event stream or game or lobby
//! socket. Each open connection holds a [`Here`]; the account is online
//! while it holds at least one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Accounts online, by lichess id (lower-case name), with their count of
/// open connections.
#[derive(Debug, Default)]
pub struct Presence {
    open: Mutex<HashMap<String, usize>>,
}

/// One open connection of an account; dropping it closes it.
#[derive(Debug)]
pub struct Here {
    presence: Arc<Presence>,
    id: String,
}

impl Presence {
    /// Notes one more open connection of `id` until the guard drops.
    pub fn here(self: &Arc<Presence>, id: &str) -> Here {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        *open.entry(id.to_owned()).or_insert(0) += 1;
        Here {
            presence: Arc::clone(self),
            id: id.to_owned(),
        }
    }

    /// Whether `id` has an open connection.
    pub fn is_online(&self, id: &str) -> bool {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.contains_key(id)
    }

    /// The ids online now, sorted.
    pub fn online_ids(&self) -> Vec<String> {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let mut ids: Vec<String> = open.keys().cloned().collect();
        ids.sort();
        ids
    }
}

impl Drop for Here {
    fn drop(&mut self) {
        let mut open = self.presence.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.id) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_is_online_while_a_connection_is_open() {
        let p = Arc::new(Presence::default());
        assert!(!p.is_online("alice"));
        let a = p.here("alice");
        let b = p.here("alice");
        let _c = p.here("bob");
        assert_eq!(p.online_ids(), ["alice", "bob"]);
        drop(a);
        assert!(p.is_online("alice"));
        drop(b);
        assert!(!p.is_online("alice"));
        assert!(p.is_online("bob"));
    }
}

//! Background threads: work that must never take CPU from live games.
//!
//! The fair-play watch reviews finished games with the same engine the
//! players' computer opponents use. [`crate::fair::Fair::acquire_low`]
//! keeps it behind every waiting request for a worker, but once a review
//! search runs, the operating system would share the cores equally between
//! it and the server's other threads (live games, the tournament director,
//! the sockets). So each background job runs on a thread of its own that
//! Linux schedules as `SCHED_IDLE`: it gets a core only when no other
//! thread wants one. The thread ends with its job (a thread cannot always
//! go back to normal scheduling without privileges, so it is never reused).

use tokio::sync::oneshot;

/// Runs `job` on a new idle-priority thread and waits for its answer;
/// `None` when the thread could not start or `job` panicked.
pub async fn run<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (tx, rx) = oneshot::channel();
    let started = std::thread::Builder::new()
        .name("background".into())
        .spawn(move || {
            lower_this_thread();
            let _ = tx.send(job());
        });
    if let Err(e) = started {
        tracing::error!("no background thread: {e}");
        return None;
    }
    rx.await.ok()
}

/// Whether the calling thread is scheduled only when the CPU is otherwise
/// idle (always `false` off Linux).
pub fn is_idle_priority() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sched_getscheduler(0) only reads the calling thread's policy.
        unsafe { libc::sched_getscheduler(0) == libc::SCHED_IDLE }
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: pid 0 is the calling thread on Linux; `param` outlives the call.
        let rc = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) };
        if rc != 0 {
            tracing::warn!(
                "background thread keeps normal priority: {}",
                std::io::Error::last_os_error()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_job_runs_at_idle_priority_and_answers() {
        let (idle, sum) = run(|| (is_idle_priority(), (1..=10).sum::<u32>()))
            .await
            .expect("answered");
        assert_eq!(sum, 55);
        assert_eq!(idle, cfg!(target_os = "linux"));
        assert!(!is_idle_priority(), "the caller's thread is untouched");
    }

    #[tokio::test]
    async fn a_panicking_job_answers_none() {
        let out: Option<u32> = run(|| panic!("boom")).await;
        assert!(out.is_none());
    }
}

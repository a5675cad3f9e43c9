//! The HTTP connection loop: accepts TCP connections and serves each with
//! hyper's HTTP/1.1 server (websocket upgrades included), the client's
//! address in every request's extensions as axum's [`ConnectInfo`].
//!
//! It replaces `axum::serve`, which sets no timer, so that a client that
//! opens a connection and sends its request head slowly (or half of it,
//! then nothing) cannot hold the connection forever: the head of every
//! request must arrive within [`crate::Tuning::header_timeout`], or the
//! connection is closed. The same clock runs while a kept-alive connection
//! waits for its next request, so idle connections close after as long.
//!
//! On shutdown the listener stops accepting, every connection finishes the
//! request in flight and closes, and [`serve`] returns once all have.

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_http::add_extension::AddExtension;

/// The default of [`crate::Tuning::header_timeout`].
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long to wait before accepting again after the listener failed
/// (out of file descriptors, say).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Serves `app` on `listener` until `shutdown` completes, each request's
/// head read within `header_timeout`; then waits for the connections open.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    header_timeout: Duration,
    shutdown: impl Future<Output = ()>,
) {
    // Each connection holds a receiver; `closed()` completes when all are gone.
    let (open_tx, open_rx) = watch::channel(());
    let (stop_tx, stop_rx) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(c) => c,
                Err(e) => {
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Small socket messages must leave at once, not wait for Nagle's
        // algorithm and the peer's delayed ACK (~40 ms per reply).
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!("cannot set TCP_NODELAY: {e}");
        }
        let service = TowerToHyperService::new(AddExtension::new(
            app.clone(),
            ConnectInfo::<SocketAddr>(peer),
        ));
        let mut stop = stop_rx.clone();
        let open = open_rx.clone();
        tokio::spawn(async move {
            let conn = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(tcp), service)
                .with_upgrades();
            tokio::pin!(conn);
            tokio::select! {
                result = conn.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(%peer, "connection ended: {e}");
                    }
                }
                () = async { drop(stop.wait_for(|s| *s).await) } => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(open);
        });
    }
    drop(listener);
    stop_tx.send_replace(true);
    drop(open_rx);
    open_tx.closed().await;
}

//! A client of one Ply Yard server over loopback, for tests and the load
//! generator: HTTP through `reqwest` with a cookie store of its own, and
//! game websockets through tokio-tungstenite carrying the same cookies.
//!
//! Like a browser on the site's own pages, the client sends
//! `Origin: http://<addr>` on every request that is not a `GET`/`HEAD` and
//! on every websocket; [`Client::request_from`] and [`Client::socket_from`]
//! send another origin (or none) to test the refusals.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::cookie::{CookieStore as _, Jar};
use reqwest::header::{CONTENT_TYPE, COOKIE, HeaderMap, HeaderValue, ORIGIN};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::{self, Message, client::IntoClientRequest as _};

pub use reqwest::Method;

/// A websocket connected to a game.
pub type Socket = WebSocketStream<TcpStream>;

/// How long one HTTP request may take before the client gives up.
pub const HTTP_TIMEOUT: Duration = Duration::from_secs(60);

/// A failure of the client.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The HTTP request failed (connection, timeout, body).
    #[error("http: {0}")]
    Http(#[from] reqwest::Error),
    /// A network failure outside HTTP.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// The websocket failed, or its upgrade was refused (see
    /// [`ClientError::status`]).
    #[error("websocket: {0}")]
    Ws(#[from] Box<tungstenite::Error>),
    /// A body or a frame was not the JSON expected.
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
    /// Nothing arrived in time.
    #[error("timed out")]
    Timeout,
    /// The server closed the socket.
    #[error("socket closed")]
    Closed,
    /// The server answered something the caller did not expect.
    #[error("unexpected: {0}")]
    Unexpected(String),
}

impl ClientError {
    /// The HTTP status of a refused websocket upgrade or of a failed
    /// request, if there was one.
    pub fn status(&self) -> Option<u16> {
        match self {
            ClientError::Ws(e) => match e.as_ref() {
                tungstenite::Error::Http(resp) => Some(resp.status().as_u16()),
                _ => None,
            },
            ClientError::Http(e) => e.status().map(|s| s.as_u16()),
            _ => None,
        }
    }
}

/// A whole HTTP response.
#[derive(Debug, Clone)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Headers.
    pub headers: HeaderMap,
    /// Body bytes.
    pub body: Vec<u8>,
}

impl Response {
    /// Reads the whole body of `resp`.
    ///
    /// # Errors
    /// If the body cannot be read.
    pub async fn read(resp: reqwest::Response) -> Result<Response, ClientError> {
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let body = resp.bytes().await?.to_vec();
        Ok(Response {
            status,
            headers,
            body,
        })
    }

    /// The first header called `name` (any case), if it is text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Every value of the header `name`, in order (e.g. `set-cookie`).
    pub fn header_all(&self, name: &str) -> Vec<&str> {
        self.headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect()
    }

    /// The body as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body decoded from JSON.
    ///
    /// # Errors
    /// If the body is not that JSON.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, ClientError> {
        Ok(serde_json::from_slice(&self.body)?)
    }
}

/// A client of one server with its own cookie store.
///
/// Clones share the cookie store (like two tabs of one browser); make a new
/// client for another visitor.
#[derive(Clone)]
pub struct Client {
    addr: SocketAddr,
    /// The address connections come from, when not the system's choice.
    local: Option<std::net::IpAddr>,
    http: reqwest::Client,
    jar: Arc<Jar>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("addr", &self.addr)
            .field("cookies", &self.cookie_header())
            .finish()
    }
}

impl Client {
    /// A client of the server at `addr`, with no cookie yet.
    ///
    /// # Panics
    /// If the HTTP client cannot be built (it has no TLS or system
    /// configuration to fail on).
    pub fn new(addr: SocketAddr) -> Client {
        Client::connecting_from(addr, None)
    }

    /// A client of the server at `addr` whose connections (HTTP and
    /// websockets) come from the local address `local` (another loopback
    /// address such as `127.0.0.2` makes another client address for the
    /// server's limits), or from the system's choice when `None`.
    ///
    /// # Panics
    /// As [`Client::new`].
    pub fn connecting_from(addr: SocketAddr, local: Option<std::net::IpAddr>) -> Client {
        let jar = Arc::new(Jar::default());
        let http = reqwest::Client::builder()
            .cookie_provider(Arc::clone(&jar))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .tcp_nodelay(true)
            .timeout(HTTP_TIMEOUT)
            .local_address(local)
            .build()
            .expect("an HTTP client without TLS builds");
        Client {
            addr,
            local,
            http,
            jar,
        }
    }

    /// The server's address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Points the client at a server restarted on `addr`, keeping its
    /// cookies (cookies are per host, not per port).
    pub fn set_addr(&mut self, addr: SocketAddr) {
        self.addr = addr;
    }

    /// The site's own origin, `http://<addr>`.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The absolute URL of `path` (which starts with `/`).
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn base_url(&self) -> url::Url {
        url::Url::parse(&self.url("/")).expect("a socket address makes a URL")
    }

    /// A request to `path`, carrying the site's `Origin` unless `method` is
    /// `GET` or `HEAD`; add headers to it and pass it to [`Client::send`].
    pub fn builder(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        let safe = method == Method::GET || method == Method::HEAD;
        let b = self.http.request(method, self.url(path));
        if safe {
            b
        } else {
            b.header(ORIGIN, self.origin())
        }
    }

    /// Sends a request made by [`Client::builder`] and reads the whole
    /// response.
    ///
    /// # Errors
    /// Network failures.
    pub async fn send(&self, req: reqwest::RequestBuilder) -> Result<Response, ClientError> {
        Response::read(req.send().await?).await
    }

    /// `method path` with an optional JSON `body`, same-origin.
    ///
    /// # Errors
    /// Network failures.
    pub async fn request(
        &self,
        method: Method,
        path: &str,
        body: Option<&str>,
    ) -> Result<Response, ClientError> {
        let mut b = self.builder(method, path);
        if let Some(body) = body {
            b = b
                .header(CONTENT_TYPE, "application/json")
                .body(body.to_owned());
        }
        self.send(b).await
    }

    /// Like [`Client::request`] but sending `origin` as the `Origin` header,
    /// or no `Origin` at all when `None`, whatever the method.
    ///
    /// # Errors
    /// Network failures.
    pub async fn request_from(
        &self,
        origin: Option<&str>,
        method: Method,
        path: &str,
        body: Option<&str>,
    ) -> Result<Response, ClientError> {
        let mut b = self.http.request(method, self.url(path));
        if let Some(o) = origin {
            b = b.header(ORIGIN, o);
        }
        if let Some(body) = body {
            b = b
                .header(CONTENT_TYPE, "application/json")
                .body(body.to_owned());
        }
        self.send(b).await
    }

    /// `method path` as an API program sends it: `Authorization: Bearer
    /// token`, no `Origin`, and the body (if any) with its content type.
    ///
    /// # Errors
    /// Network failures.
    pub async fn with_token(
        &self,
        token: &str,
        method: Method,
        path: &str,
        body: Option<(&str, &str)>,
    ) -> Result<Response, ClientError> {
        let mut b = self.http.request(method, self.url(path)).bearer_auth(token);
        if let Some((content_type, body)) = body {
            b = b.header(CONTENT_TYPE, content_type).body(body.to_owned());
        }
        self.send(b).await
    }

    /// `GET path`.
    ///
    /// # Errors
    /// Network failures.
    pub async fn get(&self, path: &str) -> Result<Response, ClientError> {
        self.request(Method::GET, path, None).await
    }

    /// `POST path` with `json` (already encoded) as the body.
    ///
    /// # Errors
    /// Network failures.
    pub async fn post(&self, path: &str, json: &str) -> Result<Response, ClientError> {
        self.request(Method::POST, path, Some(json)).await
    }

    /// `POST path` with `value` encoded as JSON.
    ///
    /// # Errors
    /// Network failures, or a value that does not encode.
    pub async fn post_json<T: Serialize + ?Sized>(
        &self,
        path: &str,
        value: &T,
    ) -> Result<Response, ClientError> {
        self.post(path, &serde_json::to_string(value)?).await
    }

    /// `GET path` as JSON.
    ///
    /// # Panics
    /// On a network failure or a body that is not JSON: for tests.
    pub async fn get_value(&self, path: &str) -> serde_json::Value {
        let r = self.get(path).await.expect("a response");
        r.json()
            .unwrap_or_else(|e| panic!("GET {path}: {e}: {}", r.text()))
    }

    /// Creates a computer game from `request` (a NewGame) and returns its
    /// state.
    ///
    /// # Panics
    /// Unless the server answers `201`: for tests.
    pub async fn new_game(&self, request: &serde_json::Value) -> serde_json::Value {
        let r = self
            .post_json("/api/computer-games", request)
            .await
            .expect("a response");
        assert_eq!(r.status, 201, "{}", r.text());
        r.json().expect("a game state")
    }

    /// `POST path` with no body.
    ///
    /// # Errors
    /// Network failures.
    pub async fn post_empty(&self, path: &str) -> Result<Response, ClientError> {
        self.request(Method::POST, path, None).await
    }

    /// The cookies sent to the server, as one `Cookie` header value.
    pub fn cookie_header(&self) -> Option<String> {
        self.jar
            .cookies(&self.base_url())
            .and_then(|v| v.to_str().ok().map(str::to_owned))
    }

    /// The value of the cookie `name`, if the client holds it.
    pub fn cookie(&self, name: &str) -> Option<String> {
        let header = self.cookie_header()?;
        header.split("; ").find_map(|pair| {
            let (n, v) = pair.split_once('=')?;
            (n == name).then(|| v.to_owned())
        })
    }

    /// Sets the cookie `name` to `value` (path `/`), replacing any held.
    pub fn set_cookie(&self, name: &str, value: &str) {
        self.jar
            .add_cookie_str(&format!("{name}={value}; Path=/"), &self.base_url());
    }

    /// Drops the cookie `name`.
    pub fn remove_cookie(&self, name: &str) {
        self.jar
            .add_cookie_str(&format!("{name}=; Path=/; Max-Age=0"), &self.base_url());
    }

    /// Opens a websocket at `path` with the client's cookies and the site's
    /// own `Origin`.
    ///
    /// # Errors
    /// Network failures or a refused upgrade ([`ClientError::status`]).
    pub async fn socket(&self, path: &str) -> Result<Socket, ClientError> {
        let origin = self.origin();
        self.socket_from(path, Some(&origin)).await
    }

    /// Opens a websocket at `path` with the client's cookies, sending
    /// `origin` as the `Origin` header, or none when `None`.
    ///
    /// # Errors
    /// Network failures or a refused upgrade ([`ClientError::status`]).
    pub async fn socket_from(
        &self,
        path: &str,
        origin: Option<&str>,
    ) -> Result<Socket, ClientError> {
        let mut req = format!("ws://{}{path}", self.addr)
            .into_client_request()
            .map_err(|e| ClientError::Ws(Box::new(e)))?;
        let h = req.headers_mut();
        if let Some(c) = self.cookie_header()
            && let Ok(v) = HeaderValue::from_str(&c)
        {
            h.insert(COOKIE, v);
        }
        if let Some(o) = origin
            && let Ok(v) = HeaderValue::from_str(o)
        {
            h.insert(ORIGIN, v);
        }
        let stream = match self.local {
            Some(ip) => {
                let socket = if ip.is_ipv4() {
                    tokio::net::TcpSocket::new_v4()?
                } else {
                    tokio::net::TcpSocket::new_v6()?
                };
                socket.bind(SocketAddr::new(ip, 0))?;
                socket.connect(self.addr).await?
            }
            None => TcpStream::connect(self.addr).await?,
        };
        stream.set_nodelay(true)?;
        let (ws, _) = tokio_tungstenite::client_async(req, stream)
            .await
            .map_err(|e| ClientError::Ws(Box::new(e)))?;
        Ok(ws)
    }

    /// Opens the socket of game `id`, from version `v` (`None`: no version,
    /// the server sends the full state).
    ///
    /// # Errors
    /// As [`Client::socket`].
    pub async fn game_socket(&self, id: &str, v: Option<u64>) -> Result<Socket, ClientError> {
        let path = match v {
            Some(v) => format!("/api/games/{id}/socket?v={v}"),
            None => format!("/api/games/{id}/socket"),
        };
        self.socket(&path).await
    }
}

/// Sends `value` as a JSON text frame.
///
/// # Errors
/// If the socket is closed.
pub async fn send_json(ws: &mut Socket, value: &serde_json::Value) -> Result<(), ClientError> {
    ws.send(Message::Text(value.to_string().into()))
        .await
        .map_err(|e| ClientError::Ws(Box::new(e)))
}

/// The next JSON text message within `timeout`, skipping control frames.
/// `Ok(None)` means the server closed the socket.
///
/// # Errors
/// Timeout, socket errors, or a text frame that is not JSON.
pub async fn recv_json(
    ws: &mut Socket,
    timeout: Duration,
) -> Result<Option<serde_json::Value>, ClientError> {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        let next = tokio::time::timeout_at(deadline, ws.next())
            .await
            .map_err(|_| ClientError::Timeout)?;
        match next {
            None | Some(Ok(Message::Close(_))) => return Ok(None),
            Some(Ok(Message::Text(t))) => return Ok(Some(serde_json::from_str(t.as_str())?)),
            Some(Ok(_)) => continue,
            Some(Err(
                tungstenite::Error::ConnectionClosed
                | tungstenite::Error::AlreadyClosed
                | tungstenite::Error::Protocol(_)
                | tungstenite::Error::Io(_),
            )) => return Ok(None),
            Some(Err(e)) => return Err(ClientError::Ws(Box::new(e))),
        }
    }
}

/// The first message for which `pred` holds, within `timeout`, skipping
/// the others.
///
/// # Errors
/// Timeout, a closed socket, or socket errors.
pub async fn recv_until(
    ws: &mut Socket,
    timeout: Duration,
    mut pred: impl FnMut(&serde_json::Value) -> bool,
) -> Result<serde_json::Value, ClientError> {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        match recv_json(ws, left).await? {
            Some(v) if pred(&v) => return Ok(v),
            Some(_) => continue,
            None => return Err(ClientError::Closed),
        }
    }
}

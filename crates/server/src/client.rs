//! A small client for the Ply Yard API over loopback: plain HTTP/1.1 with a
//! cookie jar of one cookie, and websockets through tokio-tungstenite. Used
//! by the integration tests, the crash test and the load generator.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde::de::DeserializeOwned;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::{self, Message};

/// A websocket connected to a game.
pub type Socket = WebSocketStream<TcpStream>;

/// A failure of the client.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// Network failure.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// The response could not be parsed.
    #[error("bad response: {0}")]
    Parse(String),
    /// The websocket failed.
    #[error("websocket: {0}")]
    Ws(#[from] Box<tungstenite::Error>),
    /// A JSON body could not be decoded.
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
    /// Nothing arrived in time.
    #[error("timed out")]
    Timeout,
}

/// An HTTP response.
#[derive(Debug, Clone)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// Body bytes.
    pub body: Vec<u8>,
}

impl Response {
    /// The first header called `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text.
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

/// A client of one server, remembering the identity cookie it is given.
#[derive(Debug, Clone)]
pub struct Client {
    /// The server.
    pub addr: SocketAddr,
    /// The `name=value` of the identity cookie, once set.
    pub cookie: Option<String>,
}

impl Client {
    /// A client with no cookie yet.
    pub fn new(addr: SocketAddr) -> Client {
        Client { addr, cookie: None }
    }

    /// Sends a request and reads the whole response.
    ///
    /// # Errors
    /// Network or parse failures.
    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&str>,
    ) -> Result<Response, ClientError> {
        let mut stream = TcpStream::connect(self.addr).await?;
        let mut req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            self.addr
        );
        if let Some(c) = &self.cookie {
            req.push_str(&format!("Cookie: {c}\r\n"));
        }
        if let Some(b) = body {
            req.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                b.len()
            ));
        }
        req.push_str("\r\n");
        if let Some(b) = body {
            req.push_str(b);
        }
        stream.write_all(req.as_bytes()).await?;
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await?;
        let resp = parse_response(&raw)?;
        if let Some(set) = resp.header("set-cookie")
            && let Some(pair) = set.split(';').next()
        {
            self.cookie = Some(pair.trim().to_owned());
        }
        Ok(resp)
    }

    /// `GET path`.
    ///
    /// # Errors
    /// Network or parse failures.
    pub async fn get(&mut self, path: &str) -> Result<Response, ClientError> {
        self.request("GET", path, None).await
    }

    /// `POST path` with a JSON body.
    ///
    /// # Errors
    /// Network or parse failures.
    pub async fn post(&mut self, path: &str, json: &str) -> Result<Response, ClientError> {
        self.request("POST", path, Some(json)).await
    }

    /// Opens a websocket at `path`, sending `origin` as the `Origin` header
    /// if given.
    ///
    /// # Errors
    /// Network failures or a refused upgrade (the error carries the status).
    pub async fn socket(&self, path: &str, origin: Option<&str>) -> Result<Socket, ClientError> {
        use tungstenite::client::IntoClientRequest;
        let url = format!("ws://{}{path}", self.addr);
        let mut req = url
            .into_client_request()
            .map_err(|e| ClientError::Ws(Box::new(e)))?;
        let h = req.headers_mut();
        if let Some(c) = &self.cookie
            && let Ok(v) = c.parse()
        {
            h.insert("cookie", v);
        }
        if let Some(o) = origin
            && let Ok(v) = o.parse()
        {
            h.insert("origin", v);
        }
        let stream = TcpStream::connect(self.addr).await?;
        stream.set_nodelay(true)?;
        let (ws, _) = tokio_tungstenite::client_async(req, stream)
            .await
            .map_err(|e| ClientError::Ws(Box::new(e)))?;
        Ok(ws)
    }
}

/// Sends a JSON text frame.
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
/// Timeout, socket errors, or a frame that is not JSON.
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

/// Waits for the first message for which `pred` holds, within `timeout`.
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
            None => return Err(ClientError::Parse("socket closed".into())),
        }
    }
}

/// Runs `fut` to completion on a fresh single-threaded runtime, for
/// synchronous callers (tests of the real binary).
///
/// # Panics
/// If the runtime cannot be created.
pub fn block_on<F: std::future::Future>(fut: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime")
        .block_on(fut)
}

fn parse_response(raw: &[u8]) -> Result<Response, ClientError> {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| ClientError::Parse("no end of headers".into()))?;
    let head = std::str::from_utf8(&raw[..split]).map_err(|e| ClientError::Parse(e.to_string()))?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| ClientError::Parse(format!("bad status line {status_line:?}")))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let rest = &raw[split + 4..];
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let body = if chunked {
        dechunk(rest)?
    } else {
        rest.to_vec()
    };
    Ok(Response {
        status,
        headers,
        body,
    })
}

fn dechunk(mut data: &[u8]) -> Result<Vec<u8>, ClientError> {
    let mut out = Vec::new();
    loop {
        let line_end = data
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or_else(|| ClientError::Parse("bad chunk".into()))?;
        let size_text = std::str::from_utf8(&data[..line_end])
            .map_err(|e| ClientError::Parse(e.to_string()))?;
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|e| ClientError::Parse(e.to_string()))?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Ok(out);
        }
        if data.len() < size + 2 {
            return Err(ClientError::Parse("short chunk".into()));
        }
        out.extend_from_slice(&data[..size]);
        data = &data[size + 2..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_parse_plain_and_chunked() {
        let r = parse_response(
            b"HTTP/1.1 201 Created\r\nContent-Length: 2\r\nSet-Cookie: a=b; Path=/\r\n\r\nok",
        )
        .unwrap();
        assert_eq!(r.status, 201);
        assert_eq!(r.header("set-cookie"), Some("a=b; Path=/"));
        assert_eq!(r.text(), "ok");
        let r = parse_response(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n").unwrap();
        assert_eq!(r.text(), "abcde");
        assert!(parse_response(b"garbage").is_err());
    }
}

//! Request bodies of the Lichess-compatible API: JSON or a URL-encoded
//! form, as the `Content-Type` says (lichess clients send either; berserk
//! JSON with `null` for unset fields, lichess-bot forms), decoded into
//! the same type. Unknown fields are ignored, as lichess ignores them.

use axum::http::{HeaderMap, header};
use serde::de::DeserializeOwned;

use super::error::LiError;
use crate::body::{JsonBody, json_body};

/// Whether the request says its body is JSON.
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            let mime = v.split(';').next().unwrap_or_default().trim();
            mime.eq_ignore_ascii_case("application/json") || mime.ends_with("+json")
        })
}

/// Decodes a body as JSON (`Content-Type: application/json`) or else as a
/// URL-encoded form; an empty body is an empty form.
///
/// # Errors
/// 400 naming `what`, or 413 for a body over the limit.
pub fn decode<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: JsonBody,
    what: &str,
) -> Result<T, LiError> {
    if is_json(headers) {
        return json_body(body, what).map_err(LiError::from);
    }
    let bytes = body.map_err(|e| LiError::new(e.status(), e.body_text()))?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| LiError::bad_request(format!("invalid {what}: not UTF-8")))?;
    if text.contains('\0') || text.to_ascii_lowercase().contains("%00") {
        return Err(LiError::bad_request(format!(
            "NUL characters are not allowed in a {what}"
        )));
    }
    serde_urlencoded::from_str(text)
        .map_err(|e| LiError::bad_request(format!("invalid {what}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Bytes;
    use axum::http::HeaderValue;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Challenge {
        rated: Option<bool>,
        #[serde(rename = "clock.limit")]
        limit: Option<u32>,
        color: Option<String>,
    }

    fn with(ct: Option<&'static str>, body: &'static str) -> Result<Challenge, LiError> {
        let mut h = HeaderMap::new();
        if let Some(ct) = ct {
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static(ct));
        }
        decode(&h, Ok(Bytes::from_static(body.as_bytes())), "challenge")
    }

    #[test]
    fn json_and_forms_decode_alike() {
        let want = Challenge {
            rated: Some(true),
            limit: Some(180),
            color: None,
        };
        let json = r#"{"rated":true,"clock.limit":180,"color":null,"days":null}"#;
        assert_eq!(with(Some("application/json"), json).unwrap(), want);
        assert_eq!(
            with(Some("application/json; charset=utf-8"), json).unwrap(),
            want
        );
        let form = "rated=true&clock.limit=180&days=";
        assert_eq!(
            with(Some("application/x-www-form-urlencoded"), form).unwrap(),
            want
        );
        assert_eq!(with(None, form).unwrap(), want);
        assert_eq!(
            with(None, "").unwrap(),
            Challenge {
                rated: None,
                limit: None,
                color: None
            }
        );
    }

    #[test]
    fn bad_bodies_are_400s() {
        assert_eq!(with(None, "rated=maybe").unwrap_err().status, 400);
        assert_eq!(with(None, "color=a%00b").unwrap_err().status, 400);
        assert_eq!(with(Some("application/json"), "{").unwrap_err().status, 400);
        assert_eq!(
            with(Some("application/json"), r#"{"color":"\u0000"}"#)
                .unwrap_err()
                .status,
            400
        );
    }
}

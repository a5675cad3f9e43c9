//! Request bodies: decoding JSON into clear errors, and refusing NUL
//! characters, which PostgreSQL cannot store and no name, tag, code or key
//! of ours holds.

use axum::http::StatusCode;

use crate::error::{ApiError, ErrorCode};

/// Largest accepted request body.
pub(crate) const MAX_BODY_BYTES: usize = 16 * 1024;

/// The error for text holding a NUL character: PostgreSQL cannot store
/// one, and no name, tag, code or key of ours has one.
pub(super) fn nul_refused(where_: &str) -> ApiError {
    ApiError::bad_request(format!(
        "NUL characters (U+0000) are not allowed in {where_}"
    ))
}

fn json_has_nul(json: &[u8]) -> bool {
    let mut i = 0;
    while i < json.len() {
        match json[i] {
            b'\\' => {
                if json.get(i + 1) == Some(&b'u')
                    && json.get(i + 2..i + 6) == Some(b"0000".as_slice())
                {
                    return true;
                }
                i += 2;
            }
            0 => return true,
            _ => i += 1,
        }
    }
    false
}

/// A request body as handlers take it, for [`json_body`].
pub type JsonBody = Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>;

/// Decodes a JSON request body, mapping every failure to a clear error
/// naming `what` was expected.
///
/// # Errors
/// `too_large` or `bad_request`.
pub fn json_body<T: serde::de::DeserializeOwned>(
    body: JsonBody,
    what: &str,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                ErrorCode::TooLarge,
                format!("request bodies are limited to {MAX_BODY_BYTES} bytes"),
            )
        } else {
            ApiError::bad_request(e.body_text())
        }
    })?;
    if json_has_nul(&bytes) {
        return Err(nul_refused(&format!("a {what}")));
    }
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("invalid {what}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_characters_are_found_in_json_text() {
        assert!(json_has_nul(br#"{"a":"x\u0000y"}"#));
        assert!(json_has_nul(b"{\"a\":\"\0\"}"));
        assert!(
            !json_has_nul(br#"{"a":"x\\u0000y"}"#),
            "an escaped backslash"
        );
        assert!(json_has_nul(br#"{"a":"x\\\u0000y"}"#));
        assert!(!json_has_nul(br#"{"a":"\u000"#));
        assert!(!json_has_nul(br#"{"a":"\u0001 \n"}"#));
        assert!(!json_has_nul(b"\\"));
    }
}

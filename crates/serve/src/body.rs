//! Reading a POST body, bounded in size and time.
//!
//! [`PostBody`] is the extractor of every POST handler. It refuses a body
//! whose declared `Content-Length` is over `--max-body` from the header
//! alone, at once (the answer says `connection: close`; the connection then
//! drains what the client still sends for a moment, see `conn/`, so the
//! client reads the 413 instead of a reset). Otherwise it reads the body
//! with the limit (a chunked body over it is a 413 too) and within the
//! header timeout (a slow body is a 408), and it marks the connection
//! Receiving meanwhile, so that at the connection cap a slow uploader can
//! make room for a new client.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, StatusCode};
use http_body_util::{BodyExt, LengthLimitError, Limited};

use super::conn::ConnHandle;
use super::params::ApiError;

/// How a POST body is read (`--max-body`, `--header-timeout-ms`).
#[derive(Debug, Clone, Copy)]
pub struct BodyLimits {
    /// Largest body in bytes.
    pub max_bytes: usize,
    /// Longest time to receive it after the head.
    pub timeout: Duration,
}

/// The body of a POST, or the error answer that refuses it.
#[derive(Debug)]
pub struct PostBody(pub Result<Bytes, ApiError>);

/// The request state a [`PostBody`] reads its limits from.
pub trait HasBodyLimits {
    /// The limits of this server.
    fn body_limits(&self) -> BodyLimits;
}

impl<S: HasBodyLimits + Send + Sync> FromRequest<S> for PostBody {
    type Rejection = Infallible;

    async fn from_request(request: Request, state: &S) -> Result<PostBody, Infallible> {
        Ok(PostBody(read(request, state.body_limits()).await))
    }
}

/// 413 naming the limit.
pub fn too_large(length: Option<u64>, max: usize) -> ApiError {
    let size = match length {
        Some(length) => format!("the body is {length} bytes"),
        None => "the body is longer".to_string(),
    };
    ApiError::about(
        StatusCode::PAYLOAD_TOO_LARGE,
        "body",
        format!("{size}; the server takes at most {max} (--max-body)"),
    )
}

async fn read(request: Request, limits: BodyLimits) -> Result<Bytes, ApiError> {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let Some(length) = declared.filter(|&l| l > limits.max_bytes as u64) {
        return Err(too_large(Some(length), limits.max_bytes));
    }
    let conn = request.extensions().get::<ConnHandle>().cloned();
    if let Some(conn) = &conn {
        conn.0.receiving();
    }
    let body = Limited::new(request.into_body(), limits.max_bytes);
    let read = tokio::time::timeout(limits.timeout, body.collect()).await;
    if let Some(conn) = &conn {
        conn.0.working();
    }
    match read {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => {
            Err(too_large(None, limits.max_bytes))
        }
        Ok(Err(e)) => Err(ApiError::about(
            StatusCode::BAD_REQUEST,
            "body",
            format!("the body could not be read: {e}"),
        )),
        Err(_) => Err(ApiError::about(
            StatusCode::REQUEST_TIMEOUT,
            "body",
            format!(
                "the body did not arrive within {} ms (--header-timeout-ms)",
                limits.timeout.as_millis()
            ),
        )),
    }
}

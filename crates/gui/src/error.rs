//! What the API answers when a request cannot be served: a 4xx status with
//! `{"error": "..."}`; JSON body and query extractors whose own rejections
//! (malformed JSON, wrong content type, a body over the limit, a missing
//! `?game=`) take the same shape; and a layer that gives every other 4xx
//! (no such path, wrong method) that shape too, so a client always gets a
//! message to show.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use gamerecord::refusal::{Refusal, BAD_JSON, NO_GAME_NAMED, NO_SUCH_REQUEST};
use gamerecord::GameError;
use serde::de::DeserializeOwned;

/// An API error: the status and a message that tells the user what to fix.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// The HTTP status: 4xx (the server's own faults are not errors of the
    /// request), or 503 when the server is full for now.
    pub status: StatusCode,
    /// The message shown to the user.
    pub message: String,
}

impl ApiError {
    /// 400: the request is wrong (an illegal move, a bad FEN, a bad option).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// 404: no such game (or no tables, no book to write to).
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }

    /// 401: the server needs its token and the request has not got it.
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::UNAUTHORIZED,
            message: message.into(),
        }
    }

    /// 403: the request comes from somewhere the server does not serve.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::FORBIDDEN,
            message: message.into(),
        }
    }

    /// 503: the request is right but the server has no room for it now
    /// (its memory for games is full with games in use).
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
        }
    }

    /// 409: the request is right but the game's state forbids it now.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: message.into(),
        }
    }
}

impl From<GameError> for ApiError {
    /// The game's refusal with the status of its kind (gamerecord's
    /// `ErrorKind::status`, which the page without a server answers with
    /// too), the message as the game words it.
    fn from(e: GameError) -> ApiError {
        Refusal::from(e).into()
    }
}

impl From<Refusal> for ApiError {
    /// A refusal as every host words it (gamerecord's `refusal`).
    fn from(r: Refusal) -> ApiError {
        ApiError {
            status: StatusCode::from_u16(r.status).unwrap_or(StatusCode::BAD_REQUEST),
            message: r.message,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}

/// A JSON request body; its rejections become [`ApiError`]s.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(from_rejection(rejection)),
        }
    }
}

fn from_rejection(rejection: JsonRejection) -> ApiError {
    let status = rejection.status();
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => "the request body is too large".to_string(),
        _ => format!("{BAD_JSON}{}", rejection.body_text()),
    };
    ApiError { status, message }
}

/// A query string (`?game=ID`); its rejections become [`ApiError`]s.
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(ApiQuery(value)),
            Err(rejection) => Err(from_query_rejection(rejection)),
        }
    }
}

fn from_query_rejection(rejection: QueryRejection) -> ApiError {
    let text = rejection.body_text();
    let message = if text.contains("missing field `game`") {
        NO_GAME_NAMED.to_string()
    } else {
        format!("bad query string: {text}")
    };
    ApiError {
        status: rejection.status(),
        message,
    }
}

/// The answer to a request whose handler panicked: a 500 JSON error for
/// that request alone (the server and the other games go on).
pub fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        axum::Json(serde_json::json!({
            "error": "the server failed on this request (a bug: please report it); other games go on"
        })),
    )
        .into_response()
}

/// Layer: any 4xx answer that is not JSON yet (the router's own 404 and
/// 405, a path that does not parse) becomes `{"error": "..."}` with the
/// same status, its text kept as the message.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !status.is_client_error() || is_json {
        return response;
    }
    // These bodies are the framework's short messages; a long one is cut.
    let bytes = axum::body::to_bytes(response.into_body(), 64 * 1024)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes).trim().to_string();
    let message = if text.is_empty() {
        match status {
            StatusCode::NOT_FOUND => NO_SUCH_REQUEST.to_string(),
            StatusCode::METHOD_NOT_ALLOWED => {
                "this request does not take that method (see the API table: GET or POST)"
                    .to_string()
            }
            _ => status
                .canonical_reason()
                .unwrap_or("the request was refused")
                .to_string(),
        }
    } else {
        text
    };
    ApiError { status, message }.into_response()
}

//! What the API answers when a request cannot be served: a 4xx status with
//! `{"error": "..."}`, and a JSON body extractor whose own rejections
//! (malformed JSON, wrong content type, a body over the limit) take the
//! same shape, so the page always has a message to show.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;

/// An API error: the status and a message that tells the user what to fix.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// The HTTP status (always 4xx: the server's own faults are not errors of the request).
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

    /// 409: the request is right but the game's state forbids it now.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: message.into(),
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
        _ => format!("bad JSON request: {}", rejection.body_text()),
    };
    ApiError { status, message }
}

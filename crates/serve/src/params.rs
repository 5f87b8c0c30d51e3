//! Query parameters and the server's error answers.
//!
//! Every query string is parsed by [`Params::parse`] against the endpoint's
//! list of parameters: an unknown or repeated parameter, a missing required
//! one, or a value that does not parse is a 400 whose JSON body names the
//! parameter (`{"error": "...", "parameter": "..."}`). Every other error
//! answer of the server is the same document ([`ApiError`]), made from a
//! query's typed refusal (`gametab_answers::Error`) by `From`, and turned
//! into a response by `IntoResponse`; a log an engine refuses is named by
//! [`log_error`], the one place that decides which part of a body a 422
//! blames.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use gametab_answers::{Error as QueryError, Parameter};
use gametab_games::murder_plan::{DaysLeft, Offset};

/// An error answer: a status and a message, naming the parameter at fault
/// when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status (4xx).
    pub status: StatusCode,
    /// What is wrong, for a person.
    pub error: String,
    /// The query parameter (or `body`) at fault.
    pub parameter: Option<String>,
    /// Seconds after which a retry may succeed (`Retry-After`), for a 503
    /// of a full server.
    pub retry_after: Option<u32>,
}

impl ApiError {
    /// 400: `parameter` is missing, unknown, repeated or invalid.
    pub fn bad(parameter: &str, error: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            error: error.into(),
            parameter: Some(parameter.to_string()),
            retry_after: None,
        }
    }

    /// An error with any status and no parameter.
    pub fn status(status: StatusCode, error: impl Into<String>) -> ApiError {
        ApiError {
            status,
            error: error.into(),
            parameter: None,
            retry_after: None,
        }
    }

    /// An error with any status about `parameter` (a query parameter,
    /// `body`, or a part of the body such as `events[3]`).
    pub fn about(status: StatusCode, parameter: &str, error: impl Into<String>) -> ApiError {
        ApiError {
            parameter: Some(parameter.to_string()),
            ..ApiError::status(status, error)
        }
    }

    /// The JSON error document of this error.
    pub fn document(&self) -> String {
        json!({ "error": self.error, "parameter": self.parameter }).to_string()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, self.document()).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        if let Some(seconds) = self.retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

impl From<QueryError> for ApiError {
    /// A query's refusal as its answer: an input out of range is a 400
    /// naming the parameter, a key the tables do not hold a 404, a
    /// refusal of the input as a whole a 422, a spent budget a 503, a table
    /// set that does not load a 422 (the answer of a set that cannot
    /// answer it). A refused game log is [`log_error`]'s.
    fn from(error: QueryError) -> ApiError {
        let message = error.to_string();
        match error {
            QueryError::Invalid {
                parameter: Parameter::Log,
                ..
            } => ApiError::about(StatusCode::UNPROCESSABLE_ENTITY, "body", message),
            QueryError::Invalid { parameter, .. } => ApiError::bad(parameter.name(), message),
            QueryError::NotInTables { .. } => ApiError::status(StatusCode::NOT_FOUND, message),
            QueryError::Budget(_) => ApiError::status(StatusCode::SERVICE_UNAVAILABLE, message),
            _ => ApiError::status(StatusCode::UNPROCESSABLE_ENTITY, message),
        }
    }
}

impl From<gametab_games::Error> for ApiError {
    /// An engine's refusal of a POSTed log ([`log_error`]); a spent budget
    /// (what [`gametab_games::budget::Budget::run`] returns when it ran
    /// out) is a 503.
    fn from(error: gametab_games::Error) -> ApiError {
        log_error(QueryError::from_log(error))
    }
}

/// The answer to a POSTed log that parses but that the rules or an engine
/// refuse: a 422 naming the part of the body at fault, `body` (the
/// engines' errors carry the event's index; naming `events[12]` would be
/// the place to use it). A spent budget is a 503.
pub fn log_error(error: QueryError) -> ApiError {
    match error {
        QueryError::Refused { .. } => {
            ApiError::about(StatusCode::UNPROCESSABLE_ENTITY, "body", error.to_string())
        }
        other => ApiError::from(other),
    }
}

/// Query parameters renamed for one name per concept (old, new): an old
/// name is refused with a 400 that names the new one.
pub const RENAMED: [(&str, &str); 1] = [("mine", "hand")];

/// The parsed query string of one request.
#[derive(Debug, Default)]
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    /// Parse `query` (percent-decoded), refusing parameters not in
    /// `allowed` and parameters given twice.
    ///
    /// # Errors
    /// 400 naming the unknown or repeated parameter.
    pub fn parse(query: Option<&str>, allowed: &[&str]) -> Result<Params, ApiError> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for (name, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            if !allowed.contains(&name.as_ref()) {
                if let Some((_, new)) = RENAMED
                    .iter()
                    .find(|(old, new)| *old == name && allowed.contains(new))
                {
                    return Err(ApiError::bad(
                        &name,
                        format!("'{name}' is the old name of '{new}': write {new}={value}"),
                    ));
                }
                let known = if allowed.is_empty() {
                    "this endpoint takes no parameters".to_string()
                } else {
                    format!("known: {}", allowed.join(", "))
                };
                return Err(ApiError::bad(
                    &name,
                    format!("unknown parameter '{name}' ({known})"),
                ));
            }
            if pairs.iter().any(|(n, _)| *n == name) {
                return Err(ApiError::bad(&name, format!("'{name}' is given twice")));
            }
            pairs.push((name.into_owned(), value.into_owned()));
        }
        Ok(Params { pairs })
    }

    /// The raw value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `name`, which must be given.
    ///
    /// # Errors
    /// 400 when it is missing.
    pub fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name)
            .ok_or_else(|| ApiError::bad(name, format!("'{name}' is required")))
    }

    /// `name` parsed by `parse` (whose message names the problem), or
    /// `default` when absent.
    ///
    /// # Errors
    /// 400 naming `name` when the value does not parse.
    pub fn parsed<T>(
        &self,
        name: &str,
        default: T,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<T, ApiError> {
        match self.get(name) {
            None => Ok(default),
            Some(text) => parse(text).map_err(|e| ApiError::bad(name, format!("{name}: {e}"))),
        }
    }

    /// A whole number of `name` in `range`, or `default`.
    ///
    /// # Errors
    /// 400 naming `name` when it is not a whole number in the range.
    pub fn integer(
        &self,
        name: &str,
        default: u32,
        range: std::ops::RangeInclusive<u32>,
    ) -> Result<u32, ApiError> {
        self.parsed(name, default, |text| {
            let value: u32 = text
                .trim()
                .parse()
                .map_err(|_| format!("'{text}' is not a whole number"))?;
            if range.contains(&value) {
                Ok(value)
            } else {
                Err(format!(
                    "{value} is out of range ({}..={})",
                    range.start(),
                    range.end()
                ))
            }
        })
    }

    /// A boolean (`true`/`false`, `1`/`0`) of `name`, or `default`.
    ///
    /// # Errors
    /// 400 naming `name` for any other text.
    pub fn boolean(&self, name: &str, default: bool) -> Result<bool, ApiError> {
        self.parsed(name, default, |text| match text.trim() {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            other => Err(format!("'{other}' is not true or false")),
        })
    }

    /// Days left of `name` in `range` (required).
    ///
    /// # Errors
    /// 400 naming `name` when missing, unparsable or out of range.
    pub fn days(
        &self,
        name: &str,
        range: std::ops::RangeInclusive<u8>,
    ) -> Result<DaysLeft, ApiError> {
        self.required(name)?;
        let wide = u32::from(*range.start())..=u32::from(*range.end());
        let days = self.integer(name, 0, wide)?;
        Ok(DaysLeft::new(days as u8))
    }

    /// An offset "a,b" of `name` (required).
    ///
    /// # Errors
    /// 400 naming `name` when missing or not two components in {0, 1}.
    pub fn offset(&self, name: &str) -> Result<Offset, ApiError> {
        let text = self.required(name)?;
        gametab_answers::murder_plan::state::parse_offset(text)
            .map_err(|e| ApiError::bad(name, format!("{name}: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_repeated_missing_and_malformed_parameters_are_named() {
        let allowed = ["days", "brain"];
        let err = Params::parse(Some("days=3&colour=red"), &allowed).unwrap_err();
        assert_eq!(err.parameter.as_deref(), Some("colour"));
        let err = Params::parse(Some("days=3&days=4"), &allowed).unwrap_err();
        assert_eq!(err.parameter.as_deref(), Some("days"));
        let params = Params::parse(Some("days=x&brain=2%2C0"), &allowed).unwrap();
        assert_eq!(
            params.days("days", 0..=8).unwrap_err().parameter.as_deref(),
            Some("days")
        );
        assert_eq!(
            params.offset("brain").unwrap_err().parameter.as_deref(),
            Some("brain")
        );
        let params = Params::parse(Some("days=9"), &allowed).unwrap();
        let err = params.days("days", 0..=8).unwrap_err();
        assert!(err.error.contains("out of range"), "{}", err.error);
        let params = Params::parse(None, &allowed).unwrap();
        assert_eq!(
            params.offset("brain").unwrap_err().error,
            "'brain' is required"
        );
        let params = Params::parse(Some("days=%208&brain=0%2C1"), &allowed).unwrap();
        assert_eq!(params.days("days", 0..=8).unwrap().get(), 8);
        assert_eq!(params.offset("brain").unwrap(), Offset::new(0, 1).unwrap());
    }
}

//! Game logs as the command line and the server take them: bounded.
//!
//! The engines' work grows with a log's length, so every way in applies
//! the same limits: at most [`MAX_CLUEDO_EVENTS`] events in a Cluedo log
//! and [`MAX_WEREWOLF_EVENTS`] in a Werewolf log (the server checks them
//! on the POSTed body, the CLI on `--log`), and a file read by the CLI is
//! read through [`read_log`], which stops at [`MAX_LOG_BYTES`] (so
//! `--log /dev/zero` or a runaway file ends with an error, not with the
//! memory). The server's own byte limit is `--max-body` (1 MiB by
//! default): a POSTed body is a network read, a file a local one.

use std::io::Read;
use std::path::Path;

use crate::error::{Error, Parameter, Result};

/// Most bytes of a log file the CLI reads (16 MiB: ten times the longest
/// Cluedo log the event limit allows, pretty-printed).
pub const MAX_LOG_BYTES: u64 = 16 << 20;

/// Most events (suggestions, accusations and facts) of a Cluedo log.
pub const MAX_CLUEDO_EVENTS: usize = 10_000;

/// Most events of a Werewolf log.
pub const MAX_WEREWOLF_EVENTS: usize = 10_000;

/// The text of the log file at `path`, at most [`MAX_LOG_BYTES`] long.
///
/// # Errors
/// An unreadable file, one over the limit (it is not read further), or
/// one that is not UTF-8.
pub fn read_log(path: &Path) -> Result<String> {
    read_log_within(path, MAX_LOG_BYTES)
}

/// [`read_log`] with another byte limit.
///
/// # Errors
/// As [`read_log`].
pub fn read_log_within(path: &Path, max_bytes: u64) -> Result<String> {
    let unreadable = |e: std::io::Error| {
        Error::invalid(
            Parameter::Log,
            format!("cannot read {}: {e}", path.display()),
        )
    };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut bytes = Vec::new();
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > max_bytes {
        return Err(Error::invalid(
            Parameter::Log,
            format!(
                "{} is over {max_bytes} bytes, the most a game log may hold; not read further",
                path.display()
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        Error::invalid(
            Parameter::Log,
            format!("{} is not UTF-8 text: {e}", path.display()),
        )
    })
}

/// Refuse a Cluedo log of more than [`MAX_CLUEDO_EVENTS`] events.
///
/// # Errors
/// The count and the limit.
/// Parse the JSON text of a `game` log (`"Cluedo"`, `"Werewolf"`) read
/// from `path`: a refusal says the file is not a valid log of that game,
/// gives the reader's own words and position, the nearest accepted name
/// when a name was not accepted, and where the format is described.
///
/// # Errors
/// Text that is not JSON or does not follow the log's format.
pub fn parse_log<T: serde::de::DeserializeOwned>(path: &Path, text: &str, game: &str) -> Result<T> {
    serde_json::from_str(text).map_err(|e| {
        let what = if e.is_syntax() || e.is_eof() {
            "is not JSON"
        } else {
            "does not follow the log format"
        };
        let message = e.to_string();
        let hint = gametab_games::suggest::serde_hint(&message);
        Error::invalid(
            Parameter::Log,
            format!(
                "{} is not a valid {game} game log: it {what}: {message}{hint} (the format: docs/{}.md; examples in scripts/examples/)",
                path.display(),
                game.to_lowercase()
            ),
        )
    })
}

pub fn check_cluedo_events(log: &gametab_games::cluedo::GameLog) -> Result<()> {
    let events = log.suggestions.len() + log.accusations.len() + log.facts.len();
    if events > MAX_CLUEDO_EVENTS {
        return Err(Error::Refused {
            event: None,
            message: format!(
                "the log has {events} events; at most {MAX_CLUEDO_EVENTS} are analysed"
            ),
        });
    }
    Ok(())
}

/// Refuse a Werewolf log of more than [`MAX_WEREWOLF_EVENTS`] events.
///
/// # Errors
/// The count and the limit.
pub fn check_werewolf_events(log: &gametab_games::werewolf::GameLog) -> Result<()> {
    let events = log.events.len();
    if events > MAX_WEREWOLF_EVENTS {
        return Err(Error::Refused {
            event: None,
            message: format!(
                "the log has {events} events; at most {MAX_WEREWOLF_EVENTS} are analysed"
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_over_the_limit_is_refused_without_reading_it_all() {
        // /dev/zero never ends: the reader stops one byte past the limit.
        let error = read_log_within(Path::new("/dev/zero"), 1000).unwrap_err();
        assert!(error.to_string().contains("over 1000 bytes"), "{error}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.json");
        std::fs::write(&path, "{}").unwrap();
        assert_eq!(read_log_within(&path, 2).unwrap(), "{}");
        assert!(read_log_within(&path, 1).is_err());
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(read_log_within(&path, 10)
            .unwrap_err()
            .to_string()
            .contains("not UTF-8"));
    }
}

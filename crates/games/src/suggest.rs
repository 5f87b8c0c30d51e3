//! "Did you mean": the accepted name nearest to one that is not accepted
//! (a card, a role, an event kind), for refusals that name the fix.
//!
//! Names are compared as the games read them (case, spaces and
//! punctuation ignored). A candidate is near when the wanted name is part
//! of it or it of the wanted name (`Mustard` in `Colonel Mustard`), or
//! when few edits turn one into the other: insertions, deletions,
//! substitutions and swaps of two neighbours (`Kitchn`, `nigth`), at most
//! a third of the wanted name's length.

/// The candidate nearest to `wanted`, if any is near enough.
pub fn nearest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wanted = normalise(wanted);
    if wanted.is_empty() {
        return None;
    }
    let limit = (wanted.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        let name = normalise(candidate);
        if name == wanted {
            return Some(candidate);
        }
        let contained = wanted.len() >= 3 && (name.contains(&wanted) || wanted.contains(&name));
        let distance = if contained { 0 } else { edits(&wanted, &name) };
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// `"; did you mean \"NAME\"?"` for the nearest candidate, or nothing.
pub fn did_you_mean<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    nearest(wanted, candidates).map_or_else(String::new, |name| format!("; did you mean {name:?}?"))
}

/// The hint for a serde refusal of an unknown enum variant or field
/// (`unknown variant `nigth`, expected one of `night`, ...`): the
/// nearest expected name, or nothing when the message is of another kind.
pub fn serde_hint(message: &str) -> String {
    let Some(rest) = message
        .strip_prefix("unknown variant `")
        .or_else(|| message.strip_prefix("unknown field `"))
        .or_else(|| message.split_once(": unknown variant `").map(|(_, r)| r))
        .or_else(|| message.split_once(": unknown field `").map(|(_, r)| r))
    else {
        return String::new();
    };
    let Some((wanted, expected)) = rest.split_once('`') else {
        return String::new();
    };
    // The expected names are the backquoted words after it.
    let names: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    did_you_mean(wanted, names)
}

/// Lowercase letters and digits only.
fn normalise(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Edits (insert, delete, substitute, swap neighbours) from `a` to `b`:
/// the optimal string alignment distance.
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOMS: [&str; 3] = ["Kitchen", "Ballroom", "Dining Room"];

    #[test]
    fn near_names_are_found_and_far_ones_are_not() {
        assert_eq!(nearest("Kitchn", ROOMS), Some("Kitchen"));
        assert_eq!(nearest("dining-room", ROOMS), Some("Dining Room"));
        assert_eq!(nearest("ballrom", ROOMS), Some("Ballroom"));
        assert_eq!(
            nearest("Mustard", ["Miss Scarlett", "Colonel Mustard"]),
            Some("Colonel Mustard")
        );
        assert_eq!(
            nearest("nigth", ["night_kill", "night", "seer"]),
            Some("night")
        );
        assert_eq!(nearest("Garage", ROOMS), None);
        assert_eq!(nearest("", ROOMS), None);
        assert_eq!(
            did_you_mean("seerr", ["wolf", "seer"]),
            "; did you mean \"seer\"?"
        );
        assert_eq!(did_you_mean("xyz", ["wolf", "seer"]), "");
    }

    #[test]
    fn serde_refusals_get_the_nearest_expected_name() {
        let message =
            "unknown variant `nigth`, expected one of `night_kill`, `seer`, `night`, `tie`";
        assert_eq!(serde_hint(message), "; did you mean \"night\"?");
        let field = "events[3]: unknown field `taget`, expected `target` or `result`";
        assert_eq!(serde_hint(field), "; did you mean \"target\"?");
        assert_eq!(serde_hint("invalid type: string, expected u8"), "");
    }

    #[test]
    fn edits_count_swaps_as_one() {
        assert_eq!(edits("night", "nigth"), 1);
        assert_eq!(edits("kitchen", "kitchn"), 1);
        assert_eq!(edits("", "abc"), 3);
        assert_eq!(edits("abc", "abc"), 0);
    }
}

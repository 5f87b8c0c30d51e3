//! Liar's Dice endgame checks of `gametab verify`: the values and strategy
//! tables are loaded by the lookup crate's loader (key order, legal actions,
//! every information set summing to 1), the best-response certificate is
//! run again on the stored strategies of every game, both the
//! every-history walk and the sparse walk over the stored rows alone for
//! the games whose dense strategy fits, the sparse walk alone for those
//! stored by their support (a (hand, history) without rows playing the
//! default action; each at most [`MAX_EXPLOITABILITY`], the exact value
//! inside its bracket), and all three tables are then rebuilt from the
//! stored strategies (each game in the layout the build writes it in) and
//! compared with the files cell by cell: every row, not a sample.
//!
//! A set's strategy table can have tens of millions of rows, so it is
//! rebuilt and compared game by game ([`game_rows`]): each game is decoded,
//! certified, rebuilt and compared with its stretch of the file on its
//! own, and dropped, keeping only its findings (column by column) and its
//! posterior rows; the findings are merged afterwards in the order a
//! comparison of the whole rebuilt table gives (`compare`: column by
//! column, row by row), so the report is that comparison's.

use crate::error::{chain, Error};
use bytes::Bytes;
use gametab_games::dice::endgame::{Endgame, Player, Strategy};
use gametab_lookup::dice::schema::{ENDGAME_POSTERIORS, ENDGAME_STRATEGY, ENDGAME_VALUES};
use gametab_lookup::dice::{fits, EndgameTables, StoredEndgame};
use gametab_lookup::io::{read_parquet_rows, Column, TableData};

use super::files::LoadedFiles;
use super::jobs::in_parallel;
use super::report::{key_text, TableCheck, MAX_FINDINGS_PER_FILE};
use crate::dice::endgame::game_rows::{self, GamePosteriors};
use crate::dice::endgame::rows;
use gametab_solve::endgame::lp::full_size;
use gametab_solve::endgame::{
    cache, certificate, exact_value, sparse, value_in_bracket, Certificate, LpSize, Method,
    MAX_EXPLOITABILITY, MAX_VALUE_OUTSIDE,
};

/// A stored game too large for the dense strategies: its rows as the
/// cache's entries (player 1's first) and their sparse certificate.
type SupportCertified = ([Vec<cache::CachedEntry>; 2], Certificate);

/// Decode a game stored by its support ([`StoredEndgame::rows`]) and
/// certify its rows by the sparse walk.
fn certify_support(stored: &StoredEndgame) -> Result<SupportCertified, String> {
    let mut entries: [Vec<cache::CachedEntry>; 2] = Default::default();
    for p in Player::BOTH {
        let rows = stored.rows(p).map_err(|e| chain(&e))?;
        entries[p.index()] = rows
            .into_iter()
            .map(|(i, h, a, prob)| cache::entry_of(usize::from(i), h, a, prob))
            .collect();
    }
    let [one, two] = Player::BOTH.map(|p| {
        sparse::SparseStrategy::from_grouped(stored.game, p, entries[p.index()].iter().copied())
            .map_err(|e| format!("rows the sparse certificate accepts: {}", chain(&e)))
    });
    let cert = sparse::certify_pair(&one?, &two?).certificate;
    Ok((entries, cert))
}

/// Largest difference accepted between a stored float and the rebuilt one.
pub const FLOAT_TOLERANCE: f64 = 1e-12;

/// Compare a rebuilt table with the stored one, every cell.
fn compare(expected: &TableData, found: &TableData, check: &mut TableCheck) {
    check.rows_total = found.rows();
    if expected.rows() != found.rows() {
        check.file_mismatch("rows", expected.rows(), found.rows());
        return;
    }
    for (def, (want, have)) in expected
        .schema
        .columns
        .iter()
        .zip(expected.columns.iter().zip(&found.columns))
    {
        let key = |row| key_text(found, row);
        match (want, have) {
            (Column::Float64(w), Column::Float64(h)) => {
                for row in 0..w.len() {
                    check.float(row, || key(row), def.name, w[row], h[row], FLOAT_TOLERANCE);
                }
            }
            (Column::Int32(w), Column::Int32(h)) => {
                for row in 0..w.len() {
                    check.exact(row, || key(row), def.name, w[row], h[row]);
                }
            }
            (Column::Int64(w), Column::Int64(h)) => {
                for row in 0..w.len() {
                    check.exact(row, || key(row), def.name, w[row], h[row]);
                }
            }
            (Column::Bool(w), Column::Bool(h)) => {
                for row in 0..w.len() {
                    check.exact(row, || key(row), def.name, w[row], h[row]);
                }
            }
            (Column::Utf8(w), Column::Utf8(h)) => {
                for row in 0..w.len() {
                    check.exact(row, || key(row), def.name, &w[row], &h[row]);
                }
            }
            _ => check.file_mismatch(def.name, def.ty.name(), "another type"),
        }
    }
    check.rows_checked = found.rows();
}

/// What one stored game gives the check, computed on its own (in
/// parallel with the other games) and taken in the stored order.
struct GameCheck {
    /// The finding of the strategy table that ends the check (a game whose
    /// rows do not decode or that the sparse certificate refuses): the
    /// expected text and what was found.
    failure: Option<(&'static str, String)>,
    /// The certificates to count, in order: of a dense game the
    /// every-history one and the sparse one, of a support-stored game the
    /// sparse one.
    certificates: Vec<Certificate>,
    /// The certificate of the values table's row (the first).
    certificate: Certificate,
    /// The game's rebuilt rows, compared (or the error that kept them from
    /// being built).
    rebuilt: std::result::Result<Rebuilt, String>,
}

/// A game's rebuilt rows: its strategy rows compared with the file's at
/// an offset, and its posterior rows.
struct Rebuilt {
    /// Its strategy rows.
    strategy_rows: usize,
    /// The comparison of its strategy rows with the file's, one check per
    /// column of the schema (empty when the file did not decode).
    columns: Vec<TableCheck>,
    /// Its posterior rows, for the posterior table.
    posteriors: GamePosteriors,
}

impl GameCheck {
    /// A game that ends the check with the finding `expected`, `found`.
    fn failed(expected: &'static str, found: String) -> GameCheck {
        GameCheck {
            failure: Some((expected, found)),
            certificates: Vec::new(),
            certificate: Certificate {
                upper: 0.0,
                lower: 0.0,
            },
            rebuilt: Err(String::new()),
        }
    }
}

/// Every game's rebuilt rows, or the first error (in key order) that kept
/// a game's from being built.
fn rebuilt(results: &[GameCheck]) -> std::result::Result<Vec<&Rebuilt>, String> {
    results
        .iter()
        .map(|r| r.rebuilt.as_ref().map_err(Clone::clone))
        .collect()
}

/// Every game's rebuilt rows, once [`rebuilt`] found no error.
fn rebuilt_all(results: &[GameCheck]) -> Vec<&Rebuilt> {
    rebuilt(results).unwrap_or_default()
}

/// The LP size of a values row's three numbers.
fn lp_size(s: [i64; 3]) -> LpSize {
    LpSize {
        rows: s[0].max(0) as u64,
        columns: s[1].max(0) as u64,
        nonzeros: s[2].max(0) as u64,
    }
}

/// Decode, certify and rebuild one game stored with every information set
/// ([`fits`]), its strategy rows compared with `found` from row `offset`.
/// Its dense strategies are dropped on return.
fn check_dense(stored: &StoredEndgame, found: Option<Found<'_>>, offset: usize) -> GameCheck {
    let [one, two] = match stored.strategies() {
        Ok(pair) => pair,
        Err(e) => return GameCheck::failed("tables the lookup loader accepts", e.to_string()),
    };
    let cert = certificate::certify(&one, &two);
    // The sparse certificate of the same rows: every stored (hand,
    // history, action, probability), nothing else.
    let rows = |s: &Strategy| {
        sparse::SparseStrategy::from_grouped(
            stored.game,
            s.player(),
            s.positive().map(|(i, h, a, p)| cache::entry_of(i, h, a, p)),
        )
    };
    let sparse = rows(&one).and_then(|a| Ok(sparse::certify_pair(&a, &rows(&two)?).certificate));
    let sparse = match sparse {
        Ok(sparse) => sparse,
        Err(e) => return GameCheck::failed("rows the sparse certificate accepts", chain(&e)),
    };
    GameCheck {
        failure: None,
        certificates: vec![cert, sparse],
        certificate: cert,
        rebuilt: rebuild(game_rows::dense(&[one, two]), found, offset),
    }
}

/// Decode, certify and rebuild one game stored by its support, its
/// strategy rows compared with `found` from row `offset`.
fn check_support(stored: &StoredEndgame, found: Option<Found<'_>>, offset: usize) -> GameCheck {
    let (entries, cert) = match certify_support(stored) {
        Ok(certified) => certified,
        Err(e) => return GameCheck::failed("tables the lookup loader accepts", e),
    };
    // A game of an unknown method ends the check before its rows count.
    let rebuilt = match Method::from_name(&stored.method) {
        Some(method) => {
            let solved = cache::SparseSolved {
                game: stored.game,
                value: stored.value,
                exact: exact_value(&cert),
                certificate: cert,
                method,
                size: lp_size(stored.lp_size),
                full_size: lp_size(stored.full_lp_size),
                lps: stored.lp_solves.max(0) as u32,
                entries: [entries[0].len(), entries[1].len()],
            };
            let game = rows::SparseGame::new(solved, entries);
            rebuild(game_rows::sparse(&game), found, offset)
        }
        None => Err(format!("method {}", stored.method)),
    };
    GameCheck {
        failure: None,
        certificates: vec![cert],
        certificate: cert,
        rebuilt,
    }
}

/// A game's rebuilt rows, its strategy rows compared with `found` from
/// row `offset`.
fn rebuild(
    rows: crate::error::Result<game_rows::GameRows>,
    found: Option<Found<'_>>,
    offset: usize,
) -> std::result::Result<Rebuilt, String> {
    let rows = rows.map_err(|e| chain(&e))?;
    let columns = found.map_or_else(Vec::new, |found| compare_at(&rows.strategy, found, offset));
    Ok(Rebuilt {
        strategy_rows: rows.strategy.rows(),
        columns,
        posteriors: rows.posteriors,
    })
}

/// Compare `expected`, a stretch of rows, with the file's rows from
/// `offset`: one check per column of the schema, each with the findings of
/// its column alone (rows numbered and keyed as in the file). A stretch
/// that does not lie inside the file is not compared (its offset was
/// wrong: the caller compares again or reports the row count).
fn compare_at(expected: &TableData, found: Found<'_>, offset: usize) -> Vec<TableCheck> {
    let file = ENDGAME_STRATEGY.file;
    let mut checks: Vec<TableCheck> = expected
        .columns
        .iter()
        .map(|_| TableCheck::new(file))
        .collect();
    let rows = offset..offset + expected.rows();
    if rows.end > found.rows || rows.is_empty() {
        return checks;
    }
    // The row groups that hold the stretch (those of the game's two
    // players when the file is laid out as the build writes it).
    let (first, found) =
        match read_parquet_rows(found.bytes.clone(), &ENDGAME_STRATEGY, rows.clone()) {
            Ok(read) => read,
            Err(e) => {
                checks[0].file_mismatch("file", "a readable strategy table", e);
                return checks;
            }
        };
    if first > rows.start || first + found.rows() < rows.end {
        checks[0].file_mismatch("rows", rows.end, first + found.rows());
        return checks;
    }
    let offset = offset - first;
    for ((def, check), (want, have)) in expected
        .schema
        .columns
        .iter()
        .zip(&mut checks)
        .zip(expected.columns.iter().zip(&found.columns))
    {
        let key = |row: usize| key_text(&found, row);
        let at = |row: usize| offset + row;
        match (want, have) {
            (Column::Float64(w), Column::Float64(h)) => {
                for (row, &w) in w.iter().enumerate() {
                    let r = at(row);
                    check.float(first + r, || key(r), def.name, w, h[r], FLOAT_TOLERANCE);
                }
            }
            (Column::Int32(w), Column::Int32(h)) => {
                for (row, &w) in w.iter().enumerate() {
                    let r = at(row);
                    check.exact(first + r, || key(r), def.name, w, h[r]);
                }
            }
            (Column::Int64(w), Column::Int64(h)) => {
                for (row, &w) in w.iter().enumerate() {
                    let r = at(row);
                    check.exact(first + r, || key(r), def.name, w, h[r]);
                }
            }
            (Column::Bool(w), Column::Bool(h)) => {
                for (row, &w) in w.iter().enumerate() {
                    let r = at(row);
                    check.exact(first + r, || key(r), def.name, w, h[r]);
                }
            }
            (Column::Utf8(w), Column::Utf8(h)) => {
                for row in 0..w.len() {
                    let r = at(row);
                    check.exact(first + r, || key(r), def.name, &w[row], &h[r]);
                }
            }
            // The file decoded against the schema the rows were built
            // with: its columns have the schema's types.
            _ => {}
        }
    }
    checks
}

/// The strategy table's check from the games' rebuilt stretches, in key
/// order, each compared at the offset `offsets` gave it: what [`compare`]
/// finds on the whole rebuilt table, findings column by column and row by
/// row. `None` when an offset was not where the rebuilt rows before it
/// end (the caller compares again at the right offsets).
fn merge_strategy(
    found: Found<'_>,
    games: &[&Rebuilt],
    offsets: &[usize],
    check: &mut TableCheck,
) -> Option<()> {
    check.rows_total = found.rows;
    let total: usize = games.iter().map(|g| g.strategy_rows).sum();
    if total != found.rows {
        check.file_mismatch("rows", total, found.rows);
        return Some(());
    }
    let mut at = 0;
    for (game, &offset) in games.iter().zip(offsets) {
        if offset != at {
            return None;
        }
        at += game.strategy_rows;
    }
    for c in 0..ENDGAME_STRATEGY.columns.len() {
        for game in games {
            let Some(part) = game.columns.get(c) else {
                continue;
            };
            check.mismatches += part.mismatches;
            check.max_error = check.max_error.max(part.max_error);
            let room = MAX_FINDINGS_PER_FILE.saturating_sub(check.findings.len());
            check
                .findings
                .extend(part.findings.iter().take(room).cloned());
        }
    }
    check.rows_checked = found.rows;
    Some(())
}

/// The stored strategy table, read a stretch at a time: the file's
/// bytes and its rows (it decoded against its schema in the file checks).
#[derive(Clone, Copy)]
struct Found<'a> {
    bytes: &'a Bytes,
    rows: usize,
}

/// Check the three endgame tables.
///
/// Each game is decoded, certified and rebuilt on its own, in parallel,
/// and its strategy rows compared there with the file's stretch of them,
/// so that at most a few games' dense strategies and rebuilt rows are
/// alive at once; the findings are then taken in the stored order (the
/// certificates) and in the table's order (the rows), so the report is
/// the same whatever the thread count, and the same as a comparison of
/// the whole rebuilt table (`compare`).
pub fn check(loaded: &LoadedFiles) -> Vec<TableCheck> {
    let mut checks = [ENDGAME_VALUES, ENDGAME_STRATEGY, ENDGAME_POSTERIORS]
        .map(|schema| TableCheck::new(schema.file));
    let bytes = |file| loaded.bytes.get(file).cloned();
    let (Some(values), Some(strategy)) = (bytes(ENDGAME_VALUES.file), bytes(ENDGAME_STRATEGY.file))
    else {
        return checks.into();
    };
    let tables = match EndgameTables::from_bytes(values, strategy) {
        Ok(tables) => tables,
        Err(e) => {
            checks[1].file_mismatch("file", "tables the lookup loader accepts", e);
            return checks.into();
        }
    };
    // The dense games first, then those stored by their support, each in
    // the stored order: the order of the certificates' findings.
    let (stored, by_support): (Vec<_>, Vec<_>) = tables.games().partition(|s| fits(s.game));
    let games: Vec<(&StoredEndgame, bool)> = stored
        .iter()
        .map(|&s| (s, true))
        .chain(by_support.iter().map(|&s| (s, false)))
        .collect();
    // The games in the tables' key order (a stable sort, as the build's).
    let mut in_order: Vec<usize> = (0..games.len()).collect();
    in_order.sort_by_key(|&i| rows::key_order(games[i].0.game));
    let file = ENDGAME_STRATEGY.file;
    let found = match (loaded.by_groups.get(file), loaded.bytes.get(file)) {
        (Some(&rows), Some(bytes)) => Some(Found { bytes, rows }),
        _ => None,
    };
    let size = |i: usize| -> usize { Player::BOTH.map(|p| games[i].0.stored_rows(p)).iter().sum() };
    // The games of key place `k`, checked largest first so that no large
    // game is left to run alone at the end, those stored by their support
    // one at a time (`in_parallel`); each result lands in its key place,
    // so the order of the work does not show.
    let mut largest_first: Vec<usize> = (0..in_order.len()).collect();
    largest_first.sort_by_key(|&k| std::cmp::Reverse(size(in_order[k])));
    let check_all = |offsets: &[usize]| -> Vec<GameCheck> {
        let heavy = |k: usize| !games[in_order[k]].1;
        in_parallel(&largest_first, heavy, |k| match games[in_order[k]] {
            (stored, true) => check_dense(stored, found, offsets[k]),
            (stored, false) => check_support(stored, found, offsets[k]),
        })
    };
    // Where each game's rows lie in the file: after the stored rows of the
    // games before it.
    let mut at = 0;
    let offsets: Vec<usize> = in_order
        .iter()
        .map(|&i| {
            let offset = at;
            at += size(i);
            offset
        })
        .collect();
    let mut results = check_all(&offsets);
    let mut place = vec![0; games.len()];
    for (k, &i) in in_order.iter().enumerate() {
        place[i] = k;
    }
    let mut records = Vec::new();
    for (i, &(stored, _)) in games.iter().enumerate() {
        let result = &results[place[i]];
        if let Some((expected, found)) = &result.failure {
            checks[1].file_mismatch("file", expected, found);
            return checks.into();
        }
        for &cert in &result.certificates {
            record_certificate(&mut checks[0], stored.game, cert);
        }
        let Some(method) = Method::from_name(&stored.method) else {
            checks[0].file_mismatch("method", "full_lp or double_oracle", &stored.method);
            return checks.into();
        };
        if lp_size(stored.full_lp_size) != full_size(stored.game) {
            checks[0].file_mismatch(
                "full_lp_rows",
                format!("{} the full LP's size", stored.game),
                format!("{:?}", stored.full_lp_size),
            );
        }
        let cert = result.certificate;
        if !value_in_bracket(stored.value, &cert) {
            checks[0].file_mismatch(
                "value",
                format!(
                    "{} inside its certified bracket [{:e}, {:e}] (to {MAX_VALUE_OUTSIDE:e})",
                    stored.game, cert.lower, cert.upper
                ),
                stored.value,
            );
        }
        records.push(rows::ValueRecord {
            game: stored.game,
            value: stored.value,
            exact: exact_value(&cert),
            certificate: cert,
            method,
            lps: stored.lp_solves.max(0) as u32,
            size: lp_size(stored.lp_size),
            full_size: lp_size(stored.full_lp_size),
        });
    }
    // Every game decoded and certified: the rebuilt rows of each, and the
    // values and posterior tables from them.
    let small = rebuilt(&results).and_then(|games| {
        let posteriors = game_rows::posteriors_table(games.iter().map(|g| &g.posteriors));
        let values = rows::values_of(records);
        match (values, posteriors) {
            (Ok(values), Ok(posteriors)) => Ok([values, posteriors]),
            (Err(e), _) | (_, Err(e)) => Err(chain(&e)),
        }
    });
    match small {
        Err(text) => {
            let e = Error::Check(text);
            for check in &mut checks {
                check.file_mismatch("file", "a table rebuilt from the strategies", &e);
            }
        }
        Ok([values, posteriors]) => {
            if let Some(found) = found {
                let mut check = TableCheck::new(ENDGAME_STRATEGY.file);
                if merge_strategy(found, &rebuilt_all(&results), &offsets, &mut check).is_none() {
                    // A game's rows in the file are not where its rebuilt
                    // rows lie (rows missing from one game and added to
                    // another): compare again at the rebuilt offsets.
                    let mut at = 0;
                    let offsets: Vec<usize> = rebuilt_all(&results)
                        .iter()
                        .map(|g| {
                            at += g.strategy_rows;
                            at - g.strategy_rows
                        })
                        .collect();
                    results = check_all(&offsets);
                    check = TableCheck::new(ENDGAME_STRATEGY.file);
                    merge_strategy(found, &rebuilt_all(&results), &offsets, &mut check);
                }
                checks[1] = check;
            }
            for (at, expected, schema) in [
                (0, values, ENDGAME_VALUES),
                (2, posteriors, ENDGAME_POSTERIORS),
            ] {
                if let Some(found) = loaded.table(&schema) {
                    compare(&expected, found, &mut checks[at]);
                }
            }
        }
    }
    checks[0].notes.push(format!(
        "best responses recomputed on the stored strategies (every history, and the stored rows alone; the rows alone for the games stored by their support): exploitability at most {MAX_EXPLOITABILITY:e}, the exact value within {FLOAT_TOLERANCE:e} and inside the bracket"
    ));
    for check in &mut checks {
        check.notes.push(format!(
            "every row rebuilt from the stored strategies; floats within {FLOAT_TOLERANCE:e}"
        ));
    }
    checks.into()
}

/// Count `cert`'s exploitability into the values table's check, and name
/// `game` as a mismatch when it is above [`MAX_EXPLOITABILITY`].
fn record_certificate(check: &mut TableCheck, game: Endgame, cert: Certificate) {
    let gap = cert.exploitability();
    check.max_error = check.max_error.max(gap);
    if !cert.is_certified() {
        check.file_mismatch(
            "exploitability",
            format!("{game} at most {MAX_EXPLOITABILITY:e}"),
            gap,
        );
    }
}

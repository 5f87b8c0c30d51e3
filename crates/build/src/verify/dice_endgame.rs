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

use crate::error::{chain, Error};
use gametab_games::dice::endgame::{Endgame, Player, Strategy};
use gametab_lookup::dice::schema::{ENDGAME_POSTERIORS, ENDGAME_STRATEGY, ENDGAME_VALUES};
use gametab_lookup::dice::{fits, EndgameTables, StoredEndgame};
use gametab_lookup::io::{Column, TableData};
use rayon::prelude::*;

use super::files::LoadedFiles;
use super::report::{key_text, TableCheck};
use crate::dice::endgame::rows;
use gametab_solve::endgame::lp::full_size;
use gametab_solve::endgame::{
    cache, certificate, exact_value, sparse, Certificate, LpSize, Method, SolvedEndgame,
    MAX_EXPLOITABILITY,
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

/// Check the three endgame tables.
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
    // Each game's strategies are decoded and certified on their own, in
    // parallel; the findings are then taken in the stored order, so the
    // report is the same whatever the thread count.
    let (stored, by_support): (Vec<_>, Vec<_>) = tables.games().partition(|s| fits(s.game));
    let supported: Vec<_> = by_support.par_iter().map(|s| certify_support(s)).collect();
    let certified: Vec<_> = stored
        .par_iter()
        .map(|stored| {
            stored.strategies().map(|[one, two]| {
                let cert = certificate::certify(&one, &two);
                // The sparse certificate of the same rows: every stored
                // (hand, history, action, probability), nothing else.
                let rows = |s: &Strategy| {
                    sparse::SparseStrategy::from_grouped(
                        stored.game,
                        s.player(),
                        s.positive().map(|(i, h, a, p)| cache::entry_of(i, h, a, p)),
                    )
                };
                let sparse =
                    rows(&one).and_then(|a| Ok(sparse::certify_pair(&a, &rows(&two)?).certificate));
                (one, two, cert, sparse.map_err(|e| chain(&e)))
            })
        })
        .collect();
    let mut games = Vec::new();
    for (stored, certified) in stored.into_iter().zip(certified) {
        let (one, two, cert, sparse) = match certified {
            Ok((one, two, cert, Ok(sparse))) => (one, two, cert, sparse),
            Ok((_, _, _, Err(e))) => {
                checks[1].file_mismatch("file", "rows the sparse certificate accepts", e);
                return checks.into();
            }
            Err(e) => {
                checks[1].file_mismatch("file", "tables the lookup loader accepts", e);
                return checks.into();
            }
        };
        for cert in [cert, sparse] {
            record_certificate(&mut checks[0], stored.game, cert);
        }
        let size = |s: [i64; 3]| LpSize {
            rows: s[0].max(0) as u64,
            columns: s[1].max(0) as u64,
            nonzeros: s[2].max(0) as u64,
        };
        let Some(method) = Method::from_name(&stored.method) else {
            checks[0].file_mismatch("method", "full_lp or double_oracle", &stored.method);
            return checks.into();
        };
        if size(stored.full_lp_size) != full_size(stored.game) {
            checks[0].file_mismatch(
                "full_lp_rows",
                format!("{} the full LP's size", stored.game),
                format!("{:?}", stored.full_lp_size),
            );
        }
        games.push(SolvedEndgame {
            game: stored.game,
            strategies: [one, two],
            entries: Default::default(),
            value: stored.value,
            exact: exact_value(stored.value, &cert),
            certificate: cert,
            sparse,
            method,
            size: size(stored.lp_size),
            full_size: size(stored.full_lp_size),
            lps: stored.lp_solves.max(0) as u32,
            built_in: Default::default(),
            solved_in: Default::default(),
        });
    }
    let mut sparse_games = Vec::new();
    for (stored, supported) in by_support.into_iter().zip(supported) {
        let (entries, cert) = match supported {
            Ok(found) => found,
            Err(e) => {
                checks[1].file_mismatch("file", "tables the lookup loader accepts", e);
                return checks.into();
            }
        };
        record_certificate(&mut checks[0], stored.game, cert);
        let Some(method) = Method::from_name(&stored.method) else {
            checks[0].file_mismatch("method", "full_lp or double_oracle", &stored.method);
            return checks.into();
        };
        let size = |s: [i64; 3]| LpSize {
            rows: s[0].max(0) as u64,
            columns: s[1].max(0) as u64,
            nonzeros: s[2].max(0) as u64,
        };
        if size(stored.full_lp_size) != full_size(stored.game) {
            checks[0].file_mismatch(
                "full_lp_rows",
                format!("{} the full LP's size", stored.game),
                format!("{:?}", stored.full_lp_size),
            );
        }
        let solved = cache::SparseSolved {
            game: stored.game,
            value: stored.value,
            exact: exact_value(stored.value, &cert),
            certificate: cert,
            method,
            size: size(stored.lp_size),
            full_size: size(stored.full_lp_size),
            lps: stored.lp_solves.max(0) as u32,
            entries: [entries[0].len(), entries[1].len()],
        };
        sparse_games.push(rows::SparseGame::new(solved, entries));
    }
    let rebuilt = match rows::tables(&games, &sparse_games) {
        Ok(t) => [Ok(t.values), Ok(t.strategy.data), Ok(t.posteriors)],
        Err(e) => {
            let text = chain(&e);
            [0, 1, 2].map(|_| Err(Error::Check(text.clone())))
        }
    };
    let schemas = [ENDGAME_VALUES, ENDGAME_STRATEGY, ENDGAME_POSTERIORS];
    for ((check, schema), table) in checks.iter_mut().zip(schemas).zip(rebuilt) {
        match (table, loaded.table(&schema)) {
            (Ok(expected), Some(found)) => compare(&expected, found, check),
            (Err(e), _) => check.file_mismatch("file", "a table rebuilt from the strategies", e),
            (_, None) => {}
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

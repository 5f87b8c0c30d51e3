//! The Python path to the tables (`scripts/notebook/`) end to end: a fresh
//! build (the run's shared set, see `common`), a virtualenv with the pinned
//! `requirements.txt`, and `explore.py` run against the build, which must
//! reproduce every published number of `data/published.csv` the tables
//! hold, and fail with a named check when a table is tampered with or a
//! published number is wrong. Also checks that the committed `explore.ipynb`
//! is the one `make_notebook.py` generates from the script.
//!
//! Needs `python3` with the `venv` module (`scripts/setup` installs it) and
//! PyPI; a missing interpreter fails the tests with a message, it never skips
//! them. The virtualenv lives in `target/tmp/notebook-venv-<hash of
//! requirements.txt>` and is reused while the requirements do not change.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use bytes::Bytes;
use gametab_build::known_answers::{self, PublishedNumber};
use gametab_build::murder_plan::tables::start_label;
use gametab_build::parquet_write::write_parquet;
use gametab_games::murder_plan::State;
use gametab_lookup::io::{blake2_hex, read_parquet, Column};
use gametab_lookup::manifest::{Manifest, MANIFEST_FILE};
use gametab_lookup::murder_plan::schema::WIN_RATES;
use gametab_lookup::Tables;

const NOTEBOOK_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/notebook");

fn run(command: &mut Command) -> Output {
    command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `python3`, or a failure that says what to install.
fn python3() -> &'static str {
    static CHECKED: OnceLock<()> = OnceLock::new();
    CHECKED.get_or_init(|| {
        let found = Command::new("python3").arg("--version").output();
        assert!(
            found.as_ref().is_ok_and(|o| o.status.success()),
            "python3 is not installed, but tests/notebook.rs needs it (with its venv module) \
             to check scripts/notebook/: run scripts/setup or apt-get install python3 python3-venv"
        );
    });
    "python3"
}

/// The table set shared by every test of this file.
fn tables() -> &'static Path {
    common::built_tables()
}

/// The Python interpreter of a virtualenv holding `requirements.txt`,
/// created on first use and reused while the requirements are unchanged.
fn venv_python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let requirements = Path::new(NOTEBOOK_DIR).join("requirements.txt");
        common::virtualenv("notebook-venv", &requirements, "tests/notebook.rs")
            .join("bin")
            .join("python")
    })
}

/// Run `explore.py` on `dir`: (exit code, stdout, stderr).
fn explore(dir: &Path) -> (Option<i32>, String, String) {
    explore_with(dir, None)
}

/// Run `explore.py` on `dir` with another known-answer file than
/// `data/published.csv` when `published` is given.
fn explore_with(dir: &Path, published: Option<&Path>) -> (Option<i32>, String, String) {
    let mut command = Command::new(venv_python());
    command
        .arg(Path::new(NOTEBOOK_DIR).join("explore.py"))
        .arg(dir);
    if let Some(file) = published {
        command.env("GAMETAB_PUBLISHED", file);
    }
    let out = run(&mut command);
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// What the script prints of a row it checks against the tables, up to the
/// table's value: `game quantity parameters: published VALUE, table `.
fn checked_line(row: &PublishedNumber) -> String {
    format!("{}: published {}, table ", row.name(), row.value_text)
}

/// The digits the script prints a table's value with: two more than the
/// published number has.
fn printed_digits(row: &PublishedNumber) -> usize {
    row.value_text
        .split_once('.')
        .map_or(0, |(_, d)| d.len() + 2)
}

#[test]
fn committed_notebook_is_generated_from_the_script() {
    let out = run(Command::new(python3())
        .arg(Path::new(NOTEBOOK_DIR).join("make_notebook.py"))
        .arg("--check"));
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    // The notebook really is the script: every code line appears in it.
    let notebook = std::fs::read_to_string(Path::new(NOTEBOOK_DIR).join("explore.ipynb")).unwrap();
    let cells: serde_json::Value = serde_json::from_str(&notebook).unwrap();
    assert_eq!(cells["nbformat"], 4);
    let code: String = cells["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["cell_type"] == "code")
        .flat_map(|c| c["source"].as_array().unwrap())
        .map(|line| line.as_str().unwrap())
        .collect();
    for needle in ["def check(", "PUBLISHED = read_published(", "sys.exit(1)"] {
        assert!(code.contains(needle), "the notebook lacks {needle:?}");
    }
}

#[test]
fn script_reproduces_the_published_numbers() {
    let (code, stdout, stderr) = explore(tables());
    assert_eq!(code, Some(0), "explore.py failed:\n{stdout}\n{stderr}");
    for line in [
        "all checks passed: the tables reproduce the published numbers",
        // Three readers of the key-value metadata agreed and printed it.
        "gametab.table = murder_plan_win_rates",
        // The win-rate table side by side with the published one.
        "win rate (%), published vs table:",
    ] {
        assert!(stdout.contains(line), "no {line:?} in:\n{stdout}");
    }
    // Every row of the known-answer file: checked against the tables (the
    // Murder Plan and Liar's Dice numbers), or named as held by no table.
    let rows = known_answers::all().unwrap();
    let set = Tables::open(tables()).unwrap();
    for row in &rows {
        let line = match (row.game.as_str(), row.quantity.as_str()) {
            ("murder_plan", "win_rate") => {
                // The table's value as the lookup crate reads it.
                let horizon: u8 = row.parse_parameter("horizon").unwrap();
                let start = row.parameter("start").unwrap();
                let offsets = State::starts()
                    .find(|&s| start_label(s) == start)
                    .map(|s| (s.brain, s.killer));
                assert!(offsets.is_some() || start == "average", "{}", row.name());
                let rate = 100.0
                    * set
                        .murder_plan()
                        .unwrap()
                        .win_rate(horizon, offsets)
                        .unwrap();
                let digits = printed_digits(row);
                format!("{}{rate:.digits$}\n", checked_line(row))
            }
            ("murder_plan", "value") | ("dice", _) => checked_line(row),
            _ => format!(
                "{}: published {}, not in the tables",
                row.name(),
                row.value_text
            ),
        };
        assert!(stdout.contains(&line), "no {line:?} in:\n{stdout}");
    }
    assert!(!stdout.contains("CHECK FAILED"), "{stdout}");
}

/// Copy `from` to `to`, then replace the D = 8 win rate of the start
/// x=(0,1), y=(1,0) with `value` and update `manifest.json` to match, so only
/// the number (not the digest) betrays the change.
fn tamper_win_rate(from: &Path, to: &Path, value: f64) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
    let path = to.join(WIN_RATES.file);
    let mut data = read_parquet(Bytes::from(std::fs::read(&path).unwrap()), &WIN_RATES).unwrap();
    let row = {
        let horizon = data.i32s("horizon").unwrap();
        let start = data.i32s("start_index").unwrap();
        (0..data.rows())
            .find(|&r| horizon[r] == 8 && start[r] == 6)
            .unwrap()
    };
    let column = WIN_RATES.column_index("value").unwrap();
    let Column::Float64(values) = &mut data.columns[column] else {
        panic!("value is a double column")
    };
    values[row] = value;
    let bytes = write_parquet(&data).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    let manifest_path = to.join(MANIFEST_FILE);
    let mut manifest: Manifest =
        serde_json::from_slice(&std::fs::read(&manifest_path).unwrap()).unwrap();
    let entry = manifest
        .files
        .iter_mut()
        .find(|e| e.file == WIN_RATES.file)
        .unwrap();
    entry.blake2b_256 = blake2_hex(&bytes);
    entry.bytes = bytes.len() as u64;
    std::fs::write(manifest_path, serde_json::to_vec(&manifest).unwrap()).unwrap();
}

#[test]
fn script_fails_and_names_a_number_that_does_not_reproduce() {
    let dir = tempfile::tempdir().unwrap();
    // 77.3694 % published as 77.37: 77.38 % is off by one in the last digit.
    tamper_win_rate(tables(), dir.path(), 0.7738);
    let (code, stdout, stderr) = explore(dir.path());
    assert_eq!(
        code,
        Some(1),
        "explore.py accepted a wrong win rate:\n{stdout}\n{stderr}"
    );
    assert!(stderr.contains("1 check(s) failed"), "{stderr}");
    let row =
        known_answers::find("murder_plan", "win_rate", "horizon=8;start=x=(0,1) y=(1,0)").unwrap();
    let failure = format!(
        "{}: table 77.3800, published {}",
        row.name(),
        row.value_text
    );
    assert!(stderr.contains(&failure), "{stderr}");
    assert!(!stdout.contains("all checks passed"), "{stdout}");
}

#[test]
fn script_reads_the_published_numbers_from_the_known_answer_file() {
    // One published number one unit off in its last digit, in a copy of
    // the file: the script must fail on that row alone, so it reads no copy
    // of its own.
    let dir = tempfile::tempdir().unwrap();
    let parameters = "total_dice=20;my_dice=5;bidder_dice=5;wild_ones=false;\
                      face_class=other;bid_count=5;my_matching=2;reliability=0.5";
    let row = known_answers::find("dice", "corrected_probability", parameters).unwrap();
    let decimals = row.value_text.split_once('.').unwrap().1.len();
    let wrong_value = format!("{:.decimals$}", row.value + 10f64.powi(-(decimals as i32)));
    let line = known_answers::CSV.lines().nth(row.line - 1).unwrap();
    let wrong_line = line.replace(
        &format!(",{},", row.value_text),
        &format!(",{wrong_value},"),
    );
    assert_ne!(wrong_line, line);
    let wrong = dir.path().join("published.csv");
    std::fs::write(&wrong, known_answers::CSV.replace(line, &wrong_line)).unwrap();
    let (code, stdout, stderr) = explore_with(tables(), Some(&wrong));
    assert_eq!(
        code,
        Some(1),
        "explore.py accepted a wrong row:\n{stdout}\n{stderr}"
    );
    assert!(stderr.contains("1 check(s) failed"), "{stderr}");
    let failure = format!("{}: table ", row.name());
    assert!(stderr.contains(&failure), "{stderr}");
    assert!(
        stderr.contains(&format!(", published {wrong_value}\n")),
        "{stderr}"
    );
}

#[test]
fn script_refuses_a_directory_without_tables() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = explore(dir.path());
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("holds no manifest.json"), "{stderr}");
    assert!(!stderr.contains("Traceback"), "{stderr}");
}

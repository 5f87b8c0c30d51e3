//! Benchmarks of the Murder Plan pipeline phases and of the lookup queries.
//!
//! The lookup benchmarks load the table set in `tables/` when it exists
//! (`scripts/build-tables`), and otherwise solve and write one into a
//! temporary directory first.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use gametab_build::murder_plan::layers::Layers;
use gametab_build::murder_plan::solver::{self, payoff_matrix};
use gametab_build::murder_plan::successors::Successors;
use gametab_build::murder_plan::tables;
use gametab_build::murder_plan::turns::TurnTables;
use gametab_build::output::TableWriter;
use gametab_games::murder_plan::model::State;
use gametab_games::murder_plan::{LimitedCards, Offset};
use gametab_lookup::murder_plan::bundle;
use gametab_lookup::Tables;
use gametab_solve::matrix_game::{
    self, HighsSolver, LpBackend, MatrixGameSolver, NativeSolver, PayoffMatrix, Payoffs,
    SolveError, StrategyPair,
};
use rayon::prelude::*;

fn phases(c: &mut Criterion) {
    c.bench_function("turn tables (16 inventories)", |b| b.iter(TurnTables::new));
    let turns = TurnTables::new();
    c.bench_function("successors of the 1728 canonical states", |b| {
        b.iter(|| Successors::new(black_box(&turns)))
    });
    let successors = Successors::new(&turns);
    c.bench_function("reachable layers D=8", |b| {
        b.iter(|| Layers::enumerate(black_box(&successors), 8))
    });
    // One representative full game: the start with everything available,
    // 8 days left, continuation values from the real solution.
    let solution = solver::solve(8, LpBackend::Native, &|_, _| {}, &|| {}).expect("solves");
    let state = State::start(Offset::new(0, 1).unwrap(), Offset::new(1, 0).unwrap());
    let table = turns.get(LimitedCards::ALL);
    let values: Vec<f64> = table
        .outcomes
        .iter()
        .map(|o| solution.brain[8][o.apply(state).index()].value)
        .collect();
    let matrix = payoff_matrix(table, &values);
    c.bench_function("build 136x112 payoff matrix", |b| {
        b.iter(|| payoff_matrix(black_box(table), black_box(&values)))
    });
    c.bench_function("reduce 136x112 game", |b| {
        b.iter(|| matrix_game::reduce(black_box(&matrix)))
    });
    let mut highs = HighsSolver::new();
    c.bench_function("reduce + HiGHS LP + certify, 136x112 game", |b| {
        b.iter(|| matrix_game::solve(black_box(&matrix), &mut highs).unwrap())
    });
    let mut native = NativeSolver::new();
    c.bench_function("reduce + native LP + certify, 136x112 game", |b| {
        b.iter(|| matrix_game::solve(black_box(&matrix), &mut native).unwrap())
    });
    // The LP alone on the reduced game, per back end.
    let reduction = matrix_game::reduce(&matrix);
    let reduced = matrix.select(&reduction.rows, &reduction.cols);
    let name = format!("{}x{}", reduced.rows(), reduced.cols());
    c.bench_function(&format!("HiGHS LP only, reduced {name} game"), |b| {
        b.iter(|| highs.solve(black_box(&reduced)).unwrap())
    });
    c.bench_function(&format!("native LP only, reduced {name} game"), |b| {
        b.iter(|| native.solve(black_box(&reduced)).unwrap())
    });
    sub_game_lps(c, &solution);
    let mut group = c.benchmark_group("whole solve");
    group.sample_size(10);
    // The complete Murder Plan build as `gametab build` runs it, minus the
    // file system: solve D = 8, enumerate the layers, encode the 5 tables.
    group.bench_function(
        "murder plan build D=8 (solve, layers, 5 tables encoded)",
        |b| {
            b.iter(|| {
                let solution = solver::solve(8, LpBackend::Native, &|_, _| {}, &|| {}).unwrap();
                let layers = Layers::enumerate(&solution.successors, 8);
                // Encoded as `gametab build` does: the tables side by side,
                // each table's column chunks in parallel.
                tables::all(&solution, &layers)
                    .unwrap()
                    .par_iter()
                    .map(|data| gametab_build::output::encode(data).unwrap().len())
                    .sum::<usize>()
            })
        },
    );
    for backend in [LpBackend::Highs, LpBackend::Native] {
        group.bench_function(format!("solve D=3, {}", backend.name()), |b| {
            b.iter(|| solver::solve(3, backend, &|_, _| {}, &|| {}).unwrap())
        });
    }
    group.finish();
}

/// One LP the double oracle asked for: the sub-game, and for a grown one
/// where the previous LP's rows and columns sit in it.
struct RecordedLp {
    game: PayoffMatrix,
    grown: Option<(Vec<usize>, Vec<usize>)>,
}

impl RecordedLp {
    /// Solve it the way the double oracle did.
    fn replay(&self, native: &mut NativeSolver) -> StrategyPair {
        match &self.grown {
            None => native.solve(&self.game),
            Some((rows, cols)) => native.solve_grown(&self.game, rows, cols),
        }
        .unwrap()
    }
}

/// Passes every sub-game the double oracle hands to the LP back end to the
/// native solver, keeping a copy of the request.
struct Recorder {
    native: NativeSolver,
    sub_games: Vec<RecordedLp>,
}

impl MatrixGameSolver for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }

    fn solve(&mut self, game: &PayoffMatrix) -> Result<StrategyPair, SolveError> {
        self.sub_games.push(RecordedLp {
            game: game.clone(),
            grown: None,
        });
        self.native.solve(game)
    }

    fn solve_grown(
        &mut self,
        game: &PayoffMatrix,
        kept_rows: &[usize],
        kept_cols: &[usize],
    ) -> Result<StrategyPair, SolveError> {
        self.sub_games.push(RecordedLp {
            game: game.clone(),
            grown: Some((kept_rows.to_vec(), kept_cols.to_vec())),
        });
        self.native.solve_grown(game, kept_rows, kept_cols)
    }
}

/// The LP work of the whole D = 8 solve in isolation: run the double oracle
/// on every (days_left, canonical state) game from the previous day's
/// supports, as the solver does, record every sub-game it sends to the LP,
/// then time the native LP on all of them. Divide by the LP count for the
/// time per LP, by 13,824 games for the LP time per game.
fn sub_game_lps(c: &mut Criterion, solution: &solver::Solution) {
    let mut recorder = Recorder {
        native: NativeSolver::new(),
        sub_games: Vec::new(),
    };
    let mut games = 0;
    for d in 1..=8u8 {
        for s in solution.successors.all() {
            let table = solution.turns.get(s.state.limited);
            let values: Vec<f64> = table
                .outcomes
                .iter()
                .map(|o| solution.brain[usize::from(d)][o.apply(s.state).index()].value)
                .collect();
            let support = |p: &[f64]| (0..p.len()).filter(|&i| p[i] > 0.0).collect::<Vec<_>>();
            let (rows, cols) = solution
                .strategies(d - 1, s.state)
                .map_or((vec![], vec![]), |(r, c)| (support(&r), support(&c)));
            matrix_game::solve_from(&payoff_matrix(table, &values), &mut recorder, &rows, &cols)
                .expect("every game certifies");
            games += 1;
        }
    }
    let lps = recorder.sub_games.len();
    let grown = recorder
        .sub_games
        .iter()
        .filter(|lp| lp.grown.is_some())
        .count();
    let cells: usize = recorder
        .sub_games
        .iter()
        .map(|lp| lp.game.rows() * lp.game.cols())
        .sum();
    println!(
        "{games} games, {lps} sub-game LPs ({:.2} per game, {grown} grown from the previous one), {:.1} cells per LP on average",
        lps as f64 / games as f64,
        cells as f64 / lps as f64
    );
    let mut native = NativeSolver::new();
    let mut group = c.benchmark_group("sub-game LPs");
    group.sample_size(10);
    // As the double oracle asks: a game's later LPs grow the last tableau.
    group.bench_function(format!("native LP on all {lps} sub-games of D=8"), |b| {
        b.iter(|| {
            for lp in &recorder.sub_games {
                black_box(lp.replay(&mut native));
            }
        })
    });
    // Every LP from scratch, for comparison.
    group.bench_function(
        format!("native LP on all {lps} sub-games of D=8, each from scratch"),
        |b| {
            b.iter(|| {
                for lp in &recorder.sub_games {
                    black_box(native.solve(black_box(&lp.game)).unwrap());
                }
            })
        },
    );
    group.finish();
}

fn table_dir() -> (PathBuf, Option<tempfile::TempDir>) {
    let built = PathBuf::from("tables");
    if Tables::open(&built).is_ok() {
        return (built, None);
    }
    let solution = solver::solve(8, LpBackend::Native, &|_, _| {}, &|| {}).expect("solves");
    let layers = Layers::enumerate(&solution.successors, 8);
    let dir = tempfile::tempdir().expect("temp dir");
    let mut writer = TableWriter::new(dir.path()).expect("writer");
    for data in tables::all(&solution, &layers).expect("tables") {
        writer.write(&data).expect("write");
    }
    writer.write_manifest(0.0).expect("manifest");
    (dir.path().to_path_buf(), Some(dir))
}

fn lookup(c: &mut Criterion) {
    let (dir, _keep) = table_dir();
    let mut group = c.benchmark_group("lookup");
    group.sample_size(20);
    // Manifest, digests and decoding of the five Murder Plan tables.
    group.bench_function("open all tables", |b| {
        b.iter(|| {
            let tables = Tables::open(black_box(&dir)).unwrap();
            tables.murder_plan().unwrap().clone()
        })
    });
    group.finish();
    let t = Tables::open(&dir).unwrap().murder_plan().unwrap().clone();
    let state = State::start(Offset::new(0, 1).unwrap(), Offset::new(1, 0).unwrap());
    c.bench_function("lookup value", |b| {
        b.iter(|| t.value(black_box(8), black_box(state)).unwrap())
    });
    c.bench_function("lookup mastermind strategy", |b| {
        b.iter(|| {
            t.mastermind_strategy(black_box(8), black_box(state))
                .unwrap()
                .len()
        })
    });
    c.bench_function("lookup sample protagonists", |b| {
        b.iter(|| {
            t.sample_protagonists(black_box(8), black_box(state), black_box(0.37))
                .unwrap()
        })
    });
    c.bench_function("lookup brain choice", |b| {
        b.iter(|| t.brain_choice(black_box(5), black_box(state)).unwrap())
    });
    c.bench_function("lookup win rate", |b| {
        b.iter(|| t.win_rate(black_box(8), None).unwrap())
    });
}

/// The browser bundle: written from the tables (encoded, decoded again
/// and compared), inflated, decoded (what the WebAssembly module does on
/// load, natively here; `scripts/bench-web` measures it in the module).
fn bundle(c: &mut Criterion) {
    let (dir, _keep) = table_dir();
    let t = Tables::open(&dir).unwrap().murder_plan().unwrap().clone();
    let file = bundle::encode(&t, "gametab bench").unwrap().bytes;
    let content = bundle::gunzip(&file).unwrap();
    let mut group = c.benchmark_group("bundle");
    group.sample_size(10);
    group.bench_function("encode (and prove)", |b| {
        b.iter(|| bundle::encode(black_box(&t), "gametab bench").unwrap())
    });
    group.bench_function("gunzip", |b| {
        b.iter(|| bundle::gunzip(black_box(&file)).unwrap())
    });
    group.bench_function("decode content", |b| {
        b.iter(|| bundle::decode_content(black_box(&content)).unwrap())
    });
    group.bench_function("decode file", |b| {
        b.iter(|| bundle::decode(black_box(&file)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, phases, lookup, bundle);
criterion_main!(benches);

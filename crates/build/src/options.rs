//! The options of a whole `gametab build`, shared by the pipeline and every
//! game's table builder (its own module, so that the builders depend on
//! neither the pipeline nor the registry that lists them).

use std::path::PathBuf;

use crate::progress::Progress;

/// Options of a whole build, validated before any work starts.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Output directory.
    pub out: PathBuf,
    /// Worker threads for the parallel phases (at least 1).
    pub threads: usize,
    /// The progress lines on standard error ([`Progress::hidden`] for none).
    pub progress: Progress,
    /// LP back end of the matrix games (Murder Plan).
    pub lp: gametab_solve::matrix_game::LpBackend,
    /// File of the Murder Plan solved-game cache (bincode; see
    /// [`crate::murder_plan::cache`]), or `None` to solve everything afresh.
    pub cache: Option<PathBuf>,
    /// Also solve the larger Liar's Dice endgames
    /// ([`crate::dice::endgame::build::frontier_games`]).
    pub endgame_frontier: bool,
    /// Time each frontier endgame may take in this build (the double
    /// oracle stops after the round in which it passes and the game's job
    /// file keeps its restricted game for the next build); `None`: no
    /// limit.
    pub endgame_budget: Option<std::time::Duration>,
    /// Solve no frontier endgame: take each from its job file as it is
    /// (the solved ones certified again and tabulated, the others reported
    /// where they stand), as `gametab build --merge-only`.
    pub endgame_merge_only: bool,
}

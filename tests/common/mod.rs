//! Helpers shared by integration tests that need a whole built table set.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use gametab::pipeline::{build, BuildOptions};

/// A complete table set (every game, the plots, the manifest) built once per
/// test binary by the real pipeline, without the game cache.
pub fn built_tables() -> &'static Path {
    static TABLES: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, tables) = TABLES.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let options = BuildOptions {
            out: dir.path().join("tables"),
            threads: 2,
            progress: false,
            lp: Default::default(),
            cache: None,
        };
        build(&options).expect("the tables build");
        let tables = options.out;
        (dir, tables)
    });
    tables
}

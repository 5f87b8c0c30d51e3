//! Every command the documentation shows runs here, and prints what the page
//! says it prints.
//!
//! The pages are `README.md` and `docs/*.md`. Each ```` ```console ```` block
//! in them is a transcript: `$ gametab ...` lines, each followed by its
//! expected output (standard error merged in, as a terminal shows it). They
//! are run by trycmd, the ecosystem's tool for exactly this (it reads
//! Markdown as it is, with `[..]` for the rest of a line and a line `...`
//! for any number of lines), against the `gametab` binary under test and
//! the one table set the integration tests share
//! ([`common::built_tables`]). A renamed flag, a changed answer or a changed
//! layout of the output fails here rather than in the reader's terminal.
//! Commands that cannot run in a test (`scripts/...`, `gametab build`,
//! `gametab serve` with `curl`) are written in ```` ```sh ```` blocks, which
//! trycmd does not run.
//!
//! trycmd runs a Markdown page in one working directory: for `PAGE.md` the
//! directory `PAGE.in/` beside it, when there is one. So each page is copied
//! into a directory of its own under the target's `tmp/docs/`, beside a
//! `PAGE.in/` in which `tables` is the shared set and `scripts` and `data`
//! are the repository's; a page's `gametab lookup ...` then reads the
//! shared set, as it reads `tables/` after the quick start. (With
//! `TRYCMD=overwrite` trycmd rewrites those copies, not the pages: copy the
//! changed blocks back.)

use std::fs;
use std::path::{Path, PathBuf};

use crate::common;

/// The pages whose commands run: the README and every page of `docs/`.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines of a page's fenced blocks of `info` (```` ```console ````,
/// ```` ```sh ````).
fn fenced_lines<'a>(page: &'a str, info: &'a str) -> Vec<&'a str> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in page.lines() {
        if let Some(found) = line.strip_prefix("```") {
            inside = !inside && found.trim() == info;
        } else if inside {
            lines.push(line);
        }
    }
    lines
}

/// The `$ ` command lines of a page's ```` ```console ```` blocks.
fn console_commands(page: &str) -> Vec<String> {
    fenced_lines(page, "console")
        .into_iter()
        .filter_map(|line| line.strip_prefix("$ ").map(str::to_string))
        .collect()
}

#[cfg(unix)]
fn link(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("a symbolic link in target/tmp");
}

#[test]
fn every_documented_command_prints_what_its_page_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs");
    if work.exists() {
        fs::remove_dir_all(&work).unwrap();
    }
    fs::create_dir_all(&work).unwrap();
    let tables = common::built_tables();

    let cases = trycmd::TestCases::new();
    cases.register_bin("gametab", Path::new(env!("CARGO_BIN_EXE_gametab")));
    let mut commands = 0;
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        let found = console_commands(&text);
        for command in &found {
            assert!(
                command.starts_with("gametab "),
                "{}: a console block runs `{command}`; only gametab commands run in the \
                 test (write other commands in a sh block)",
                page.display()
            );
        }
        if found.is_empty() {
            continue;
        }
        commands += found.len();
        // README.md and docs/README.md both exist: a directory per folder.
        let relative = page.strip_prefix(root).unwrap();
        let dir = match relative.parent() {
            Some(folder) if folder != Path::new("") => work.join(folder),
            _ => work.join("root"),
        };
        fs::create_dir_all(&dir).unwrap();
        let copy = dir.join(relative.file_name().unwrap());
        fs::write(&copy, &text).unwrap();
        let cwd = copy.with_extension("in");
        fs::create_dir(&cwd).unwrap();
        link(tables, &cwd.join("tables"));
        link(&root.join("scripts"), &cwd.join("scripts"));
        link(&root.join("data"), &cwd.join("data"));
        cases.case(&copy);
    }
    // The README shows one example per game and each guide its queries: far
    // fewer would mean the blocks stopped being found (a changed fence).
    assert!(
        commands >= 20,
        "only {commands} documented commands found in console blocks"
    );
    eprintln!("running the {commands} documented commands");
    cases.run();
}

/// The `gametab` command lines of a page's ```` ```sh ```` blocks (the
/// ones no test can run: builds, servers), without their comments.
fn sh_commands(page: &str) -> Vec<String> {
    fenced_lines(page, "sh")
        .into_iter()
        .map(|line| line.split(" #").next().unwrap_or("").trim())
        .filter(|line| line.starts_with("gametab "))
        .map(str::to_string)
        .collect()
}

/// Every flag of every `gametab` command the pages show in a ```` ```sh
/// ```` block is one its subcommand's `--help` names: a renamed or removed
/// flag fails here, though the command itself (a build, a server) does not
/// run in a test.
#[test]
fn every_flag_of_a_command_the_docs_only_show_exists() {
    let mut helps = std::collections::BTreeMap::new();
    let mut checked = 0;
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for command in sh_commands(&text) {
            let words: Vec<&str> = command.split_whitespace().skip(1).collect();
            let path: Vec<String> = words
                .iter()
                .take_while(|w| w.chars().all(|c| c.is_ascii_lowercase()))
                .map(|w| w.to_string())
                .collect();
            let help = helps.entry(path.clone()).or_insert_with(|| {
                let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
                args.push("--help");
                let (ok, out, err) = common::gametab(&args);
                assert!(
                    ok,
                    "{}: `gametab {}` is no command: {err}",
                    page.display(),
                    path.join(" ")
                );
                out
            });
            for flag in words.iter().filter(|w| w.starts_with("--")) {
                let flag = flag.split('=').next().unwrap();
                assert!(
                    help.contains(&format!("{flag} ")) || help.contains(&format!("{flag}\n")),
                    "{}: `{command}`: `gametab {}` has no {flag}",
                    page.display(),
                    path.join(" ")
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "only {checked} flags found in sh blocks");
}

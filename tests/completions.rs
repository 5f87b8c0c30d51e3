//! Shell completions and man pages, generated from the clap definitions
//! (`gametab completions SHELL`, `gametab man [--out DIR]`): every shell's
//! script names every command, bash's parses (`bash -n`), the man page is
//! roff whose synopsis and subcommands are the command line's, one page
//! per subcommand is written (none for clap's `help`), and a reader that
//! goes away or a bad shell ends cleanly.

use std::process::{Command, Stdio};

use crate::common::gametab;

/// The top-level commands, as `gametab --help` lists them.
const COMMANDS: [&str; 11] = [
    "build",
    "verify",
    "serve",
    "completions",
    "man",
    "murder-plan",
    "lookup",
    "dice",
    "cluedo",
    "werewolf",
    "help",
];

#[test]
fn every_shell_gets_a_script_naming_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (ok, script, err) = gametab(&["completions", shell]);
        assert!(ok, "{shell}: {err}");
        for command in COMMANDS {
            assert!(script.contains(command), "{shell}: no {command}");
        }
        // Nested commands and their flags are there too.
        assert!(script.contains("win-rates"), "{shell}: no lookup win-rates");
        // (fish names long flags without their dashes: `-l history`.)
        assert!(
            script.contains("history"),
            "{shell}: no dice endgame --history"
        );
    }
    let (_, bash, _) = gametab(&["completions", "bash"]);
    let mut check = Command::new("bash")
        .arg("-n")
        .stdin(Stdio::piped())
        .spawn()
        .expect("bash runs");
    use std::io::Write;
    check
        .stdin
        .take()
        .unwrap()
        .write_all(bash.as_bytes())
        .unwrap();
    assert!(
        check.wait().unwrap().success(),
        "bash -n refuses the script"
    );

    let (ok, _, err) = gametab(&["completions", "tcsh"]);
    assert!(!ok && err.contains("invalid value 'tcsh'"), "{err}");
    assert!(err.contains("bash") && !err.contains("panicked"), "{err}");
}

#[test]
fn the_man_page_is_the_command_lines_and_one_page_per_subcommand_is_written() {
    let (ok, page, err) = gametab(&["man"]);
    assert!(ok, "{err}");
    assert!(page.contains(".TH gametab 1"), "{page}");
    assert!(page.contains(".SH SYNOPSIS") && page.contains(".SH SUBCOMMANDS"));
    for command in COMMANDS {
        assert!(page.contains(&command.replace('-', "\\-")), "no {command}");
    }

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man1");
    let (ok, said, err) = gametab(&["man", "--out", out.to_str().unwrap()]);
    assert!(ok, "{err}");
    let mut pages: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    pages.sort();
    assert_eq!(
        said.trim(),
        format!("{} man pages in {}", pages.len(), out.display())
    );
    for page in [
        "gametab.1",
        "gametab-build.1",
        "gametab-lookup.1",
        "gametab-lookup-value.1",
        "gametab-dice-endgame.1",
        "gametab-murder-plan-solve.1",
        "gametab-werewolf.1",
    ] {
        assert!(
            pages.contains(&page.to_string()),
            "{page} missing: {pages:?}"
        );
    }
    assert!(!pages.iter().any(|p| p.contains("help")), "{pages:?}");
    let value = std::fs::read_to_string(out.join("gametab-lookup-value.1")).unwrap();
    assert!(
        value.starts_with(".ie") && value.contains("\\-\\-days"),
        "{value}"
    );

    // A file where the directory should be: an error naming it, no panic.
    let file = dir.path().join("file");
    std::fs::write(&file, "").unwrap();
    let (ok, _, err) = gametab(&["man", "--out", file.to_str().unwrap()]);
    assert!(
        !ok && err.contains("cannot create") && !err.contains("panicked"),
        "{err}"
    );
}

#[test]
fn a_reader_that_goes_away_ends_the_script_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(["completions", "bash"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

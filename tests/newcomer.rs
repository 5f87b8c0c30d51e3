//! What a newcomer meets around the answers: every command's help has a
//! real one-line summary and an example; a missing table set is refused in
//! one wording that says how to build one or where to point, wherever it is
//! missed (`--tables` before or after a lookup query, `GAMETAB_TABLES`);
//! logs that are not JSON or not the format say so, with the nearest name
//! for a misspelt card, role or event kind; `--addr` takes
//! `localhost:PORT`; and the exit codes are 0 for an answer, 1 for a
//! refusal of the input and 2 for a command line clap cannot parse.

use std::process::Command;

use crate::common::{self, gametab};

/// Run the binary with an environment variable set: (exit code, stdout, stderr).
fn gametab_with(env: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(args)
        .envs(env.iter().copied())
        .env_remove("GAMETAB_TABLES")
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every command and subcommand, as `gametab --help` and each group's help list them.
fn commands(prefix: &[String]) -> Vec<Vec<String>> {
    let mut args: Vec<&str> = prefix.iter().map(String::as_str).collect();
    args.push("--help");
    let (ok, help, err) = gametab(&args);
    assert!(ok, "{args:?}: {err}");
    let mut found = Vec::new();
    let listed = help.split("Commands:\n").nth(1).unwrap_or("");
    for line in listed.lines().take_while(|l| l.starts_with("  ")) {
        let name = line.split_whitespace().next().unwrap().to_string();
        if name == "help" {
            continue;
        }
        let mut path = prefix.to_vec();
        path.push(name);
        found.extend(commands(&path));
        found.push(path);
    }
    found
}

#[test]
fn every_command_has_a_summary_and_an_example_in_its_help() {
    let all = commands(&[]);
    assert!(all.len() >= 20, "{all:?}");
    let (_, top, _) = gametab(&["--help"]);
    assert!(
        !top.contains("Arguments of") && !top.contains("`gametab"),
        "{top}"
    );
    for path in &all {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let (ok, help, err) = gametab(&args);
        assert!(ok, "{args:?}: {err}");
        let summary = help.lines().next().unwrap_or("");
        assert!(
            !summary.starts_with("Arguments of") && summary.len() > 10,
            "{path:?}: summary {summary:?}"
        );
        assert!(
            help.contains("Example"),
            "{path:?} shows no example:\n{help}"
        );
        // The examples name this command.
        let named = format!("gametab {}", path.join(" "));
        assert!(
            help.contains(&named),
            "{path:?}: no example of `{named}`:\n{help}"
        );
    }
}

#[test]
fn a_missing_table_set_is_refused_in_one_wording_that_names_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let nowhere = dir.path().join("nowhere");
    let nowhere = nowhere.to_str().unwrap();
    let queries: [&[&str]; 5] = [
        &[
            "lookup", "--tables", nowhere, "value", "--days", "3", "--brain", "0,0", "--killer",
            "0,0",
        ],
        &[
            "lookup", "value", "--days", "3", "--brain", "0,0", "--killer", "0,0", "--tables",
            nowhere,
        ],
        &["dice", "endgame", "--dice", "1,1", "--tables", nowhere],
        &["verify", "--tables", nowhere],
        &["serve", "--tables", nowhere, "--addr", "127.0.0.1:0"],
    ];
    for args in queries {
        let (code, _, err) = gametab_with(&[], args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains(&format!(
                "no table set in {nowhere}: there is no such directory"
            )) && err.contains("scripts/build-tables")
                && err.contains("GAMETAB_TABLES=DIR"),
            "{args:?}: {err}"
        );
    }
    // The variable names the set when --tables does not.
    let tables = common::built_tables().to_str().unwrap();
    let value = [
        "lookup", "--json", "value", "--days", "3", "--brain", "0,0", "--killer", "0,0",
    ];
    let (code, out, err) = gametab_with(&[("GAMETAB_TABLES", tables)], &value);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"days_left\": 3"), "{out}");
    let (code, _, err) = gametab_with(&[("GAMETAB_TABLES", nowhere)], &value);
    assert_eq!(code, 1);
    assert!(err.contains(&format!("no table set in {nowhere}")), "{err}");
}

#[test]
fn logs_that_are_not_json_or_not_the_format_say_so_with_the_nearest_name() {
    let dir = tempfile::tempdir().unwrap();
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/examples");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let cluedo = std::fs::read_to_string(examples.join("cluedo-game.json")).unwrap();
    let werewolf = std::fs::read_to_string(examples.join("werewolf-roles-7.json")).unwrap();
    let cases = [
        (
            "cluedo",
            write("empty.json", ""),
            "is not a valid Cluedo game log: it is not JSON",
        ),
        (
            "werewolf",
            write("empty.json", ""),
            "is not a valid Werewolf game log: it is not JSON",
        ),
        (
            "cluedo",
            write(
                "kitchn.json",
                &cluedo.replacen("\"Kitchen\"", "\"Kitchn\"", 1),
            ),
            "no card called \"Kitchn\" in this deck; did you mean \"Kitchen\"?",
        ),
        (
            "cluedo",
            write(
                "mustard.json",
                &cluedo.replacen("\"Colonel Mustard\"", "\"Mustard\"", 1),
            ),
            "did you mean \"Colonel Mustard\"?",
        ),
        (
            "werewolf",
            write(
                "seerr.json",
                &werewolf.replacen("\"viewer_role\": \"seer\"", "\"viewer_role\": \"seerr\"", 1),
            ),
            "does not follow the log format: unknown variant `seerr`",
        ),
        (
            "werewolf",
            write(
                "nigth.json",
                &werewolf.replacen("\"kind\": \"night\"", "\"kind\": \"nigth\"", 1),
            ),
            "did you mean \"night\"?",
        ),
        (
            "werewolf",
            write(
                "wich.json",
                &werewolf.replacen("\"witch\": 1", "\"wich\": 1", 1),
            ),
            "did you mean \"witch\"?",
        ),
    ];
    for (game, path, needle) in cases {
        let (code, _, err) = gametab_with(&[], &[game, "--log", &path]);
        assert_eq!(code, 1, "{game} {path}: {err}");
        assert!(err.contains(needle), "{game} {path}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn exit_codes_are_0_for_answers_1_for_refusals_2_for_usage() {
    let tables = common::built_tables().to_str().unwrap();
    let examples = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/examples/cluedo-game.json"
    );
    let answer = [
        "lookup", "--tables", tables, "value", "--days", "3", "--brain", "0,0", "--killer", "0,0",
    ];
    assert_eq!(gametab_with(&[], &answer).0, 0);
    assert_eq!(gametab_with(&[], &["cluedo", "--log", examples]).0, 0);
    // The input refused: a game the endgame solver does not take.
    let (code, _, err) = gametab_with(
        &[],
        &["dice", "endgame", "--dice", "3,3", "--tables", tables],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("at most 24 are supported"), "{err}");
    // The command line itself: clap's usage errors.
    for args in [
        &["bogus"][..],
        &[
            "lookup", "value", "--days", "3", "--brain", "0,2", "--killer", "0,0",
        ],
        &["serve", "--addr", "local:80"],
        &["completions"],
    ] {
        let (code, _, err) = gametab_with(&[], args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let (_, _, err) = gametab_with(&[], &["serve", "--addr", "local:80"]);
    assert!(
        err.contains("give IP:PORT") && err.contains("localhost:PORT"),
        "{err}"
    );
}

#[test]
fn the_server_listens_on_localhost() {
    let tables = common::built_tables().to_str().unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(["serve", "--tables", tables, "--addr", "localhost:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(server.stdout.as_mut().unwrap()),
        &mut line,
    )
    .unwrap();
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(line.starts_with("listening on http://127.0.0.1:"), "{line}");
}

#[test]
fn old_spellings_work_on_the_command_line_with_a_warning_naming_the_new_one() {
    let tables = common::built_tables().to_str().unwrap();
    // --mine is the old name of --hand: the same answer, one warning.
    let new = [
        "dice",
        "--players",
        "4",
        "--bid",
        "5x5",
        "--hand",
        "1,5,5,2,3",
        "--json",
    ];
    let old = [
        "dice",
        "--players",
        "4",
        "--bid",
        "5x5",
        "--mine",
        "1,5,5,2,3",
        "--json",
    ];
    let (code, new_out, new_err) = gametab_with(&[], &new);
    assert_eq!(code, 0, "{new_err}");
    assert!(new_err.is_empty(), "{new_err}");
    let (code, old_out, old_err) = gametab_with(&[], &old);
    assert_eq!(code, 0, "{old_err}");
    assert_eq!(old_out, new_out);
    assert_eq!(
        old_err,
        "warning: --mine is the old name of --hand; write --hand\n"
    );
    // Both at once is a usage error.
    let (code, _, err) = gametab_with(
        &[],
        &[
            "dice",
            "--players",
            "4",
            "--bid",
            "5x5",
            "--hand",
            "1,5",
            "--mine",
            "1,5",
        ],
    );
    assert_eq!(code, 2, "{err}");
    // A history with bids run together (the tables' codes) is read, with a
    // warning that writes it as bids.
    let endgame = |history: &str| {
        gametab_with(
            &[],
            &[
                "dice",
                "endgame",
                "--tables",
                tables,
                "--dice",
                "2,1",
                "--sides",
                "5",
                "--hand",
                "3,5",
                "--history",
                history,
                "--json",
            ],
        )
    };
    let (code, new_out, new_err) = endgame("1x5,2x3");
    assert_eq!(code, 0, "{new_err}");
    assert!(new_err.is_empty(), "{new_err}");
    let (code, old_out, old_err) = endgame("15,23");
    assert_eq!(code, 0, "{old_err}");
    assert_eq!(old_out, new_out);
    assert!(
        old_err.contains("--history 15,23")
            && old_err.contains("write them as COUNTxFACE: --history 1x5,2x3"),
        "{old_err}"
    );
}

//! The documentation's HTTP examples against a real server.
//!
//! `tests/docs.rs` runs the pages' command lines; the `curl` lines of their
//! ```` ```sh ```` blocks are checked here instead. Each is sent to one
//! `gametab serve` of the shared table set (started as the pages start it:
//! `--tables tables` from a directory where `tables` is the set) and must
//! answer 200; the `# ` lines that follow a `curl` line are its answer as
//! the page shows it, trimmed with `…`, and every piece between the `…`
//! must appear in the answer as written. A `curl -o /dev/null -w ...`
//! line (headers only) is checked for its status.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::common;
use crate::harness::{agent, get, post};

/// A `curl` line of a page and the answer it shows.
struct Example {
    /// Page and line, for messages.
    place: String,
    /// The curl command's words, after `curl`.
    words: Vec<String>,
    /// The `# ` lines after it, joined.
    shown: String,
}

/// The curl examples of every ```` ```sh ```` block of `README.md` and
/// `docs/*.md`.
fn examples() -> Vec<Example> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for entry in fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "md") {
            pages.push(path);
        }
    }
    pages.sort();
    let mut examples: Vec<Example> = Vec::new();
    for page in pages {
        let text = fs::read_to_string(&page).unwrap();
        let name = page.strip_prefix(root).unwrap().display().to_string();
        let mut in_sh = false;
        let mut last_was_example = false;
        for (number, line) in text.lines().enumerate() {
            if let Some(info) = line.strip_prefix("```") {
                in_sh = !in_sh && info.trim() == "sh";
                last_was_example = false;
                continue;
            }
            if !in_sh {
                continue;
            }
            if let Some(command) = line.strip_prefix("curl ") {
                // A comment after the command is the page's, not curl's.
                let command = command.split("   #").next().unwrap();
                examples.push(Example {
                    place: format!("{name}:{}", number + 1),
                    words: shell_words(command),
                    shown: String::new(),
                });
                last_was_example = true;
            } else if let Some(shown) = line.strip_prefix('#').filter(|_| last_was_example) {
                let example = examples.last_mut().unwrap();
                example.shown.push_str(shown.trim());
                example.shown.push('…');
            } else {
                last_was_example = false;
            }
        }
    }
    examples
}

/// Split a command line into words: whitespace separates, single quotes
/// keep (all the pages use).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// A server process, killed when dropped (a failing test included).
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `gametab serve --tables tables` run in `dir`; its address.
fn serve_in(dir: &Path) -> (Running, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gametab"))
        .current_dir(dir)
        .args(["serve", "--tables", "tables", "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("gametab serve starts");
    let stdout = child.stdout.take().unwrap();
    let child = Running(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("no listening line: {line:?}"))
        .to_string();
    (child, url)
}

#[test]
fn the_pages_http_examples_answer_what_the_pages_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(common::built_tables(), dir.path().join("tables")).unwrap();
    let (server, url) = serve_in(dir.path());
    let agent = agent();
    let examples = examples();
    assert!(
        examples.len() >= 15,
        "only {} curl examples found in the pages' sh blocks",
        examples.len()
    );
    let mut failures = Vec::new();
    for example in &examples {
        let mut body = None;
        let mut headers_only = false;
        let mut target = None;
        let mut words = example.words.iter();
        while let Some(word) = words.next() {
            match word.as_str() {
                "--data-binary" => {
                    let file = words.next().unwrap().strip_prefix('@').unwrap();
                    body = Some(fs::read(root.join(file)).unwrap());
                }
                "-o" | "-w" => {
                    words.next();
                    headers_only = true;
                }
                word => target = Some(word.replace("localhost:8080", &url.replace("http://", ""))),
            }
        }
        let target = target.unwrap_or_else(|| panic!("{}: no URL", example.place));
        let target = if target.starts_with("http") {
            target
        } else {
            format!("http://{target}")
        };
        if headers_only {
            // The body may be binary (the browser bundle): the status only.
            let status = agent
                .get(&target)
                .call()
                .expect("the server answers")
                .status();
            if status != 200 {
                failures.push(format!("{}: {target} answered {status}", example.place));
            }
            continue;
        }
        let answer = match body {
            Some(body) => post(&agent, &target, &body),
            None => get(&agent, &target),
        };
        if answer.status != 200 {
            failures.push(format!(
                "{}: {target} answered {}",
                example.place, answer.status
            ));
            continue;
        }
        for piece in example.shown.split('…').map(str::trim) {
            if !piece.is_empty() && !answer.body.contains(piece) {
                failures.push(format!(
                    "{}: the answer lacks `{piece}`: {}",
                    example.place, answer.body
                ));
            }
        }
    }
    drop(server);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

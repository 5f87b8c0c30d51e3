//! A running `gametab serve` and a client for it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A server process on a free loopback port, killed when dropped. Its
/// standard error (the reload log) goes to a file.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub url: String,
    log: tempfile::NamedTempFile,
}

impl Server {
    /// Start `gametab serve --tables DIR --addr 127.0.0.1:0 EXTRA...` and
    /// wait for its `listening on` line.
    pub fn start(tables: &Path, extra: &[&str]) -> Server {
        Server::start_limited(tables, extra, None)
    }

    /// [`Server::start`] with the descriptor limit (`RLIMIT_NOFILE`, soft
    /// and hard) set to `nofile` in the child, as `prlimit --nofile` does.
    pub fn start_limited(tables: &Path, extra: &[&str], nofile: Option<u64>) -> Server {
        let log = tempfile::NamedTempFile::new().unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_gametab"));
        command
            .arg("serve")
            .arg("--tables")
            .arg(tables)
            .args(["--addr", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(log.reopen().unwrap());
        if let Some(nofile) = nofile {
            // SAFETY: setrlimit is async-signal-safe and touches no memory
            // of the parent.
            unsafe {
                command.pre_exec(move || {
                    let limit = libc::rlimit {
                        rlim_cur: nofile,
                        rlim_max: nofile,
                    };
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let mut child = command.spawn().expect("gametab serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| {
                let _ = child.kill();
                panic!(
                    "no 'listening on' line: {line:?}; log: {}",
                    std::fs::read_to_string(log.path()).unwrap_or_default()
                )
            })
            .to_string();
        Server { child, url, log }
    }

    /// What the server wrote to standard error so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log.path()).unwrap()
    }

    /// Wait (up to 30 s) until the log contains `needle`.
    pub fn wait_for_log(&self, needle: &str) -> String {
        let start = Instant::now();
        loop {
            let log = self.log();
            if log.contains(needle) {
                return log;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no {needle:?} in the server's log:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// `HOST:PORT`
    pub fn address(&self) -> &str {
        self.url.trim_start_matches("http://")
    }

    /// A new raw connection to the server.
    pub fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.address()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        stream
    }
}

/// Send `request` (raw bytes) on a new connection and read the answer:
/// status code, lower-case headers, body (up to its `content-length`, or
/// to the end of the connection).
pub fn raw(server: &Server, request: &[u8]) -> Answer {
    let mut stream = server.connect();
    stream.write_all(request).unwrap();
    read_answer(&mut stream)
}

/// Read one HTTP/1.1 answer from `stream`.
pub fn read_answer(stream: &mut TcpStream) -> Answer {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        let n = stream.read(&mut chunk).expect("an answer");
        assert!(
            n > 0,
            "connection closed without an answer: {:?}",
            String::from_utf8_lossy(&bytes)
        );
        bytes.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&bytes[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {head:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok());
    let mut body = bytes[head_end..].to_vec();
    match length {
        Some(length) => {
            while body.len() < length {
                let n = stream.read(&mut chunk).expect("the body");
                assert!(n > 0, "the body ended early");
                body.extend_from_slice(&chunk[..n]);
            }
            body.truncate(length);
        }
        None if status != 304 => {
            let _ = stream.read_to_end(&mut body);
        }
        None => {}
    }
    Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

/// Whether the server has closed `stream` (a read sees the end, or a
/// reset), waiting up to `within`.
pub fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    stream.set_read_timeout(Some(within)).unwrap();
    let mut byte = [0u8; 1];
    loop {
        match stream.read(&mut byte) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut =>
            {
                return false
            }
            Err(_) => return true,
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    /// The value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// A keep-alive client that reports every status (4xx and 5xx included)
/// instead of failing on it.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

fn answer(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Answer {
    try_answer(response).expect("the server answers")
}

fn try_answer(
    response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
) -> Result<Answer, ureq::Error> {
    let mut response = response?;
    let headers = response
        .headers()
        .iter()
        .map(|(n, v)| (n.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
        .collect();
    let mut body = String::new();
    response
        .body_mut()
        .as_reader()
        .read_to_string(&mut body)
        .map_err(ureq::Error::Io)?;
    Ok(Answer {
        status: response.status().as_u16(),
        headers,
        body,
    })
}

/// GET `url`, or the client's error (connection refused, reset, ...).
pub fn try_get(agent: &ureq::Agent, url: &str) -> Result<Answer, ureq::Error> {
    try_answer(agent.get(url).call())
}

/// GET `url` with extra headers.
pub fn get_with(agent: &ureq::Agent, url: &str, headers: &[(&str, &str)]) -> Answer {
    let mut request = agent.get(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    answer(request.call())
}

/// GET `url`.
pub fn get(agent: &ureq::Agent, url: &str) -> Answer {
    get_with(agent, url, &[])
}

/// POST `body` to `url`.
pub fn post(agent: &ureq::Agent, url: &str, body: &[u8]) -> Answer {
    answer(
        agent
            .post(url)
            .header("content-type", "application/json")
            .send(body),
    )
}

/// Send any method without a body.
pub fn send(agent: &ureq::Agent, method: &str, url: &str) -> Answer {
    let request = ureq::http::Request::builder()
        .method(method)
        .uri(url)
        .body(())
        .unwrap();
    answer(agent.run(request))
}

/// What `gametab ARGS...` prints, parsed as JSON.
pub fn cli_json(args: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_gametab"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "gametab {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The repository's example directory.
pub fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/examples")
}

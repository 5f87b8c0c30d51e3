//! The server process under test and a few raw-socket helpers shared by the
//! phases of the load bench.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The `gametab` binary to measure: `SERVE_BENCH_BINARY`, or the one this
/// bench was built with (so that the same bench measures an older build).
pub fn binary() -> PathBuf {
    std::env::var_os("SERVE_BENCH_BINARY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_gametab")))
}

/// A running `gametab serve`, killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`
    pub address: String,
}

impl Server {
    /// Start `gametab serve --tables TABLES --addr 127.0.0.1:0 EXTRA...`
    /// (then the words of `SERVE_BENCH_SERVER_ARGS`, e.g. to try other
    /// limits), with the descriptor limit set to `nofile` when given.
    pub fn start(tables: &Path, extra: &[&str], nofile: Option<u64>) -> Server {
        let mut command = Command::new(binary());
        let more = std::env::var("SERVE_BENCH_SERVER_ARGS").unwrap_or_default();
        command
            .args(["serve", "--addr", "127.0.0.1:0", "--tables"])
            .arg(tables)
            .args(extra)
            .args(more.split_whitespace())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(nofile) = nofile {
            // SAFETY: setrlimit touches no memory of the parent.
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
        let address = line
            .trim()
            .trim_start_matches("listening on http://")
            .to_string();
        assert!(!address.is_empty(), "the server did not start");
        Server { child, address }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Resident memory of `pid` in KiB (VmRSS).
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// CPU time (user + system) of `pid` so far.
pub fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name, which is in parentheses.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks: u64 = fields
        .get(11..13)
        .map_or(0, |f| f.iter().filter_map(|v| v.parse::<u64>().ok()).sum());
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_millis(ticks * 1000 / per_second)
}

/// One GET on a new connection; its status and latency, or the failure
/// (within `timeout`).
pub fn fresh_get(address: &str, path: &str, timeout: Duration) -> Result<(u16, Duration), String> {
    let started = Instant::now();
    let addr = address.parse().unwrap();
    let mut stream =
        TcpStream::connect_timeout(&addr, timeout).map_err(|e| format!("connect: {e}"))?;
    stream.set_read_timeout(Some(timeout)).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| format!("write: {e}"))?;
    let mut answer = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&chunk[..n]),
            Err(e) => {
                if answer.is_empty() {
                    return Err(format!("read: {e}"));
                }
                break;
            }
        }
    }
    let status = std::str::from_utf8(&answer[..answer.len().min(12)])
        .ok()
        .and_then(|l| l.get(9..12))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| "no status line".to_string())?;
    Ok((status, started.elapsed()))
}

/// POST `body` to `path` on a new connection and return the connection
/// without reading (a client that may walk away).
pub fn post_unread(address: &str, path: &str, body: &[u8]) -> std::io::Result<TcpStream> {
    let mut stream = TcpStream::connect(address)?;
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    stream.write_all(body)?;
    Ok(stream)
}

/// Read the status of the answer on `stream` (within `timeout`).
pub fn status_of(stream: &mut TcpStream, timeout: Duration) -> Option<u16> {
    stream.set_read_timeout(Some(timeout)).ok()?;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).ok()?;
    std::str::from_utf8(&head).ok()?.get(9..12)?.parse().ok()
}

/// Percentile `p` of sorted `values`, in milliseconds.
pub fn percentile_ms(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at].as_secs_f64() * 1000.0
}

//! A job's progress (`gametab dice endgame solve`): where the double
//! oracle stands after each round, over every job of the game, on
//! standard error. On a terminal one line is redrawn at every round; in a
//! batch engine's log a line is written a minute at most, so that a job of
//! hours logs where it stands and a short job's rounds do not flood it.

use std::io::Write;
use std::time::Duration;

use gametab_games::dice::endgame::Endgame;
use gametab_solve::endgame::job::JobRound;

/// A job's progress on standard error: on a terminal, one line redrawn at
/// every round; otherwise (a batch engine's log) a line at the first round
/// ending [`LOG_EVERY`] or more after the last line, so that a job of
/// hours logs where it stands without flooding a log with a short job's
/// rounds.
pub struct RoundLog<W: Write> {
    game: Endgame,
    bar: Option<indicatif::ProgressBar>,
    log: Option<W>,
    every: Duration,
    last: std::time::Instant,
}

/// The least time between two lines of [`RoundLog`] in a log.
pub const LOG_EVERY: Duration = Duration::from_secs(60);

impl RoundLog<std::io::Stderr> {
    /// The progress of `game`'s job on standard error, or none when
    /// `quiet`.
    pub fn new(game: Endgame, quiet: bool) -> Self {
        let progress = crate::progress::Progress::new(!quiet);
        let bar = progress
            .is_shown()
            .then(|| progress.phase("endgame", 0, ""));
        if let Some(bar) = &bar {
            bar.set_message(format!("{game}: round 1"));
        }
        let log = (!quiet && bar.is_none()).then(std::io::stderr);
        RoundLog::with(game, bar, log, LOG_EVERY)
    }
}

impl<W: Write> RoundLog<W> {
    /// The progress of `game`'s job: redrawn on `bar`, else written to
    /// `log` a line at most every `every`.
    pub fn with(
        game: Endgame,
        bar: Option<indicatif::ProgressBar>,
        log: Option<W>,
        every: Duration,
    ) -> Self {
        RoundLog {
            game,
            bar,
            log,
            every,
            last: std::time::Instant::now(),
        }
    }

    /// Report one round.
    pub fn round(&mut self, round: &JobRound) {
        let line = round_line(self.game, round);
        if let Some(bar) = &self.bar {
            bar.set_message(line);
        } else if let Some(log) = &mut self.log {
            if self.last.elapsed() >= self.every {
                // A log that cannot be written is no reason to stop a job.
                let _ = writeln!(log, "{line}");
                self.last = std::time::Instant::now();
            }
        }
    }

    /// Clear the terminal's line; give back the log.
    pub fn finish(self) -> Option<W> {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
        self.log
    }
}

/// One round's progress line: rounds, bracket and its width, the
/// restricted LP, time, all over every job of the game.
pub fn round_line(game: Endgame, round: &JobRound) -> String {
    let (lower, upper) = round.bracket;
    format!(
        "{game}: round {}, value in [{lower:.9}, {upper:.9}] (width {:.1e}), restricted LP {} x {} ({} nonzeros), {:.0} s over all its jobs",
        round.rounds,
        upper - lower,
        round.size.0,
        round.size.1,
        round.size.2,
        round.seconds
    )
}

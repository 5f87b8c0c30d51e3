//! `gametab cluedo --log game.json [--json] [--model NAME]`: read a game
//! log (format: `gametab_games::cluedo::GameLog`, example in
//! `scripts/examples/cluedo-game.json`) and print the exact notebook: for
//! every card, P(in the envelope) and P(each player holds it). With
//! `--advise`, the suggestions ranked by exact information gain instead
//! ([`super::advice`]).

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

use gametab_games::cluedo::{analyse, Card, GameLog, Model, Notebook, Place, Seat};
use serde::Serialize;

use crate::error::{Error, Parameter};

/// Arguments of `gametab cluedo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game log: a JSON file (its format: docs/cluedo.md; example: scripts/examples/cluedo-game.json).
    #[arg(long)]
    pub log: PathBuf,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// How deals are weighted: equal-deals (every consistent deal counts
    /// once) or uniform-responder (responders pick uniformly which named
    /// card to show).
    #[arg(long, default_value = "equal-deals")]
    pub model: String,
    /// Rank every suggestion I can make by the default objective (the
    /// chance the envelope is certain after it; the document names the
    /// objective and its tie keys) and report the accusation, instead of
    /// printing the notebook.
    #[arg(long)]
    pub advise: bool,
    /// With --advise: only suggestions in this room (the one I am in).
    #[arg(long, requires = "advise")]
    pub room: Option<String>,
    /// With --advise: how many suggestions to list, 1 to 1000 (the bound
    /// `POST /v1/cluedo/advice` takes).
    #[arg(long, default_value_t = 10, requires = "advise",
          value_parser = clap::value_parser!(u64).range(1..=super::advice::MAX_TOP))]
    pub top: u64,
}

/// One card's line of the JSON notebook.
#[derive(Debug, Serialize)]
pub struct CardLine {
    card: String,
    category: &'static str,
    envelope: f64,
    holders: Vec<f64>,
}

/// The JSON notebook. Counts are decimal strings: they can exceed 2^53.
/// `gametab cluedo --json` and `POST /v1/cluedo/notebook` both print it.
#[derive(Debug, Serialize)]
pub struct NotebookDocument {
    model: &'static str,
    players: Vec<String>,
    deals: String,
    cards: Vec<CardLine>,
}

/// Run the command, writing the notebook to `out`.
///
/// # Errors
/// Unreadable or malformed logs, contradictory facts (the error names
/// them), or `out` refusing the notebook.
pub fn run(args: &Args, out: &mut impl Write) -> crate::cli::Result<()> {
    let model = parse_model(&args.model)?;
    let text = crate::logs::read_log(&args.log)?;
    let log: GameLog = crate::logs::parse_log(&args.log, &text, "Cluedo")?;
    if let Some(warning) = log.old_format_warning() {
        crate::cli::warn(&format!("{}: {warning}", args.log.display()));
    }
    let within = |e: Error| e.context(format_args!("in {}", args.log.display()));
    crate::logs::check_cluedo_events(&log).map_err(within)?;
    let knowledge = log
        .knowledge()
        .map_err(|e| within(Error::from_cluedo_log(e)))?;
    if args.advise {
        let doc = super::advice::document(
            &log,
            &knowledge,
            model,
            args.room.as_deref(),
            args.top as usize,
        )?;
        let output = if args.json {
            crate::cli::pretty(&doc)?
        } else {
            super::advice::render(&doc)
        };
        out.write_all(output.as_bytes())?;
        return Ok(());
    }
    let notebook = analyse(&knowledge, model).map_err(Error::from_log)?;
    let output = if args.json {
        crate::cli::pretty(&document(&log, &notebook))?
    } else {
        render(&log, &notebook)
    };
    out.write_all(output.as_bytes())?;
    Ok(())
}

fn seats(notebook: &Notebook) -> impl Iterator<Item = Seat> + '_ {
    notebook.rules().seats()
}

/// A deal model by name (`--model`, the `model` parameter).
///
/// # Errors
/// [`Error::Invalid`] naming `model` for an unknown name.
pub fn parse_model(name: &str) -> crate::error::Result<Model> {
    Model::parse(name).map_err(|e| Error::invalid(Parameter::Model, e.to_string()))
}

/// The notebook document of an analysed log (`gametab cluedo --json`,
/// `POST /v1/cluedo/notebook`).
pub fn document(log: &GameLog, notebook: &Notebook) -> NotebookDocument {
    let deck = notebook.rules().deck();
    NotebookDocument {
        model: notebook.model().name(),
        players: seats(notebook).map(|s| log.name(s)).collect(),
        deals: notebook.deals().to_string(),
        cards: (0..deck.len() as u8)
            .map(Card)
            .map(|card| CardLine {
                card: deck.card_name(card),
                category: deck.category(card).name(),
                envelope: notebook.p_envelope(card),
                holders: seats(notebook).map(|s| notebook.p_holds(s, card)).collect(),
            })
            .collect(),
    }
}

/// A probability as a notebook cell: `-` for impossible, `X` for certain,
/// else a percentage.
fn cell(notebook: &Notebook, card: Card, place: Place) -> String {
    let deals = notebook.deals_with(card, place);
    if deals == 0 {
        "-".to_string()
    } else if deals == notebook.deals() {
        "X".to_string()
    } else {
        format!("{:.1}%", 100.0 * notebook.probability(card, place))
    }
}

/// The notebook as a text table.
pub fn render(log: &GameLog, notebook: &Notebook) -> String {
    let deck = notebook.rules().deck();
    let mut header = vec!["card".to_string(), "envelope".to_string()];
    header.extend(seats(notebook).map(|s| log.name(s)));
    let mut rows = vec![header];
    for card in (0..deck.len() as u8).map(Card) {
        let mut row = vec![deck.card_name(card), cell(notebook, card, Place::Envelope)];
        row.extend(seats(notebook).map(|s| cell(notebook, card, Place::Hand(s))));
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|i| rows.iter().map(|r| r[i].len()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} consistent deals ({} model)",
        notebook.deals(),
        notebook.model().name()
    );
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, &w))| {
                if i == 0 {
                    format!("{c:<w$}")
                } else {
                    format!("{c:>w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    out
}

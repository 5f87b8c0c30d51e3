//! The strategy table of the endgame, read one row group at a time.
//!
//! The build writes the strategy rows sorted by (game, player, history,
//! hand, action) and cuts its row groups so that each holds one (game,
//! player) and a run of whole histories (`tables/README.md`). The footer's
//! chunk statistics then name every group's game, player and history range,
//! so a query finds the group of a history from the footer alone and
//! decodes only that group's few tens of thousands of rows: a process
//! answering one question decodes a handful of groups instead of the
//! millions of rows of the six-sided games.
//!
//! A file grouped otherwise (rewritten by another tool, say) is read too:
//! a group whose statistics do not pin one game and player has its key
//! columns decoded once, at opening, and is cut into segments of one game
//! and player each. So the index is a list of segments, each a row range
//! of one group; for the build's files, one segment per group.
//!
//! Every segment decoded is checked before its rows are used: rows rise
//! strictly in key order, every action is legal where it stands and the
//! player is the one to move, every probability lies in (0, 1], and (for
//! [`StrategyFile::read`] with `all_keys`) its game and player columns
//! match the index.

use bytes::Bytes;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::statistics::Statistics;

use gametab_games::dice::endgame::{Action, Endgame, History, Player};

use super::schema::ENDGAME_STRATEGY;
use crate::error::{Error, Result};
use crate::io::{corrupt, open_checked, read_column, Column};
use crate::schema::TableSchema;

/// One segment of the index: rows of one row group that hold one (game,
/// player) and a run of histories.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Segment {
    /// The game of every row.
    pub game: Endgame,
    /// The player of every row.
    pub player: Player,
    /// The lowest and highest history (bit set) of its rows.
    pub histories: (u32, u32),
    /// The row group's index in the file.
    pub group: usize,
    /// The segment's rows within the group.
    pub rows: std::ops::Range<usize>,
    /// The file's row number of the group's first row.
    pub first_row: usize,
}

/// One decoded segment: the rows of a run of histories of one (game,
/// player), in key order.
#[derive(Debug, Clone, Default)]
pub(crate) struct Group {
    /// History bits of each row.
    pub history: Vec<u32>,
    /// Hand index of each row (in [`Endgame::hands`] order).
    pub hand: Vec<u8>,
    /// Action of each row.
    pub action: Vec<Action>,
    /// Probability of each row.
    pub probability: Vec<f64>,
}

impl Group {
    /// The rows of `history`: a range of row indices.
    pub fn rows_of(&self, history: History) -> std::ops::Range<usize> {
        let start = self.history.partition_point(|&h| h < history.0);
        let end = self.history.partition_point(|&h| h <= history.0);
        start..end
    }
}

/// The strategy file, its footer read and its groups indexed by key.
pub(crate) struct StrategyFile {
    reader: SerializedFileReader<Bytes>,
    segments: Vec<Segment>,
}

impl std::fmt::Debug for StrategyFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StrategyFile")
            .field("segments", &self.segments.len())
            .finish()
    }
}

const SCHEMA: TableSchema = ENDGAME_STRATEGY;

fn bad(row: usize, detail: impl std::fmt::Display) -> Error {
    Error::BadRow {
        table: SCHEMA.name.to_owned(),
        row,
        detail: detail.to_string(),
    }
}

/// Run `f` with the Parquet decoder fenced: a panic on a malicious file
/// becomes [`Error::CorruptTable`], as in [`crate::io::read_parquet`].
fn fenced<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let detail = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "decoder panicked".to_string());
        Err(corrupt(&SCHEMA, detail))
    })
}

/// The column index of `name` in the strategy schema.
fn column(name: &str) -> usize {
    SCHEMA
        .column_index(name)
        .expect("a column of the strategy schema")
}

/// The single value of an `Int32` chunk whose statistics say min = max.
fn int_stat(stats: Option<&Statistics>) -> Option<(i32, i32)> {
    match stats? {
        Statistics::Int32(s) => Some((*s.min_opt()?, *s.max_opt()?)),
        _ => None,
    }
}

fn text_stat(stats: Option<&Statistics>) -> Option<(String, String)> {
    match stats? {
        Statistics::ByteArray(s) => Some((
            String::from_utf8(s.min_opt()?.data().to_vec()).ok()?,
            String::from_utf8(s.max_opt()?.data().to_vec()).ok()?,
        )),
        _ => None,
    }
}

/// The game of a row's key columns.
fn game_of(row: usize, key: [i32; 3], rules: &str) -> Result<Endgame> {
    let wild = match rules {
        "normal" => false,
        "wild" => true,
        other => return Err(bad(row, format!("rules '{other}'"))),
    };
    let [a, b, sides] = key.map(|v| u8::try_from(v).unwrap_or(u8::MAX));
    Endgame::new(a, b, sides, wild).map_err(|e| bad(row, e))
}

impl StrategyFile {
    /// Open the file and index its segments: from the footer alone for
    /// groups that hold one game and player, by decoding the key columns
    /// of any other group.
    ///
    /// # Errors
    /// As [`crate::io::read_parquet`] for the file's metadata (and the key
    /// columns decoded); [`Error::BadRow`] for a game the rules refuse or
    /// segments out of key order.
    pub fn open(bytes: Bytes) -> Result<StrategyFile> {
        fenced(|| {
            let (reader, _) = open_checked(bytes, &SCHEMA)?;
            let mut segments = Vec::with_capacity(reader.num_row_groups());
            let mut first_row = 0usize;
            for group in 0..reader.num_row_groups() {
                let meta = reader.metadata().row_group(group);
                let rows = usize::try_from(meta.num_rows())
                    .map_err(|_| corrupt(&SCHEMA, "negative row count"))?;
                if rows == 0 {
                    continue;
                }
                let stat = |name: &str| int_stat(meta.column(column(name)).statistics());
                let keyed = (
                    stat("dice_one"),
                    stat("dice_two"),
                    stat("sides"),
                    text_stat(meta.column(column("rules")).statistics()),
                    stat("player"),
                    stat("history"),
                );
                match keyed {
                    (Some(a), Some(b), Some(s), Some(r), Some(p), Some(h))
                        if a.0 == a.1 && b.0 == b.1 && s.0 == s.1 && r.0 == r.1 && p.0 == p.1 =>
                    {
                        let game = game_of(first_row, [a.0, b.0, s.0], &r.0)?;
                        let player = Player::from_number(p.0.max(0) as u32)
                            .map_err(|e| bad(first_row, e))?;
                        segments.push(Segment {
                            game,
                            player,
                            histories: (h.0 as u32, h.1 as u32),
                            group,
                            rows: 0..rows,
                            first_row,
                        });
                    }
                    _ => segments.extend(Self::segments_by_decoding(&reader, group, first_row)?),
                }
                first_row += rows;
            }
            for pair in segments.windows(2) {
                let (x, y) = (&pair[0], &pair[1]);
                if (x.game, x.player, x.histories.1) > (y.game, y.player, y.histories.0)
                    || (x.game, x.player) == (y.game, y.player) && x.histories.1 > y.histories.0
                {
                    return Err(bad(y.first_row + y.rows.start, "rows out of key order"));
                }
            }
            Ok(StrategyFile { reader, segments })
        })
    }

    /// The segments of group `group` from its decoded key columns: a run
    /// of rows per (game, player).
    fn segments_by_decoding(
        reader: &SerializedFileReader<Bytes>,
        group: usize,
        first_row: usize,
    ) -> Result<Vec<Segment>> {
        let columns = decode(
            reader,
            group,
            &[
                "dice_one", "dice_two", "sides", "rules", "player", "history",
            ],
        )?;
        let ints = |k: usize| -> Result<&[i32]> {
            match &columns[k] {
                Column::Int32(v) => Ok(v),
                _ => Err(corrupt(&SCHEMA, "a key column is not int32")),
            }
        };
        let (a, b, s, p, h) = (ints(0)?, ints(1)?, ints(2)?, ints(4)?, ints(5)?);
        let Column::Utf8(rules) = &columns[3] else {
            return Err(corrupt(&SCHEMA, "rules is not a string column"));
        };
        let mut segments: Vec<Segment> = Vec::new();
        let mut start = 0;
        for r in 0..h.len() {
            let boundary = r + 1 == h.len()
                || (a[r], b[r], s[r], p[r]) != (a[r + 1], b[r + 1], s[r + 1], p[r + 1])
                || rules[r] != rules[r + 1];
            if !boundary {
                continue;
            }
            let game = game_of(first_row + start, [a[r], b[r], s[r]], &rules[r])?;
            let player =
                Player::from_number(p[r].max(0) as u32).map_err(|e| bad(first_row + start, e))?;
            let histories = (h[start] as u32, h[r] as u32);
            segments.push(Segment {
                game,
                player,
                histories,
                group,
                rows: start..r + 1,
                first_row,
            });
            start = r + 1;
        }
        Ok(segments)
    }

    /// The segments of `game` and `player`, in history order.
    pub fn segments_of(&self, game: Endgame, player: Player) -> impl Iterator<Item = &Segment> {
        self.segments
            .iter()
            .filter(move |g| g.game == game && g.player == player)
    }

    /// The segment of `game` and `player` whose history range holds
    /// `history`, if any.
    pub fn segment_of(&self, game: Endgame, player: Player, history: History) -> Option<&Segment> {
        self.segments_of(game, player)
            .find(|g| g.histories.0 <= history.0 && history.0 <= g.histories.1)
    }

    /// The games that have rows.
    pub fn games(&self) -> impl Iterator<Item = Endgame> + '_ {
        self.segments.iter().map(|g| g.game)
    }

    /// Decode and check the segment `key`: its rows' history, hand, action
    /// and probability. With `all_keys` also its game and player columns,
    /// checked against the footer's claim (a query trusts the footer's
    /// statistics, which the manifest's digest covers; `gametab verify`,
    /// through [`super::StoredEndgame::strategies`], checks every cell).
    ///
    /// # Errors
    /// [`Error::CorruptTable`] for bytes the decoder refuses;
    /// [`Error::BadRow`] (numbered by the row in the file) for a row of
    /// another game or player than the footer claims, rows out of key order
    /// or repeated, a hand, action or history that does not belong to the
    /// game, and a probability outside (0, 1].
    pub fn read(&self, key: &Segment, all_keys: bool) -> Result<Group> {
        fenced(|| {
            let names = [
                "history",
                "hand",
                "action",
                "probability",
                "dice_one",
                "dice_two",
                "sides",
                "rules",
                "player",
            ];
            let wanted = if all_keys { &names[..] } else { &names[..4] };
            let columns = decode(&self.reader, key.group, wanted)?;
            let int = |k: usize| -> Result<&[i32]> {
                match &columns[k] {
                    Column::Int32(v) => Ok(v),
                    _ => Err(corrupt(&SCHEMA, format!("{} is not int32", names[k]))),
                }
            };
            let (h, hand, action) = (int(0)?, int(1)?, int(2)?);
            let Column::Float64(probability) = &columns[3] else {
                return Err(corrupt(&SCHEMA, "probability is not a double column"));
            };
            let game = key.game;
            if all_keys {
                let expected = [
                    i32::from(game.dice(Player::One)),
                    i32::from(game.dice(Player::Two)),
                    i32::from(game.sides()),
                    i32::from(key.player.number()),
                ];
                let Column::Utf8(rules) = &columns[7] else {
                    return Err(corrupt(&SCHEMA, "rules is not a string column"));
                };
                let (a, b, s, p) = (int(4)?, int(5)?, int(6)?, int(8)?);
                for r in key.rows.clone() {
                    if [a[r], b[r], s[r], p[r]] != expected || &rules[r] != game.rules_name() {
                        return Err(bad(
                            key.first_row + r,
                            "game or player differs from the row group's",
                        ));
                    }
                }
            }
            let hands = game.hands(key.player);
            let codes: Vec<i32> = hands.iter().map(|h| h.code()).collect();
            if key.rows.end > h.len() {
                return Err(corrupt(&SCHEMA, "a row group shorter than its index"));
            }
            let n = key.rows.len();
            let mut group = Group {
                history: Vec::with_capacity(n),
                hand: Vec::with_capacity(n),
                action: Vec::with_capacity(n),
                probability: Vec::with_capacity(n),
            };
            let bids = game.bid_count() as u8;
            let mut previous: Option<(u32, usize, i32)> = None;
            // The last history checked, and whether the player moves there.
            let mut checked: Option<u32> = None;
            for r in key.rows.clone() {
                let row = key.first_row + r;
                let bits = u32::try_from(h[r])
                    .ok()
                    .filter(|&bits| (bits as usize) < game.history_count())
                    .ok_or_else(|| bad(row, format!("history {} is no history of {game}", h[r])))?;
                let history = History(bits);
                if checked != Some(bits) {
                    if game.to_move(history) != key.player {
                        return Err(bad(
                            row,
                            format!(
                                "player {} does not move after '{}'",
                                key.player.number(),
                                game.history_text(history)
                            ),
                        ));
                    }
                    if bits < key.histories.0 || bits > key.histories.1 {
                        return Err(bad(row, "history outside the row group's range"));
                    }
                    checked = Some(bits);
                }
                let i = codes.binary_search(&hand[r]).map_err(|_| {
                    bad(
                        row,
                        format!(
                            "hand {} is no hand of player {}",
                            hand[r],
                            key.player.number()
                        ),
                    )
                })?;
                let act = game.action_of_code(action[r]).map_err(|e| bad(row, e))?;
                let legal = match act {
                    Action::Call => !history.is_empty(),
                    Action::Bid(b) => history.last().is_none_or(|last| b > last) && b < bids,
                };
                if !legal {
                    return Err(bad(
                        row,
                        format!(
                            "action {} is not legal after '{}'",
                            action[r],
                            game.history_text(history)
                        ),
                    ));
                }
                let this = (bits, i, action[r]);
                if previous.is_some_and(|prev| prev >= this) {
                    return Err(bad(row, "rows out of key order or repeated"));
                }
                previous = Some(this);
                let prob = probability[r];
                if !(prob > 0.0 && prob <= 1.0) {
                    return Err(bad(row, format!("probability {prob}")));
                }
                group.history.push(bits);
                group.hand.push(i as u8);
                group.action.push(act);
                group.probability.push(prob);
            }
            Ok(group)
        })
    }
}

/// Decode the columns `names` of row group `index`.
fn decode(
    reader: &SerializedFileReader<Bytes>,
    index: usize,
    names: &[&str],
) -> Result<Vec<Column>> {
    let group = reader
        .get_row_group(index)
        .map_err(|e| corrupt(&SCHEMA, e))?;
    let rows = usize::try_from(group.metadata().num_rows())
        .map_err(|_| corrupt(&SCHEMA, "negative row count"))?;
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        let k = column(name);
        let mut values = Column::empty(SCHEMA.columns[k].ty);
        let reader = group
            .get_column_reader(k)
            .map_err(|e| corrupt(&SCHEMA, e))?;
        read_column(reader, &mut values, rows).map_err(|e| corrupt(&SCHEMA, e))?;
        if values.len() != rows {
            return Err(corrupt(
                &SCHEMA,
                format!(
                    "column {name} of row group {index} holds {} of {rows} rows",
                    values.len()
                ),
            ));
        }
        out.push(values);
    }
    Ok(out)
}

#!/usr/bin/env python3
# Explore the gametab tables from Python and check that they reproduce the
# published numbers they hold: the rows of the known-answer file
# data/published.csv (the one copy of the published numbers, whose
# format crates/build/src/known_answers.rs documents; $GAMETAB_PUBLISHED names another file).
#
#   python explore.py TABLES_DIR
#
# Exit status: 0 when every check passes, 1 when a number does not reproduce
# (each failure is named on stderr), 2 when TABLES_DIR is not a table set.
# Needs the packages pinned in requirements.txt. This file is also the source
# of explore.ipynb: every "# %%" line starts a notebook cell ("# %% [markdown]"
# a text cell); make_notebook.py regenerates the notebook, and the test suite
# checks that the committed notebook is up to date. Lines above the first
# marker (this header) are not part of the notebook.

# %% [markdown]
# # gametab tables from Python
#
# The tables written by `gametab build` are plain Parquet files with
# key-value metadata, listed with their BLAKE2b-256 digests in
# `manifest.json`. This notebook loads them with **duckdb**, **polars** and
# **pandas**, reads the metadata, and reproduces the published numbers the
# tables hold (`data/published.csv`, one row per number): the Murder Plan
# win rates and the Liar's Dice raw vs corrected probabilities. Every number
# is checked; a failure is collected and reported at the end (the script
# exits non-zero).

# %%
import csv
import hashlib
import json
import os
import pathlib
import sys

import duckdb
import pandas as pd
import polars as pl
import pyarrow.parquet as pq

pd.set_option("display.width", 120)
pl.Config.set_fmt_str_lengths(40)
pl.Config.set_tbl_width_chars(120)

FAILURES = []


def one(sql):
    """The single row of a duckdb query."""
    rows = duckdb.sql(sql).fetchall()
    if len(rows) != 1:
        raise ValueError(f"expected one row, got {len(rows)}: {sql}")
    return rows[0]


def check(ok, what):
    """Record a failed check (and say so at once) without stopping."""
    if not ok:
        FAILURES.append(what)
        print(f"CHECK FAILED: {what}")
    return ok


def tables_dir():
    """The table directory: the first argument when run as a script; in a
    notebook (whose argv holds the kernel's flags and connection file)
    $GAMETAB_TABLES or the repository's tables/ seen from scripts/notebook/."""
    args = [a for a in sys.argv[1:] if not a.startswith("-") and not a.endswith(".json")]
    if args:
        return pathlib.Path(args[0])
    return pathlib.Path(os.environ.get("GAMETAB_TABLES", "../../tables"))


def published_csv():
    """The known-answer file: $GAMETAB_PUBLISHED, or the repository's
    data/published.csv, found from this script (in a notebook, which has no
    __file__, from scripts/notebook/)."""
    if os.environ.get("GAMETAB_PUBLISHED"):
        return pathlib.Path(os.environ["GAMETAB_PUBLISHED"])
    here = pathlib.Path(globals().get("__file__", "explore.py")).resolve().parent
    return here.parent.parent / "data" / "published.csv"


def read_published(path):
    """The rows of the known-answer file, in file order, each with its
    parameters as a dict ("name=value" pairs joined by ";")."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        pairs = row["parameters"].split(";") if row["parameters"] else []
        row["params"] = dict(pair.split("=", 1) for pair in pairs)
        row["name"] = f"{row['game']} {row['quantity']} {row['parameters']}"
    return rows


def rows_of(game, *quantities):
    return [r for r in PUBLISHED if r["game"] == game and r["quantity"] in quantities]


CHECKED = set()


def check_published(row, found):
    """Check a table's value (in the row's unit, None when the tables lack
    it) against a published row, and print the two side by side."""
    CHECKED.add(row["name"])
    value = row["value"]
    if found is None:
        check(False, f"{row['name']}: not in the tables, published {value}")
        return
    # Two digits more than published.
    digits = len(value.split(".")[1]) + 2 if "." in value else 0
    print(f"  {row['name']}: published {value}, table {found:.{digits}f}")
    check(
        abs(found - float(value)) <= float(row["tolerance"]),
        f"{row['name']}: table {found:.{digits}f}, published {value}",
    )


def in_unit(row, probability):
    """A probability from a table in the row's unit."""
    return 100 * probability if row["unit"] == "percent" else probability


TABLES = tables_dir()
if not (TABLES / "manifest.json").is_file():
    print(
        f"error: {TABLES} holds no manifest.json; build the tables first "
        "(scripts/build-tables, or gametab build --out DIR) and pass that directory",
        file=sys.stderr,
    )
    sys.exit(2)
PUBLISHED_CSV = published_csv()
PUBLISHED = read_published(PUBLISHED_CSV)
print(f"tables: {TABLES.resolve()}")
print(f"published numbers: {PUBLISHED_CSV.resolve()} ({len(PUBLISHED)} rows)")
print(f"duckdb {duckdb.__version__}, polars {pl.__version__}, pandas {pd.__version__}")

# %% [markdown]
# ## The manifest
#
# One entry per table file: table name, schema version, rows, bytes and the
# BLAKE2b-256 digest of the file (the lookup crate checks the same digests).

# %%
manifest = json.loads((TABLES / "manifest.json").read_text())
files = pl.DataFrame(manifest["files"]).select(
    "file", "table", "schema_version", "rows", "bytes", "blake2b_256"
)
print(f"generator: {manifest['generator_version']}")
print(files.drop("blake2b_256"))
for entry in files.iter_rows(named=True):
    path = TABLES / entry["file"]
    digest = hashlib.blake2b(path.read_bytes(), digest_size=32).hexdigest()
    check(digest == entry["blake2b_256"], f"{entry['file']}: digest differs from manifest.json")
    if path.suffix != ".parquet":
        # The browser bundle (murder_plan_browser.bin.gz) is gzip, not
        # Parquet: its rows are positions inside the module's own format
        # (tables/README.md), so only its digest and its gzip header are
        # checked here.
        check(path.read_bytes()[:2] == b"\x1f\x8b", f"{entry['file']}: not gzip")
        continue
    rows = one(f"select count(*) from '{path}'")[0]
    check(rows == entry["rows"], f"{entry['file']}: {rows} rows, manifest.json says {entry['rows']}")

# %% [markdown]
# ## Key-value metadata
#
# Every file names its table (`gametab.table`), the schema version
# (`gametab.schema_version`), the generator (`gametab.generator_version`) and
# the rule and grid parameters (`gametab.param.*`). Three readers, one
# answer: pyarrow, polars and duckdb's `parquet_kv_metadata`.

# %%
def metadata_pyarrow(path):
    raw = pq.read_metadata(path).metadata or {}
    return {k.decode(): v.decode() for k, v in raw.items() if k.startswith(b"gametab.")}


def metadata_polars(path):
    return {k: v for k, v in pl.read_parquet_metadata(path).items() if k.startswith("gametab.")}


def metadata_duckdb(path):
    rows = duckdb.sql(f"select key, value from parquet_kv_metadata('{path}')").fetchall()
    return {k.decode(): v.decode() for k, v in rows if k.startswith(b"gametab.")}


for entry in files.filter(pl.col("file").str.ends_with(".parquet")).iter_rows(named=True):
    path = TABLES / entry["file"]
    meta = metadata_pyarrow(path)
    check(
        meta == metadata_polars(path) == metadata_duckdb(path),
        f"{entry['file']}: pyarrow, polars and duckdb disagree on the metadata",
    )
    check(meta.get("gametab.table") == entry["table"], f"{entry['file']}: gametab.table is {meta.get('gametab.table')!r}")
    check(
        meta.get("gametab.schema_version") == str(entry["schema_version"]),
        f"{entry['file']}: gametab.schema_version differs from manifest.json",
    )
    check(
        meta.get("gametab.generator_version") == manifest["generator_version"],
        f"{entry['file']}: gametab.generator_version differs from manifest.json",
    )
    params = {k.removeprefix("gametab.param."): v for k, v in meta.items() if k.startswith("gametab.param.")}
    check(params == manifest["params"][entry["table"]], f"{entry['file']}: parameters differ from manifest.json")

print("metadata of murder_plan_win_rates.parquet:")
for key, value in sorted(metadata_duckdb(TABLES / "murder_plan_win_rates.parquet").items()):
    print(f"  {key} = {value}")

# %% [markdown]
# ## Murder Plan: optimal mastermind win rates
#
# `murder_plan_win_rates.parquet` holds V_D(start) for every horizon D and
# start, plus the average over the 16 starts. The same table through duckdb
# (SQL), polars and pandas, then side by side with the published table
# (percent, two decimals), and every published row checked (the value of a
# start state with D days left is its win rate at horizon D).

# %%
WIN_RATES = TABLES / "murder_plan_win_rates.parquet"

by_duckdb = duckdb.sql(
    f"select horizon, start, value from '{WIN_RATES}' order by horizon, start_index"
).pl()
by_polars = pl.read_parquet(WIN_RATES).sort("horizon", "start_index").select("horizon", "start", "value")
by_pandas = pd.read_parquet(WIN_RATES).sort_values(["horizon", "start_index"])[["horizon", "start", "value"]]
check(by_duckdb.equals(by_polars), "duckdb and polars read different win rates")
check(
    by_pandas.reset_index(drop=True).equals(by_polars.to_pandas()),
    "pandas and polars read different win rates",
)


def table_start_value(row):
    """The table's value of the row's start and horizon, or None."""
    found = duckdb.execute(
        f"select value from '{WIN_RATES}' where horizon = ? and start = ?",
        [int(row["params"]["horizon"]), row["params"]["start"]],
    ).fetchall()
    return in_unit(row, found[0][0]) if len(found) == 1 else None


published_rates = rows_of("murder_plan", "win_rate")
cases = list(dict.fromkeys(r["params"]["start"] for r in published_rates))
horizons = list(dict.fromkeys(int(r["params"]["horizon"]) for r in published_rates))
published_by_case = {(int(r["params"]["horizon"]), r["params"]["start"]): float(r["value"]) for r in published_rates}
wide = by_pandas[by_pandas["start"].isin(cases)].pivot(index="horizon", columns="start", values="value")[cases] * 100
rows = []
for d in horizons:
    row = {"D": d}
    for case in cases:
        row[(case, "published")] = published_by_case.get((d, case))
        row[(case, "table")] = round(wide.loc[d, case], 4)
    rows.append(row)
side_by_side = pd.DataFrame(rows).set_index("D")
side_by_side.columns = pd.MultiIndex.from_tuples(side_by_side.columns)
print("win rate (%), published vs table:")
print(side_by_side.to_string())

print("published Murder Plan numbers:")
for row in rows_of("murder_plan", "win_rate", "value"):
    check_published(row, table_start_value(row))

# %% [markdown]
# ## Liar's Dice: raw vs corrected probability
#
# The published case: 4 players with 5 dice (N = 20, m = n_b = 5), no wild
# ones, a bid on fives ("other" face class). For my fives k = 1 and 2, the
# raw probability of "at least q fives" (my dice alone) against the
# probability corrected for the bidder's bid at reliability 0.5 and 2.

# %%
BIDS = TABLES / "dice_bid_probabilities.parquet"
POSTERIORS = TABLES / "dice_bidder_posteriors.parquet"
CASE = "total_dice = 20 and my_dice = 5 and bidder_dice = 5 and not wild_ones and face_class = 'other'"

curve = duckdb.sql(
    f"""
    select bid_count as q, my_matching as k,
           any_value(raw_probability) filter (where reliability = 0) as raw,
           any_value(corrected_probability) filter (where reliability = 0.5) as "rel 0.5",
           any_value(corrected_probability) filter (where reliability = 2) as "rel 2"
    from '{BIDS}'
    where {CASE} and my_matching in (1, 2) and bid_count <= 12
    group by q, k order by k, q
    """
).df()
for k, part in curve.groupby("k"):
    print(f"k = {k} fives in my hand:")
    print(part.drop(columns="k").set_index("q").round(4).to_string())

# %% [markdown]
# Every published Liar's Dice number, read from the table row (or rows) of
# its parameters, which are the tables' key columns: the raw and corrected
# probabilities of the bid, the bidder's posterior mean number of fives,
# the exact tails of the 15 dice I cannot see with the normal approximation
# beside them, and the decision flip on opening (1 - 2P on the raw and on
# the corrected probability). The raw probability and the normal
# approximation do not depend on the reliability: every stored one must
# agree.

# %%
def typed(name, text):
    """A parameter as the tables' key column holds it."""
    if name == "wild_ones":
        return text == "true"
    if name == "face_class":
        return text
    if name == "reliability":
        return float(text)
    return int(text)


def table_dice_value(row):
    """The table's value of a Liar's Dice row, or None when the rows of its
    parameters do not hold exactly one value."""
    params = row["params"]
    where = " and ".join(f"{name} = ?" for name in params)
    values = [typed(name, text) for name, text in params.items()]
    if row["quantity"] == "bidder_posterior_mean":
        sql = f"select count(*), sum(bidder_matching * posterior_probability) from '{POSTERIORS}' where {where}"
        count, mean = duckdb.execute(sql, values).fetchone()
        return mean if count else None
    found = duckdb.execute(f"select distinct {row['quantity']} from '{BIDS}' where {where}", values).fetchall()
    return found[0][0] if len(found) == 1 else None


print("published Liar's Dice numbers:")
for row in rows_of("dice", "raw_probability", "corrected_probability", "normal_approximation", "ev_open", "bidder_posterior_mean"):
    check_published(row, table_dice_value(row))

# %% [markdown]
# ## Liar's Dice endgame: the exact equilibrium
#
# Every two-player endgame with three dice or fewer, solved exactly (one
# sequence-form LP, or the sequence-form double oracle over restricted LPs)
# and certified by best responses. The published values (player 1's
# expected payoff, exact fractions) against `value_exact`, read by duckdb,
# polars and pandas alike; then the four six-sided three-dice games the
# published table left blank, and the public analysis's raw outputs for the
# two under normal rules (`212027/771552` and `-22/81`, fractions its
# floating-point LP printed).

# %%
ENDGAME_VALUES = TABLES / "dice_endgame_values.parquet"
ENDGAME_STRATEGY = TABLES / "dice_endgame_strategy.parquet"
ENDGAME_POSTERIORS = TABLES / "dice_endgame_posteriors.parquet"
PUBLISHED_ENDGAME = {
    (1, 1, "normal"): (1, ["1", "0", "-1/9", "-1/8", "-3/25", "-1/9"]),
    (1, 1, "wild"): (2, ["1", "1/3", "0", "0", "-7/327"]),
    (2, 1, "normal"): (1, ["1", "1/4", "1/9", "345/1696", "2128/8375"]),
    (2, 1, "wild"): (2, ["1", "1/3", "1/4", "34/125"]),
    (1, 2, "normal"): (1, ["1", "0", "-1/27", "-1/8", "-27/125"]),
    (1, 2, "wild"): (2, ["1", "-1/27", "-1/32", "-3/125"]),
}
SIX_SIDED_THREE_DICE = {
    (2, 1, "normal"): "212027/771552",
    (1, 2, "normal"): "-22/81",
    (2, 1, "wild"): "7/27",
    (1, 2, "wild"): "-5/54",
}
endgames_duckdb = duckdb.sql(
    f"select dice_one, dice_two, sides, rules, value, value_exact, exploitability, method, "
    f"lp_solves, lp_nonzeros, full_lp_nonzeros from '{ENDGAME_VALUES}' "
    "order by dice_one, dice_two, sides, rules"
).pl()
endgames_polars = pl.read_parquet(ENDGAME_VALUES).select(endgames_duckdb.columns)
endgames_pandas = pd.read_parquet(ENDGAME_VALUES)[endgames_duckdb.columns]
check(endgames_duckdb.equals(endgames_polars), "duckdb and polars read different endgame values")
check(
    endgames_pandas.reset_index(drop=True).equals(endgames_polars.to_pandas()),
    "pandas and polars read different endgame values",
)
check(endgames_polars["exploitability"].max() <= 1e-9, "an endgame is not certified to 1e-9")
exact = {(r["dice_one"], r["dice_two"], r["rules"], r["sides"]): r["value_exact"] for r in endgames_polars.iter_rows(named=True)}
print("endgame values, published vs table (player 1's payoff):")
for (a, b, rules), (first, values) in PUBLISHED_ENDGAME.items():
    for k, published in enumerate(values):
        found = exact.get((a, b, rules, first + k))
        check(found == published, f"{a}v{b} {first + k}-sided {rules}: published {published}, table {found}")
        print(f"  {a}v{b} {first + k}-sided {rules:6}  published {published:>10}  table {found:>10}")
print("six-sided three-dice games (left blank in the published table):")
for (a, b, rules), expected in SIX_SIDED_THREE_DICE.items():
    found = exact.get((a, b, rules, 6))
    check(found == expected, f"{a}v{b} 6-sided {rules}: expected {expected}, table {found}")
    print(f"  {a}v{b} 6-sided {rules:6}  {found:>14}")
print(endgames_polars.filter(pl.col("sides") >= 5).to_pandas().round(6).to_string(index=False))

# %% [markdown]
# Histories, hands and actions are integers (`tables/README.md`): a history
# is the bit set of its bids' indices (bid `k` is count `k // F + 1`, face
# `k % F + L`, with `F` bid faces and `L` the lowest bid face), a hand its
# faces as digits, an action 0 for the call or `10 * count + face`. Two
# helpers turn them back into text.

# %%
def bids_of(history, sides, wild):
    """The bids of a history bit set, in the order made, as COUNTxFACE."""
    faces, lowest = (sides - 1, 2) if wild else (sides, 1)
    return [f"{k // faces + 1}x{k % faces + lowest}" for k in range(history.bit_length()) if history >> k & 1]


def action_text(code):
    """`call` or the bid COUNTxFACE of an action code."""
    return "call" if code == 0 else f"{code // 10}x{code % 10}"


opening = duckdb.sql(
    f"select history, hand, action, probability from '{ENDGAME_STRATEGY}' "
    "where dice_one = 2 and dice_two = 1 and sides = 6 and rules = 'normal' and player = 1 "
    "and history = 0 and hand = 35 order by action"
).fetchall()
print("2v1 six-sided, normal rules: player 1 holding 3,5 opens with")
for history, hand, action, probability in opening:
    print(f"  {action_text(action):5} {probability:.6f}")
check(abs(sum(p for *_, p in opening) - 1) < 1e-9, "an opening's probabilities do not sum to 1")
check(bids_of(2**4 + 2**8, 6, False) == ["1x5", "2x3"], "bids_of decodes 1x5,2x3")

# %% [markdown]
# What an opening bid says about the opener's die: one die each, six
# sides, normal rules. The reliability model (rel = 2, its default) reads
# every opening bid as evidence; the equilibrium opens with only a few
# bids, and its posterior (the posterior table) exists only after those:
# any other opening is off the equilibrium path. The chart
# `plots/dice_endgame_posteriors.svg` draws the same numbers.

# %%
model = duckdb.sql(
    f"""
    select bid_count as q, face_class, sum(bidder_matching * posterior_probability) as model
    from '{POSTERIORS}'
    where total_dice = 2 and bidder_dice = 1 and not wild_ones and reliability = 2
    group by q, face_class
    """
).df()
# One-bid histories are powers of two: bid k = log2(history), count
# k // 6 + 1, face k % 6 + 1; a one-die hand's code is its face.
equilibrium = duckdb.sql(
    f"""
    with openings as (
        select *, cast(round(log2(history)) as int) as k
        from '{ENDGAME_POSTERIORS}'
        where dice_one = 1 and dice_two = 1 and sides = 6 and rules = 'normal' and viewer = 2
          and bit_count(history) = 1
    )
    select (k // 6 + 1) || 'x' || (k % 6 + 1) as opening,
           k // 6 + 1 as q,
           case when k % 6 = 0 then 'ones' else 'other' end as face_class,
           sum(probability) filter (where opponent_hand = k % 6 + 1) as equilibrium
    from openings
    group by k order by k
    """
).df()
side_by_side = equilibrium.merge(model, on=["q", "face_class"])
print("P(opener's die matches his opening bid): equilibrium vs reliability model (rel = 2)")
print(side_by_side.round(4).to_string(index=False))
check(len(side_by_side) > 0, "the equilibrium opens with no bid")
on_path = duckdb.execute(
    f"select count(*) filter (where on_path), count(*) from '{ENDGAME_STRATEGY}' "
    "where dice_one = 1 and dice_two = 1 and sides = 6 and rules = 'normal'"
).fetchone()
print(f"1v1 six-sided: {on_path[0]} of {on_path[1]} strategy rows on the equilibrium path")

# %% [markdown]
# ## The published numbers no table holds
#
# Counts of the models (reachable states, legal actions, Cluedo deals,
# Werewolf wolf sets) are not in the tables: `tests/published.rs` checks
# them, with every other row, against the engines.

# %%
for row in PUBLISHED:
    if row["name"] not in CHECKED:
        print(f"  {row['name']}: published {row['value']}, not in the tables")

# %% [markdown]
# ## Result
#
# The plots `gametab build` draws from the same tables are in `plots/` beside
# them (SVG).

# %%
if FAILURES:
    print(f"{len(FAILURES)} check(s) failed:", file=sys.stderr)
    for failure in FAILURES:
        print(f"  {failure}", file=sys.stderr)
    sys.exit(1)
print("all checks passed: the tables reproduce the published numbers")

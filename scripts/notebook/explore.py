#!/usr/bin/env python3
# Explore the gametab tables from Python and check that they reproduce the
# published numbers (shared/specs/murder-plan.md, shared/specs/liars-dice.md).
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
# **pandas**, reads the metadata, and reproduces two published results: the
# Murder Plan win rates and a Liar's Dice curve (raw vs corrected
# probability). Every number is checked; a failure is collected and reported
# at the end (the script exits non-zero).

# %%
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


TABLES = tables_dir()
if not (TABLES / "manifest.json").is_file():
    print(
        f"error: {TABLES} holds no manifest.json; build the tables first "
        "(scripts/build-tables, or gametab build --out DIR) and pass that directory",
        file=sys.stderr,
    )
    sys.exit(2)
print(f"tables: {TABLES.resolve()}")
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


for entry in files.iter_rows(named=True):
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
# (percent, two decimals).

# %%
WIN_RATES = TABLES / "murder_plan_win_rates.parquet"
# Published (shared/specs/murder-plan.md): D -> x=(0,1) y=(1,0), x=y=(0,0), average.
PUBLISHED_WIN_RATES = {
    3: (14.51, 13.43, 13.39),
    4: (26.74, 25.91, 26.01),
    5: (41.34, 39.36, 40.60),
    6: (55.42, 53.53, 55.13),
    7: (67.67, 66.08, 67.43),
    8: (77.37, 76.08, 77.16),
}
CASES = ["x=(0,1) y=(1,0)", "x=(0,0) y=(0,0)", "average"]

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

wide = by_pandas[by_pandas["start"].isin(CASES)].pivot(index="horizon", columns="start", values="value")[CASES] * 100
rows = []
for d, published in PUBLISHED_WIN_RATES.items():
    row = {"D": d}
    for case, expected in zip(CASES, published):
        found = wide.loc[d, case]
        row[(case, "published")] = expected
        row[(case, "table")] = round(found, 4)
        # Published to two decimals: the table, rounded the same way, must agree.
        check(
            abs(found - expected) <= 0.005 + 1e-9,
            f"Murder Plan win rate D={d} {case}: table {found:.4f} %, published {expected:.2f} %",
        )
    rows.append(row)
side_by_side = pd.DataFrame(rows).set_index("D")
side_by_side.columns = pd.MultiIndex.from_tuples(side_by_side.columns)
print("win rate (%), published vs table:")
print(side_by_side.to_string())

# The spec also gives V for x=y=(0,0), D=3 to 1e-12.
v3 = one(f"select value from '{WIN_RATES}' where horizon = 3 and start = 'x=(0,0) y=(0,0)'")[0]
check(abs(v3 - 0.134346591935461) <= 1e-12, f"Murder Plan V_3(x=y=(0,0)) = {v3!r}, published 0.134346591935461")
print(f"V_3(x=y=(0,0)) = {v3:.15f} (published 0.134346591935461)")

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

# Published (shared/specs/liars-dice.md), bid 5 fives: k -> (raw, rel 2.0, rel 0.5).
PUBLISHED_DICE = {1: (0.2315, 0.4785, None), 2: (0.4678, 0.7421, 0.5201)}
print("bid 5 fives: published vs table")
at_five = curve[curve["q"] == 5].set_index("k")
for k, published in PUBLISHED_DICE.items():
    for name, expected in zip(["raw", "rel 2", "rel 0.5"], published):
        if expected is None:
            continue
        found = at_five.loc[k, name]
        print(f"  k={k} {name:8} published {expected:.4f}  table {found:.6f}")
        check(round(found, 4) == expected, f"Liar's Dice k={k} {name}: table {found:.6f}, published {expected:.4f}")

# %% [markdown]
# The bidder's posterior mean number of fives, the exact tails of the 15 dice
# I cannot see (with the normal approximation beside them), and the decision
# flip on opening: 1 - 2P on the raw and on the corrected probability.

# %%
means = duckdb.sql(
    f"""
    select reliability, sum(bidder_matching * posterior_probability) as mean
    from '{POSTERIORS}'
    where total_dice = 20 and bidder_dice = 5 and not wild_ones and face_class = 'other'
      and bid_count = 5 and reliability in (0.5, 2)
    group by reliability order by reliability
    """
).fetchall()
for (rel, mean), expected in zip(means, [1.02, 1.83]):
    print(f"posterior mean of the bidder's fives, rel {rel}: {mean:.4f} (published {expected})")
    check(round(mean, 2) == expected, f"Liar's Dice posterior mean rel {rel}: {mean:.4f}, published {expected}")
check(len(means) == 2, "Liar's Dice: posterior rows for rel 0.5 and 2 missing")

tails = duckdb.sql(
    f"""
    select bid_count, raw_probability, normal_approximation from '{BIDS}'
    where {CASE} and reliability = 0 and my_matching = 0 and bid_count in (6, 7) order by bid_count
    """
).fetchall()
for (q, exact, normal), (p_exact, p_normal) in zip(tails, [(0.0274, 0.0188), (0.0066, 0.0028)]):
    print(f"P(X >= {q}), X ~ Binomial(15, 1/6): exact {exact:.4f} (published {p_exact}), normal {normal:.4f} (published {p_normal})")
    check(round(exact, 4) == p_exact, f"Liar's Dice P(X >= {q}) = {exact:.6f}, published {p_exact}")
    check(round(normal, 4) == p_normal, f"Liar's Dice normal approximation P(X >= {q}) = {normal:.6f}, published {p_normal}")
check(len(tails) == 2, "Liar's Dice: tail rows missing")

ev_raw, ev_corrected = one(
    f"""
    select any_value(ev_open) filter (where reliability = 0), any_value(ev_open) filter (where reliability = 2)
    from '{BIDS}' where {CASE} and my_matching = 1 and bid_count = 5
    """
)
print(f"ev_open, k=1: raw {ev_raw:.3f} (published 0.537), corrected rel 2 {ev_corrected:.3f} (published 0.043)")
check(round(ev_raw, 3) == 0.537, f"Liar's Dice ev_open raw = {ev_raw:.4f}, published 0.537")
check(round(ev_corrected, 3) == 0.043, f"Liar's Dice ev_open rel 2 = {ev_corrected:.4f}, published 0.043")

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

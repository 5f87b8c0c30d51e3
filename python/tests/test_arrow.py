"""Whole tables as Arrow (``__arrow_c_stream__``): the same rows and
columns as the Parquet file read by pyarrow, taken by pyarrow, polars and
duckdb."""

from __future__ import annotations

import pytest

import gametab

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def test_every_table_equals_its_parquet_file(tables: gametab.Tables) -> None:
    for name in tables.table_names():
        if name == "dice_endgame_strategy":
            continue  # 8.8 M rows: a few hundred MB each way; its shape below
        table = tables.table(name)
        arrow = pa.table(table)
        stored = pq.read_table(tables.path / f"{name}.parquet")
        assert arrow.num_rows == stored.num_rows == table.num_rows == len(table)
        assert arrow.column_names == stored.column_names == table.column_names
        assert arrow.schema.metadata[b"gametab.table"] == name.encode()
        assert arrow.cast(stored.schema).equals(stored), name
    # The largest table's shape, from the file's footer alone.
    footer = pq.ParquetFile(tables.path / "dice_endgame_strategy.parquet").metadata
    assert footer.num_rows > 1_000_000
    assert "dice_endgame_strategy" in tables.table_names()


def test_polars_and_duckdb_take_a_table(tables: gametab.Tables) -> None:
    pl = pytest.importorskip("polars")
    duckdb = pytest.importorskip("duckdb")
    rates = tables.table("murder_plan_win_rates")
    frame = pl.DataFrame(rates)
    assert frame.height == rates.num_rows
    value = frame.filter((pl.col("horizon") == 8) & (pl.col("start") == "x=(0,1) y=(1,0)"))["value"][0]
    assert value == tables.murder_plan.win_rate(8, (0, 1), (1, 0)).value
    stream = rates  # noqa: F841 - duckdb finds the Python variable by name
    (count,) = duckdb.sql("select count(*) from stream").fetchall()[0]
    assert count == rates.num_rows
    # A table by its file name, too; each export is a fresh stream.
    again = tables.table("murder_plan_win_rates.parquet")
    assert pa.table(again).equals(pa.table(again))

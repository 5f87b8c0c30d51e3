//! Liar's Dice: the engine's answers, the table builders (rows, encoding)
//! and the table queries, timed.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

use gametab_build::dice::{build_tables_on, rows};
use gametab_build::output::{encode, TableWriter};
use gametab_games::dice::{
    bid_odds, published_rule, Bid, BidQuestion, DecisionKey, DiceGrid, DiceInPlay, Face, FaceClass,
    PublishedRuleBlock, Reliability, Situation, Variant,
};
use gametab_lookup::Tables;

fn engine(c: &mut Criterion) {
    let rel = Reliability::new(2.0).unwrap();
    let question = BidQuestion::new(
        DiceInPlay::new(20, 5, 5).unwrap(),
        Variant::Plain,
        FaceClass::Other,
        5,
        1,
        rel,
    )
    .unwrap();
    c.bench_function("dice engine bid_odds N=20", |b| {
        b.iter(|| bid_odds(black_box(&question)))
    });
    let situation = Situation::new(
        20,
        "1,5,5,2,3".parse().unwrap(),
        5,
        Variant::WildOnes,
        "5x5".parse().unwrap(),
        rel,
    )
    .unwrap();
    c.bench_function("dice engine published_rule N=20", |b| {
        b.iter(|| published_rule(black_box(&situation)))
    });
}

fn builders(c: &mut Criterion) {
    let grid = DiceGrid::default();
    let rel = Reliability::new(2.0).unwrap();
    let block = PublishedRuleBlock::new(DiceInPlay::new(20, 5, 5).unwrap(), Variant::WildOnes, rel)
        .unwrap();
    let hand = "1,5,5,2,3".parse().unwrap();
    c.bench_function("dice batch published rule, one hand, every bid N=20", |b| {
        b.iter(|| {
            let rule = block.hand(black_box(&hand)).unwrap();
            for bid in
                (1..=20).flat_map(|q| Face::all().map(move |face| Bid::new(q, face).unwrap()))
            {
                black_box(rule.advise(bid).unwrap());
            }
        })
    });
    c.bench_function("dice rows bid probabilities", |b| {
        b.iter(|| rows::bid_probabilities(black_box(&grid)).unwrap())
    });
    c.bench_function("dice rows bidder posteriors", |b| {
        b.iter(|| rows::bidder_posteriors(black_box(&grid)).unwrap())
    });
    c.bench_function("dice rows decisions", |b| {
        b.iter(|| rows::decisions(black_box(&grid)).unwrap())
    });
    let decisions = rows::decisions(&grid).unwrap();
    c.bench_function("dice encode decisions", |b| {
        b.iter(|| encode(black_box(&decisions)).unwrap())
    });
    c.bench_function("dice build all three tables", |b| {
        let dir = tempfile::tempdir().unwrap();
        b.iter(|| {
            let mut writer = TableWriter::new(dir.path()).unwrap();
            build_tables_on(black_box(&grid), &mut writer).unwrap()
        })
    });
}

fn tables(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let grid = DiceGrid::default();
    let mut writer = TableWriter::new(dir.path()).unwrap();
    build_tables_on(&grid, &mut writer).unwrap();
    writer.write_manifest(0.0).unwrap();
    // Manifest, digests and decoding: the one way tables load.
    c.bench_function("dice open tables", |b| {
        b.iter(|| Tables::open(dir.path()).unwrap().dice().unwrap().clone())
    });
    let tables = Tables::open(dir.path()).unwrap().dice().unwrap().clone();
    let rel = Reliability::new(2.0).unwrap();
    let question = BidQuestion::new(
        DiceInPlay::new(20, 5, 5).unwrap(),
        Variant::Plain,
        FaceClass::Other,
        5,
        1,
        rel,
    )
    .unwrap();
    c.bench_function("dice table bid query", |b| {
        b.iter(|| tables.bid_table().get(black_box(&question)).unwrap())
    });
    let key = DecisionKey {
        players: 4,
        variant: Variant::WildOnes,
        reliability: rel,
        hand: "1,5,5,2,3".parse().unwrap(),
        standing: "5x5".parse().unwrap(),
    };
    c.bench_function("dice table decision query", |b| {
        b.iter(|| tables.decision_table().get(black_box(&key)).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = engine, builders, tables
}
criterion_main!(benches);

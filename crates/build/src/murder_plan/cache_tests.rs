//! Tests of the solved-game cache: exact round trips, deterministic bytes,
//! and every kind of bad file rejected with a warning.

use super::*;

const RULES: &str = "gametab 0.1.0; diagonal=true; intrigue2=true";

/// Floats that must survive bit for bit, signed zero and subnormals included.
const AWKWARD: [f64; 9] = [
    0.0,
    -0.0,
    5e-324,
    f64::MIN_POSITIVE,
    f64::MIN_POSITIVE / 3.0,
    1.0 / 3.0,
    1.0 - f64::EPSILON,
    0.1 + 0.2,
    f64::MAX,
];

/// A deterministic game with `rows x cols` actions whose probabilities
/// depend on `seed`.
fn game(rows: usize, cols: usize, seed: u64) -> SolvedGame {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    SolvedGame {
        strategies: StrategyPair {
            row: (0..rows).map(|_| next()).collect(),
            col: (0..cols).map(|_| next()).collect(),
        },
        certificate: Certificate {
            lower: next(),
            upper: next(),
        },
        reduced_rows: rows.min(3),
        reduced_cols: cols.min(2),
        used_lp: seed.is_multiple_of(2),
    }
}

fn key(n: u8) -> GameDigest {
    let mut digest = [n; 32];
    digest[31] = n.wrapping_mul(7);
    digest
}

fn sample() -> GameCache {
    let mut cache = GameCache::new();
    cache.insert(key(9), game(4, 3, 1));
    cache.insert(key(2), game(1, 1, 2));
    let mut awkward = game(AWKWARD.len(), 2, 3);
    awkward.strategies.row = AWKWARD.to_vec();
    awkward.certificate = Certificate {
        lower: -0.0,
        upper: 5e-324,
    };
    cache.insert(key(5), awkward);
    cache
}

fn bits(game: &SolvedGame) -> Vec<u64> {
    let strategies = &game.strategies;
    let certificate = [game.certificate.lower, game.certificate.upper];
    (strategies
        .row
        .iter()
        .chain(&strategies.col)
        .chain(&certificate))
    .map(|x| x.to_bits())
    .collect()
}

fn assert_same_bits(a: &GameCache, b: &GameCache) {
    assert_eq!(a.len(), b.len());
    for (digest, game) in &a.games {
        let other = b.get(digest).expect("entry present");
        assert_eq!(bits(game), bits(other));
        assert_eq!(game, other);
    }
}

/// Writes `bytes` as a cache file in `dir` and loads it with [`RULES`],
/// asserting the result is empty with a warning naming the path; returns
/// the warning.
fn rejected(dir: &Path, bytes: &[u8]) -> String {
    let path = dir.join("games.cache");
    fs::write(&path, bytes).unwrap();
    let (cache, warning) = GameCache::load(&path, RULES);
    assert!(cache.is_empty(), "entries returned from a bad file");
    let warning = warning.expect("a bad file must give a warning");
    assert!(warning.contains(&path.display().to_string()), "{warning}");
    warning
}

/// Header fields and payload, sealed with a correct checksum: a file
/// that passes the checksum but may lie in its fields.
fn forge(
    fingerprint_len: u32,
    fingerprint: &str,
    count: u64,
    payload_len: u64,
    payload: &[u8],
) -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&fingerprint_len.to_le_bytes());
    bytes.extend_from_slice(fingerprint.as_bytes());
    bytes.extend_from_slice(&count.to_le_bytes());
    bytes.extend_from_slice(&payload_len.to_le_bytes());
    bytes.extend_from_slice(payload);
    reseal(&mut bytes);
    bytes
}

fn reseal(bytes: &mut Vec<u8>) {
    let sum = checksum(bytes);
    bytes.extend_from_slice(&sum);
}

fn encode_entry(digest: &GameDigest, game: &SolvedGame) -> Vec<u8> {
    bincode::encode_to_vec(EntryRef::new(digest, game), ENTRY_CONFIG).unwrap()
}

fn saved_bytes(cache: &GameCache) -> Vec<u8> {
    cache.encode_file(RULES).unwrap()
}

#[test]
fn round_trip_is_bit_exact() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.cache");
    let cache = sample();
    cache.save(&path, RULES).unwrap();
    let (loaded, warning) = GameCache::load(&path, RULES);
    assert_eq!(warning, None);
    assert_eq!(loaded.len(), 3);
    assert_same_bits(&cache, &loaded);
    let awkward = loaded.get(&key(5)).unwrap();
    let awkward_bits: Vec<u64> = AWKWARD.iter().map(|x| x.to_bits()).collect();
    assert_eq!(&bits(awkward)[..AWKWARD.len()], &awkward_bits[..]);
    assert_eq!(awkward.certificate.lower.to_bits(), (-0.0f64).to_bits());
    assert_eq!(loaded.get(&key(1)), None);
}

#[test]
fn empty_cache_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.cache");
    GameCache::new().save(&path, RULES).unwrap();
    assert_eq!(
        fs::metadata(&path).unwrap().len() as usize,
        MIN_FILE_LEN + RULES.len()
    );
    let (loaded, warning) = GameCache::load(&path, RULES);
    assert_eq!(warning, None);
    assert!(loaded.is_empty());
}

#[test]
fn bytes_do_not_depend_on_insertion_order() {
    let games: Vec<(GameDigest, SolvedGame)> = (0..20u8)
        .map(|n| (key(n * 11), game(5, 4, u64::from(n))))
        .collect();
    let mut forward = GameCache::new();
    games
        .iter()
        .cloned()
        .for_each(|(d, g)| forward.insert(d, g));
    let mut backward = GameCache::new();
    backward.insert(key(0), game(1, 1, 99)); // replaced below
    games
        .iter()
        .rev()
        .cloned()
        .for_each(|(d, g)| backward.insert(d, g));
    assert_eq!(saved_bytes(&forward), saved_bytes(&backward));

    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    forward.save(&a, RULES).unwrap();
    backward.save(&b, RULES).unwrap();
    assert_eq!(fs::read(a).unwrap(), fs::read(b).unwrap());
}

#[test]
fn missing_file_is_empty_without_warning() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, warning) = GameCache::load(&dir.path().join("absent.cache"), RULES);
    assert!(cache.is_empty());
    assert_eq!(warning, None);
}

#[test]
fn unreadable_file_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, warning) = GameCache::load(dir.path(), RULES);
    assert!(cache.is_empty());
    assert!(warning.unwrap().contains("cannot read"));
}

#[test]
fn oversized_file_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.cache");
    fs::write(&path, saved_bytes(&sample())).unwrap();
    let len = fs::metadata(&path).unwrap().len();
    assert_eq!(read_limited(&path, len).unwrap().len() as u64, len);
    let error = read_limited(&path, len - 1).unwrap_err();
    assert!(matches!(error, CacheError::TooLarge { .. }), "{error}");
}

#[test]
fn truncated_file_is_rejected_at_every_length() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = saved_bytes(&sample());
    for len in 0..bytes.len() {
        let warning = rejected(dir.path(), &bytes[..len]);
        let expected = if len < MIN_FILE_LEN {
            "truncated"
        } else {
            "checksum"
        };
        assert!(warning.contains(expected), "length {len}: {warning}");
    }
}

#[test]
fn flipped_byte_is_rejected_at_every_position() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = saved_bytes(&sample());
    for position in 0..bytes.len() {
        for mask in [0x01, 0x80, 0xFF] {
            let mut corrupt = bytes.clone();
            corrupt[position] ^= mask;
            let warning = rejected(dir.path(), &corrupt);
            let expected = match position {
                0..8 => "magic",
                8..12 => "format version",
                _ => "checksum",
            };
            assert!(warning.contains(expected), "byte {position}: {warning}");
        }
    }
}

#[test]
fn random_bytes_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for round in 0..64 {
        let len = (round * 37) % 700;
        let mut bytes: Vec<u8> = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        rejected(dir.path(), &bytes);
        // Past the magic and version checks, only the checksum stops them.
        let mut prefixed = MAGIC.to_vec();
        prefixed.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        prefixed.append(&mut bytes);
        let warning = rejected(dir.path(), &prefixed);
        assert!(
            warning.contains("truncated") || warning.contains("checksum"),
            "{warning}"
        );
    }
}

#[test]
fn foreign_magic_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = saved_bytes(&sample());
    bytes.truncate(bytes.len() - CHECKSUM_LEN);
    bytes[..8].copy_from_slice(b"PAR1\0\0\0\0");
    reseal(&mut bytes);
    assert!(rejected(dir.path(), &bytes).contains("wrong magic"));
}

#[test]
fn other_version_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = saved_bytes(&sample());
    bytes.truncate(bytes.len() - CHECKSUM_LEN);
    bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    reseal(&mut bytes);
    let warning = rejected(dir.path(), &bytes);
    assert!(
        warning.contains(&format!("format version {}", FORMAT_VERSION + 1)),
        "{warning}"
    );
}

#[test]
fn other_rules_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.cache");
    sample()
        .save(&path, "gametab 0.1.0; diagonal=false")
        .unwrap();
    let (cache, warning) = GameCache::load(&path, RULES);
    assert!(cache.is_empty());
    let warning = warning.unwrap();
    assert!(warning.contains("other rules"), "{warning}");
    assert!(warning.contains("diagonal=false"), "{warning}");
    assert!(warning.contains(&path.display().to_string()), "{warning}");
}

#[test]
fn lying_fields_behind_a_valid_checksum_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let fp = RULES.len() as u32;
    let (a, b) = (key(1), key(2));
    let entry_a = encode_entry(&a, &game(3, 2, 1));
    let entry_b = encode_entry(&b, &game(2, 3, 2));
    let both = [entry_a.clone(), entry_b.clone()].concat();
    let swapped = [entry_b, entry_a.clone()].concat();
    let doubled = [entry_a.clone(), entry_a].concat();
    let len = both.len() as u64;
    let honest = forge(fp, RULES, 2, len, &both);
    assert_eq!(decode_file(&honest, RULES).unwrap().len(), 2);

    // A support length of 2^60 pairs must fail on the limit, not allocate.
    let mut huge = a.to_vec();
    huge.extend_from_slice(&[3, 2]); // rows, cols
    huge.push(253); // bincode's varint marker: a u64 follows
    huge.extend_from_slice(&(1u64 << 60).to_le_bytes());
    let huge_len = huge.len() as u64;
    let cases = [
        (forge(fp, RULES, 3, len, &both), "entry 2: ends early"),
        (
            forge(fp, RULES, u64::MAX, len, &both),
            "entry 2: ends early",
        ),
        (forge(fp, RULES, 1, len, &both), "bytes after the 1 entries"),
        (
            forge(fp, RULES, 2, len, &swapped),
            "entry 1: digests not in",
        ),
        (
            forge(fp, RULES, 2, len, &doubled),
            "entry 1: digests not in",
        ),
        (forge(fp, RULES, 2, len + 1, &both), "past the end"),
        (forge(fp, RULES, 2, u64::MAX, &both), "malformed header"),
        (
            forge(fp, RULES, 2, len - 1, &both),
            "does not match the file",
        ),
        (forge(u32::MAX, RULES, 2, len, &both), "past the end"),
        (
            forge(fp, RULES, 1, huge_len, &huge),
            "more than 16777216 bytes",
        ),
    ];
    for (bytes, expected) in cases {
        let warning = rejected(dir.path(), &bytes);
        assert!(warning.contains(expected), "{expected}: {warning}");
    }
}

#[test]
fn implausible_entries_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let mut no_reduced_rows = game(3, 2, 1);
    no_reduced_rows.reduced_rows = 0;
    let mut reduced_too_large = game(3, 2, 1);
    reduced_too_large.reduced_cols = 3;
    let mut not_finite = game(3, 2, 1);
    not_finite.strategies.col[1] = f64::NAN;
    let mut empty = game(3, 2, 1);
    empty.strategies.row.clear();
    for bad in [no_reduced_rows, reduced_too_large, not_finite, empty] {
        let entry = encode_entry(&key(1), &bad);
        let bytes = forge(RULES.len() as u32, RULES, 1, entry.len() as u64, &entry);
        let warning = rejected(dir.path(), &bytes);
        assert!(warning.contains("malformed entry 0"), "{warning}");
    }
}

#[test]
fn save_is_atomic_and_replaces_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.cache");
    let mut cache = sample();
    cache.save(&path, RULES).unwrap();
    cache.insert(key(200), game(7, 6, 4));
    cache.save(&path, RULES).unwrap();
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(names, ["games.cache"]);
    let (loaded, warning) = GameCache::load(&path, RULES);
    assert_eq!(warning, None);
    assert_same_bits(&cache, &loaded);

    let nowhere = dir.path().join("missing-dir").join("games.cache");
    assert!(cache.save(&nowhere, RULES).is_err());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// The size stated in the module doc: a 136 x 112 game with supports of
/// 6 and 5 actions.
#[test]
fn typical_entry_size() {
    let mut cache = GameCache::new();
    for n in 0..10 {
        let mut sparse_game = game(136, 112, u64::from(n));
        for (i, p) in sparse_game.strategies.row.iter_mut().enumerate() {
            if i % 23 != 0 {
                *p = 0.0;
            }
        }
        for (i, p) in sparse_game.strategies.col.iter_mut().enumerate() {
            if i % 23 != 0 {
                *p = 0.0;
            }
        }
        cache.insert(key(n), sparse_game);
    }
    let bytes = saved_bytes(&cache);
    let per_entry = (bytes.len() - MIN_FILE_LEN - RULES.len()) / 10;
    // digest, sizes, 6 and 5 (index, f64) pairs, certificate, the rest.
    assert_eq!(per_entry, 32 + 2 + (1 + 6 * 9) + (1 + 5 * 9) + 16 + 3);
}

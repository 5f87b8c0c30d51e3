//! The server's memory over months of reloads: glibc's allocator, told how
//! a long-running server uses it.
//!
//! Measured with `SERVE_BENCH_PHASES=memory cargo bench --bench serve_load`
//! (30 published sets, four clients querying throughout; see the README):
//! with the allocator's defaults the lean set alone grew from 127 MiB to a
//! plateau of 433 MiB over the reloads, because memory freed by a dropped
//! set stays in the allocator's free lists (and, once glibc has freed one
//! large block, its dynamic mmap threshold rises to that size, so later
//! large tables are carved from the heap instead of mapped on their own).
//! Two settings fix it at the root, without another allocator:
//!
//! - [`configure`] fixes the mmap threshold at [`MMAP_THRESHOLD`] (which
//!   also turns the dynamic adjustment off): every large table column is a
//!   mapping of its own, returned to the system the moment it is freed,
//!   and the zero pages of a sparse dense table are never touched. The
//!   start drops from 121 to 40 MiB.
//! - [`release`] runs `malloc_trim` after the watcher drops a replaced set,
//!   which returns the free pages of every arena (the small allocations of
//!   the set: strings, maps, vectors below the threshold).
//!
//! An arena limit alone (`MALLOC_ARENA_MAX=1`) still grew to 203 MiB; the
//! trim alone ended at 108 MiB. A different global allocator (jemalloc,
//! mimalloc) would be a C dependency to build for what two calls do.

/// Allocations of at least this many bytes get a mapping of their own.
pub const MMAP_THRESHOLD: i32 = 128 << 10;

/// Set the allocator up for a long-running server (called once at start,
/// before the first set is loaded).
pub fn configure() {
    // SAFETY: mallopt only sets an allocator parameter.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}

/// Give freed memory back to the system (after an old set is dropped).
pub fn release() {
    // SAFETY: malloc_trim only walks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The process's resident memory in bytes (`VmRSS`), when readable.
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

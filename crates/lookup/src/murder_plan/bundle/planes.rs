//! The bundle's byte-level encoding: a writer and a bounds-checked reader
//! of its scalars and byte-plane arrays, and the gzip wrapping.
//!
//! Byte planes: an array of n numbers of w bytes is stored as w runs of n
//! bytes, the most significant byte of every number first. Deflate finds
//! little to share between consecutive little-endian doubles (their low
//! mantissa bytes are noise), but the planes of the high bytes (sign,
//! exponent, leading mantissa bits; the zero high bytes of small integers)
//! are long runs of few distinct bytes.

use std::io::Read;

use super::{MAX_CONTENT, NAME};
use crate::error::{Error, Result};

/// The error of unreadable bundle content.
pub(super) fn corrupt(detail: impl Into<String>) -> Error {
    Error::CorruptBundle {
        file: NAME,
        detail: detail.into(),
    }
}

/// Builds the content.
#[cfg(any(test, feature = "write"))]
#[derive(Debug, Default)]
pub(super) struct Writer {
    pub(super) bytes: Vec<u8>,
}

#[cfg(any(test, feature = "write"))]
impl Writer {
    pub(super) fn u8(&mut self, value: u8) {
        self.bytes.push(value);
    }

    pub(super) fn u16(&mut self, value: u16) {
        self.bytes.extend_from_slice(&value.to_le_bytes());
    }

    pub(super) fn u32(&mut self, value: u32) {
        self.bytes.extend_from_slice(&value.to_le_bytes());
    }

    pub(super) fn raw(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// An array of numbers given by their little-endian bytes, as planes.
    fn planes<const W: usize>(&mut self, numbers: impl Iterator<Item = [u8; W]> + Clone) {
        for byte in (0..W).rev() {
            self.bytes.extend(numbers.clone().map(|n| n[byte]));
        }
    }

    pub(super) fn f64s(&mut self, values: &[f64]) {
        self.planes(values.iter().map(|v| v.to_bits().to_le_bytes()));
    }

    pub(super) fn u32s(&mut self, values: &[u32]) {
        self.planes(values.iter().map(|v| v.to_le_bytes()));
    }
}

/// Reads the content, every read checked against its end.
#[derive(Debug)]
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    /// The next `n` bytes of `what`.
    pub(super) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len());
        let Some(end) = end else {
            return Err(corrupt(format!(
                "truncated in {what}: {n} bytes wanted at offset {}, {} left",
                self.at,
                self.bytes.len() - self.at
            )));
        };
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    pub(super) fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.take(1, what)?[0])
    }

    pub(super) fn u16(&mut self, what: &str) -> Result<u16> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub(super) fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A count that must fit what is left (each item taking at least
    /// `min_bytes`), so a corrupt count cannot make a reader allocate for
    /// billions of items.
    pub(super) fn count(&mut self, min_bytes: usize, what: &str) -> Result<usize> {
        let count = self.u32(what)? as usize;
        if count.saturating_mul(min_bytes) > self.bytes.len() - self.at {
            return Err(corrupt(format!(
                "{what}: {count} items cannot fit in the {} bytes left",
                self.bytes.len() - self.at
            )));
        }
        Ok(count)
    }

    /// `n` numbers of `W` bytes stored as planes, as little-endian bytes.
    fn planes<const W: usize>(&mut self, n: usize, what: &str) -> Result<Vec<[u8; W]>> {
        let bytes = self.take(n.saturating_mul(W), what)?;
        let mut numbers = vec![[0u8; W]; n];
        for (plane, byte) in bytes.chunks_exact(n.max(1)).zip((0..W).rev()) {
            for (number, &b) in numbers.iter_mut().zip(plane) {
                number[byte] = b;
            }
        }
        Ok(numbers)
    }

    pub(super) fn f64s(&mut self, n: usize, what: &str) -> Result<Vec<f64>> {
        Ok(self
            .planes::<8>(n, what)?
            .into_iter()
            .map(|b| f64::from_bits(u64::from_le_bytes(b)))
            .collect())
    }

    pub(super) fn u32s(&mut self, n: usize, what: &str) -> Result<Vec<u32>> {
        Ok(self
            .planes::<4>(n, what)?
            .into_iter()
            .map(u32::from_le_bytes)
            .collect())
    }

    /// Fails unless every byte has been read.
    pub(super) fn finish(&self) -> Result<()> {
        if self.at != self.bytes.len() {
            return Err(corrupt(format!(
                "{} bytes after the end of the content",
                self.bytes.len() - self.at
            )));
        }
        Ok(())
    }
}

/// `content` as one gzip member: level 9, mtime 0, no name, OS 255.
#[cfg(any(test, feature = "write"))]
pub(super) fn gzip(content: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::GzBuilder::new()
        .mtime(0)
        .operating_system(255)
        .write(Vec::new(), flate2::Compression::best());
    // Writing to memory cannot fail.
    encoder.write_all(content).expect("in memory");
    encoder.finish().expect("in memory")
}

/// The content of a bundle file (its gzip undone), at most
/// [`MAX_CONTENT`] bytes: what [`super::decode_content`] reads.
///
/// # Errors
/// [`Error::CorruptBundle`] for bytes that are not gzip, or too much.
pub fn gunzip(file: &[u8]) -> Result<Vec<u8>> {
    let mut content = Vec::new();
    let limit = MAX_CONTENT as u64 + 1;
    flate2::read::GzDecoder::new(file)
        .take(limit)
        .read_to_end(&mut content)
        .map_err(|e| corrupt(format!("not a readable gzip file: {e}")))?;
    if content.len() > MAX_CONTENT {
        return Err(corrupt(format!("the content is over {MAX_CONTENT} bytes")));
    }
    Ok(content)
}

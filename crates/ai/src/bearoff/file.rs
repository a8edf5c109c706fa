//! The bear-off database files (all numbers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SPELBEAR` |
//! | 2 | format version (1) |
//! | 1 | kind: 1 one-sided, 2 two-sided |
//! | 1 | most checkers of a side c (15 one-sided, 6 two-sided) |
//! | 1 | points (6) |
//! | 4 | positions n = C(c + 6, 6), in the order of `index` |
//! | … | one-sided: for each position the distribution of the rolls to bear off all its checkers, then for each position of all c checkers (the last C(c + 5, 5)) the distribution of the rolls until the first is off; two-sided: n × n u16, entry a·n + b the chance × 65535 that the side on roll with position a bears off before the other with b |
//! | 8 | checksum: FNV-1a (64 bits) of every byte before it |
//!
//! A distribution is 1 byte, the first number of rolls with a non-zero
//! entry, 1 byte, the number of entries m, then m u16 probabilities × 65535
//! summing to 65535 exactly (rounded, the rounding's remainder added to
//! the largest; zero entries at either end left out).

use super::build::Exact;
use super::index::{POINTS, positions};
use crate::net::format::{Reader, fnv1a};
use std::fmt;

/// The files' magic bytes.
pub const MAGIC: &[u8; 8] = b"SPELBEAR";
/// The format version this code reads and writes.
pub const FORMAT_VERSION: u16 = 1;
/// The kind byte of a one-sided file.
const ONE_SIDED: u8 = 1;
/// The kind byte of a two-sided file.
const TWO_SIDED: u8 = 2;
/// Probability one in the files' fixed point.
pub const ONE: u16 = u16::MAX;
/// The most checkers a two-sided file may hold (n² entries).
pub const MAX_TWO_SIDED: u8 = 8;

/// Why a bear-off file could not be read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BearoffFileError {
    /// The file does not begin with the magic bytes.
    NotABearoffFile,
    /// Written by a format version this code does not read.
    FormatVersion(u16),
    /// A one-sided file where a two-sided one was expected, or the reverse.
    Kind(u8),
    /// A size this code does not read (checkers, points, positions).
    Size(u8, u8, u32),
    /// The file ends before its fields do.
    Truncated,
    /// The checksum does not match the contents.
    Checksum,
    /// The distribution of this position does not sum to one.
    Distribution(usize),
    /// Bytes after the last field.
    TrailingBytes,
}

impl fmt::Display for BearoffFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotABearoffFile => write!(f, "not a spelbord bear-off file (bad magic)"),
            Self::FormatVersion(v) => {
                write!(
                    f,
                    "bear-off format version {v}; this program reads {FORMAT_VERSION}"
                )
            }
            Self::Kind(k) => write!(f, "bear-off file of kind {k} where another was expected"),
            Self::Size(c, p, n) => {
                write!(
                    f,
                    "unsupported bear-off size: {c} checkers, {p} points, {n} positions"
                )
            }
            Self::Truncated => write!(f, "the bear-off file is truncated"),
            Self::Checksum => write!(f, "the bear-off file's checksum does not match"),
            Self::Distribution(i) => write!(f, "position {i}'s distribution does not sum to 1"),
            Self::TrailingBytes => write!(f, "bytes after the bear-off file's fields"),
        }
    }
}

impl std::error::Error for BearoffFileError {}

/// A distribution of rolls as stored: entry j is `start + j` rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dist<'a> {
    /// The number of rolls of the first entry.
    pub start: usize,
    /// The probabilities × 65535.
    pub units: &'a [u16],
}

impl Dist<'_> {
    /// The chance of exactly `k` rolls.
    pub fn p(&self, k: usize) -> f64 {
        k.checked_sub(self.start)
            .and_then(|j| self.units.get(j))
            .map_or(0.0, |&u| f64::from(u) / f64::from(ONE))
    }

    /// The chance of at least `k` rolls.
    pub fn at_least(&self, k: usize) -> f64 {
        let below: u32 = (self.start..k.max(self.start))
            .map(|j| self.units.get(j - self.start).map_or(0, |&u| u32::from(u)))
            .sum();
        1.0 - f64::from(below) / f64::from(ONE)
    }

    /// The expected number of rolls.
    pub fn mean(&self) -> f64 {
        (self.start..self.start + self.units.len())
            .map(|k| k as f64 * self.p(k))
            .sum()
    }

    /// One past the largest number of rolls with a non-zero chance.
    pub fn end(&self) -> usize {
        self.start + self.units.len()
    }
}

/// Distributions of many positions, stored as in the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Dists {
    start: Vec<u8>,
    /// Where each position's entries begin in `units` (one more at the end).
    offset: Vec<u32>,
    units: Vec<u16>,
}

impl Dists {
    fn get(&self, i: usize) -> Option<Dist<'_>> {
        let (from, to) = (*self.offset.get(i)?, *self.offset.get(i + 1)?);
        Some(Dist {
            start: usize::from(self.start[i]),
            units: &self.units[from as usize..to as usize],
        })
    }

    fn read(r: &mut Reader<'_>, count: usize) -> Result<Self, BearoffFileError> {
        let mut d = Dists {
            offset: vec![0],
            ..Dists::default()
        };
        for i in 0..count {
            d.start
                .push(r.u8().map_err(|_| BearoffFileError::Truncated)?);
            let m = r.u8().map_err(|_| BearoffFileError::Truncated)?;
            let mut sum = 0u32;
            for _ in 0..m {
                let u = r.u16().map_err(|_| BearoffFileError::Truncated)?;
                sum += u32::from(u);
                d.units.push(u);
            }
            if sum != u32::from(ONE) {
                return Err(BearoffFileError::Distribution(i));
            }
            d.offset.push(d.units.len() as u32);
        }
        Ok(d)
    }
}

/// The one-sided database: distributions of rolls for one side alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OneSided {
    /// The most checkers of a position.
    pub checkers: usize,
    race: Dists,
    first: Dists,
}

impl OneSided {
    /// The rolls to bear off every checker of position `index` (fewest
    /// expected rolls); `None` past the database.
    pub fn race(&self, index: usize) -> Option<Dist<'_>> {
        self.race.get(index)
    }

    /// The rolls until the first checker of position `index` is off (fewest
    /// expected rolls), for positions of all the checkers; `None` otherwise.
    pub fn first_off(&self, index: usize) -> Option<Dist<'_>> {
        let full = positions(self.checkers.checked_sub(1)?);
        self.first.get(index.checked_sub(full)?)
    }
}

/// The two-sided database: the chance that the side on roll bears off first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwoSided {
    /// The most checkers of a position.
    pub checkers: usize,
    n: usize,
    win: Vec<u16>,
}

impl TwoSided {
    /// The chance that the side on roll with position `a` bears off before
    /// the other side with `b`, both playing to maximise it; `None` past
    /// the database.
    pub fn win(&self, a: usize, b: usize) -> Option<f64> {
        if a >= self.n || b >= self.n {
            return None;
        }
        Some(f64::from(self.win[a * self.n + b]) / f64::from(ONE))
    }

    /// The positions of each side it holds.
    pub fn positions(&self) -> usize {
        self.n
    }
}

/// The header for a file of `kind` with `checkers`.
fn header(kind: u8, checkers: usize) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    b.extend_from_slice(&[kind, checkers as u8, POINTS as u8]);
    b.extend_from_slice(&(positions(checkers) as u32).to_le_bytes());
    b
}

/// The distribution rounded to the fixed point (summing to [`ONE`]), with
/// its first number of rolls; zero entries at either end left out.
fn quantise(probs: &[f64]) -> (usize, Vec<u16>) {
    let mut q: Vec<i64> = probs
        .iter()
        .map(|&p| (p * f64::from(ONE)).round() as i64)
        .collect();
    let rest = i64::from(ONE) - q.iter().sum::<i64>();
    if let Some(big) = (0..q.len()).max_by_key(|&k| q[k]) {
        q[big] += rest;
    }
    let start = q.iter().position(|&u| u != 0).unwrap_or(0);
    let end = q.iter().rposition(|&u| u != 0).map_or(start, |e| e + 1);
    let units = q[start..end]
        .iter()
        .map(|&u| u.clamp(0, i64::from(ONE)) as u16)
        .collect();
    (start, units)
}

/// Appends `dists` to `b` in the file's form.
fn write_dists(b: &mut Vec<u8>, dists: &[Exact]) {
    for d in dists {
        let (start, units) = quantise(&d.probs);
        // at most 90 pips, so fewer than 255 rolls
        b.push(start.min(255) as u8);
        b.push(units.len().min(255) as u8);
        for u in units.iter().take(255) {
            b.extend_from_slice(&u.to_le_bytes());
        }
    }
}

/// Closes the file with its checksum.
fn finish(mut b: Vec<u8>) -> Vec<u8> {
    let sum = fnv1a(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    b
}

/// The bytes of a one-sided file of positions of at most `checkers`:
/// `race` for every position, `first` for those of all the checkers.
pub fn one_sided_bytes(checkers: usize, race: &[Exact], first: &[Exact]) -> Vec<u8> {
    let mut b = header(ONE_SIDED, checkers);
    write_dists(&mut b, race);
    write_dists(&mut b, first);
    finish(b)
}

/// The bytes of a two-sided file of positions of at most `checkers`
/// (`win` from [`super::build::two_sided`]).
pub fn two_sided_bytes(checkers: usize, win: &[f64]) -> Vec<u8> {
    let mut b = header(TWO_SIDED, checkers);
    for &w in win {
        let u = (w.clamp(0.0, 1.0) * f64::from(ONE)).round() as u16;
        b.extend_from_slice(&u.to_le_bytes());
    }
    finish(b)
}

/// Checks magic, version, checksum and sizes; returns the reader after the
/// header and the number of checkers.
fn open(bytes: &[u8], kind: u8, max: u8) -> Result<(Reader<'_>, usize), BearoffFileError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(BearoffFileError::NotABearoffFile);
    }
    if bytes.len() < MAGIC.len() + 9 + 8 {
        return Err(BearoffFileError::Truncated);
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    let mut r = Reader {
        bytes: body,
        at: MAGIC.len(),
    };
    let t = |_| BearoffFileError::Truncated;
    let version = r.u16().map_err(t)?;
    if version != FORMAT_VERSION {
        return Err(BearoffFileError::FormatVersion(version));
    }
    let mut stored = [0u8; 8];
    stored.copy_from_slice(sum);
    if fnv1a(body) != u64::from_le_bytes(stored) {
        return Err(BearoffFileError::Checksum);
    }
    let found = r.u8().map_err(t)?;
    if found != kind {
        return Err(BearoffFileError::Kind(found));
    }
    let (checkers, points, n) = (r.u8().map_err(t)?, r.u8().map_err(t)?, r.u32().map_err(t)?);
    if checkers > max || usize::from(points) != POINTS || n as usize != positions(checkers.into()) {
        return Err(BearoffFileError::Size(checkers, points, n));
    }
    Ok((r, checkers.into()))
}

/// Fails unless the reader is at the end of its bytes.
fn at_end(r: &Reader<'_>) -> Result<(), BearoffFileError> {
    match r.at == r.bytes.len() {
        true => Ok(()),
        false => Err(BearoffFileError::TrailingBytes),
    }
}

impl OneSided {
    /// Reads a one-sided file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BearoffFileError> {
        let (mut r, checkers) = open(bytes, ONE_SIDED, 15)?;
        let n = positions(checkers);
        let race = Dists::read(&mut r, n)?;
        let full = n - checkers.checked_sub(1).map_or(0, positions);
        let first = Dists::read(&mut r, full)?;
        at_end(&r)?;
        Ok(OneSided {
            checkers,
            race,
            first,
        })
    }
}

impl TwoSided {
    /// Reads a two-sided file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BearoffFileError> {
        let (mut r, checkers) = open(bytes, TWO_SIDED, MAX_TWO_SIDED)?;
        let n = positions(checkers);
        let raw = r.take(2 * n * n).map_err(|_| BearoffFileError::Truncated)?;
        let win = raw
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        at_end(&r)?;
        Ok(TwoSided { checkers, n, win })
    }
}

//! The weights file of an evaluation network (all numbers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SPELNET\0` |
//! | 2 | format version (1) |
//! | 1 + n | game id: its length n, then its UTF-8 bytes |
//! | 2 | encoding version (of the game's input encoding: backgammon and Tawla 1 or 2, the others 1) |
//! | 1 | output meaning (see [`Outputs`]): 1 win / gammon / backgammon (5 outputs), 2 win (1), 0x10 + n per-seat win and points of n = 2..4 seats (2n) |
//! | 1 | number of layer sizes (3: inputs, hidden, outputs) |
//! | 4 each | the layer sizes |
//! | 8 | games of training the weights saw |
//! | 4 × ... | f32 parameters: hidden weights input-major (inputs × hidden), hidden biases, output weights output-major (outputs × hidden), output biases |
//! | 8 | checksum: FNV-1a (64 bits) of every byte before it |

use super::mlp::Mlp;
use std::fmt;

/// The file's magic bytes.
pub const MAGIC: &[u8; 8] = b"SPELNET\0";
/// The format version this code reads and writes.
pub const FORMAT_VERSION: u16 = 1;

/// What a network's outputs mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outputs {
    /// Two-player race games, for the player on roll: win, win a gammon (or
    /// more), win a backgammon, lose a gammon (or more), lose a backgammon.
    WinGammonBackgammon,
    /// Two-player games scored by the win alone (Stumphög): the chance that
    /// the player the position is seen by wins, a draw counting half.
    Win,
    /// Games of this many seats (2..4): each seat's chance of winning, then
    /// each seat's expected points scaled into 0..1, seats counted from the
    /// one the position is seen by onwards in turn order.
    SeatWinPoints(u8),
}

impl Outputs {
    fn code(self) -> u8 {
        match self {
            Outputs::WinGammonBackgammon => 1,
            Outputs::Win => 2,
            Outputs::SeatWinPoints(seats) => 0x10 + seats,
        }
    }

    fn from_code(code: u8) -> Option<Self> {
        match code {
            1 => Some(Outputs::WinGammonBackgammon),
            2 => Some(Outputs::Win),
            0x12..=0x14 => Some(Outputs::SeatWinPoints(code - 0x10)),
            _ => None,
        }
    }

    /// How many outputs a network of this meaning has.
    pub fn count(self) -> usize {
        match self {
            Outputs::WinGammonBackgammon => 5,
            Outputs::Win => 1,
            Outputs::SeatWinPoints(seats) => 2 * seats as usize,
        }
    }
}

/// A network with what it was trained for.
#[derive(Clone, Debug, PartialEq)]
pub struct NetFile {
    /// The game's id.
    pub game: String,
    /// The version of the game's input encoding.
    pub encoding: u16,
    /// What the outputs mean.
    pub outputs: Outputs,
    /// Training games behind the weights.
    pub games_trained: u64,
    /// The weights.
    pub net: Mlp,
}

/// Why a weights file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetFileError {
    /// The file does not begin with the magic bytes.
    NotANetFile,
    /// Written by a format version this code does not read.
    FormatVersion(u16),
    /// The file ends before its fields do.
    Truncated,
    /// The checksum does not match the contents.
    Checksum,
    /// An unknown output meaning code.
    OutputMeaning(u8),
    /// The layer sizes do not describe a network this code runs.
    Layers(Vec<u32>),
    /// Bytes after the checksum.
    TrailingBytes,
    /// The game id is not UTF-8.
    GameId,
}

impl fmt::Display for NetFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetFileError::NotANetFile => write!(f, "not a spelbord network file (bad magic)"),
            NetFileError::FormatVersion(v) => {
                write!(
                    f,
                    "network format version {v}; this program reads {FORMAT_VERSION}"
                )
            }
            NetFileError::Truncated => write!(f, "the network file is truncated"),
            NetFileError::Checksum => write!(f, "the network file's checksum does not match"),
            NetFileError::OutputMeaning(c) => write!(f, "unknown output meaning {c}"),
            NetFileError::Layers(s) => write!(f, "unsupported layer sizes {s:?}"),
            NetFileError::TrailingBytes => write!(f, "bytes after the checksum"),
            NetFileError::GameId => write!(f, "the game id is not UTF-8"),
        }
    }
}

impl std::error::Error for NetFileError {}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Reads little-endian fields from a byte slice (also the bear-off files').
pub(crate) struct Reader<'a> {
    /// The bytes read.
    pub(crate) bytes: &'a [u8],
    /// Where the next field begins.
    pub(crate) at: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], NetFileError> {
        let end = self.at.checked_add(n).ok_or(NetFileError::Truncated)?;
        let s = self
            .bytes
            .get(self.at..end)
            .ok_or(NetFileError::Truncated)?;
        self.at = end;
        Ok(s)
    }
    pub(crate) fn u8(&mut self) -> Result<u8, NetFileError> {
        Ok(self.take(1)?[0])
    }
    pub(crate) fn u16(&mut self) -> Result<u16, NetFileError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    pub(crate) fn u32(&mut self) -> Result<u32, NetFileError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub(crate) fn u64(&mut self) -> Result<u64, NetFileError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn f32s(&mut self, n: usize) -> Result<Vec<f32>, NetFileError> {
        let b = self.take(n.checked_mul(4).ok_or(NetFileError::Truncated)?)?;
        Ok(b.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

/// The largest layer this code accepts (guards against absurd allocations).
const MAX_LAYER: u32 = 1 << 16;

impl NetFile {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        b.push(self.game.len() as u8);
        b.extend_from_slice(self.game.as_bytes());
        b.extend_from_slice(&self.encoding.to_le_bytes());
        b.push(self.outputs.code());
        let sizes = self.net.sizes();
        b.push(sizes.len() as u8);
        for s in sizes {
            b.extend_from_slice(&(s as u32).to_le_bytes());
        }
        b.extend_from_slice(&self.games_trained.to_le_bytes());
        for part in self.net.parts() {
            for x in part {
                b.extend_from_slice(&x.to_le_bytes());
            }
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, NetFileError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetFileError::NotANetFile);
        }
        if bytes.len() < MAGIC.len() + 2 + 8 {
            return Err(NetFileError::Truncated);
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut r = Reader { bytes: body, at: 8 };
        let version = r.u16()?;
        if version != FORMAT_VERSION {
            return Err(NetFileError::FormatVersion(version));
        }
        let mut stored = [0u8; 8];
        stored.copy_from_slice(sum);
        if fnv1a(body) != u64::from_le_bytes(stored) {
            return Err(NetFileError::Checksum);
        }
        let n = r.u8()? as usize;
        let game = std::str::from_utf8(r.take(n)?)
            .map_err(|_| NetFileError::GameId)?
            .to_string();
        let encoding = r.u16()?;
        let code = r.u8()?;
        let outputs = Outputs::from_code(code).ok_or(NetFileError::OutputMeaning(code))?;
        let layers = r.u8()? as usize;
        let sizes: Vec<u32> = (0..layers).map(|_| r.u32()).collect::<Result<_, _>>()?;
        if sizes.len() != 3
            || sizes.iter().any(|&s| s == 0 || s > MAX_LAYER)
            || sizes[2] as usize != outputs.count()
        {
            return Err(NetFileError::Layers(sizes));
        }
        let [i, h, o] = [sizes[0] as usize, sizes[1] as usize, sizes[2] as usize];
        let games_trained = r.u64()?;
        let w1 = r.f32s(i * h)?;
        let b1 = r.f32s(h)?;
        let w2 = r.f32s(o * h)?;
        let b2 = r.f32s(o)?;
        if r.at != body.len() {
            return Err(NetFileError::TrailingBytes);
        }
        let net = Mlp::from_parts([i, h, o], w1, b1, w2, b2)
            .ok_or_else(|| NetFileError::Layers(sizes.clone()))?;
        Ok(NetFile {
            game,
            encoding,
            outputs,
            games_trained,
            net,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> NetFile {
        let mut v = 0.1f32;
        NetFile {
            game: "backgammon".into(),
            encoding: 1,
            outputs: Outputs::WinGammonBackgammon,
            games_trained: 42,
            net: Mlp::random(7, 3, 5, || {
                v = -v * 1.1;
                v
            }),
        }
    }

    #[test]
    fn files_read_back_what_was_written() {
        let f = sample();
        assert_eq!(NetFile::from_bytes(&f.to_bytes()), Ok(f));
    }

    #[test]
    fn every_output_meaning_reads_back() {
        for (outputs, count) in [
            (Outputs::Win, 1),
            (Outputs::SeatWinPoints(2), 4),
            (Outputs::SeatWinPoints(3), 6),
            (Outputs::SeatWinPoints(4), 8),
        ] {
            let mut v = 0.1f32;
            let f = NetFile {
                game: "high-gammon".into(),
                encoding: 1,
                outputs,
                games_trained: 7,
                net: Mlp::random(5, 3, count, || {
                    v = -v * 1.1;
                    v
                }),
            };
            assert_eq!(NetFile::from_bytes(&f.to_bytes()), Ok(f));
        }
        // An output count that does not fit the meaning is refused.
        let mut f = sample();
        f.outputs = Outputs::SeatWinPoints(3);
        assert!(matches!(
            NetFile::from_bytes(&f.to_bytes()),
            Err(NetFileError::Layers(_))
        ));
    }

    #[test]
    fn damaged_files_are_typed_errors() {
        let bytes = sample().to_bytes();
        assert_eq!(
            NetFile::from_bytes(b"hello"),
            Err(NetFileError::NotANetFile)
        );
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        assert_eq!(NetFile::from_bytes(&flipped), Err(NetFileError::Checksum));
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(
            NetFile::from_bytes(&version),
            Err(NetFileError::FormatVersion(9))
        );
        for cut in [9, 20, bytes.len() - 9] {
            assert!(NetFile::from_bytes(&bytes[..cut]).is_err());
        }
    }
}

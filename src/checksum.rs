//! The project's file checksum: a fast 64-bit multiply-xor hash over little-endian words,
//! finished with the length. Tablebase layers ([`crate::tablebase::format`]) and solver
//! checkpoints ([`crate::solve::checkpoint`]) both use it.
//!
//! # Stability
//!
//! The value of a byte string never changes: tablebase files of format version 1 store it.
//!
//! # Examples
//!
//! One shot, or streamed in pieces of any length (the same value):
//!
//! ```
//! use giuthi::checksum::{checksum, Checksum};
//! let data: Vec<u8> = (0..100u8).collect();
//! let mut c = Checksum::new();
//! c.update(&data[..13]);
//! c.update(&data[13..64]);
//! c.update(&data[64..]);
//! assert_eq!(c.finish(), checksum(&data));
//! assert_ne!(checksum(&[1, 0]), checksum(&[0, 1]));
//! ```

/// The checksum of `bytes` (see the module's documentation).
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut c = Checksum::new();
    c.update(bytes);
    c.finish()
}

/// A streaming [`checksum`]: feed the bytes in pieces of any length.
#[derive(Debug, Clone)]
pub struct Checksum {
    h: u64,
    /// A partial word waiting for its remaining bytes.
    pending: [u8; 8],
    pending_len: usize,
    len: u64,
}

impl Default for Checksum {
    fn default() -> Self {
        Checksum::new()
    }
}

impl Checksum {
    /// The checksum of no bytes so far.
    pub fn new() -> Checksum {
        Checksum {
            h: 0x243f_6a88_85a3_08d3,
            pending: [0; 8],
            pending_len: 0,
            len: 0,
        }
    }

    #[inline]
    fn word(&mut self, w: u64) {
        self.h = (self.h ^ w)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }

    /// Adds `bytes`.
    pub fn update(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len() as u64;
        if self.pending_len > 0 {
            let take = (8 - self.pending_len).min(bytes.len());
            self.pending[self.pending_len..self.pending_len + take].copy_from_slice(&bytes[..take]);
            self.pending_len += take;
            bytes = &bytes[take..];
            if self.pending_len < 8 {
                return;
            }
            self.word(u64::from_le_bytes(self.pending));
            self.pending_len = 0;
        }
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len();
    }

    /// The checksum of all the bytes added (the tail word zero-padded, then the length).
    pub fn finish(&self) -> u64 {
        let mut c = self.clone();
        if c.pending_len > 0 {
            let mut w = [0u8; 8];
            w[..c.pending_len].copy_from_slice(&c.pending[..c.pending_len]);
            c.word(u64::from_le_bytes(w));
        }
        crate::index::mix64(c.h ^ c.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-shot function of tablebase format version 1, kept verbatim as the reference.
    fn reference(bytes: &[u8]) -> u64 {
        let mut h: u64 = 0x243f_6a88_85a3_08d3;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            h = (h ^ u64::from_le_bytes(w))
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(29);
        }
        crate::index::mix64(h ^ bytes.len() as u64)
    }

    #[test]
    fn streaming_equals_one_shot_and_format_1_value() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 1000] {
            let d = &data[..len];
            assert_eq!(checksum(d), reference(d), "len {len}");
            for step in [1, 3, 8, 13] {
                let mut c = Checksum::new();
                for piece in d.chunks(step) {
                    c.update(piece);
                }
                assert_eq!(c.finish(), reference(d), "len {len} step {step}");
            }
        }
    }
}

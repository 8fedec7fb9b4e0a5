//! The byte stream under the line reader: the caller's reader (counted), an
//! optional gzip decoder, and a meter that hashes and counts the uncompressed
//! bytes and stops at the size limit.

use std::io::{self, Chain, Cursor, Read, Take};

use flate2::read::MultiGzDecoder;
use sha2::{Digest, Sha256};

/// The two bytes every gzip member starts with.
pub(crate) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The caller's reader, counting bytes and remembering whether it failed, so
/// that a decoder error can be told apart from an I/O error.
pub(crate) struct Source<R> {
    inner: R,
    pub consumed: u64,
    pub failed: bool,
}

impl<R: Read> Read for Source<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(n) => {
                self.consumed += n as u64;
                Ok(n)
            }
            Err(e) => {
                self.failed |= e.kind() != io::ErrorKind::Interrupted;
                Err(e)
            }
        }
    }
}

/// The source with the bytes read to sniff the format put back in front.
pub(crate) type Sniffed<R> = Chain<Take<Cursor<[u8; 2]>>, Source<R>>;

/// Reads up to two bytes and returns whether they are the gzip magic,
/// together with a reader that yields the whole input again.
pub(crate) fn sniff<R: Read>(reader: R) -> Result<(bool, Sniffed<R>), (io::Error, u64)> {
    let mut src = Source { inner: reader, consumed: 0, failed: false };
    let mut head = [0u8; 2];
    let mut got = 0;
    while got < 2 {
        match src.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err((e, src.consumed)),
        }
    }
    let gzip = got == 2 && head == GZIP_MAGIC;
    Ok((gzip, Cursor::new(head).take(got as u64).chain(src)))
}

/// What the line reader reads from: the plain source or a gzip decoder on it.
pub(crate) trait Origin: Read {
    /// Whether this is the gzip path.
    const GZIP: bool;
    /// The caller's reader.
    fn source(&self) -> (u64, bool);
}

impl<R: Read> Origin for Sniffed<R> {
    const GZIP: bool = false;
    fn source(&self) -> (u64, bool) {
        let src = self.get_ref().1;
        (src.consumed, src.failed)
    }
}

impl<R: Read> Origin for MultiGzDecoder<Sniffed<R>> {
    const GZIP: bool = true;
    fn source(&self) -> (u64, bool) {
        self.get_ref().source()
    }
}

/// Counts and hashes uncompressed bytes; fails once more than `limit` pass.
pub(crate) struct Meter<R> {
    pub inner: R,
    hasher: Sha256,
    pub bytes: u64,
    limit: u64,
    pub over: bool,
}

impl<R> Meter<R> {
    pub fn new(inner: R, limit: u64) -> Self {
        Meter { inner, hasher: Sha256::new(), bytes: 0, limit, over: false }
    }

    /// The lowercase hex SHA-256 of every byte that passed.
    pub fn sha256_hex(self) -> String {
        let digest = self.hasher.finalize();
        let mut hex = String::with_capacity(64);
        for b in digest {
            hex.push(char::from(HEX[usize::from(b >> 4)]));
            hex.push(char::from(HEX[usize::from(b & 15)]));
        }
        hex
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

impl<R: Read> Read for Meter<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.over {
            return Err(limit_error());
        }
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        if self.bytes > self.limit {
            self.over = true;
            return Err(limit_error());
        }
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

fn limit_error() -> io::Error {
    io::Error::other("size limit exceeded")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff_puts_bytes_back() {
        for input in [&b""[..], b"a", b"ab", b"abc", &[0x1f, 0x8b, 8, 0]] {
            let (gzip, mut r) = sniff(input).expect("sniff");
            let mut all = Vec::new();
            r.read_to_end(&mut all).expect("read");
            assert_eq!(all, input);
            assert_eq!(gzip, input.starts_with(&GZIP_MAGIC));
        }
    }

    #[test]
    fn meter_hashes_and_limits() {
        let mut m = Meter::new(&b"abc"[..], 10);
        let mut out = Vec::new();
        m.read_to_end(&mut out).expect("read");
        assert_eq!(m.bytes, 3);
        assert_eq!(m.sha256_hex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        let mut m = Meter::new(&b"abcdef"[..], 5);
        assert!(m.read_to_end(&mut Vec::new()).is_err());
        assert!(m.over);
    }
}

//! The byte stream under the line reader: the caller's reader (counted), the
//! decoder its first bytes call for, and a meter that hashes and counts the
//! uncompressed bytes and stops at the size limit.

use std::cell::Cell;
use std::io::{self, BufRead, BufReader, Chain, Cursor, Read, Take};
use std::rc::Rc;

use sha2::{Digest, Sha256};

use crate::error::SwfError;

/// Bytes looked at to recognise a format: the longest magic (xz) has six.
const HEAD: usize = 6;

/// Largest dictionary an xz stream may ask for, in KiB: 256 MiB, four times
/// what `xz -9` uses, so that a hostile header cannot make the decoder
/// allocate gigabytes before the size limit is reached.
const XZ_MEMORY_LIMIT_KIB: u32 = 256 * 1024;

/// How the input is encoded, told by its first bytes (never by a file name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Plain,
    Gzip,
    Zlib,
    Bzip2,
    Xz,
    Zstd,
}

impl Format {
    /// The name of the compression, for messages; `None` for plain text.
    pub fn compression(self) -> Option<&'static str> {
        match self {
            Format::Plain => None,
            Format::Gzip => Some("gzip"),
            Format::Zlib => Some("zlib"),
            Format::Bzip2 => Some("bzip2"),
            Format::Xz => Some("xz"),
            Format::Zstd => Some("zstd"),
        }
    }
}

/// What the first bytes say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sniffed {
    /// A format this crate decodes.
    Known(Format),
    /// A compressed or archive format it does not decode.
    Unsupported(&'static str),
    /// A gzip header with one of its two magic bytes changed.
    DamagedGzip([u8; 2]),
}

/// Recognises a format by its magic bytes.
pub(crate) fn detect(head: &[u8]) -> Sniffed {
    const MAGICS: [(&[u8], Sniffed); 9] = [
        (&[0x1f, 0x8b], Sniffed::Known(Format::Gzip)),
        (&[0xfd, b'7', b'z', b'X', b'Z', 0], Sniffed::Known(Format::Xz)),
        (&[0x28, 0xb5, 0x2f, 0xfd], Sniffed::Known(Format::Zstd)),
        (b"BZh", Sniffed::Known(Format::Bzip2)),
        (b"PK\x03\x04", Sniffed::Unsupported("zip")),
        (b"7z\xbc\xaf\x27\x1c", Sniffed::Unsupported("7-zip")),
        (&[0x04, 0x22, 0x4d, 0x18], Sniffed::Unsupported("lz4")),
        (b"LZIP", Sniffed::Unsupported("lzip")),
        (&[0x1f, 0x9d], Sniffed::Unsupported("Unix compress (.Z)")),
    ];
    if let Some((_, sniffed)) = MAGICS.iter().find(|(magic, _)| head.starts_with(magic)) {
        return *sniffed;
    }
    if is_zlib(head) {
        return Sniffed::Known(Format::Zlib);
    }
    // Deflate (method 8) after a gzip magic with one byte changed: a damaged
    // gzip file, which would otherwise be read as text full of bad lines.
    if head.len() >= 3 && head[2] == 8 && ((head[0] == 0x1f) != (head[1] == 0x8b)) {
        return Sniffed::DamagedGzip([head[0], head[1]]);
    }
    Sniffed::Known(Format::Plain)
}

/// A zlib header as zlib writes it: `0x78` (deflate, 32 KiB window), no
/// preset dictionary, and the header check (a multiple of 31). Requiring
/// `0x78` and no dictionary keeps text from being taken for zlib: no SWF
/// line starts with `x`.
fn is_zlib(head: &[u8]) -> bool {
    match head {
        [0x78, flags, ..] => flags & 0x20 == 0 && (0x7800 + u16::from(*flags)) % 31 == 0,
        _ => false,
    }
}

/// What the caller's reader did, shared with the error classification while
/// a decoder owns the reader, so that a decoder error can be told apart from
/// an I/O error.
#[derive(Debug, Default)]
pub(crate) struct SourceState {
    pub consumed: Cell<u64>,
    pub failed: Cell<bool>,
}

/// The caller's reader, counting bytes and remembering whether it failed.
struct Source<R> {
    inner: R,
    state: Rc<SourceState>,
}

impl<R: Read> Read for Source<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(n) => {
                self.state.consumed.set(self.state.consumed.get() + n as u64);
                Ok(n)
            }
            Err(e) => {
                if e.kind() != io::ErrorKind::Interrupted {
                    self.state.failed.set(true);
                }
                Err(e)
            }
        }
    }
}

/// The source with the bytes read to sniff the format put back in front.
type Sniffing<R> = Chain<Take<Cursor<[u8; HEAD]>>, Source<R>>;

/// The input, decoded: the uncompressed bytes, their format, and what the
/// caller's reader did.
pub(crate) struct Opened<'a> {
    pub reader: Box<dyn Read + 'a>,
    pub format: Format,
    pub state: Rc<SourceState>,
}

/// Looks at the first bytes and puts the right decoder on the reader.
pub(crate) fn open<'a, R: Read + 'a>(reader: R) -> Result<Opened<'a>, SwfError> {
    let state = Rc::new(SourceState::default());
    let (head, input) = sniff(Source { inner: reader, state: Rc::clone(&state) }).map_err(|source| SwfError::Io {
        bytes: state.consumed.get(),
        line: 1,
        source,
    })?;
    let format = match detect(&head) {
        Sniffed::Known(format) => format,
        Sniffed::Unsupported(name) => return Err(SwfError::UnsupportedCompression { format: name }),
        Sniffed::DamagedGzip(bytes) => return Err(SwfError::DamagedGzip { bytes }),
    };
    let reader: Box<dyn Read + 'a> = match format {
        Format::Plain => Box::new(input),
        Format::Gzip => Box::new(Members::new(
            BufReader::new(input),
            gzip_member,
            flate2::bufread::GzDecoder::into_inner,
            is_gzip_start,
        )),
        Format::Zlib => Box::new(flate2::read::ZlibDecoder::new(input)),
        Format::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(input)),
        Format::Xz => Box::new(lzma_rust2::XzReader::new_mem_limit(input, true, XZ_MEMORY_LIMIT_KIB)),
        Format::Zstd => Box::new(Members::new(
            BufReader::new(input),
            zstd_frame,
            ruzstd::decoding::StreamingDecoder::into_inner,
            is_zstd_start,
        )),
    };
    Ok(Opened { reader, format, state })
}

/// Whether `bytes` (at least the first) may start a gzip member.
fn is_gzip_start(bytes: &[u8]) -> bool {
    [0x1f, 0x8b].starts_with(&bytes[..bytes.len().min(2)])
}

/// Whether `bytes` may start a zstd frame or a skippable frame
/// (0x184D2A50 to 0x184D2A5F, little-endian).
fn is_zstd_start(bytes: &[u8]) -> bool {
    let n = bytes.len().min(4);
    [0x28, 0xb5, 0x2f, 0xfd].starts_with(&bytes[..n])
        || (bytes[0] & 0xf0 == 0x50 && [0x2a, 0x4d, 0x18].starts_with(&bytes[1..n.max(1)]))
}

/// Bytes after the last complete member that cannot start another one:
/// text appended to a compressed trace, which is not a corrupt stream.
#[derive(Debug)]
pub(crate) struct Trailing {
    /// The first bytes, for the message.
    pub start: Vec<u8>,
}

impl std::fmt::Display for Trailing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "data after the last compressed member")
    }
}

impl std::error::Error for Trailing {}

fn gzip_member<B: BufRead>(input: B) -> io::Result<flate2::bufread::GzDecoder<B>> {
    Ok(flate2::bufread::GzDecoder::new(input))
}

type ZstdFrame<B> = ruzstd::decoding::StreamingDecoder<B, ruzstd::decoding::FrameDecoder>;

/// A zstd frame; the decoder refuses windows over 100 MiB itself.
fn zstd_frame<B: BufRead>(input: B) -> io::Result<ZstdFrame<B>> {
    ruzstd::decoding::StreamingDecoder::new(input)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))
}

/// Reads up to [`HEAD`] bytes and returns them, with a reader that yields
/// the whole input again.
fn sniff<R: Read>(mut src: Source<R>) -> io::Result<(Vec<u8>, Sniffing<R>)> {
    let mut head = [0u8; HEAD];
    let mut got = 0;
    while got < HEAD {
        match src.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((head[..got].to_vec(), Cursor::new(head).take(got as u64).chain(src)))
}

/// Concatenated members (gzip members, zstd frames) decoded as one stream.
/// Zero bytes after a member are padding, as tar writes it and GNU gzip
/// accepts it; anything else must start another member.
struct Members<B, D> {
    member: Option<D>,
    between: Option<B>,
    start: fn(B) -> io::Result<D>,
    end: fn(D) -> B,
    /// Whether the next bytes may start another member.
    is_start: fn(&[u8]) -> bool,
}

impl<B: BufRead, D: Read> Members<B, D> {
    fn new(input: B, start: fn(B) -> io::Result<D>, end: fn(D) -> B, is_start: fn(&[u8]) -> bool) -> Self {
        Members { member: None, between: Some(input), start, end, is_start }
    }
}

impl<B: BufRead, D: Read> Read for Members<B, D> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if let Some(member) = self.member.as_mut() {
                let n = member.read(buf)?;
                if n > 0 {
                    return Ok(n);
                }
                self.between = self.member.take().map(self.end);
            }
            let Some(mut input) = self.between.take() else { return Ok(0) };
            if !skip_zero_padding(&mut input)? {
                return Ok(0);
            }
            let next = fill(&mut input)?;
            if !(self.is_start)(next) {
                let start = next[..next.len().min(24)].to_vec();
                return Err(io::Error::new(io::ErrorKind::InvalidData, Trailing { start }));
            }
            self.member = Some((self.start)(input)?);
        }
    }
}

/// `fill_buf`, tried again when interrupted by a signal.
pub(crate) fn fill<B: BufRead>(input: &mut B) -> io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            Ok(_) => break,
        }
    }
    // Returns what the call above buffered; asked in two steps because a
    // borrow returned from inside the loop would outlive the retry.
    input.fill_buf()
}

/// Skips zero bytes; returns whether a non-zero byte (another member) follows.
fn skip_zero_padding<B: BufRead>(input: &mut B) -> io::Result<bool> {
    loop {
        let chunk = fill(input)?;
        if chunk.is_empty() {
            return Ok(false);
        }
        let zeros = chunk.iter().take_while(|&&b| b == 0).count();
        if zeros < chunk.len() {
            input.consume(zeros);
            return Ok(true);
        }
        input.consume(zeros);
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
        for input in [&b""[..], b"a", b"ab", b"abcdef", b"abcdefgh", &[0x1f, 0x8b, 8, 0]] {
            let state = Rc::new(SourceState::default());
            let (head, mut r) = sniff(Source { inner: input, state }).expect("sniff");
            let mut all = Vec::new();
            r.read_to_end(&mut all).expect("read");
            assert_eq!(all, input);
            assert_eq!(head, &input[..input.len().min(HEAD)]);
        }
    }

    #[test]
    fn formats_by_magic_bytes() {
        let cases: [(&[u8], Sniffed); 14] = [
            (b"1 0 0 10 1", Sniffed::Known(Format::Plain)),
            (b"; Version", Sniffed::Known(Format::Plain)),
            (b"80 5 1 1", Sniffed::Known(Format::Plain)),
            (b"", Sniffed::Known(Format::Plain)),
            (&[0x1f, 0x8b, 8, 0], Sniffed::Known(Format::Gzip)),
            (&[0x78, 0x9c, 1], Sniffed::Known(Format::Zlib)),
            (&[0x78, 0xda, 1], Sniffed::Known(Format::Zlib)),
            (b"BZh91AY", Sniffed::Known(Format::Bzip2)),
            (&[0xfd, b'7', b'z', b'X', b'Z', 0, 0], Sniffed::Known(Format::Xz)),
            (&[0x28, 0xb5, 0x2f, 0xfd, 0], Sniffed::Known(Format::Zstd)),
            (b"PK\x03\x04xx", Sniffed::Unsupported("zip")),
            (&[0x04, 0x22, 0x4d, 0x18], Sniffed::Unsupported("lz4")),
            (&[0x1e, 0x8b, 8, 0], Sniffed::DamagedGzip([0x1e, 0x8b])),
            (&[0x1f, 0x8c, 8, 0], Sniffed::DamagedGzip([0x1f, 0x8c])),
        ];
        for (head, want) in cases {
            assert_eq!(detect(head), want, "{head:?}");
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

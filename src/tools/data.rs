//! The training-data format: positions from self-play with the search's score and best
//! move and the game's result, as `datagen` writes them and a trainer reads them.
//!
//! A file is a 16-byte [`Header`] (magic, version, rule, board size, record size) and
//! then fixed-size [`Record`]s, one a position, all little-endian. `docs/data.md` gives
//! the layout byte by byte. In short, for a board of `W`x`H` squares, with
//! `P = ceil(W*H / 8)`:
//!
//! | bytes | field |
//! |---|---|
//! | 0..4 | game number in the run (`u32`) |
//! | 4..6 | ply: moves played, the stones on the board (`u16`) |
//! | 6..8 | best move, square `y * W + x` (`u16`) |
//! | 8..10 | search score for the side to move (`i16`; ±29000 and beyond: a proven win or loss) |
//! | 10 | side to move (0 black, 1 white) |
//! | 11 | game result for the side to move (`i8`: 1 win, 0 draw, -1 loss) |
//! | 12 | flags ([`flags`]) |
//! | 13 | reserved, 0 |
//! | 14..14+P | black stones, a bit per square (`y * W + x`, least significant bit first) |
//! | 14+P..14+2P | white stones, the same |
//!
//! Why bit planes: the record has a fixed size whatever the number of stones (a move
//! list would not, or would waste space padded to the longest game), 15x15 takes 72
//! bytes, and the two planes are already the network's input planes: a trainer gets them
//! with `numpy.unpackbits(..., bitorder="little")` and no parsing. The colours are
//! absolute (black, white), not "side to move" and "other", because renju treats them
//! differently; a trainer can swap the planes itself.
//!
//! [`Writer`] writes a file and [`Reader`] reads one back record by record, checking
//! everything it reads: a wrong magic, version or size, a truncated record or an
//! impossible one (a square with two stones, a best move on a stone, a stone count that
//! is not the ply) is an error, never a panic.

use crate::core::board::Board;
use crate::core::types::{is_mate, mate_plies, Color, Pos, Rule, Score, MATE, MATE_BOUND};
use crate::core::types::{MAX_SIZE, MIN_SIZE};
use anyhow::{anyhow, bail, ensure, Context, Result};
use std::io::{Read, Write};
use std::path::Path;

/// The first eight bytes of every file.
pub const MAGIC: [u8; 8] = *b"FIVEDATA";
/// The format version this module writes. It reads this one and version 1, which is
/// the same layout without the flag [`flags::OFF_PATH`].
pub const VERSION: u16 = 2;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 16;
/// Bytes of a record before its two stone planes.
pub const FIXED_BYTES: usize = 14;

/// The bits of a record's `flags` byte.
pub mod flags {
    /// The best move starts a forced win (VCF or VCT) that the threat solver found
    /// before any tree search: the score is a proven win, but the move was not weighed
    /// against the others by the search.
    pub const THREAT_WIN: u8 = 1;
    /// The opponent threatens to make five: the best move is a forced block.
    pub const FORCED: u8 = 2;
    /// The record has no search score (its score is 0): it comes from another engine's
    /// game (`import`), which gives the move and the result only.
    pub const NO_SCORE: u8 = 4;
    /// The position is not on the game's path: a move the search did not choose was
    /// played instead of its best (`datagen --side-positions`), and the record's score
    /// is a search of the position after it. The result field is 0 and means nothing;
    /// the score is the whole value target. Never set with [`NO_SCORE`]. New in version 2.
    pub const OFF_PATH: u8 = 8;
    /// Every bit the format defines; the others must be 0.
    pub const ALL: u8 = THREAT_WIN | FORCED | NO_SCORE | OFF_PATH;
}

/// What a file holds: the rule and the board size, the same for every record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
}

impl Header {
    /// A header, checking the board size (5 to 32 each way, as [`Board::new`] takes).
    pub fn new(rule: Rule, width: usize, height: usize) -> Result<Header> {
        let ok = MIN_SIZE..=MAX_SIZE;
        ensure!(
            ok.contains(&width) && ok.contains(&height),
            "board {width}x{height}: each side must be {MIN_SIZE} to {MAX_SIZE}"
        );
        Ok(Header {
            rule,
            width,
            height,
        })
    }

    /// Squares on the board.
    pub fn squares(&self) -> usize {
        self.width * self.height
    }

    /// Bytes of one stone plane: a bit per square, rounded up to whole bytes.
    fn plane_bytes(&self) -> usize {
        self.squares().div_ceil(8)
    }

    /// Bytes of one record.
    pub fn record_bytes(&self) -> usize {
        FIXED_BYTES + 2 * self.plane_bytes()
    }

    /// The header's bytes.
    pub fn encode(&self) -> [u8; HEADER_BYTES] {
        let mut h = [0u8; HEADER_BYTES];
        h[..8].copy_from_slice(&MAGIC);
        h[8..10].copy_from_slice(&VERSION.to_le_bytes());
        h[10] = self.rule.info_number() as u8;
        h[11] = self.width as u8;
        h[12] = self.height as u8;
        h[13] = 0;
        h[14..16].copy_from_slice(&(self.record_bytes() as u16).to_le_bytes());
        h
    }

    /// Reads a header, checking each field.
    pub fn decode(h: &[u8; HEADER_BYTES]) -> Result<Header> {
        ensure!(
            h[..8] == MAGIC,
            "not a Fivefold data file (it does not start with {:?})",
            std::str::from_utf8(&MAGIC).unwrap_or_default()
        );
        let version = u16::from_le_bytes([h[8], h[9]]);
        ensure!(
            version == 1 || version == VERSION,
            "format version {version}; this build reads versions 1 and {VERSION}"
        );
        let rule = Rule::from_info(i64::from(h[10]))
            .filter(|r| r.info_number() == i64::from(h[10]))
            .ok_or_else(|| anyhow!("unknown rule number {} in the header", h[10]))?;
        ensure!(h[13] == 0, "reserved header byte 13 is {}, not 0", h[13]);
        let header = Header::new(rule, usize::from(h[11]), usize::from(h[12]))?;
        let size = usize::from(u16::from_le_bytes([h[14], h[15]]));
        ensure!(
            size == header.record_bytes(),
            "the header gives {size} bytes a record; a {}x{} board needs {}",
            header.width,
            header.height,
            header.record_bytes()
        );
        Ok(header)
    }
}

/// The game's result from the side to move's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    Loss,
    Draw,
    Win,
}

impl GameResult {
    /// The result for `me` of a game `winner` won (`None`: a draw).
    pub fn for_side(winner: Option<Color>, me: Color) -> GameResult {
        match winner {
            None => GameResult::Draw,
            Some(c) if c == me => GameResult::Win,
            Some(_) => GameResult::Loss,
        }
    }

    /// The byte in a record: 1 win, 0 draw, -1 loss (as an `i8`).
    pub fn to_i8(self) -> i8 {
        match self {
            GameResult::Loss => -1,
            GameResult::Draw => 0,
            GameResult::Win => 1,
        }
    }

    fn from_i8(v: i8) -> Option<GameResult> {
        match v {
            -1 => Some(GameResult::Loss),
            0 => Some(GameResult::Draw),
            1 => Some(GameResult::Win),
            _ => None,
        }
    }
}

/// A search score as a record stores it: the engine's own scale, an evaluation held
/// within ±28999 and a proven result as the engine writes it, `30000 - n` for a five
/// of the side to move in `n` plies (its best move counted) and `-(30000 - n)` for one
/// of the opponent (see [`crate::core::types::MATE`]).
pub fn encode_score(s: Score) -> i16 {
    if is_mate(s) {
        s.clamp(-MATE, MATE) as i16
    } else {
        s.clamp(-(MATE_BOUND - 1), MATE_BOUND - 1) as i16
    }
}

/// Plies to the five of a stored score that is a proven result: positive when the
/// side to move makes it, negative when the opponent does; `None` for an evaluation.
pub fn score_mate_plies(s: i16) -> Option<i32> {
    mate_plies(Score::from(s))
}

/// One position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game it comes from, numbered from 0 in the run that wrote the file.
    pub game: u32,
    /// Moves played so far, which is the number of stones on the board.
    pub ply: u16,
    /// The search's best move, as the square index `y * width + x`.
    pub best: u16,
    /// The search's score for the side to move (see [`encode_score`]).
    pub score: i16,
    pub side_to_move: Color,
    /// How the game ended, for the side to move.
    pub result: GameResult,
    /// [`flags`] bits.
    pub flags: u8,
    /// The stones, square `y * width + x` at that index.
    pub stones: Vec<Option<Color>>,
}

impl Record {
    /// The stones of `b`, square `y * width + x` at that index.
    pub fn stones_of(b: &Board) -> Vec<Option<Color>> {
        b.squares().map(|p| b.stone(p)).collect()
    }

    /// The square index of `p` on a board `width` wide.
    pub fn index_of(p: Pos, width: usize) -> u16 {
        (p.y() * width + p.x()) as u16
    }

    /// The best move as a square.
    pub fn best_pos(&self, h: &Header) -> Pos {
        let i = usize::from(self.best);
        Pos::new(i % h.width, i / h.width)
    }

    /// The position on a board: the stones placed (black's, then white's, row by row:
    /// the order of the game is not recorded) and the side to move set.
    pub fn to_board(&self, h: &Header) -> Result<Board> {
        let mut b = Board::new(h.width, h.height, h.rule).map_err(|e| anyhow!(e))?;
        for c in [Color::Black, Color::White] {
            for (i, s) in self.stones.iter().enumerate() {
                if *s == Some(c) {
                    b.make_color(Pos::new(i % h.width, i / h.width), c);
                }
            }
        }
        b.set_side_to_move(self.side_to_move);
        Ok(b)
    }

    /// Appends the record's bytes to `out`. The stones must cover the header's board.
    pub fn encode(&self, h: &Header, out: &mut Vec<u8>) {
        assert_eq!(self.stones.len(), h.squares(), "stones of another board");
        out.extend_from_slice(&self.game.to_le_bytes());
        out.extend_from_slice(&self.ply.to_le_bytes());
        out.extend_from_slice(&self.best.to_le_bytes());
        out.extend_from_slice(&self.score.to_le_bytes());
        out.push(self.side_to_move as u8);
        out.push(self.result.to_i8() as u8);
        out.push(self.flags);
        out.push(0);
        for c in [Color::Black, Color::White] {
            let mut plane = vec![0u8; h.plane_bytes()];
            for (i, s) in self.stones.iter().enumerate() {
                if *s == Some(c) {
                    plane[i / 8] |= 1 << (i % 8);
                }
            }
            out.extend_from_slice(&plane);
        }
    }

    /// Reads a record of `h.record_bytes()` bytes, checking that it describes a
    /// possible position.
    pub fn decode(h: &Header, bytes: &[u8]) -> Result<Record> {
        ensure!(
            bytes.len() == h.record_bytes(),
            "a record is {} bytes, not {}",
            h.record_bytes(),
            bytes.len()
        );
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let game = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let ply = u16_at(4);
        let best = u16_at(6);
        let score = u16_at(8) as i16;
        let side_to_move = match bytes[10] {
            0 => Color::Black,
            1 => Color::White,
            v => bail!("side to move is {v}, not 0 (black) or 1 (white)"),
        };
        let result = GameResult::from_i8(bytes[11] as i8)
            .ok_or_else(|| anyhow!("result is {}, not 1, 0 or -1", bytes[11] as i8))?;
        let flags = bytes[12];
        ensure!(flags & !flags::ALL == 0, "unknown flags {flags:#04x}");
        ensure!(
            flags & (flags::NO_SCORE | flags::OFF_PATH) != flags::NO_SCORE | flags::OFF_PATH,
            "flags {flags:#04x}: an off-path record without a score has no value target"
        );
        ensure!(
            flags & flags::OFF_PATH == 0 || bytes[11] == 0,
            "an off-path record's result is {}, not 0",
            bytes[11] as i8
        );
        ensure!(bytes[13] == 0, "reserved byte 13 is {}, not 0", bytes[13]);
        ensure!(
            score.unsigned_abs() <= MATE as u16,
            "score {score} is beyond ±{MATE}"
        );
        let p = h.plane_bytes();
        let (black, white) = bytes[FIXED_BYTES..].split_at(p);
        let bit = |plane: &[u8], i: usize| plane[i / 8] >> (i % 8) & 1 == 1;
        for i in h.squares()..8 * p {
            ensure!(
                !bit(black, i) && !bit(white, i),
                "a stone beyond the last square"
            );
        }
        let mut stones = Vec::with_capacity(h.squares());
        for i in 0..h.squares() {
            stones.push(match (bit(black, i), bit(white, i)) {
                (false, false) => None,
                (true, false) => Some(Color::Black),
                (false, true) => Some(Color::White),
                (true, true) => bail!("square {i} holds both a black and a white stone"),
            });
        }
        let count = stones.iter().filter(|s| s.is_some()).count();
        ensure!(
            count == usize::from(ply),
            "{count} stones on the board at ply {ply}"
        );
        ensure!(
            usize::from(best) < h.squares() && stones[usize::from(best)].is_none(),
            "best move {best} is not an empty square"
        );
        Ok(Record {
            game,
            ply,
            best,
            score,
            side_to_move,
            result,
            flags,
            stones,
        })
    }
}

/// Writes a file: the header at once, then one record at a time.
pub struct Writer<W: Write> {
    inner: W,
    header: Header,
    buf: Vec<u8>,
    written: u64,
}

impl<W: Write> Writer<W> {
    /// Writes the header to `inner`.
    pub fn new(mut inner: W, header: Header) -> std::io::Result<Writer<W>> {
        inner.write_all(&header.encode())?;
        Ok(Writer {
            inner,
            header,
            buf: Vec::with_capacity(header.record_bytes()),
            written: 0,
        })
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Writes one record.
    pub fn write(&mut self, r: &Record) -> std::io::Result<()> {
        self.buf.clear();
        r.encode(&self.header, &mut self.buf);
        self.inner.write_all(&self.buf)?;
        self.written += 1;
        Ok(())
    }

    /// Records written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Flushes and hands back the inner writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.inner.flush()?;
        Ok(self.inner)
    }
}

/// Reads a file record by record (also an iterator of `Result<Record>`).
pub struct Reader<R: Read> {
    inner: R,
    header: Header,
    buf: Vec<u8>,
    /// Records read so far.
    read: u64,
    failed: bool,
}

impl<R: Read> Reader<R> {
    /// Reads and checks the header.
    pub fn new(mut inner: R) -> Result<Reader<R>> {
        let mut h = [0u8; HEADER_BYTES];
        let n = read_full(&mut inner, &mut h).context("cannot read the header")?;
        ensure!(
            n == HEADER_BYTES,
            "the file ends inside its header ({n} of {HEADER_BYTES} bytes)"
        );
        let header = Header::decode(&h)?;
        Ok(Reader {
            inner,
            header,
            buf: vec![0u8; header.record_bytes()],
            read: 0,
            failed: false,
        })
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The next record, `None` at the end of the file. A record cut short or impossible
    /// is an error naming it (counted from 0).
    fn next_record(&mut self) -> Result<Option<Record>> {
        let i = self.read;
        let n = read_full(&mut self.inner, &mut self.buf)
            .with_context(|| format!("cannot read record {i}"))?;
        if n == 0 {
            return Ok(None);
        }
        ensure!(
            n == self.buf.len(),
            "the file ends inside record {i} ({n} of {} bytes): truncated",
            self.buf.len()
        );
        let r = Record::decode(&self.header, &self.buf).with_context(|| format!("record {i}"))?;
        self.read += 1;
        Ok(Some(r))
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Record>;

    /// The next record; after an error, `None`.
    fn next(&mut self) -> Option<Result<Record>> {
        if self.failed {
            return None;
        }
        let r = self.next_record().transpose();
        self.failed = matches!(r, Some(Err(_)));
        r
    }
}

/// Reads as many bytes as fill `buf` or as there are before the end; the count read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Reads a whole stream: the header and every record.
pub fn read(r: impl Read) -> Result<(Header, Vec<Record>)> {
    let reader = Reader::new(r)?;
    let header = *reader.header();
    let records = reader.collect::<Result<Vec<_>>>()?;
    Ok((header, records))
}

/// Reads a whole file: the header and every record.
pub fn read_file(path: &Path) -> Result<(Header, Vec<Record>)> {
    let f = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    read(std::io::BufReader::new(f)).with_context(|| format!("in {}", path.display()))
}

/// Writes a whole file: the header and `records`.
pub fn write(w: impl Write, header: Header, records: &[Record]) -> std::io::Result<()> {
    let mut writer = Writer::new(w, header)?;
    for r in records {
        writer.write(r)?;
    }
    writer.finish().map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::mate_in;

    /// A few records on `h`'s board: stones along the top rows, alternating colours.
    fn sample(h: &Header) -> Vec<Record> {
        (0..5u16)
            .map(|ply| {
                let mut stones = vec![None; h.squares()];
                for k in 0..usize::from(ply) {
                    // Spread over the board, the last square included.
                    let i = (k * 37 + h.squares() - 1) % h.squares();
                    stones[i] = Some(if k % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    });
                }
                let best = (0..h.squares()).find(|&i| stones[i].is_none()).unwrap() as u16;
                Record {
                    game: u32::from(ply) * 1000 + 7,
                    ply,
                    best,
                    score: [0, -35, 120, encode_score(mate_in(5)), -29_990][usize::from(ply)],
                    side_to_move: if ply % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                    result: [GameResult::Win, GameResult::Draw, GameResult::Loss]
                        [usize::from(ply) % 3],
                    flags: [
                        0,
                        flags::THREAT_WIN,
                        flags::FORCED,
                        flags::THREAT_WIN | flags::FORCED | flags::NO_SCORE,
                        flags::OFF_PATH,
                    ][usize::from(ply)],
                    stones,
                }
            })
            .collect()
    }

    fn bytes_of(h: Header, records: &[Record]) -> Vec<u8> {
        let mut out = Vec::new();
        write(&mut out, h, records).unwrap();
        out
    }

    #[test]
    fn records_read_back_as_written_on_every_board() {
        for (rule, w, hgt) in [
            (Rule::Freestyle, 15, 15),
            (Rule::Renju, 15, 15),
            (Rule::Exact, 20, 20),
            (Rule::CaroExact, 5, 5),
            (Rule::Caro, 32, 32),
            (Rule::Freestyle, 9, 13),
        ] {
            let h = Header::new(rule, w, hgt).unwrap();
            let records = sample(&h);
            let bytes = bytes_of(h, &records);
            assert_eq!(bytes.len(), HEADER_BYTES + records.len() * h.record_bytes());
            let (h2, back) = read(&bytes[..]).unwrap();
            assert_eq!(h2, h);
            assert_eq!(back, records);
        }
    }

    #[test]
    fn the_layout_is_as_documented() {
        let h = Header::new(Rule::Renju, 15, 15).unwrap();
        assert_eq!((h.plane_bytes(), h.record_bytes()), (29, 72));
        assert_eq!(
            h.encode(),
            [b'F', b'I', b'V', b'E', b'D', b'A', b'T', b'A', 2, 0, 4, 15, 15, 0, 72, 0]
        );
        let mut stones = vec![None; 225];
        stones[0] = Some(Color::Black); // a15 in h8 notation: x 0, y 0
        stones[9] = Some(Color::White);
        let r = Record {
            game: 0x0102_0304,
            ply: 2,
            best: 112,
            score: -300,
            side_to_move: Color::Black,
            result: GameResult::Loss,
            flags: flags::FORCED,
            stones,
        };
        let mut out = Vec::new();
        r.encode(&h, &mut out);
        assert_eq!(out.len(), 72);
        assert_eq!(
            &out[..14],
            &[4, 3, 2, 1, 2, 0, 112, 0, 0xD4, 0xFE, 0, 0xFF, 2, 0]
        );
        assert_eq!(out[14], 1); // black plane: square 0 is bit 0 of byte 0
        assert_eq!(out[14 + 29 + 1], 2); // white plane: square 9 is bit 1 of byte 1
                                         // Two stones, two bits in the planes.
        assert_eq!(out[14..].iter().map(|b| b.count_ones()).sum::<u32>(), 2);
        assert_eq!(r.best_pos(&h), Pos::new(7, 7));
        assert_eq!(Record::index_of(Pos::new(7, 7), 15), 112);
    }

    #[test]
    fn scores_keep_the_engines_scale_and_mates() {
        assert_eq!(encode_score(0), 0);
        assert_eq!(encode_score(-431), -431);
        assert_eq!(encode_score(28_999), 28_999);
        assert_eq!(encode_score(mate_in(7)), 29_993);
        assert_eq!(encode_score(-mate_in(4)), -29_996);
        assert_eq!(score_mate_plies(29_993), Some(7));
        assert_eq!(score_mate_plies(-29_996), Some(-4));
        assert_eq!(score_mate_plies(500), None);
        assert_eq!(encode_score(40_000), 30_000);
    }

    #[test]
    fn a_record_becomes_its_board() {
        let h = Header::new(Rule::Freestyle, 15, 15).unwrap();
        let r = &sample(&h)[3];
        let b = r.to_board(&h).unwrap();
        assert_eq!(b.move_count(), 3);
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(Record::stones_of(&b), r.stones);
    }

    #[test]
    fn bad_headers_are_errors() {
        let h = Header::new(Rule::Freestyle, 15, 15).unwrap();
        let good = bytes_of(h, &sample(&h));
        let fails = |change: &dyn Fn(&mut Vec<u8>), msg: &str| {
            let mut b = good.clone();
            change(&mut b);
            let e = read(&b[..]).unwrap_err();
            assert!(format!("{e:#}").contains(msg), "{msg}: {e:#}");
        };
        fails(&|b| b[0] = b'X', "not a Fivefold data file");
        fails(&|b| b[8] = 3, "format version 3");
        // Version 1 is the same layout without the off-path flag.
        let mut v1 = good.clone();
        v1[8] = 1;
        assert_eq!(read(&v1[..]).unwrap(), read(&good[..]).unwrap());
        fails(&|b| b[10] = 3, "unknown rule number 3");
        fails(&|b| b[10] = 2, "unknown rule number 2");
        fails(&|b| b[11] = 4, "each side must be 5 to 32");
        fails(&|b| b[12] = 33, "each side must be 5 to 32");
        fails(&|b| b[13] = 1, "reserved header byte");
        fails(&|b| b[14] = 70, "the header gives 70 bytes a record");
        fails(&|b| b.truncate(10), "ends inside its header");
        assert!(Header::new(Rule::Renju, 4, 15).is_err());
    }

    #[test]
    fn truncated_or_corrupt_records_are_errors_not_panics() {
        let h = Header::new(Rule::Freestyle, 15, 15).unwrap();
        let records = sample(&h);
        let good = bytes_of(h, &records);
        let at = |k: usize, i: usize| HEADER_BYTES + k * h.record_bytes() + i;
        let fails = |change: &dyn Fn(&mut Vec<u8>), msg: &str| {
            let mut b = good.clone();
            change(&mut b);
            let e = read(&b[..]).unwrap_err();
            assert!(format!("{e:#}").contains(msg), "{msg}: {e:#}");
        };
        fails(&|b| b.truncate(b.len() - 1), "ends inside record 4");
        fails(&|b| b.truncate(at(2, 30)), "ends inside record 2");
        fails(&|b| b[at(1, 10)] = 2, "side to move is 2");
        fails(&|b| b[at(1, 11)] = 5, "result is 5");
        fails(&|b| b[at(1, 12)] = 0x80, "unknown flags");
        fails(&|b| b[at(1, 12)] = 12, "has no value target");
        fails(
            &|b| {
                b[at(1, 12)] = flags::OFF_PATH;
                b[at(1, 11)] = 1;
            },
            "an off-path record's result is 1",
        );
        fails(&|b| b[at(1, 13)] = 1, "reserved byte 13");
        fails(&|b| b[at(1, 9)] = 0x7F, "beyond ±30000");
        fails(&|b| b[at(0, 4)] = 3, "0 stones on the board at ply 3");
        fails(&|b| b[at(1, 6)] = 0xFF, "best move");
        // A square with both colours, and a stone past the last square.
        fails(
            &|b| {
                b[at(0, 14)] |= 1;
                b[at(0, 14 + 29)] |= 1;
            },
            "square 0 holds both a black and a white stone",
        );
        fails(&|b| b[at(0, 14 + 28)] |= 0x80, "beyond the last square");
        // The error names the record, and the reader stops after it.
        let mut b = good.clone();
        b[at(3, 10)] = 9;
        let mut reader = Reader::new(&b[..]).unwrap();
        assert!(reader.by_ref().take(3).all(|r| r.is_ok()));
        let e = reader.next().unwrap().unwrap_err();
        assert!(format!("{e:#}").starts_with("record 3: "), "{e:#}");
        assert!(reader.next().is_none());
        // Random damage anywhere never panics.
        let mut rng = crate::core::rng::XorShift64::new(7);
        for _ in 0..2000 {
            use crate::core::rng::Rng;
            let mut b = good.clone();
            let i = rng.below(b.len());
            b[i] ^= 1 << rng.below(8);
            let cut = rng.below(b.len() + 1);
            b.truncate(cut);
            let _ = read(&b[..]);
        }
    }

    #[test]
    fn a_missing_file_is_an_error_with_its_name() {
        let e = read_file(Path::new("/nonexistent/x.data")).unwrap_err();
        assert!(format!("{e:#}").contains("cannot open /nonexistent/x.data"));
    }
}

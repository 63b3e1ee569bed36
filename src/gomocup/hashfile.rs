//! `YXHASHDUMP path` / `YXHASHLOAD path`: the transposition table written to a file and
//! read back (the format: [`crate::engine::tt`]). A dump is only loaded under the rule and
//! board size it was written for ([`context`]); any problem with a file is an error that
//! leaves the table as it was.

use crate::core::types::Rule;
use crate::engine::memory::MAX_HASH_BYTES;
use crate::engine::tt::{read_dump_header, DUMP_ENTRY_BYTES, DUMP_HEADER_BYTES};
use crate::engine::Engine;
use std::fs::File;
use std::io::{BufWriter, Read};
use std::path::{Path, PathBuf};

/// The context a dump is written with and checked against: the rule and the board size
/// (a position key means the same position only on the same board under the same rule).
pub fn context(rule: Rule, width: usize, height: usize) -> u32 {
    ((rule as u32) << 16) | ((width as u32 & 0xFF) << 8) | (height as u32 & 0xFF)
}

/// The file a dump is written to before it takes the place of `path`, so that a failed
/// write never leaves half a dump under the name asked for.
fn partial(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

/// Writes the engine's table to `path`; returns the number of entries written.
pub fn dump(engine: &Engine, path: &Path, context: u32) -> Result<u64, String> {
    if path.as_os_str().is_empty() || path.file_name().is_none() {
        return Err("no file name given".into());
    }
    let tmp = partial(path);
    let written = File::create(&tmp)
        .map_err(|e| format!("cannot create {}: {e}", tmp.display()))
        .and_then(|f| {
            let mut w = BufWriter::new(f);
            let n = engine
                .dump_hash(context, &mut w)
                .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
            let f = w
                .into_inner()
                .map_err(|e| format!("cannot write {}: {}", tmp.display(), e.error()))?;
            f.sync_all()
                .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
            Ok(n)
        });
    let n = match written {
        Ok(n) => n,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {}: {e}", path.display())
    })?;
    Ok(n)
}

/// Replaces the engine's table contents with the dump at `path`; returns the number of
/// entries read. Every check is made before the table is touched.
pub fn load(engine: &mut Engine, path: &Path, context: u32) -> Result<u64, String> {
    let mut f = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let len = f
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .len();
    // The header first: a file is read whole only when its length is the one announced
    // and no larger than the biggest table could dump.
    let mut head = [0u8; DUMP_HEADER_BYTES];
    let got = read_up_to(&mut f, &mut head)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let header = read_dump_header(&head[..got])?;
    let most = MAX_HASH_BYTES / DUMP_ENTRY_BYTES as u64;
    if header.entries > most || header.file_len() != Some(len) {
        return Err(format!(
            "the file has {len} bytes, but its header announces {} entries: truncated or damaged",
            header.entries
        ));
    }
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(len as usize)
        .map_err(|_| format!("not enough memory to read {len} bytes"))?;
    bytes.extend_from_slice(&head);
    f.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    engine.load_hash(context, &bytes)
}

/// Reads until `buf` is full or the file ends; returns the bytes read.
fn read_up_to(f: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::board::Board;
    use crate::core::types::Pos;
    use crate::engine::search::Limits;
    use crate::engine::StopToken;

    #[test]
    fn a_searched_table_survives_dump_clear_and_load() {
        let dir = std::env::temp_dir().join(format!("fivefold-hashfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("table.dump");
        let mut engine = Engine::new(1 << 20);
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 8), (8, 6)] {
            b.make(Pos::new(x, y));
        }
        let limits = Limits {
            max_depth: Some(6),
            ..Limits::default()
        };
        engine.think(&b, &limits, &StopToken::new(), &mut |_| {});
        // The entries of the positions after each move (the root itself is not stored).
        let stored = |engine: &Engine| -> Vec<(u64, Option<crate::engine::tt::Entry>)> {
            let mut c = b.clone();
            let squares: Vec<Pos> = c.squares().filter(|&p| c.is_empty(p)).collect();
            squares
                .into_iter()
                .map(|p| {
                    c.make(p);
                    let key = c.hash();
                    c.unmake();
                    (key, engine.probe_hash(key))
                })
                .collect()
        };
        let root = stored(&engine);
        assert!(root.iter().filter(|e| e.1.is_some()).count() > 3);
        let ctx = context(Rule::Freestyle, 15, 15);
        let n = dump(&engine, &path, ctx).unwrap();
        assert!(n > 100, "{n}");
        assert!(!partial(&path).exists());
        engine.clear_hash();
        assert!(stored(&engine).iter().all(|e| e.1.is_none()));
        // The wrong rule or size, a missing file: errors, the table untouched.
        for ctx in [
            context(Rule::Renju, 15, 15),
            context(Rule::Freestyle, 20, 20),
        ] {
            assert!(load(&mut engine, &path, ctx).is_err());
        }
        assert!(load(&mut engine, &dir.join("missing"), ctx).is_err());
        assert_eq!(engine.hash_usage(), 0);
        assert_eq!(load(&mut engine, &path, ctx), Ok(n));
        assert_eq!(stored(&engine), root);
        // A truncated file.
        let bytes = std::fs::read(&path).unwrap();
        let cut = dir.join("cut.dump");
        std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
        let e = load(&mut engine, &cut, ctx).unwrap_err();
        assert!(e.contains("truncated"), "{e}");
        assert_eq!(stored(&engine), root);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

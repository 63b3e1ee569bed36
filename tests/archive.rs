//! `train/archive.sh`, the data kept from session to session: packing `datagen` files
//! with their MANIFEST lines, unpacking them byte for byte, listing them as `train`
//! options, and refusing or catching what is wrong (a truncated file, a member packed
//! twice, an archive or MANIFEST that does not match); and `train/dedupe-openings.py`.
//! Each test says SKIPPED where `xz` (or `python3`) is not installed.

mod common;

use common::{run, Run};
use fivefold::tools::data;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder for one test's files.
fn scratch(test: &str) -> PathBuf {
    common::scratch("archive", test)
}

fn have_xz() -> bool {
    let ok = Command::new("xz").arg("--version").output().is_ok();
    if !ok {
        eprintln!("SKIPPED: no xz on this machine");
    }
    ok
}

/// Runs `train/archive.sh ARGS` with its archive folder at `archive`: status, stdout
/// and stderr.
fn archive(archive: &Path, args: &[&str]) -> (bool, String, String) {
    archive_from(Path::new(env!("CARGO_MANIFEST_DIR")), archive, args)
}

/// [`archive`] called from the folder `cwd`.
fn archive_from(cwd: &Path, archive: &Path, args: &[&str]) -> (bool, String, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("train/archive.sh");
    let out = Command::new("bash")
        .arg(script)
        .args(args)
        .env("ARCHIVE", archive)
        .current_dir(cwd)
        .output()
        .expect("bash runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A small datagen file of `games` 9x9 games.
fn small_file(path: &Path, games: &str, seed: &str) {
    let Run { code, err, .. } = run(&[
        "datagen",
        "--out",
        path.to_str().unwrap(),
        "--games",
        games,
        "--nodes",
        "200",
        "--size",
        "9",
        "--threads",
        "1",
        "--seed",
        seed,
    ]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn packed_files_come_back_byte_for_byte_as_manifest_lists_them() {
    if !have_xz() {
        return;
    }
    let dir = scratch("roundtrip");
    let arch = dir.join("archive");
    let (a, b) = (dir.join("a-s1.data"), dir.join("b-s2.data"));
    small_file(&a, "3", "1");
    small_file(&b, "2", "2");
    let (ok, out, err) = archive(
        &arch,
        &["pack", "first", a.to_str().unwrap(), b.to_str().unwrap()],
    );
    assert!(ok, "{err}");
    assert!(out.contains("first.tar.xz"), "{out}");
    assert!(arch.join("first.tar.xz").is_file());

    // MANIFEST: one line a member, with the record count the reader finds.
    let manifest = std::fs::read_to_string(arch.join("MANIFEST")).unwrap();
    let lines: Vec<&str> = manifest.lines().collect();
    assert_eq!(lines.len(), 2, "{manifest}");
    for (line, file) in lines.iter().zip([&a, &b]) {
        let f: Vec<&str> = line.split(' ').collect();
        let (_, records) = data::read_file(file).unwrap();
        assert_eq!(f[0], "first.tar.xz");
        assert_eq!(f[1], file.file_name().unwrap().to_str().unwrap());
        assert_eq!(f[2], records.len().to_string(), "{line}");
        assert_eq!(f[3].len(), 64, "{line}");
    }

    let (ok, out, err) = archive(&arch, &["check"]);
    assert!(ok, "{err}");
    assert!(out.contains("2 files"), "{out}");

    let unpacked = dir.join("unpacked");
    let (ok, _, err) = archive(&arch, &["unpack", unpacked.to_str().unwrap()]);
    assert!(ok, "{err}");
    for file in [&a, &b] {
        let back = unpacked.join(file.file_name().unwrap());
        assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(file).unwrap());
    }
    let (ok, out, err) = archive(&arch, &["list", "u"]);
    assert!(ok, "{err}");
    assert_eq!(out, "--data u/a-s1.data\n--data u/b-s2.data\n");

    // A validation archive: listed for --held-out; unpacking by pattern takes only it.
    let c = dir.join("c-s3.data");
    small_file(&c, "1", "3");
    let (ok, _, err) = archive(&arch, &["pack", "val-second", c.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (_, out, _) = archive(&arch, &["list", "u"]);
    assert_eq!(
        out,
        "--data u/a-s1.data\n--data u/b-s2.data\n--held-out u/c-s3.data\n"
    );
    let (_, out, _) = archive(&arch, &["list", "u", "val-*"]);
    assert_eq!(out, "--held-out u/c-s3.data\n");
    let only = dir.join("only");
    let (ok, out, err) = archive(&arch, &["unpack", only.to_str().unwrap(), "val-*"]);
    assert!(ok, "{err}");
    assert!(out.contains("1 files"), "{out}");
    assert!(only.join("c-s3.data").is_file() && !only.join("a-s1.data").exists());
    let (ok, out, _) = archive(&arch, &["check"]);
    assert!(ok && out.contains("3 files"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pack_reads_files_named_relative_to_where_it_is_called() {
    if !have_xz() {
        return;
    }
    // Several files of one folder, named as a session names them (`gen/*.data` from its
    // own folder, not the repository's): each is found, and none leaves a broken archive.
    let dir = scratch("relative");
    let arch = dir.join("archive");
    std::fs::create_dir_all(dir.join("gen")).unwrap();
    std::fs::create_dir_all(dir.join("more")).unwrap();
    let files = ["gen/a-s1.data", "gen/b-s2.data", "more/c-s3.data"];
    for (i, f) in files.iter().enumerate() {
        small_file(&dir.join(f), "1", &(i + 1).to_string());
    }
    let mut args = vec!["pack", "rel"];
    args.extend(files);
    let (ok, out, err) = archive_from(&dir, &arch, &args);
    assert!(ok, "{err}");
    assert!(out.contains("3 files"), "{out}");
    // The folder to unpack into is named from there too.
    let unpacked = dir.join("unpacked");
    let (ok, _, err) = archive_from(&dir, &arch, &["unpack", "unpacked"]);
    assert!(ok, "{err}");
    for f in files {
        let name = Path::new(f).file_name().unwrap();
        assert_eq!(
            std::fs::read(unpacked.join(name)).unwrap(),
            std::fs::read(dir.join(f)).unwrap()
        );
    }

    // A file that is not there: refused, with no archive and no MANIFEST line left.
    let (ok, _, err) = archive_from(&dir, &arch, &["pack", "gone", "gen/none.data"]);
    assert!(!ok);
    assert!(err.contains("none.data"), "{err}");
    assert!(!arch.join("gone.tar.xz").exists());
    let manifest = std::fs::read_to_string(arch.join("MANIFEST")).unwrap();
    assert_eq!(manifest.lines().count(), 3, "{manifest}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_files_and_mismatches_are_refused() {
    if !have_xz() {
        return;
    }
    let dir = scratch("refused");
    let arch = dir.join("archive");
    let a = dir.join("a-s1.data");
    small_file(&a, "2", "1");

    // A file cut inside a record is not packed, and no archive is left.
    let bytes = std::fs::read(&a).unwrap();
    let cut = dir.join("cut.data");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    let (ok, _, err) = archive(&arch, &["pack", "cut", cut.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("whole"), "{err}");
    assert!(!arch.join("cut.tar.xz").exists());
    // Nor is a file that is not datagen's.
    let other = dir.join("other.data");
    std::fs::write(&other, b"not a datagen file at all").unwrap();
    let (ok, _, err) = archive(&arch, &["pack", "other", other.to_str().unwrap()]);
    assert!(!ok && err.contains("FIVEDATA"), "{err}");

    // A member packed twice.
    let (ok, _, err) = archive(&arch, &["pack", "one", a.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (ok, _, err) = archive(&arch, &["pack", "two", a.to_str().unwrap()]);
    assert!(!ok && err.contains("in MANIFEST already"), "{err}");
    assert!(!arch.join("two.tar.xz").exists());

    // A MANIFEST whose count or checksum is not the member's.
    let manifest = arch.join("MANIFEST");
    let good = std::fs::read_to_string(&manifest).unwrap();
    let f: Vec<&str> = good.trim_end().split(' ').collect();
    let wrong_count = format!(
        "{} {} {} {}\n",
        f[0],
        f[1],
        f[2].parse::<u64>().unwrap() + 1,
        f[3]
    );
    std::fs::write(&manifest, wrong_count).unwrap();
    let (ok, _, err) = archive(&arch, &["check"]);
    assert!(!ok && err.contains("MANIFEST says"), "{err}");
    let wrong_sum = format!("{} {} {} {}\n", f[0], f[1], f[2], "0".repeat(64));
    std::fs::write(&manifest, wrong_sum).unwrap();
    let (ok, _, err) = archive(&arch, &["check"]);
    assert!(!ok && err.contains("checksum"), "{err}");
    std::fs::write(&manifest, &good).unwrap();
    let (ok, _, err) = archive(&arch, &["check"]);
    assert!(ok, "{err}");

    // An archive not in MANIFEST, and one MANIFEST names that is missing.
    std::fs::copy(arch.join("one.tar.xz"), arch.join("stray.tar.xz")).unwrap();
    let (ok, _, err) = archive(&arch, &["check"]);
    assert!(!ok && err.contains("not in MANIFEST"), "{err}");
    std::fs::remove_file(arch.join("stray.tar.xz")).unwrap();
    std::fs::rename(arch.join("one.tar.xz"), dir.join("moved.tar.xz")).unwrap();
    let (ok, _, err) = archive(&arch, &["check"]);
    assert!(!ok && err.contains("not in"), "{err}");

    // A damaged archive.
    let mut damaged = std::fs::read(dir.join("moved.tar.xz")).unwrap();
    let mid = damaged.len() / 2;
    damaged[mid] ^= 0x55;
    std::fs::write(arch.join("one.tar.xz"), damaged).unwrap();
    let (ok, _, err) = archive(&arch, &["check"]);
    assert!(!ok, "a damaged archive passed: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `train/dedupe-openings.py`: an opening is dropped when a reference line or an earlier
/// kept line has the same stones up to rotation, reflection and shift, colours included;
/// `--shuffle` changes the order, not the set.
#[test]
fn dedupe_drops_openings_equal_up_to_symmetry_and_shift() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("SKIPPED: no python3 on this machine");
        return;
    }
    let dir = scratch("dedupe");
    let reference = dir.join("ref.txt");
    // h8 (black) i9 (white) g10 (black).
    std::fs::write(&reference, "h8i9g10\n").unwrap();
    let input = dir.join("in.txt");
    let lines = [
        "c3d4b5",     // the reference shifted: dropped
        "h8g9i10",    // mirrored left-right: dropped
        "h8i7g6",     // mirrored top-bottom: dropped
        "i9h8j7",     // turned half round: dropped
        "h8g10i9",    // the reference's squares, another stone white: kept
        "h8i9g11",    // another shape: kept
        "e5f6d8",     // the kept "h8i9g11" shifted: dropped
        "h8i9g10j11", // four stones: kept
    ];
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("train/dedupe-openings.py");
    let dedupe = |out: &Path, extra: &[&str]| {
        let o = Command::new("python3")
            .arg(&script)
            .arg(out)
            .arg(&input)
            .arg("--")
            .arg(&reference)
            .args(extra)
            .output()
            .expect("python3 runs");
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{err}");
        assert!(err.contains("kept 3, dropped 5"), "{err}");
        std::fs::read_to_string(out).unwrap()
    };
    let kept = dedupe(&dir.join("out.txt"), &[]);
    assert_eq!(kept, "h8g10i9\nh8i9g11\nh8i9g10j11\n");
    let shuffled = dedupe(&dir.join("shuffled.txt"), &["--shuffle", "3"]);
    let mut a: Vec<&str> = kept.lines().collect();
    let mut b: Vec<&str> = shuffled.lines().collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    let _ = std::fs::remove_dir_all(&dir);
}

//! `fivefold-tools style` run as a real process on a file of recorded games.

mod common;

fn style(args: &[&str]) -> (String, String, Option<i32>) {
    let r = common::run(&[&["style"], args].concat());
    (r.out, r.err, r.code)
}

#[test]
fn style_reports_each_players_moves_by_colour() {
    let dir = std::env::temp_dir().join(format!("fivefold-style-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.sgf");
    // Two games on the same opening with the players' colours swapped, as a match
    // runner plays them; then one record that is not a game.
    std::fs::write(
        &file,
        "(;FF[4]GM[4]SZ[15]RU[0]PB[eng-a]PW[eng-b]RE[B+1];B[hh]C[opening move];W[ai]C[opening move];B[ih];W[jh];B[hi])\n\
         (;FF[4]GM[4]SZ[15]RU[0]PB[eng-b]PW[eng-a]RE[B+1];B[hh]C[opening move];W[ai]C[opening move];B[ih];W[jh];B[hi])\n\
         (;FF[4]GM[4]SZ[15];B[hh];W[hh])\n",
    )
    .unwrap();
    let (out, err, code) = style(&["--sgf", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("2 games (1 skipped)"), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[1].contains("makes") && lines[1].contains("takes"),
        "{out}"
    );
    // Each player twice, once per colour, in name order: black moves 2, white moves 1.
    let rows: Vec<Vec<&str>> = lines[2..]
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let names: Vec<(&str, &str, &str)> = rows.iter().map(|r| (r[0], r[1], r[2])).collect();
    assert_eq!(
        names,
        vec![
            ("eng-a", "black", "2"),
            ("eng-a", "white", "1"),
            ("eng-b", "black", "2"),
            ("eng-b", "white", "1"),
        ],
        "{out}"
    );
    // White's j8 makes nothing and takes the square where black's open two h8 i8
    // would become an open three.
    assert_eq!(
        rows[1][3..9],
        ["100.0%", "0.0%", "0.0%", "0.0%", "0.0%", "0.0%"],
        "{out}"
    );
    assert_eq!(
        rows[1][9..15],
        ["0.0%", "0.0%", "0.0%", "100.0%", "0.0%", "0.0%"],
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();

    let (_, err, code) = style(&["--sgf", "/nonexistent/games.sgf"]);
    assert_eq!(code, Some(2));
    assert!(err.starts_with("error: cannot read"), "{err}");
}

//! `rafle board`: SVG diagrams, drawn by a real browser (headless Chromium) and checked in its
//! screenshot and in the DOM it parsed.

mod common;

use common::{Scratch, browser};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Colours of the renderer (`src/diagram/mod.rs`), as the screenshot shows them.
const DARK_SQUARE: [u8; 3] = [0xa4, 0x70, 0x3f];
const LIGHT_SQUARE: [u8; 3] = [0xf0, 0xe2, 0xc0];
const WHITE_PIECE: [u8; 3] = [0xfb, 0xfb, 0xf6];
const BLACK_PIECE: [u8; 3] = [0x26, 0x26, 0x26];
const CROWN_ON_BLACK: [u8; 3] = [0xf2, 0xc2, 0x30];
/// Anti-aliasing and colour management move colours a little.
const TOLERANCE: u8 = 6;
/// Browser window for a 10x10 diagram of the default size (412 px square).
const WINDOW: u32 = 500;

fn scratch(name: &str) -> Scratch {
    common::scratch("diagram", name)
}

fn board(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_rafle"))
        .arg("board")
        .args(args)
        .output()
        .expect("rafle runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn write_svg(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let path = dir.join(format!("{name}.svg"));
    let mut all = args.to_vec();
    let path_text = path.to_string_lossy().into_owned();
    all.extend(["--svg", &path_text]);
    let (ok, _, stderr) = board(&all);
    assert!(ok, "rafle board failed: {stderr}");
    path
}

#[test]
#[cfg_attr(
    not(rafle_has_chromium),
    ignore = "needs Chromium: apt-get install chromium chromium-driver"
)]
fn start_position_in_a_browser() {
    let dir = scratch("start");
    let svg = write_svg(&dir, "start", &[]);
    let chromium = browser::chromium();
    let shot = browser::screenshot(&chromium, &svg, &dir.join("start.png"), WINDOW, WINDOW);
    assert_eq!((shot.width, shot.height), (WINDOW, WINDOW));
    assert!(shot.colours() > 10, "the screenshot is blank");
    // 50 dark squares of 40x40 px, 40 of them under a piece (a disc of radius 16 covers ~800 px).
    let dark = shot.count_near(DARK_SQUARE, TOLERANCE);
    assert!(
        (20_000..60_000).contains(&dark),
        "dark square pixels: {dark}"
    );
    assert!(shot.count_near(LIGHT_SQUARE, TOLERANCE) > 70_000);
    let white = shot.count_near(WHITE_PIECE, TOLERANCE);
    let black = shot.count_near(BLACK_PIECE, TOLERANCE);
    assert!(
        white > 20 * 500 && black > 20 * 500,
        "white {white}, black {black}"
    );
    assert_eq!(shot.count_near(CROWN_ON_BLACK, TOLERANCE), 0, "no kings");
    let dom = browser::dom(&chromium, &svg, &dir);
    assert_eq!(dom.matches("class=\"square\"").count(), 50, "{dom}");
    assert_eq!(dom.matches("class=\"piece white man\"").count(), 20);
    assert_eq!(dom.matches("class=\"piece black man\"").count(), 20);
    assert_eq!(dom.matches("<circle").count(), 80, "two circles a piece");
}

#[test]
#[cfg_attr(
    not(rafle_has_chromium),
    ignore = "needs Chromium: apt-get install chromium chromium-driver"
)]
fn kings_numbers_and_arrow_in_a_browser() {
    let dir = scratch("kings");
    let svg = write_svg(
        &dir,
        "kings",
        &[
            "--fen",
            "[FEN \"W:WK28,33,K47:B22,K19,45\"]",
            "--numbers",
            "--arrow",
            "28x17",
        ],
    );
    let chromium = browser::chromium();
    let shot = browser::screenshot(&chromium, &svg, &dir.join("kings.png"), WINDOW, WINDOW);
    assert!(shot.colours() > 10, "the screenshot is blank");
    assert!(
        shot.count_near(CROWN_ON_BLACK, TOLERANCE) > 50,
        "a black king's crown"
    );
    let dom = browser::dom(&chromium, &svg, &dir);
    assert_eq!(dom.matches("class=\"piece white king\"").count(), 2);
    assert_eq!(dom.matches("class=\"piece black king\"").count(), 1);
    assert_eq!(dom.matches("class=\"piece black man\"").count(), 2);
    assert_eq!(dom.matches("class=\"crown\"").count(), 3);
    assert_eq!(dom.matches("class=\"number\"").count(), 50);
    assert_eq!(dom.matches("class=\"arrow\"").count(), 1);
    assert_eq!(dom.matches("class=\"captured\"").count(), 1);
}

#[test]
fn every_variant_draws_its_start_position() {
    for (variant, squares, men) in [
        ("russian", 32, 24),
        ("spanish", 32, 24),
        ("italian", 32, 24),
        ("canadian", 72, 60),
        ("thai", 32, 16),
    ] {
        let (ok, svg, stderr) = board(&["--variant", variant, "--numbers"]);
        assert!(ok, "{variant}: {stderr}");
        assert_eq!(
            svg.matches("class=\"square\"").count(),
            squares,
            "{variant}"
        );
        assert_eq!(svg.matches("class=\"piece ").count(), men, "{variant}");
        assert_eq!(
            svg.matches("class=\"number\"").count(),
            squares,
            "{variant}"
        );
    }
}

#[test]
fn moves_draw_the_last_one() {
    let (ok, svg, stderr) = board(&["--moves", "1. 32-28 19-23 2. 28x19"]);
    assert!(ok, "{stderr}");
    assert_eq!(svg.matches("class=\"arrow\"").count(), 1);
    assert_eq!(svg.matches("class=\"captured\"").count(), 1);
    assert_eq!(svg.matches("class=\"piece ").count(), 39);
}

#[test]
fn bad_input_is_a_clear_error() {
    for (args, expected) in [
        (vec!["--fen", "W:W31-50:B1-99"], "bad FEN"),
        (vec!["--moves", "32-28 28-22"], "move 2 '28-22'"),
        (vec!["--arrow", "50-45"], "--arrow '50-45'"),
        (vec!["--size", "0"], "--size"),
    ] {
        let (ok, _, stderr) = board(&args);
        assert!(!ok, "{args:?}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

//! A real Hub client: pydraughts' `HubEngine` plays a complete game against `rafle hub`
//! (tools/hub_client.py), every move checked by pydraughts' own move generator.
//!
//! Needs Python with pydraughts in `tools/.venv` (`.ci/run` creates it). Without it the tests are
//! reported as ignored, with the command that installs it (`build.rs`).

mod common;

use std::path::PathBuf;
use std::process::Command;

/// Runs tools/hub_client.py: one game at depth 3 between two `rafle hub` engines, the pydraughts
/// variant `variant`, the Hub `variant` parameter `hub_variant` (none sent when `None`).
fn play_through_hub_engine(variant: &str, hub_variant: Option<&str>) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let python = common::python_with_pydraughts();
    let mut command = Command::new(python);
    command.arg(root.join("tools/hub_client.py")).args([
        "--engine",
        env!("CARGO_BIN_EXE_rafle"),
        "--variant",
        variant,
        "--games",
        "1",
        "--depth",
        "3",
    ]);
    if let Some(hub_variant) = hub_variant {
        command.args(["--hub-variant", hub_variant]);
    }
    let output = command.output().expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{variant}: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("game 1: ok"), "{variant}: {stdout}");
}

#[test]
#[cfg_attr(
    not(rafle_has_pydraughts),
    ignore = "needs pydraughts: python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts && touch build.rs"
)]
fn pydraughts_hub_engine_plays_a_game() {
    play_through_hub_engine("standard", None);
}

/// pydraughts sends Brazilian and Russian positions in the lidraughts numbering order and moves
/// numbered from a1 (see src/notation/hub.rs).
#[test]
#[cfg_attr(
    not(rafle_has_pydraughts),
    ignore = "needs pydraughts: python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts && touch build.rs"
)]
fn pydraughts_hub_engine_plays_brazilian_and_russian() {
    play_through_hub_engine("brazilian", Some("brazilian"));
    play_through_hub_engine("russian", Some("russian"));
}

/// pydraughts has no Killer rules; every Killer move is also an international move (Killer only
/// narrows where a king stops), so its international board referees the game.
#[test]
#[cfg_attr(
    not(rafle_has_pydraughts),
    ignore = "needs pydraughts: python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts && touch build.rs"
)]
fn pydraughts_hub_engine_plays_killer() {
    play_through_hub_engine("standard", Some("killer"));
}

/// pydraughts plays Turkish draughts (all 64 squares, orthogonal moves); it numbers the squares
/// 1-64 from a8, as Rafle's Turkish board does.
#[test]
#[cfg_attr(
    not(rafle_has_pydraughts),
    ignore = "needs pydraughts: python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts && touch build.rs"
)]
fn pydraughts_hub_engine_plays_turkish() {
    play_through_hub_engine("turkish", Some("turkish"));
}

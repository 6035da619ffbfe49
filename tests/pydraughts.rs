//! A real Hub client: pydraughts' `HubEngine` plays a complete game against `rafle hub`
//! (tools/hub_client.py), every move checked by pydraughts' own move generator.
//!
//! Needs Python with pydraughts in `tools/.venv` (`.ci/run` creates it). Without it the test is
//! skipped with a message, unless `RAFLE_REQUIRE_PYDRAUGHTS` is set (as CI does).

use std::path::PathBuf;
use std::process::Command;

#[test]
fn pydraughts_hub_engine_plays_a_game() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let python = root.join("tools/.venv/bin/python");
    if !python.exists() {
        assert!(
            std::env::var_os("RAFLE_REQUIRE_PYDRAUGHTS").is_none(),
            "tools/.venv is missing: run `python3 -m venv tools/.venv && tools/.venv/bin/pip install pydraughts`"
        );
        eprintln!("skipped: no tools/.venv with pydraughts (see .ci/run)");
        return;
    }
    let output = Command::new(python)
        .arg(root.join("tools/hub_client.py"))
        .args([
            "--engine",
            env!("CARGO_BIN_EXE_rafle"),
            "--games",
            "1",
            "--depth",
            "3",
        ])
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("game 1: ok"), "{stdout}");
}

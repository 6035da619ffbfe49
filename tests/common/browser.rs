//! Headless Chromium for the tests of pages and diagrams: a screenshot (decoded, to check that
//! something was drawn) and the DOM as the browser parsed it (to check the SVG elements).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Longest a page may take to render before the test fails.
const RENDER_TIMEOUT: Duration = Duration::from_secs(60);
/// The flags this sandbox needs (root, no GPU, a closed network; see `.ci/run`).
pub const FLAGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
];

/// The Chromium binary, as `build.rs` found it. The tests that call this are
/// `#[cfg_attr(not(rafle_has_chromium), ignore = "...")]`.
pub fn chromium() -> PathBuf {
    // Only an ignored test run anyway (`--include-ignored`) gets here without it.
    match option_env!("RAFLE_TEST_CHROMIUM") {
        Some(path) => PathBuf::from(path),
        None => panic!(
            "Chromium was not found when the tests were built (build.rs): README.md says how to install it"
        ),
    }
}

/// A decoded RGBA screenshot.
pub struct Screenshot {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl Screenshot {
    /// Pixels within `tolerance` (per channel) of `rgb`.
    pub fn count_near(&self, rgb: [u8; 3], tolerance: u8) -> usize {
        self.rgba
            .chunks_exact(4)
            .filter(|p| (0..3).all(|i| p[i].abs_diff(rgb[i]) <= tolerance))
            .count()
    }

    /// Number of distinct colours (a blank page has one).
    pub fn colours(&self) -> usize {
        let mut seen: Vec<[u8; 3]> = self
            .rgba
            .chunks_exact(4)
            .map(|p| [p[0], p[1], p[2]])
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }
}

/// Runs Chromium to completion and returns its standard output. Its output goes to files, not
/// pipes: a DOM dump larger than a pipe's buffer would block it while we wait.
fn run_chromium(chromium: &Path, profile: &Path, args: &[String]) -> String {
    std::fs::create_dir_all(profile).expect("profile directory");
    let stdout_path = profile.join("stdout.txt");
    let stderr_path = profile.join("stderr.txt");
    let mut child = Command::new(chromium)
        .args(FLAGS)
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .stdout(std::fs::File::create(&stdout_path).expect("stdout file"))
        .stderr(std::fs::File::create(&stderr_path).expect("stderr file"))
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > RENDER_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within {RENDER_TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    assert!(status.success(), "chromium failed ({status}): {stderr}");
    std::fs::read_to_string(&stdout_path).expect("chromium output")
}

/// Renders `page` (a local file) at `width` x `height` and decodes the screenshot, which is also
/// kept at `png` for a person to look at.
pub fn screenshot(chromium: &Path, page: &Path, png: &Path, width: u32, height: u32) -> Screenshot {
    let profile = png.with_extension("profile");
    run_chromium(
        chromium,
        &profile,
        &[
            format!("--window-size={width},{height}"),
            format!("--screenshot={}", png.display()),
            format!("file://{}", page.display()),
        ],
    );
    decode(&std::fs::read(png).expect("screenshot written"))
}

/// Decodes a PNG screenshot.
pub fn decode(png_bytes: &[u8]) -> Screenshot {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut buffer).expect("PNG frame");
    let rgba = match info.color_type {
        png::ColorType::Rgba => buffer[..info.buffer_size()].to_vec(),
        png::ColorType::Rgb => buffer[..info.buffer_size()]
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("unexpected screenshot colour type {other:?}"),
    };
    Screenshot {
        width: info.width,
        height: info.height,
        rgba,
    }
}

/// The DOM of `page` as Chromium parsed it, serialised.
pub fn dom(chromium: &Path, page: &Path, scratch: &Path) -> String {
    run_chromium(
        chromium,
        &scratch.join("dom-profile"),
        &[
            "--dump-dom".to_string(),
            format!("file://{}", page.display()),
        ],
    )
}

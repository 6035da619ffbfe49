//! Hub protocol sessions against the real `rafle hub` binary.

mod common;

use common::hub::Engine;
use rafle::notation::{hub as hub_position, text};
use rafle::position::Position;
use rafle::rules::International;
use std::time::{Duration, Instant};

/// `done` must follow `stop` within this (median of several trials).
const STOP_LATENCY: Duration = Duration::from_millis(50);

fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = line.find(&format!("{key}="))? + key.len() + 1;
    let rest = &line[start..];
    if let Some(quoted) = rest.strip_prefix('"') {
        quoted.split('"').next()
    } else {
        rest.split_whitespace().next()
    }
}

fn legal_in_start(mv: &str) -> bool {
    text::parse(&Position::<International>::start(), mv).is_ok()
}

#[test]
fn handshake_and_parameters() {
    let mut engine = Engine::start();
    engine.send("hub");
    let lines = engine.until("wait");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("param name=variant value=normal type=enum"))
    );
    // As in Scan's shipped settings, the book is on unless a GUI turns it off.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("param name=book value=true type=bool"))
    );
    for name in ["threads", "hash", "ponder", "book"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("param name={name} "))),
            "{name} in {lines:?}"
        );
    }
    engine.send("set-param name=threads value=2");
    engine.send("set-param name=hash value=8");
    engine.send("set-param name=variant value=international");
    engine.send("set-param name=unknown-parameter value=1");
    engine.send("init");
    assert_eq!(engine.next(), "ready");
    engine.quit();
}

/// Every `info` line, the first iterations' too, carries `time=` and `nps=`, which GUIs show.
#[test]
fn every_info_line_has_time_and_speed() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("pos start");
    engine.send("level depth=8");
    engine.send("go analyze");
    let lines = engine.until("done");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ")).collect();
    assert!(infos.len() >= 8, "{lines:?}");
    for info in infos {
        assert!(value(info, "time").is_some(), "{info}");
        assert!(value(info, "nps").is_some(), "{info}");
    }
    engine.quit();
}

#[test]
fn each_limit_type_ends_with_one_done() {
    let mut engine = Engine::start();
    engine.handshake();
    for level in [
        "level depth=5",
        "level nodes=20000",
        "level move-time=0.2",
        "level time=2 inc=0.1",
        "level moves=40 time=5",
    ] {
        engine.send("pos start");
        engine.send(level);
        engine.send("go think");
        let lines = engine.until("done");
        let done = lines.last().expect("done");
        let mv = value(done, "move").expect("move=");
        assert!(done.starts_with("done move="), "{done}");
        assert!(legal_in_start(mv), "{level}: {mv}");
        if level == "level depth=5" {
            let depths: Vec<&str> = lines.iter().filter_map(|l| value(l, "depth")).collect();
            assert_eq!(depths.last(), Some(&"5"), "{lines:?}");
        }
        assert!(
            engine.no_output_for(Duration::from_millis(100)),
            "a second done after {level}"
        );
    }
    engine.quit();
}

#[test]
fn stop_during_analyze_answers_quickly() {
    let mut engine = Engine::start();
    engine.handshake();
    let mut latencies = Vec::new();
    for _ in 0..5 {
        engine.send("pos start");
        engine.send("level infinite");
        engine.send("go analyze");
        engine.until("info");
        std::thread::sleep(Duration::from_millis(200));
        engine.send("ping");
        assert_eq!(
            engine.until("pong").last().map(String::as_str),
            Some("pong")
        );
        let sent = Instant::now();
        engine.send("stop");
        let lines = engine.until("done");
        latencies.push(sent.elapsed());
        assert!(value(lines.last().expect("done"), "move").is_some_and(legal_in_start));
    }
    latencies.sort();
    assert!(
        latencies[2] < STOP_LATENCY,
        "median stop latency {:?}",
        latencies[2]
    );
    engine.quit();
}

#[test]
fn ponder_then_hit_or_stop() {
    let mut engine = Engine::start();
    engine.handshake();
    // ponder-hit: the search goes on under the clock and ends by itself.
    engine.send("pos start moves=\"32-28\"");
    engine.send("level time=1 inc=0");
    engine.send("go ponder");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("ponder-hit");
    let lines = engine.until("done");
    assert!(lines.last().expect("done").starts_with("done move="));
    // ponder then stop: done comes at once.
    engine.send("pos start moves=\"32-28\"");
    engine.send("level time=100");
    engine.send("go ponder");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("stop");
    let lines = engine.until("done");
    assert!(lines.last().expect("done").starts_with("done move="));
    // While pondering with a tiny clock the engine must not stop on its own.
    engine.send("pos start");
    engine.send("level time=0.05");
    engine.send("go ponder");
    let mut finished_early = false;
    let deadline = Instant::now() + Duration::from_millis(400);
    while Instant::now() < deadline {
        if let Some(line) = engine.line_within(Duration::from_millis(50))
            && line.starts_with("done")
        {
            finished_early = true;
        }
    }
    engine.send("stop");
    if !finished_early {
        engine.until("done");
    }
    engine.quit();
}

#[test]
fn malformed_input_never_kills_the_engine() {
    let mut engine = Engine::start();
    engine.handshake();
    let barrage = [
        "",
        "   ",
        "foo bar=1",
        "=",
        "\"",
        "pos moves=\"32-28",
        "level move-time=abc",
        "level depth=x",
        "level nodes=999999999999999999999999999",
        "level time=1e400",
        "set-param name=threads value=x",
        "set-param name=threads value=100000",
        "set-param name=variant value=chess",
        "set-param name=ponder value=maybe",
        "set-param value=3",
        "pos pos=Wxyz",
        "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwq",
        "pos start moves=\"junk\"",
        "pos start moves=\"32-29\"",
        "pos start moves=\"32-28 19-23 28x19\"",
        "pos fen=W:W99",
        "go sideways",
    ];
    for line in barrage {
        engine.send(line);
    }
    // Random bytes, including invalid UTF-8 and control characters.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..20 {
        let mut bytes = Vec::new();
        for _ in 0..40 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let byte = (state >> 24) as u8;
            if byte != b'\n' {
                bytes.push(byte);
            }
        }
        bytes.push(b'\n');
        engine.send_bytes(&bytes);
    }
    // `go sideways` (a `go think`) is still searching: malformed lines leave it running.
    engine.send("stop");
    engine.send("ping");
    let lines = engine.until("pong");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error message=\"bad line\""))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error message=\"illegal move\""))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error message=\"bad position\""))
    );
    // The illegal `pos` lines left the previous position: `go` searches the start position.
    engine.send("pos start");
    engine.send("pos start moves=\"32-28 19-23 99-1\"");
    engine.send("level depth=2");
    engine.send("go think");
    let done = engine.until("done");
    assert!(
        value(done.last().expect("done"), "move").is_some_and(legal_in_start),
        "{done:?}"
    );
    engine.quit();
}

#[test]
fn go_before_init_and_quit_during_search() {
    let mut engine = Engine::start();
    engine.send("pos start");
    engine.send("level depth=3");
    engine.send("go think");
    assert!(
        engine
            .until("done")
            .last()
            .expect("done")
            .starts_with("done move=")
    );
    engine.send("level infinite");
    engine.send("go analyze");
    engine.until("info");
    engine.quit();
}

#[test]
fn self_play_game_through_the_hub() {
    let mut engine = Engine::start();
    engine.handshake();
    let mut position = Position::<International>::start();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..120 {
        if position.legal_moves().is_empty() {
            break;
        }
        engine.send(&format!(
            "pos pos={} moves=\"{}\"",
            hub_position::format(&Position::<International>::start()),
            moves.join(" ")
        ));
        engine.send("level depth=4");
        engine.send("go think");
        let done = engine.until("done");
        let reply = value(done.last().expect("done"), "move")
            .expect("a move")
            .to_string();
        let mv = text::parse(&position, &reply).unwrap_or_else(|e| panic!("{reply}: {e}"));
        assert_eq!(
            text::hub::<International>(&mv),
            reply,
            "moves are written in Hub form"
        );
        position = position.play(&mv);
        moves.push(reply);
    }
    assert!(moves.len() >= 40, "{moves:?}");
    engine.quit();
}

#[test]
fn a_bad_weights_file_is_an_error_and_the_evaluation_in_use_stays() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("set-param name=eval value=patterns");
    engine.send("set-param name=eval-file value=/nonexistent/weights.bin");
    let error = engine.next();
    assert!(
        error.starts_with("error message=\"bad value\"") && error.contains("eval-file"),
        "{error}"
    );
    engine.send("set-param name=eval value=neural");
    assert!(engine.next().starts_with("error"));
    engine.send("pos start");
    engine.send("level nodes=5000");
    engine.send("go think");
    let done = engine.until("done");
    let mv = value(done.last().expect("a done line"), "move").expect("a move");
    assert!(legal_in_start(mv), "{mv}");
    engine.quit();
}

#[test]
fn weaker_levels_answer_fast_with_varied_legal_moves() {
    let mut engine = Engine::start();
    engine.send("hub");
    let lines = engine.until("wait");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("param name=skill value=20 type=int min=1 max=20")),
        "{lines:?}"
    );
    for bad in ["0", "21", "x"] {
        engine.send(&format!("set-param name=skill value={bad}"));
        assert!(engine.next().starts_with("error"), "skill {bad}");
    }
    engine.send("set-param name=book value=false");
    engine.send("set-param name=skill value=1");
    engine.send("init");
    assert_eq!(engine.next(), "ready");
    let mut chosen = std::collections::BTreeSet::new();
    for _ in 0..12 {
        engine.send("pos start");
        // A long move time: the level's node limit, not the clock, ends the search.
        engine.send("level move-time=30");
        let started = Instant::now();
        engine.send("go think");
        let done = engine.until("done");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "level 1 is slow"
        );
        let mv = value(done.last().expect("done"), "move").expect("move=");
        assert!(legal_in_start(mv), "{mv}");
        chosen.insert(mv.to_string());
    }
    assert!(chosen.len() >= 2, "level 1 always chose {chosen:?}");
    engine.quit();
}

#[test]
fn multi_pv_analysis_numbers_its_lines() {
    let mut engine = Engine::start();
    engine.send("hub");
    let lines = engine.until("wait");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("param name=multi-pv value=1 type=int min=1")),
        "{lines:?}"
    );
    engine.send("set-param name=multi-pv value=3");
    engine.send("init");
    assert_eq!(engine.next(), "ready");
    engine.send("pos start");
    engine.send("level depth=6");
    engine.send("go analyze");
    let lines = engine.until("done");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info")).collect();
    for depth in 1..=6 {
        let mut firsts: Vec<&str> = infos
            .iter()
            .filter(|l| value(l, "depth") == Some(&depth.to_string()))
            .map(|l| {
                assert!(value(l, "line").is_some(), "{l}");
                value(l, "pv")
                    .expect("pv=")
                    .split_whitespace()
                    .next()
                    .unwrap()
            })
            .collect();
        assert_eq!(firsts.len(), 3, "depth {depth}: {infos:?}");
        firsts.sort_unstable();
        firsts.dedup();
        assert_eq!(
            firsts.len(),
            3,
            "distinct lines at depth {depth}: {infos:?}"
        );
    }
    // A move to play is one line, and its info lines stay as Scan writes them.
    engine.send("pos start");
    engine.send("level depth=4");
    engine.send("go think");
    let lines = engine.until("done");
    assert!(
        lines.iter().all(|l| value(l, "line").is_none()),
        "{lines:?}"
    );
    engine.quit();
}

#[test]
fn frisian_through_the_hub_by_scans_name() {
    let mut engine = Engine::start();
    engine.send("hub");
    engine.until("wait");
    engine.send("set-param name=book value=false");
    // Scan 3.1 calls the variant `frisian`.
    engine.send("set-param name=variant value=frisian");
    engine.send("init");
    engine.until("ready");
    // Rule position F2: the only legal move goes up the column over 37, then takes the king on 22
    // (a king and a man outweigh the two men 36 could take along its row).
    engine.send("pos fen=W:W36,47:B37,39,K22");
    engine.send("level depth=3");
    engine.send("go think");
    let done = engine.until("done");
    assert_eq!(
        value(done.last().expect("done"), "move"),
        Some("47x18x22x37"),
        "{done:?}"
    );
    engine.quit();
}

/// Nodes of the last `info` before `done`: the search's whole count.
fn nodes_of_search(engine: &mut Engine) -> u64 {
    let lines = engine.until("done");
    lines
        .iter()
        .rev()
        .find_map(|line| value(line, "nodes"))
        .and_then(|nodes| nodes.parse().ok())
        .expect("info lines with nodes")
}

/// `set-param` applies only what it names: a book setting keeps the transposition table (a
/// second search of the same position then costs what it costs without the setting in between),
/// while a real change of evaluation clears it (the search costs what a first one does), and
/// setting the evaluation in use changes nothing.
#[test]
fn set_param_changes_only_what_it_names() {
    let searches = |between: &[&str]| -> (u64, u64) {
        let mut engine = Engine::start();
        engine.handshake();
        engine.send("pos start");
        engine.send("level depth=9");
        engine.send("go analyze");
        let first = nodes_of_search(&mut engine);
        for line in between {
            engine.send(line);
        }
        engine.send("pos start");
        engine.send("level depth=9");
        engine.send("go analyze");
        let second = nodes_of_search(&mut engine);
        engine.quit();
        (first, second)
    };
    let (first, warm) = searches(&[]);
    assert!(
        warm < first,
        "the table helps the second search: {first} then {warm}"
    );
    for kept in [
        "set-param name=book-ply value=6",
        "set-param name=book-margin value=10",
        "set-param name=skill value=20",
        "set-param name=multi-pv value=1",
        "set-param name=eval value=patterns",
        "set-param name=hash value=64",
    ] {
        assert_eq!(searches(&[kept]).1, warm, "{kept} kept the table");
    }
    let (_, cleared) = searches(&["set-param name=eval value=hand"]);
    let (_, again) = searches(&[
        "set-param name=eval value=hand",
        "set-param name=eval value=patterns",
    ]);
    assert_ne!(cleared, warm, "another evaluation searches afresh");
    assert_ne!(
        again, warm,
        "a changed evaluation clears the table even when changed back"
    );
}

/// On a virtual clock (`level nodes-time=N`) time passes as nodes: the same position gets the
/// same move and node count whatever the machine's load, `done` says the count, and the count
/// stays within the time manager's hard limit at that rate. Without it, `done` is Scan's.
#[test]
fn a_virtual_clock_counts_time_in_nodes() {
    // 5 s + 0.05 s at 100 nodes a millisecond: a per-move budget of about 28,000 nodes, a hard
    // limit of four times that (the time manager's factor), plus one poll interval.
    const RATE: u64 = 100;
    const MOST_NODES: u64 = 4 * 28_500 + 1024;
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("set-param name=book value=false");
    let mut moves = Vec::new();
    for _ in 0..2 {
        engine.send("new-game");
        engine.send("pos start moves=\"32-28 18-23\"");
        engine.send(&format!("level time=5 inc=0.05 nodes-time={RATE}"));
        engine.send("go think");
        let lines = engine.until("done");
        let done = lines.last().expect("done").clone();
        let nodes: u64 = value(&done, "nodes")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no nodes= in {done}"));
        assert!((1..=MOST_NODES).contains(&nodes), "{done}");
        moves.push((value(&done, "move").map(str::to_string), nodes));
    }
    assert_eq!(moves[0], moves[1]);
    engine.send("level time=5 inc=0.05");
    engine.send("go think");
    let lines = engine.until("done");
    assert!(
        value(lines.last().expect("done"), "nodes").is_none(),
        "{lines:?}"
    );
    engine.quit();
}

//! `rafle match`: engine-against-engine matches and round robins (see [`rafle::matches`]).

use clap::{ArgMatches, Args};
use rafle::matches::clock::TimeControl;
use rafle::matches::engine::EngineSpec;
use rafle::matches::hub_engine::Timeouts;
use rafle::matches::openings::{self, Opening};
use rafle::matches::referee::{GameConditions, ScoreAdjudication};
use rafle::matches::stats::Sprt;
use rafle::matches::test_log::TestLog;
use rafle::matches::{self, MatchConfig};
use rafle::rules::{Rules, Variant};
use rafle::with_variant;
use std::path::PathBuf;
use std::time::Duration;

/// The built-in opening set of international draughts: `books/openings-2ply.txt`.
const BUILT_IN_OPENINGS: &str = include_str!("../../books/openings-2ply.txt");
/// Most games played at once.
const MAX_CONCURRENCY: u64 = 256;

const ENGINE_HELP: &str = "\
Engines:
  --engine takes KEY=VALUE words:
    cmd=\"PROGRAM ARGS\"   the command line (required); quotes group words, no other shell syntax.
                         A relative PROGRAM with a '/' is looked up in dir= first, then here.
    name=NAME            the name in output and PDN (default: the engine's `id name`)
    dir=DIR              working directory (Scan needs its own: it reads scan.ini and data/)
    proto=hub|dxp        the protocol: Hub (default), or DXP for an engine that listens at an address:
                         cmd=dxp://HOST:PORT (international draughts, --concurrency 1; the game time is
                         announced in whole minutes, and our referee keeps the real clock)
    option.NAME=VALUE    sent as `set-param name=NAME value=VALUE` before `init`
  --each takes the same words for every engine (an engine's own words win).

Examples:
  rafle match --engine cmd=\"target/release/rafle hub\" name=new \\
              --engine cmd=\"rafle-old hub\" name=old --each option.threads=1 \\
              --tc 10+0.1 --concurrency 2 --pdn new-vs-old.pdn --sprt elo0=0 elo1=5
  rafle match --engine cmd=\"scan hub\" dir=/opt/scan --engine cmd=\"dame hub\" --tc 40/60+0.5
  rafle match --engine cmd=dxp://127.0.0.1:27531 name=scan --engine cmd=\"rafle hub\" --tc 300

Each opening is played twice, colours reversed. A game is lost by an illegal move, a crash, an
`error` answer, or a move later than the clock (+ --timemargin); a hung engine is killed with its
process group and restarted; an engine that crashes or cannot be started in 3 games in a row stops
the match. Games also end by the FMJD rules and, with --adjudicate, by agreed
scores. Engine stderr goes to --log-dir, never into the protocol.";

/// The words of each `--engine` of `rafle match`, grouped by occurrence, from the parsed command
/// line.
pub fn engine_groups(arg_matches: &ArgMatches) -> Vec<Vec<String>> {
    arg_matches
        .subcommand_matches("match")
        .and_then(|sub| sub.get_occurrences::<String>("engines"))
        .map(|groups| groups.map(|words| words.cloned().collect()).collect())
        .unwrap_or_default()
}

/// Arguments of `rafle match`.
#[derive(Debug, Args)]
#[command(after_long_help = ENGINE_HELP)]
pub struct MatchArgs {
    /// An engine: cmd="PROGRAM ARGS" [name=NAME] [dir=DIR] [option.NAME=VALUE ...] (see --help).
    /// Two engines play a match, more a round robin.
    #[arg(long = "engine", required = true, num_args = 1.., value_name = "KEY=VALUE")]
    pub engines: Vec<String>,
    /// The words of each `--engine`, grouped by occurrence (filled in by [`super::run`] with
    /// [`engine_groups`]; clap's derive flattens them).
    #[arg(skip)]
    pub engine_groups: Vec<Vec<String>>,
    /// Words given to every engine, e.g. option.threads=1.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Time control: 40/60+0.5 (moves/seconds+increment), 10+0.1, 1:30+1, st=1 (seconds per
    /// move), depth=N or nodes=N.
    #[arg(long, default_value = "10+0.1")]
    pub tc: TimeControl,
    /// A virtual clock for a clock control: time passes as N nodes a millisecond, each move
    /// charged the nodes it reports (Rafle's Hub `level nodes-time=N`, `done nodes=`), so that
    /// the games do not depend on the machine's load: tests of time use beside other work.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes_time: Option<u64>,
    /// Milliseconds a move may exceed the clock by (process and pipe latency).
    #[arg(long, default_value_t = 100)]
    pub timemargin: u64,
    /// With depth= or nodes=: seconds a move may take before the engine counts as hung.
    #[arg(long, default_value_t = 60.0)]
    pub move_limit: f64,
    /// Opening set, one opening per line: FEN [moves from the start] (see `rafle openings`).
    /// Default: the built-in balanced two-move openings (international), else all two-ply
    /// openings of the variant.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Times the whole schedule is played.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub rounds: u64,
    /// Play only the first N games of the schedule.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// Games played at once (each with its own engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_CONCURRENCY))]
    pub concurrency: u64,
    /// Append every finished game to this PDN file (flushed to disk game by game).
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Continue the match recorded in --pdn: its finished games count and are not replayed.
    #[arg(long, requires = "pdn")]
    pub resume: bool,
    /// Stop when decided: elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] (logistic Elo; two engines).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Keep this test's line in a test log (tab-separated, e.g. tools/tests.tsv) up to date after
    /// every game: W/D/L, pairs, Elo, LLR, status (running, passed, failed, undecided). Needs two
    /// engines and --pdn, whose file name identifies the test.
    #[arg(long, requires = "pdn", value_name = "FILE")]
    pub test_log: Option<PathBuf>,
    /// With --test-log: what the first engine changes, in one line.
    #[arg(long, requires = "test_log", value_name = "TEXT", default_value = "")]
    pub test_note: String,
    /// With --test-log: the command that starts or resumes the test (default: this command).
    #[arg(long, requires = "test_log", value_name = "TEXT")]
    pub test_command: Option<String>,
    /// Adjudicate on agreed scores (men): draw=SCORE,MOVES,AFTER and/or win=SCORE,MOVES; MOVES
    /// (each side; default 10 for draws, 4 for wins) and AFTER (first move number; default 40)
    /// may be left out.
    #[arg(long, num_args = 1.., value_name = "RULE")]
    pub adjudicate: Vec<String>,
    /// Directory of the engines' stderr logs.
    #[arg(long, default_value = "match-logs")]
    pub log_dir: PathBuf,
    /// The PDN Event tag.
    #[arg(long, default_value = "rafle match")]
    pub event: String,
    /// Rules to play.
    #[arg(long, default_value = "international")]
    pub variant: Variant,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

/// Runs `rafle match`.
///
/// # Errors
/// A message for bad arguments, an unusable engine or PDN file.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    with_variant!(args.variant, R => run_variant::<R>(args))
}

fn run_variant<R: Rules>(args: &MatchArgs) -> Result<(), String> {
    let engines = args
        .engine_groups
        .iter()
        .map(|words| EngineSpec::parse(words, &args.each))
        .collect::<Result<Vec<_>, _>>()?;
    if !args.move_limit.is_finite() || args.move_limit <= 0.0 || args.move_limit > 1e6 {
        return Err(format!("bad --move-limit '{}'", args.move_limit));
    }
    let openings = load_openings::<R>(args)?;
    let config = MatchConfig {
        engines,
        conditions: GameConditions {
            control: args.tc,
            margin: Duration::from_millis(args.timemargin),
            move_limit: Duration::from_secs_f64(args.move_limit),
            adjudication: ScoreAdjudication::parse(&args.adjudicate)?,
            nodes_per_ms: args.nodes_time,
        },
        rounds: args.rounds as usize,
        max_games: args.games.map(|g| g as usize),
        concurrency: args.concurrency as usize,
        pdn: args.pdn.clone(),
        resume: args.resume,
        sprt: args.sprt.as_deref().map(Sprt::parse).transpose()?,
        test_log: args.test_log.as_ref().map(|path| TestLog {
            path: path.clone(),
            note: args.test_note.clone(),
            command: args.test_command.clone().unwrap_or_else(this_command),
        }),
        log_dir: args.log_dir.clone(),
        event: args.event.clone(),
        variant: args.variant,
        timeouts: Timeouts::default(),
        progress: !args.no_progress,
    };
    matches::run::<R>(&config, &openings)
}

/// This program's command line, words with spaces quoted (the test log's default command).
fn this_command() -> String {
    std::env::args()
        .map(|word| {
            if word.contains(char::is_whitespace) || word.is_empty() {
                format!("'{word}'")
            } else {
                word
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn load_openings<R: Rules>(args: &MatchArgs) -> Result<Vec<Opening<R>>, String> {
    match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("openings {}: {e}", path.display()))?;
            openings::parse_set::<R>(&text).map_err(|e| format!("openings {}: {e}", path.display()))
        }
        None if args.variant == Variant::International => {
            openings::parse_set::<R>(BUILT_IN_OPENINGS)
                .map_err(|e| format!("built-in openings: {e}"))
        }
        None => Ok(openings::enumerate::<R>(2)),
    }
}

//! `rafle analyze`: search a position and print the progress and the best line.

use super::engine_args::{self, EngineArgs, LimitsArgs, Standard, TimeDefault};
use clap::Args;
use rafle::game::Game;
use rafle::notation::text;
use rafle::player::options::{DEFAULT_LINES, LINES_RANGE};
use rafle::rules::{Rules, Variant};
use rafle::score;
use rafle::search::{Info, Mode, Root, SearchControl};
use rafle::with_variant;

/// The search time of `analyze`: long enough for a considered move.
#[derive(Clone, Copy, Debug)]
pub struct AnalyzeTime;

impl TimeDefault for AnalyzeTime {
    const SECONDS: f64 = 3.0;
}

/// What the columns of the output mean.
const AFTER_HELP: &str = "Output: one line per iteration. depth: the iteration's nominal depth \
in plies; mean: the average ply at which that iteration's lines ended (quiescence and reductions \
make it differ from depth); score: for the side to move, in men (+1.00 = one man ahead), or \
'win in N moves (M plies)' / 'loss in ...' when the end of the game is in sight (N counts the \
moves of the side to move); nodes, time, speed, and pv: the line the engine expects.";

/// Arguments of `rafle analyze`.
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub struct AnalyzeArgs {
    /// Position as a PDN FEN, or a `[FEN "..."]` tag as pasted from a PDN file (default: the
    /// start position).
    #[arg(short, long)]
    pub fen: Option<String>,
    /// Moves played from that position, e.g. "32-28 19-23 28x19".
    #[arg(short, long)]
    pub moves: Option<String>,
    /// How long to search.
    #[command(flatten)]
    pub limits: LimitsArgs<AnalyzeTime>,
    /// The engine.
    #[command(flatten)]
    pub engine: EngineArgs<Standard>,
    /// Rules to use.
    #[arg(long, default_value = "international")]
    pub variant: Variant,
    /// Answer from the opening book when it has the position (default file: the variant's
    /// shipped book); the search runs only when the position is not in the book.
    #[arg(long, value_name = "FILE")]
    pub book: Option<Option<std::path::PathBuf>>,
    /// Show this many best lines. The limit (--depth, --time or --nodes) is for the whole
    /// search, not for each line: every depth searches the best line, then the best without its
    /// first move, and so on. A position with fewer legal moves has fewer lines (the output
    /// says so).
    #[arg(long, default_value_t = DEFAULT_LINES, value_parser = clap::value_parser!(u32).range(LINES_RANGE))]
    pub multipv: u32,
}

/// Runs `rafle analyze`.
///
/// # Errors
/// A message for a bad FEN, move or time.
pub fn run(args: &AnalyzeArgs) -> Result<(), String> {
    with_variant!(args.variant, R => run_variant::<R>(args))
}

fn run_variant<R: Rules>(args: &AnalyzeArgs) -> Result<(), String> {
    let start = super::start_position::<R>(args.fen.as_deref())?;
    let game = Game::from_moves(start, super::move_words(args.moves.as_deref()))
        .map_err(|e| e.to_string())?;
    let root = Root::from_game(&game);
    let limits = args.limits.limits()?;
    // Read before anything is printed: a bad option (an endgame directory without tables) is bad
    // input, refused first.
    let setup = args.engine.setup::<R>()?;
    let engine = engine_args::engine::<R>(&setup)?;
    println!("{}", root.position);
    println!(
        "{} to move, static evaluation {}, draw counters: {}",
        root.position.side(),
        score::to_men(engine.evaluate(&root.position)),
        root.counters
    );
    match game.result() {
        Some(end) if end.result.is_draw() => {
            // The search still shows what the position holds, as `rafle hub` does.
            println!("the game is over by rule: {end} (searched anyway)");
        }
        Some(result) => {
            // No search: there is no move to find, and a score would contradict the result.
            println!("the game is over: {result}");
            return Ok(());
        }
        None => {}
    }
    if let Some(given) = &args.book {
        let (path, book) = super::open_book::<R>(given.as_deref())?;
        let moves = book.probe(&root.position);
        if let Some(best) = moves.first() {
            for book_move in &moves {
                println!(
                    "book {:<12} score {:>6}",
                    text::pdn(&root.position, &book_move.mv),
                    score::to_men(book_move.score)
                );
            }
            println!(
                "best move {}  score {}  (book)",
                text::pdn(&root.position, &best.mv),
                score::to_men(best.score)
            );
            return Ok(());
        }
        println!("not in the book {}", path.display());
    }
    if let Some(egdb) = &setup.egdb {
        match egdb.probe(&root.position) {
            Some(value) => println!("egdb {}", format!("{value:?}").to_lowercase()),
            None => println!("egdb not in the tables"),
        }
    }
    let position = root.position;
    if args.multipv > 1 {
        let lines = rafle::player::variations::best_variations(
            &engine,
            &root,
            &limits,
            Mode::Analyze,
            &SearchControl::new(),
            args.multipv as usize,
            |info: &Info<R>| {
                println!(
                    "line {}  depth {:2}  score {:>6}  nodes {:>11}  pv {}",
                    info.line,
                    info.depth,
                    rafle::score_text::for_side_to_move(info.score),
                    info.nodes,
                    text::pdn_line(&position, &info.pv)
                );
            },
        );
        super::multipv::print(&position, &lines);
        if let Some(note) = super::multipv::fewer_lines_note(
            position.legal_moves().len(),
            lines.len(),
            args.multipv as usize,
        ) {
            println!("{note}");
        }
        return Ok(());
    }
    let control = SearchControl::new();
    let outcome = engine.search(&root, &limits, Mode::Analyze, &control, |info: &Info<R>| {
        let seconds = info.elapsed.as_secs_f64();
        let mnps = if seconds > 0.0 {
            info.nodes as f64 / seconds / 1e6
        } else {
            0.0
        };
        println!(
            "depth {:2}  mean {:5.1}  score {:>6}  nodes {:>11}  time {:7.3} s  {:6.2} Mnps  pv {}",
            info.depth,
            info.mean_depth,
            rafle::score_text::for_side_to_move(info.score),
            info.nodes,
            seconds,
            mnps,
            text::pdn_line(&position, &info.pv)
        );
    });
    match outcome.best {
        Some(best) => println!(
            "best move {}  score {}  depth {}  line {}",
            text::pdn(&position, &best),
            rafle::score_text::for_side_to_move(outcome.score),
            outcome.depth,
            text::pdn_line(&position, &outcome.pv)
        ),
        None => println!("no legal move: {} has lost", position.side()),
    }
    Ok(())
}

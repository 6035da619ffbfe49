//! `rafle annotate`: review the games of a PDN file, every position searched, and write them back
//! with scores, better lines and marks (PDN comments GUIs show, and an HTML page).

use super::engine_args::{self, EngineArgs, LimitsArgs, Standard, TimeDefault};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rafle::annotate::checkpoint::{self, Checkpoint};
use rafle::annotate::html::{self, GameView};
use rafle::annotate::{self, PositionReview};
use rafle::game::Game;
use rafle::notation::pdn::{self, PdnGame};
use rafle::rules::{Rules, Variant};
use rafle::search::{Engine, Limits, SearchControl};
use rafle::with_variant;
use std::path::PathBuf;

/// The search time of each position `annotate` reviews: games have many.
#[derive(Clone, Copy, Debug)]
pub struct AnnotateTime;

impl TimeDefault for AnnotateTime {
    const SECONDS: f64 = 1.0;
}

/// Bad games listed in the error before "and N more".
const ERRORS_LISTED: usize = 5;
/// The `Annotator` tag written.
const ANNOTATOR: &str = concat!("Rafle ", env!("CARGO_PKG_VERSION"));

/// Arguments of `rafle annotate`.
#[derive(Debug, Args)]
#[command(after_help = after_help())]
pub struct AnnotateArgs {
    /// The PDN file: one game or many.
    #[arg(value_name = "GAME.pdn")]
    pub game: PathBuf,
    /// Rules of the games.
    #[arg(long, default_value = "international")]
    pub variant: Variant,
    /// How long to search each position.
    #[command(flatten)]
    pub limits: LimitsArgs<AnnotateTime>,
    /// The engine.
    #[command(flatten)]
    pub engine: EngineArgs<Standard>,
    /// Write the annotated PDN here (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also write a self-contained HTML page: move list, evaluation graph, and the diagram of
    /// every move marked as the help says, with the better line.
    #[arg(long, value_name = "FILE", help = html_help())]
    pub html: Option<PathBuf>,
    /// Keep the games already searched by an interrupted run with the same --out (its
    /// checkpoint is FILE.progress) and search only the others.
    #[arg(long, requires = "out")]
    pub resume: bool,
}

fn html_help() -> String {
    format!(
        "Also write a self-contained HTML page: move list, evaluation graph, and a diagram at \
         every move marked {} with the better line",
        annotate::Mark::with_diagram_text()
    )
}

fn after_help() -> String {
    format!(
        "Each move is scored in the same search as the engine's choice (every move of the \
         position searched); another move is named better only when it scores {} men more, or \
         wins, or wins faster, or loses slower.\nMarks: {}.\nScores are in men (1.00 = one \
         man) for the side that moved; in the PDN, [%eval] is from White's view, #N a win in N \
         of White's moves, #-N of Black's.",
        rafle::score::to_men(annotate::BETTER_MARGIN),
        annotate::thresholds_text()
    )
}

/// Runs `rafle annotate`.
///
/// # Errors
/// A message for an unreadable file, a bad game (with its place), a bad limit, or an output
/// that cannot be written.
pub fn run(args: &AnnotateArgs) -> Result<(), String> {
    with_variant!(args.variant, R => run_variant::<R>(args))
}

fn read_games<R: Rules>(args: &AnnotateArgs) -> Result<Vec<PdnGame<R>>, String> {
    let text = std::fs::read_to_string(&args.game)
        .map_err(|e| format!("cannot read {}: {e}", args.game.display()))?;
    let mut games = Vec::new();
    let mut errors = Vec::new();
    for read in pdn::read_games::<R>(&text) {
        match read {
            Ok(game) => games.push(game),
            Err(error) => errors.push(error.to_string()),
        }
    }
    if !errors.is_empty() {
        let more = errors.len().saturating_sub(ERRORS_LISTED);
        let mut message = format!(
            "{}: {} bad game(s) for {}: {}",
            args.game.display(),
            errors.len(),
            R::NAME,
            errors[..errors.len().min(ERRORS_LISTED)].join("; ")
        );
        if more > 0 {
            message.push_str(&format!("; and {more} more"));
        }
        return Err(message);
    }
    if games.is_empty() {
        return Err(format!("{}: no game found", args.game.display()));
    }
    Ok(games)
}

fn progress_bar(positions: u64) -> ProgressBar {
    let bar = ProgressBar::new(positions);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30.cyan/blue} {pos}/{len} positions  {msg}  [{elapsed_precise} < {eta}]",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Searches every position of `game`, the final one too.
fn search_game<R: Rules>(
    engine: &Engine<R, rafle::eval::Eval>,
    game: &Game<R>,
    limits: &Limits,
    bar: &ProgressBar,
) -> Vec<PositionReview<R>> {
    engine.new_game();
    let mut replay = Game::new(*game.start());
    let mut reviews = Vec::with_capacity(game.positions().len());
    for ply in 0..=game.ply_count() {
        let review = annotate::search_position(
            engine,
            &replay,
            game.moves().get(ply),
            limits,
            &SearchControl::new(),
        );
        reviews.push(review);
        bar.inc(1);
        if let Some(mv) = game.moves().get(ply) {
            // The moves were checked when the game was read.
            let _ = replay.play(mv);
        }
    }
    reviews
}

fn run_variant<R: Rules>(args: &AnnotateArgs) -> Result<(), String> {
    let limits = args.limits.limits()?;
    let games = read_games::<R>(args)?;
    let engine = engine_args::engine::<R>(&args.engine.setup::<R>()?)?;
    let mut checkpoint = match &args.out {
        Some(out) => Some(
            Checkpoint::open(&checkpoint::path_for(out), args.resume).map_err(|e| e.to_string())?,
        ),
        None => None,
    };
    let mut reviews: Vec<Option<Vec<PositionReview<R>>>> = games
        .iter()
        .enumerate()
        .map(|(index, game)| {
            checkpoint
                .as_ref()
                .and_then(|c| c.finished(index + 1, &game.game))
        })
        .collect();
    let kept = reviews.iter().filter(|r| r.is_some()).count();
    if args.resume {
        log::info!("resuming: {kept} of {} games already searched", games.len());
    }
    let to_search: u64 = games
        .iter()
        .zip(&reviews)
        .filter(|(_, r)| r.is_none())
        .map(|(g, _)| g.game.positions().len() as u64)
        .sum();
    let bar = progress_bar(to_search);
    for (index, game) in games.iter().enumerate() {
        if reviews[index].is_some() {
            continue;
        }
        bar.set_message(format!("game {}/{}", index + 1, games.len()));
        let searched = search_game(&engine, &game.game, &limits, &bar);
        if let Some(checkpoint) = checkpoint.as_mut() {
            checkpoint
                .save(index + 1, &game.game, &searched)
                .map_err(|e| format!("cannot write the checkpoint: {e}"))?;
        }
        reviews[index] = Some(searched);
    }
    bar.finish_and_clear();
    let reviews: Vec<Vec<PositionReview<R>>> = reviews.into_iter().flatten().collect();
    let moves: Vec<_> = games
        .iter()
        .zip(&reviews)
        .map(|(game, positions)| annotate::review(&game.game, positions))
        .collect();
    let mut text = String::new();
    for (game, moves) in games.iter().zip(&moves) {
        text.push_str(&annotate::pdn::write(
            &game.game,
            &game.tags,
            game.result,
            moves,
            ANNOTATOR,
        ));
    }
    match &args.out {
        Some(path) => std::fs::write(path, &text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => print!("{text}"),
    }
    if let Some(path) = &args.html {
        let views: Vec<GameView<'_, R>> = games
            .iter()
            .zip(&reviews)
            .zip(&moves)
            .map(|((game, positions), moves)| GameView {
                game: &game.game,
                tags: &game.tags,
                result: game.result,
                moves,
                positions,
            })
            .collect();
        let title = format!("Review of {}", args.game.display());
        let legend = format!(
            "Scores in men (1.00 = one man), from White's view in the graph and after each move. \
             Marks: {}.",
            annotate::thresholds_text().replace('`', "")
        );
        let page = html::page(&title, &views, &legend);
        std::fs::write(path, page).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

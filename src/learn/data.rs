//! Self-play training data: generation, the packed file format, shards and merging.
//!
//! A data file is a header followed by one block per game, each block written whole and flushed,
//! so that a killed run leaves at most one partial block at the end; [`generate`] cuts it off and
//! plays only the games that are missing (resumable). Every game is a pure function of
//! (master seed, game index, nodes, evaluator): one search thread, a fresh transposition table,
//! a node limit, no clock. A shard `i/n` plays the games whose index is `i` modulo `n`, so the
//! shards of a run, [`merge`]d (blocks sorted by game index), are byte for byte the merged
//! single run.
//!
//! A game is stored as its moves and the search's scores, not as positions: a position costs
//! three bytes instead of 28, so that millions of positions fit in files small enough to commit
//! (a machine may not come back). The positions are rebuilt by replaying the moves
//! ([`GameBlock::records`]). A move is stored as its index among the legal moves sorted by
//! (origin square, destination square, captured squares) ([`move_code`]): an order of the rules,
//! not of the move generator, so the files outlive changes to it.
//!
//! File layout, little-endian:
//! * header: [`DATA_MAGIC`] (8 bytes), [`DATA_VERSION`] (u32), [`PLY_BYTES`] (u32);
//! * block: game index (u64), result (u8: 0 Black won, 1 draw, 2 White won), random opening
//!   plies `r` (u8), searched plies `s` (u16); then `r` move codes (u8); then `s` plies of
//!   [`PLY_BYTES`]: the search score for White (i16, centi-men) and the code of the move played
//!   ([`NO_MOVE`] when the game ended after the search: adjudicated, or no move).

use crate::core::{BitBoard, Color, Geometry};
use crate::eval::{self, Evaluator};
use crate::game::{Game, GameResult};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{BitsOf, International, Rules};
use crate::score::{self, Score};
use crate::search::{Engine, Limits, Mode, Root, SEARCH_STACK_BYTES, SearchControl};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use thiserror::Error;

type I = International;

/// First bytes of a data file.
pub const DATA_MAGIC: [u8; 8] = *b"RAFLDATA";
/// Version of the layout described in the module documentation (1 stored positions).
pub const DATA_VERSION: u32 = 2;
/// Bytes of one searched ply: score (i16) and move code (u8).
pub const PLY_BYTES: usize = 3;
/// Bytes of the file header.
pub const HEADER_BYTES: usize = 16;
/// Bytes of a game block's header.
pub const BLOCK_HEADER_BYTES: usize = 12;
/// The move code of a searched ply after which no move was played.
pub const NO_MOVE: u8 = u8::MAX;

/// Transposition table of each self-play engine, in MiB (small: a fresh one per game).
const DATAGEN_HASH_MB: usize = 8;
/// Random plies at the start of each game (uniform among legal moves), at least and at most.
const RANDOM_PLIES: std::ops::RangeInclusive<usize> = 4..=9;
/// Openings whose searched score is further from equal than this are not played.
const MAX_OPENING_SCORE: Score = 150;
/// Depth of the opening check.
const OPENING_CHECK_DEPTH: u32 = 6;
/// Games longer than this are scored as draws.
const MAX_PLIES: usize = 300;
/// A side whose score stays above this for [`ADJUDICATION_PLIES`] plies is declared the winner.
const ADJUDICATION_SCORE: Score = 700;
/// See [`ADJUDICATION_SCORE`].
const ADJUDICATION_PLIES: usize = 8;
/// Positions are recorded from this ply on (after the random opening).
const FIRST_RECORDED_PLY: usize = 10;
/// Multiplier mixing the master seed with the game index.
const SEED_MIX: u64 = crate::core::mix::GOLDEN_GAMMA;

/// Why a data file cannot be read or written.
#[derive(Debug, Error)]
pub enum DataError {
    /// The file system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Not a data file, or of another version.
    #[error("{0}: not a Rafle data file of version {DATA_VERSION}")]
    BadHeader(PathBuf),
    /// A block that does not fit the file.
    #[error("{0}: truncated or corrupt game block")]
    Corrupt(PathBuf),
    /// A game whose moves cannot be replayed.
    #[error("{path}: game {game}: bad game: {reason}")]
    BadPosition {
        /// The file.
        path: PathBuf,
        /// The game index.
        game: u64,
        /// What is wrong.
        reason: String,
    },
    /// Two files hold the same game with different contents.
    #[error("game {0} appears twice with different contents")]
    Conflict(u64),
    /// A bad `--shard` value.
    #[error("bad shard {0:?}: expected i/n with 0 <= i < n")]
    BadShard(String),
    /// The thread pool could not start.
    #[error("thread pool: {0}")]
    Threads(String),
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> DataError + '_ {
    move |source| DataError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The squares of a set of bits of the board, as bit `s - 1` for square `s`.
fn squares(set: BitsOf<I>) -> u64 {
    let mut out = 0u64;
    for bit in set.iter() {
        out |= 1 << (<I as Rules>::Geometry::square_of(bit) - 1);
    }
    out
}

/// One recorded position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionRecord {
    /// White pieces, bit `s - 1` for square `s`.
    pub white: u64,
    /// Black pieces.
    pub black: u64,
    /// Kings of both sides.
    pub kings: u64,
    /// The search's score, White's view, centi-men.
    pub score: i16,
    /// Side to move.
    pub side: Color,
    /// Ply of the game (capped at 255).
    pub ply: u8,
}

impl PositionRecord {
    /// The record of a position.
    pub fn of(position: &Position<I>, white_score: Score, ply: usize) -> Self {
        PositionRecord {
            white: squares(position.pieces(Color::White)),
            black: squares(position.pieces(Color::Black)),
            kings: squares(position.all_kings()),
            score: white_score.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            side: position.side(),
            ply: ply.min(usize::from(u8::MAX)) as u8,
        }
    }
}

/// The byte of a game's result in the data: White's half-points (0, 1 or 2).
pub fn result_byte(result: GameResult) -> u8 {
    result.half_points(Color::White)
}

fn result_of_byte(byte: u8) -> Option<GameResult> {
    match byte {
        0 => Some(GameResult::BlackWins),
        1 => Some(GameResult::Draw),
        2 => Some(GameResult::WhiteWins),
        _ => None,
    }
}

/// A game's result as White's score, 0, 0.5 or 1: the label the trainer mixes with the search
/// score.
pub fn white_score(result: GameResult) -> f32 {
    f32::from(result_byte(result)) / 2.0
}

/// The code of `mv` in `game`'s current position: its index among the legal moves in the order
/// of (origin square, destination square, captured squares). `None` if it is not legal or the
/// position has more moves than a code can name.
pub fn move_code(game: &Game<I>, mv: &Move<BitsOf<I>>) -> Option<u8> {
    let moves = canonical_moves(game);
    let index = moves.iter().position(|m| m.same_as(mv))?;
    u8::try_from(index).ok().filter(|&code| code != NO_MOVE)
}

/// The move of a code in `game`'s current position (see [`move_code`]).
pub fn move_of_code(game: &Game<I>, code: u8) -> Option<Move<BitsOf<I>>> {
    canonical_moves(game).get(usize::from(code)).copied()
}

fn canonical_moves(game: &Game<I>) -> Vec<Move<BitsOf<I>>> {
    let square = |bit: u8| <I as Rules>::Geometry::square_of(u32::from(bit));
    let mut moves: Vec<_> = game.legal_moves().iter().copied().collect();
    moves.sort_by_key(|m| (square(m.from), square(m.to), squares(m.captured)));
    moves
}

/// One self-play game: its moves and the search's scores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameBlock {
    /// Index of the game in its run.
    pub game: u64,
    /// The result (drawn also when too long).
    pub result: GameResult,
    /// The random opening moves, as codes ([`move_code`]).
    pub opening: Vec<u8>,
    /// Each searched position in order: the score for White and the code of the move played
    /// ([`NO_MOVE`] if none was).
    pub searched: Vec<(i16, u8)>,
}

impl GameBlock {
    fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(
            BLOCK_HEADER_BYTES + self.opening.len() + PLY_BYTES * self.searched.len(),
        );
        out.extend_from_slice(&self.game.to_le_bytes());
        out.push(result_byte(self.result));
        out.push(self.opening.len() as u8);
        out.extend_from_slice(&(self.searched.len() as u16).to_le_bytes());
        out.extend_from_slice(&self.opening);
        for &(score, code) in &self.searched {
            out.extend_from_slice(&score.to_le_bytes());
            out.push(code);
        }
        out
    }

    /// Replays the game and returns its recorded positions (quiet, past the opening, score not
    /// decided: [`is_recorded`]) with the positions themselves.
    ///
    /// # Errors
    /// A code that names no legal move, or a move after the game ended.
    pub fn records(&self) -> Result<Vec<(PositionRecord, Position<I>)>, String> {
        let mut game = Game::new(Position::<I>::start());
        let play = |game: &mut Game<I>, code: u8| {
            let mv = move_of_code(game, code)
                .ok_or_else(|| format!("ply {}: no legal move {code}", game.ply_count() + 1))?;
            game.play(&mv).map_err(|e| e.to_string())
        };
        for &code in &self.opening {
            play(&mut game, code)?;
        }
        let mut out = Vec::new();
        for (i, &(white_score, code)) in self.searched.iter().enumerate() {
            let position = *game.position();
            let own = if position.side() == Color::White {
                white_score
            } else {
                -white_score
            };
            if is_recorded(&position, Score::from(own), game.ply_count()) {
                let record = PositionRecord::of(&position, white_score.into(), game.ply_count());
                out.push((record, position));
            }
            if code == NO_MOVE {
                if i + 1 != self.searched.len() {
                    return Err(format!("ply {}: the game goes on after its end", i + 1));
                }
            } else {
                play(&mut game, code)?;
            }
        }
        Ok(out)
    }
}

/// Whether a searched position (`score` from its side to move) is kept for training: past the
/// random opening, quiet (where the evaluation is called), not a lone-king ending and not a
/// decided score.
fn is_recorded(position: &Position<I>, score: Score, ply: usize) -> bool {
    ply >= FIRST_RECORDED_PLY
        && !position.has_capture()
        && !eval::is_lone_king_ending(position)
        && !score::is_decisive(score)
}

fn header() -> Vec<u8> {
    let mut out = DATA_MAGIC.to_vec();
    out.extend_from_slice(&DATA_VERSION.to_le_bytes());
    out.extend_from_slice(&(PLY_BYTES as u32).to_le_bytes());
    out
}

/// Reads the complete blocks of a data file; also returns the length of the valid prefix (a
/// partial last block, from a killed run, is not part of it).
///
/// # Errors
/// Unreadable file, bad header, or a block that is corrupt (not merely cut short).
pub fn read_blocks(path: &Path) -> Result<(Vec<GameBlock>, u64), DataError> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(io_error(path))?;
    if bytes.len() < HEADER_BYTES || bytes[..HEADER_BYTES] != header()[..] {
        return Err(DataError::BadHeader(path.to_path_buf()));
    }
    let mut at = HEADER_BYTES;
    let mut blocks = Vec::new();
    while at + BLOCK_HEADER_BYTES <= bytes.len() {
        let head = &bytes[at..at + BLOCK_HEADER_BYTES];
        let game = u64::from_le_bytes(head[..8].try_into().expect("8 bytes"));
        let result =
            result_of_byte(head[8]).ok_or_else(|| DataError::Corrupt(path.to_path_buf()))?;
        let opening = usize::from(head[9]);
        let searched = usize::from(u16::from_le_bytes([head[10], head[11]]));
        let plies = at + BLOCK_HEADER_BYTES + opening;
        let end = plies + searched * PLY_BYTES;
        if end > bytes.len() {
            break;
        }
        blocks.push(GameBlock {
            game,
            result,
            opening: bytes[at + BLOCK_HEADER_BYTES..plies].to_vec(),
            searched: bytes[plies..end]
                .chunks_exact(PLY_BYTES)
                .map(|ply| (i16::from_le_bytes([ply[0], ply[1]]), ply[2]))
                .collect(),
        });
        at = end;
    }
    Ok((blocks, at as u64))
}

/// A shard of a run: games whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Parses `i/n`.
    ///
    /// # Errors
    /// Not of the form `i/n` with `0 <= i < n`.
    pub fn parse(text: &str) -> Result<Self, DataError> {
        let bad = || DataError::BadShard(text.to_string());
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = index.trim().parse().map_err(|_| bad())?;
        let count: u64 = count.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// Settings of a data generation run.
#[derive(Clone, Debug)]
pub struct GenSettings {
    /// Index of the first game: a run in parts plays disjoint ranges of one seed's games.
    pub first: u64,
    /// Games in the whole run (over all shards), indices `first..first + games`.
    pub games: u64,
    /// Nodes per move.
    pub nodes: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (one game per thread).
    pub threads: usize,
    /// This run's share of the games.
    pub shard: Shard,
    /// Whether to draw a progress bar on stderr.
    pub progress: bool,
}

/// What a generation run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenReport {
    /// Games already in the file (resumed).
    pub games_kept: u64,
    /// Games played now.
    pub games_played: u64,
    /// Positions written now.
    pub positions: u64,
}

/// The seed of game `game` of a run with master seed `seed`.
fn game_seed(seed: u64, game: u64) -> u64 {
    (seed ^ game.wrapping_mul(SEED_MIX)).wrapping_mul(SEED_MIX) ^ game
}

/// Plays the shard's games that `out` does not hold yet, appending one block per game.
///
/// # Errors
/// The file cannot be read or written, or it is not a data file.
pub fn generate<E>(
    settings: &GenSettings,
    evaluator: &E,
    out: &Path,
) -> Result<GenReport, DataError>
where
    E: Evaluator<I> + Clone,
{
    let mut done = HashSet::new();
    let file = if out.exists() && std::fs::metadata(out).map_err(io_error(out))?.len() > 0 {
        let (blocks, valid) = read_blocks(out)?;
        done.extend(blocks.iter().map(|b| b.game));
        let mut file = OpenOptions::new()
            .write(true)
            .open(out)
            .map_err(io_error(out))?;
        file.set_len(valid).map_err(io_error(out))?;
        file.seek(SeekFrom::End(0)).map_err(io_error(out))?;
        file
    } else {
        let mut file = File::create(out).map_err(io_error(out))?;
        file.write_all(&header()).map_err(io_error(out))?;
        file
    };
    let todo: Vec<u64> = (settings.first..settings.first + settings.games)
        .filter(|g| g % settings.shard.count == settings.shard.index && !done.contains(g))
        .collect();
    let writer = Mutex::new(BufWriter::new(file));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads.max(1))
        .stack_size(SEARCH_STACK_BYTES)
        .build()
        .map_err(|e| DataError::Threads(e.to_string()))?;
    let bar = if settings.progress {
        indicatif::ProgressBar::new(todo.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, eta {eta} {msg}")
            .expect("a valid progress template"),
    );
    let positions = AtomicU64::new(0);
    let started = std::time::Instant::now();
    let failure: Mutex<Option<DataError>> = Mutex::new(None);
    pool.install(|| {
        use rayon::prelude::*;
        todo.par_iter().for_each(|&game| {
            let block = play_game(game, settings, evaluator.clone());
            let recorded = block.records().map_or(0, |r| r.len()) as u64;
            let total = positions.fetch_add(recorded, Ordering::Relaxed) + recorded;
            let bytes = block.bytes();
            let mut writer = writer.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = writer.write_all(&bytes).and_then(|()| writer.flush()) {
                failure
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(io_error(out)(e));
            }
            drop(writer);
            let rate = total as f64 / started.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!("{total} positions, {rate:.0} positions/s"));
            bar.inc(1);
        });
    });
    bar.finish();
    if let Some(error) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(error);
    }
    Ok(GenReport {
        games_kept: done.len() as u64,
        games_played: todo.len() as u64,
        positions: positions.into_inner(),
    })
}

/// One self-play game (its block has no searched plies when the random opening was
/// unbalanced). The engine searches on the calling thread, which must have a stack of
/// [`SEARCH_STACK_BYTES`] ([`generate`]'s threads have).
pub fn play_game<E: Evaluator<I>>(
    game_index: u64,
    settings: &GenSettings,
    evaluator: E,
) -> GameBlock {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(game_seed(settings.seed, game_index));
    let mut engine = Engine::<I, E>::with_evaluator(evaluator, DATAGEN_HASH_MB, 1);
    engine.search_on_calling_thread();
    let mut game = Game::new(Position::<I>::start());
    let mut block = GameBlock {
        game: game_index,
        result: GameResult::Draw,
        opening: Vec::new(),
        searched: Vec::new(),
    };
    for _ in 0..rng.random_range(RANDOM_PLIES) {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return block;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        let Some(code) = move_code(&game, &mv) else {
            return block;
        };
        if game.play(&mv).is_err() {
            return block;
        }
        block.opening.push(code);
    }
    let search = |game: &Game<I>, limits: &Limits| {
        engine.search(
            &Root::from_game(game),
            limits,
            Mode::Analyze,
            &SearchControl::new(),
            |_| {},
        )
    };
    let check = Limits {
        depth: Some(OPENING_CHECK_DEPTH),
        ..Limits::default()
    };
    if game.result().is_some() || search(&game, &check).score.abs() > MAX_OPENING_SCORE {
        return block;
    }
    let limits = Limits {
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let mut white_ahead = 0;
    let mut black_ahead = 0;
    block.result = loop {
        if let Some(end) = game.result() {
            break end.result;
        }
        if game.ply_count() >= MAX_PLIES {
            break GameResult::Draw;
        }
        let found = search(&game, &limits);
        let white_score = if game.position().side() == Color::White {
            found.score
        } else {
            -found.score
        };
        let white_score = white_score.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
        let code = found.best.and_then(|best| move_code(&game, &best));
        block.searched.push((white_score, code.unwrap_or(NO_MOVE)));
        let Some(code) = code else {
            break GameResult::Draw;
        };
        white_ahead = if i32::from(white_score) > ADJUDICATION_SCORE {
            white_ahead + 1
        } else {
            0
        };
        black_ahead = if i32::from(white_score) < -ADJUDICATION_SCORE {
            black_ahead + 1
        } else {
            0
        };
        let adjudicated = if white_ahead >= ADJUDICATION_PLIES {
            Some(GameResult::WhiteWins)
        } else if black_ahead >= ADJUDICATION_PLIES {
            Some(GameResult::BlackWins)
        } else {
            None
        };
        if let Some(winner) = adjudicated {
            block.searched.last_mut().expect("just pushed").1 = NO_MOVE;
            break winner;
        }
        let mv = move_of_code(&game, code).expect("the code of a legal move");
        if game.play(&mv).is_err() {
            break GameResult::Draw;
        }
    };
    block
}

/// Merges data files (shards of one run, or runs with disjoint game indices) into `out`, blocks
/// in game-index order. A game found twice must have the same contents both times.
///
/// # Errors
/// An input cannot be read, two inputs disagree on a game, or `out` cannot be written.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<u64, DataError> {
    let mut games: BTreeMap<u64, GameBlock> = BTreeMap::new();
    for input in inputs {
        for block in read_blocks(input)?.0 {
            match games.get(&block.game) {
                Some(existing) if *existing != block => {
                    return Err(DataError::Conflict(block.game));
                }
                Some(_) => {}
                None => {
                    games.insert(block.game, block);
                }
            }
        }
    }
    let mut bytes = header();
    for block in games.values() {
        bytes.extend_from_slice(&block.bytes());
    }
    std::fs::write(out, bytes).map_err(io_error(out))?;
    Ok(games
        .values()
        .map(|b| b.records().map_or(0, |r| r.len()) as u64)
        .sum())
}

/// A recorded position with its game.
#[derive(Clone, Copy, Debug)]
pub struct Labelled {
    /// Index of the game.
    pub game: u64,
    /// The game's result.
    pub result: GameResult,
    /// The record as stored.
    pub record: PositionRecord,
    /// The record's position.
    pub position: Position<I>,
}

/// Calls `each` with every position of the files, with its game's index and result, in file
/// order, one file in memory at a time; returns the number of games.
///
/// # Errors
/// A file cannot be read or holds a game that does not replay.
pub fn for_each_position(
    inputs: &[PathBuf],
    mut each: impl FnMut(Labelled),
) -> Result<u64, DataError> {
    let mut games = 0;
    for input in inputs {
        for block in read_blocks(input)?.0 {
            let records = block.records().map_err(|reason| DataError::BadPosition {
                path: input.clone(),
                game: block.game,
                reason,
            })?;
            games += u64::from(!records.is_empty());
            for (record, position) in records {
                each(Labelled {
                    game: block.game,
                    result: block.result,
                    record,
                    position,
                });
            }
        }
    }
    Ok(games)
}

/// Every position of the files with its game's index and result, in file order.
///
/// # Errors
/// See [`for_each_position`].
pub fn load_positions(inputs: &[PathBuf]) -> Result<Vec<Labelled>, DataError> {
    let mut out = Vec::new();
    for_each_position(inputs, |labelled| out.push(labelled))?;
    Ok(out)
}

//! The Hub's engine parameters: one table, [`PARAMS`], from which the announced `param` lines,
//! `set-param` and `rafle hub --help` are all derived. An entry says what a parameter is (its
//! type and range), what it is for, how it is read and written in [`Params`], and what applying
//! it changes ([`Effect`]), so that adding a parameter is one entry (and its field), and setting
//! one changes only what it names: `book-ply` keeps the transposition table, `eval` clears it
//! only when the evaluation really changes.

use crate::eval::{DEFAULT_EVAL, EVAL_NAMES, Eval};
use crate::player::options::{
    BOOK_MARGIN_RANGE, BOOK_PLY_RANGE, DEFAULT_BOOK_MARGIN, DEFAULT_BOOK_PLY, DEFAULT_EGDB_PIECES,
    DEFAULT_HASH_MB, DEFAULT_LINES, DEFAULT_THREADS, EGDB_PIECES_RANGE, LINES_RANGE, THREADS_RANGE,
    hash_range,
};
use crate::player::skill::{MAX_SKILL, SKILL_RANGE};
use crate::rules::Variant;
use std::ops::RangeInclusive;

/// Range of Scan's `tt-size` parameter (log2 of 16-byte entries), accepted as an alias of `hash`.
const TT_SIZE_RANGE: RangeInclusive<i64> = 16..=30;
/// Bytes per entry in Scan's `tt-size` convention.
const SCAN_ENTRY_BYTES: u64 = 16;

/// Engine parameters, as set by `set-param`.
#[derive(Clone, Debug)]
pub(crate) struct Params {
    pub variant: Variant,
    pub threads: usize,
    pub hash_mb: usize,
    pub ponder: bool,
    pub book: bool,
    pub book_ply: u32,
    pub book_margin: i32,
    /// Book file; empty for the variant's default (see [`crate::book::default_path`]).
    pub book_file: String,
    /// Evaluation name (`eval`) and weights file (`eval-file`, empty for the embedded weights).
    pub eval_name: String,
    pub eval_file: String,
    /// The evaluation they select (kept when a new value fails to load).
    pub eval: Eval,
    /// Endgame database directory; empty for none.
    pub egdb_path: String,
    /// Most pieces of the endgame tables to load.
    pub egdb_pieces: u32,
    /// Strength level (see [`crate::player::skill`]).
    pub skill: u32,
    /// Lines of `go analyze` (multi-PV); `info` then says which line it is of.
    pub multi_pv: u32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            variant: Variant::International,
            threads: DEFAULT_THREADS,
            hash_mb: DEFAULT_HASH_MB,
            ponder: false,
            book: true,
            book_ply: DEFAULT_BOOK_PLY,
            book_margin: DEFAULT_BOOK_MARGIN,
            book_file: String::new(),
            eval_name: DEFAULT_EVAL.to_string(),
            eval_file: String::new(),
            eval: Eval::default_eval(),
            egdb_path: String::new(),
            egdb_pieces: DEFAULT_EGDB_PIECES,
            skill: MAX_SKILL,
            multi_pv: DEFAULT_LINES,
        }
    }
}

/// A parameter's type, as the `param` line announces it.
pub(crate) enum Kind {
    /// An integer in a range (a function: the largest table depends on the machine).
    Int(fn() -> RangeInclusive<i64>),
    Bool,
    Text,
    /// One of these names.
    Choice(fn() -> Vec<&'static str>),
}

/// What applying a parameter changes in a running session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    /// A new session: another variant, table size or endgame database.
    Session,
    /// The search threads and pondering.
    Search,
    /// The evaluation (the table's scores no longer hold, so it is cleared).
    Eval,
    /// The book and its rule.
    Book,
    /// The strength level.
    Skill,
    /// The lines of an analysis.
    Lines,
}

/// A value read as its parameter's [`Kind`] says.
pub(crate) enum Value<'a> {
    Int(i64),
    Bool(bool),
    Text(&'a str),
}

impl Value<'_> {
    /// The integer of an [`Kind::Int`] parameter (in its range: the table checked it).
    fn int(&self) -> i64 {
        match self {
            Value::Int(value) => *value,
            _ => 0,
        }
    }

    fn flag(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    fn text(&self) -> &str {
        match self {
            Value::Text(text) => text,
            _ => "",
        }
    }
}

/// One engine parameter.
pub(crate) struct Param {
    pub name: &'static str,
    pub kind: Kind,
    /// What it is for, for people (`rafle hub --help`).
    pub help: &'static str,
    pub effect: Effect,
    /// Announced in `param` lines and listed by `--help` (Scan's `tt-size` alias is not).
    pub announced: bool,
    /// The current value, as announced.
    pub get: fn(&Params) -> String,
    /// Sets the value: whether it changed (nothing to apply otherwise), or why it cannot be had.
    pub set: fn(&mut Params, &Value) -> Result<bool, String>,
}

/// Sets `field` to `value`; whether it changed.
fn changed<T: PartialEq>(field: &mut T, value: T) -> bool {
    let changed = *field != value;
    *field = value;
    changed
}

/// Selects the evaluation of `name` with weights `file` (empty: embedded); on error the
/// evaluation in use stays.
fn set_eval(params: &mut Params, name: &str, file: &str) -> Result<bool, String> {
    if name == params.eval_name && file == params.eval_file {
        return Ok(false);
    }
    let path = (!file.is_empty()).then(|| std::path::Path::new(file));
    params.eval = Eval::select(name, path).map_err(|error| error.to_string())?;
    params.eval_name = name.to_string();
    params.eval_file = file.to_string();
    Ok(true)
}

/// Every parameter, in the order the Hub announces them.
pub(crate) const PARAMS: &[Param] = &[
    Param {
        name: "variant",
        kind: Kind::Choice(|| Variant::ALL.iter().map(|v| v.hub_name()).collect()),
        help: "rules of the game (Scan's names: normal = international)",
        effect: Effect::Session,
        announced: true,
        get: |p| p.variant.hub_name().to_string(),
        set: |p, v| {
            let variant = Variant::from_name(v.text())
                .ok_or_else(|| format!("'{}' is not a known variant", v.text()))?;
            Ok(changed(&mut p.variant, variant))
        },
    },
    Param {
        name: "book",
        kind: Kind::Bool,
        help: "play from the opening book while the position is in it",
        effect: Effect::Book,
        announced: true,
        get: |p| p.book.to_string(),
        set: |p, v| Ok(changed(&mut p.book, v.flag())),
    },
    Param {
        name: "book-ply",
        kind: Kind::Int(|| BOOK_PLY_RANGE),
        help: "until this ply, book moves are drawn at random (within book-margin)",
        effect: Effect::Book,
        announced: true,
        get: |p| p.book_ply.to_string(),
        set: |p, v| Ok(changed(&mut p.book_ply, v.int() as u32)),
    },
    Param {
        name: "book-margin",
        kind: Kind::Int(|| BOOK_MARGIN_RANGE),
        help: "random book moves score within this many centi-men of the best",
        effect: Effect::Book,
        announced: true,
        get: |p| p.book_margin.to_string(),
        set: |p, v| Ok(changed(&mut p.book_margin, v.int() as i32)),
    },
    Param {
        name: "book-file",
        kind: Kind::Text,
        help: "book file (empty: the variant's shipped book)",
        effect: Effect::Book,
        announced: true,
        get: |p| p.book_file.clone(),
        set: |p, v| Ok(changed(&mut p.book_file, v.text().to_string())),
    },
    Param {
        name: "ponder",
        kind: Kind::Bool,
        help: "think on the opponent's time after go ponder",
        effect: Effect::Search,
        announced: true,
        get: |p| p.ponder.to_string(),
        set: |p, v| Ok(changed(&mut p.ponder, v.flag())),
    },
    Param {
        name: "threads",
        kind: Kind::Int(|| THREADS_RANGE),
        help: "search threads",
        effect: Effect::Search,
        announced: true,
        get: |p| p.threads.to_string(),
        set: |p, v| Ok(changed(&mut p.threads, v.int() as usize)),
    },
    Param {
        name: "hash",
        kind: Kind::Int(hash_range),
        help: "transposition table size in MiB (Scan's tt-size is accepted too)",
        effect: Effect::Session,
        announced: true,
        get: |p| p.hash_mb.to_string(),
        set: |p, v| Ok(changed(&mut p.hash_mb, v.int() as usize)),
    },
    Param {
        name: "tt-size",
        kind: Kind::Int(|| TT_SIZE_RANGE),
        help: "Scan's table size: log2 of its 16-byte entries",
        effect: Effect::Session,
        announced: false,
        get: |p| p.hash_mb.to_string(),
        set: |p, v| {
            let megabytes = ((1u64 << v.int()) * SCAN_ENTRY_BYTES) >> 20;
            let most = *hash_range().end();
            if megabytes > most as u64 {
                return Err(format!(
                    "'{}' is more than this machine can hold ({most} MiB at most)",
                    v.int()
                ));
            }
            Ok(changed(&mut p.hash_mb, megabytes as usize))
        },
    },
    Param {
        name: "eval",
        kind: Kind::Choice(|| EVAL_NAMES.to_vec()),
        help: "evaluation",
        effect: Effect::Eval,
        announced: true,
        get: |p| p.eval_name.clone(),
        set: |p, v| {
            let file = p.eval_file.clone();
            set_eval(p, v.text(), &file)
        },
    },
    Param {
        name: "eval-file",
        kind: Kind::Text,
        help: "weights of the pattern evaluation (empty: the embedded weights)",
        effect: Effect::Eval,
        announced: true,
        get: |p| p.eval_file.clone(),
        set: |p, v| {
            let name = p.eval_name.clone();
            set_eval(p, &name, v.text())
        },
    },
    Param {
        name: "egdb-path",
        kind: Kind::Text,
        help: "directory of endgame databases (empty: none)",
        effect: Effect::Session,
        announced: true,
        get: |p| p.egdb_path.clone(),
        set: |p, v| Ok(changed(&mut p.egdb_path, v.text().to_string())),
    },
    Param {
        name: "egdb-pieces",
        kind: Kind::Int(|| EGDB_PIECES_RANGE),
        help: "most pieces of the endgame tables loaded",
        effect: Effect::Session,
        announced: true,
        get: |p| p.egdb_pieces.to_string(),
        set: |p, v| Ok(changed(&mut p.egdb_pieces, v.int() as u32)),
    },
    Param {
        name: "skill",
        kind: Kind::Int(|| SKILL_RANGE),
        help: "strength level: 20 is full strength; lower levels search less and choose among \
               near-best moves",
        effect: Effect::Skill,
        announced: true,
        get: |p| p.skill.to_string(),
        set: |p, v| Ok(changed(&mut p.skill, v.int() as u32)),
    },
    Param {
        name: "multi-pv",
        kind: Kind::Int(|| LINES_RANGE),
        help: "lines shown by go analyze, each info line saying which (line=N)",
        effect: Effect::Lines,
        announced: true,
        get: |p| p.multi_pv.to_string(),
        set: |p, v| Ok(changed(&mut p.multi_pv, v.int() as u32)),
    },
];

/// The parameter called `name`.
pub(crate) fn find(name: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|param| param.name == name)
}

impl Param {
    /// Reads `text` as this parameter's kind; on error, what was expected.
    pub fn read<'a>(&self, text: &'a str) -> Result<Value<'a>, String> {
        let text = text.trim();
        match &self.kind {
            Kind::Int(range) => {
                let range = range();
                text.parse::<i64>()
                    .ok()
                    .filter(|value| range.contains(value))
                    .map(Value::Int)
                    .ok_or_else(|| format!("an integer in {}..{}", range.start(), range.end()))
            }
            Kind::Bool => match text.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" | "yes" => Ok(Value::Bool(true)),
                "false" | "0" | "off" | "no" => Ok(Value::Bool(false)),
                _ => Err("true or false".to_string()),
            },
            // A choice's own `set` says which names it takes (a variant has aliases).
            Kind::Text | Kind::Choice(_) => Ok(Value::Text(text)),
        }
    }

    /// The `param` line's arguments: name, current value, type and range or choices.
    pub fn announced(&self, params: &Params) -> Vec<(&'static str, String)> {
        let mut args = vec![
            ("name", self.name.to_string()),
            ("value", (self.get)(params)),
        ];
        match &self.kind {
            Kind::Int(range) => {
                let range = range();
                args.push(("type", "int".to_string()));
                args.push(("min", range.start().to_string()));
                args.push(("max", range.end().to_string()));
            }
            Kind::Bool => args.push(("type", "bool".to_string())),
            Kind::Text => args.push(("type", "string".to_string())),
            Kind::Choice(values) => {
                args.push(("type", "enum".to_string()));
                args.push(("values", values().join(" ")));
            }
        }
        args
    }
}

/// The `param` lines' arguments, in the order they are announced.
pub(crate) fn announced(params: &Params) -> Vec<Vec<(&'static str, String)>> {
    PARAMS
        .iter()
        .filter(|param| param.announced)
        .map(|param| param.announced(params))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_reads_back_what_it_announces() {
        let params = Params::default();
        for param in PARAMS {
            assert!(!param.help.is_empty(), "{}", param.name);
            if !param.announced {
                continue;
            }
            let mut copy = params.clone();
            let shown = (param.get)(&params);
            let value = param.read(&shown).expect("the default reads");
            assert_eq!((param.set)(&mut copy, &value), Ok(false), "{}", param.name);
        }
    }

    #[test]
    fn values_out_of_range_say_what_is_expected() {
        let threads = find("threads").expect("threads");
        assert_eq!(
            threads.read("0").err(),
            Some(format!(
                "an integer in 1..{}",
                crate::player::options::MAX_THREADS
            ))
        );
        let mut params = Params::default();
        let scan = find("tt-size").expect("tt-size");
        let value = scan.read("20").expect("in range");
        assert_eq!((scan.set)(&mut params, &value), Ok(true));
        assert_eq!(params.hash_mb, 16);
        let eval = find("eval").expect("eval");
        assert!((eval.set)(&mut params, &Value::Text("nonsense")).is_err());
        assert_eq!(params.eval_name, DEFAULT_EVAL);
    }
}

//! `rafle hub --help`: the Hub parameters with their types, ranges and defaults, taken from the
//! `param` lines the Hub announces, so that the two never disagree.

use super::{Params, announced_params};

/// What each parameter does, for people.
const DESCRIPTIONS: [(&str, &str); 14] = [
    (
        "variant",
        "rules of the game (Scan's names: normal = international)",
    ),
    (
        "book",
        "play from the opening book while the position is in it",
    ),
    (
        "book-ply",
        "until this ply, book moves are drawn at random (within book-margin)",
    ),
    (
        "book-margin",
        "random book moves score within this many centi-men of the best",
    ),
    ("book-file", "book file (empty: the variant's shipped book)"),
    ("ponder", "think on the opponent's time after go ponder"),
    ("threads", "search threads"),
    (
        "hash",
        "transposition table size in MiB (Scan's tt-size is accepted too)",
    ),
    ("eval", "evaluation"),
    (
        "eval-file",
        "weights of the pattern evaluation (empty: the embedded weights)",
    ),
    ("egdb-path", "directory of endgame databases (empty: none)"),
    ("egdb-pieces", "most pieces of the endgame tables loaded"),
    (
        "skill",
        "strength level: 20 is full strength; lower levels search less and choose among near-best moves",
    ),
    (
        "multi-pv",
        "lines shown by go analyze, each info line saying which (line=N)",
    ),
];

/// The text after `rafle hub --help`.
pub fn text() -> String {
    let mut out = String::from(
        "Hub protocol (Scan 3.1, version 2) on stdin/stdout; see README.md.\n\nParameters \
         (set-param name=NAME value=VALUE, before init):\n",
    );
    for param in announced_params(&Params::default()) {
        let field = |key: &str| {
            param
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.as_str())
                .unwrap_or("")
        };
        let name = field("name");
        let range = match field("type") {
            "int" => format!("integer {}..{}", field("min"), field("max")),
            "enum" => format!("one of: {}", field("values")),
            other => other.to_string(),
        };
        let default = match field("value") {
            "" => "(empty)".to_string(),
            value => value.to_string(),
        };
        let description = DESCRIPTIONS
            .iter()
            .find(|(n, _)| *n == name)
            .map_or("", |(_, d)| d);
        out.push_str(&format!(
            "  {name:<12} {description}\n  {:<12} {range}; default {default}\n",
            ""
        ));
    }
    out.push_str(
        "\nScores in info lines are in men (1.00 = one man) for the side to move; a game won in N \
         plies shows as 100 - N/100 (99.93: win in 7 plies), lost as its negative (Scan's \
         convention).",
    );
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_parameter_is_described() {
        let text = super::text();
        for (name, _) in super::DESCRIPTIONS {
            assert!(text.contains(&format!("  {name} ")), "{name}");
        }
        assert!(text.contains("integer 1..256; default 1"), "{text}");
    }
}

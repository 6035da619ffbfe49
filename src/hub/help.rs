//! `rafle hub --help`: the Hub parameters with their types, ranges and defaults, taken from the
//! `param` lines the Hub announces, so that the two never disagree.

use super::params::{PARAMS, Params};

/// The text after `rafle hub --help`.
pub fn text() -> String {
    let mut out = String::from(
        "Hub protocol (Scan 3.1, version 2) on stdin/stdout; see README.md.\n\nParameters \
         (set-param name=NAME value=VALUE, before init):\n",
    );
    let defaults = Params::default();
    for described in PARAMS.iter().filter(|param| param.announced) {
        let param = described.announced(&defaults);
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
        let description = described.help;
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
        for param in super::PARAMS.iter().filter(|param| param.announced) {
            assert!(
                text.contains(&format!("  {} ", param.name)),
                "{}",
                param.name
            );
        }
        assert!(text.contains("integer 1..256; default 1"), "{text}");
    }
}

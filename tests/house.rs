//! The layering of `src/`: no file imports, through any chain of others, a file that imports it.
//!
//! A loop between files means neither can be read, tested or moved without the other; the check
//! names every loop with the imports that close it. It reads the sources as text: the paths of
//! `use` declarations (`crate::`, `super::`, `self::` and child modules) and the `crate::` and
//! `super::` paths written in code, resolved to the file that holds the named module. Test
//! modules (`#[cfg(test)]`) are left out: a test may use any layer. A module's own file (`mod.rs`)
//! declares its submodules and re-exports what they define: it is their face, so its arrows down
//! to its own submodules are structure, not imports, and only the arrows from a submodule up to it,
//! between siblings and across folders count.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// One lexical token of the little of Rust this check needs to see.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Ident(String),
    PathSep,
    Punct(char),
}

/// The tokens of `source`, with comments, string and character literals and attributes other
/// than `#[cfg(test)]` dropped (an attribute's paths name no module of ours that matters here).
fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && raw_string_end(&chars, i).is_some()
        {
            i = raw_string_end(&chars, i).unwrap_or(chars.len());
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '\'' {
            i = char_literal_end(&chars, i);
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Ident(chars[start..i].iter().collect()));
        } else if c == ':' && next == Some(':') {
            out.push(Token::PathSep);
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(Token::Punct(c));
            }
            i += 1;
        }
    }
    out
}

/// The index after a raw string literal starting at `start` (`r"…"`, `r#"…"#`), if it is one.
fn raw_string_end(chars: &[char], start: usize) -> Option<usize> {
    let mut i = start + 1;
    let mut hashes = 0;
    while chars.get(i) == Some(&'#') {
        hashes += 1;
        i += 1;
    }
    if chars.get(i) != Some(&'"') {
        return None;
    }
    i += 1;
    while i < chars.len() {
        if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
            return Some(i + 1 + hashes);
        }
        i += 1;
    }
    Some(chars.len())
}

/// The index after a character literal at `start`, or just after the quote of a lifetime.
fn char_literal_end(chars: &[char], start: usize) -> usize {
    match (chars.get(start + 1), chars.get(start + 2)) {
        (Some('\\'), _) => {
            let mut i = start + 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i + 1
        }
        (Some(_), Some('\'')) => start + 3,
        _ => start + 1,
    }
}

/// The files of the crate's modules, by module path (`["search", "time"]`).
struct Modules {
    root: PathBuf,
}

impl Modules {
    /// The file of the module `path`, or of the nearest enclosing module that is a file.
    fn file_of(&self, path: &[String]) -> PathBuf {
        let mut file = self.root.join("lib.rs");
        let mut dir = self.root.clone();
        for segment in path {
            let flat = dir.join(format!("{segment}.rs"));
            let nested = dir.join(segment).join("mod.rs");
            if flat.is_file() {
                file = flat;
            } else if nested.is_file() {
                file = nested;
            } else {
                break;
            }
            dir = dir.join(segment);
        }
        file
    }

    /// The module path of a file of the crate.
    fn path_of(&self, file: &Path) -> Vec<String> {
        let relative = file.strip_prefix(&self.root).expect("a file of src/");
        let mut path: Vec<String> = relative
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if matches!(
            path.last().map(String::as_str),
            Some("mod" | "lib" | "main")
        ) {
            path.pop();
        }
        path
    }

    /// Whether `path` names a module that has a file of its own.
    fn is_module_file(&self, path: &[String]) -> bool {
        self.path_of(&self.file_of(path)) == path
    }
}

/// A path as written, with the inline modules of the file it stands in.
type ScopedPath = (Vec<String>, Vec<String>);

/// The paths a file uses, and the names of its test modules kept in files of their own.
fn used_paths(tokens: &[Token]) -> (Vec<ScopedPath>, Vec<String>) {
    let mut paths = Vec::new();
    let mut test_files = Vec::new();
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Punct('#') if is_cfg_test(&tokens[i..]) => {
                i += 7;
                i = skip_item(tokens, i, &mut test_files);
                continue;
            }
            Token::Punct('#') => {
                i = skip_attribute(tokens, i);
                continue;
            }
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth -= 1;
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            Token::Ident(word) if word == "mod" => {
                if let (Some(Token::Ident(name)), Some(Token::Punct('{'))) =
                    (tokens.get(i + 1), tokens.get(i + 2))
                {
                    inline.push((name.clone(), depth));
                }
            }
            Token::Ident(word) if word == "use" => {
                let end = (i..tokens.len())
                    .find(|&k| tokens[k] == Token::Punct(';'))
                    .unwrap_or(tokens.len());
                let scope: Vec<String> = inline.iter().map(|(name, _)| name.clone()).collect();
                for path in expand_use(&tokens[i + 1..end]) {
                    paths.push((scope.clone(), path));
                }
                i = end;
                continue;
            }
            Token::Ident(word)
                if (word == "crate" || word == "super")
                    && tokens.get(i + 1) == Some(&Token::PathSep)
                    && (i == 0 || tokens[i - 1] != Token::PathSep) =>
            {
                let mut path = vec![word.clone()];
                let mut k = i + 1;
                while tokens.get(k) == Some(&Token::PathSep) {
                    match tokens.get(k + 1) {
                        Some(Token::Ident(next)) => path.push(next.clone()),
                        _ => break,
                    }
                    k += 2;
                }
                let scope: Vec<String> = inline.iter().map(|(name, _)| name.clone()).collect();
                paths.push((scope, path));
                i = k;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    (paths, test_files)
}

/// Whether the tokens start with `#[cfg(test)]`.
fn is_cfg_test(tokens: &[Token]) -> bool {
    let want = [
        Token::Punct('#'),
        Token::Punct('['),
        Token::Ident("cfg".into()),
        Token::Punct('('),
        Token::Ident("test".into()),
        Token::Punct(')'),
        Token::Punct(']'),
    ];
    tokens.len() >= want.len() && tokens[..want.len()] == want
}

/// The index after the attribute starting at `start` (`#[…]` or `#![…]`).
fn skip_attribute(tokens: &[Token], start: usize) -> usize {
    let mut i = start + 1;
    if tokens.get(i) == Some(&Token::Punct('!')) {
        i += 1;
    }
    let mut depth = 0;
    while i < tokens.len() {
        match tokens[i] {
            Token::Punct('[') => depth += 1,
            Token::Punct(']') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// The index after the item starting at `start` (up to its `;` or its balanced braces); a
/// module declared there (`mod tests;`) is noted as a test file.
fn skip_item(tokens: &[Token], start: usize, test_files: &mut Vec<String>) -> usize {
    let mut i = start;
    while tokens.get(i) == Some(&Token::Punct('#')) {
        i = skip_attribute(tokens, i);
    }
    if let (Some(Token::Ident(word)), Some(Token::Ident(name)), Some(Token::Punct(';'))) =
        (tokens.get(i), tokens.get(i + 1), tokens.get(i + 2))
        && word == "mod"
    {
        test_files.push(name.clone());
        return i + 3;
    }
    let mut depth = 0;
    while i < tokens.len() {
        match tokens[i] {
            Token::Punct(';') if depth == 0 => return i + 1,
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// The paths of a `use` tree (the tokens between `use` and `;`), braces expanded.
fn expand_use(tree: &[Token]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    expand_into(tree, &[], &mut out);
    out
}

fn expand_into(tree: &[Token], prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < tree.len() {
        match &tree[i] {
            Token::Ident(word) if word == "as" => i += 1,
            Token::Ident(word) if word == "_" => {}
            Token::Ident(word) => path.push(word.clone()),
            Token::Punct('{') => {
                let close = matching_brace(tree, i);
                for part in split_top_level(&tree[i + 1..close]) {
                    expand_into(part, &path, out);
                }
                return;
            }
            _ => {}
        }
        i += 1;
    }
    if !path.is_empty() {
        out.push(path);
    }
}

fn matching_brace(tree: &[Token], open: usize) -> usize {
    let mut depth = 0;
    for (k, token) in tree.iter().enumerate().skip(open) {
        match token {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    tree.len()
}

fn split_top_level(tree: &[Token]) -> Vec<&[Token]> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (k, token) in tree.iter().enumerate() {
        match token {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => depth -= 1,
            Token::Punct(',') if depth == 0 => {
                parts.push(&tree[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&tree[start..]);
    parts
}

/// The absolute module path a path written in module `here` names, if it names one of ours.
fn absolute(modules: &Modules, here: &[String], path: &[String]) -> Option<Vec<String>> {
    let mut base: Vec<String> = here.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        Some("self") => rest = &rest[1..],
        Some(first) => {
            let mut child = here.to_vec();
            child.push(first.to_string());
            if !modules.is_module_file(&child) {
                return None;
            }
        }
        None => return None,
    }
    base.extend(rest.iter().filter(|s| *s != "self").cloned());
    Some(base)
}

/// The import graph of the files under `root`: file -> (file -> the paths that make the arrow).
fn import_graph(root: &Path) -> BTreeMap<PathBuf, BTreeMap<PathBuf, BTreeSet<String>>> {
    let modules = Modules {
        root: root.to_path_buf(),
    };
    let mut files = Vec::new();
    collect_rs(root, &mut files);
    let mut test_files = BTreeSet::new();
    let mut parsed = Vec::new();
    for file in &files {
        let source = fs::read_to_string(file).expect("a readable source file");
        let (paths, tests) = used_paths(&tokens(&source));
        let here = modules.path_of(file);
        for name in tests {
            let mut test_module = here.clone();
            test_module.push(name);
            test_files.insert(modules.file_of(&test_module));
        }
        parsed.push((file.clone(), here, paths));
    }
    let mut graph: BTreeMap<PathBuf, BTreeMap<PathBuf, BTreeSet<String>>> = BTreeMap::new();
    for (file, here, paths) in parsed {
        if test_files.contains(&file) {
            continue;
        }
        let edges = graph.entry(file.clone()).or_default();
        for (scope, path) in paths {
            let mut within = here.clone();
            within.extend(scope);
            let Some(target_path) = absolute(&modules, &within, &path) else {
                continue;
            };
            let target = modules.file_of(&target_path);
            let is_descendant = modules.path_of(&target).starts_with(&here);
            if !is_descendant && !test_files.contains(&target) {
                edges.entry(target).or_default().insert(path.join("::"));
            }
        }
    }
    graph
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("a readable directory")
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The strongly connected components of more than one file (Tarjan's algorithm).
fn cycles(graph: &BTreeMap<PathBuf, BTreeMap<PathBuf, BTreeSet<String>>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        graph: &'a BTreeMap<PathBuf, BTreeMap<PathBuf, BTreeSet<String>>>,
        index: BTreeMap<&'a Path, usize>,
        low: BTreeMap<&'a Path, usize>,
        stack: Vec<&'a Path>,
        on_stack: BTreeSet<&'a Path>,
        found: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(state: &mut State<'a>, node: &'a Path) {
        let next = state.index.len();
        state.index.insert(node, next);
        state.low.insert(node, next);
        state.stack.push(node);
        state.on_stack.insert(node);
        let graph = state.graph;
        for target in graph.get(node).into_iter().flat_map(BTreeMap::keys) {
            let target = target.as_path();
            if !state.index.contains_key(target) {
                visit(state, target);
                let low = state.low[node].min(state.low[target]);
                state.low.insert(node, low);
            } else if state.on_stack.contains(target) {
                let low = state.low[node].min(state.index[target]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut component = Vec::new();
            while let Some(top) = state.stack.pop() {
                state.on_stack.remove(top);
                component.push(top.to_path_buf());
                if top == node {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                state.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_path()) {
            visit(&mut state, node);
        }
    }
    state.found
}

#[test]
fn no_file_of_src_imports_itself_through_others() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = import_graph(&root);
    let found: Vec<Vec<PathBuf>> = cycles(&graph);
    let mut report = String::new();
    for component in &found {
        report.push_str("loop:\n");
        for file in component {
            for (target, paths) in &graph[file] {
                if component.contains(target) {
                    let names: Vec<&str> = paths.iter().map(String::as_str).collect();
                    report.push_str(&format!(
                        "  {} -> {}: {}\n",
                        file.strip_prefix(&root).unwrap_or(file).display(),
                        target.strip_prefix(&root).unwrap_or(target).display(),
                        names.join(", ")
                    ));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} import loops between files of src/:\n{report}",
        found.len()
    );
}

#[test]
fn the_check_sees_a_loop() {
    let source =
        "use crate::a::b;\nfn f() { super::c::d(); }\n#[cfg(test)]\nmod tests { use crate::z; }";
    let (paths, _) = used_paths(&tokens(source));
    let written: Vec<String> = paths.iter().map(|(_, p)| p.join("::")).collect();
    assert_eq!(written, ["crate::a::b", "super::c::d"]);
    let tree = tokens("use crate::{a::{b, c as d}, e::*};");
    let expanded: Vec<String> = expand_use(&tree[1..tree.len() - 1])
        .iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(expanded, ["crate::a::b", "crate::a::c", "crate::e"]);
}

//! Shared by the notation tests: a text read by us, printed, and read back by
//! isl must equal isl's own reading.
#![allow(dead_code)] // each test uses a part of it

use presburger_fuzz::isl::Ctx;

/// A map has `->` inside the braces (parameters put one before them).
pub fn is_map(text: &str) -> bool {
    text.split_once('{')
        .is_some_and(|(_, body)| body.contains("->"))
}

/// Our reading of a string: a union set or a union map.
pub enum Ours {
    /// A union set.
    Set(presburger::UnionSet),
    /// A union map.
    Map(presburger::UnionMap),
}

impl Ours {
    /// Our printed text.
    pub fn text(&self) -> String {
        match self {
            Ours::Set(s) => s.to_string(),
            Ours::Map(m) => m.to_string(),
        }
    }
}

/// Parses `text` with our parser, then checks that our printed result read back
/// by isl equals isl's reading of `text`.
pub fn check(ctx: &Ctx, text: &str) -> Result<Ours, String> {
    check_against(ctx, text, text)
}

/// Parses `text` with our parser, then checks that our printed result read back
/// by isl equals isl's reading of `reference` (`text` itself, or the other string
/// of its pair).
pub fn check_against(ctx: &Ctx, text: &str, reference: &str) -> Result<Ours, String> {
    let ours = if is_map(text) {
        Ours::Map(text.parse().map_err(|e| format!("we reject {text}: {e}"))?)
    } else {
        Ours::Set(text.parse().map_err(|e| format!("we reject {text}: {e}"))?)
    };
    let printed = ours.text();
    let same = match ours {
        Ours::Map(_) => {
            let theirs = ctx
                .union_map(reference)
                .ok_or(format!("isl rejects {reference}"))?;
            let back = ctx
                .union_map(&printed)
                .ok_or(format!("isl rejects our {printed} (from {text})"))?;
            theirs.is_equal(&back)
        }
        Ours::Set(_) => {
            let theirs = ctx
                .union_set(reference)
                .ok_or(format!("isl rejects {reference}"))?;
            let back = ctx
                .union_set(&printed)
                .ok_or(format!("isl rejects our {printed} (from {text})"))?;
            theirs.is_equal(&back)
        }
    };
    if same != Some(true) {
        return Err(format!(
            "{text}: isl reads {reference} otherwise than ours {printed}"
        ));
    }
    Ok(ours)
}

/// One query line of a `poly batch` file (`OP<TAB>ARG1[<TAB>ARG2]`).
#[derive(Clone, Debug)]
pub struct BatchQuery {
    /// The line number (from 1).
    pub line: usize,
    /// The whole line.
    pub text: String,
    /// The operation.
    pub op: String,
    /// The arguments (isl notation).
    pub args: Vec<String>,
    /// The comment lines since the previous query, `#` and spaces trimmed.
    pub comments: Vec<String>,
}

impl BatchQuery {
    /// Whether one of the comment lines before the query is exactly `tag`.
    pub fn tagged(&self, tag: &str) -> bool {
        self.comments.iter().any(|c| c == tag)
    }
}

/// The queries of a `poly batch` file, in order: blank lines and lines
/// starting with `#` are skipped, as `poly batch` does (the comments are kept
/// with the query that follows them).
pub fn batch_queries(input: &str) -> Vec<BatchQuery> {
    let mut out = Vec::new();
    let mut comments = Vec::new();
    for (k, line) in input.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(c) = t.strip_prefix('#') {
            comments.push(c.trim().to_string());
            continue;
        }
        let mut parts = line.split('\t');
        let op = parts.next().unwrap_or("").trim().to_string();
        out.push(BatchQuery {
            line: k + 1,
            text: line.to_string(),
            op,
            args: parts.map(str::to_string).collect(),
            comments: std::mem::take(&mut comments),
        });
    }
    out
}

/// A map (one space) as its set of pairs `{ [A[..] -> B[..]] : .. }`, so that
/// isl's union-set operations apply; a set unchanged.
pub fn as_isl_set(text: &str) -> String {
    match text.split_once('{') {
        Some((pre, body)) if body.contains("->") => {
            let end = body
                .find(':')
                .unwrap_or_else(|| body.rfind('}').unwrap_or(0));
            format!("{pre}{{ [{}] {}", body[..end].trim(), &body[end..])
        }
        _ => text.to_string(),
    }
}

/// isl's answer to a yes/no query of `poly batch`: `is_empty`, `is_subset`,
/// `is_equal`, `is_disjoint` (`A - B = A`) and `subtract_is_empty`, on sets
/// or maps of one space (compared as sets of pairs). `None` when isl fails
/// (its operation limit, an error). Panics on another operation or on a text
/// isl does not read.
pub fn isl_decide(ctx: &Ctx, op: &str, args: &[String]) -> Option<bool> {
    let isl = |text: &str| {
        let t = as_isl_set(text);
        ctx.union_set(&t)
            .unwrap_or_else(|| panic!("isl does not read {t}"))
    };
    match op {
        "is_empty" if is_map(&args[0]) => ctx.union_map_is_empty(&args[0]),
        "is_empty" => isl(&args[0]).is_empty(),
        "is_subset" => isl(&args[0]).is_subset(&isl(&args[1])),
        "is_equal" => isl(&args[0]).is_equal(&isl(&args[1])),
        "subtract_is_empty" => isl(&args[0])
            .subtract(&isl(&args[1]))
            .and_then(|d| d.is_empty()),
        "is_disjoint" => {
            // A and B are disjoint iff A - B = A
            let a = isl(&args[0]);
            a.subtract(&isl(&args[1])).and_then(|d| d.is_equal(&a))
        }
        other => panic!("not a yes/no operation: {other}"),
    }
}

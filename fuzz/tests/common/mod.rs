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

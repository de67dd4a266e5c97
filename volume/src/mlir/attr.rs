//! Attribute values: the part of MLIR's attribute syntax the reader needs
//! (affine maps, dictionaries, arrays, strings, numbers, `dense<...>`,
//! `array<i64: ...>`, iterator types, `#alias` references), with other dialect
//! attributes `#dialect.name<...>` and `loc(...)` kept as opaque text.

use std::collections::HashMap;

use crate::error::Result;
use crate::ir::{AffineMap, IteratorType};
use presburger_mlir_syntax::Cursor;
use presburger_mlir_syntax::affine::parse_map_after_open;

/// Deepest nesting of arrays and dictionaries accepted in one attribute.
pub(super) const MAX_ATTR_NESTING: usize = 32;

/// A parsed attribute value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Attr {
    Map(AffineMap),
    Dict(Vec<(String, Attr)>),
    Array(Vec<Attr>),
    Str(String),
    Int(i64),
    Float,
    Bool(bool),
    Unit,
    /// `dense<...>`: the integers if every element is one, flattened.
    Dense(Option<Vec<i64>>),
    Iterator(IteratorType),
    /// A dialect attribute or location, not interpreted.
    Other,
}

/// Attribute aliases `#name = ...` defined so far.
pub(crate) type Aliases = HashMap<String, Attr>;

/// The entry `key` of a dictionary attribute.
pub(super) fn dict_get<'d>(entries: &'d [(String, Attr)], key: &str) -> Option<&'d Attr> {
    entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Parses one attribute value at the cursor. A trailing `: type` after a number
/// or `dense<...>` is consumed (and not checked); `#alias` references resolve
/// through `aliases`; nesting deeper than [`MAX_ATTR_NESTING`] is refused.
pub(crate) fn parse_attr(c: &mut Cursor, aliases: &Aliases, nest: usize) -> Result<Attr> {
    c.skip_ws();
    let at = c.pos;
    if nest > MAX_ATTR_NESTING {
        return Err(c.error(
            at,
            format!("attribute nested too deeply (more than {MAX_ATTR_NESTING} levels)"),
        ));
    }
    if c.eat("#") {
        let Some((name, _)) = c.ident() else {
            return Err(c.error(at, "expected an attribute name after `#`"));
        };
        if name == "linalg.iterator_type" {
            c.expect("<", "after `#linalg.iterator_type`")?;
            let it = iterator_name(c)?;
            c.expect(">", "to close `#linalg.iterator_type<`")?;
            return Ok(Attr::Iterator(it));
        }
        if c.byte() == Some(b'<') {
            c.skip_balanced(b'<', b'>')?;
            return Ok(Attr::Other);
        }
        return aliases
            .get(name)
            .cloned()
            .ok_or_else(|| c.error(at, format!("attribute alias #{name} is not defined")));
    }
    if c.eat("affine_map<") {
        return Ok(Attr::Map(parse_map_after_open(c)?));
    }
    if c.peek("dense<") || c.peek_int() {
        let a = literal(c)?;
        skip_type_suffix(c)?;
        return Ok(a);
    }
    if c.eat("array<") {
        let Some((_elem, _)) = c.ident() else {
            return Err(c.error(c.pos, "expected an element type in `array<`"));
        };
        let mut items = Vec::new();
        if c.eat(":") {
            loop {
                items.push(Attr::Int(c.int()?));
                if !c.eat(",") {
                    break;
                }
            }
        }
        c.expect(">", "to close `array<`")?;
        return Ok(Attr::Array(items));
    }
    if c.eat("[") {
        let mut items = Vec::new();
        if c.eat("]") {
            return Ok(Attr::Array(items));
        }
        loop {
            items.push(parse_attr(c, aliases, nest + 1)?);
            if c.eat(",") {
                continue;
            }
            c.expect("]", "to close the array attribute")?;
            return Ok(Attr::Array(items));
        }
    }
    if c.peek("{") {
        return Ok(Attr::Dict(parse_dict(c, aliases, nest)?));
    }
    if c.peek("\"") {
        let s = c.string_lit()?;
        // An iterator type written as a string: "parallel".
        return Ok(Attr::Str(s));
    }
    if c.eat_kw("true") {
        return Ok(Attr::Bool(true));
    }
    if c.eat_kw("false") {
        return Ok(Attr::Bool(false));
    }
    if c.eat_kw("unit") {
        return Ok(Attr::Unit);
    }
    if c.peek_kw("loc") {
        c.pos += 3;
        c.skip_balanced(b'(', b')')?;
        return Ok(Attr::Other);
    }
    let found = c.found();
    Err(c.error(at, format!("unknown attribute syntax: {found}")))
}

/// `{name = value, flag, "quoted" = value}`; returns the entries in order.
pub(super) fn parse_dict(
    c: &mut Cursor,
    aliases: &Aliases,
    nest: usize,
) -> Result<Vec<(String, Attr)>> {
    let open = c.pos;
    c.expect("{", "to open an attribute dictionary")?;
    let mut entries = Vec::new();
    if c.eat("}") {
        return Ok(entries);
    }
    loop {
        c.skip_ws();
        let key = if c.peek("\"") {
            c.string_lit()?
        } else if let Some((k, _)) = c.ident() {
            k.to_string()
        } else {
            let found = c.found();
            return Err(c.error(
                c.pos,
                format!(
                    "expected an attribute name in the dictionary opened at line {}, found {found}",
                    c.line(open)
                ),
            ));
        };
        let value = if c.eat("=") {
            parse_attr(c, aliases, nest + 1)?
        } else {
            Attr::Unit
        };
        entries.push((key, value));
        if c.eat(",") {
            continue;
        }
        c.expect("}", "to close the attribute dictionary")?;
        return Ok(entries);
    }
}

/// `parallel` / `reduction` as a bare word.
fn iterator_name(c: &mut Cursor) -> Result<IteratorType> {
    let at = c.pos;
    match c.ident() {
        Some(("parallel", _)) => Ok(IteratorType::Parallel),
        Some(("reduction", _)) => Ok(IteratorType::Reduction),
        _ => Err(c.error(at, "expected `parallel` or `reduction`")),
    }
}

/// An iterator type attribute: `"parallel"`, `"reduction"` or
/// `#linalg.iterator_type<...>`.
pub(super) fn as_iterator(a: &Attr) -> Option<IteratorType> {
    match a {
        Attr::Iterator(i) => Some(*i),
        Attr::Str(s) if s == "parallel" => Some(IteratorType::Parallel),
        Attr::Str(s) if s == "reduction" => Some(IteratorType::Reduction),
        _ => None,
    }
}

/// A constant literal without its type: `dense<...>`, an integer or a
/// floating-point number (decimal or `0x` hex), `true` or `false`.
pub(super) fn literal(c: &mut Cursor) -> Result<Attr> {
    c.skip_ws();
    if c.peek("dense<") {
        c.pos += "dense".len();
        let (s, e) = c.skip_balanced(b'<', b'>')?;
        let inner = c.src.get(s..e).unwrap_or("");
        let ints: Option<Vec<i64>> = inner
            .split([',', '[', ']'])
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| t.parse::<i64>().ok())
            .collect();
        return Ok(Attr::Dense(ints));
    }
    if c.eat_kw("true") {
        return Ok(Attr::Bool(true));
    }
    if c.eat_kw("false") {
        return Ok(Attr::Bool(false));
    }
    if !c.peek_int() {
        let found = c.found();
        return Err(c.error(c.pos, format!("expected a constant value, found {found}")));
    }
    let start = c.pos;
    if c.byte() == Some(b'-') {
        c.pos += 1;
    }
    let mut float = false;
    if c.rest().starts_with("0x") {
        c.pos += 2;
        while c.byte().is_some_and(|b| b.is_ascii_hexdigit()) {
            c.pos += 1;
        }
        float = true;
    } else {
        while let Some(b) = c.byte() {
            match b {
                b'0'..=b'9' => {}
                b'.' => float = true,
                b'e' | b'E' => {
                    float = true;
                    if matches!(c.byte_at(c.pos + 1), Some(b'+' | b'-')) {
                        c.pos += 1;
                    }
                }
                _ => break,
            }
            c.pos += 1;
        }
    }
    let text = c.src.get(start..c.pos).unwrap_or("");
    if float {
        if !text.starts_with("0x") && !text.starts_with("-0x") && text.parse::<f64>().is_err() {
            return Err(c.error(start, format!("malformed number `{text}`")));
        }
        Ok(Attr::Float)
    } else {
        Ok(Attr::Int(text.parse::<i64>().map_err(|_| {
            c.syntax_error(start, format!("integer {text} does not fit in 64 bits"))
        })?))
    }
}

/// Consumes `: type` (any type syntax: a word with balanced `<...>`) if present.
fn skip_type_suffix(c: &mut Cursor) -> Result<()> {
    if c.peek(":") && !c.peek("::") {
        c.pos += 1;
        skip_type_text(c)?;
    }
    Ok(())
}

/// Moves over one type as text: `!alias`, a word like `f32`, or `tensor<...>`
/// ([`Cursor::skip_type`]).
pub(super) fn skip_type_text(c: &mut Cursor) -> Result<()> {
    Ok(c.skip_type()?)
}

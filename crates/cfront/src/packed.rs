//! `__attribute__((packed))` and `__attribute__((aligned(N)))` on
//! structure and union definitions, found in the preprocessed text before
//! lang-c parses it.
//!
//! lang-c keeps no attribute on a `struct` specifier, and it cannot parse
//! one between the keyword and the tag (`struct __attribute__((packed)) S
//! {...}`, the form glibc and many libraries use): it reads that as a
//! function definition and the whole type is lost. So this pass scans the
//! text once, records the attributes of every definition by the byte
//! offset of its `struct`/`union` keyword (attributes before the tag or
//! after the closing brace), and blanks the attributes between keyword and
//! tag with spaces, which keeps every byte offset, hence every span and
//! column, unchanged. `structs.rs` then lays a packed definition out with
//! every member at alignment 1, and an aligned one with at least that
//! alignment, as gcc does.

use rustc_hash::FxHashMap;

/// The layout attributes of one structure or union definition.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct LayoutAttrs {
    pub packed: bool,
    /// `aligned(N)`: the least alignment of the type.
    pub aligned: Option<u64>,
}

/// The result of the pass: the text to parse and the definitions' attributes.
pub(crate) struct Scanned {
    pub text: String,
    /// By the byte offset of the definition's `struct`/`union` keyword.
    pub attrs: FxHashMap<usize, LayoutAttrs>,
}

/// Scans preprocessed C text (no comments; `#` lines are line markers or
/// pragmas).
pub(crate) fn scan(text: String) -> Scanned {
    let mut bytes = text.into_bytes();
    let mut attrs = FxHashMap::default();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => i = skip_literal(&bytes, i),
            b'#' if at_line_start(&bytes, i) => i = line_end(&bytes, i),
            c if is_ident_start(c) => {
                let end = ident_end(&bytes, i);
                let word = &bytes[i..end];
                if (word == b"struct" || word == b"union") && (i == 0 || !is_ident(bytes[i - 1])) {
                    let a = definition_attrs(&mut bytes, end);
                    if a != LayoutAttrs::default() {
                        attrs.insert(i, a);
                    }
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    // Only ASCII spaces replaced ASCII attribute bytes: still UTF-8.
    let text = String::from_utf8(bytes).unwrap_or_default();
    Scanned { text, attrs }
}

/// After a `struct`/`union` keyword ending at `at`: blanks the attributes
/// before the tag, and returns the layout attributes of the definition
/// (there or after its closing brace).
fn definition_attrs(bytes: &mut [u8], at: usize) -> LayoutAttrs {
    let mut attrs = LayoutAttrs::default();
    let mut i = skip_space(bytes, at);
    while let Some(end) = attribute_at(bytes, i) {
        read_attrs(&bytes[i..end], &mut attrs);
        bytes[i..end].fill(b' ');
        i = skip_space(bytes, end);
    }
    if i < bytes.len() && is_ident_start(bytes[i]) {
        i = skip_space(bytes, ident_end(bytes, i));
    }
    if bytes.get(i) != Some(&b'{') {
        // A reference (`struct S *p`), not a definition.
        return LayoutAttrs::default();
    }
    let Some(close) = matching(bytes, i, b'{', b'}') else { return attrs };
    let mut j = skip_space(bytes, close + 1);
    while let Some(end) = attribute_at(bytes, j) {
        read_attrs(&bytes[j..end], &mut attrs);
        j = skip_space(bytes, end);
    }
    attrs
}

/// The end of an `__attribute__((...))` (or `__attribute((...))`) starting
/// at `i`.
fn attribute_at(bytes: &[u8], i: usize) -> Option<usize> {
    if i >= bytes.len() || !is_ident_start(bytes[i]) {
        return None;
    }
    let end = ident_end(bytes, i);
    if !matches!(&bytes[i..end], b"__attribute__" | b"__attribute") {
        return None;
    }
    let open = skip_space(bytes, end);
    if bytes.get(open) != Some(&b'(') {
        return None;
    }
    matching(bytes, open, b'(', b')').map(|close| close + 1)
}

/// Reads `packed` and `aligned(N)` (N a decimal or hex literal) out of one
/// `__attribute__((...))`.
fn read_attrs(attr: &[u8], out: &mut LayoutAttrs) {
    let mut i = 0;
    while i < attr.len() {
        if !is_ident_start(attr[i]) {
            i += 1;
            continue;
        }
        let end = ident_end(attr, i);
        match &attr[i..end] {
            b"packed" | b"__packed__" => out.packed = true,
            b"aligned" | b"__aligned__" => {
                let open = skip_space(attr, end);
                if attr.get(open) == Some(&b'(') {
                    let arg = skip_space(attr, open + 1);
                    let lit_end = arg + attr[arg..].iter().take_while(|c| c.is_ascii_alphanumeric()).count();
                    let lit = std::str::from_utf8(&attr[arg..lit_end]).unwrap_or("");
                    let lit = lit.trim_end_matches(['u', 'U', 'l', 'L']);
                    let n = match lit.strip_prefix("0x").or_else(|| lit.strip_prefix("0X")) {
                        Some(hex) => u64::from_str_radix(hex, 16).ok(),
                        None => lit.parse().ok(),
                    };
                    out.aligned = n.filter(|n: &u64| n.is_power_of_two()).map(|n| out.aligned.unwrap_or(1).max(n));
                } else {
                    // `aligned` alone: the target's largest alignment.
                    out.aligned = Some(16);
                }
            }
            _ => {}
        }
        i = end;
    }
}

/// The `close` byte matching the `open` byte at `at` (nesting counted;
/// literals and `#` lines skipped).
fn matching(bytes: &[u8], at: usize, open: u8, close: u8) -> Option<usize> {
    let mut depth = 0usize;
    let mut k = at;
    while k < bytes.len() {
        match bytes[k] {
            c if c == open => depth += 1,
            c if c == close => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            b'"' | b'\'' => {
                k = skip_literal(bytes, k);
                continue;
            }
            b'#' if at_line_start(bytes, k) => {
                k = line_end(bytes, k);
                continue;
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// The index after a string or character literal starting at `i`.
fn skip_literal(bytes: &[u8], i: usize) -> usize {
    let quote = bytes[i];
    let mut k = i + 1;
    while k < bytes.len() && bytes[k] != quote && bytes[k] != b'\n' {
        k += if bytes[k] == b'\\' { 2 } else { 1 };
    }
    (k + 1).min(bytes.len())
}

fn at_line_start(bytes: &[u8], i: usize) -> bool {
    bytes[..i].iter().rev().take_while(|&&c| c != b'\n').all(|c| c.is_ascii_whitespace())
}

fn line_end(bytes: &[u8], i: usize) -> usize {
    bytes[i..].iter().position(|&c| c == b'\n').map_or(bytes.len(), |p| i + p)
}

fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        // Line markers may sit between tokens.
        if i < bytes.len() && bytes[i] == b'#' && at_line_start(bytes, i) {
            i = line_end(bytes, i);
            continue;
        }
        return i;
    }
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn ident_end(bytes: &[u8], i: usize) -> usize {
    i + bytes[i..].iter().take_while(|&&c| is_ident(c)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_before_the_tag_is_blanked_and_recorded() {
        let s = scan("struct __attribute__((packed)) h { char a; int b; };\nstruct h *p;".to_string());
        let blank = " ".repeat("__attribute__((packed))".len());
        assert_eq!(s.text, format!("struct {blank} h {{ char a; int b; }};\nstruct h *p;"));
        let packed = LayoutAttrs { packed: true, aligned: None };
        assert_eq!(s.attrs.into_iter().collect::<Vec<_>>(), vec![(0, packed)]);
    }

    #[test]
    fn packed_after_the_brace_and_other_attributes() {
        let src = "typedef union { char c[3]; } __attribute__((__aligned__(2), __packed__)) U;\n\
                   struct __attribute__((aligned(8))) A { int x; };\nstruct B { char s[2]; } x = {\"}\"};";
        let s = scan(src.to_string());
        let mut attrs: Vec<_> = s.attrs.into_iter().collect();
        attrs.sort_by_key(|a| a.0);
        let union_at = 8;
        let struct_at = src.find("struct __attribute__((aligned").unwrap();
        assert_eq!(
            attrs,
            vec![
                (union_at, LayoutAttrs { packed: true, aligned: Some(2) }),
                (struct_at, LayoutAttrs { packed: false, aligned: Some(8) })
            ]
        );
        let blank = " ".repeat("__attribute__((aligned(8)))".len());
        assert!(s.text.contains(&format!("struct {blank} A {{ int x; }};")), "{}", s.text);
    }
}

//! Source locations: from byte offsets in the preprocessed text back to the
//! original `file:line:col`.
//!
//! lang-c reports every node as a byte span of the text that `gcc -E`
//! produced. That text carries line markers (`# 12 "dir/file.h" 1 3 4`) which
//! say where the next line came from; between markers, lines advance by one.
//!
//! Columns are 1-based byte offsets in the original line (a tab counts as
//! one). gcc keeps leading indentation but collapses the whitespace between
//! tokens and drops comments, so the preprocessed line is *aligned* with the
//! original one (whitespace and comments skipped, literals compared exactly)
//! to find the original column. A preprocessed line may also be a fragment of
//! the original (a macro argument that gcc put on a line of its own), which
//! is found by searching. Where alignment fails (after a macro expansion),
//! the column in the preprocessed line is used.
//!
//! Marker file names are interned into *keys*; key 0 is always the main file,
//! whose name is replaced by the name the user gave (gcc prints `<stdin>` for
//! piped input). The IR file table ([`FileTable`]) is separate: a header only
//! gets an entry in `Program::files` when something in the IR is located in it.

use std::cell::RefCell;

use lang_c::span::Span;
use pathwise_ir::Loc;
use rustc_hash::FxHashMap;

/// Lines longer than this are not aligned at all...
const MAX_ALIGN_LINE: usize = 4096;
/// ... and longer than this not searched for fragments (quadratic).
const MAX_FRAGMENT_LINE: usize = 512;

/// Where a preprocessed line came from.
#[derive(Clone, Copy, Debug)]
struct SrcLine {
    file: u32,
    line: u32,
    /// The line's file is a system header: gcc's flag 3 on the marker that
    /// first named the file. A later marker's flag 3 inside a user file only
    /// says that a system macro was expanded there (`bool` from
    /// `<stdbool.h>` is `# 2 "f.c" 3 4` before `_Bool`), which does not make
    /// the user's definition library code.
    system: bool,
}

/// A resolved position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SrcPos {
    pub file: u32,
    pub line: u32,
    pub col: u32,
    pub system: bool,
}

/// Offset-to-position map of one preprocessed translation unit.
pub(crate) struct LineMap {
    text: String,
    line_starts: Vec<usize>,
    lines: Vec<SrcLine>,
    names: Vec<String>,
    /// Lines of the original files, read on first need (`None`: unreadable).
    originals: RefCell<FxHashMap<u32, Option<Vec<String>>>>,
}

impl LineMap {
    /// Builds the map; the first line marker names the main file, which is
    /// reported as `main_name`; `main_source` is its text when it is not a
    /// readable file.
    pub fn new(text: &str, main_name: &str, main_source: Option<&str>) -> LineMap {
        let mut names = vec![main_name.to_string()];
        // Per file key: whether the file is a system header (see `SrcLine`).
        let mut file_system = vec![false];
        let mut keys: FxHashMap<String, u32> = FxHashMap::default();
        let mut line_starts = Vec::new();
        let mut lines = Vec::new();
        let mut cur = SrcLine { file: 0, line: 1, system: false };
        let mut seen_marker = false;
        let mut start = 0;
        for raw in text.split_inclusive('\n') {
            line_starts.push(start);
            start += raw.len();
            let line = raw.trim_end_matches(['\n', '\r']);
            match parse_marker(line) {
                Some((num, file, flags)) => {
                    let key = if !seen_marker {
                        // The first marker is the main file whatever gcc calls it.
                        seen_marker = true;
                        keys.insert(file, 0);
                        0
                    } else {
                        *keys.entry(file.clone()).or_insert_with(|| {
                            names.push(file);
                            file_system.push(flags.contains(&3));
                            (names.len() - 1) as u32
                        })
                    };
                    lines.push(cur);
                    cur = SrcLine { file: key, line: num, system: file_system[key as usize] };
                }
                None => {
                    lines.push(cur);
                    cur.line = cur.line.saturating_add(1);
                }
            }
        }
        if line_starts.is_empty() {
            line_starts.push(0);
            lines.push(cur);
        }
        let mut originals = FxHashMap::default();
        if let Some(src) = main_source {
            originals.insert(0, Some(split_lines(src)));
        }
        LineMap { text: text.to_string(), line_starts, lines, names, originals: RefCell::new(originals) }
    }

    /// The position of a byte offset (clamped to the text).
    pub fn pos(&self, offset: usize) -> SrcPos {
        let idx = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let info = self.lines[idx];
        let start = self.line_starts[idx];
        let k = offset.saturating_sub(start);
        let end = self.line_starts.get(idx + 1).copied().unwrap_or(self.text.len());
        let pre = self.text.get(start..end).unwrap_or("").trim_end_matches(['\n', '\r']);
        let col = self.original_column(info, pre, k).unwrap_or(k) + 1;
        SrcPos { file: info.file, line: info.line, col: u32::try_from(col).unwrap_or(u32::MAX), system: info.system }
    }

    /// Reports files of directory `dir` named `file` as plain `file`, with
    /// `text` as their original text: `pathwise.h` comes from a temporary
    /// directory whose name must not leak into programs.
    pub fn rename_dir(&mut self, dir: &str, file: &str, text: &str) {
        let dir = dir.trim_end_matches('/');
        if dir.is_empty() {
            return;
        }
        for (key, name) in self.names.iter_mut().enumerate() {
            let in_dir =
                name.strip_prefix(dir).and_then(|rest| rest.strip_prefix('/')).map(|rest| rest.trim_start_matches('/'));
            if key != 0 && in_dir == Some(file) {
                *name = file.to_string();
                self.originals.get_mut().insert(key as u32, Some(split_lines(text)));
            }
        }
    }

    /// The byte index in the original line of byte `k` of preprocessed line `pre`.
    fn original_column(&self, info: SrcLine, pre: &str, k: usize) -> Option<usize> {
        if pre.len() > MAX_ALIGN_LINE || k >= pre.len() {
            return None;
        }
        let mut originals = self.originals.borrow_mut();
        let lines = originals.entry(info.file).or_insert_with(|| {
            let name = self.name(info.file);
            std::fs::read(name).ok().map(|b| split_lines(&String::from_utf8_lossy(&b)))
        });
        let orig = lines.as_ref()?.get((info.line as usize).checked_sub(1)?)?;
        if orig.len() > MAX_ALIGN_LINE {
            return None;
        }
        align(pre.as_bytes(), orig.as_bytes(), k)
    }

    /// The file name of a key (the main file's name as the user gave it).
    pub fn name(&self, key: u32) -> &str {
        self.names.get(key as usize).map(String::as_str).unwrap_or("?")
    }

    /// Whether the span starts in a system header.
    pub fn is_system(&self, span: Span) -> bool {
        !span.is_none() && self.pos(span.start).system
    }
}

fn split_lines(src: &str) -> Vec<String> {
    src.split('\n').map(|l| l.trim_end_matches('\r').to_string()).collect()
}

/// Skips whitespace and comments in an original line; `None` if a comment
/// runs to the end of the line.
fn skip_blank(o: &[u8], mut j: usize) -> Option<usize> {
    loop {
        if j < o.len() && o[j].is_ascii_whitespace() {
            j += 1;
        } else if o[j..].starts_with(b"/*") {
            let end = o[j + 2..].windows(2).position(|w| w == b"*/")?;
            j += 2 + end + 2;
        } else if o[j..].starts_with(b"//") {
            return None;
        } else {
            return Some(j);
        }
    }
}

/// Walks preprocessed line `p` (from its first token) and original line `o`
/// (from `j`) in step; returns the position in `o` of byte `k` of `p`. With
/// `whole`, all of `p` must align.
fn walk(p: &[u8], o: &[u8], k: usize, mut j: usize, whole: bool) -> Option<usize> {
    let mut found = None;
    let mut literal: Option<u8> = None;
    let mut escaped = false;
    for (i, &c) in p.iter().enumerate() {
        if literal.is_none() {
            if c.is_ascii_whitespace() {
                continue;
            }
            j = skip_blank(o, j)?;
        }
        if o.get(j) != Some(&c) {
            return None;
        }
        if i == k {
            found = Some(j);
            if !whole {
                return found;
            }
        }
        match literal {
            None if c == b'"' || c == b'\'' => literal = Some(c),
            None => {}
            Some(_) if escaped => escaped = false,
            Some(_) if c == b'\\' => escaped = true,
            Some(q) if c == q => literal = None,
            Some(_) => {}
        }
        j += 1;
    }
    found
}

/// Aligns a preprocessed line with its original line (see the module doc):
/// the whole line, else the line as a fragment of the original, else the
/// part of the line up to `k` (the rest may be a macro expansion).
fn align(p: &[u8], o: &[u8], k: usize) -> Option<usize> {
    let first = p.iter().position(|c| !c.is_ascii_whitespace())?;
    let start = skip_blank(o, 0)?;
    // The fragment search is quadratic: only for lines of ordinary length.
    let fragment = || match o.len() <= MAX_FRAGMENT_LINE {
        true => (0..o.len()).filter(|&j0| o[j0] == p[first]).find_map(|j0| walk(p, o, k, j0, true)),
        false => None,
    };
    walk(p, o, k, start, true).or_else(fragment).or_else(|| walk(p, o, k, start, false))
}

/// Parses `# <line> "<file>" <flags>` (and `#line <line> "<file>"`), with
/// gcc's escapes in the file name undone.
fn parse_marker(line: &str) -> Option<(u32, String, Vec<u32>)> {
    let rest = line.strip_prefix('#')?;
    let rest = rest.trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start_matches([' ', '\t']);
    let digits_end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    if digits_end == 0 {
        return None;
    }
    let num: u32 = rest[..digits_end].parse().ok()?;
    let rest = rest[digits_end..].trim_start_matches([' ', '\t']).strip_prefix('"')?;
    let (file, after) = unescape_quoted(rest)?;
    let flags = after.split_whitespace().filter_map(|f| f.parse().ok()).collect();
    Some((num, file, flags))
}

/// Reads a gcc-escaped string up to its closing quote: `\\`, `\"` and octal
/// escapes (`\303\251`, used for non-ASCII bytes) are decoded.
fn unescape_quoted(s: &str) -> Option<(String, &str)> {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return Some((String::from_utf8_lossy(&out).into_owned(), &s[i + 1..])),
            b'\\' if i + 1 < bytes.len() => {
                let mut j = i + 1;
                let mut val: u32 = 0;
                while j < bytes.len() && j < i + 4 && (b'0'..=b'7').contains(&bytes[j]) {
                    val = val * 8 + u32::from(bytes[j] - b'0');
                    j += 1;
                }
                if j > i + 1 {
                    out.push(val as u8);
                    i = j;
                } else {
                    out.push(bytes[i + 1]);
                    i += 2;
                }
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    None
}

/// The file table of the IR program being built: `files[0]` is the main file;
/// other files are added the first time a location in them is recorded.
pub(crate) struct FileTable {
    pub files: Vec<String>,
    by_key: FxHashMap<u32, u32>,
}

impl FileTable {
    pub fn new(main_name: &str) -> FileTable {
        let mut by_key = FxHashMap::default();
        by_key.insert(0, 0);
        FileTable { files: vec![main_name.to_string()], by_key }
    }

    /// The IR location of a span's start ([`Loc::NONE`] for a missing span).
    pub fn loc(&mut self, lines: &LineMap, span: Span) -> Loc {
        if span.is_none() {
            return Loc::NONE;
        }
        let pos = lines.pos(span.start);
        let next = self.files.len() as u32;
        let file = *self.by_key.entry(pos.file).or_insert(next);
        if file == next {
            self.files.push(lines.name(pos.file).to_string());
        }
        Loc { file, line: pos.line, col: pos.col }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# 0 \"<stdin>\"\n# 0 \"<built-in>\"\n# 1 \"<stdin>\"\nint x;\n# 1 \"/usr/include/a.h\" 1 3 4\nint y;\n# 2 \"<stdin>\" 2\n  int z;\n";

    #[test]
    fn a_system_macro_in_a_user_file_keeps_the_file_a_user_file() {
        // `bool f(void)` after `#include <stdbool.h>`: gcc marks the
        // expansion of `bool` with flag 3 inside the main file.
        let text = "# 0 \"f.c\"\n# 1 \"/usr/include/stdbool.h\" 1 3 4\n# 2 \"f.c\" 2\n\n# 2 \"f.c\" 3 4\n_Bool\n# 2 \"f.c\"\n f(void);\n";
        let map = LineMap::new(text, "f.c", None);
        let p = map.pos(text.find("_Bool").unwrap());
        assert_eq!((p.file, p.line, p.system), (0, 2, false));
    }

    #[test]
    fn maps_offsets_to_original_lines() {
        let map = LineMap::new(TEXT, "main.c", Some("int x;\n  /* c */ int   z;\n"));
        let off_x = TEXT.find("int x").unwrap();
        assert_eq!(map.pos(off_x), SrcPos { file: 0, line: 1, col: 1, system: false });
        let off_y = TEXT.find("int y").unwrap();
        let p = map.pos(off_y);
        assert_eq!((map.name(p.file), p.line, p.system), ("/usr/include/a.h", 1, true));
        // Line 3 of the original has a comment and extra spaces that gcc
        // removed: the column is the original one.
        let off_z = TEXT.find("z;").unwrap();
        assert_eq!(map.pos(off_z), SrcPos { file: 0, line: 2, col: 17, system: false });
    }

    #[test]
    fn aligns_preprocessed_lines_with_originals() {
        // Interior whitespace, comments, literals with spaces and comment
        // markers.
        let o = b"\tint   y\t= /* c */ f(\"a  /* b\",  x);";
        let p = b" int y = f(\"a  /* b\", x);";
        let col =
            |needle: &[u8]| align(p, o, p.windows(needle.len()).position(|w| w == needle).unwrap()).map(|j| j + 1);
        assert_eq!(col(b"int"), Some(2));
        assert_eq!(col(b"y ="), Some(8));
        assert_eq!(col(b"f("), Some(20));
        assert_eq!(col(b"x)"), Some(34));
        // A fragment of the line (a macro argument on a line of its own).
        assert_eq!(align(b"x > 0", b"    assert(x  > 0);", 4).map(|j| j + 1), Some(17));
        // A macro expansion: no alignment.
        assert_eq!(align(b"((a) * 2)", b"TWICE(a)", 2), None);
    }

    #[test]
    fn unescapes_marker_names() {
        let (n, f, flags) = parse_marker(r#"# 7 "a\\b\"c\303\251.h" 1 3"#).unwrap();
        assert_eq!((n, f.as_str(), flags), (7, "a\\b\"cé.h", vec![1, 3]));
        assert!(parse_marker("#pragma once").is_none());
    }
}

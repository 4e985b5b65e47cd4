//! Front-end fuzzing (issue 15): the front end must never panic on its
//! input (ARCHITECTURE.md's invariant), whatever the bytes. Random byte
//! strings, soups of C tokens, and mutants of the repository's own C files
//! are compiled; errors are fine, but a panic — which `compile_source`
//! turns into an "internal error in the C front end" diagnostic — fails.
//!
//! The generator is a fixed-seed xorshift, so every run feeds the same
//! cases; `FUZZ_CASES=N` (default below) and `FUZZ_SEED=S` widen the search.
//! Most cases are written as `.i` files, which the front end reads without
//! running the preprocessor (fast); the sources are preprocessed once.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use pathwise_cfront::{compile_file, compile_source, DataModel, Diagnostics, FrontendOptions};

/// Cases per kind (random bytes, token soups, mutants).
const DEFAULT_CASES: u64 = 3000;

/// xorshift64*: small, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T: ?Sized>(&mut self, xs: &[&'a T]) -> &'a T {
        xs[self.below(xs.len())]
    }
}

/// Tokens that exercise the parser and the lowering: keywords, punctuators,
/// extreme literals, GNU extensions, library names the engine models.
const TOKENS: &[&str] = &[
    "int",
    "char",
    "short",
    "long",
    "unsigned",
    "signed",
    "_Bool",
    "void",
    "float",
    "double",
    "struct",
    "union",
    "enum",
    "typedef",
    "static",
    "extern",
    "const",
    "volatile",
    "register",
    "inline",
    "if",
    "else",
    "while",
    "do",
    "for",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "goto",
    "return",
    "sizeof",
    "_Alignof",
    "typeof",
    "__attribute__((packed))",
    "__extension__",
    "__builtin_expect",
    "__builtin_unreachable",
    "({",
    "})",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    ":",
    "?",
    "=",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "<<=",
    ">>=",
    "&=",
    "|=",
    "^=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "&",
    "|",
    "^",
    "~",
    "!",
    "&&",
    "||",
    "<",
    ">",
    "<=",
    ">=",
    "==",
    "!=",
    "++",
    "--",
    "->",
    ".",
    "...",
    "x",
    "y",
    "p",
    "a",
    "s",
    "f",
    "main",
    "g",
    "0",
    "1",
    "-1",
    "2147483648",
    "0x7fffffffffffffff",
    "18446744073709551615ULL",
    "99999999999999999999999999",
    "1e999",
    "0x1p-2000",
    "'a'",
    "'\\xff'",
    "\"str\"",
    "L\"w\"",
    "0.5f",
    "malloc",
    "free",
    "memcpy",
    "strlen",
    "abort",
    "pathwise_assume",
    "__VERIFIER_nondet_int",
    "[0]",
    "[-1]",
    "[1 << 40]",
    "*",
    "&",
    "int x;",
    "int f(int n)",
    "struct s { int a; };",
];

/// Literal replacements for mutants: boundary values and odd spellings.
const LITERALS: &[&str] = &[
    "0",
    "-1",
    "0x80000000",
    "-2147483648",
    "9223372036854775807",
    "0xffffffffffffffffULL",
    "1u",
    "'\\0'",
    "1e308",
    "0.0/0.0",
    "(char)300",
    "(void*)0",
    "sizeof(int)",
    "64",
    "65",
    "-64",
    "(1,2)",
];

/// The repository's C files: valid programs to mutate.
fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["tests/c", "tests/bench", "examples", "crates/cfront/tests/c"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        for e in entries.flatten() {
            if e.path().extension().is_some_and(|x| x == "c") {
                files.push(e.path());
            }
        }
    }
    files.sort();
    assert!(files.len() >= 10, "the C corpus is missing: {files:?}");
    files
}

/// `gcc -E` of a corpus file, with `pathwise.h` on the include path.
fn preprocessed(path: &Path) -> String {
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
    let out = Command::new("gcc").arg("-E").arg("-I").arg(include).arg(path).output().expect("gcc -E runs");
    assert!(out.status.success(), "gcc -E failed on {}", path.display());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Splits C text into tokens (identifiers and numbers, string and character
/// literals, single punctuation characters) and the whitespace between
/// them, so that concatenating the pieces gives the text back.
fn tokens(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_alphanumeric() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else if c.is_ascii_whitespace() {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != c && bytes[i] != b'\n' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
        } else {
            i += 1;
            while i < bytes.len() && !bytes[i].is_ascii() {
                i += 1;
            }
        }
        if text.is_char_boundary(start) && text.is_char_boundary(i) {
            out.push(&text[start..i]);
        }
    }
    out
}

/// Operators an operator may become (keeps most mutants parseable).
const OPERATORS: &[&str] = &[
    "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", ">", "==", "!=", "<=", ">=", "&&", "||", "=", "+=", "-=",
    "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=",
];

fn is_word(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

/// A mutant of `text`: a few token-level edits. Most keep the text
/// parseable, so that the lowering sees odd programs (operators, names and
/// literals exchanged, literals nested deep in parentheses); the others
/// delete, duplicate, swap or insert tokens, or truncate.
fn mutate(r: &mut Rng, text: &str) -> String {
    let mut toks: Vec<String> = tokens(text).into_iter().map(str::to_string).collect();
    let words: Vec<String> = toks.iter().filter(|t| is_word(t)).cloned().collect();
    for _ in 0..1 + r.below(3) {
        if toks.is_empty() {
            break;
        }
        let i = r.below(toks.len());
        let next = |f: &dyn Fn(&str) -> bool| (i..toks.len()).chain(0..i).find(|&k| f(&toks[k]));
        match r.below(10) {
            0 => drop(toks.drain(i..(i + 1 + r.below(8)).min(toks.len()))),
            1 => {
                let span: Vec<String> = toks[i..(i + 1 + r.below(8)).min(toks.len())].to_vec();
                let at = r.below(toks.len() + 1);
                toks.splice(at..at, span);
            }
            2 => {
                let j = r.below(toks.len());
                toks.swap(i, j);
            }
            3 => toks.insert(i, format!(" {} ", r.pick(TOKENS))),
            4 | 5 => {
                if let Some(k) = next(&|t| t.starts_with(|c: char| c.is_ascii_digit())) {
                    toks[k] = if r.below(3) == 0 {
                        // Deep nesting: the parser and the lowering recurse.
                        let depth = 1 + r.below(3000);
                        format!("{}{}{}", "(".repeat(depth), toks[k], ")".repeat(depth))
                    } else {
                        r.pick(LITERALS).to_string()
                    };
                }
            }
            6 | 7 => {
                if let Some(k) = next(&|t| OPERATORS.contains(&t)) {
                    toks[k] = r.pick(OPERATORS).to_string();
                }
            }
            8 if !words.is_empty() => {
                if let Some(k) = next(&is_word) {
                    toks[k] = words[r.below(words.len())].clone();
                }
            }
            _ => toks.truncate(i),
        }
    }
    toks.concat()
}

fn soup(r: &mut Rng) -> String {
    let n = 1 + r.below(60);
    let mut s = String::new();
    for _ in 0..n {
        s.push_str(r.pick(TOKENS));
        s.push(' ');
    }
    // Half the soups inside a function body, where the lowering runs.
    if r.below(2) == 0 {
        format!("int f(int x, int *p, unsigned char a[4]) {{ {s} }}\n")
    } else {
        s
    }
}

fn random_bytes(r: &mut Rng) -> String {
    let n = r.below(200);
    let bytes: Vec<u8> = (0..n)
        .map(|_| if r.below(4) == 0 { r.next() as u8 } else { b" \n;{}()[]*&+-=<>!~0123456789abcxyzint"[r.below(37)] })
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn options() -> FrontendOptions {
    FrontendOptions { include_dirs: vec![], defines: vec![], data_model: DataModel::Lp64, extra_args: vec![] }
}

/// What the fuzzer saw.
#[derive(Default)]
struct Tally {
    /// Inputs the front end compiled (some functions maybe unsupported):
    /// they reached the lowering.
    compiled: u64,
    rejected: u64,
    /// The panicking inputs, with the panic's message.
    panics: Vec<(String, String)>,
}

impl Tally {
    fn record(&mut self, input: &str, result: Result<pathwise_cfront::Compiled, Diagnostics>) {
        match result {
            Ok(_) => self.compiled += 1,
            Err(d) => match d.0.iter().find(|d| d.message.contains("internal error in the C front end")) {
                Some(p) => self.panics.push((input.to_string(), p.message.clone())),
                None => self.rejected += 1,
            },
        }
    }
}

/// Compiles `text` as a preprocessed `.i` file (no preprocessor run).
fn compile_i(t: &mut Tally, dir: &Path, text: &str) {
    let path = dir.join("case.i");
    std::fs::write(&path, text).unwrap();
    t.record(text, compile_file(&path, &options()));
}

/// Runs `cases` cases of each kind from `seed`.
fn fuzz(seed: u64, cases: u64, dir: &Path) -> Tally {
    let mut r = Rng(seed | 1);
    let sources: Vec<String> = corpus().iter().map(|p| preprocessed(p)).collect();
    let mut t = Tally::default();
    for i in 0..cases {
        let bytes = random_bytes(&mut r);
        // The preprocessor's path too, but for few cases: it runs gcc.
        if i % 20 == 0 {
            t.record(&bytes, compile_source("fuzz.c", &bytes, &options()));
        } else {
            compile_i(&mut t, dir, &bytes);
        }
        let s = soup(&mut r);
        compile_i(&mut t, dir, &s);
        let src = &sources[r.below(sources.len())];
        let m = mutate(&mut r, src);
        compile_i(&mut t, dir, &m);
    }
    t
}

#[test]
fn the_front_end_never_panics() {
    let cases = std::env::var("FUZZ_CASES").map_or(DEFAULT_CASES, |s| s.parse().expect("FUZZ_CASES=N"));
    let seed = std::env::var("FUZZ_SEED").map_or(0x5EED_CF20_u64, |s| s.parse().expect("FUZZ_SEED=N"));
    let dir = std::env::temp_dir().join(format!("pathwise-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let start = Instant::now();
    let t = fuzz(seed, cases, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    let found = t.panics;
    eprintln!(
        "{} cases in {:.1}s: {} compiled, {} rejected, {} panics",
        cases * 3,
        start.elapsed().as_secs_f64(),
        t.compiled,
        t.rejected,
        found.len()
    );
    for (input, msg) in found.iter().take(3) {
        eprintln!("---- {msg}\n{}", &input[..input.len().min(4000)]);
    }
    assert!(found.is_empty(), "{} inputs made the front end panic (first ones above)", found.len());
}

/// Extreme shapes the random cases rarely reach: deep nesting of
/// parentheses, blocks, `if`s and unary operators, and long operator
/// chains (the parser and the lowering recurse on each).
#[test]
fn deep_and_long_inputs_do_not_crash() {
    let n = std::env::var("FUZZ_DEPTH").map_or(10_000, |s| s.parse().expect("FUZZ_DEPTH=N"));
    let cases = [
        format!("int f(int x) {{ return {}x{}; }}", "(".repeat(n), ")".repeat(n)),
        format!("int f(int x) {{ {} return x; {} }}", "{".repeat(n), "}".repeat(n)),
        format!("int f(int x) {{ {} return x; }}", "if (x) ".repeat(n)),
        format!("int f(int x) {{ return {}x; }}", "-~!".repeat(n / 3)),
        format!("int f(int x) {{ return x{}; }}", " + x".repeat(n)),
        format!("int f(int x) {{ return x{}; }}", " && x".repeat(n)),
        format!("int f(int x) {{ return {}0; }}", "x ? 1 : ".repeat(n)),
        format!("int a{};", "[2]".repeat(n)),
        format!("int f(int x) {{ return x{}; }}", ", x".repeat(n)),
    ];
    let mut t = Tally::default();
    for src in &cases {
        let start = Instant::now();
        t.record(src, compile_source("deep.c", src, &options()));
        eprintln!("{} bytes in {:.2}s", src.len(), start.elapsed().as_secs_f64());
    }
    let panics: Vec<&String> = t.panics.iter().map(|(_, m)| m).collect();
    assert!(panics.is_empty(), "{panics:?}");
}

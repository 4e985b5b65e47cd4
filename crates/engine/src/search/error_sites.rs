//! One error test per bug: the paths that end in the same error (kind,
//! location and failure mode) are one finding for a user, so by default
//! the suite keeps one test per site, the one with the shortest path, and
//! counts the others
//! (issue 23: 40 sequential `if`s gave 9,962 error tests for 14
//! locations; a path library's suite had 22,145 copies of one
//! null-argument error). `gen --all-error-tests`
//! (`Config::one_error_test_per_site` false) keeps a test per path, as the
//! papers' criterion has it.

use pathwise_ir::Loc;
use rustc_hash::FxHashMap;

use crate::suite::{ErrorInfo, ErrorKind, Stats, TestCase};

/// The error sites met so far and the test kept for each.
#[derive(Default)]
pub(crate) struct ErrorSites {
    sites: FxHashMap<(ErrorKind, Loc, String), Site>,
    /// Some kept test was replaced by a shorter one.
    replaced: bool,
}

struct Site {
    /// Index of the kept test in the search's test list.
    test: usize,
    /// Its path length (decisions and checks): shorter replaces it.
    path_len: usize,
    /// Other paths ending at the site, folded into the kept test.
    folded: u64,
}

/// What to do with a new path ending in an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The site's first test: keep it.
    New,
    /// Shorter than the kept test at index `.0`: takes its place.
    Replace(usize),
    /// Not shorter: counted with the kept test.
    Fold,
}

impl ErrorSites {
    /// The verdict for a path of `path_len` ending in `kind` at `loc`;
    /// `may_replace` is false when other state indexes the kept tests
    /// (covers, targets): then the first test of a site stays.
    pub fn judge(&mut self, e: &ErrorInfo, path_len: usize, may_replace: bool) -> Verdict {
        match self.sites.get_mut(&site_key(e)) {
            None => Verdict::New,
            Some(site) => {
                site.folded += 1;
                if may_replace && path_len < site.path_len {
                    site.path_len = path_len;
                    self.replaced = true;
                    Verdict::Replace(site.test)
                } else {
                    Verdict::Fold
                }
            }
        }
    }

    /// The test at `index` is the site's first.
    pub fn kept(&mut self, e: &ErrorInfo, index: usize, path_len: usize) {
        self.sites.insert(site_key(e), Site { test: index, path_len, folded: 0 });
    }

    /// Paths folded in all.
    pub fn folded(&self) -> u64 {
        self.sites.values().map(|s| s.folded).sum()
    }

    /// Writes the count of folded paths into the statistics and each kept
    /// test (`tests` must be the list the indices were taken in: before
    /// covers drop tests). Returns whether a kept test was replaced: the
    /// suite's coverage is then the kept tests', to be computed again.
    pub fn finish(&self, stats: &mut Stats, tests: &mut [TestCase]) -> bool {
        stats.error_paths_folded = self.folded();
        for site in self.sites.values() {
            if let Some(t) = tests.get_mut(site.test) {
                t.same_error_paths = site.folded;
            }
        }
        self.replaced
    }
}

/// An error's site: kind, location and message with each number
/// (`-2147483648`, `12`, `-1.5e300`, `0x1p-3`, `inf`, `NaN`) written `#`,
/// so that the operand values of one failure do not make sites of their
/// own.
fn site_key(e: &ErrorInfo) -> (ErrorKind, Loc, String) {
    let mut mode = String::with_capacity(e.message.len());
    let chars: Vec<char> = e.message.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let word_start = i == 0 || !is_word(chars[i - 1]);
        let len = if word_start { number_len(&chars[i..]) } else { 0 };
        if len == 0 {
            mode.push(chars[i]);
            i += 1;
        } else {
            mode.push('#');
            i += len;
        }
    }
    (e.kind, e.loc, mode)
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

/// The length of the number `s` starts with (an optional `-`, then a
/// decimal or hexadecimal literal with its fraction and exponent, or
/// `inf`/`NaN` as Rust prints them), or 0.
fn number_len(s: &[char]) -> usize {
    let sign = usize::from(s.first() == Some(&'-'));
    let rest = &s[sign..];
    let word = rest.iter().take_while(|&&c| is_word(c)).count();
    let text: String = rest[..word].iter().collect();
    if matches!(text.as_str(), "inf" | "NaN") {
        return sign + word;
    }
    if !rest.first().is_some_and(|c| c.is_ascii_digit()) {
        return 0;
    }
    // Digits, letters and points, and a sign right after an exponent mark.
    let mut n = 0;
    while n < rest.len() {
        let c = rest[n];
        let exp_sign = (c == '+' || c == '-')
            && n > 0
            && matches!(rest[n - 1], 'e' | 'E' | 'p' | 'P')
            && rest.get(n + 1).is_some_and(|d| d.is_ascii_digit());
        if !(is_word(c) || exp_sign) {
            break;
        }
        n += 1;
    }
    // A sentence's full stop is not the number's.
    if n > 0 && rest[n - 1] == '.' {
        n -= 1;
    }
    sign + n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(kind: ErrorKind, line: u32, message: &str) -> ErrorInfo {
        ErrorInfo { kind, loc: Loc { file: 0, line, col: 1 }, message: message.to_string() }
    }

    #[test]
    fn the_shortest_path_of_a_site_is_kept_and_the_others_counted() {
        let mut s = ErrorSites::default();
        let div = error(ErrorKind::DivisionByZero, 3, "division by zero");
        assert_eq!(s.judge(&div, 10, true), Verdict::New);
        s.kept(&div, 0, 10);
        assert_eq!(s.judge(&div, 12, true), Verdict::Fold);
        assert_eq!(s.judge(&div, 4, true), Verdict::Replace(0));
        assert_eq!(s.judge(&div, 5, true), Verdict::Fold);
        // Another kind at the same place, or the same kind elsewhere, is
        // another finding.
        assert_eq!(s.judge(&error(ErrorKind::SignedOverflow, 3, "division by zero"), 4, true), Verdict::New);
        assert_eq!(s.judge(&error(ErrorKind::DivisionByZero, 4, "division by zero"), 4, true), Verdict::New);
        // Without replacement the first test stays.
        assert_eq!(s.judge(&div, 1, false), Verdict::Fold);
        assert_eq!(s.folded(), 4);
        assert!(s.replaced);
    }

    #[test]
    fn operand_values_do_not_make_another_site_but_the_failure_mode_does() {
        let mut s = ErrorSites::default();
        let over = error(ErrorKind::SignedOverflow, 7, "signed overflow: -2147483648 - 1 does not fit in 32 bits");
        s.kept(&over, 0, 3);
        let other = error(ErrorKind::SignedOverflow, 7, "signed overflow: 0 - -2147483648 does not fit in 32 bits");
        assert_eq!(s.judge(&other, 3, true), Verdict::Fold);
        let null = error(ErrorKind::NullDereference, 9, "null pointer dereference");
        s.kept(&null, 1, 3);
        let call = error(ErrorKind::NullDereference, 9, "call through a null function pointer");
        assert_eq!(s.judge(&call, 3, true), Verdict::New);
    }

    #[test]
    fn floating_operands_are_numbers_too() {
        let mode = |m: &str| site_key(&error(ErrorKind::FloatOverflow, 1, m)).2;
        let a = mode("floating overflow: -1.7976931281653871e308 + -1e300 is not finite");
        assert_eq!(a, "floating overflow: # + # is not finite");
        assert_eq!(mode("floating overflow: 1.7976931348099962e308 + 2.0206137732338219e301 is not finite"), a);
        assert_eq!(mode("floating overflow: inf + NaN is not finite"), a);
        assert_eq!(mode("value 0x1.8p+1 at x.c:3."), "value # at x.c:#.");
        // Words that merely contain digits or `inf` stay.
        assert_eq!(mode("infinite loop in f2 at x_1"), "infinite loop in f2 at x_1");
    }
}

//! Partial traces as input (seed 003, ch. 4.4, Example 17: "4 iterations
//! of this loop, each calling add", whether add reallocates left free):
//! a pattern over the function under test's own decisions (`gen --trace`).
//!
//! Syntax (whitespace separates items):
//! - `LINE:T`, `LINE:F`: a decision of the function on that line taking
//!   its true or false side (`LINE:COL:T` when a line has several);
//! - `_`: any one decision;
//! - `( ... )` groups, `A | B` alternatives;
//! - postfix `*`, `+`, `?`, `{N}`, `{N,M}` repeat the item before.
//!
//! A run follows the pattern when the sequence of its own decisions (the
//! outermost activation's, concrete ones included: callees are free, as in
//! Definition 5.3.1's slicing) matches all of it; end with `_*` to
//! prescribe a prefix only. The pattern compiles to a Thompson NFA; a
//! prefix of decisions is *viable* when some word of the pattern extends
//! it (every state of the NFA can reach its end), which is how the search
//! prunes.

/// One decision: line, column, side.
pub type Decision = (u32, u32, bool);

/// What an item matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    Any,
    At { line: u32, col: Option<u32>, taken: bool },
}

impl Item {
    fn matches(self, d: Decision) -> bool {
        match self {
            Item::Any => true,
            Item::At { line, col, taken } => line == d.0 && col.is_none_or(|c| c == d.1) && taken == d.2,
        }
    }
}

#[derive(Clone, Debug)]
enum Ast {
    Item(Item),
    Seq(Vec<Ast>),
    Alt(Vec<Ast>),
    Repeat(Box<Ast>, u32, Option<u32>),
}

#[derive(Clone, Copy, Debug)]
enum State {
    Item(Item, usize),
    Split(usize, usize),
    Accept,
}

/// NFA states at most (a bound on `{N}` expansions).
const MAX_STATES: usize = 100_000;

/// A compiled partial trace.
#[derive(Clone, Debug)]
pub struct TracePattern {
    /// As the user wrote it.
    pub text: String,
    states: Vec<State>,
    start: usize,
    /// Every `LINE:..` item, for checking against the function.
    pub items: Vec<Item>,
}

/// Two patterns are the same when written the same.
impl PartialEq for TracePattern {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for TracePattern {}

/// A set of NFA states (sorted, deduplicated).
pub type StateSet = Vec<usize>;

impl TracePattern {
    /// Parse and compile `text`; the error names the offending column.
    pub fn parse(text: &str) -> Result<TracePattern, String> {
        let tokens = tokenize(text)?;
        let mut p = Parser { tokens: &tokens, at: 0 };
        let ast = p.alt()?;
        if let Some((col, t)) = tokens.get(p.at) {
            return Err(format!("--trace: unexpected `{t}` at column {col}"));
        }
        let mut items = Vec::new();
        collect_items(&ast, &mut items);
        let mut nfa = TracePattern { text: text.to_string(), states: vec![State::Accept], start: 0, items };
        nfa.start = nfa.build(&ast, 0)?;
        Ok(nfa)
    }

    fn add(&mut self, s: State) -> Result<usize, String> {
        if self.states.len() >= MAX_STATES {
            return Err(format!("--trace: the pattern expands to more than {MAX_STATES} states"));
        }
        self.states.push(s);
        Ok(self.states.len() - 1)
    }

    /// States for `ast` continuing to `next`; returns its entry.
    fn build(&mut self, ast: &Ast, next: usize) -> Result<usize, String> {
        match ast {
            Ast::Item(i) => self.add(State::Item(*i, next)),
            Ast::Seq(v) => v.iter().rev().try_fold(next, |n, a| self.build(a, n)),
            Ast::Alt(v) => {
                let mut entry = self.build(&v[v.len() - 1], next)?;
                for a in v[..v.len() - 1].iter().rev() {
                    let e = self.build(a, next)?;
                    entry = self.add(State::Split(e, entry))?;
                }
                Ok(entry)
            }
            Ast::Repeat(a, min, max) => {
                // The optional tail first: (a (a ...)?)? up to max, or a*.
                let mut entry = match max {
                    None => {
                        let split = self.add(State::Split(0, next))?;
                        let body = self.build(a, split)?;
                        self.states[split] = State::Split(body, next);
                        split
                    }
                    Some(m) => {
                        let mut e = next;
                        for _ in *min..*m {
                            let body = self.build(a, e)?;
                            e = self.add(State::Split(body, next))?;
                        }
                        e
                    }
                };
                for _ in 0..*min {
                    entry = self.build(a, entry)?;
                }
                Ok(entry)
            }
        }
    }

    /// The closure of `set` under empty moves.
    fn close(&self, set: impl IntoIterator<Item = usize>) -> StateSet {
        let mut out: StateSet = Vec::new();
        let mut todo: Vec<usize> = set.into_iter().collect();
        while let Some(s) = todo.pop() {
            if out.contains(&s) {
                continue;
            }
            out.push(s);
            match self.states[s] {
                State::Split(a, b) => todo.extend([a, b]),
                State::Item(..) | State::Accept => {}
            }
        }
        out.sort_unstable();
        out
    }

    /// The states before any decision.
    pub fn start(&self) -> StateSet {
        self.close([self.start])
    }

    /// The states after decision `d`; empty: no word of the pattern has
    /// this prefix.
    pub fn step(&self, set: &StateSet, d: Decision) -> StateSet {
        let next = set.iter().filter_map(|&s| match self.states[s] {
            State::Item(i, n) if i.matches(d) => Some(n),
            _ => None,
        });
        self.close(next.collect::<Vec<_>>())
    }

    /// Whether the decisions read so far are a whole word of the pattern.
    pub fn accepts(&self, set: &StateSet) -> bool {
        set.iter().any(|&s| matches!(self.states[s], State::Accept))
    }

    /// The states after `decisions` from the start.
    pub fn run(&self, decisions: impl IntoIterator<Item = Decision>) -> StateSet {
        decisions.into_iter().fold(self.start(), |set, d| if set.is_empty() { set } else { self.step(&set, d) })
    }
}

fn collect_items(ast: &Ast, out: &mut Vec<Item>) {
    match ast {
        Ast::Item(i @ Item::At { .. }) => out.push(*i),
        Ast::Item(Item::Any) => {}
        Ast::Seq(v) | Ast::Alt(v) => v.iter().for_each(|a| collect_items(a, out)),
        Ast::Repeat(a, ..) => collect_items(a, out),
    }
}

/// Tokens with their 1-based columns: punctuation, or a word (`57:T`,
/// `_`, `{2,4}` as one token).
fn tokenize(text: &str) -> Result<Vec<(usize, String)>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() {
            i += 1;
        } else if "()|*+?".contains(c) {
            out.push((col, c.to_string()));
            i += 1;
        } else if c == '{' {
            let end = chars[i..]
                .iter()
                .position(|&c| c == '}')
                .ok_or(format!("--trace: `{{` at column {col} is not closed"))?;
            out.push((col, chars[i..=i + end].iter().collect()));
            i += end + 1;
        } else {
            let start = i;
            while i < chars.len() && !chars[i].is_whitespace() && !"()|*+?{".contains(chars[i]) {
                i += 1;
            }
            out.push((col, chars[start..i].iter().collect()));
        }
    }
    if out.is_empty() {
        return Err("--trace: the pattern is empty".into());
    }
    Ok(out)
}

struct Parser<'t> {
    tokens: &'t [(usize, String)],
    at: usize,
}

impl<'t> Parser<'t> {
    fn peek(&self) -> Option<&'t str> {
        self.tokens.get(self.at).map(|t| t.1.as_str())
    }

    fn col(&self) -> usize {
        self.tokens.get(self.at).map_or(self.tokens.last().map_or(1, |t| t.0 + t.1.len()), |t| t.0)
    }

    fn alt(&mut self) -> Result<Ast, String> {
        let mut alts = vec![self.seq()?];
        while self.peek() == Some("|") {
            self.at += 1;
            alts.push(self.seq()?);
        }
        Ok(if alts.len() == 1 { alts.pop().expect("one") } else { Ast::Alt(alts) })
    }

    fn seq(&mut self) -> Result<Ast, String> {
        let mut items = Vec::new();
        while let Some(t) = self.peek() {
            if t == "|" || t == ")" {
                break;
            }
            items.push(self.repeat()?);
        }
        if items.is_empty() {
            return Err(format!("--trace: expected a decision at column {}", self.col()));
        }
        Ok(if items.len() == 1 { items.pop().expect("one") } else { Ast::Seq(items) })
    }

    fn repeat(&mut self) -> Result<Ast, String> {
        let mut a = self.atom()?;
        while let Some(t) = self.peek() {
            let col = self.col();
            let (min, max) = match t {
                "*" => (0, None),
                "+" => (1, None),
                "?" => (0, Some(1)),
                t if t.starts_with('{') => bounds(&t[1..t.len() - 1]).ok_or(format!(
                    "--trace: `{t}` at column {col} is not a repetition ({{N}} or {{N,M}} with N <= M)"
                ))?,
                _ => break,
            };
            self.at += 1;
            a = Ast::Repeat(Box::new(a), min, max);
        }
        Ok(a)
    }

    fn atom(&mut self) -> Result<Ast, String> {
        let col = self.col();
        let Some(t) = self.peek() else { return Err(format!("--trace: expected a decision at column {col}")) };
        self.at += 1;
        match t {
            "(" => {
                let a = self.alt()?;
                if self.peek() != Some(")") {
                    return Err(format!("--trace: expected `)` at column {}", self.col()));
                }
                self.at += 1;
                Ok(a)
            }
            "_" => Ok(Ast::Item(Item::Any)),
            t => decision(t)
                .map(Ast::Item)
                .ok_or(format!("--trace: `{t}` at column {col} is not a decision (LINE:T, LINE:F, LINE:COL:T or _)")),
        }
    }
}

/// `N` or `N,M` (N <= M).
fn bounds(s: &str) -> Option<(u32, Option<u32>)> {
    match s.split_once(',') {
        None => s.trim().parse().ok().map(|n| (n, Some(n))),
        Some((a, b)) => {
            let (a, b): (u32, u32) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
            (a <= b).then_some((a, Some(b)))
        }
    }
}

/// `LINE:T`, `LINE:F`, `LINE:COL:T`, `LINE:COL:F`.
fn decision(t: &str) -> Option<Item> {
    let parts: Vec<&str> = t.split(':').collect();
    let taken = match *parts.last()? {
        "T" | "t" => true,
        "F" | "f" => false,
        _ => return None,
    };
    let line: u32 = parts.first()?.parse().ok().filter(|&l| l > 0)?;
    let col = match parts.len() {
        2 => None,
        3 => Some(parts[1].parse().ok().filter(|&c| c > 0)?),
        _ => return None,
    };
    Some(Item::At { line, col, taken })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(p: &TracePattern, w: &[(u32, bool)]) -> (bool, bool) {
        let set = p.run(w.iter().map(|&(l, t)| (l, 1, t)));
        (!set.is_empty(), p.accepts(&set))
    }

    #[test]
    fn example_17() {
        let p = TracePattern::parse("55:F (57:T 58:T){4} 57:F").unwrap();
        let four: Vec<(u32, bool)> = [(55, false)]
            .into_iter()
            .chain((0..4).flat_map(|_| [(57, true), (58, true)]))
            .chain([(57, false)])
            .collect();
        assert_eq!(word(&p, &four), (true, true));
        assert_eq!(word(&p, &four[..5]), (true, false), "a viable prefix");
        assert_eq!(word(&p, &[(55, false), (57, false)]), (false, false), "no iteration: not viable");
        assert_eq!(word(&p, &[(55, true)]), (false, false));
        assert_eq!(p.items.len(), 4);
    }

    #[test]
    fn repetitions_and_alternatives() {
        let p = TracePattern::parse("(3:T | 4:F){1,2} _*").unwrap();
        assert_eq!(word(&p, &[(3, true)]), (true, true));
        assert_eq!(word(&p, &[(4, false), (3, true), (9, true), (9, false)]), (true, true));
        assert_eq!(word(&p, &[]), (true, false));
        assert_eq!(word(&p, &[(9, true)]), (false, false));
        let p = TracePattern::parse("3:7:T+ 5:F?").unwrap();
        assert!(p.accepts(&p.run([(3, 7, true), (3, 7, true)])));
        assert!(p.run([(3, 8, true)]).is_empty());
        for bad in ["", "3", "3:X", "(3:T", "3:T)", "3:T{2,1}", "3:T{x}", "| 3:T", "0:T", "3:T {"] {
            let e = TracePattern::parse(bad).unwrap_err();
            assert!(e.starts_with("--trace: "), "{bad}: {e}");
        }
    }
}

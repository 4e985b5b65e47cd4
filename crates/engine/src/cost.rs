//! Resource-aware generation (seed 003, ch. 4.3) and the goals of guided
//! generation (ch. 5): cost models, cost policies and target lines.
//!
//! The accounting has its own state, a [`crate::meter::Meter`] per
//! execution, an interpreter extension counting instructions, calls and
//! allocations; everything else — which models exist, what a
//! test's cost is, how it reads as an expression over the inputs — lives
//! here, so that the interpreter knows nothing of policies.
//!
//! Models (`gen --cost`):
//! - `instructions`: IR instructions and terminators executed by the
//!   function under test and everything it calls (not the precondition).
//!   The IR is close to C's expression level: an assignment `x = a + b;`
//!   to a local is about four (two loads, an add, a store), a branch is one
//!   terminator, a call of a modelled library function (`malloc`, `strlen`)
//!   is one instruction whatever the library does.
//! - `memory`: bytes allocated by `malloc`, `calloc`, `realloc` (and
//!   `strdup`/`strndup`), freed or not (no reuse, like the thesis's model
//!   without garbage collection). A size that depends on the inputs stays
//!   an expression, so the cost is symbolic (`16 + 4*icap`).
//! - `calls` / `calls=NAME`: calls executed (to functions of the unit and
//!   of the C library; the engine's own `pathwise_*` built-ins excluded),
//!   in total or to one function.
//!
//! Instructions and calls are the same for every input that follows one
//! path (the path fixes every decision, so the code run between them), so
//! their cost is a constant per path; memory is the sum of the allocation
//! sizes, each constant or an expression over the inputs.

use pathwise_expr::{BvOp, Expr, ExprId, ExprPool};
use pathwise_ir::FuncId;

/// What a cost counts (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CostModel {
    Instructions,
    Memory,
    /// Calls in total (`None`) or to the named function.
    Calls(Option<String>),
}

impl CostModel {
    /// The name on the command line and in outputs (`calls=realloc_vec`).
    pub fn name(&self) -> String {
        match self {
            CostModel::Instructions => "instructions".into(),
            CostModel::Memory => "memory".into(),
            CostModel::Calls(None) => "calls".into(),
            CostModel::Calls(Some(f)) => format!("calls={f}"),
        }
    }

    /// The inverse of [`CostModel::name`], with a message naming the
    /// models when `s` is none of them.
    pub fn parse(s: &str) -> Result<CostModel, String> {
        match s.trim() {
            "instructions" => Ok(CostModel::Instructions),
            "memory" => Ok(CostModel::Memory),
            "calls" => Ok(CostModel::Calls(None)),
            t => match t.strip_prefix("calls=") {
                Some(f) if is_identifier(f) => Ok(CostModel::Calls(Some(f.to_string()))),
                Some(f) => Err(format!("`{f}` is not a function name (in --cost calls=NAME)")),
                None => Err(format!("unknown cost model `{t}` (expected instructions, memory, calls or calls=NAME)")),
            },
        }
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A comparison of a cost with a threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostCmp {
    Gt,
    Ge,
    Lt,
    Le,
}

impl CostCmp {
    fn text(self) -> &'static str {
        match self {
            CostCmp::Gt => ">",
            CostCmp::Ge => ">=",
            CostCmp::Lt => "<",
            CostCmp::Le => "<=",
        }
    }

    /// Whether `cost OP threshold` holds.
    pub fn holds(self, cost: u64, threshold: u64) -> bool {
        match self {
            CostCmp::Gt => cost > threshold,
            CostCmp::Ge => cost >= threshold,
            CostCmp::Lt => cost < threshold,
            CostCmp::Le => cost <= threshold,
        }
    }
}

/// A resource policy (`gen --cost-policy`, seed 003 ch. 4.3.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CostPolicy {
    /// Keep the tests whose cost under model `model` (an index into
    /// [`Goals::costs`]) compares so with `value`. A symbolic cost makes
    /// the comparison a constraint of the path: its test then has inputs
    /// for which it holds, when any exist.
    Threshold { model: usize, op: CostCmp, value: u64 },
    /// Tests in decreasing order of the first model's concrete cost.
    Order,
    /// The `n` most expensive tests (first model), in decreasing order.
    Top(usize),
    /// The most expensive test alone (first model).
    Worst,
}

impl CostPolicy {
    /// Parse `[MODEL]OP N` (`>48`, `memory<=100`), `order`, `top=N`,
    /// `worst`; `models` are the `--cost` models (a threshold without a
    /// model name applies to the first).
    pub fn parse(s: &str, models: &[CostModel]) -> Result<CostPolicy, String> {
        let s = s.trim();
        if models.is_empty() {
            return Err(format!("--cost-policy {s}: give a cost model with --cost first"));
        }
        match s {
            "order" => return Ok(CostPolicy::Order),
            "worst" => return Ok(CostPolicy::Worst),
            _ => {}
        }
        if let Some(n) = s.strip_prefix("top=") {
            return match n.trim().parse::<usize>() {
                Ok(n) if n > 0 => Ok(CostPolicy::Top(n)),
                _ => Err(format!("--cost-policy {s}: top=N needs a positive number")),
            };
        }
        let Some(at) = s.find(['<', '>']) else {
            return Err(format!(
                "unknown cost policy `{s}` (expected a threshold such as `>48` or `memory<=100`, `order`, `top=N` or `worst`)"
            ));
        };
        let (name, rest) = s.split_at(at);
        let (op, number) = if let Some(r) = rest.strip_prefix(">=") {
            (CostCmp::Ge, r)
        } else if let Some(r) = rest.strip_prefix("<=") {
            (CostCmp::Le, r)
        } else if let Some(r) = rest.strip_prefix('>') {
            (CostCmp::Gt, r)
        } else {
            (CostCmp::Lt, &rest[1..])
        };
        let value = number
            .trim()
            .parse::<u64>()
            .map_err(|_| format!("--cost-policy {s}: `{}` is not a non-negative whole number", number.trim()))?;
        let model = match name.trim() {
            "" => 0,
            n => {
                let wanted = CostModel::parse(n)?;
                models
                    .iter()
                    .position(|m| *m == wanted)
                    .ok_or_else(|| format!("--cost-policy {s}: the model `{n}` is not one of the --cost models"))?
            }
        };
        Ok(CostPolicy::Threshold { model, op, value })
    }

    /// The policy as written in outputs (`memory>48`).
    pub fn text(&self, models: &[CostModel]) -> String {
        match self {
            CostPolicy::Threshold { model, op, value } => {
                let name = models.get(*model).map(|m| m.name()).unwrap_or_default();
                format!("{name}{}{value}", op.text())
            }
            CostPolicy::Order => "order".into(),
            CostPolicy::Top(n) => format!("top={n}"),
            CostPolicy::Worst => "worst".into(),
        }
    }
}

/// A line a guided run must reach (`gen --target FILE:LINE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// As the user wrote it.
    pub spec: String,
    /// The functions with code on that line, and the line: a test reaches
    /// the target when its run executes the line in one of them.
    pub points: Vec<(FuncId, u32)>,
}

/// What the user asked of the tests beyond the criterion: costs, policies
/// and targets (all empty: plain generation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Goals {
    pub costs: Vec<CostModel>,
    pub policies: Vec<CostPolicy>,
    pub targets: Vec<Target>,
    /// A statement or branch cover (`gen --criterion statements|branches`):
    /// keep a test only when it covers a goal no earlier test did, and stop
    /// when every goal is covered.
    pub cover: Option<Cover>,
    /// `gen --criterion all-local-paths` (seed 003, ch. 5.3.1): negate
    /// only the function's own decisions, one test per sequence of them.
    pub local_paths: bool,
    /// Resource-driven generation (`gen --resource-driven`, seed 003 ch.
    /// 4.4): bounded abstract traces tried in decreasing order of their
    /// cost under the first model (see `search/driven.rs`).
    pub driven: bool,
    /// A partial trace (`gen --trace`, seed 003 Example 17): only the
    /// paths whose own decisions match it (see `search/partial.rs`).
    pub trace: Option<crate::trace_pattern::TracePattern>,
}

/// The goals of a cover: located blocks or branch sides of the function
/// under test and its callees (as the VC method counts them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cover {
    Statements,
    Branches,
}

impl Cover {
    pub fn name(self) -> &'static str {
        match self {
            Cover::Statements => "statements",
            Cover::Branches => "branches",
        }
    }
}

impl Goals {
    /// Threshold policies: (model index, comparison, value).
    pub fn thresholds(&self) -> impl Iterator<Item = (usize, CostCmp, u64)> + '_ {
        self.policies.iter().filter_map(|p| match *p {
            CostPolicy::Threshold { model, op, value } => Some((model, op, value)),
            _ => None,
        })
    }
}

/// A maximum on the part of a cost that the path alone fixes (seed 003,
/// ch. 4.4: "a maximum-threshold policy can prune a path as soon as it
/// exceeds the threshold"): instructions and calls, and for memory the
/// allocations of constant size (a symbolic size may be 0 for other
/// inputs of the path, so it adds nothing to the lower bound).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostCap {
    pub model: CostModel,
    /// The largest cost allowed.
    pub max: u64,
}

impl Goals {
    /// The caps the maximum thresholds (`<N`, `<=N`) set: a run whose
    /// path-fixed cost passes one can only become a test that fails it.
    pub fn caps(&self) -> Vec<CostCap> {
        self.thresholds()
            .filter_map(|(m, op, v)| {
                let max = match op {
                    CostCmp::Le => v,
                    // `< 0` holds for no cost: the policy drops every test.
                    CostCmp::Lt => v.checked_sub(1)?,
                    CostCmp::Gt | CostCmp::Ge => return None,
                };
                Some(CostCap { model: self.costs[m].clone(), max })
            })
            .collect()
    }
}

/// A cost as C-like text: `16 + 4*icap` for linear sums of inputs (a
/// sign or zero extension reads as the value it extends, which is exact
/// where the path holds: sizes are kept below 2^28 and overflow is an

/// error), the solver's own notation otherwise.
pub fn cost_text(pool: &ExprPool, e: ExprId) -> String {
    let Some((terms, constant)) = linear_form(pool, e) else { return format!("{}", pool.display(e)) };
    let mut out = String::new();
    for (name, c) in &terms {
        let (sign, mag) = if *c < 0 { (" - ", -c) } else { (" + ", *c) };
        if out.is_empty() {
            out.push_str(if *c < 0 { "-" } else { "" });
        } else {
            out.push_str(sign);
        }
        if mag == 1 {
            out.push_str(name);
        } else {
            out.push_str(&format!("{mag}*{name}"));
        }
    }
    match (out.is_empty(), constant) {
        (true, c) => c.to_string(),
        (false, 0) => out,
        (false, c) if c < 0 => format!("{out} - {}", -c),
        (false, c) => format!("{out} + {c}"),
    }
}

/// `e` as a sum of inputs times coefficients plus a constant (see
/// [`cost_text`]), when it is one.
pub fn linear_form(pool: &ExprPool, e: ExprId) -> Option<(Vec<(String, i128)>, i128)> {
    let mut terms: Vec<(String, i128)> = Vec::new();
    let mut constant: i128 = 0;
    if !linear(pool, e, 1, &mut terms, &mut constant) {
        return None;
    }
    terms.retain(|t| t.1 != 0);
    Some((terms, constant))
}

/// `e` as `a*x + b` of a single input `x`: (x, a, b).
pub fn single_input(pool: &ExprPool, e: ExprId) -> Option<(String, i128, i128)> {
    match linear_form(pool, e)? {
        (terms, b) if terms.len() == 1 => Some((terms[0].0.clone(), terms[0].1, b)),
        _ => None,
    }
}

/// Adds `scale * e` to `terms` and `constant`; false when `e` is not a
/// linear sum of variables.
fn linear(pool: &ExprPool, e: ExprId, scale: i128, terms: &mut Vec<(String, i128)>, constant: &mut i128) -> bool {
    let signed = |v: u64, w: u32| -> i128 {
        if w < 64 && v >> (w - 1) & 1 == 1 {
            v as i128 - (1i128 << w)
        } else if w == 64 {
            v as i64 as i128
        } else {
            v as i128
        }
    };
    match pool.get(e) {
        Expr::BvConst { width, value } => {
            *constant += scale * signed(*value, *width);
            true
        }
        Expr::Var { name, .. } => {
            match terms.iter_mut().find(|t| &t.0 == name) {
                Some(t) => t.1 += scale,
                None => terms.push((name.clone(), scale)),
            }
            true
        }
        Expr::SExt { a, .. } | Expr::ZExt { a, .. } => linear(pool, *a, scale, terms, constant),
        Expr::Bin { op: BvOp::Add, a, b } => {
            linear(pool, *a, scale, terms, constant) && linear(pool, *b, scale, terms, constant)
        }
        Expr::Bin { op: BvOp::Sub, a, b } => {
            linear(pool, *a, scale, terms, constant) && linear(pool, *b, -scale, terms, constant)
        }
        Expr::Bin { op: BvOp::Mul, a, b } => match (pool.as_bv_const(*a), pool.as_bv_const(*b)) {
            (Some(c), _) => linear(pool, *b, scale * signed(c, pool.width(*a)), terms, constant),
            (_, Some(c)) => linear(pool, *a, scale * signed(c, pool.width(*b)), terms, constant),
            _ => false,
        },
        Expr::Bin { op: BvOp::Shl, a, b } => match pool.as_bv_const(*b) {
            Some(c) if c < 62 => linear(pool, *a, scale << c, terms, constant),
            _ => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meter::Meter;
    use pathwise_expr::Sort;

    #[test]
    fn models_and_policies_parse() {
        let models = vec![CostModel::Instructions, CostModel::Memory];
        assert_eq!(CostModel::parse("calls=add"), Ok(CostModel::Calls(Some("add".into()))));
        assert!(CostModel::parse("time").is_err());
        assert!(CostModel::parse("calls=1x").is_err());
        let p = CostPolicy::parse("memory>48", &models).unwrap();
        assert_eq!(p, CostPolicy::Threshold { model: 1, op: CostCmp::Gt, value: 48 });
        assert_eq!(p.text(&models), "memory>48");
        assert_eq!(
            CostPolicy::parse("<=10", &models),
            Ok(CostPolicy::Threshold { model: 0, op: CostCmp::Le, value: 10 })
        );
        assert_eq!(CostPolicy::parse("top=3", &models), Ok(CostPolicy::Top(3)));
        for bad in ["top=0", ">x", "calls>3", "cheap", ">-1"] {
            assert!(CostPolicy::parse(bad, &models).is_err(), "{bad}");
        }
        assert!(CostPolicy::parse("worst", &[]).is_err());
    }

    #[test]
    fn linear_costs_read_as_c() {
        let mut pool = ExprPool::new();
        let icap = pool.var("icap", Sort::Bv(32));
        let wide = pool.sext(icap, 64);
        let four = pool.bv_const(64, 4);
        let bytes = pool.bin(BvOp::Mul, wide, four);
        let sixteen = pool.bv_const(64, 16);
        let sum = pool.bin(BvOp::Add, sixteen, bytes);
        assert_eq!(cost_text(&pool, sum), "4*icap + 16");
        let mut m = Meter::new(true);
        m.note_allocation(16, None);
        m.note_allocation(20, Some(bytes));
        assert_eq!(m.concrete(&CostModel::Memory), 36);
        let e = m.symbolic(&mut pool, &CostModel::Memory).unwrap();
        assert_eq!(cost_text(&pool, e), "4*icap + 16");
        assert!(m.symbolic(&mut pool, &CostModel::Instructions).is_none());
    }
}

//! Summaries outside a search: exported from one expression pool and
//! imported into another (bottom-up searches hand their summaries up), and
//! stored as JSON between runs (`--summary-store DIR`).
//!
//! A stored summary is the file `DIR/<function>.<key>.json`; its key is a
//! hash of the function's IR with its callees' (every function it
//! reaches), of the program's globals and of the options that change
//! summaries (k, criterion, checks, array bound, mode). A changed function
//! changes its own key and its callers': their summaries are computed
//! again, the others are reused.

use std::path::Path;

use pathwise_expr::{BvCmp, BvOp, Expr, ExprId, ExprPool, Sort};
use pathwise_ir::{FuncId, Program, Type};
use rustc_hash::FxHashMap;
use serde_json::{json, Value as Json};

use super::summary::{Base, Case, CellKey, Origin, Outcome, Post, Summary};
use crate::blockk::Check;

/// A summary outside any pool: cases over a table of expression nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct Exported {
    pub function: String,
    pub complete: Option<bool>,
    /// Each node: an operator and its operands (indices of earlier nodes).
    nodes: Vec<Json>,
    cases: Vec<Json>,
}

struct Writer<'a> {
    pool: &'a ExprPool,
    nodes: Vec<Json>,
    index: FxHashMap<ExprId, usize>,
}

fn sort_json(s: Sort) -> Json {
    match s {
        Sort::Bool => json!("bool"),
        Sort::Bv(w) => json!(w),
        Sort::Array { index, elem } => json!([index, elem]),
    }
}

fn sort_of(j: &Json) -> Option<Sort> {
    match j {
        Json::String(s) if s == "bool" => Some(Sort::Bool),
        Json::Number(n) => Some(Sort::Bv(n.as_u64()? as u32)),
        Json::Array(a) => Some(Sort::Array { index: a.first()?.as_u64()? as u32, elem: a.get(1)?.as_u64()? as u32 }),
        _ => None,
    }
}

impl Writer<'_> {
    fn node(&mut self, e: ExprId) -> usize {
        if let Some(&i) = self.index.get(&e) {
            return i;
        }
        let j = match self.pool.get(e).clone() {
            Expr::BoolConst(b) => json!(["b", b]),
            Expr::BvConst { width, value } => json!(["c", width, value]),
            Expr::Var { name, sort } => json!(["v", name, sort_json(sort)]),
            Expr::Not(a) => json!(["not", self.node(a)]),
            Expr::And(a, b) => json!(["and", self.node(a), self.node(b)]),
            Expr::Or(a, b) => json!(["or", self.node(a), self.node(b)]),
            Expr::Eq(a, b) => json!(["eq", self.node(a), self.node(b)]),
            Expr::Bin { op, a, b } => json!(["bin", format!("{op:?}"), self.node(a), self.node(b)]),
            Expr::Cmp { op, a, b } => json!(["cmp", format!("{op:?}"), self.node(a), self.node(b)]),
            Expr::SMulNoOverflow(a, b) => json!(["smulno", self.node(a), self.node(b)]),
            Expr::Ite { cond, then_, else_ } => json!(["ite", self.node(cond), self.node(then_), self.node(else_)]),
            Expr::ZExt { a, width } => json!(["zext", self.node(a), width]),
            Expr::SExt { a, width } => json!(["sext", self.node(a), width]),
            Expr::Extract { a, hi, lo } => json!(["extract", self.node(a), hi, lo]),
            Expr::Select { array, index } => json!(["select", self.node(array), self.node(index)]),
            Expr::Store { array, index, value } => {
                json!(["store", self.node(array), self.node(index), self.node(value)])
            }
            Expr::ConstArray { index, value } => json!(["carr", index, self.node(value)]),
            // Floating operators by the `Debug` names of their operators.
            Expr::FBin { op, rnd, fmt, a, b } => {
                let mut node = vec![json!("fbin"), json!(format!("{op:?}")), json!(format!("{fmt:?}"))];
                node.extend([json!(self.node(a)), json!(self.node(b))]);
                // The direction only when `fesetround` set one (to nearest
                // is what a summary without it means).
                if rnd != pathwise_expr::Rounding::NearestEven {
                    node.push(json!(format!("{rnd:?}")));
                }
                Json::Array(node)
            }
            Expr::FCmp { op, fmt, a, b } => {
                json!(["fcmp", format!("{op:?}"), format!("{fmt:?}"), self.node(a), self.node(b)])
            }
            Expr::FUn { op, fmt, a } => json!(["fun", format!("{op:?}"), format!("{fmt:?}"), self.node(a)]),
            Expr::FConv { op, a } => json!(["fconv", format!("{op:?}"), self.node(a)]),
        };
        self.nodes.push(j);
        let i = self.nodes.len() - 1;
        self.index.insert(e, i);
        i
    }
}

/// A block-k trace with function names (ids differ between programs).
fn trace_json(program: &Program, trace: &[Check]) -> Json {
    let ev = |tag: &str, f: FuncId, b: pathwise_ir::Block| json!([tag, program.func(f).name, b.0]);
    Json::Array(
        trace
            .iter()
            .map(|c| match *c {
                Check::Enter(f, b) => ev("enter", f, b),
                Check::Leave(f, b) => ev("leave", f, b),
            })
            .collect(),
    )
}

fn trace_of(j: &Json, funcs: &dyn Fn(&str) -> Option<FuncId>) -> Option<std::sync::Arc<[Check]>> {
    let mut out = Vec::new();
    for e in j.as_array()? {
        let e = e.as_array()?;
        let f = funcs(e.get(1)?.as_str()?)?;
        let b = pathwise_ir::Block(e.get(2)?.as_u64()?.try_into().ok()?);
        out.push(match e.first()?.as_str()? {
            "enter" => Check::Enter(f, b),
            "leave" => Check::Leave(f, b),
            _ => return None,
        });
    }
    Some(out.into())
}

/// `summary` of `function`, out of `pool` (`program` names the functions
/// of block-k traces).
pub fn export(pool: &ExprPool, program: &Program, function: &str, summary: &Summary) -> Exported {
    let mut w = Writer { pool, nodes: Vec::new(), index: FxHashMap::default() };
    let cases = summary
        .cases
        .iter()
        .map(|c| {
            let pre: Vec<usize> = c.pre.iter().map(|&e| w.node(e)).collect();
            let ret = c.post.ret.map(|e| w.node(e));
            let writes: Vec<Json> = c
                .post
                .writes
                .iter()
                .map(|&((base, off, ty), v)| {
                    let (kind, i) = match base {
                        Base::Global(g) => ("g", g),
                        Base::Param(i) => ("p", i),
                    };
                    json!([kind, i, off, ty.bits(), w.node(v)])
                })
                .collect();
            let trace = c.trace.as_deref().map(|t| trace_json(program, t));
            json!({ "pre": pre, "outcome": c.post.outcome.text(), "ret": ret, "writes": writes, "path": c.post.path, "trace": trace })
        })
        .collect();
    Exported { function: function.to_string(), complete: summary.complete, nodes: w.nodes, cases }
}

/// The summary into `pool`, each variable renamed by `rename`, functions
/// found by name with `funcs`; `None` when the export is malformed or
/// names a function `funcs` does not know.
pub fn import(
    pool: &mut ExprPool,
    ex: &Exported,
    origin: Origin,
    rename: &dyn Fn(&str) -> String,
    funcs: &dyn Fn(&str) -> Option<FuncId>,
) -> Option<Summary> {
    let mut ids: Vec<ExprId> = Vec::with_capacity(ex.nodes.len());
    for n in &ex.nodes {
        let a = n.as_array()?;
        let op = a.first()?.as_str()?;
        let k = |i: usize| -> Option<ExprId> { ids.get(a.get(i)?.as_u64()? as usize).copied() };
        let u = |i: usize| -> Option<u32> { Some(a.get(i)?.as_u64()? as u32) };
        let e = match op {
            "b" => pool.bool_const(a.get(1)?.as_bool()?),
            "c" => pool.bv_const(u(1)?, a.get(2)?.as_u64()?),
            "v" => {
                let name = rename(a.get(1)?.as_str()?);
                pool.var(&name, sort_of(a.get(2)?)?)
            }
            "not" => pool.not(k(1)?),
            "and" => pool.and(k(1)?, k(2)?),
            "or" => pool.or(k(1)?, k(2)?),
            "eq" => pool.eq(k(1)?, k(2)?),
            "bin" => {
                let name = a.get(1)?.as_str()?;
                let op = *BvOp::ALL.iter().find(|o| format!("{o:?}") == name)?;
                pool.bin(op, k(2)?, k(3)?)
            }
            "cmp" => {
                let name = a.get(1)?.as_str()?;
                let op = *BvCmp::ALL.iter().find(|o| format!("{o:?}") == name)?;
                pool.cmp(op, k(2)?, k(3)?)
            }
            "smulno" => pool.smul_no_overflow(k(1)?, k(2)?),
            "ite" => pool.ite(k(1)?, k(2)?, k(3)?),
            "zext" => pool.zext(k(1)?, u(2)?),
            "sext" => pool.sext(k(1)?, u(2)?),
            "extract" => pool.extract(k(1)?, u(2)?, u(3)?),
            "select" => pool.select(k(1)?, k(2)?),
            "store" => pool.store(k(1)?, k(2)?, k(3)?),
            "carr" => pool.const_array(u(1)?, k(2)?),
            "fbin" | "fcmp" | "fun" | "fconv" => float_node(pool, op, a, &ids)?,
            _ => return None,
        };
        ids.push(e);
    }
    let node = |j: &Json| -> Option<ExprId> { ids.get(j.as_u64()? as usize).copied() };
    let mut s = Summary::new(origin);
    s.complete = ex.complete;
    for c in &ex.cases {
        let pre = c["pre"].as_array()?.iter().map(node).collect::<Option<Vec<_>>>()?;
        let outcome = Outcome::parse(c["outcome"].as_str()?)?;
        let ret = if c["ret"].is_null() { None } else { Some(node(&c["ret"])?) };
        let mut writes = Vec::new();
        for w in c["writes"].as_array()? {
            let w = w.as_array()?;
            let index = w.get(1)?.as_u64()? as u32;
            let base = match w.first()?.as_str()? {
                "g" => Base::Global(index),
                "p" => Base::Param(index),
                _ => return None,
            };
            let key: CellKey =
                (base, w.get(2)?.as_u64()?, Type::int_of_bits(u32::try_from(w.get(3)?.as_u64()?).ok()?)?);
            writes.push((key, node(w.get(4)?)?));
        }
        let trace = match &c["trace"] {
            Json::Null => None,
            t => Some(trace_of(t, funcs)?),
        };
        s.add(Case { pre, post: Post { outcome, ret, writes, path: c["path"].as_u64() }, trace });
    }
    Some(s)
}

/// A floating node of a stored summary (see `Writer::node`).
fn float_node(pool: &mut ExprPool, op: &str, a: &[Json], ids: &[ExprId]) -> Option<ExprId> {
    use pathwise_expr::{FpCmp, FpConv, FpFmt, FpOp, FpUn, Rounding};
    fn named<T: std::fmt::Debug + Copy>(all: &[T], j: Option<&Json>) -> Option<T> {
        let name = j?.as_str()?;
        all.iter().copied().find(|o| format!("{o:?}") == name)
    }
    let k = |i: usize| -> Option<ExprId> { ids.get(a.get(i)?.as_u64()? as usize).copied() };
    Some(match op {
        "fbin" => {
            // Summaries stored before rounding directions have none: to nearest.
            let rnd = a.get(5).map_or(Some(Rounding::NearestEven), |r| named(&Rounding::ALL, Some(r)))?;
            pool.fbin_in(named(&FpOp::ALL, a.get(1))?, rnd, named(&FpFmt::ALL, a.get(2))?, k(3)?, k(4)?)
        }
        "fcmp" => pool.fcmp(named(&FpCmp::ALL, a.get(1))?, named(&FpFmt::ALL, a.get(2))?, k(3)?, k(4)?),
        "fun" => pool.fun(named(&FpUn::ALL, a.get(1))?, named(&FpFmt::ALL, a.get(2))?, k(3)?),
        _ => pool.fconv(named(&FpConv::all(), a.get(1))?, k(2)?),
    })
}

impl Exported {
    pub fn to_json(&self, key: &str) -> Json {
        json!({
            "function": self.function,
            "key": key,
            "complete": self.complete,
            "nodes": self.nodes,
            "cases": self.cases,
        })
    }

    pub fn from_json(j: &Json) -> Option<Exported> {
        Some(Exported {
            function: j["function"].as_str()?.to_string(),
            complete: j["complete"].as_bool(),
            nodes: j["nodes"].as_array()?.clone(),
            cases: j["cases"].as_array()?.clone(),
        })
    }

    /// Number of cases.
    pub fn len(&self) -> usize {
        self.cases.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cases.is_empty()
    }
}

/// FNV-1a, 64 bits: stable across runs and platforms.
fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// The store key of `func`'s summary: its IR and its callees', the
/// globals, and the options that can change summaries
/// ([`crate::config::Config::model_options`]).
pub fn key(program: &Program, func: FuncId, config: &crate::config::Config) -> String {
    let graph = pathwise_ir::analysis::CallGraph::compute(program);
    let mut reached = graph.reachable_from(func);
    reached.sort();
    reached.dedup();
    // Version 3: cells of pointer parameters' objects (version 2: cases
    // carry their block-k traces).
    let mut h = fnv(b"pathwise-summary-3", 0xcbf2_9ce4_8422_2325);
    for f in reached {
        h = fnv(pathwise_ir::printer::print_function(program, f).as_bytes(), h);
    }
    for g in &program.globals {
        h = fnv(format!("{} {:?} {}\n", g.name, g.elem, g.count).as_bytes(), h);
    }
    h = fnv(config.model_options().as_bytes(), h);
    format!("{h:016x}")
}

fn file(dir: &Path, function: &str, key: &str) -> std::path::PathBuf {
    dir.join(format!("{function}.{key}.json"))
}

/// The stored summary of `function` under `key`, if any.
pub fn load(dir: &Path, function: &str, key: &str) -> Option<Exported> {
    let text = std::fs::read_to_string(file(dir, function, key)).ok()?;
    let j: Json = serde_json::from_str(&text).ok()?;
    (j["key"] == key).then(|| Exported::from_json(&j)).flatten()
}

/// Store `ex` under `key` (older keys of the function are removed).
pub fn save(dir: &Path, ex: &Exported, key: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let prefix = format!("{}.", ex.function);
    for entry in std::fs::read_dir(dir)?.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let stale = name.strip_prefix(&prefix).is_some_and(|r| r.len() == 16 + 5 && r.ends_with(".json"));
        if stale && name != format!("{}.{key}.json", ex.function) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    let text = serde_json::to_string_pretty(&ex.to_json(key)).map_err(std::io::Error::other)?;
    std::fs::write(file(dir, &ex.function, key), text + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_survives_export_and_import() {
        let mut pool = ExprPool::new();
        let x = pool.var("sum:f.0", Sort::Bv(32));
        let zero = pool.bv_const(32, 0);
        let pos = pool.cmp(BvCmp::Slt, zero, x);
        let one = pool.bv_const(32, 1);
        let ret = pool.bin(BvOp::Add, x, one);
        let mut s = Summary::new(Origin::TopDown);
        s.add(Case {
            pre: vec![pos],
            post: Post { outcome: Outcome::Return, ret: Some(ret), writes: vec![], path: Some(7) },
            trace: None,
        });
        let neg = pool.not(pos);
        let err = Outcome::Error("division-by-zero".into(), 3);
        s.add(Case {
            pre: vec![neg],
            post: Post {
                outcome: err,
                ret: None,
                writes: vec![((Base::Global(0), 4, Type::I32), x), ((Base::Param(1), 0, Type::I32), ret)],
                path: None,
            },
            trace: None,
        });
        let mut program = Program::default();
        program.funcs.push(pathwise_ir::FuncData {
            name: "f".into(),
            params: vec![],
            ret: None,
            ret_src: None,
            locals: vec![],
            blocks: vec![],
            iteration_starts: vec![],
            switches: vec![],
            num_regs: 0,
            is_static: false,
            cty: None,
            loc: Default::default(),
        });
        s.add(Case {
            pre: vec![],
            post: Post { outcome: Outcome::Bound, ret: None, writes: vec![], path: None },
            trace: Some(
                vec![Check::Enter(FuncId(0), pathwise_ir::Block(0)), Check::Leave(FuncId(0), pathwise_ir::Block(2))]
                    .into(),
            ),
        });
        let ex = export(&pool, &program, "f", &s);
        let back = Exported::from_json(&ex.to_json("k")).unwrap();
        assert_eq!(back, ex);
        let mut other = ExprPool::new();
        let t = import(&mut other, &back, Origin::Stored, &|n| n.to_string(), &|n| program.func_by_name(n)).unwrap();
        assert_eq!(t.cases.len(), 3);
        assert_eq!(t.cases[2].trace, s.cases[2].trace);
        // A trace naming a function the program lacks: not imported.
        assert!(import(&mut other, &back, Origin::Stored, &|n| n.to_string(), &|_| None).is_none());
        let again = export(&other, &program, "f", &t);
        assert_eq!(again.cases, ex.cases);
        assert_eq!(again.nodes.len(), ex.nodes.len());
    }
}

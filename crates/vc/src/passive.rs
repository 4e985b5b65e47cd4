//! Passive (SSA) form and the reachability verification condition (seed 001,
//! sections 3 and 4), computed forward over the unwound graph.
//!
//! Every node `n` has a boolean reachability variable `r_n` and every edge
//! `e` one `e_e`; the VC is the conjunction of
//! - `r_root` (the first node is reached),
//! - `r_n ⇔ ∨ e_in` for every other node (reached iff an incoming edge is
//!   taken),
//! - `e ⇔ r_from ∧ cond(e)` for every edge (a branch side's condition, or
//!   true), and `¬e` for a cut edge (beyond the bound: excluded),
//! - `r_n ⇒ a` for every assumption `a` of node `n` (the precondition's
//!   result, `pathwise_assume`, defined behaviour, array bounds),
//! - at a node with several incoming edges, an incarnation for each value
//!   that differs between them: `ite(e_1, x_1, ite(e_2, x_2, ...))` (the
//!   passive form's `e_in ⇒ x_n = x_in`, folded into the term).
//!
//! The program is deterministic, so the inputs fix every reachability
//! variable: a valuation of the VC is a terminating execution, and `r_n`
//! is true exactly for the nodes it visits (the seed's Theorem 4.1). The
//! seed computes `ok` variables backwards (the weakest liberal precondition
//! of false) and then `r_n = ok_n ∧ ∨ r_pred`; forward, reachability of an
//! edge needs only the edge's own condition, and the cut edges and
//! assumptions exclude exactly the executions that do not terminate within
//! the bound.

use pathwise_expr::{ExprId, ExprPool, Model, Sort};
use pathwise_ir::{FuncId, InstKind, Loc, Operand, Program, Shape, Terminator, Type};

use crate::cover::Goal;
use crate::graph::{self, Bounds, EdgeKind, Graph, Region};
use crate::semantics::{self, ArrayInput, Base, Ctx, Env, Val};
use crate::summary::Summary;
use crate::{Options, Unsupported};

/// One decision of a path: the function, the location of the condition and
/// the side taken (the engine's `PathStep` without the loop position).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Decision {
    pub func: String,
    pub loc: Loc,
    pub taken: bool,
}

/// The reachability VC of a function under test.
pub struct Vc {
    pub graph: Graph,
    pub constraints: Vec<ExprId>,
    /// Reachability variable per node.
    pub reach: Vec<ExprId>,
    /// Variable per edge (taken or not).
    pub edge_vars: Vec<ExprId>,
    /// The variables of the function's integer parameters (their inputs).
    pub formals: Vec<ExprId>,
    /// The value the function returns (integer results).
    pub ret: Option<ExprId>,
    /// The calls replaced by a procedure summary, in node order.
    pub calls: Vec<CallSite>,
    /// The runtime checks that can fail, with `Options::errors` (empty
    /// otherwise: every check is then an assumption, its failures cut).
    pub errors: Vec<ErrorSite>,
    /// Errors the engine may report that the encoding does not model, in
    /// words (a read of a string at an offset merged from several paths).
    pub unsought: Vec<String>,
}

/// A runtime check of an unwound node that can fail: its variable `var`
/// is true exactly when the execution reaches the check and fails it (it
/// then stops there: no edge leaves the node). The VC with `var` asserted
/// is satisfied by exactly the inputs that run into this error.
#[derive(Clone, Debug)]
pub struct ErrorSite {
    pub check: semantics::Check,
    pub var: ExprId,
    pub node: usize,
}

/// A call replaced by its callee's summary (see [`crate::summary`]).
#[derive(Clone, Debug)]
pub struct CallSite {
    /// The node and the index of the call instruction in its block.
    pub node: usize,
    pub inst: usize,
    /// The callee.
    pub callee: FuncId,
    /// Per path of the summary, its variable `s_p` (taken in this context).
    pub paths: Vec<ExprId>,
    /// Per path, its decisions and the goals it visits.
    pub decisions: Vec<Vec<Decision>>,
    pub goals: Vec<Vec<Goal>>,
    /// The functions whose code the summary covers.
    pub funcs: Vec<FuncId>,
}

/// Parameter values, input arrays' variables and their initial contents.
type Inputs = (Vec<Val>, Vec<Option<ArrayInput>>, Vec<Option<ExprId>>, Vec<ExprId>);

/// The input values of the function under test: variables named as the
/// engine names its inputs (`InputSpec::new`), so that a valuation of the VC
/// is an engine input as it is.
fn inputs(
    pool: &mut ExprPool,
    program: &Program,
    main: FuncId,
    opts: &Options,
    hard: &mut Vec<ExprId>,
) -> Result<Inputs, Unsupported> {
    let f = program.func(main);
    let (mut vals, mut arrays, mut contents, mut formals) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut vars = Vec::new();
    for p in &f.params {
        let name = &p.src.name;
        let bad = |what: &str| Err(Unsupported::new(Some(f.loc), &format!("parameter `{name}`: {what}")));
        match p.src.shape {
            Shape::Scalar if p.ty.is_int() => {
                let var = pool.var(name, Sort::Bv(p.ty.bits()));
                formals.push(var);
                vars.push(Some(var));
                if p.src.c_scalar == "_Bool" {
                    let one = pool.bv_const(p.ty.bits(), 1);
                    hard.push(pool.cmp(pathwise_expr::BvCmp::Ule, var, one));
                }
                let v = if p.ty == Type::I1 {
                    let one = pool.bv_const(1, 1);
                    pool.eq(var, one)
                } else {
                    var
                };
                vals.push(Val::E(v));
                arrays.push(None);
                contents.push(None);
            }
            Shape::Pointer if p.src.scalar.ty.is_int() => {
                let elem = p.src.scalar.ty;
                let array = pool.var(name, Sort::Array { index: 64, elem: elem.bits() });
                let len = pool.var(&format!("{name}.len"), Sort::Bv(64));
                let max = pool.bv_const(64, opts.max_array_len as u64);
                hard.push(pool.cmp(pathwise_expr::BvCmp::Ule, len, max));
                vals.push(Val::Ptr(Base::Param(vals.len()), pool.bv_const(64, 0)));
                vars.push(None);
                arrays.push(Some(ArrayInput { len, elem }));
                contents.push(Some(array));
            }
            Shape::Scalar | Shape::Pointer => return bad("floating-point input"),
            Shape::Heap | Shape::ByValue => return bad("a structure or pointer to a structure (input heap)"),
            Shape::Function => return bad("a function pointer"),
            Shape::Stream => return bad("a stream (`FILE *`)"),
            Shape::Array(_) => return bad("an array"),
        }
    }
    // The engine's length contracts (`Options::lengths`), as it states them.
    for &(a, n) in &opts.lengths {
        if let (Some(Some(input)), Some(Some(var))) = (arrays.get(a), vars.get(n)) {
            let (ty, signed) = (f.params[n].ty, f.params[n].src.scalar.signed);
            hard.push(pathwise_engine::contracts::length_tie(pool, input.len, *var, ty, signed));
        }
    }
    Ok((vals, arrays, contents, formals))
}

struct Encoder<'a> {
    program: &'a Program,
    g: &'a Graph,
    cx: Ctx<'a>,
    args: Vec<Val>,
    contents: Vec<Option<ExprId>>,
    constraints: Vec<ExprId>,
    reach: Vec<ExprId>,
    edge_vars: Vec<ExprId>,
    pending: Vec<Option<Env>>,
    /// Per function, the registers used outside the block defining them:
    /// only those are merged (the front end keeps C variables in slots).
    cross: rustc_hash::FxHashMap<FuncId, Vec<bool>>,
    /// The precondition's nodes are not encoded: its facts stand for it.
    skip_pre: bool,
    summaries: &'a [Summary],
    calls: Vec<CallSite>,
    /// The reachability variable and returned value of each return of the
    /// function under test.
    returns: Vec<(ExprId, ExprId)>,
    /// The function under test's checks are goals (`Options::errors`).
    seek_errors: bool,
    errors: Vec<ErrorSite>,
}

/// The registers of `f` used in a block other than their definition's
/// (parameters count as defined before `bb0`).
fn cross_block_regs(f: &pathwise_ir::FuncData) -> Vec<bool> {
    let n = f.num_regs as usize;
    let mut def = vec![usize::MAX; n];
    for (bi, b) in f.blocks.iter().enumerate() {
        for i in &b.insts {
            if let Some(r) = i.result {
                def[r.index()] = bi;
            }
        }
    }
    let mut cross = vec![false; n];
    let mut note = |op: &Operand, bi: usize| {
        if let Operand::Reg(r) = op {
            if def.get(r.index()) != Some(&bi) {
                cross[r.index()] = true;
            }
        }
    };
    for (bi, b) in f.blocks.iter().enumerate() {
        for op in b.insts.iter().flat_map(|i| i.kind.operands()).chain(b.term.operands()) {
            note(&op, bi);
        }
    }
    cross
}

/// Build the VC of `main` (after precondition `pre`) within `opts`' bounds.
pub fn build_vc(
    pool: &mut ExprPool,
    program: &Program,
    main: FuncId,
    pre: Option<FuncId>,
    opts: &Options,
) -> Result<Vc, Unsupported> {
    build_vc_with(pool, program, main, pre, opts, &[])
}

/// [`build_vc`] with the calls of the function under test (and of the
/// callees it inlines) to the functions of `summaries` replaced by their
/// summaries (see [`crate::summary`]).
pub fn build_vc_with(
    pool: &mut ExprPool,
    program: &Program,
    main: FuncId,
    pre: Option<FuncId>,
    opts: &Options,
    summaries: &[Summary],
) -> Result<Vc, Unsupported> {
    let mut constraints = Vec::new();
    let (args, arrays, contents, formals) = inputs(pool, program, main, opts, &mut constraints)?;
    let mut tied = vec![false; arrays.len()];
    for &(a, _) in &opts.lengths {
        tied[a] = true;
    }
    let bounds = Bounds {
        k: opts.k,
        pre_bound: opts.pre_bound,
        max_nodes: opts.max_nodes,
        summarized: summaries.iter().map(|s| s.func).collect(),
    };
    let g = graph::build(program, main, pre, &bounds)?;
    let reach = (0..g.nodes.len()).map(|n| pool.var(&format!("vc!r{n}"), Sort::Bool)).collect();
    let edge_vars = (0..g.edges.len()).map(|e| pool.var(&format!("vc!e{e}"), Sort::Bool)).collect();
    let mut enc = Encoder {
        program,
        g: &g,
        cx: Ctx {
            program,
            arrays: &arrays,
            check_overflow: opts.check_overflow,
            tied: tied.into(),
            strings: (0..arrays.len()).map(|i| opts.strings.contains(&i)).collect(),
            max_array_len: opts.max_array_len,
            unsought: Default::default(),
        },
        args,
        contents,
        constraints,
        reach,
        edge_vars,
        pending: vec![None; g.edges.len()],
        cross: Default::default(),
        skip_pre: false,
        summaries,
        calls: Vec::new(),
        returns: Vec::new(),
        seek_errors: opts.errors,
        errors: Vec::new(),
    };
    // A precondition with one accepting path (a conjunction of bounds,
    // typically) is that path's condition: its facts replace the
    // precondition's part of the formula (the same valuations of the
    // inputs, and the solver's analyses see the bounds as top-level facts:
    // the Z3 backend checks a formula over the integers only when its own
    // conjuncts bound every variable).
    let facts = if pre.is_some() { enc.pre_facts(pool)? } else { None };
    enc.skip_pre = facts.is_some();
    if let Some(facts) = facts {
        enc.constraints.extend(facts);
    }
    for &n in &g.topo {
        if enc.skip_pre && g.nodes[n].region == Region::Pre {
            continue;
        }
        enc.node(pool, n)?;
    }
    let unsought = enc.cx.unsought.take().into_iter().collect();
    let Encoder { constraints, reach, edge_vars, calls, returns, errors, .. } = enc;
    // Conditions the inputs' bounds decide (the no-overflow conditions of
    // bounded sums) are constants: the solver never sees them.
    let constraints = pathwise_expr::linear::simplify_under_bounds(pool, &constraints);
    // The result: the value of the return the execution leaves through.
    let ret =
        returns.split_last().map(|(&(_, last), rest)| rest.iter().rev().fold(last, |acc, &(r, v)| pool.ite(r, v, acc)));
    Ok(Vc { graph: g, constraints, reach, edge_vars, formals, ret, calls, errors, unsought })
}

impl Encoder<'_> {
    fn initial(&self, func: FuncId) -> Env {
        Env {
            frames: vec![semantics::frame(self.program, func, &self.args)],
            arrays: self.contents.clone(),
            globals: Default::default(),
        }
    }

    /// The index of `f`'s summary, if it has one.
    fn summarized(&self, f: FuncId) -> Option<usize> {
        self.summaries.iter().position(|s| s.func == f)
    }

    /// A call of a summarised function at instruction `i` of node `n`: one
    /// variable per path of the summary (see [`crate::summary`]).
    #[allow(clippy::too_many_arguments)]
    fn summarized_call(
        &mut self,
        pool: &mut ExprPool,
        n: usize,
        i: usize,
        (func, args): (FuncId, &[Operand]),
        inst: &pathwise_ir::Inst,
        env: &mut Env,
        assume: &mut semantics::Conds,
    ) -> Result<(), Unsupported> {
        let summary = &self.summaries[self.summarized(func).expect("a summarised callee")];
        let mut actuals = Vec::new();
        for (a, &formal) in args.iter().zip(&summary.formals) {
            let Some(Val::E(mut e)) = semantics::operand(pool, env, a) else {
                return Err(Unsupported::new(
                    Some(inst.loc),
                    "an argument of a summarised call that is not an integer",
                ));
            };
            if pool.sort(e) == Sort::Bool {
                let (one, zero) = (pool.bv_const(1, 1), pool.bv_const(1, 0));
                e = pool.ite(e, one, zero);
            }
            if pool.sort(e) != pool.sort(formal) {
                return Err(Unsupported::new(Some(inst.loc), "a summarised call whose argument types differ"));
            }
            actuals.push(e);
        }
        let r = self.reach[n];
        let c = self.calls.len();
        let mut memo = Default::default();
        let disjuncts = crate::summary::instantiate(pool, summary, &actuals, &mut memo);
        let mut paths = Vec::new();
        let mut any = pool.bool_const(false);
        for (p, (pc, _)) in disjuncts.iter().enumerate() {
            let s = pool.var(&format!("vc!c{c}p{p}"), Sort::Bool);
            let taken = pool.and(r, *pc);
            self.constraints.push(pool.eq(s, taken));
            any = pool.or(any, s);
            paths.push(s);
        }
        // The seed's `assume Sum`: some path of the callee is taken.
        assume.push(semantics::assumed(any));
        let rets: Vec<(ExprId, ExprId)> =
            paths.iter().zip(&disjuncts).filter_map(|(&s, (_, ret))| ret.map(|v| (s, v))).collect();
        if let (Some(reg), Some((&(_, last), rest))) = (inst.result, rets.split_last()) {
            let v = rest.iter().rev().fold(last, |acc, &(s, v)| pool.ite(s, v, acc));
            env.frames.last_mut().expect("a frame").regs[reg.index()] = Some(Val::E(v));
        }
        self.calls.push(CallSite {
            node: n,
            inst: i,
            callee: func,
            paths,
            decisions: summary.paths.iter().map(|p| p.decisions.clone()).collect(),
            goals: summary.paths.iter().map(|p| p.goals.clone()).collect(),
            funcs: summary.funcs.clone(),
        });
        Ok(())
    }

    /// The path condition of the precondition's only accepting path, when
    /// it has exactly one (see `build_vc`). The paths are enumerated one by
    /// one, constant conditions pruned, within a budget.
    fn pre_facts(&mut self, pool: &mut ExprPool) -> Result<Option<Vec<ExprId>>, Unsupported> {
        const BUDGET: usize = 20_000;
        let g = self.g;
        let mut stack = vec![(g.root, self.initial(g.nodes[g.root].func), Vec::new())];
        let (mut visited, mut accepting) = (0, Vec::new());
        while let Some((n, mut env, mut pc)) = stack.pop() {
            visited += 1;
            if visited > BUDGET || accepting.len() > 1 {
                return Ok(None);
            }
            let key = &g.nodes[n];
            let bd = self.program.func(key.func).block(key.block);
            let end = match g.out[n].first().map(|&e| g.edges[e].kind) {
                Some(EdgeKind::Call { inst, .. }) => inst,
                _ => bd.insts.len(),
            };
            let mut assume = Vec::new();
            for inst in &bd.insts[key.start..end] {
                semantics::step(pool, &self.cx, &mut env, inst, &mut assume)?;
            }
            if g.out[n].is_empty() || assume.iter().any(|a| pool.as_bool_const(a.cond) == Some(false)) {
                continue;
            }
            pc.extend(assume.into_iter().map(|a| a.cond).filter(|&a| pool.as_bool_const(a) != Some(true)));
            for &ei in &g.out[n] {
                let (cond, out) = self.leave(pool, &env, n, ei)?;
                if pool.as_bool_const(cond) == Some(false) {
                    continue;
                }
                let mut pc = pc.clone();
                if pool.as_bool_const(cond) != Some(true) {
                    pc.push(cond);
                }
                match (g.edges[ei].kind, g.edges[ei].to, out) {
                    (EdgeKind::PreAccept, _, _) => accepting.push(pc),
                    (_, Some(t), Some(out)) => stack.push((t, out, pc)),
                    _ => {}
                }
            }
        }
        Ok(if accepting.len() == 1 { accepting.pop() } else { None })
    }

    fn node(&mut self, pool: &mut ExprPool, n: usize) -> Result<(), Unsupported> {
        let g = self.g;
        let key = &g.nodes[n];
        let r = self.reach[n];
        let fresh_start = n == g.root || n == g.main_entry;
        let mut env = if fresh_start {
            self.initial(key.func)
        } else {
            let ins: Vec<(ExprId, Env)> = g.preds[n]
                .iter()
                .map(|&ei| (self.edge_vars[ei], self.pending[ei].take().expect("predecessor encoded first")))
                .collect();
            self.merge(pool, n, ins)?
        };
        if n == g.root || (self.skip_pre && n == g.main_entry) {
            self.constraints.push(r);
        } else {
            let mut any = pool.bool_const(false);
            for &ei in &g.preds[n] {
                any = pool.or(any, self.edge_vars[ei]);
            }
            self.constraints.push(pool.eq(r, any));
        }
        let f = self.program.func(key.func);
        let bd = f.block(key.block);
        let end = match g.out[n].first().map(|&e| g.edges[e].kind) {
            Some(EdgeKind::Call { inst, .. }) => inst,
            _ => bd.insts.len(),
        };
        let mut assume = Vec::new();
        for (i, inst) in bd.insts.iter().enumerate().take(end).skip(key.start) {
            match inst.kind {
                InstKind::Call { func, ref args } if key.region == Region::Main && self.summarized(func).is_some() => {
                    self.summarized_call(pool, n, i, (func, args), inst, &mut env, &mut assume)?;
                }
                _ => semantics::step(pool, &self.cx, &mut env, inst, &mut assume)?,
            }
        }
        if g.out[n].is_empty() && matches!(bd.term, Terminator::Unreachable) {
            // `__builtin_unreachable()`, or the end of a non-void function.
            let check = semantics::Check { kind: pathwise_suite::ErrorKind::Unreachable, loc: bd.term_loc };
            assume.push(semantics::Cond { cond: pool.bool_const(false), check: Some(check) });
        }
        if let (true, Region::Main, 0, Terminator::Return(Some(v))) =
            (g.out[n].is_empty(), key.region, key.ctx, &bd.term)
        {
            if let Some(Val::E(v)) = semantics::operand(pool, &env, v) {
                self.returns.push((r, v));
            }
        }
        // Where the checks are goals, each condition holds only if the
        // checks before it in the node held (the execution stopped at the
        // first that failed), and so does leaving the node.
        let ok = self.conditions(pool, n, assume);
        let live = if pool.as_bool_const(ok) == Some(true) { r } else { pool.and(r, ok) };
        for &ei in &g.out[n] {
            let (mut cond, out) = self.leave(pool, &env, n, ei)?;
            if g.edges[ei].kind == EdgeKind::PreAccept {
                // Every execution must pass the precondition: its result is
                // an assumption of the returning node, not a choice.
                let na = pool.not(live);
                self.constraints.push(pool.or(na, cond));
                cond = pool.bool_const(true);
            }
            let taken = pool.and(live, cond);
            let e = self.edge_vars[ei];
            match g.edges[ei].to {
                Some(_) => {
                    self.constraints.push(pool.eq(e, taken));
                    self.pending[ei] = out;
                }
                None => {
                    self.constraints.push(pool.not(taken));
                    self.constraints.push(pool.not(e));
                }
            }
        }
        Ok(())
    }

    /// Assert node `n`'s conditions: each assumption holds where the node
    /// is reached; each check too, unless the error goals are sought in
    /// the node (see [`Vc::errors`]): then a failing check defines an
    /// error site, and the conjunction of the node's checks is returned
    /// (true otherwise), which leaving the node needs.
    fn conditions(&mut self, pool: &mut ExprPool, n: usize, conds: semantics::Conds) -> ExprId {
        let r = self.reach[n];
        let seek = self.seek_errors && self.g.nodes[n].region == Region::Main;
        let mut ok = pool.bool_const(true);
        for c in conds {
            let guard = if pool.as_bool_const(ok) == Some(true) { r } else { pool.and(r, ok) };
            match c.check {
                Some(check) if seek => {
                    let bad = pool.not(c.cond);
                    let fails = pool.and(guard, bad);
                    if pool.as_bool_const(fails) != Some(false) {
                        let var = pool.var(&format!("vc!f{}", self.errors.len()), Sort::Bool);
                        self.constraints.push(pool.eq(var, fails));
                        self.errors.push(ErrorSite { check, var, node: n });
                    }
                    ok = pool.and(ok, c.cond);
                }
                _ => {
                    let ng = pool.not(guard);
                    self.constraints.push(pool.or(ng, c.cond));
                }
            }
        }
        ok
    }

    /// The condition of edge `ei` out of node `n` and the state after it
    /// (`None` for the precondition's acceptance: the function under test
    /// starts from the inputs again).
    fn leave(
        &mut self,
        pool: &mut ExprPool,
        env: &Env,
        n: usize,
        ei: usize,
    ) -> Result<(ExprId, Option<Env>), Unsupported> {
        let g = self.g;
        let key = &g.nodes[n];
        let bd = self.program.func(key.func).block(key.block);
        let yes = pool.bool_const(true);
        let bad = |what: &str| Err(Unsupported::new(Some(bd.term_loc), what));
        match (g.edges[ei].kind, &bd.term) {
            (EdgeKind::Jump, _) => Ok((yes, Some(env.clone()))),
            (EdgeKind::Branch(side), Terminator::Branch { cond, .. }) => {
                let Some(Val::E(c)) = semantics::operand(pool, env, cond) else { return bad("a branch on a pointer") };
                let c = if side { c } else { pool.not(c) };
                Ok((c, Some(env.clone())))
            }
            (EdgeKind::Call { inst, callee }, _) => {
                let i = &bd.insts[inst];
                let pathwise_ir::InstKind::Call { args, .. } = &i.kind else { unreachable!("a call edge") };
                let mut vals = Vec::new();
                for a in args {
                    match semantics::operand(pool, env, a) {
                        Some(v) => vals.push(v),
                        None => return Err(Unsupported::new(Some(i.loc), "an argument the unwinding did not define")),
                    }
                }
                let mut out = env.clone();
                out.frames.push(semantics::frame(self.program, callee, &vals));
                Ok((yes, Some(out)))
            }
            (EdgeKind::Return, Terminator::Return(v)) => {
                let v = v.as_ref().and_then(|o| semantics::operand(pool, env, o));
                let mut out = env.clone();
                out.frames.pop();
                let ctx = &g.ctxs[key.ctx];
                if let (Some(r), Some(v)) = (ctx.ret, v) {
                    out.frames.last_mut().expect("the caller's frame").regs[r.index()] = Some(v);
                }
                Ok((yes, Some(out)))
            }
            (EdgeKind::PreAccept, Terminator::Return(v)) => {
                let ok = match v.as_ref().and_then(|o| semantics::operand(pool, env, o)) {
                    Some(Val::E(e)) if pool.sort(e) == Sort::Bool => e,
                    Some(Val::E(e)) => {
                        let zero = pool.bv_const(pool.width(e), 0);
                        let z = pool.eq(e, zero);
                        pool.not(z)
                    }
                    _ => return bad("a precondition that returns no integer"),
                };
                Ok((ok, None))
            }
            _ => bad("an edge the unwinding does not know"),
        }
    }

    /// One incarnation for values that differ between incoming edges.
    fn merge_val(&mut self, pool: &mut ExprPool, n: usize, vals: &[(ExprId, Val)]) -> Option<Val> {
        let first = vals[0].1;
        if vals.iter().all(|(_, v)| *v == first) {
            return Some(first);
        }
        let (base, exprs): (Option<Base>, Vec<ExprId>) = match first {
            Val::E(_) => {
                let es: Option<Vec<_>> =
                    vals.iter().map(|(_, v)| if let Val::E(e) = v { Some(*e) } else { None }).collect();
                (None, es?)
            }
            Val::Ptr(b, _) => {
                let os: Option<Vec<_>> = vals
                    .iter()
                    .map(|(_, v)| if let Val::Ptr(c, o) = v { (*c == b).then_some(*o) } else { None })
                    .collect();
                (Some(b), os?)
            }
        };
        // The incarnation as an `ite` over the incoming edges rather than a
        // fresh variable with `e_i => x = v_i`: the same passive meaning,
        // but its range stays the union of the incoming ranges, so that a
        // bounded linear VC stays exact over the integers (the Z3 backend
        // then checks it with its integer solver: ~100x faster on the
        // random diamonds).
        let mut x = *exprs.last().expect("two or more");
        for ((e, _), v) in vals.iter().zip(&exprs).rev().skip(1) {
            x = pool.ite(*e, *v, x);
        }
        let _ = n;
        Some(match base {
            Some(b) => Val::Ptr(b, x),
            None => Val::E(x),
        })
    }

    fn merge(&mut self, pool: &mut ExprPool, n: usize, mut ins: Vec<(ExprId, Env)>) -> Result<Env, Unsupported> {
        if ins.len() == 1 {
            return Ok(ins.pop().expect("one").1);
        }
        let loc = {
            let k = &self.g.nodes[n];
            self.program.func(k.func).block(k.block).term_loc
        };
        let conflict = || Unsupported::new(Some(loc), "pointers into different objects meet at this point");
        let mut out = ins[0].1.clone();
        for d in 0..out.frames.len() {
            let func = out.frames[d].func;
            let program = self.program;
            let cross = self.cross.entry(func).or_insert_with(|| cross_block_regs(program.func(func))).clone();
            // Same-block registers die at a block's start, but not those of
            // suspended callers, nor at a call's continuation (mid-block).
            let block_start = d + 1 == out.frames.len() && self.g.nodes[n].start == 0;
            for (r, &is_cross) in cross.iter().enumerate() {
                if block_start && !is_cross {
                    out.frames[d].regs[r] = None;
                    continue;
                }
                let vals: Option<Vec<(ExprId, Val)>> =
                    ins.iter().map(|(e, env)| env.frames[d].regs[r].map(|v| (*e, v))).collect();
                // A register some edge leaves undefined is never used after
                // the merge (registers are used where they are defined).
                out.frames[d].regs[r] = match vals {
                    Some(vals) => self.merge_val(pool, n, &vals),
                    None => None,
                };
            }
            for s in 0..out.frames[d].slots.len() {
                let keys: std::collections::BTreeSet<u64> =
                    ins.iter().flat_map(|(_, env)| env.frames[d].slots[s].keys().copied()).collect();
                for o in keys {
                    let ty =
                        ins.iter().find_map(|(_, env)| env.frames[d].slots[s].get(&o).map(|c| c.0)).expect("a key");
                    let mut vals = Vec::new();
                    for (e, env) in &ins {
                        let v = match env.frames[d].slots[s].get(&o) {
                            Some((t, v)) if *t == ty => *v,
                            Some(_) => return Err(Unsupported::new(Some(loc), "a slot written with different types")),
                            None if ty == Type::Ptr => return Err(conflict()),
                            None => semantics::operand(pool, env, &Operand::Const(ty, 0)).expect("a constant"),
                        };
                        vals.push((*e, v));
                    }
                    let v = self.merge_val(pool, n, &vals).ok_or_else(conflict)?;
                    out.frames[d].slots[s].insert(o, (ty, v));
                }
            }
        }
        for i in 0..out.arrays.len() {
            if let Some(first) = out.arrays[i] {
                let vals: Vec<(ExprId, Val)> =
                    ins.iter().map(|(e, env)| (*e, Val::E(env.arrays[i].unwrap_or(first)))).collect();
                if let Some(Val::E(a)) = self.merge_val(pool, n, &vals) {
                    out.arrays[i] = Some(a);
                }
            }
        }
        let keys: std::collections::BTreeSet<_> = ins.iter().flat_map(|(_, env)| env.globals.keys().copied()).collect();
        for (gid, o) in keys {
            let ty = ins.iter().find_map(|(_, env)| env.globals.get(&(gid, o)).map(|c| c.0)).expect("a key");
            let mut vals = Vec::new();
            for (e, env) in &ins {
                let v = match env.globals.get(&(gid, o)) {
                    Some((t, v)) if *t == ty => Some(*v),
                    Some(_) => None,
                    None => semantics::initial_cell(pool, self.program, gid, o, ty),
                };
                vals.push((*e, v.ok_or_else(conflict)?));
            }
            let v = self.merge_val(pool, n, &vals).ok_or_else(conflict)?;
            out.globals.insert((gid, o), (ty, v));
        }
        Ok(out)
    }
}

/// Which nodes and edges a valuation's execution visits.
#[derive(Clone, Debug)]
pub struct Visits {
    pub nodes: Vec<bool>,
    pub edges: Vec<bool>,
    /// Per summarised call, the path of its summary taken (if reached).
    pub calls: Vec<Option<usize>>,
}

impl Vc {
    /// The nodes of the function under test (and its callees).
    pub fn main_nodes(&self) -> Vec<usize> {
        (0..self.graph.nodes.len()).filter(|&n| self.graph.nodes[n].region == Region::Main).collect()
    }

    /// The nodes and edges `model`'s execution visits: the values of the
    /// reachability terms under it.
    pub fn visits(&self, pool: &ExprPool, model: &Model) -> Visits {
        let mut ev = pathwise_expr::eval::Evaluator::new(pool, model);
        let mut truth = |v: ExprId| ev.eval(v) == pathwise_expr::Value::Bool(true);
        Visits {
            nodes: self.reach.iter().map(|&v| truth(v)).collect(),
            edges: self.edge_vars.iter().map(|&v| truth(v)).collect(),
            calls: self.calls.iter().map(|c| c.paths.iter().position(|&s| truth(s))).collect(),
        }
    }

    /// The decisions of the path a valuation takes through the function
    /// under test (`visits` of the valuation), those of summarised calls
    /// included.
    pub fn decisions(&self, program: &Program, visits: &Visits) -> Result<Vec<Decision>, String> {
        let g = &self.graph;
        let mut n = g.main_entry;
        let mut out = Vec::new();
        if !visits.nodes[n] {
            return Err("the valuation does not reach the function under test".into());
        }
        loop {
            // Calls of the node, in instruction order (`calls` is in node
            // and instruction order).
            for (c, call) in self.calls.iter().enumerate().filter(|(_, c)| c.node == n) {
                let Some(p) = visits.calls[c] else {
                    return Err(format!("no path of the summary taken at call {c}"));
                };
                out.extend(call.decisions[p].iter().cloned());
            }
            let Some(&ei) = g.out[n].iter().find(|&&ei| visits.edges[ei]) else {
                return if g.out[n].is_empty() { Ok(out) } else { Err(format!("no edge taken out of node {n}")) };
            };
            let key = &g.nodes[n];
            if let EdgeKind::Branch(taken) = g.edges[ei].kind {
                let f = program.func(key.func);
                out.push(Decision { func: f.name.clone(), loc: f.block(key.block).term_loc, taken });
            }
            match g.edges[ei].to {
                Some(t) => n = t,
                None => return Err("the valuation takes a cut edge".into()),
            }
        }
    }
}

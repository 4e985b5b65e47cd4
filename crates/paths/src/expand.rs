//! Seed 000, section 4.5: the expansion of template paths into static
//! paths up to a depth D.
//!
//! A call node is replaced by every path of its callee, a loop node by
//! every sequence of its iterations that leaves by the node's exit. Depth
//! (section 2) is what the engine bounds with `k` under
//! `--strict-loop-count`, by the same rule
//! ([`pathwise_ir::analysis::bound`]): a loop's iterations per entry into
//! it (entries into its iteration start, as `FuncData::iteration_starts`
//! marks them), and, in a recursive cycle of the call graph, the
//! activations of any of its functions nested below the first
//! (`Exec::activations`; the seed's hits of the cycle's entry function,
//! less one, whenever every cycle passes it). Iterations of tail recursion
//! are activations too, so one number serves loops, tail and non-tail
//! recursion.
//!
//! The expansion of a unit depends only on the activations of its own
//! cycle (a function outside every cycle, or the entry of another cycle,
//! starts afresh: the seed's independent subgraphs), so results are
//! memoised per unit and those activations.

use std::rc::Rc;

use pathwise_ir::analysis::bound::{recursion_exceeds, LoopBound};
use pathwise_ir::analysis::LoopId;
use pathwise_ir::{CallGraph, FuncId, Program};
use rustc_hash::FxHashMap;

use crate::template::{End, Item, Template, TemplateBuilder, Unit};
use crate::{PathsError, Step};

/// A path through a unit: its decisions, its depth, and how it ends
/// (`None`: the whole path ended inside, at an `unreachable`).
#[derive(Clone, Debug)]
pub(crate) struct Piece {
    pub steps: Vec<Step>,
    pub depth: u32,
    pub end: Option<End>,
    /// Iteration starts counted for the enclosing loop unit.
    pub starts: u32,
}

/// Activations of the functions of one recursive cycle on the call stack.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
struct Ctx {
    scc: Option<u32>,
    acts: Vec<(FuncId, u32)>,
}

pub(crate) struct Expander<'a> {
    program: &'a Program,
    depth: u32,
    limit: usize,
    cg: CallGraph,
    loops: FxHashMap<FuncId, Rc<LoopBound>>,
    templates: FxHashMap<Unit, Rc<Vec<Template>>>,
    memo: FxHashMap<(Unit, Ctx), Rc<Vec<Piece>>>,
}

impl<'a> Expander<'a> {
    pub fn new(program: &'a Program, depth: u32, limit: usize) -> Expander<'a> {
        let cg = CallGraph::compute(program);
        Expander {
            program,
            depth,
            limit,
            cg,
            loops: FxHashMap::default(),
            templates: FxHashMap::default(),
            memo: FxHashMap::default(),
        }
    }

    /// The loops of `f` and their iteration starts (memoised).
    pub fn loops(&mut self, f: FuncId) -> Rc<LoopBound> {
        let program = self.program;
        Rc::clone(self.loops.entry(f).or_insert_with(|| Rc::new(LoopBound::compute(program.func(f)))))
    }

    /// The template paths of a unit (memoised; nested loops first, for
    /// their exits).
    pub fn templates(&mut self, unit: Unit) -> Result<Rc<Vec<Template>>, PathsError> {
        if let Some(t) = self.templates.get(&unit) {
            return Ok(Rc::clone(t));
        }
        let f = unit.func();
        let loops = self.loops(f);
        // Exits of every loop of the function, innermost first (a loop's
        // TPs need its children's exits).
        let mut order: Vec<LoopId> = (0..loops.len()).map(|i| LoopId(i as u32)).collect();
        order.sort_by_key(|l| std::cmp::Reverse(loops.loops.loop_(*l).depth));
        let mut exits: FxHashMap<LoopId, Vec<End>> = FxHashMap::default();
        for l in order {
            let tps = match self.templates.get(&Unit::Loop(f, l)) {
                Some(t) => Rc::clone(t),
                None => {
                    let t = Rc::new(self.build(f, &loops, &exits, Unit::Loop(f, l))?);
                    self.templates.insert(Unit::Loop(f, l), Rc::clone(&t));
                    t
                }
            };
            let mut ends: Vec<End> = tps.iter().map(|t| t.end).filter(|e| *e != End::Continue).collect();
            ends.sort();
            ends.dedup();
            exits.insert(l, ends);
        }
        if !self.templates.contains_key(&Unit::Func(f)) {
            let t = Rc::new(self.build(f, &loops, &exits, Unit::Func(f))?);
            self.templates.insert(Unit::Func(f), t);
        }
        Ok(Rc::clone(&self.templates[&unit]))
    }

    fn build(
        &self,
        f: FuncId,
        loops: &LoopBound,
        exits: &FxHashMap<LoopId, Vec<End>>,
        unit: Unit,
    ) -> Result<Vec<Template>, PathsError> {
        let exits_of = |l: LoopId| exits.get(&l).cloned().unwrap_or_default();
        let b = TemplateBuilder { program: self.program, func: f, loops, loop_exits: &exits_of, limit: self.limit };
        b.templates(unit)
    }

    /// Every static path of `top` up to the depth.
    pub fn top(&mut self, top: FuncId) -> Result<Rc<Vec<Piece>>, PathsError> {
        self.call(top, &Ctx::default())
    }

    /// The paths of a call of `g` from a unit whose cycle context is `ctx`.
    fn call(&mut self, g: FuncId, ctx: &Ctx) -> Result<Rc<Vec<Piece>>, PathsError> {
        if !self.cg.is_recursive(g) {
            return self.unit(Unit::Func(g), &Ctx::default());
        }
        let scc = self.cg.scc(g);
        let mut inner = if ctx.scc == Some(scc) { ctx.clone() } else { Ctx { scc: Some(scc), acts: Vec::new() } };
        let n = match inner.acts.iter_mut().find(|(h, _)| *h == g) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                inner.acts.push((g, 1));
                inner.acts.sort();
                1
            }
        };
        // As the engine: a callee of a cycle may have at most D + 1
        // activations.
        if recursion_exceeds(n, self.depth) {
            return Ok(Rc::new(Vec::new()));
        }
        let pieces = self.unit(Unit::Func(g), &inner)?;
        if n == 1 {
            return Ok(pieces);
        }
        let raised = pieces.iter().map(|p| Piece { depth: p.depth.max(n - 1), ..p.clone() }).collect();
        Ok(Rc::new(raised))
    }

    /// The paths of a unit in a context (memoised).
    fn unit(&mut self, unit: Unit, ctx: &Ctx) -> Result<Rc<Vec<Piece>>, PathsError> {
        let key = (unit, ctx.clone());
        if let Some(p) = self.memo.get(&key) {
            return Ok(Rc::clone(p));
        }
        let tps = self.templates(unit)?;
        let mut pieces = Vec::new();
        for tp in tps.iter() {
            pieces.extend(self.fold(unit.func(), tp, ctx)?);
            self.check(pieces.len())?;
        }
        let pieces = match unit {
            Unit::Func(_) => pieces,
            Unit::Loop(f, l) => self.iterate(f, l, pieces)?,
        };
        let pieces = Rc::new(pieces);
        self.memo.insert(key, Rc::clone(&pieces));
        Ok(pieces)
    }

    fn check(&self, n: usize) -> Result<(), PathsError> {
        if n > self.limit {
            return Err(PathsError::TooMany(n));
        }
        Ok(())
    }

    /// Expand one template path: the product of its nodes' paths.
    fn fold(&mut self, f: FuncId, tp: &Template, ctx: &Ctx) -> Result<Vec<Piece>, PathsError> {
        let mut partial = vec![Piece { steps: Vec::new(), depth: 0, end: Some(tp.end), starts: tp.starts }];
        for item in &tp.items {
            let sub: Rc<Vec<Piece>> = match *item {
                Item::Decision(block, taken) => {
                    for p in partial.iter_mut().filter(|p| p.end.is_some()) {
                        p.steps.push(Step { func: f, block, taken });
                    }
                    continue;
                }
                Item::Call(g, _) => self.call(g, ctx)?,
                Item::Loop(m, exit) => {
                    let all = self.unit(Unit::Loop(f, m), ctx)?;
                    // A path that ended inside the loop belongs to none of
                    // its exits: it is taken once, with the first.
                    let first = self.templates(Unit::Loop(f, m))?;
                    let first_exit = first_exit_of(&first);
                    Rc::new(
                        all.iter()
                            .filter(|p| p.end == Some(exit) || (p.end.is_none() && Some(exit) == first_exit))
                            .cloned()
                            .collect(),
                    )
                }
            };
            let mut next = Vec::with_capacity(partial.len() * sub.len().max(1));
            for p in partial {
                if p.end.is_none() {
                    next.push(p);
                    continue;
                }
                for s in sub.iter() {
                    let mut steps = p.steps.clone();
                    steps.extend_from_slice(&s.steps);
                    let end = if s.end.is_none() { None } else { p.end };
                    next.push(Piece { steps, depth: p.depth.max(s.depth), end, starts: p.starts });
                }
            }
            self.check(next.len())?;
            partial = next;
        }
        Ok(partial)
    }

    /// A loop unit's paths from its TPs' expansions: up to D iterations
    /// (counted entries into its iteration start), then a way out.
    fn iterate(&mut self, f: FuncId, l: LoopId, pieces: Vec<Piece>) -> Result<Vec<Piece>, PathsError> {
        let (cont, out): (Vec<Piece>, Vec<Piece>) = pieces.into_iter().partition(|p| p.end == Some(End::Continue));
        if cont.iter().any(|p| p.starts == 0) {
            let fd = self.program.func(f);
            let loops = self.loops(f);
            let at = self.program.describe_loc(fd.block(loops.loops.loop_(l).header).term_loc);
            return Err(PathsError::Uncounted(format!("{} (loop at {at})", fd.name)));
        }
        // seq[b]: the ways out within b counted iterations.
        let mut seq: Vec<Vec<Piece>> = Vec::new();
        for b in 0..=self.depth {
            let mut here: Vec<Piece> = out.iter().filter(|p| p.starts <= b).cloned().collect();
            for c in cont.iter().filter(|c| c.starts <= b) {
                for rest in &seq[(b - c.starts) as usize] {
                    let mut steps = c.steps.clone();
                    steps.extend_from_slice(&rest.steps);
                    let starts = c.starts + rest.starts;
                    here.push(Piece { steps, depth: c.depth.max(rest.depth).max(starts), end: rest.end, starts });
                }
                self.check(here.len())?;
            }
            seq.push(here);
        }
        let mut all = seq.pop().unwrap_or_default();
        for p in &mut all {
            p.depth = p.depth.max(p.starts);
            p.starts = 0;
        }
        Ok(all)
    }
}

/// The first exit (in the order a parent's TPs try them) of a loop unit.
fn first_exit_of(tps: &[Template]) -> Option<End> {
    tps.iter().map(|t| t.end).filter(|e| *e != End::Continue).min()
}

//! Seed 000, sections 4.2-4.4: the call graph of the units (functions and
//! loops, a loop being a tail-recursive function), its tail and non-tail
//! edges, its split into subgraphs with one entry each, and their
//! strongly connected components.
//!
//! The expansion ([`crate::expand`]) does not walk this graph: it memoises
//! the paths of every unit per context of its own cycle, which computes
//! each subgraph's paths once and embeds them where it is called, as the
//! seed's expansion does. This module reports the structure (text and
//! JSON of `pathwise paths`) so that it can be checked against the seed's
//! figures.

use std::collections::BTreeSet;

use pathwise_ir::{FuncId, Program};
use petgraph::algo::{has_path_connecting, tarjan_scc};
use petgraph::graph::{DiGraph, NodeIndex};

use crate::expand::Expander;
use crate::template::{End, Item, Unit};
use crate::PathsError;

/// A subgraph: its entry unit and its units, sorted.
pub type Subgraph = (usize, Vec<usize>);

/// A call-graph edge between units.
#[derive(Clone, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    /// Every call of the callee is in tail position (the seed marks edges
    /// by callee).
    pub tail: bool,
}

/// The seed's call graph and its split.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Structure {
    /// Unit names: `f` or `f:loop@FILE:LINE:COL` (the loop's header).
    pub units: Vec<String>,
    pub edges: Vec<Edge>,
    /// Units with a template path making no tail call (an edge to the sink).
    pub base_cases: Vec<usize>,
    /// Each subgraph: its entry unit and its units, sorted.
    pub subgraphs: Vec<Subgraph>,
    /// The strongly connected components of more than one unit or with a
    /// self-edge: its units, sorted.
    pub cycles: Vec<Vec<usize>>,
}

/// Build the structure of the units reachable from `top`.
pub(crate) fn compute(ex: &mut Expander, program: &Program, top: FuncId) -> Result<Structure, PathsError> {
    let mut units: Vec<Unit> = vec![Unit::Func(top)];
    let mut raw: BTreeSet<(usize, usize, bool)> = BTreeSet::new();
    let mut base = Vec::new();
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        let tps = ex.templates(u)?;
        let index = |v: Unit, units: &mut Vec<Unit>| match units.iter().position(|&w| w == v) {
            Some(p) => p,
            None => {
                units.push(v);
                units.len() - 1
            }
        };
        let mut any_base = false;
        for tp in tps.iter() {
            let mut tail_seen = false;
            for (n, item) in tp.items.iter().enumerate() {
                let last = n + 1 == tp.items.len() && matches!(tp.end, End::Return(_));
                match *item {
                    Item::Call(g, tail) => {
                        raw.insert((i, index(Unit::Func(g), &mut units), tail));
                        tail_seen |= tail;
                    }
                    Item::Loop(m, _) => {
                        raw.insert((i, index(Unit::Loop(u.func(), m), &mut units), last));
                    }
                    Item::Decision(..) => {}
                }
            }
            if tp.end == End::Continue {
                raw.insert((i, i, true));
                tail_seen = true;
            }
            any_base |= !tail_seen;
        }
        if any_base {
            base.push(i);
        }
        i += 1;
    }
    // An edge is a tail edge when every call of its callee is a tail call.
    let non_tail: BTreeSet<usize> = raw.iter().filter(|e| !e.2).map(|e| e.1).collect();
    let mut edges: Vec<Edge> =
        raw.iter().map(|&(from, to, _)| Edge { from, to, tail: !non_tail.contains(&to) }).collect();
    edges.dedup_by(|a, b| a.from == b.from && a.to == b.to);
    let names = units.iter().map(|u| unit_name(ex, program, *u)).collect();
    let (subgraphs, cycles) = split(units.len(), &edges);
    Ok(Structure { units: names, edges, base_cases: base, subgraphs, cycles })
}

fn unit_name(ex: &mut Expander, program: &Program, u: Unit) -> String {
    let f = program.func(u.func());
    match u {
        Unit::Func(_) => f.name.clone(),
        Unit::Loop(g, l) => {
            let loops = ex.loops(g);
            let header = loops.loops.loop_(l).header;
            format!("{}:loop@{}", f.name, program.describe_loc(f.block(header).term_loc))
        }
    }
}

/// Section 4.3: keep tail edges and the non-tail edges inside a cycle;
/// a non-tail recursive unit's edges out of its cycle go too. The targets
/// of removed edges (and the top, unit 0) are the subgraphs' entries.
fn split(n: usize, edges: &[Edge]) -> (Vec<Subgraph>, Vec<Vec<usize>>) {
    let mut g: DiGraph<(), ()> = DiGraph::new();
    for _ in 0..n {
        g.add_node(());
    }
    for e in edges {
        g.add_edge(NodeIndex::new(e.from), NodeIndex::new(e.to), ());
    }
    let reach = |a: usize, b: usize| has_path_connecting(&g, NodeIndex::new(a), NodeIndex::new(b), None);
    let same_cycle = |e: &Edge| e.from == e.to || (reach(e.to, e.from) && reach(e.from, e.to));
    let non_tail_recursive: Vec<bool> =
        (0..n).map(|u| edges.iter().any(|e| e.from == u && !e.tail && same_cycle(e))).collect();
    let kept: Vec<&Edge> =
        edges.iter().filter(|e| if same_cycle(e) { true } else { e.tail && !non_tail_recursive[e.from] }).collect();
    let mut entries: BTreeSet<usize> = edges.iter().filter(|e| !kept.contains(e)).map(|e| e.to).collect();
    entries.insert(0);
    let mut subgraphs = Vec::new();
    for &entry in &entries {
        let mut seen = BTreeSet::from([entry]);
        let mut work = vec![entry];
        while let Some(u) = work.pop() {
            for e in kept.iter().filter(|e| e.from == u) {
                if !entries.contains(&e.to) && seen.insert(e.to) {
                    work.push(e.to);
                }
            }
        }
        subgraphs.push((entry, seen.into_iter().collect()));
    }
    let mut cycles: Vec<Vec<usize>> = tarjan_scc(&g)
        .into_iter()
        .map(|c| {
            let mut v: Vec<usize> = c.into_iter().map(|x| x.index()).collect();
            v.sort();
            v
        })
        .filter(|c| c.len() > 1 || edges.iter().any(|e| e.from == c[0] && e.to == c[0]))
        .collect();
    cycles.sort();
    (subgraphs, cycles)
}

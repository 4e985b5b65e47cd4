//! The call graph of a program and its strongly connected components.
//!
//! Edges come from `call` instructions whose callee exists, and from each
//! `callptr` to every function whose address the program takes (`addrfn`,
//! a relocation) with as many parameters as the call passes arguments: a
//! call through a pointer may reach any of them, and recursion through a
//! table of handlers must be bounded like direct recursion. Declarations
//! have no outgoing edges. SCC ids follow Tarjan's output order, which is a reverse
//! topological order: a callee's SCC id is never larger than its caller's,
//! so iterating SCC ids upwards visits callees before callers.

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

use crate::program::{FuncId, InstKind, Program, RelocTarget};

/// Call graph side table of a [`Program`].
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct CallGraph {
    /// Direct callees of each function, sorted and deduplicated.
    callees: Vec<Vec<FuncId>>,
    scc: Vec<u32>,
    recursive: Vec<bool>,
}

/// The functions whose address the program takes, in id order.
pub fn address_taken(p: &Program) -> Vec<FuncId> {
    let n = p.funcs.len();
    let mut taken = vec![false; n];
    for f in &p.funcs {
        for i in f.blocks.iter().flat_map(|b| &b.insts) {
            if let InstKind::AddrFunc { func } = i.kind {
                if let Some(t) = taken.get_mut(func.0 as usize) {
                    *t = true;
                }
            }
        }
    }
    for g in &p.globals {
        for r in &g.relocs {
            if let RelocTarget::Func(func) = r.target {
                if let Some(t) = taken.get_mut(func.0 as usize) {
                    *t = true;
                }
            }
        }
    }
    (0..n).filter(|&i| taken[i]).map(|i| FuncId(i as u32)).collect()
}

impl CallGraph {
    /// Build the call graph of every function of `p`.
    pub fn compute(p: &Program) -> CallGraph {
        let n = p.funcs.len();
        let taken = address_taken(p);
        let mut callees: Vec<Vec<FuncId>> = p
            .funcs
            .iter()
            .map(|f| {
                f.blocks
                    .iter()
                    .flat_map(|b| &b.insts)
                    .flat_map(|i| match &i.kind {
                        InstKind::Call { func, .. } if (func.0 as usize) < n => vec![*func],
                        InstKind::CallPtr { args, .. } => {
                            taken.iter().copied().filter(|t| p.funcs[t.0 as usize].params.len() == args.len()).collect()
                        }
                        _ => vec![],
                    })
                    .collect()
            })
            .collect();
        for c in &mut callees {
            c.sort();
            c.dedup();
        }
        let mut g: DiGraph<(), ()> = DiGraph::with_capacity(n, 0);
        for _ in 0..n {
            g.add_node(());
        }
        for (i, cs) in callees.iter().enumerate() {
            for c in cs {
                g.add_edge(NodeIndex::new(i), NodeIndex::new(c.0 as usize), ());
            }
        }
        let mut scc = vec![0u32; n];
        let mut recursive = vec![false; n];
        for (id, comp) in tarjan_scc(&g).into_iter().enumerate() {
            let cyclic = comp.len() > 1;
            for node in comp {
                let i = node.index();
                scc[i] = id as u32;
                // A singleton SCC is a cycle only through a self-call.
                recursive[i] = cyclic || callees[i].contains(&FuncId(i as u32));
            }
        }
        CallGraph { callees, scc, recursive }
    }

    /// The strongly connected component of `f` (see the module doc for the
    /// numbering).
    ///
    /// # Panics
    /// If `f` is not a function of the program (same for the methods below).
    pub fn scc(&self, f: FuncId) -> u32 {
        self.scc[f.0 as usize]
    }

    /// Whether `f` lies on a call cycle, including direct self-recursion.
    pub fn is_recursive(&self, f: FuncId) -> bool {
        self.recursive[f.0 as usize]
    }

    /// Every function transitively callable from `f`, including `f`, sorted.
    pub fn reachable_from(&self, f: FuncId) -> Vec<FuncId> {
        let mut seen = vec![false; self.callees.len()];
        let mut stack = vec![f];
        seen[f.0 as usize] = true;
        while let Some(g) = stack.pop() {
            for &c in &self.callees[g.0 as usize] {
                if !seen[c.0 as usize] {
                    seen[c.0 as usize] = true;
                    stack.push(c);
                }
            }
        }
        (0..seen.len()).filter(|&i| seen[i]).map(|i| FuncId(i as u32)).collect()
    }

    /// Direct callees of `f`, sorted, without duplicates.
    pub fn callees(&self, f: FuncId) -> Vec<FuncId> {
        self.callees[f.0 as usize].clone()
    }
}

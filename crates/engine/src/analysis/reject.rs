//! Branch sides of a precondition that reject on every path.
//!
//! A precondition such as `return a >= -100 && a <= 100 && ...` lowers to a
//! chain of branches whose false sides all store 0 into the result slot
//! and return it. When a prefix of the function under test conflicts with
//! the precondition's current path, the search looks for another
//! precondition path (see `search::find_valid`); negating one of these
//! conjuncts can only give inputs the precondition rejects, yet each such
//! query drops an input bound and is among the hardest the solver sees
//! (full-width bit-vector arithmetic: on small random diamonds, 1-15 s per
//! query against milliseconds with the bounds). So the precondition's
//! decisions whose other side surely rejects are recorded as not
//! negatable.
//!
//! "Surely rejects" is decided on the IR, conservatively: from the block,
//! every path returns the constant 0, following constants stored in the
//! function's own local slots (`store i32 (addr $k), 0` ... `load`, `ret`).
//! A store through another pointer or a call forgets what the slots held;
//! a loop, an `unreachable`, or a return of anything not known to be 0
//! makes the answer "no". Answers are memoised per block and slot
//! contents, so sequences of `if`s (whose paths multiply) cost one walk
//! per block and state, not one per path.

use std::cell::RefCell;

use pathwise_ir::{Block, FuncData, InstKind, Local, Operand, Reg, Terminator};
use rustc_hash::FxHashMap;

/// Blocks visited at most along one walk (longer chains are not followed).
const MAX_WALK: usize = 64;

/// Per block of `f`: whether every path from it returns the constant 0.
pub fn rejecting_blocks(f: &FuncData) -> Vec<bool> {
    let slot_of: FxHashMap<Reg, Local> = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter_map(|i| match (&i.kind, i.result) {
            (InstKind::AddrLocal { local }, Some(r)) => Some((r, *local)),
            _ => None,
        })
        .collect();
    let walker = Walker { f, slot_of, memo: RefCell::default() };
    (0..f.blocks.len()).map(|b| walker.rejects(Block(b as u32), &mut Vec::new(), &Slots::default())).collect()
}

/// Constants known to be held by local slots.
type Slots = FxHashMap<Local, u64>;

struct Walker<'f> {
    f: &'f FuncData,
    slot_of: FxHashMap<Reg, Local>,
    /// Answers by block and slot contents (sorted). A "no" forced by a
    /// cycle or the walk limit is kept too: "no" is always safe.
    memo: RefCell<FxHashMap<WalkState, bool>>,
}

/// A block and the constant contents of slots (sorted) on entering it.
type WalkState = (Block, Vec<(Local, u64)>);

impl Walker<'_> {
    fn rejects(&self, b: Block, path: &mut Vec<Block>, slots: &Slots) -> bool {
        if path.contains(&b) || path.len() >= MAX_WALK {
            return false;
        }
        let mut key: Vec<(Local, u64)> = slots.iter().map(|(k, v)| (*k, *v)).collect();
        key.sort_unstable_by_key(|(k, _)| k.index());
        let key = (b, key);
        if let Some(&r) = self.memo.borrow().get(&key) {
            return r;
        }
        let r = self.walk(b, path, slots);
        self.memo.borrow_mut().insert(key, r);
        r
    }

    /// [`Walker::rejects`] without the memo: `b`'s instructions, then its
    /// successors.
    fn walk(&self, b: Block, path: &mut Vec<Block>, slots: &Slots) -> bool {
        let mut slots = slots.clone();
        let mut regs: FxHashMap<Reg, u64> = FxHashMap::default();
        let value = |regs: &FxHashMap<Reg, u64>, op: &Operand| match op {
            Operand::Const(_, v) => Some(*v),
            Operand::Reg(r) => regs.get(r).copied(),
        };
        let slot = |op: &Operand| match op {
            Operand::Reg(r) => self.slot_of.get(r).copied(),
            Operand::Const(..) => None,
        };
        let data = self.f.block(b);
        for inst in &data.insts {
            match &inst.kind {
                InstKind::Store { ptr, value: v, .. } => match (slot(ptr), value(&regs, v)) {
                    (Some(k), Some(c)) => {
                        slots.insert(k, c);
                    }
                    (Some(k), None) => {
                        slots.remove(&k);
                    }
                    // A store elsewhere may reach a slot whose address escaped.
                    (None, _) => slots.clear(),
                },
                InstKind::Load { ptr, .. } => {
                    if let (Some(r), Some(c)) = (inst.result, slot(ptr).and_then(|k| slots.get(&k).copied())) {
                        regs.insert(r, c);
                    }
                }
                InstKind::Call { .. } | InstKind::CallPtr { .. } => slots.clear(),
                _ => {}
            }
        }
        path.push(b);
        let r = match &data.term {
            Terminator::Return(Some(op)) => value(&regs, op) == Some(0),
            Terminator::Jump(to) => self.rejects(*to, path, &slots),
            Terminator::Branch { then_block, else_block, .. } => {
                self.rejects(*then_block, path, &slots) && self.rejects(*else_block, path, &slots)
            }
            Terminator::Return(None) | Terminator::Unreachable => false,
        };
        path.pop();
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> pathwise_ir::Program {
        pathwise_ir::parser::parse_program(src).expect("valid IR")
    }

    /// `return a >= 0 && b <= 6;` as the front end lowers it: the false
    /// sides store 0 and return the slot; the true side stores 1.
    #[test]
    fn conjunction_false_sides_reject() {
        let p = program(
            "func @pre(%0: i32, %1: i32) -> i32 {\n  local $0 \"t\": i32 x 1\nbb0:\n  %2 = cmp sge i32 %0, 0:i32\n  \
             br %2, bb1, bb3\nbb1:\n  %3 = cmp sle i32 %1, 6:i32\n  br %3, bb2, bb3\nbb2:\n  %4 = addr $0\n  \
             store i32 %4, 1:i32\n  jmp bb4\nbb3:\n  %5 = addr $0\n  store i32 %5, 0:i32\n  jmp bb4\nbb4:\n  \
             %6 = addr $0\n  %7 = load i32 %6\n  ret %7\n}\n",
        );
        let r = rejecting_blocks(&p.funcs[0]);
        assert_eq!(r, [false, false, false, true, false]);
    }

    /// A value not known to be 0 (a parameter, a slot written with one,
    /// a slot after a call) never counts as a rejection.
    #[test]
    fn unknown_values_do_not_reject() {
        let p = program(
            "func @g(%0: i32) -> i32 {\n  local $0 \"t\": i32 x 1\nbb0:\n  %1 = addr $0\n  store i32 %1, 0:i32\n  \
             store i32 %1, %0\n  %2 = load i32 %1\n  ret %2\n}\n",
        );
        assert_eq!(rejecting_blocks(&p.funcs[0]), [false]);
    }

    /// Eighteen `if`s in sequence, every path ending in `return 0`: 2^18
    /// paths, each block and state walked once thanks to the memo.
    #[test]
    fn sequences_of_ifs_are_walked_once_per_block() {
        let mut src = String::from("int f(int a) {\n  int x = 0;\n");
        for i in 0..18 {
            src.push_str(&format!("  if (a > {i}) x = x + 1; else x = x - 1;\n"));
        }
        src.push_str("  return 0;\n}\n");
        let opts = pathwise_cfront::FrontendOptions {
            include_dirs: vec![],
            defines: vec![],
            data_model: pathwise_cfront::DataModel::Lp64,
            extra_args: vec![],
        };
        let p = pathwise_cfront::compile_source("ifs.c", &src, &opts).expect("compiles").program;
        let f = p.func(p.func_by_name("f").expect("f"));
        assert!(rejecting_blocks(f)[0], "every path returns 0");
    }
}

//! Loops, post-dominators, dominators and the call graph on hand-written IR.

mod common;

use common::parse;
use pathwise_ir::analysis::{predecessors, reverse_postorder};
use pathwise_ir::*;

fn bbs(ns: &[u32]) -> Vec<Block> {
    ns.iter().map(|&n| Block(n)).collect()
}

/// The single function of `text`.
fn func(text: &str) -> FuncData {
    let p = parse(text);
    assert_eq!(verify(&p), Ok(()), "{text}");
    p.funcs.into_iter().next().unwrap()
}

/// `while (c) { if (x) a; else b; } return;`
const WHILE_IF: &str = r#"
func @w(%0: i1, %1: i1) -> void {
bb0:
  jmp bb1
bb1:                 ; while (c)
  br %0, bb2, bb5
bb2:                 ; if (x)
  br %1, bb3, bb4
bb3:                 ; a
  jmp bb6
bb4:                 ; b
  jmp bb6
bb5:
  ret
bb6:                 ; end of the body
  jmp bb1
}
"#;

#[test]
fn while_loop() {
    let f = func(WHILE_IF);
    let li = LoopInfo::compute(&f);
    assert_eq!(li.loops.len(), 1);
    let l = li.loop_(LoopId(0));
    assert_eq!(l.header, Block(1));
    assert_eq!(l.blocks, bbs(&[1, 2, 3, 4, 6]));
    assert_eq!(l.latches, bbs(&[6]));
    assert_eq!((l.parent, l.depth), (None, 1));
    assert_eq!(li.back_edge_loop(Block(6), Block(1)), Some(LoopId(0)));
    assert_eq!(li.back_edge_loop(Block(0), Block(1)), None);
    assert_eq!(li.back_edge_loop(Block(2), Block(3)), None);
    assert_eq!(li.innermost(Block(0)), None);
    assert_eq!(li.innermost(Block(5)), None);
    assert_eq!(li.innermost(Block(3)), Some(LoopId(0)));
    assert!(li.contains(LoopId(0), Block(6)));
    assert!(!li.contains(LoopId(0), Block(5)));
    assert!(!li.contains(LoopId(7), Block(1)));
}

#[test]
fn while_loop_postdominators() {
    let f = func(WHILE_IF);
    let pd = PostDominators::compute(&f);
    // The header post-dominates both branch targets inside the body.
    assert!(pd.postdominates(Block(1), Block(3)));
    assert!(pd.postdominates(Block(1), Block(4)));
    assert!(pd.postdominates(Block(1), Block(2)));
    // The join post-dominates both arms, but neither arm the condition.
    assert!(pd.postdominates(Block(6), Block(3)));
    assert!(pd.postdominates(Block(6), Block(2)));
    assert!(!pd.postdominates(Block(3), Block(2)));
    assert!(!pd.postdominates(Block(4), Block(2)));
    // The exit post-dominates the header and everything else.
    for b in 0..7 {
        assert!(pd.postdominates(Block(5), Block(b)), "bb5 pdom bb{b}");
    }
    assert!(!pd.postdominates(Block(1), Block(5)));
    assert!(!pd.postdominates(Block(2), Block(1)));
    assert!(pd.postdominates(Block(2), Block(2)));
    assert_eq!(pd.ipdom(Block(2)), Some(Block(6)));
    assert_eq!(pd.ipdom(Block(1)), Some(Block(5)));
    assert_eq!(pd.ipdom(Block(5)), None);
    assert!(pd.reaches_exit(Block(3)));
}

#[test]
fn nested_loops() {
    let f = func(
        r#"
func @n(%0: i1, %1: i1) -> void {
bb0:
  jmp bb1
bb1:                 ; for i
  br %0, bb2, bb6
bb2:
  jmp bb3
bb3:                 ; for j
  br %1, bb4, bb5
bb4:
  jmp bb3
bb5:                 ; i++
  jmp bb1
bb6:
  ret
}
"#,
    );
    let li = LoopInfo::compute(&f);
    assert_eq!(li.loops.len(), 2);
    let (outer, inner) = (LoopId(0), LoopId(1));
    assert_eq!(li.loop_(outer).header, Block(1));
    assert_eq!(li.loop_(outer).blocks, bbs(&[1, 2, 3, 4, 5]));
    assert_eq!(li.loop_(outer).latches, bbs(&[5]));
    assert_eq!((li.loop_(outer).parent, li.loop_(outer).depth), (None, 1));
    assert_eq!(li.loop_(inner).header, Block(3));
    assert_eq!(li.loop_(inner).blocks, bbs(&[3, 4]));
    assert_eq!(li.loop_(inner).latches, bbs(&[4]));
    assert_eq!((li.loop_(inner).parent, li.loop_(inner).depth), (Some(outer), 2));
    assert_eq!(li.innermost(Block(4)), Some(inner));
    assert_eq!(li.innermost(Block(3)), Some(inner));
    assert_eq!(li.innermost(Block(5)), Some(outer));
    assert_eq!(li.enclosing(Block(4)), vec![outer, inner]);
    assert_eq!(li.enclosing(Block(2)), vec![outer]);
    assert_eq!(li.enclosing(Block(6)), vec![]);
    assert_eq!(li.back_edge_loop(Block(4), Block(3)), Some(inner));
    assert_eq!(li.back_edge_loop(Block(5), Block(1)), Some(outer));
    assert_eq!(li.back_edge_loop(Block(2), Block(3)), None);
    assert_eq!(li.loop_with_header(Block(3)), Some(inner));
    let pd = PostDominators::compute(&f);
    assert!(pd.postdominates(Block(3), Block(4)));
    assert!(pd.postdominates(Block(5), Block(3)));
    assert!(pd.postdominates(Block(1), Block(5)));
}

#[test]
fn do_while_loop() {
    let f = func(
        r#"
func @d(%0: i32) -> i32 {
bb0:
  jmp bb1
bb1:                 ; do { ... }
  %1 = add i32 %0, 1:i32
  jmp bb2
bb2:                 ; while (c)
  %2 = cmp slt i32 %1, 10:i32
  br %2, bb1, bb3
bb3:
  ret %1
}
"#,
    );
    let li = LoopInfo::compute(&f);
    assert_eq!(li.loops.len(), 1);
    let l = li.loop_(LoopId(0));
    assert_eq!((l.header, l.blocks.clone(), l.latches.clone()), (Block(1), bbs(&[1, 2]), bbs(&[2])));
    let pd = PostDominators::compute(&f);
    assert!(pd.postdominates(Block(2), Block(1)));
    assert!(pd.postdominates(Block(3), Block(1)));
    assert!(!pd.postdominates(Block(1), Block(2)));
}

#[test]
fn loop_with_break_and_continue() {
    let f = func(
        r#"
func @bc(%0: i1, %1: i1, %2: i1) -> void {
bb0:
  jmp bb1
bb1:                 ; while (c)
  br %0, bb2, bb5
bb2:                 ; if (a) continue;
  br %1, bb1, bb3
bb3:                 ; if (b) break;
  br %2, bb5, bb4
bb4:                 ; rest of the body
  jmp bb1
bb5:
  ret
}
"#,
    );
    let li = LoopInfo::compute(&f);
    // Both back edges (continue and the end of the body) form one loop.
    assert_eq!(li.loops.len(), 1);
    let l = li.loop_(LoopId(0));
    assert_eq!(l.blocks, bbs(&[1, 2, 3, 4]));
    assert_eq!(l.latches, bbs(&[2, 4]));
    assert_eq!(li.back_edge_loop(Block(2), Block(1)), Some(LoopId(0)));
    assert_eq!(li.back_edge_loop(Block(4), Block(1)), Some(LoopId(0)));
    assert_eq!(li.back_edge_loop(Block(3), Block(5)), None);
    let pd = PostDominators::compute(&f);
    // `break` skips the header: it does not post-dominate bb3.
    assert!(!pd.postdominates(Block(1), Block(3)));
    assert!(pd.postdominates(Block(1), Block(4)));
    for b in 0..6 {
        assert!(pd.postdominates(Block(5), Block(b)));
    }
}

#[test]
fn infinite_loops() {
    let f = func(
        r#"
func @inf(%0: i1) -> void {
bb0:
  br %0, bb1, bb3
bb1:                 ; for (;;) { ... }
  jmp bb2
bb2:
  jmp bb1
bb3:
  ret
}
"#,
    );
    let li = LoopInfo::compute(&f);
    assert_eq!(li.loops.len(), 1);
    assert_eq!(li.loop_(LoopId(0)).blocks, bbs(&[1, 2]));
    let pd = PostDominators::compute(&f);
    // Blocks that cannot reach an exit are post-dominated only by themselves.
    assert!(!pd.reaches_exit(Block(1)));
    assert!(!pd.reaches_exit(Block(2)));
    assert!(pd.postdominates(Block(1), Block(1)));
    assert!(!pd.postdominates(Block(2), Block(1)));
    assert!(!pd.postdominates(Block(1), Block(2)));
    assert!(!pd.postdominates(Block(3), Block(1)));
    assert_eq!(pd.ipdom(Block(1)), None);
    // Non-terminating paths are ignored: the return post-dominates the entry.
    assert!(pd.postdominates(Block(3), Block(0)));

    // A function that never returns at all.
    let spin = func("func @spin() -> void {\nbb0:\n jmp bb1\nbb1:\n jmp bb1\n}");
    let li = LoopInfo::compute(&spin);
    assert_eq!(li.loops.len(), 1);
    assert_eq!((li.loop_(LoopId(0)).blocks.clone(), li.loop_(LoopId(0)).latches.clone()), (bbs(&[1]), bbs(&[1])));
    let pd = PostDominators::compute(&spin);
    assert!(!pd.postdominates(Block(1), Block(0)));
    assert!(pd.postdominates(Block(0), Block(0)));
}

#[test]
fn unreachable_terminator_is_an_exit_and_dead_blocks_are_ignored() {
    let f = func(
        r#"
func @a(%0: i1) -> void {
bb0:
  br %0, bb1, bb2
bb1:                 ; e.g. after a call to abort()
  unreachable
bb2:
  ret
bb3:                 ; dead self-loop
  jmp bb3
}
"#,
    );
    let pd = PostDominators::compute(&f);
    assert!(pd.reaches_exit(Block(1)));
    assert!(!pd.postdominates(Block(2), Block(0)));
    let li = LoopInfo::compute(&f);
    assert!(li.loops.is_empty(), "unreachable blocks belong to no loop");
    let doms = Dominators::compute(&f);
    assert!(!doms.is_reachable(Block(3)));
    assert!(doms.dominates(Block(0), Block(2)));
    assert!(!doms.dominates(Block(1), Block(2)));
    assert_eq!(doms.idom(Block(2)), Some(Block(0)));
    assert_eq!(doms.idom(Block(0)), None);
}

#[test]
fn irreducible_cfg_has_no_natural_loop() {
    let f = func(
        "func @irr(%0: i1) -> void {\nbb0:\n br %0, bb1, bb2\nbb1:\n br %0, bb2, bb3\nbb2:\n jmp bb1\nbb3:\n ret\n}",
    );
    assert!(LoopInfo::compute(&f).loops.is_empty());
    assert!(PostDominators::compute(&f).postdominates(Block(1), Block(2)));
}

#[test]
fn cfg_helpers() {
    let f = func(WHILE_IF);
    let preds = predecessors(&f);
    assert_eq!(preds[1], bbs(&[0, 6]));
    assert_eq!(preds[6], bbs(&[3, 4]));
    assert_eq!(preds[0], vec![]);
    let rpo = reverse_postorder(&f);
    assert_eq!(rpo, bbs(&[0, 1, 2, 3, 4, 6, 5]));
}

const CALLS: &str = r#"
declare @abort() -> void
func @even(%0: i32) -> i1 {
bb0:
  %1 = cmp eq i32 %0, 0:i32
  br %1, bb1, bb2
bb1:
  ret 1:i1
bb2:
  %2 = sub i32 %0, 1:i32
  %3 = call @odd(%2)
  ret %3
}
func @odd(%0: i32) -> i1 {
bb0:
  %1 = cmp eq i32 %0, 0:i32
  br %1, bb1, bb2
bb1:
  ret 0:i1
bb2:
  %2 = sub i32 %0, 1:i32
  %3 = call @even(%2)
  ret %3
}
func @fact(%0: i32) -> i32 {
bb0:
  %1 = cmp sle i32 %0, 1:i32
  br %1, bb1, bb2
bb1:
  ret 1:i32
bb2:
  %2 = sub i32 %0, 1:i32
  %3 = call @fact(%2)
  %4 = mul i32 %0, %3
  ret %4
}
func @main(%0: i32) -> i32 {
bb0:
  %1 = call @even(%0)
  %2 = call @fact(%0)
  %3 = call @fact(%2)
  br %1, bb1, bb2
bb1:
  call @abort()
  unreachable
bb2:
  ret %2
}
func @leaf() -> void {
bb0:
  ret
}
"#;

#[test]
fn call_graph_recursion() {
    let p = parse(CALLS);
    assert_eq!(verify(&p), Ok(()));
    let id = |n: &str| p.func_by_name(n).unwrap();
    let (abort, even, odd, fact, main, leaf) = (id("abort"), id("even"), id("odd"), id("fact"), id("main"), id("leaf"));
    let cg = CallGraph::compute(&p);
    assert_eq!(cg.scc(even), cg.scc(odd));
    assert_ne!(cg.scc(even), cg.scc(fact));
    assert_ne!(cg.scc(main), cg.scc(even));
    assert!(cg.is_recursive(even) && cg.is_recursive(odd));
    assert!(cg.is_recursive(fact), "direct self-recursion");
    assert!(!cg.is_recursive(main));
    assert!(!cg.is_recursive(abort));
    assert!(!cg.is_recursive(leaf));
    // Callees' components are numbered before their callers'.
    assert!(cg.scc(even) < cg.scc(main));
    assert!(cg.scc(fact) < cg.scc(main));
    assert!(cg.scc(abort) < cg.scc(main));
    assert_eq!(cg.callees(main), vec![abort, even, fact]);
    assert_eq!(cg.callees(fact), vec![fact]);
    assert_eq!(cg.callees(abort), vec![]);
    assert_eq!(cg.reachable_from(main), vec![abort, even, odd, fact, main]);
    assert_eq!(cg.reachable_from(odd), vec![even, odd]);
    assert_eq!(cg.reachable_from(leaf), vec![leaf]);
}

#[test]
fn analyses_accept_arbitrary_programs() {
    for seed in 0..2000 {
        let p = common::program(seed);
        let cg = CallGraph::compute(&p);
        for (i, f) in p.funcs.iter().enumerate() {
            let id = FuncId(i as u32);
            assert!(cg.reachable_from(id).contains(&id));
            let li = LoopInfo::compute(f);
            let pd = PostDominators::compute(f);
            let doms = Dominators::compute(f);
            for b in 0..f.blocks.len() as u32 + 1 {
                let b = Block(b);
                for l in li.enclosing(b) {
                    assert!(li.contains(l, b));
                    assert!(doms.dominates(li.loop_(l).header, b));
                }
                let _ = pd.postdominates(Block(0), b);
            }
        }
    }
}

//! Test support: compiling snippets, a small IR printer for failure
//! messages, and a verifier of the properties the engine relies on (types of
//! operands, every register defined once in a block dominating its uses,
//! branch targets in range).

#![allow(dead_code)]

pub mod interp;

use pathwise_cfront::{compile_source, Compiled, FrontendOptions};
use pathwise_ir::{Block, FuncData, InstKind, Operand, Program, Reg, Terminator, Type};
use std::collections::HashMap;

pub fn compile(src: &str) -> Compiled {
    match compile_source("test.c", src, &FrontendOptions::default()) {
        Ok(c) => {
            verify_program(&c.program);
            c
        }
        Err(e) => panic!("compilation failed:\n{e}"),
    }
}

/// Compiles a snippet that must have no unsupported function.
pub fn program(src: &str) -> Program {
    let c = compile(src);
    assert!(c.unsupported.is_empty(), "unexpected unsupported functions: {:?}", c.unsupported);
    c.program
}

pub fn compile_err(src: &str) -> String {
    match compile_source("test.c", src, &FrontendOptions::default()) {
        Ok(c) => panic!("expected an error, got a program with unsupported = {:?}", c.unsupported),
        Err(e) => e.to_string(),
    }
}

pub fn func<'p>(p: &'p Program, name: &str) -> &'p FuncData {
    let id = p.func_by_name(name).unwrap_or_else(|| panic!("no function {name}"));
    p.func(id)
}

pub fn branches(f: &FuncData) -> usize {
    f.blocks.iter().filter(|b| matches!(b.term, Terminator::Branch { .. })).count()
}

pub fn insts(f: &FuncData) -> impl Iterator<Item = &pathwise_ir::Inst> {
    f.blocks.iter().flat_map(|b| b.insts.iter())
}

/// The function in the IR text form (for assertion messages).
pub fn print(p: &Program, f: &FuncData) -> String {
    match p.funcs.iter().position(|g| std::ptr::eq(g, f)) {
        Some(i) => pathwise_ir::print_function(p, pathwise_ir::FuncId(i as u32)),
        None => format!("{f:?}"),
    }
}

/// Immediate-dominator based dominance on reachable blocks.
fn dominators(f: &FuncData) -> Vec<Vec<bool>> {
    let n = f.blocks.len();
    let mut preds = vec![Vec::new(); n];
    for (i, b) in f.blocks.iter().enumerate() {
        for s in b.term.successors() {
            preds[s.index()].push(i);
        }
    }
    let mut dom = vec![vec![true; n]; n];
    dom[0] = vec![false; n];
    dom[0][0] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for b in 1..n {
            let mut new = vec![true; n];
            if preds[b].is_empty() {
                new = vec![false; n];
            }
            for &p in &preds[b] {
                for (x, d) in new.iter_mut().enumerate() {
                    *d &= dom[p][x];
                }
            }
            new[b] = true;
            if new != dom[b] {
                dom[b] = new;
                changed = true;
            }
        }
    }
    dom
}

/// The type of an instruction's result (written out here rather than taken
/// from the IR crate, so that these checks stay independent of it).
fn result_type(p: &Program, kind: &InstKind) -> Option<Type> {
    match kind {
        InstKind::Bin { ty, .. }
        | InstKind::Load { ty, .. }
        | InstKind::FBin { ty, .. }
        | InstKind::FNeg { ty, .. } => Some(*ty),
        InstKind::Cmp { .. } | InstKind::FCmp { .. } => Some(Type::I1),
        InstKind::Cast { to, .. } | InstKind::FCast { to, .. } => Some(*to),
        InstKind::AddrLocal { .. }
        | InstKind::AddrGlobal { .. }
        | InstKind::AddrFunc { .. }
        | InstKind::PtrAdd { .. }
        | InstKind::Alloca { .. } => Some(Type::Ptr),
        InstKind::PtrDiff { .. } => Some(Type::I64),
        InstKind::Store { .. } | InstKind::CheckIndex { .. } => None,
        InstKind::Call { func, .. } => p.func(*func).ret,
        InstKind::CallPtr { ret, .. } => *ret,
    }
}

/// The operand types and references of one instruction (`check` checks an
/// operand against an expected type; `fail` panics).
fn check_inst(
    p: &Program,
    f: &FuncData,
    kind: &InstKind,
    check: &dyn Fn(&Operand, Option<Type>),
    fail: &dyn Fn(String),
) {
    match kind {
        InstKind::Bin { ty, a, b, .. } => {
            if *ty == Type::Ptr || *ty == Type::I1 {
                fail(format!("bin on {ty}"));
            }
            check(a, Some(*ty));
            check(b, Some(*ty));
        }
        InstKind::Cmp { ty, a, b, .. } | InstKind::FCmp { ty, a, b, .. } | InstKind::FBin { ty, a, b, .. } => {
            check(a, Some(*ty));
            check(b, Some(*ty));
        }
        InstKind::FNeg { ty, a } => check(a, Some(*ty)),
        InstKind::FCast { op, from, to, a } => {
            if !op.types_ok(*from, *to) {
                fail(format!("{} from {from} to {to}", op.name()));
            }
            check(a, Some(*from));
        }
        InstKind::Cast { from, to, a, .. } => {
            if from == to {
                fail("no-op cast".into());
            }
            check(a, Some(*from));
        }
        InstKind::AddrLocal { local } => {
            if local.index() >= f.locals.len() {
                fail("bad local".into());
            }
        }
        InstKind::AddrGlobal { global } => {
            if global.0 as usize >= p.globals.len() {
                fail("bad global".into());
            }
        }
        InstKind::AddrFunc { func } => {
            if func.0 as usize >= p.funcs.len() {
                fail("bad function".into());
            }
        }
        InstKind::CallPtr { callee, .. } => check(callee, Some(Type::Ptr)),
        InstKind::PtrAdd { base, offset } => {
            check(base, Some(Type::Ptr));
            check(offset, Some(Type::I64));
        }
        InstKind::PtrDiff { a, b } => {
            check(a, Some(Type::Ptr));
            check(b, Some(Type::Ptr));
        }
        InstKind::Load { ptr, .. } => check(ptr, Some(Type::Ptr)),
        InstKind::CheckIndex { index, .. } => check(index, Some(Type::I64)),
        InstKind::Alloca { count, .. } => check(count, Some(Type::I64)),
        InstKind::Store { ty, ptr, value } => {
            check(ptr, Some(Type::Ptr));
            check(value, Some(*ty));
        }
        InstKind::Call { func, args } => {
            let callee = p.func(*func);
            // A declaration takes more: a variadic function's.
            let variadic = callee.is_declaration() && args.len() > callee.params.len();
            if callee.params.len() != args.len() && !variadic {
                fail(format!("call of {} with {} args", callee.name, args.len()));
            }
            for (a, prm) in args.iter().zip(&callee.params) {
                check(a, Some(prm.ty));
            }
        }
    }
}

/// Checks one function; panics with a dump on failure.
pub fn verify(p: &Program, f: &FuncData) {
    if f.blocks.is_empty() {
        return;
    }
    let fail = |msg: String| -> ! { panic!("{} in {}:\n{}", msg, f.name, print(p, f)) };
    let mut def: HashMap<Reg, (usize, usize, Type)> = HashMap::new();
    for prm in &f.params {
        def.insert(prm.reg, (0, 0, prm.ty));
    }
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, inst) in b.insts.iter().enumerate() {
            match (inst.result, result_type(p, &inst.kind)) {
                (Some(r), Some(t)) => {
                    if r.0 >= f.num_regs {
                        fail(format!("{r} >= num_regs"));
                    }
                    if def.insert(r, (bi, ii + 1, t)).is_some() {
                        fail(format!("{r} defined twice"));
                    }
                }
                (None, None) => {}
                _ => fail(format!("result mismatch at bb{bi}:{ii}")),
            }
        }
    }
    let dom = dominators(f);
    let check = |o: &Operand, want: Option<Type>, bi: usize, ii: usize| {
        let t = match o {
            Operand::Const(t, v) => {
                if *t == Type::Ptr && *v != 0 {
                    fail("non-null pointer constant".into());
                }
                *t
            }
            Operand::Reg(r) => {
                let Some(&(db, di, t)) = def.get(r) else { fail(format!("{r} used but never defined")) };
                let ok = if db == bi { di <= ii } else { dom[bi][db] };
                if !ok {
                    fail(format!("{r} used at bb{bi}:{ii} without a dominating definition"));
                }
                t
            }
        };
        if let Some(w) = want {
            if t != w {
                fail(format!("operand {o:?} has type {t}, expected {w} at bb{bi}:{ii}"));
            }
        }
    };
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, inst) in b.insts.iter().enumerate() {
            check_inst(p, f, &inst.kind, &|o, w| check(o, w, bi, ii), &|m| fail(m));
        }
        let n = b.insts.len();
        for s in b.term.successors() {
            if s.index() >= f.blocks.len() {
                fail(format!("successor {s} out of range"));
            }
        }
        match &b.term {
            Terminator::Branch { cond, .. } => {
                if matches!(cond, Operand::Const(..)) {
                    fail("branch on a constant".into());
                }
                check(cond, Some(Type::I1), bi, n);
                if b.term_loc.is_none() {
                    fail(format!("branch without location in bb{bi}"));
                }
            }
            Terminator::Return(v) => match (v, f.ret) {
                (Some(v), Some(t)) => check(v, Some(t), bi, n),
                (None, None) => {}
                _ => fail("return arity mismatch".into()),
            },
            _ => {}
        }
    }
    // Every block is reachable from the entry (the front end prunes).
    let mut seen = vec![false; f.blocks.len()];
    let mut stack = vec![Block(0)];
    while let Some(b) = stack.pop() {
        if !std::mem::replace(&mut seen[b.index()], true) {
            stack.extend(f.blocks[b.index()].term.successors());
        }
    }
    if let Some(bi) = seen.iter().position(|s| !s) {
        fail(format!("bb{bi} unreachable"));
    }
}

pub fn verify_program(p: &Program) {
    // The IR crate's verifier, then the stricter checks above (e.g. no
    // unreachable blocks, located branches, no constant branch conditions).
    if let Err(errors) = pathwise_ir::verify(p) {
        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        let dumps: Vec<String> = p.funcs.iter().map(|f| print(p, f)).collect();
        panic!("IR verifier: {}\n{}", text.join("\n"), dumps.join("\n"));
    }
    // The text form round-trips (names, strings and locations included).
    let text = p.to_string();
    assert_eq!(pathwise_ir::parse_program(&text).as_ref(), Ok(p), "round trip of:\n{text}");
    for f in &p.funcs {
        verify(p, f);
        let n = f.params.len() as u32;
        for (i, prm) in f.params.iter().enumerate() {
            assert_eq!(prm.reg, Reg(i as u32), "param regs of {}", f.name);
        }
        assert!(f.num_regs >= n);
    }
}

/// Compiles `src` with gcc (plus `main`) and returns its standard output.
pub fn gcc_run(src: &str, main: &str) -> String {
    gcc_run_flags(&[], src, main)
}

/// [`gcc_run`] with extra gcc flags (`-m32`).
pub fn gcc_run_flags(flags: &[&str], src: &str, main: &str) -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let dir =
        std::env::temp_dir().join(format!("cfront-test-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
    std::fs::create_dir_all(&dir).unwrap();
    let c = dir.join("t.c");
    let exe = dir.join("t");
    std::fs::write(&c, format!("{src}\n{main}\n")).unwrap();
    let st = std::process::Command::new("gcc")
        .args(flags)
        .args(["-w", "-O0", "-fwrapv", "-I", concat!(env!("CARGO_MANIFEST_DIR"), "/include"), "-o"])
        .arg(&exe)
        .arg(&c)
        .status()
        .unwrap();
    assert!(st.success(), "gcc failed");
    let out = std::process::Command::new(&exe).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(out.stdout).unwrap()
}

/// Compile `cases` (functions `long t0(void)` .. `t{n-1}`) with gcc and with
/// the front end; each function must return what gcc's build prints. One
/// interpreter runs them all in gcc's order, so statics persist alike.
/// Returns the lowered program for further checks.
pub fn assert_cases_match_gcc(cases: &str, n: usize) -> pathwise_ir::Program {
    let mut main = String::from("#include <stdio.h>\nint main(void) {\n");
    for i in 0..n {
        main += &format!("    printf(\"%ld\\n\", t{i}());\n");
    }
    main += "    return 0;\n}\n";
    let expected: Vec<i64> = gcc_run(cases, &main).lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(expected.len(), n);
    let p = program(cases);
    let mut it = interp::Interp::new(&p);
    for (i, want) in expected.iter().enumerate() {
        let got = it.call_by_name(&format!("t{i}"), &[]).unwrap() as i64;
        assert_eq!(got, *want, "t{i}");
    }
    p
}

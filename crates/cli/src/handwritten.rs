//! `gen --summary FILE.c`: hand-written summaries (seed 003, section
//! 3.2.5), checked against the unit before the search, and their
//! conformance tests.
//!
//! A summary file is C read after the unit as the rest of its translation
//! unit (it uses the unit's types). For a function `F` of the unit (defined
//! or only declared) it defines `pathwise_summary_F`, of `F`'s type, whose
//! body is cases: `if (pathwise_case(pre)) { effect; return r; }` (see
//! `pathwise.h` and [`pathwise_engine::handwritten`]). The search runs the
//! summary in place of every call of `F`; the emitted tests still call the
//! real `F`, so their checks fail natively when `F` violates its summary.
//!
//! Conformance: each summary is also explored as a function under test; its
//! tests (one per path of the summary that goes through a case) are
//! written to `OUT/summary_F/F_tests.c`, calling the real `F` with inputs
//! that satisfy the case (distinct objects behind its pointer parameters)
//! and checking the case's whole effect, frame included (see
//! `pathwise_emit::write_c_tests_framed`). A failing one names the scalar
//! that differs and the case it violates (`file:line:col` and the
//! condition).

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Result};
use pathwise_engine::config::Config;
use pathwise_engine::handwritten::{case_sites, PREFIX};
use pathwise_engine::suite::TestSuite;
use pathwise_ir::{FuncId, Loc, Param, Program, Shape};
use pathwise_solver_z3::Z3Backend;

use crate::frontend::Frontend;
use crate::gen::GenArgs;

/// A checked summary: the summarised function, its summary and its cases.
pub struct Summary {
    pub callee: String,
    pub summary: FuncId,
    /// Each case's location and its source text (`pathwise_case(len > 0)`).
    pub cases: Vec<(Loc, String)>,
}

/// Compile the unit with its summary files and check the function under
/// test, the precondition and every summary.
pub fn compile(args: &GenArgs) -> Result<(Frontend, Vec<Summary>)> {
    crate::frontend::check_input(&args.file, "")?;
    for s in &args.summaries {
        crate::frontend::check_input(s, "summary file ")?;
    }
    let model = pathwise_cfront::DataModel::Lp64;
    let fe = crate::frontend::compile_appended(&args.file, &args.summaries, &args.include_dirs, &args.defines, model)?;
    fe.check_supported(&args.function, "function")?;
    crate::gen::check_function(&fe.program, &args.function, "function")?;
    if let Some(pre) = &args.precondition {
        fe.check_supported(pre, "precondition")?;
        crate::gen::check_function(&fe.program, pre, "precondition")?;
    }
    let summaries = check(&fe, &args.summaries)?;
    Ok((fe, summaries))
}

/// The file index of each summary file in `program.files`.
fn file_indices(program: &Program, files: &[PathBuf]) -> Vec<Option<u32>> {
    files
        .iter()
        .map(|f| {
            let name = f.to_string_lossy();
            program.files.iter().position(|n| *n == name).map(|i| i as u32)
        })
        .collect()
}

/// Every `pathwise_summary_F` must be defined, summarise a function `F`
/// that the unit declares or defines, have `F`'s type and open at least
/// one case; every summary file must define one.
fn check(fe: &Frontend, files: &[PathBuf]) -> Result<Vec<Summary>> {
    let program = &fe.program;
    let indices = file_indices(program, files);
    let in_summary_file = |loc: Loc| indices.contains(&Some(loc.file));
    let mut summaries = Vec::new();
    for (i, f) in program.funcs.iter().enumerate() {
        let Some(target) = f.name.strip_prefix(PREFIX) else { continue };
        let at = program.describe_loc(f.loc);
        if f.is_declaration() {
            fe.check_supported(&f.name, "hand-written summary")?;
            bail!("{at}: hand-written summary `{}` is declared but never defined", f.name);
        }
        let callee = program.func_by_name(target).filter(|&c| !in_summary_file(program.func(c).loc));
        let Some(callee) = callee else {
            bail!(
                "{at}: `{}` summarises `{target}`, which {} neither declares nor defines",
                f.name,
                program.files.first().map_or("the unit", String::as_str)
            );
        };
        let c = program.func(callee);
        let same_type = match (&f.cty, &c.cty) {
            (Some(a), Some(b)) => a == b,
            _ => f.ret == c.ret && f.params.iter().map(|p| p.ty).eq(c.params.iter().map(|p| p.ty)),
        };
        if !same_type {
            let spell = |g: &pathwise_ir::FuncData| {
                g.cty.as_ref().map_or_else(|| "an unknown type".into(), |t| t.declare(&program.structs, &g.name))
            };
            bail!(
                "{at}: wrong signature: `{}` must have the type of `{target}` ({}: `{}`), not `{}`",
                f.name,
                program.describe_loc(c.loc),
                spell(c),
                spell(f)
            );
        }
        let id = FuncId(i as u32);
        let cases: Vec<(Loc, String)> =
            case_sites(program, id).into_iter().map(|l| (l, case_text(program, l))).collect();
        if cases.is_empty() {
            bail!("{at}: `{}` has no case: open each with `if (pathwise_case(condition))`", f.name);
        }
        summaries.push(Summary { callee: target.to_string(), summary: id, cases });
    }
    for (file, index) in files.iter().zip(&indices) {
        let defines_one = summaries.iter().any(|s| Some(program.func(s.summary).loc.file) == *index);
        if !defines_one {
            bail!(
                "{}: defines no hand-written summary (a function `{PREFIX}F` for a function F of {})",
                file.display(),
                program.files.first().map_or("the unit", String::as_str)
            );
        }
    }
    Ok(summaries)
}

/// The source text of the case at `loc`: `pathwise_case(...)` with its
/// balanced parentheses, read from the summary file (its location when the
/// file cannot be read again).
fn case_text(program: &Program, loc: Loc) -> String {
    let fallback = || format!("case at {}", program.describe_loc(loc));
    let Some(file) = program.files.get(loc.file as usize) else { return fallback() };
    let Ok(text) = std::fs::read_to_string(file) else { return fallback() };
    let line_start: usize = text.split_inclusive('\n').take(loc.line.saturating_sub(1) as usize).map(str::len).sum();
    let rest = text.get(line_start + loc.col.saturating_sub(1) as usize..).unwrap_or("");
    if !rest.starts_with(pathwise_engine::handwritten::CASE) {
        return fallback();
    }
    let mut depth = 0;
    for (i, ch) in rest.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' if depth == 1 => return rest[..=i].split_whitespace().collect::<Vec<_>>().join(" "),
            ')' => depth -= 1,
            _ => {}
        }
    }
    fallback()
}

/// The case of each test of a summary's suite: the first case whose branch
/// its path took (`None`: the path satisfied no case).
fn test_cases(suite: &TestSuite, program: &Program, s: &Summary) -> Vec<Option<usize>> {
    let name = &program.func(s.summary).name;
    suite
        .tests
        .iter()
        .map(|t| {
            t.path
                .iter()
                .filter(|p| *p.func == **name && p.taken)
                .find_map(|p| s.cases.iter().position(|(l, _)| *l == p.loc))
        })
        .collect()
}

/// The name of the precondition of `F`'s conformance search.
fn precondition_name(callee: &str) -> String {
    format!("pathwise_conformance_{callee}")
}

/// The C text of the precondition of the conformance search of each
/// summary whose function has pointer parameters: every one points to an
/// object (`pathwise_assume(p != 0)`). A conformance test must call the
/// real `F` with the objects its pointers reach, so that what `F` writes
/// there (or does not) is checked against the case's effect and frame; a
/// null pointer the summary's path never dereferences would instead crash
/// the real `F` where it writes. The objects' sizes are the ones the
/// case's path allows: `pathwise_array_len(p, n)` in the summary, else as
/// many elements as it reads.
fn preconditions(program: &Program, summaries: &[Summary]) -> String {
    let mut text = String::from(
        "/* Generated by pathwise gen --summary: preconditions of the summaries' conformance searches. */\n\
         void pathwise_assume(int cond);\nvoid pathwise_noalias(const void *p, const void *q);\n",
    );
    for s in summaries {
        let f = program.func(s.summary);
        // Pointers to structures and pointers: an input array of scalars
        // (`Shape::Pointer`) is always built.
        let pointer = |p: &Param| p.src.shape == Shape::Heap;
        if !f.params.iter().any(pointer) {
            continue;
        }
        // The summary's own names: the search matches a precondition's
        // parameters to the function's by name and by how they are used.
        let names: Vec<String> = f
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| if p.src.name.is_empty() { format!("pathwise_p{i}") } else { p.src.name.clone() })
            .collect();
        let params: Vec<String> = f
            .params
            .iter()
            .zip(&names)
            .map(|(p, n)| match (&p.src.cty, p.src.shape) {
                (Some(c), _) => c.declare(&program.structs, n),
                (None, Shape::Pointer) => format!("{} *{n}", p.src.c_scalar),
                (None, _) => format!("{} {n}", p.src.c_scalar),
            })
            .collect();
        let _ = writeln!(text, "\nint {}({})\n{{", precondition_name(&s.callee), params.join(", "));
        for (p, n) in f.params.iter().zip(&names) {
            if pointer(p) {
                let _ = writeln!(text, "    pathwise_assume({n} != 0);");
            }
        }
        let heap: Vec<&String> = f.params.iter().zip(&names).filter(|(p, _)| pointer(p)).map(|(_, n)| n).collect();
        for (i, a) in heap.iter().enumerate() {
            for b in &heap[i + 1..] {
                let _ = writeln!(text, "    pathwise_noalias({a}, {b});");
            }
        }
        text.push_str("    return 1;\n}\n");
    }
    text
}

/// The program of the conformance searches: the unit, its summary files
/// and the conformance preconditions (see [`preconditions`]), compiled
/// from a temporary file.
fn conformance_program(args: &GenArgs, fe: &Frontend, summaries: &[Summary]) -> Result<Frontend> {
    let dir = tempfile::tempdir()?;
    let pre = dir.path().join("pathwise_conformance.c");
    std::fs::write(&pre, preconditions(&fe.program, summaries))?;
    let files: Vec<PathBuf> = args.summaries.iter().cloned().chain([pre]).collect();
    let model = pathwise_cfront::DataModel::Lp64;
    crate::frontend::compile_appended(&args.file, &files, &args.include_dirs, &args.defines, model)
        .map_err(|e| anyhow::anyhow!("conformance preconditions: {e}"))
}

/// Generate, write and describe the conformance tests of every summary.
/// Returns the lines for `gen`'s report.
pub fn conformance(args: &GenArgs, fe: &Frontend, summaries: &[Summary], config: &Config) -> Result<String> {
    let mut out = String::new();
    let conf = conformance_program(args, fe, summaries)?;
    let program = &conf.program;
    for s in summaries {
        let name = fe.program.func(s.summary).name.clone();
        // The same summary in the conformance program (its cases are at
        // the same places: the preconditions' file comes last).
        let Some(id) = program.func_by_name(&name) else { bail!("conformance tests of `{name}`: not compiled") };
        let s = &Summary { callee: s.callee.clone(), summary: id, cases: s.cases.clone() };
        let pre = precondition_name(&s.callee);
        let precondition = program.func_by_name(&pre).map(|_| pre);
        let cfg = Config { function: name.clone(), precondition, goals: Default::default(), ..config.clone() };
        let mut backend = Z3Backend::new(None);
        let mut observer = pathwise_engine::setup::NoObserver;
        let suite = pathwise_engine::search::generate(program, &cfg, &mut backend, &mut observer)
            .map_err(|e| anyhow::anyhow!("conformance tests of `{name}`: {e}"))?;
        // A search that is not complete may have lost paths through a case
        // (a run that diverged, a prefix left undecided): say so, since the
        // per-case counts below would otherwise read as all there is.
        let incomplete =
            (suite.stop != pathwise_engine::suite::StopReason::Complete).then(|| crate::gen::stop_text(&suite));
        let cases = test_cases(&suite, program, s);
        let mut suite = suite;
        let uncovered = cases.iter().filter(|c| c.is_none()).count();
        let mut labels = Vec::new();
        let mut kept = Vec::new();
        for (mut t, case) in std::mem::take(&mut suite.tests).into_iter().zip(&cases) {
            let Some(case) = case else { continue };
            t.id = kept.len() + 1;
            t.coverage.clear();
            labels.push(*case);
            kept.push(t);
        }
        suite.tests = kept;
        suite.stats.tests = suite.tests.len() as u64;
        suite.function = s.callee.clone();
        suite.coverage = Default::default();
        // The precondition is the search's: the tests build its objects.
        suite.precondition = None;
        let dir = args.out.join(format!("summary_{}", s.callee));
        let written = crate::gen::write_outputs_with(
            &suite,
            &args.file,
            args.build_flags(),
            &dir,
            pathwise_emit::write_c_tests_framed,
        )?;
        let text = std::fs::read_to_string(&written.c_file)?;
        std::fs::write(&written.c_file, label_cases(&text, &labels, s, program))?;
        let per_case: Vec<String> = s
            .cases
            .iter()
            .enumerate()
            .map(|(i, (l, c))| {
                let n = labels.iter().filter(|&&k| k == i).count();
                format!("{c} at {}: {n}", program.describe_loc(*l))
            })
            .collect();
        let _ = writeln!(
            out,
            "  {:<20} {} ({}): {} conformance test(s) in {}; per case: {}",
            "summary:",
            s.callee,
            program.describe_loc(program.func(s.summary).loc),
            suite.tests.len(),
            written.c_file.display(),
            per_case.join("; ")
        );
        if let Some(stop) = incomplete {
            let _ = writeln!(out, "  warning: the conformance search of {}'s summary stopped: {stop}", s.callee);
        }
        let no_test: Vec<&str> =
            s.cases.iter().enumerate().filter(|(i, _)| !labels.contains(i)).map(|(_, (_, c))| c.as_str()).collect();
        if !no_test.is_empty() {
            let _ =
                writeln!(out, "  warning: no input satisfies {} of the summary of {}", no_test.join(", "), s.callee);
        }
        if uncovered > 0 {
            let _ = writeln!(
                out,
                "  note: {uncovered} path(s) of the summary of {} return without a case (inputs it leaves undescribed)",
                s.callee
            );
        }
    }
    Ok(out)
}

/// The conformance file with each test's case named in the runner's output
/// when the test fails (the emitted `main` counts each test's result as
/// `pathwise_count[pathwise_run(ID, ...)]++`).
fn label_cases(text: &str, labels: &[usize], s: &Summary, program: &Program) -> String {
    let mut out = String::with_capacity(text.len() + labels.len() * 200);
    for line in text.split_inclusive('\n') {
        let body = line.trim_start();
        let id = body
            .strip_prefix("pathwise_count[pathwise_run(")
            .and_then(|r| r.split(',').next())
            .and_then(|n| n.trim().parse::<usize>().ok());
        match id.and_then(|id| labels.get(id.wrapping_sub(1)).map(|&c| (id, c))) {
            Some((id, case)) => {
                let call = body.trim_end().strip_prefix("pathwise_count[").and_then(|r| r.strip_suffix("]++;"));
                let Some(call) = call else {
                    out.push_str(line);
                    continue;
                };
                let (loc, cond) = &s.cases[case];
                let what = format!(
                    "test {id}: the real {} violates case {cond} of its summary ({})",
                    s.callee,
                    program.describe_loc(*loc)
                );
                let what = pathwise_emit::literal::c_string_literal(what.as_bytes());
                let _ = writeln!(
                    out,
                    "    {{\n        int pathwise_r = {call};\n        if (pathwise_r != 0)\n            pathwise_printf(\"%s\\n\", {what});\n        pathwise_count[pathwise_r]++;\n    }}"
                );
            }
            None => out.push_str(line),
        }
    }
    out
}

/// `gen`'s report lines about the search's calls of summarised functions
/// whose arguments satisfied no case.
pub fn no_case_lines(suite: &TestSuite) -> String {
    let r = &suite.stats.handwritten;
    let mut out = String::new();
    for (loc, callee) in &r.no_case_sites {
        let file = suite.files.get(loc.file as usize).map_or("?", String::as_str);
        let _ = writeln!(
            out,
            "  warning: {file}:{}:{}: the arguments of a call of {callee} satisfy no case of its summary (run discarded)",
            loc.line, loc.col
        );
    }
    out
}

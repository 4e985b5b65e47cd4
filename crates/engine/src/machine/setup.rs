//! Checks before a run (the function and precondition exist and have
//! supported signatures, every body-less function called has a model or is
//! declared external by the user) and assembly
//! of the final [`TestSuite`].

use pathwise_ir::{FuncId, InstKind, Loc, Program, Shape, Type};
use rustc_hash::FxHashSet;

use crate::analysis::ProgramInfo;
use crate::config::Config;
use crate::suite::{
    Coverage, ExternalFunction, FunctionCoverage, GlobalInfo, Stats, StopReason, TestCase, TestCoverage, TestSuite,
};

/// Errors that prevent a run from starting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineError {
    pub message: String,
    /// The body-less function without a model whose call stopped the run
    /// from starting, if that is the error (a front end can suggest
    /// declaring it external).
    pub unmodelled_call: Option<String>,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EngineError {}

fn err<T>(message: String) -> Result<T, EngineError> {
    Err(EngineError { message, unmodelled_call: None })
}

/// Receives progress during a run and may ask it to stop early.
pub trait Observer {
    /// Called after each new test is validated, with what it covers; a test
    /// that takes the place of a kept one (one error test per site, see
    /// `Config::one_error_test_per_site`) comes with that test's id. An
    /// observer that keeps them can write a suite with [`salvage`] when the
    /// search cannot be waited for.
    fn on_test(&mut self, _test: &TestCase, _coverage: &RunCoverage, _stats: &Stats) {}
    /// Polled between runs: `true` stops the search (result: `Interrupted`).
    fn should_stop(&mut self) -> bool {
        false
    }
    /// Called after each run the precondition accepted (`pathwise paths
    /// --feasibility` rebuilds the tree of explored prefixes from them).
    fn on_run(&mut self, _run: &crate::run::RunRecord) {}
    /// Called when the main prefix `run.main_entries[..j]` with entry `j`
    /// negated is proved infeasible (under the precondition, if any).
    fn on_refuted(&mut self, _run: &crate::run::RunRecord, _j: usize) {}
}

/// An observer that does nothing.
pub struct NoObserver;

impl Observer for NoObserver {}

/// Functions without a body that the engine models.
/// (`__VERIFIER_nondet_*` functions are recognised by name pattern.)
pub const BUILTINS: &[&str] = &[
    "pathwise_assume",
    "pathwise_array_len",
    "pathwise_noalias",
    "pathwise_acyclic",
    "pathwise_nonsharing",
    "pathwise_same_object",
    crate::handwritten::CASE,
    "abort",
    "exit",
    "_exit",
    "__assert_fail",
    "__VERIFIER_assume",
    "reach_error",
    "__VERIFIER_error",
];

/// Whether the engine models calls of the body-less function `name` itself
/// (built-ins, library functions, `__VERIFIER_nondet_*`).
pub fn has_model(name: &str) -> bool {
    BUILTINS.contains(&name) || crate::libc::is_modelled(name) || crate::exec::nondet_type(name, 64).is_some()
}

/// Validate the configuration against the program; returns (main, pre).
pub fn check(program: &Program, config: &Config) -> Result<(FuncId, Option<FuncId>), EngineError> {
    if config.k == 0 {
        return err("k must be at least 1".into());
    }
    let main = find_defined(program, &config.function, "function")?;
    let f = program.func(main);
    // A whole program's inputs are its nondet calls, not main's parameters.
    let params = if config.program_mode.is_some() { &[][..] } else { &f.params[..] };
    if params.last().is_some_and(|p| p.src.name == pathwise_ir::VA_AREA) {
        return err(format!(
            "{}: `{}` is variadic: its `...` arguments are no inputs; test it through a function that calls it",
            program.describe_loc(f.loc),
            f.name
        ));
    }
    for p in params {
        let ok = match p.src.shape {
            Shape::Scalar => p.ty.is_int() || p.ty.is_float(),
            // An input array holds one value per element, and a `long
            // double` object is larger than its value (`Type::F80`).
            Shape::Pointer => p.src.scalar.ty.is_int() || (p.src.scalar.ty.is_float() && p.src.scalar.ty != Type::F80),
            Shape::Heap | Shape::ByValue => {
                p.src.cty.as_ref().and_then(|c| c.pointee()).is_some_and(|t| *t != pathwise_ir::CType::Void)
            }
            Shape::Function => {
                matches!(p.src.cty.as_ref().and_then(|c| c.pointee()), Some(pathwise_ir::CType::Func { .. }))
            }
            Shape::Stream => p.src.scalar.ty == Type::I8,
            Shape::Array(_) => false,
        };
        if !ok {
            return err(format!(
                "{}: parameter `{}` of `{}` has a type that is not supported as an input yet (integers, floating values and pointers to them are, but not `long double *`)",
                program.describe_loc(f.loc),
                p.src.name,
                f.name
            ));
        }
    }
    let pre = match &config.precondition {
        None => None,
        Some(name) => {
            let id = find_defined(program, name, "precondition")?;
            let pf = program.func(id);
            let same = pf.params.len() == f.params.len()
                && pf.params.iter().zip(&f.params).all(|(a, b)| a.ty == b.ty && a.src.shape == b.src.shape);
            if !same || pf.ret.is_none_or(|t| t == Type::Ptr) {
                return err(format!(
                    "{}: precondition `{name}` must take the same parameters as `{}` and return an integer",
                    program.describe_loc(pf.loc),
                    f.name
                ));
            }
            Some(id)
        }
    };
    check_external_names(program, config)?;
    check_externals(program, &[Some(main), pre], config)?;
    Ok((main, pre))
}

fn find_defined(program: &Program, name: &str, what: &str) -> Result<FuncId, EngineError> {
    match program.func_by_name(name) {
        Some(id) if !program.func(id).is_declaration() => Ok(id),
        Some(id) => err(format!(
            "{}: {what} `{name}` is declared but has no body in this file",
            program.describe_loc(program.func(id).loc)
        )),
        None => {
            let defined: Vec<&str> =
                program.funcs.iter().filter(|f| !f.is_declaration()).map(|f| f.name.as_str()).collect();
            err(format!("{what} `{name}` not found; the file defines: {}", defined.join(", ")))
        }
    }
}

/// Every function the user named external must be declared without a body
/// and without a model of the engine's own.
fn check_external_names(program: &Program, config: &Config) -> Result<(), EngineError> {
    for name in &config.externals.names {
        if is_non_local_jump(name) {
            return err(format!("--external {name}: {NON_LOCAL_JUMPS}"));
        }
        let Some(id) = program.func_by_name(name) else {
            return err(format!("--external {name}: the file declares no function `{name}` that is called"));
        };
        let f = program.func(id);
        if !f.is_declaration() || config.externals.excluded.contains(name) {
            return err(format!(
                "{}: --external {name}: `{name}` has a body in this file; only functions declared without one can be external",
                program.describe_loc(f.loc)
            ));
        }
        if has_model(name) {
            return err(format!("--external {name}: `{name}` has a built-in model and cannot be external"));
        }
        check_external_signature(program, id, f.loc, None)?;
    }
    Ok(())
}

/// The target type of the pointer an external function returns (`None`
/// when it returns no pointer, or a `void *`).
pub(crate) fn external_pointee(f: &pathwise_ir::FuncData) -> Option<pathwise_ir::CType> {
    use pathwise_ir::CType;
    let src = f.ret_src.as_ref().filter(|_| f.ret == Some(Type::Ptr))?;
    let pointee = match &src.cty {
        Some(CType::Ptr(p)) => (**p).clone(),
        _ => return None,
    };
    (pointee != CType::Void).then_some(pointee)
}

/// An external function returns an integer, a pointer to a known type (a
/// fresh input pointer) or nothing, and is called with the arguments its
/// prototype declares: the emitted stub needs both.
fn check_external_signature(program: &Program, id: FuncId, loc: Loc, nargs: Option<usize>) -> Result<(), EngineError> {
    let f = program.func(id);
    if f.ret == Some(Type::Ptr) && external_pointee(f).is_none() {
        return err(format!(
            "{}: external function `{}` returns a pointer to no known type (`void *`?); an external function may return an integer, a pointer to a known type, or nothing",
            program.describe_loc(loc),
            f.name
        ));
    }
    let by_value = |s: &pathwise_ir::SrcVar| s.shape == pathwise_ir::Shape::ByValue;
    if f.params.iter().any(|p| by_value(&p.src)) || f.ret_src.as_ref().is_some_and(by_value) {
        return err(format!(
            "{}: external function `{}` passes or returns a structure by value; an external function may take and return only integers and pointers",
            program.describe_loc(loc),
            f.name
        ));
    }
    if nargs.is_some_and(|n| n != f.params.len()) {
        return err(format!(
            "{}: external function `{}` is called with {} argument(s) but declared with {}; declare it with a prototype",
            program.describe_loc(loc),
            f.name,
            nargs.unwrap_or(0),
            f.params.len()
        ));
    }
    Ok(())
}

/// The C library's non-local jumps (glibc's `setjmp` macro calls
/// `_setjmp`, `sigsetjmp` calls `__sigsetjmp`, and `_FORTIFY_SOURCE` makes
/// `longjmp` `__longjmp_chk`).
const NON_LOCAL_JUMP_NAMES: &[&str] = &[
    "setjmp",
    "_setjmp",
    "__setjmp",
    "sigsetjmp",
    "__sigsetjmp",
    "longjmp",
    "_longjmp",
    "siglongjmp",
    "__longjmp_chk",
];

/// Why a function that calls them cannot be tested.
pub const NON_LOCAL_JUMPS: &str = "setjmp/longjmp are not supported: a jump back to a `setjmp` returns twice, which \
     no run follows (an external stub would not jump, and its tests would report false errors)";

/// Whether `name` is one of the C library's non-local jumps (refused by
/// both methods, whatever `--external` says).
pub fn is_non_local_jump(name: &str) -> bool {
    NON_LOCAL_JUMP_NAMES.contains(&name)
}

/// Every reachable call (from the function under test and the
/// precondition) to a function without a body must have a model or be
/// external. The error lists every function missing, each with the
/// location of its first call (in the order the calls are found), and says
/// how to proceed; `unmodelled_call` names the first.
fn check_externals(program: &Program, roots: &[Option<FuncId>], config: &Config) -> Result<(), EngineError> {
    let concretise = config.program_mode.as_ref().is_some_and(|p| p.concretise_externals);
    let mut seen = FxHashSet::default();
    let mut missing: Vec<(&str, Loc)> = Vec::new();
    // A call of a function with a hand-written summary runs the summary.
    let summaries = crate::handwritten::Table::of(program);
    let mut stack: Vec<FuncId> = roots.iter().rev().flatten().copied().collect();
    while let Some(fid) = stack.pop() {
        if !seen.insert(fid) {
            continue;
        }
        let mut callees = Vec::new();
        for b in &program.func(fid).blocks {
            for inst in &b.insts {
                if let InstKind::Call { func, args } = &inst.kind {
                    if let Some(summary) = summaries.summary_of(*func) {
                        callees.push(summary);
                        continue;
                    }
                    let callee = program.func(*func);
                    let name = callee.name.as_str();
                    // Before `--external` (and `--external-all`) is looked at:
                    // a stub for one gives false errors.
                    if callee.is_declaration() && is_non_local_jump(name) {
                        return err(format!("{}: call to `{name}`: {NON_LOCAL_JUMPS}", program.describe_loc(inst.loc)));
                    }
                    if callee.is_declaration() && !has_model(name) {
                        if config.externals.contains(name) {
                            check_external_signature(program, *func, inst.loc, Some(args.len()))?;
                        } else if !concretise && missing.iter().all(|(n, _)| *n != name) {
                            missing.push((name, inst.loc));
                        }
                    }
                    callees.push(*func);
                }
            }
        }
        // Callees in call order (the stack pops the last pushed first).
        stack.extend(callees.into_iter().rev());
    }
    let Some(&(first, _)) = missing.first() else { return Ok(()) };
    let mut message = String::new();
    for (name, loc) in &missing {
        message +=
            &format!("{}: call to `{name}`, which has no body and no built-in model", program.describe_loc(*loc));
        if config.externals.excluded.contains(*name) {
            message += " (its body could not be translated)";
        }
        message.push('\n');
    }
    // A stub writes nothing: never suggested for a function that may write
    // through a pointer parameter (`mbtowc(wchar_t *pwc, ...)`).
    let mut external: Vec<String> = Vec::new();
    for (name, _) in missing.iter().filter(|(n, _)| !config.externals.excluded.contains(*n)) {
        match program.func_by_name(name).and_then(|f| writable_pointer_param(program.func(f))) {
            Some(param) => {
                message += &format!(
                    "`{name}` may write through its parameter `{param}`, which an external stub would not do: \
                     define it in the file (or in a file given with --summary)\n"
                )
            }
            None => external.push(format!("--external {name}")),
        }
    }
    message += &format!("{} function(s) without a body or a model can be called", missing.len());
    if !external.is_empty() && config.program_mode.is_some() {
        // `testcomp`'s option takes no names.
        message += "; for functions that change no memory the code under test can see, \
                    `--external concretise` makes each call return the next input; otherwise define them in the file";
    } else if !external.is_empty() {
        message += &format!(
            "; for one that changes no memory the code under test can see, `{}` (or `--external-all` for all) \
             makes each call return a fresh input; otherwise define it in the file",
            external.join(" ")
        );
    }
    Err(EngineError { message, unmodelled_call: Some(first.to_string()) })
}

/// The C spelling of the first parameter of `f` that points to something
/// not `const` (its function type's parameter list, as the front end
/// spells it: `const char *, wchar_t *, unsigned long`).
fn writable_pointer_param(f: &pathwise_ir::FuncData) -> Option<String> {
    let Some(pathwise_ir::CType::Func { params, .. }) = &f.cty else { return None };
    params
        .split(',')
        .map(str::trim)
        .find(|p| {
            p.contains('*')
                && !p.split('*').next().is_some_and(|pointee| pointee.split_whitespace().any(|w| w == "const"))
        })
        .map(str::to_string)
}

/// Functions without a body the function under test or its precondition
/// can reach through calls (sorted by id); the others are only called by
/// code the tests never run.
fn reached_declarations(program: &Program, info: &ProgramInfo, config: &Config, main: FuncId) -> Vec<FuncId> {
    let pre = config.precondition.as_deref().and_then(|p| program.func_by_name(p));
    let mut reached: Vec<FuncId> = std::iter::once(main)
        .chain(pre)
        .flat_map(|f| info.callgraph.reachable_from(f))
        .filter(|&f| program.func(f).is_declaration())
        .collect();
    reached.sort_by_key(|f| f.0);
    reached.dedup();
    reached
}

/// The external functions the tests must define: the body-less functions
/// declared external that the function under test or its precondition can
/// call. Those only other code of the unit calls get no stub (see
/// [`unreached_functions`]): a stub is bound to the function's symbol, so
/// it would also receive the calls of the C library and of gcov's runtime
/// (`fclose` at exit) when the function is one of theirs.
fn external_functions(program: &Program, info: &ProgramInfo, config: &Config, main: FuncId) -> Vec<ExternalFunction> {
    // The callback stubs of the function under test's parameters.
    let stubs = format!("pathwise_stub_{}_", program.func(main).name);
    let stub_ids = (0..program.funcs.len() as u32).map(FuncId).filter(|&id| {
        let f = program.func(id);
        // Members' stubs too: any input structure may hold one.
        f.is_declaration() && (f.name.starts_with(&stubs) || f.name.starts_with(crate::fnptr::FIELD_STUB_PREFIX))
    });
    reached_declarations(program, info, config, main)
        .into_iter()
        .chain(stub_ids)
        .map(|id| program.func(id))
        .filter(|f| !has_model(&f.name) && (config.externals.contains(&f.name) || crate::fnptr::is_stub(&f.name)))
        .map(|f| ExternalFunction {
            name: f.name.clone(),
            params: f.params.iter().map(|p| p.src.clone()).collect(),
            ret: f.ret_src.clone(),
            cty: f.cty.clone(),
        })
        .collect()
}

/// The body-less functions without a model that only code the tests never
/// run calls: the test file includes that code, so it declares them weak
/// (linking then needs no definition; the C library's still binds).
fn unreached_functions(program: &Program, info: &ProgramInfo, config: &Config, main: FuncId) -> Vec<String> {
    let reached = reached_declarations(program, info, config, main);
    program
        .funcs
        .iter()
        .enumerate()
        .filter(|(i, f)| f.is_declaration() && !has_model(&f.name) && !reached.contains(&FuncId(*i as u32)))
        // A static function is either defined in the unit (its body could
        // not be lowered) or an error the compiler reports; gcc rejects a
        // weak static ("must be public").
        .filter(|(_, f)| !f.is_static)
        .filter(|(_, f)| !crate::fnptr::is_stub(&f.name))
        .map(|(_, f)| f.name.clone())
        .collect()
}

/// The lines and branch sides one run covered (a test's replay).
pub type RunCoverage = (FxHashSet<(FuncId, u32)>, FxHashSet<(FuncId, pathwise_ir::Block, bool)>);

/// The initial values of a global of `long double`s (byte storage: its
/// initial bytes, 10 of every element's), as suites hold them.
fn long_double_init(g: &pathwise_ir::GlobalData, src: &pathwise_ir::SrcVar) -> Vec<i128> {
    let n = match src.shape {
        pathwise_ir::Shape::Array(n) => n.max(1),
        _ => 1,
    };
    let stride = g.count / n;
    let byte = |i: u64| g.init.get(i as usize).map_or(0, |&b| b as u8);
    (0..n)
        .map(|e| {
            let bytes: [u8; 10] = std::array::from_fn(|i| byte(e * stride + i as u64));
            pathwise_ir::x87::X87::from_le_bytes(bytes).0 as i128
        })
        .collect()
}

/// Build the suite from the search results; `per_test` holds what each
/// test covers, in test order (the lines and sides before it are their
/// union).
#[allow(clippy::too_many_arguments)]
pub fn assemble(
    program: &Program,
    info: &ProgramInfo,
    config: &Config,
    main: FuncId,
    mut tests: Vec<TestCase>,
    stats: Stats,
    stop: StopReason,
    (lines, sides): &RunCoverage,
    per_test: &[RunCoverage],
) -> TestSuite {
    let f = program.func(main);
    let reached: Vec<FuncId> =
        // Library code lowered with the unit is not under test: natively
        // the real library runs, and gcov has nothing to compare. Nor is
        // code behind a hand-written summary: the summary ran instead.
        crate::handwritten::reachable(program, &info.callgraph, main)
            .into_iter()
            .filter(|&id| !program.func(id).is_declaration() && !program.is_library(id))
            .collect();
    for (test, (lines, sides)) in tests.iter_mut().zip(per_test) {
        test.coverage = reached.iter().filter_map(|&id| test_coverage(program, id, lines, sides)).collect();
    }
    let globals = program
        .globals
        .iter()
        .filter(|g| !g.is_const)
        .filter_map(|g| {
            let src = g.src.clone()?;
            let init = if src.scalar.ty == Type::F80 {
                long_double_init(g, &src)
            } else {
                (0..g.count).map(|i| src.scalar.to_i128(g.init.get(i as usize).copied().unwrap_or(0))).collect()
            };
            Some(GlobalInfo { src, init })
        })
        .collect();
    let functions = reached.iter().map(|&id| function_coverage(program, id, lines, sides)).collect();
    let contracts = crate::contracts::describe(program, main, config, &stats.nonnull_assumed);
    TestSuite {
        function: f.name.clone(),
        precondition: config.precondition.clone(),
        postcondition: None,
        k: config.k,
        criterion: config.criterion,
        params: f.params.iter().map(|p| p.src.clone()).collect(),
        ret: f.ret_src.clone(),
        enums: Vec::new(),
        globals,
        files: program.files.clone(),
        tests,
        stats,
        coverage: Coverage { functions },
        stop,
        check_overflow: config.check_overflow,
        structs: program.structs.clone(),
        externals: external_functions(program, info, config, main),
        unreached_functions: unreached_functions(program, info, config, main),
        contracts,
        source: None,
        feature_macros: Vec::new(),
        goals: Default::default(),
        bound: Default::default(),
    }
}

/// The suite of the tests an [`Observer`] saw (`tests` in id order, each
/// with what it covers), for a caller that stops waiting for a search that
/// does not answer its deadline (a solver check that ignores the
/// interrupt): the same suite `generate` would have returned at that
/// point, with `stop` as the caller says, except for statistics the search
/// had not reported yet.
pub fn salvage(
    program: &Program,
    config: &Config,
    found: Vec<(TestCase, RunCoverage)>,
    stats: Stats,
    stop: StopReason,
) -> Result<TestSuite, EngineError> {
    let (main, _) = check(program, config)?;
    let info = ProgramInfo::compute(program);
    let (tests, per_test): (Vec<TestCase>, Vec<RunCoverage>) = found.into_iter().unzip();
    let mut covered: RunCoverage = Default::default();
    for (lines, sides) in &per_test {
        covered.0.extend(lines.iter().copied());
        covered.1.extend(sides.iter().copied());
    }
    let mut stats = stats;
    stats.tests = tests.len() as u64;
    Ok(assemble(program, &info, config, main, tests, stats, stop, &covered, &per_test))
}

/// The source lines holding code of function `id` (sorted).
fn code_lines(program: &Program, id: FuncId) -> Vec<u32> {
    let f = program.func(id);
    let mut all: Vec<u32> = f
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter().map(|i| i.loc).chain(std::iter::once(b.term_loc)))
        .filter(|l| !l.is_none() && l.file == f.loc.file)
        .map(|l| l.line)
        .collect();
    all.sort_unstable();
    all.dedup();
    all
}

fn function_coverage(
    program: &Program,
    id: FuncId,
    lines: &FxHashSet<(FuncId, u32)>,
    sides: &FxHashSet<(FuncId, pathwise_ir::Block, bool)>,
) -> FunctionCoverage {
    let f = program.func(id);
    let all = code_lines(program, id);
    let covered: Vec<u32> = all.iter().copied().filter(|l| lines.contains(&(id, *l))).collect();
    let by_line = branch_coverage(f, |b, side| sides.contains(&(id, b, side)));
    let branches = by_line.values().map(|v| v.0).sum();
    let branches_covered = by_line.values().map(|v| v.1.len() as u64).sum();
    let branch_lines = by_line.into_iter().map(|(line, (n, c))| (line, n, c.len() as u64)).collect();
    FunctionCoverage {
        name: f.name.clone(),
        file: f.loc.file,
        lines: all,
        lines_covered: covered,
        branches,
        branches_covered,
        branch_lines,
    }
}

/// What one test covers in function `id` (`None` if it never enters it),
/// with the same branch numbering as [`function_coverage`].
fn test_coverage(
    program: &Program,
    id: FuncId,
    lines: &FxHashSet<(FuncId, u32)>,
    sides: &FxHashSet<(FuncId, pathwise_ir::Block, bool)>,
) -> Option<TestCoverage> {
    let f = program.func(id);
    let covered: Vec<u32> = code_lines(program, id).into_iter().filter(|l| lines.contains(&(id, *l))).collect();
    if covered.is_empty() {
        return None;
    }
    let by_line = branch_coverage(f, |b, side| sides.contains(&(id, b, side)));
    let branches = by_line.into_iter().flat_map(|(line, (_, taken))| taken.into_iter().map(move |i| (line, i)));
    Some(TestCoverage { function: f.name.clone(), lines: covered, branches: branches.collect() })
}

/// Branches as gcov counts them, per source line: two per decision, except
/// that the decision chain of a `switch` counts one branch per distinct
/// target (labels that share code, like `case 1: case 2:`, are one target),
/// on the line where the switched value is computed. Per line: the number
/// of branches and the indices (among them) of those `taken`; the indices
/// follow the blocks' order, so they name the same branch for every test.
fn branch_coverage(
    f: &pathwise_ir::FuncData,
    taken: impl Fn(pathwise_ir::Block, bool) -> bool,
) -> std::collections::BTreeMap<u32, (u64, std::collections::BTreeSet<u32>)> {
    use pathwise_ir::{Block, Terminator};
    let mut by_line: std::collections::BTreeMap<u32, (u64, std::collections::BTreeSet<u32>)> = Default::default();
    // `sides`: whether each of the `n` new branches of the line was taken.
    let mut add = |line: u32, sides: &[bool]| {
        let e = by_line.entry(line).or_default();
        for (i, &t) in sides.iter().enumerate() {
            if t {
                e.1.insert(e.0 as u32 + i as u32);
            }
        }
        e.0 += sides.len() as u64;
    };
    let in_switch: FxHashSet<Block> = f.switches.iter().flatten().copied().collect();
    for (i, b) in f.blocks.iter().enumerate() {
        let block = Block(i as u32);
        if matches!(b.term, Terminator::Branch { .. }) && !in_switch.contains(&block) {
            add(b.term_loc.line, &[taken(block, true), taken(block, false)]);
        }
    }
    // Follow empty blocks that only jump on: consecutive labels.
    let resolve = |mut b: Block| {
        for _ in 0..f.blocks.len() {
            match &f.block(b) {
                d if d.insts.is_empty() => match d.term {
                    Terminator::Jump(next) => b = next,
                    _ => break,
                },
                _ => break,
            }
        }
        b
    };
    for chain in &f.switches {
        let mut targets = std::collections::BTreeMap::new();
        for &c in chain {
            if let Terminator::Branch { then_block, else_block, .. } = f.block(c).term {
                let then_t = resolve(then_block);
                *targets.entry(then_t).or_insert(false) |= taken(c, true);
                // Only the chain's last decision leaves it on its else side.
                if !chain.contains(&else_block) {
                    let else_t = resolve(else_block);
                    *targets.entry(else_t).or_insert(false) |= taken(c, false);
                }
            }
        }
        // The switched value is computed before the first comparison.
        let first = f.block(chain[0]);
        let line = first.insts.iter().map(|i| i.loc).find(|l| !l.is_none()).unwrap_or(first.term_loc).line;
        add(line, &targets.values().copied().collect::<Vec<_>>());
    }
    by_line
}

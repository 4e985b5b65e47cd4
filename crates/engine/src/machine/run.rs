//! One concolic run: the precondition (if any) and then the function under
//! test, each on a fresh memory built from the same inputs.
//!
//! The precondition runs on its own copy of the inputs because the emitted
//! test never calls it: whatever it writes must not reach the function.

use pathwise_expr::{ArrayValue, ExprId, ExprPool, Model, Sort};
use pathwise_ir::{FuncId, Program, RelocTarget, Shape, Type};
use rustc_hash::FxHashSet;

use crate::contracts::ArrayContract;
use crate::exec::{Exec, Machine};
use crate::memory::{InputArray, Memory, ObjKind};
use crate::observed::Observed;
use crate::path::{End, Entry, Region};
use crate::value::{ObjId, Pointer, Value};

/// The symbolic input of one parameter.
#[derive(Clone, Debug)]
pub enum ParamInput {
    Scalar {
        var: ExprId,
        ty: Type,
    },
    Array {
        input: InputArray,
        elem: Type,
        /// What the function's contract says it is (see
        /// [`crate::contracts`]): with a length parameter, the length is
        /// tied, not grown.
        contract: Option<ArrayContract>,
        /// The 1-bit input saying the parameter is NULL (see
        /// [`crate::null_params`]); `None` when it never is.
        null: Option<ExprId>,
    },
    /// A pointer into the input heap, initialised lazily (see [`crate::heap`]);
    /// `by_value`: a structure passed by value, a fresh object aliasing
    /// nothing (the callee's copy).
    Heap {
        name: String,
        pointee: pathwise_ir::CType,
        by_value: bool,
    },
    /// A pointer to a function: null or one of `candidates` (see
    /// [`crate::fnptr`]), as the 32-bit `var` says.
    Function {
        var: ExprId,
        candidates: Vec<FuncId>,
    },
}

/// The inputs of the function under test, as solver variables.
pub struct InputSpec {
    /// One input per parameter of the function, then, when the program
    /// reads the standard input, the content of `stdin` (an input array
    /// of bytes, read as a `FILE *` parameter's: see `libc::streams`).
    pub params: Vec<ParamInput>,
    /// The index in `params` of `stdin`'s content, if any.
    pub stdin: Option<usize>,
    /// Constraints every input satisfies (`_Bool` inputs are 0 or 1).
    pub hard: Vec<ExprId>,
    /// `len <= --max-array-len` for each input array, in parameter order:
    /// kept apart so that the search can tell when the limit, not the
    /// program, cut a path (a query from a run that lengthened the array
    /// past it bounds it by that length instead).
    pub len_limits: Vec<ExprId>,
    /// Per parameter, the inputs saying which object it points into, for
    /// pointer parameters that may point into another input's object (see
    /// [`crate::joins`]).
    pub joins: Vec<Option<crate::joins::JoinVars>>,
    /// The length variables of the streams' contents (`FILE *`
    /// parameters): a file's size is where it ends, so no search makes
    /// it longer than a model gives (see `libc::streams`).
    pub stream_lens: Vec<ExprId>,
}

impl InputSpec {
    /// The solver variables of `func`'s floating parameters (scalars and
    /// input arrays of floating elements).
    pub fn float_vars(&self, program: &Program, func: FuncId) -> FxHashSet<ExprId> {
        let f = program.func(func);
        let mut out = FxHashSet::default();
        for (p, input) in f.params.iter().zip(&self.params) {
            match input {
                ParamInput::Scalar { var, ty } if ty.is_float() => {
                    out.insert(*var);
                }
                ParamInput::Array { input, elem, .. } if elem.is_float() && p.src.shape == Shape::Pointer => {
                    out.insert(input.array);
                }
                _ => {}
            }
        }
        out
    }

    /// Create the variables of `func`'s parameters. Unsupported parameter
    /// kinds are reported by the caller before this is called.
    pub fn new(pool: &mut ExprPool, program: &Program, func: FuncId, config: &crate::config::Config) -> InputSpec {
        let max_array_len = config.max_array_len;
        let contracts = crate::contracts::array_contracts(program, func, config);
        let f = program.func(func);
        let mut hard = Vec::new();
        let mut len_limits = Vec::new();
        let params: Vec<ParamInput> = f
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| match p.src.shape {
                Shape::Heap | Shape::ByValue => {
                    let pointee = p.src.cty.as_ref().and_then(|c| c.pointee()).cloned();
                    ParamInput::Heap {
                        name: p.src.name.clone(),
                        pointee: pointee.unwrap_or(pathwise_ir::CType::Void),
                        by_value: p.src.shape == Shape::ByValue,
                    }
                }
                Shape::Function => {
                    let var = pool.var(&format!("fn:{}", p.src.name), Sort::Bv(32));
                    let pointee = p.src.cty.as_ref().and_then(|c| c.pointee()).cloned();
                    let candidates = pointee
                        .map(|t| crate::fnptr::candidates(program, &t, &f.name, &p.src.name))
                        .unwrap_or_default();
                    hard.push(crate::fnptr::domain(pool, var, &candidates));
                    ParamInput::Function { var, candidates }
                }
                // A stream's content is an input array the stdio models
                // read (see `libc::streams`): never null, no contract.
                Shape::Stream => {
                    let (input, len_limit) = input_array(pool, &p.src.name, Type::I8, max_array_len);
                    len_limits.push(len_limit);
                    ParamInput::Array { input, elem: Type::I8, contract: None, null: None }
                }
                Shape::Pointer => {
                    let elem = p.src.scalar.ty;
                    let (input, len_limit) = input_array(pool, &p.src.name, elem, max_array_len);
                    len_limits.push(len_limit);
                    let contract = contracts.iter().find(|c| c.0 == i).map(|c| c.1);
                    let null = crate::null_params::arrays_nullable(config)
                        .then(|| crate::null_params::null_var(pool, &p.src.name));
                    ParamInput::Array { input, elem, contract, null }
                }
                _ => {
                    let var = pool.var(&p.src.name, Sort::Bv(p.ty.bits()));
                    if p.src.c_scalar == "_Bool" {
                        let one = pool.bv_const(p.ty.bits(), 1);
                        hard.push(pool.cmp(pathwise_expr::BvCmp::Ule, var, one));
                    }
                    ParamInput::Scalar { var, ty: p.ty }
                }
            })
            .collect();
        for &(array, c) in &contracts {
            let ArrayContract::Length(n) = c else { continue };
            if let (ParamInput::Array { input, .. }, ParamInput::Scalar { var, ty }) = (&params[array], &params[n]) {
                let signed = f.params[n].src.scalar.signed;
                hard.push(crate::contracts::length_tie(pool, input.len, *var, *ty, signed));
            }
        }
        let joins = crate::joins::join_vars(pool, program, func, &params);
        let mut params = params;
        let mut stream_lens: Vec<ExprId> = f
            .params
            .iter()
            .zip(&params)
            .filter_map(|(p, input)| match input {
                ParamInput::Array { input, .. } if p.src.shape == Shape::Stream => Some(input.len),
                _ => None,
            })
            .collect();
        let stdin = reads_stdin(program, func).then(|| {
            let (input, len_limit) = input_array(pool, "stdin", Type::I8, max_array_len);
            len_limits.push(len_limit);
            stream_lens.push(input.len);
            params.push(ParamInput::Array { input, elem: Type::I8, contract: None, null: None });
            params.len() - 1
        });
        InputSpec { params, stdin, hard, len_limits, joins, stream_lens }
    }

    /// The input array of `stdin`'s content, if the program reads it.
    pub fn stdin_input(&self) -> Option<InputArray> {
        match self.params.get(self.stdin?) {
            Some(ParamInput::Array { input, .. }) => Some(*input),
            _ => None,
        }
    }

    /// The length variables of the input arrays under `contract` (any
    /// length parameter when `None`).
    pub fn contract_lens(&self, string: bool) -> impl Iterator<Item = ExprId> + '_ {
        self.params.iter().filter_map(move |p| match p {
            ParamInput::Array { input, contract: Some(ArrayContract::String), .. } if string => Some(input.len),
            ParamInput::Array { input, contract: Some(ArrayContract::Length(_)), .. } if !string => Some(input.len),
            _ => None,
        })
    }

    /// No inputs (a whole program's are its `__VERIFIER_nondet_*()` calls).
    pub fn empty() -> InputSpec {
        InputSpec {
            params: Vec::new(),
            stdin: None,
            hard: Vec::new(),
            len_limits: Vec::new(),
            joins: Vec::new(),
            stream_lens: Vec::new(),
        }
    }

    /// The length `inputs` give an input array: at most `--max-array-len`
    /// (`max`) as the solver chooses it, or what a run lengthened it to
    /// (at most [`crate::step::MAX_GROWN_LEN`]).
    pub fn len_of(inputs: &Model, len_var: ExprId, max: u32) -> u64 {
        inputs.bv.get(&len_var).copied().unwrap_or(0).min(crate::step::MAX_GROWN_LEN.max(u64::from(max)))
    }
}

/// The variables of input array `name` of `elem`s, and the bound
/// `--max-array-len` (`max`) puts on its length.
fn input_array(pool: &mut ExprPool, name: &str, elem: Type, max: u32) -> (InputArray, ExprId) {
    let array = pool.var(name, Sort::Array { index: 64, elem: elem.bits() });
    let len = pool.var(&format!("{name}.len"), Sort::Bv(64));
    let max = pool.bv_const(64, u64::from(max));
    (InputArray { array, len }, pool.cmp(pathwise_expr::BvCmp::Ule, len, max))
}

/// Everything one run observed.
pub struct RunRecord {
    pub pre_entries: Vec<Entry>,
    pub main_entries: Vec<Entry>,
    /// How the precondition ended (`None` without a precondition).
    pub pre_end: Option<End>,
    /// How the function under test ended (`None` if the precondition rejected the inputs).
    pub main_end: Option<End>,
    /// What the function's execution observed (its path, coverage,
    /// nondet values and external calls), with the concretisations and
    /// tied lengths of both executions.
    pub seen: crate::observed::Observed,
    /// Block-k: the run's bound checks (see [`crate::blockk::Check`]).
    pub block_trace: Vec<crate::blockk::Check>,
    /// Final contents of each pointer parameter's array.
    pub array_outputs: Vec<Option<Vec<u128>>>,
    /// Final contents of each global.
    pub global_outputs: Vec<Vec<u128>>,
    /// Elements of each input array touched by either execution.
    pub touched_len: Vec<u64>,
    /// The function under test read `stdin` (see [`InputSpec::stdin`]).
    pub stdin_read: bool,
    /// Input and output heaps of the function's execution.
    pub heap: crate::heap_out::HeapRecord,
    /// The parameter a dereference assumed non-null, and where: the run
    /// passed it null and ended there (see [`crate::null_params`]).
    pub nonnull_assumed: Option<(usize, pathwise_ir::Loc)>,
    /// What the function returned when a leak made the run an error.
    pub leak_returned: Option<Option<u128>>,
    /// Where a comparison or subtraction of pointers into different input
    /// objects that no inputs can join ended the run (as rejected inputs).
    pub unrelated: Option<pathwise_ir::Loc>,
    /// The call (and its function) whose arguments satisfied no case of its
    /// hand-written summary, ending the run (see [`crate::handwritten`]).
    pub no_case: Option<(pathwise_ir::Loc, FuncId)>,
    /// The resources the function's execution used (see [`crate::cost`]).
    pub cost: crate::meter::Meter,
    /// `--compositional`: the calls explored in the run's context, with the
    /// index of each one's first main entry and whether it returned (see
    /// [`crate::compose`]).
    pub explored: Vec<(FuncId, usize, bool)>,
    /// `--compositional`: the run ended where the composition of a call
    /// said it could not (see `compose::RunHook`).
    pub unpredicted: bool,
    /// `--compositional`: the integer the function returned, as an
    /// expression (a bottom-up summary's result).
    pub ret_expr: Option<ExprId>,
    /// Instructions both executions took (a parallel search's simulation
    /// measures time in them: see `crate::parallel::simulate`).
    pub steps: u64,
}

impl RunRecord {
    /// Whether the precondition accepted the inputs.
    pub fn pre_valid(&self) -> bool {
        self.main_end.is_some()
    }

    /// A normal return within the bound, or an error of the program: the
    /// run is a test.
    pub fn is_test(&self) -> bool {
        match &self.main_end {
            Some(End::Returned(_)) => true,
            Some(End::Error(e)) => e.kind != crate::suite::ErrorKind::Unsupported,
            _ => false,
        }
    }

    /// Whether an input array's length variable is constrained by anything
    /// other than the bounds checks of its own accesses. C code cannot read
    /// a length, so only `pathwise_array_len` (in the precondition or the
    /// function) ties one; the run notes it even when it records no path
    /// condition, so that a concrete replay classifies an overrun as the
    /// symbolic run did.
    pub fn len_is_tied(&self, len_var: ExprId) -> bool {
        self.seen.tied_lens.contains(&len_var)
    }
}

/// Parameters of one run.
pub struct RunSetup<'a> {
    pub main: FuncId,
    pub pre: Option<FuncId>,
    pub spec: &'a InputSpec,
    /// Record the symbolic path condition (false: concrete replay).
    pub symbolic: bool,
}

/// Execute the precondition and the function under test on `inputs`.
pub fn run_once(m: &Machine<'_>, pool: &mut ExprPool, setup: &RunSetup<'_>, inputs: &Model) -> RunRecord {
    let max = m.config.max_array_len;
    let lens = |v: ExprId| inputs.bv.get(&v).copied().unwrap_or(0);
    let mut rec = RunRecord {
        pre_entries: Vec::new(),
        main_entries: Vec::new(),
        pre_end: None,
        main_end: None,
        seen: Default::default(),
        block_trace: Vec::new(),
        array_outputs: Vec::new(),
        global_outputs: Vec::new(),
        touched_len: vec![0; setup.spec.params.len()],
        stdin_read: false,
        heap: Default::default(),
        nonnull_assumed: None,
        leak_returned: None,
        unrelated: None,
        no_case: None,
        cost: Default::default(),
        explored: Vec::new(),
        unpredicted: false,
        ret_expr: None,
        steps: 0,
    };
    let mut declared = crate::heap_assume::Declared::default();
    let mut initial_reads = Vec::new();
    let mut tied_counts = crate::heap_count::TiedCounts::default();
    if let Some(pre) = setup.pre {
        let mut mem = Memory::new();
        let (globals, args, mut objs) = build_memory(m.program, &mut mem, setup.spec, inputs, max);
        let mut exec =
            Exec::new(m, pool, &mut mem, &mut rec.pre_entries, (Region::Pre, setup.symbolic), &lens, globals);
        give_std_streams(&mut exec, setup.spec, &objs);
        exec.seen.tied_lens.extend(setup.spec.contract_lens(false));
        exec.strings = crate::contracts::Strings::new(setup.spec.contract_lens(true));
        let end = match heap_args(&mut exec, setup.spec, (args, &mut objs), pre) {
            Ok(args) => exec.run(pre, args),
            Err(end) => end,
        };
        let end = pre_result_assumed(&mut exec, pre, end);
        rec.seen = Observed::carried_from_precondition(std::mem::take(&mut exec.seen));
        declared = exec.heap.assume.declared();
        initial_reads = std::mem::take(&mut exec.heap.initial_reads);
        tied_counts = std::mem::take(&mut exec.heap.tied_counts);
        rec.unrelated = exec.heap.joins.unrelated;
        rec.steps = exec.steps;
        let choices = std::mem::take(&mut exec.heap.joins.choices);
        note_touched(&mem, &objs, &mut rec.touched_len);
        crate::joins::note_touched(&choices, &mut rec.touched_len);
        let ret_bits = m.program.func(pre).ret.map_or(u128::MAX, |t| u128::from(t.mask()));
        let valid = matches!(end, End::Returned(Some(v)) if v & ret_bits != 0);
        rec.pre_end = Some(end);
        if !valid {
            return rec;
        }
    }
    let mut mem = Memory::new();
    let (globals, args, mut objs) = build_memory(m.program, &mut mem, setup.spec, inputs, max);
    let mut exec =
        Exec::new(m, pool, &mut mem, &mut rec.main_entries, (Region::Main, setup.symbolic), &lens, globals.clone());
    give_std_streams(&mut exec, setup.spec, &objs);
    exec.heap.assume.inherit(declared);
    exec.inherit_initial_reads(initial_reads, tied_counts);
    // Lengths the precondition or the contract tied are not grown
    // (`Exec::grow_free_input`).
    exec.seen.tied_lens = rec.seen.tied_lens.clone();
    exec.seen.tied_lens.extend(setup.spec.contract_lens(false));
    exec.strings = crate::contracts::Strings::new(setup.spec.contract_lens(true));
    let (end, param_values) = match heap_args(&mut exec, setup.spec, (args, &mut objs), setup.main) {
        Ok(args) => (exec.run(setup.main, args.clone()), args),
        Err(end) => (end, Vec::new()),
    };
    rec.steps += exec.steps;
    let mut exts = exec.take_extensions();
    for e in &mut exts {
        e.end_of_run(&mut exec, &end);
    }
    if let (Some(_), Some(v), Some(ty)) = (&m.summaries, exec.returned, m.program.func(setup.main).ret) {
        if ty != pathwise_ir::Type::Ptr {
            rec.ret_expr = Some(crate::value::bv_of(exec.pool, v.conc(), v.sym(), ty.bits()));
        }
    }
    rec.seen = std::mem::take(&mut rec.seen).then(std::mem::take(&mut exec.seen));
    rec.block_trace = std::mem::take(&mut exec.visits.trace);
    rec.nonnull_assumed = exec.heap.null_params.assumed.take();
    let returned = exec.returned;
    let call_pointers = std::mem::take(&mut exec.call_pointers);
    rec.unrelated = rec.unrelated.or(exec.heap.joins.unrelated);
    let choices = std::mem::take(&mut exec.heap.joins.choices);
    rec.stdin_read = setup.spec.stdin.is_some_and(|i| crate::libc::stream_used(exec.mem, &exec.libc_objects, i));
    exec.complete_input_heap();
    drop(exec);
    rec.heap = heap_record(m.program, &mem, setup.main, (&param_values, &globals), returned, &call_pointers);
    for (i, v) in std::mem::take(&mut rec.heap.call_rets) {
        rec.seen.calls[i].ret_pointer = Some(v);
    }
    note_touched(&mem, &objs, &mut rec.touched_len);
    crate::joins::note_touched(&choices, &mut rec.touched_len);
    rec.array_outputs = objs.iter().map(|o| o.map(|id| mem.concrete_contents(id))).collect();
    rec.global_outputs = globals.iter().zip(&m.program.globals).map(|(&g, gd)| global_contents(&mem, g, gd)).collect();
    rec.main_end = Some(tied_overrun(setup.spec, &rec, end));
    if let (true, Some(End::Returned(bits))) = (m.config.check_leaks, &rec.main_end) {
        let name = &m.program.func(setup.main).name;
        if let Some(e) = crate::memcheck::leak(m.program, &mem, name, &param_values, &globals, returned) {
            rec.leak_returned = Some(*bits);
            rec.main_end = Some(End::Error(e));
        }
    }
    for e in exts {
        e.into_record(m, &mut rec);
    }
    rec
}

/// A precondition returning a value computed from the inputs (`return p
/// != NULL`, no branch) is valid exactly when that value is nonzero: an
/// assumption of the path, whose failure the search can negate.
fn pre_result_assumed(exec: &mut Exec<'_, '_>, pre: FuncId, end: End) -> End {
    let (End::Returned(Some(_)), Some(v)) = (&end, exec.returned) else { return end };
    let Some(ty) = exec.m.program.func(pre).ret else { return end };
    if v.sym().is_none() {
        return end;
    }
    let e = crate::value::bv_of(exec.pool, v.conc(), v.sym(), ty.bits());
    let zero = exec.pool.bv_const(ty.bits(), 0);
    let is_zero = exec.pool.eq(e, zero);
    let nonzero = exec.pool.not(is_zero);
    let loc = exec.m.program.func(pre).loc;
    match exec.assume(nonzero, v.conc() & ty.mask() != 0, loc) {
        Ok(()) => end,
        Err(failed) => failed,
    }
}

/// The heaps of a run of `main` whose parameters had `params` as values
/// (`globals`: the run's objects of the program's globals).
fn heap_record(
    program: &Program,
    mem: &Memory,
    main: FuncId,
    (params, globals): (&[Value], &[ObjId]),
    returned: Option<Value>,
    call_rets: &[(usize, Value, pathwise_ir::CType)],
) -> crate::heap_out::HeapRecord {
    let f = program.func(main);
    // A structure passed by value is the callee's copy: what the caller
    // sees afterwards is only what it points to, which the test does not
    // check through it. One returned by value is described as a copy. A
    // returned pointer of any type is described by what it points into.
    let heap_cty = |s: &pathwise_ir::SrcVar| if s.shape == Shape::Heap { s.cty.clone() } else { None };
    let ret_cty = |s: &pathwise_ir::SrcVar| {
        matches!(s.shape, Shape::Heap | Shape::ByValue | Shape::Pointer).then(|| s.cty.clone())?
    };
    let ret = f.ret_src.as_ref().and_then(ret_cty).zip(returned).map(|(c, v)| (v, c));
    let ret_by_value = f.ret_src.as_ref().is_some_and(|s| s.shape == Shape::ByValue);
    let by_value = f.params.iter().any(|p| p.src.shape == Shape::ByValue);
    // A pointer parameter into another input's object (see `joins`) is
    // described by what it points into.
    let joined = |j: usize, v: &Value| {
        f.params[j].src.shape == Shape::Pointer
            && v.as_ptr().obj.is_some_and(|o| mem.object(o).kind != ObjKind::Input { param: j })
    };
    let any_joined = params.iter().enumerate().any(|(j, v)| joined(j, v));
    if ret.is_none()
        && call_rets.is_empty()
        && !by_value
        && !any_joined
        && f.params.iter().all(|p| p.src.shape != Shape::Heap)
    {
        return Default::default();
    }
    let params: Vec<(Value, Option<pathwise_ir::CType>, bool)> = f
        .params
        .iter()
        .zip(params)
        .enumerate()
        .map(|(j, (p, v))| match p.src.shape {
            Shape::ByValue => (*v, p.src.cty.clone(), false),
            Shape::Pointer if joined(j, v) => {
                let pointee = pathwise_ir::CType::Int { c_name: p.src.c_scalar.clone(), ty: p.src.scalar };
                (*v, Some(pathwise_ir::CType::Ptr(Box::new(pointee))), false)
            }
            _ => (*v, heap_cty(&p.src), true),
        })
        .collect();
    crate::heap_out::describe(program, mem, &params, ret.map(|(v, c)| (v, c, ret_by_value)), call_rets, globals)
}

/// The arguments with every heap parameter's input pointer materialised,
/// and every joinable pointer parameter where the inputs say (`objs`: the
/// input arrays, `None` for those pointing into another object).
fn heap_args(
    exec: &mut Exec<'_, '_>,
    spec: &InputSpec,
    (mut args, objs): (Vec<Value>, &mut [Option<ObjId>]),
    func: FuncId,
) -> Result<Vec<Value>, End> {
    let loc = exec.m.program.func(func).loc;
    for (i, p) in spec.params.iter().enumerate() {
        match p {
            ParamInput::Heap { name, pointee, by_value: false } => args[i] = exec.input_pointer(name, pointee, loc)?,
            ParamInput::Heap { name, pointee, by_value: true } => args[i] = exec.by_value_input(name, pointee)?,
            ParamInput::Function { var, candidates } => exec.heap.fn_inputs.push((*var, candidates.clone())),
            _ => {}
        }
    }
    exec.join_args(spec, &mut args, objs, loc)?;
    exec.null_params_of(spec, &mut args);
    Ok(args)
}

/// An access beyond an input array whose length other inputs fix is an
/// out-of-bounds error of the program, not a request for a longer array.
fn tied_overrun(spec: &InputSpec, rec: &RunRecord, end: End) -> End {
    let End::ArrayTooShort { param, offset, size, loc } = end else { return end };
    let (tied, elem) = match spec.params.get(param) {
        Some(ParamInput::Array { input, elem, .. }) => (rec.len_is_tied(input.len), elem.bytes().max(1)),
        _ => (false, 1),
    };
    if !tied {
        return end;
    }
    End::Error(crate::path::RuntimeError {
        kind: crate::suite::ErrorKind::OutOfBounds,
        message: format!(
            "out-of-bounds access to element {} of an input array of {} element(s) (its length is another input's value)",
            offset / elem,
            size / elem
        ),
        loc,
    })
}

/// The final values of global `g` (object `id`), element by element: the
/// objects of `long double`s are byte storage, read back as `f80`s.
fn global_contents(mem: &Memory, id: ObjId, g: &pathwise_ir::GlobalData) -> Vec<u128> {
    match g.src.as_ref() {
        Some(src) if src.scalar.ty == pathwise_ir::Type::F80 => {
            let n = match src.shape {
                pathwise_ir::Shape::Array(n) => n.max(1),
                _ => 1,
            };
            mem.x87_contents(id, mem.object(id).size_bytes() / n)
        }
        _ => mem.concrete_contents(id),
    }
}

/// The C library's functions that read `stdin` without naming it.
pub(crate) const STDIN_READERS: &[&str] = &["getchar", "getchar_unlocked", "scanf", "__isoc99_scanf", "__isoc23_scanf"];

/// Whether `func` (or a function it may call) reads the standard input:
/// it uses `stdin` or calls a function that reads it.
fn reads_stdin(program: &Program, func: FuncId) -> bool {
    let declared = |n: &&str| program.func_by_name(n).is_some_and(|f| program.func(f).is_declaration());
    // The front end declares only what the unit uses: most never do.
    if !program.globals.iter().any(is_stdin) && !STDIN_READERS.iter().any(declared) {
        return false;
    }
    let graph = pathwise_ir::analysis::CallGraph::compute(program);
    graph.reachable_from(func).into_iter().any(|f| {
        program.func(f).blocks.iter().flat_map(|b| &b.insts).any(|i| match &i.kind {
            pathwise_ir::InstKind::AddrGlobal { global } => is_stdin(&program.globals[global.0 as usize]),
            pathwise_ir::InstKind::Call { func, .. } => STDIN_READERS.contains(&program.func(*func).name.as_str()),
            _ => false,
        })
    })
}

/// Whether `g` is the C library's `stdin`.
pub(crate) fn is_stdin(g: &pathwise_ir::GlobalData) -> bool {
    g.name == "stdin" && is_std_stream(g)
}

/// Whether `g` is the C library's `stdin`, `stdout` or `stderr` (glibc's
/// `extern FILE *stdin;`, defined by the library, not by the unit).
pub(crate) fn is_std_stream(g: &pathwise_ir::GlobalData) -> bool {
    matches!(g.name.as_str(), "stdin" | "stdout" | "stderr")
        && g.count == 1
        && g.elem == pathwise_ir::Type::Ptr
        && g.relocs.is_empty()
}

/// Allocate globals and input arrays; return (global objects, arguments,
/// input object per parameter).
fn build_memory(
    program: &Program,
    mem: &mut Memory,
    spec: &InputSpec,
    inputs: &Model,
    max: u32,
) -> (Vec<ObjId>, Vec<Value>, Vec<Option<ObjId>>) {
    let globals: Vec<ObjId> = program
        .globals
        .iter()
        .map(|g| {
            let id = mem.alloc(ObjKind::Global, g.elem, g.count);
            for (i, &v) in g.init.iter().enumerate() {
                mem.init_cell(id, i as u64, Value::int(v));
            }
            id
        })
        .collect();
    // Pointers in initial contents, once every global has its object.
    for (g, &id) in program.globals.iter().zip(&globals) {
        for r in &g.relocs {
            let obj = match r.target {
                RelocTarget::Global(t) => globals[t.0 as usize],
                RelocTarget::Func(f) => mem.code_object(f),
            };
            let target = Pointer { obj: Some(obj), off: r.addend, ..Pointer::NULL };
            mem.init_pointer(id, r.offset, target);
        }
    }
    let mut args = Vec::new();
    let mut objs = Vec::new();
    for (i, p) in spec.params.iter().enumerate() {
        match *p {
            ParamInput::Heap { .. } => {
                // Materialised by the execution (see `heap_args`).
                args.push(Value::Ptr(Pointer::NULL));
                objs.push(None);
            }
            ParamInput::Scalar { var, ty } => {
                let conc = inputs.bv.get(&var).copied().unwrap_or(0) & ty.mask();
                args.push(Value::Int { conc, sym: Some(var) });
                objs.push(None);
            }
            ParamInput::Function { var, ref candidates } => {
                let v = inputs.bv.get(&var).copied().unwrap_or(0);
                let obj = crate::fnptr::chosen(candidates, v).map(|f| mem.code_object(f));
                args.push(Value::Ptr(Pointer { obj, base_sym: Some(var), ..Pointer::NULL }));
                objs.push(None);
            }
            ParamInput::Array { .. } if crate::null_params::passes_null(p, inputs) => {
                // A null parameter (see `null_params`): no array.
                args.push(Value::Ptr(Pointer::NULL));
                objs.push(None);
            }
            ParamInput::Array { input, elem, .. } => {
                let count = InputSpec::len_of(inputs, input.len, max);
                let init = inputs.arrays.get(&input.array).cloned().unwrap_or_else(ArrayValue::default);
                let id = mem.alloc_input(i, elem, count, init, input);
                // `stdin`'s content is no argument.
                if spec.stdin != Some(i) {
                    args.push(Value::Ptr(Pointer { obj: Some(id), off: 0, off_sym: None, base_sym: None, path: 0 }));
                }
                objs.push(Some(id));
            }
        }
    }
    // `stdin`, `stdout` and `stderr` are never null: `stdin` points to its
    // content when the program reads it, the others (and an unread
    // `stdin`) to an object of their own (which only the stdio models
    // look at).
    for (g, &id) in program.globals.iter().zip(&globals) {
        if is_std_stream(g) {
            let stream = match spec.stdin.and_then(|i| objs[i]) {
                Some(content) if is_stdin(g) => content,
                _ => {
                    let stream = mem.alloc(ObjKind::Global, pathwise_ir::Type::I8, 1);
                    mem.init_cell(stream, 0, Value::int(0));
                    stream
                }
            };
            mem.init_pointer(id, 0, Pointer { obj: Some(stream), ..Pointer::NULL });
        }
    }
    (globals, args, objs)
}

/// `stdin`'s content, for the models that read it without naming it
/// (`getchar`, `scanf`), and the object `stdout` points to, for the
/// models that write to it.
fn give_std_streams(exec: &mut Exec<'_, '_>, spec: &InputSpec, objs: &[Option<ObjId>]) {
    if let Some(id) = spec.stdin.and_then(|i| objs[i]) {
        exec.libc_objects.insert(crate::libc::STDIN_OBJECT.to_string(), id);
    }
    let program = exec.m.program;
    let stdout = program.globals.iter().zip(&exec.globals).find(|(g, _)| g.name == "stdout" && is_std_stream(g));
    if let Some((_, &id)) = stdout {
        let target = exec.mem.object(id).current_cells().into_iter().find_map(|(off, _, v)| match v {
            Value::Ptr(p) if off == 0 => p.obj,
            _ => None,
        });
        if let Some(obj) = target {
            exec.libc_objects.insert(crate::libc::STDOUT_OBJECT.to_string(), obj);
        }
    }
}

fn note_touched(mem: &Memory, objs: &[Option<ObjId>], touched: &mut [u64]) {
    for (i, o) in objs.iter().enumerate() {
        if let Some(id) = o {
            let obj = mem.object(*id);
            if let Some(b) = obj.max_accessed {
                touched[i] = touched[i].max(b / obj.elem.bytes() + 1);
            }
        }
    }
}

//! Building a test from a run: size free input arrays to what the path
//! touched, then replay the inputs concretely and keep the test only if the
//! replay follows the same path and ends the same way (a normal return, or
//! the same error at the same place).

use pathwise_expr::{ExprPool, Model};

use crate::exec::Machine;
use crate::run::{run_once, ParamInput, RunRecord, RunSetup};
use crate::suite::{InputValue, Outcome, TestCase};

/// The test for `run` and its replay record, or `None` if replay diverged.
pub fn build(
    m: &Machine<'_>,
    pool: &mut ExprPool,
    setup: &RunSetup<'_>,
    inputs: &Model,
    run: &RunRecord,
    allow_bound: bool,
) -> Option<(TestCase, RunRecord)> {
    let shrunk = shrink(setup, inputs, run);
    for candidate in [&shrunk, inputs] {
        let replay = run_once(m, pool, setup, candidate);
        let bound = allow_bound && replay.main_end.as_ref().is_some_and(crate::path::End::cut_short);
        if (replay.is_test() || bound) && replay.seen.path == run.seen.path && replay.main_end == run.main_end {
            return Some((to_test(m, setup, candidate, &replay), replay));
        }
    }
    None
}

/// Give every input array whose length nothing else constrains exactly the
/// elements the path touched (PathCrawler: dimensions as low as possible).
fn shrink(setup: &RunSetup<'_>, inputs: &Model, run: &RunRecord) -> Model {
    let mut out = inputs.clone();
    for (i, p) in setup.spec.params.iter().enumerate() {
        if let ParamInput::Array { input, .. } = p {
            if !run.len_is_tied(input.len) {
                out.bv.insert(input.len, run.touched_len[i]);
            }
        }
    }
    out
}

fn to_test(m: &Machine<'_>, setup: &RunSetup<'_>, inputs: &Model, replay: &RunRecord) -> TestCase {
    let f = m.program.func(setup.main);
    let errs =
        matches!(&replay.main_end, Some(crate::path::End::Error(e)) if e.kind == crate::suite::ErrorKind::OutOfBounds);
    let inputs_v = setup
        .spec
        .params
        .iter()
        .zip(&f.params)
        .enumerate()
        .map(|(i, (p, fp))| match *p {
            ParamInput::Heap { .. } => InputValue::Pointer(
                replay.heap.params.get(i).cloned().flatten().unwrap_or(crate::suite::HeapValue::Null),
            ),
            ParamInput::Function { var, ref candidates } => {
                let v = inputs.bv.get(&var).copied().unwrap_or(0);
                InputValue::Function(crate::fnptr::chosen(candidates, v).map(|f| m.program.func(f).name.clone()))
            }
            ParamInput::Scalar { var, ty } => {
                InputValue::Scalar(fp.src.scalar.to_i128(inputs.bv.get(&var).copied().unwrap_or(0) & ty.mask()))
            }
            ParamInput::Array { .. } if crate::null_params::passes_null(p, inputs) => {
                InputValue::Pointer(crate::suite::HeapValue::Null)
            }
            // A parameter pointing into another input's object (see `joins`).
            ParamInput::Array { .. } if matches!(replay.heap.params.get(i), Some(Some(_))) => {
                InputValue::Pointer(replay.heap.params[i].clone().unwrap_or(crate::suite::HeapValue::Null))
            }
            ParamInput::Array { input, elem, contract, .. } => {
                let n = crate::run::InputSpec::len_of(inputs, input.len, m.config.max_array_len);
                let arr = inputs.arrays.get(&input.array);
                let mut values: Vec<i128> =
                    (0..n).map(|i| fp.src.scalar.to_i128(arr.map_or(0, |a| a.get(i * elem.bytes())))).collect();
                // A string is passed terminated whatever the path read of
                // it; an out-of-bounds test's object ends at its first NUL,
                // so that the read past it leaves the object natively too.
                if contract == Some(crate::contracts::ArrayContract::String) {
                    match values.iter().position(|&v| v == 0) {
                        Some(nul) if errs => values.truncate(nul + 1),
                        Some(_) => {}
                        None => values.push(0),
                    }
                }
                InputValue::Array(values)
            }
        })
        .collect();
    let returned = match &replay.main_end {
        Some(crate::path::End::Error(_)) => replay.leak_returned.map(crate::path::End::Returned),
        end => end.clone(),
    };
    let ret = match returned {
        Some(crate::path::End::Returned(Some(_)))
            if f.ret_src.as_ref().is_some_and(|s| s.cty.is_some() && s.shape != pathwise_ir::Shape::Scalar) =>
        {
            None
        }
        Some(crate::path::End::Returned(Some(v))) => {
            // Without a C description the IR type is read as signed.
            let scalar = f.ret_src.as_ref().map(|s| s.scalar);
            scalar.or(f.ret.map(|ty| pathwise_ir::IntTy { ty, signed: true })).map(|s| s.to_i128_wide(v))
        }
        _ => None,
    };
    let array_outputs = replay
        .array_outputs
        .iter()
        .zip(&f.params)
        // A stream's content is read only: no output to check.
        .map(|(o, fp)| {
            let o = o.as_ref().filter(|_| fp.src.shape != pathwise_ir::Shape::Stream);
            o.map(|v| v.iter().map(|&x| fp.src.scalar.to_i128_wide(x)).collect())
        })
        .collect();
    let global_outputs = m
        .program
        .globals
        .iter()
        .zip(&replay.global_outputs)
        .filter(|(g, _)| !g.is_const && g.src.is_some())
        .map(|(g, vals)| {
            let s = g.src.as_ref().expect("filtered").scalar;
            vals.iter().map(|&x| s.to_i128_wide(x)).collect()
        })
        .collect();
    // A program that never ends after its last input (the step limit)
    // would never exit natively, and Test-Comp's harness records coverage
    // only at exit: the test stops one input short, so that the program
    // exits when it asks for that input.
    let nondets = match replay.main_end {
        Some(crate::path::End::StepLimit) => &replay.seen.nondets[..replay.seen.nondets.len().saturating_sub(1)],
        _ => &replay.seen.nondets[..],
    };
    let outcome = match &replay.main_end {
        Some(end) if end.cut_short() => Outcome::BoundReached,
        Some(crate::path::End::Error(e)) => Outcome::Error(e.clone()),
        _ => Outcome::Returned,
    };
    // The standard input as the test passes it: a file of the bytes the
    // run's content holds (its length is where it ends).
    let stdin = setup.spec.stdin_input().filter(|_| replay.stdin_read).map(|input| {
        let n = crate::run::InputSpec::len_of(inputs, input.len, m.config.max_array_len);
        let arr = inputs.arrays.get(&input.array);
        (0..n).map(|i| arr.map_or(0, |a| a.get(i)) as u8).collect()
    });
    TestCase {
        id: 0,
        inputs: inputs_v,
        stdin,
        // What the code wrote before it returned, or before `exit` flushed
        // it (an error ends the process with the output unflushed).
        stdout: replay.seen.stdout.clone().filter(|_| match &outcome {
            Outcome::Returned => true,
            Outcome::Error(e) => matches!(e.kind, crate::suite::ErrorKind::Exit(_)),
            Outcome::BoundReached => false,
        }),
        outcome,
        ret,
        array_outputs,
        global_outputs,
        path: replay.seen.path.clone(),
        nondets: nondets.iter().map(|n| n.ty.to_i128(n.value)).collect(),
        nondet_types: nondets.iter().map(|n| n.ty).collect(),
        heap_in: replay.heap.heap_in.clone(),
        heap_out: replay.heap.heap_out.clone(),
        ret_pointer: replay.heap.ret.clone(),
        calls: replay.seen.calls.clone(),
        failed_allocations: replay.seen.failed_allocations.clone(),
        // Filled in when the suite is assembled.
        coverage: Vec::new(),
        // Filled in by the search (it needs the symbolic run).
        cost: Vec::new(),
        same_error_paths: 0,
    }
}

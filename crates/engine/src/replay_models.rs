//! Concrete execution of inputs that another method found (`gen --method
//! vc`: valuations of a verification condition), so that its tests are built,
//! checked and assembled exactly as the concolic search's are.
//!
//! Each model is run once with the path condition recorded (to learn the
//! elements the path touched) and then built into a test by
//! [`crate::testcase::build`], which shrinks free input arrays and replays
//! the inputs concretely. Nothing is dropped silently: every model yields a
//! [`ModelRun`] saying which path it took and whether it became a test, and
//! the caller decides what a disagreement means.

use pathwise_expr::{ExprPool, Model};
use pathwise_ir::Program;

use crate::analysis::ProgramInfo;
use crate::config::Config;
use crate::exec::Machine;
use crate::path::End;
use crate::run::{run_once, InputSpec, RunSetup};
use crate::setup::EngineError;
use crate::suite::{PathStep, Stats, StopReason, TestSuite};

/// What the replay of one model did.
#[derive(Clone, Debug)]
pub struct ModelRun {
    /// The decisions of the function under test (and its callees), in order.
    pub path: Vec<PathStep>,
    /// Index of its test in the suite, when it became one.
    pub test: Option<usize>,
    /// How the run ended, when it did not become a test.
    pub failure: Option<String>,
}

/// Run every model of `models` (inputs in terms of `pool`'s variables, named
/// as [`InputSpec::new`] names them) and assemble the tests of those that
/// return normally into a suite with `stats` and `stop`. Models whose paths
/// repeat an earlier test's path give no second test (the run says so).
pub fn replay_models(
    program: &Program,
    config: &Config,
    pool: &mut ExprPool,
    models: &[Model],
    mut stats: Stats,
    stop: StopReason,
) -> Result<(TestSuite, Vec<ModelRun>), EngineError> {
    let (main, pre) = crate::setup::check(program, config)?;
    let info = ProgramInfo::compute(program);
    let machine = Machine::new(program, &info, config);
    let spec = InputSpec::new(pool, program, main, config.max_array_len);
    let setup = |symbolic| RunSetup { main, pre, spec: &spec, max_array_len: config.max_array_len, symbolic };
    let mut tests = Vec::new();
    let mut runs = Vec::new();
    let (mut lines, mut sides) = (Default::default(), Default::default());
    let mut per_test = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    for inputs in models {
        stats.runs += 1;
        let run = run_once(&machine, pool, &setup(true), inputs);
        let failure = match &run.main_end {
            None => Some("the precondition rejected the inputs".to_string()),
            Some(End::Returned(_)) => None,
            Some(end) => Some(format!("the run ended {end:?}")),
        };
        if failure.is_some() || !seen.insert(run.path.clone()) {
            let failure = failure.or(Some("the path of an earlier test".to_string()));
            runs.push(ModelRun { path: run.path.clone(), test: None, failure });
            continue;
        }
        match crate::testcase::build(&machine, pool, &setup(false), inputs, &run, false) {
            Some((mut test, replay)) => {
                test.id = tests.len() + 1;
                Extend::extend(&mut lines, replay.lines.iter().copied());
                Extend::extend(&mut sides, replay.sides.iter().copied());
                per_test.push((replay.lines.clone(), replay.sides.clone()));
                runs.push(ModelRun { path: run.path.clone(), test: Some(tests.len()), failure: None });
                tests.push(test);
            }
            None => runs.push(ModelRun {
                path: run.path.clone(),
                test: None,
                failure: Some("the concrete replay diverged from the recorded run".to_string()),
            }),
        }
    }
    stats.tests = tests.len() as u64;
    stats.feasible_paths = tests.len() as u64;
    let suite = crate::setup::assemble(program, &info, config, main, tests, stats, stop, &(lines, sides), &per_test);
    Ok((suite, runs))
}

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
    stats: Stats,
    stop: StopReason,
) -> Result<(TestSuite, Vec<ModelRun>), EngineError> {
    let ((), suite, runs) = with_replayer(program, config, pool, |pool, r| {
        for m in models {
            r.replay(pool, m);
        }
        ((), stats, stop)
    })?;
    Ok((suite, runs))
}

/// Tests from models one at a time, as another method finds them (so that
/// its deadline covers their replay too): `f` gets a [`Replayer`] and
/// returns its own result with the stats and stop reason of the suite
/// assembled from every model it replayed.
pub fn with_replayer<R>(
    program: &Program,
    config: &Config,
    pool: &mut ExprPool,
    f: impl FnOnce(&mut ExprPool, &mut Replayer<'_>) -> (R, Stats, StopReason),
) -> Result<(R, TestSuite, Vec<ModelRun>), EngineError> {
    let (main, pre) = crate::setup::check(program, config)?;
    let info = ProgramInfo::compute(program);
    let machine = Machine::new(program, &info, config);
    let spec = InputSpec::new(pool, program, main, config);
    let mut r = Replayer {
        machine,
        spec,
        main,
        pre,
        tests: Vec::new(),
        runs: Vec::new(),
        coverage: Default::default(),
        per_test: Vec::new(),
        seen: Default::default(),
        seen_errors: Default::default(),
    };
    let (out, mut stats, stop) = f(pool, &mut r);
    stats.runs += r.runs.len() as u64;
    stats.tests = r.tests.len() as u64;
    stats.feasible_paths = r.tests.len() as u64;
    let Replayer { tests, runs, coverage, per_test, .. } = r;
    let suite = crate::setup::assemble(program, &info, config, main, tests, stats, stop, &coverage, &per_test);
    Ok((out, suite, runs))
}

/// Replays models into tests (see [`with_replayer`]).
pub struct Replayer<'a> {
    machine: Machine<'a>,
    spec: InputSpec,
    main: pathwise_ir::FuncId,
    pre: Option<pathwise_ir::FuncId>,
    tests: Vec<crate::suite::TestCase>,
    runs: Vec<ModelRun>,
    coverage: crate::setup::RunCoverage,
    per_test: Vec<crate::setup::RunCoverage>,
    seen: rustc_hash::FxHashSet<Vec<PathStep>>,
    /// The paths and errors of the error tests.
    seen_errors: rustc_hash::FxHashSet<(Vec<PathStep>, crate::suite::ErrorKind, pathwise_ir::Loc)>,
}

impl Replayer<'_> {
    /// Run `inputs` and, if it returns normally along a new path, make it
    /// a test. Returns what the run did.
    pub fn replay(&mut self, pool: &mut ExprPool, inputs: &Model) -> &ModelRun {
        let setup = |symbolic| RunSetup { main: self.main, pre: self.pre, spec: &self.spec, symbolic };
        let run = run_once(&self.machine, pool, &setup(true), inputs);
        let failure = match &run.main_end {
            None => Some("the precondition rejected the inputs".to_string()),
            Some(End::Returned(_)) => None,
            Some(end) => Some(format!("the run ended {end:?}")),
        };
        let new = failure.is_none() && self.seen.insert(run.seen.path.clone());
        self.keep(pool, inputs, run, failure, new)
    }

    /// Run `inputs`, which another method found to end in error `kind` at
    /// `loc`, and make it a test if it does, along a path and to an error
    /// no earlier error test had. Returns what the run did (a failure when
    /// it ended otherwise).
    pub fn replay_error(
        &mut self,
        pool: &mut ExprPool,
        inputs: &Model,
        (kind, loc): (crate::suite::ErrorKind, pathwise_ir::Loc),
    ) -> &ModelRun {
        let setup = |symbolic| RunSetup { main: self.main, pre: self.pre, spec: &self.spec, symbolic };
        let run = run_once(&self.machine, pool, &setup(true), inputs);
        let failure = match &run.main_end {
            Some(End::Error(e)) if e.kind == kind && e.loc == loc => None,
            None => Some("the precondition rejected the inputs".to_string()),
            Some(end) => Some(format!("the run ended {end:?}, not in {kind:?} at {loc:?}")),
        };
        let new = failure.is_none() && self.seen_errors.insert((run.seen.path.clone(), kind, loc));
        self.keep(pool, inputs, run, failure, new)
    }

    /// Build `run` into a test when it is `new` (neither a failure nor an
    /// earlier test's run), and record what it did.
    fn keep(
        &mut self,
        pool: &mut ExprPool,
        inputs: &Model,
        run: crate::run::RunRecord,
        failure: Option<String>,
        new: bool,
    ) -> &ModelRun {
        let setup = |symbolic| RunSetup { main: self.main, pre: self.pre, spec: &self.spec, symbolic };
        if !new {
            let failure = failure.or(Some("the path of an earlier test".to_string()));
            self.runs.push(ModelRun { path: run.seen.path.clone(), test: None, failure });
            return self.runs.last().expect("pushed");
        }
        let built = crate::testcase::build(&self.machine, pool, &setup(false), inputs, &run, false);
        match built {
            Some((mut test, replay)) => {
                test.id = self.tests.len() + 1;
                Extend::extend(&mut self.coverage.0, replay.seen.lines.iter().copied());
                Extend::extend(&mut self.coverage.1, replay.seen.sides.iter().copied());
                self.per_test.push((replay.seen.lines.clone(), replay.seen.sides.clone()));
                self.runs.push(ModelRun { path: run.seen.path.clone(), test: Some(self.tests.len()), failure: None });
                self.tests.push(test);
            }
            None => self.runs.push(ModelRun {
                path: run.seen.path.clone(),
                test: None,
                failure: Some("the concrete replay diverged from the recorded run".to_string()),
            }),
        }
        self.runs.last().expect("pushed")
    }
}

//! The example extension of ARCHITECTURE.md ("Adding an extension"), kept
//! compiled and tested so that the recipe stays true: it counts the
//! program's reads of input arrays and reports them through the run's
//! generic counts (`Observed::counts`, summed into `Stats::counts`),
//! touching only this file and one line of [`crate::extension::for_run`].
//! Registered in the engine's unit tests only: it is an example, not a
//! figure users asked for.

use pathwise_ir::{Loc, Type};

use crate::exec::{Exec, Machine};
use crate::extension::{Access, Extension};
use crate::memory::ObjKind;
use crate::run::RunRecord;
use crate::value::Value;

/// Reads of input arrays in one run.
#[derive(Default)]
pub(crate) struct InputReads(u64);

impl Extension for InputReads {
    fn load(&mut self, ex: &mut Exec<'_, '_>, at: Access, _ty: Type, v: Value, _loc: Loc) -> Value {
        if matches!(ex.mem.object(at.0).kind, ObjKind::Input { .. }) {
            self.0 += 1;
        }
        v
    }

    fn into_record(self: Box<Self>, _m: &Machine<'_>, rec: &mut RunRecord) {
        rec.seen.counts.insert("input array reads", self.0);
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;

    #[test]
    fn an_extension_reports_through_the_generic_counts() {
        let src = "int f(int *a, int n) { if (n > 0) return a[0] + a[1]; return a[2]; }";
        let opts = pathwise_cfront::FrontendOptions {
            include_dirs: vec![],
            defines: vec![],
            data_model: pathwise_cfront::DataModel::Lp64,
            extra_args: vec![],
        };
        let program = pathwise_cfront::compile_source("reads.c", src, &opts).expect("compiles").program;
        let config = Config { seek_errors: false, ..Config::new("f", 1) };
        let mut backend = pathwise_solver_z3::Z3Backend::new(None);
        let suite = crate::generate(&program, &config, &mut backend, &mut crate::NoObserver).expect("generates");
        // Two paths, each run once and replayed once: 2 reads on the
        // `n > 0` path, 1 on the other.
        assert_eq!(suite.tests.len(), 2);
        let per_path = suite.stats.runs / 2;
        assert_eq!(suite.stats.counts.get("input array reads"), Some(&(3 * per_path)), "{:?}", suite.stats);
    }
}

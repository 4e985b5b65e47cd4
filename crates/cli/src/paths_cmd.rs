//! `pathwise paths`: the static paths of a function up to a depth (seed
//! 000, crate `pathwise-paths`), each as its decisions with `file:line:col`,
//! counted per depth; with `--feasibility` each is marked feasible (with a
//! witness input), infeasible (with the conflicting decisions) or unknown,
//! from the engine's search at the same bound (`gen --k D
//! --strict-loop-count`).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, Result};
use clap::Args;
use pathwise_engine::config::Config;
use pathwise_ir::Program;
use pathwise_paths::feasibility::{Feasibility, Verdict};
use pathwise_paths::{StaticPath, StaticPaths};
use pathwise_solver_z3::Z3Backend;
use serde_json::{json, Value};

use crate::gen::{compile_for, parse_seconds};

#[derive(Args, Debug)]
pub struct PathsArgs {
    /// The C source file.
    pub file: PathBuf,
    /// The function whose paths are listed.
    #[arg(long, short = 'f', value_name = "NAME")]
    pub function: String,
    /// The depth D: iterations of each loop per entry, recursion depth
    /// (as `gen --k D --strict-loop-count`).
    #[arg(long, short = 'd', default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=1_000))]
    pub depth: u32,
    /// Check each path with the solver (the engine's search at the same bound).
    #[arg(long)]
    pub feasibility: bool,
    /// Stop when the function (or one of its loops or callees) has more
    /// static paths than this.
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub max_paths: u64,
    /// Precondition for `--feasibility` (as for `gen`).
    #[arg(long, value_name = "PRE")]
    pub precondition: Option<String>,
    /// Time limit of the `--feasibility` search.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Print a JSON object (schema in docs/json-schema.md) instead of text.
    #[arg(long)]
    pub json: bool,
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
}

/// Run `pathwise paths`; returns the exit code.
pub fn run(args: &PathsArgs) -> Result<i32> {
    let includes = (&args.include_dirs[..], &args.defines[..]);
    let fe = compile_for(&args.file, includes, &args.function, args.precondition.as_deref())?;
    let program = &fe.program;
    let id = program.func_by_name(&args.function).ok_or_else(|| anyhow!("function `{}` not found", args.function))?;
    let paths = pathwise_paths::enumerate(program, id, args.depth, args.max_paths as usize).map_err(|e| match e {
        pathwise_paths::PathsError::TooMany(n) => anyhow!(
            "`{}` has more than {} static paths of depth <= {} ({n} counted when the enumeration stopped); \
             lower --depth or raise --max-paths",
            args.function,
            args.max_paths,
            args.depth
        ),
        e => anyhow!("{e}"),
    })?;
    let feas = if args.feasibility { Some(feasibility(program, &paths, args)?) } else { None };
    let text = if args.json {
        serde_json::to_string_pretty(&to_json(program, &paths, feas.as_ref(), args))? + "\n"
    } else {
        to_text(program, &paths, feas.as_ref(), args)
    };
    // A closed pipe (`| head`) is not an error of ours.
    let _ = std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes());
    Ok(0)
}

fn feasibility(program: &Program, paths: &StaticPaths, args: &PathsArgs) -> Result<Feasibility> {
    // The engine bounds k >= 1; a search at bound 1 decides every path of
    // depth 0 too (they are within it).
    let mut config = Config::new(&args.function, args.depth.max(1));
    config.precondition = args.precondition.clone();
    config.timeout = args.timeout;
    // The papers' count, which static paths share: every iteration counts.
    config.strict_loop_count = true;
    let mut backend = Z3Backend::new(None);
    pathwise_paths::feasibility::check(program, paths, &config, &mut backend, &mut pathwise_engine::NoObserver)
        .map_err(|e| anyhow!("{e}"))
}

fn decision_text(program: &Program, p: &StaticPath, i: usize) -> String {
    let s = &p.steps[i];
    let f = program.func(s.func);
    format!("{} {}", program.describe_loc(f.block(s.block).term_loc), if s.taken { 'T' } else { 'F' })
}

fn depth_counts(paths: &StaticPaths) -> String {
    let per: Vec<String> = paths.per_depth().iter().enumerate().map(|(d, n)| format!("depth {d}: {n}")).collect();
    per.join(", ")
}

fn to_text(program: &Program, paths: &StaticPaths, feas: Option<&Feasibility>, args: &PathsArgs) -> String {
    let mut out = String::new();
    let st = &paths.structure;
    out.push_str(&format!(
        "{}: {} static paths of depth <= {} ({})\n",
        args.function,
        paths.paths.len(),
        paths.depth,
        depth_counts(paths)
    ));
    out.push_str(&format!(
        "call graph: {} units, {} edges ({} tail), {} subgraphs, {} cycles\n",
        st.units.len(),
        st.edges.len(),
        st.edges.iter().filter(|e| e.tail).count(),
        st.subgraphs.len(),
        st.cycles.len()
    ));
    for (n, p) in paths.paths.iter().enumerate() {
        let ds: Vec<String> = (0..p.steps.len()).map(|i| decision_text(program, p, i)).collect();
        let end = if p.aborts { " (aborts)" } else { "" };
        out.push_str(&format!(
            "path {} (depth {}){end}: {}\n",
            n + 1,
            p.depth,
            if ds.is_empty() { "no decision".into() } else { ds.join(", ") }
        ));
        if let Some(f) = feas {
            out.push_str(&format!("  {}\n", verdict_text(program, p, &f.verdicts[n])));
        }
    }
    if let Some(f) = feas {
        let (a, b, c) = tally(f);
        let s = &f.suite.stats;
        out.push_str(&format!(
            "feasible: {a}, infeasible: {b}, unknown: {c} (search: {}, {} tests, {} runs, {} solver calls)\n",
            pathwise_emit::json::stop_strings(&f.suite.stop).0,
            f.suite.tests.len(),
            s.runs,
            s.solver_calls
        ));
    }
    out
}

fn verdict_text(program: &Program, p: &StaticPath, v: &Verdict) -> String {
    match v {
        Verdict::Feasible { test } => format!("feasible: witness test {}", test + 1),
        Verdict::Infeasible { prefix, conflict, constant: true } => format!(
            "infeasible: decision {prefix} ({}) is constant after the decisions before it",
            decision_text(program, p, conflict[0])
        ),
        Verdict::Infeasible { prefix, conflict, .. } => {
            let ds: Vec<String> = conflict.iter().map(|&i| decision_text(program, p, i)).collect();
            format!("infeasible: the first {prefix} decisions conflict: {}", ds.join(", "))
        }
        Verdict::Unknown => "unknown".into(),
    }
}

fn tally(f: &Feasibility) -> (usize, usize, usize) {
    let count = |pred: fn(&Verdict) -> bool| f.verdicts.iter().filter(|v| pred(v)).count();
    (
        count(|v| matches!(v, Verdict::Feasible { .. })),
        count(|v| matches!(v, Verdict::Infeasible { .. })),
        count(|v| matches!(v, Verdict::Unknown)),
    )
}

fn to_json(program: &Program, paths: &StaticPaths, feas: Option<&Feasibility>, args: &PathsArgs) -> Value {
    let suite_json = feas.map(|f| pathwise_emit::json::suite_to_json(&f.suite));
    let list: Vec<Value> = paths
        .paths
        .iter()
        .enumerate()
        .map(|(n, p)| {
            let decisions: Vec<Value> = p
                .steps
                .iter()
                .map(|s| {
                    let f = program.func(s.func);
                    json!({"function": f.name, "loc": program.describe_loc(f.block(s.block).term_loc),
                           "block": s.block.0, "taken": s.taken})
                })
                .collect();
            let mut o = json!({"id": n + 1, "depth": p.depth, "ends": if p.aborts { "abort" } else { "return" },
                               "decisions": decisions});
            if let (Some(f), Some(sj)) = (feas, &suite_json) {
                o["feasibility"] = verdict_json(&f.verdicts[n], sj);
            }
            o
        })
        .collect();
    let st = &paths.structure;
    let mut out = json!({
        "function": args.function,
        "depth": paths.depth,
        "total": paths.paths.len(),
        "per_depth": paths.per_depth(),
        "call_graph": {
            "units": st.units,
            "edges": st.edges.iter().map(|e| json!({"from": e.from, "to": e.to, "tail": e.tail})).collect::<Vec<_>>(),
            "base_cases": st.base_cases,
            "subgraphs": st.subgraphs.iter().map(|(e, u)| json!({"entry": e, "units": u})).collect::<Vec<_>>(),
            "cycles": st.cycles,
        },
        "paths": list,
    });
    if let Some(f) = feas {
        let (a, b, c) = tally(f);
        out["feasibility"] = json!({"feasible": a, "infeasible": b, "unknown": c,
            "stop": pathwise_emit::json::stop_strings(&f.suite.stop).0, "tests": f.suite.tests.len(),
            "runs": f.suite.stats.runs, "solver_calls": f.suite.stats.solver_calls});
    }
    out
}

fn verdict_json(v: &Verdict, suite: &Value) -> Value {
    match v {
        Verdict::Feasible { test } => {
            json!({"status": "feasible", "witness": {"test": test + 1, "inputs": suite["tests"][*test]["inputs"].clone()}})
        }
        Verdict::Infeasible { prefix, conflict, constant } => json!({"status": "infeasible", "prefix": prefix,
            "conflict": conflict.iter().map(|i| i + 1).collect::<Vec<_>>(), "constant": constant}),
        Verdict::Unknown => json!({"status": "unknown"}),
    }
}

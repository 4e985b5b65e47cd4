//! Differential testing against gcc on random integer programs: random
//! expressions over every integer type (promotions, conversions, shifts,
//! division, comparisons, `&&`, `||`, `?:`) feed a decision. Every generated
//! test carries the outputs the engine computed, so a test failing natively
//! is a disagreement between Pathwise's C semantics and gcc's; branch
//! coverage must agree on every line gcc compiled as the source's decisions.

use std::path::Path;
use std::process::Command;

use pathwise_cli::replay::{replay, ReplayOptions};

const TYPES: &[&str] = &[
    "char",
    "signed char",
    "unsigned char",
    "short",
    "unsigned short",
    "int",
    "unsigned",
    "long",
    "unsigned long",
    "long long",
    "unsigned long long",
    "_Bool",
];

const CONSTANTS: &[&str] = &[
    "0",
    "1",
    "2",
    "7",
    "-1",
    "-5",
    "100",
    "255",
    "256",
    "65535",
    "2147483647",
    "-2147483647",
    "2147483648u",
    "0x80000000",
    "4294967295u",
    "0xffffffffffffffffull",
    "-9223372036854775807ll",
];

const OPS: &[&str] =
    &["+", "-", "*", "&", "|", "^", "<<", ">>", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||"];

/// A small deterministic generator (64-bit LCG).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

/// A random expression; shift amounts and divisors are kept defined.
fn expr(r: &mut Rng, vars: &[&str], depth: u32) -> String {
    if depth == 0 || r.below(10) < 3 {
        return if r.below(10) < 7 { r.pick(vars).to_string() } else { r.pick(CONSTANTS).to_string() };
    }
    match r.below(OPS.len() + 4) {
        i if i < OPS.len() => {
            let (a, b) = (expr(r, vars, depth - 1), expr(r, vars, depth - 1));
            match OPS[i] {
                op @ ("<<" | ">>") => format!("({a} {op} (({b}) & 7))"),
                op @ ("/" | "%") => format!("({a} {op} ((({b}) & 15) + 1))"),
                op => format!("({a} {op} {b})"),
            }
        }
        i if i == OPS.len() => format!("(({}){})", r.pick(&TYPES[..TYPES.len() - 1]), expr(r, vars, depth - 1)),
        i if i == OPS.len() + 1 => format!("(-{})", expr(r, vars, depth - 1)),
        i if i == OPS.len() + 2 => format!("(~{})", expr(r, vars, depth - 1)),
        _ => format!("({} ? {} : {})", expr(r, vars, depth - 1), expr(r, vars, depth - 1), expr(r, vars, depth - 1)),
    }
}

fn function(r: &mut Rng, name: &str) -> String {
    let params: Vec<String> = (0..3).map(|j| format!("{} p{j}", r.pick(TYPES))).collect();
    let ret = r.pick(&TYPES[..TYPES.len() - 1]);
    let vars = ["p0", "p1", "p2"];
    let with_r = ["p0", "p1", "p2", "r"];
    format!(
        "{ret} {name}({})\n{{\n    {ret} r = ({ret}){};\n    if ({})\n        r = ({ret})(r + {});\n    return r;\n}}\n",
        params.join(", "),
        expr(r, &vars, 3),
        expr(r, &with_r, 2),
        expr(r, &with_r, 2)
    )
}

fn check(dir: &Path, file: &Path, function: &str) {
    let out = dir.join(function);
    let o = Command::new(env!("CARGO_BIN_EXE_pathwise"))
        // Signed overflow wraps here: the generator does not keep operations
        // defined (constant ones included, which gcc folds or turns into
        // unconditional traps); the overflow checks have their own tests
        // (tests/c/semantics.c, tests/c/errors.c).
        .args(["gen", file.to_str().unwrap(), "--function", function, "--k", "2", "--no-overflow-check"])
        .args(["--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{function}: {}", String::from_utf8_lossy(&o.stderr));
    let opts = ReplayOptions {
        dir: out,
        include_dirs: vec![],
        defines: vec![],
        extra_args: vec![],
        run_timeout: std::time::Duration::from_secs(60),
    };
    let outcome = replay(&opts).unwrap();
    let source = std::fs::read_to_string(file).unwrap();
    assert!(outcome.failed == 0 && outcome.exit_ok, "{function}: {:?}\n{source}", outcome.failures);
    assert!(outcome.disagreements.is_empty(), "{function}: {:?}\n{source}", outcome.disagreements);
}

#[test]
fn random_integer_programs_agree_with_gcc() {
    let tmp = tempfile::tempdir().unwrap();
    for seed in 1..=12u64 {
        let mut r = Rng(seed);
        let names: Vec<String> = (0..6).map(|i| format!("f{i}")).collect();
        let text: String = names.iter().map(|n| function(&mut r, n)).collect::<Vec<_>>().join("\n");
        let file = tmp.path().join(format!("random{seed}.c"));
        std::fs::write(&file, &text).unwrap();
        for name in &names {
            check(tmp.path(), &file, name);
        }
    }
}

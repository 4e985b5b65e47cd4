//! End to end through the binary: `gen` on a small C file (front end, engine,
//! Z3, emitters), then `replay` of the result with gcc and gcov.

use std::path::Path;
use std::process::{Command, Output};

const SOURCE: &str = "\
#include \"pathwise.h\"
int seen;
static int sign(int v) {
    if (v < 0)
        return -1;
    return v > 0;
}
int count_pos(const int *t, int n) {
    int c = 0;
    assume(n >= 0 && n <= 4);
    pathwise_array_len(t, n);
    for (int i = 0; i < n; i++)
        if (sign(t[i]) > 0)
            c++;
    seen = c;
    return c;
}
";

fn pathwise(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pathwise")).args(args).current_dir(dir).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn gen_then_replay() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("src")).unwrap();
    std::fs::write(tmp.path().join("src/count.c"), SOURCE).unwrap();
    let o =
        pathwise(tmp.path(), &["gen", "src/count.c", "--function", "count_pos", "--k", "2", "--out", "out", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    // --json: the suite on stdout, the summary on stderr.
    let suite: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(suite["function"], "count_pos");
    assert_eq!(suite["stop"], "complete");
    let tests = suite["tests"].as_array().unwrap().len();
    assert!(tests > 3, "{tests} tests");
    assert!(text(&o.stderr).contains("stop:"), "{}", text(&o.stderr));
    for f in ["count_pos_tests.c", "count_pos_tests.json", "pathwise.h"] {
        assert!(tmp.path().join("out").join(f).is_file(), "{f} missing");
    }
    let c = std::fs::read_to_string(tmp.path().join("out/count_pos_tests.c")).unwrap();
    assert!(c.contains("#include \"../src/count.c\""), "relative include expected");

    let o = pathwise(tmp.path(), &["replay", "out"]);
    let stdout = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{stdout}{}", text(&o.stderr));
    assert!(stdout.contains(&format!("{tests} passed, 0 failed")), "{stdout}");
    assert!(stdout.contains("coverage agrees"), "{stdout}");
}

#[test]
fn unknown_and_unsupported_functions_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("a.c"), "int f(int x) { return x; }\nint h(long double d) { return d > 0; }\n").unwrap();
    let o = pathwise(tmp.path(), &["gen", "a.c", "--function", "g"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("error: function `g` not found; functions defined: f"), "{}", text(&o.stderr));
    let o = pathwise(tmp.path(), &["gen", "a.c", "--function", "h"]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.starts_with("a.c:2:") && err.contains(": error: "), "{err}");
    std::fs::write(tmp.path().join("b.c"), "int f(int x) { return x +; }\n").unwrap();
    let o = pathwise(tmp.path(), &["gen", "b.c", "--function", "f"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).starts_with("b.c:1:"), "{}", text(&o.stderr));
}

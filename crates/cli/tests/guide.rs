//! The user guide (`docs/src/*.md`) and README.md show commands that work.
//!
//! Every ```` ```console ```` block of the guide and of the README is run:
//!
//! - a line `$ pathwise ARGS` is a command, run with the built binary from
//!   the repository's root; an argument `out` or `out/...` is rewritten into
//!   a temporary directory of the file's own (the commands of one file
//!   share it, in order, so a `replay` finds what a `gen` wrote before it);
//! - the line `# exit N` after a command is the exit code it must end with
//!   (required for every command);
//! - a line `> TEXT` after a command is output the command must print:
//!   TEXT must be part of a line of its stdout or stderr, runs of white space
//!   counting as one space (`> tests: 17` matches the summary's
//!   `tests:               17`);
//! - any other line is illustrative output, not checked.
//!
//! Every chapter listed in `docs/src/SUMMARY.md` exists and runs at least one
//! command. No user-facing text names a paper by its seed number, and no line
//! of any `--help` is 100 characters or longer.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// One command of a console block, with what it must do.
#[derive(Debug)]
struct Step {
    line: usize,
    args: Vec<String>,
    exit: Option<i32>,
    expect: Vec<String>,
}

/// Splits a command line as a POSIX shell would for the quoting the guide
/// uses: single and double quotes, backslash outside single quotes.
fn split(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => word.get_or_insert_with(String::new).extend(chars.next()),
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(quote.is_none(), "unterminated quote in `{line}`");
    words.extend(word);
    words
}

/// The console blocks of a Markdown text, each as its commands.
fn blocks(text: &str, file: &str) -> Vec<Vec<Step>> {
    let mut out = Vec::new();
    let mut current: Option<Vec<Step>> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        match &mut current {
            None if trimmed == "```console" => current = Some(Vec::new()),
            None => {}
            Some(_) if trimmed == "```" => out.push(current.take().unwrap()),
            Some(steps) => {
                if let Some(cmd) = trimmed.strip_prefix("$ ") {
                    let args = split(cmd);
                    assert_eq!(
                        args.first().map(String::as_str),
                        Some("pathwise"),
                        "{file}:{}: not a pathwise command",
                        i + 1
                    );
                    steps.push(Step { line: i + 1, args: args[1..].to_vec(), exit: None, expect: Vec::new() });
                } else if let Some(code) = trimmed.strip_prefix("# exit ") {
                    let step =
                        steps.last_mut().unwrap_or_else(|| panic!("{file}:{}: `# exit` before a command", i + 1));
                    step.exit = Some(code.trim().parse().unwrap_or_else(|_| panic!("{file}:{}: bad exit code", i + 1)));
                } else if let Some(expect) = trimmed.strip_prefix("> ") {
                    let step = steps.last_mut().unwrap_or_else(|| panic!("{file}:{}: `> ` before a command", i + 1));
                    step.expect.push(expect.to_string());
                }
            }
        }
    }
    assert!(current.is_none(), "{file}: unterminated console block");
    out
}

/// `text` with each run of white space made one space.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Runs one block's commands with `out` in `tmp`; the failures, described.
fn run_block(file: &str, steps: &[Step], tmp: &Path) -> Vec<String> {
    let mut failures = Vec::new();
    for step in steps {
        let args: Vec<String> = step
            .args
            .iter()
            .map(|a| if a == "out" || a.starts_with("out/") { tmp.join(a).display().to_string() } else { a.clone() })
            .collect();
        let out = Command::new(env!("CARGO_BIN_EXE_pathwise")).args(&args).current_dir(repo()).output().unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        let at = format!("{file}:{}: pathwise {}", step.line, step.args.join(" "));
        match step.exit {
            None => failures.push(format!("{at}: no `# exit N` line")),
            Some(code) if out.status.code() != Some(code) => {
                failures.push(format!("{at}: exit {:?}, the guide says {code}\n{text}", out.status.code()))
            }
            Some(_) => {}
        }
        for expect in &step.expect {
            if !text.lines().any(|l| squeeze(l).contains(&squeeze(expect))) {
                failures.push(format!("{at}: output lacks `{expect}`\n{text}"));
            }
        }
    }
    failures
}

/// The chapters SUMMARY.md links to, as file names under docs/src.
fn chapters() -> Vec<String> {
    let summary = std::fs::read_to_string(repo().join("docs/src/SUMMARY.md")).unwrap();
    summary
        .lines()
        .filter_map(|l| l.split_once("](").map(|(_, rest)| rest.split(')').next().unwrap().to_string()))
        .filter(|target| target.ends_with(".md"))
        .collect()
}

#[test]
fn every_chapter_exists_and_every_markdown_file_is_a_chapter() {
    let listed = chapters();
    assert!(listed.len() >= 10, "{listed:?}");
    for chapter in &listed {
        assert!(repo().join("docs/src").join(chapter).is_file(), "SUMMARY.md lists a missing {chapter}");
    }
    for entry in std::fs::read_dir(repo().join("docs/src")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") && name != "SUMMARY.md" {
            assert!(listed.contains(&name), "docs/src/{name} is not in SUMMARY.md");
        }
    }
    assert!(repo().join("docs/book.toml").is_file());
}

#[test]
fn every_command_of_the_guide_and_the_readme_works() {
    let started = std::time::Instant::now();
    let mut files: Vec<(String, String)> = chapters()
        .into_iter()
        .map(|c| (format!("docs/src/{c}"), std::fs::read_to_string(repo().join("docs/src").join(&c)).unwrap()))
        .collect();
    files.push(("README.md".into(), std::fs::read_to_string(repo().join("README.md")).unwrap()));
    let mut failures = Vec::new();
    let mut commands = 0;
    for (file, text) in &files {
        let blocks = blocks(text, file);
        let n: usize = blocks.iter().map(Vec::len).sum();
        if file.starts_with("docs/src/") && n == 0 {
            failures.push(format!("{file}: no worked example (a ```console block with a `$ pathwise` line)"));
        }
        commands += n;
        let tmp = tempfile::tempdir().unwrap();
        for block in &blocks {
            failures.extend(run_block(file, block, tmp.path()));
        }
    }
    eprintln!("{commands} commands in {:.1} s", started.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "{} failure(s):\n\n{}", failures.len(), failures.join("\n\n"));
}

/// The subcommands `pathwise --help` lists.
fn subcommands() -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_pathwise")).arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let section =
        text.split("Commands:").nth(1).expect("a Commands: section").split("\n\n").next().unwrap().to_string();
    section
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect()
}

fn help_texts() -> Vec<(String, String)> {
    let mut calls: Vec<Vec<String>> = vec![vec!["--help".into()], vec!["-h".into()]];
    // `pathwise help` is clap's; its own help is not ours to shorten.
    for sub in subcommands().into_iter().filter(|s| s != "help") {
        calls.push(vec![sub.clone(), "--help".into()]);
        calls.push(vec![sub, "-h".into()]);
    }
    calls
        .into_iter()
        .map(|args| {
            let out = Command::new(env!("CARGO_BIN_EXE_pathwise")).args(&args).output().unwrap();
            assert!(out.status.success(), "pathwise {args:?}");
            (args.join(" "), String::from_utf8_lossy(&out.stdout).into_owned())
        })
        .collect()
}

#[test]
fn help_lines_are_shorter_than_100_characters() {
    let subs = subcommands();
    for expected in ["gen", "project", "merge", "replay", "testcomp", "paths"] {
        assert!(subs.iter().any(|s| s == expected), "{expected} not in {subs:?}");
    }
    let mut long = Vec::new();
    for (args, text) in help_texts() {
        for line in text.lines().filter(|l| l.chars().count() >= 100) {
            long.push(format!("pathwise {args}: ({} chars) {line}", line.chars().count()));
        }
    }
    assert!(long.is_empty(), "{} help line(s) of 100 characters or more:\n{}", long.len(), long.join("\n"));
}

#[test]
fn no_user_facing_text_names_a_paper_by_its_seed_number() {
    let mut texts: Vec<(String, String)> = help_texts();
    texts.push(("README.md".into(), std::fs::read_to_string(repo().join("README.md")).unwrap()));
    for entry in std::fs::read_dir(repo().join("docs/src")).unwrap() {
        let path = entry.unwrap().path();
        texts.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
    }
    for (what, text) in texts {
        let lower = text.to_lowercase();
        for n in 0..10 {
            assert!(!lower.contains(&format!("seed 00{n}")), "{what} says `seed 00{n}`: name the paper");
        }
    }
}

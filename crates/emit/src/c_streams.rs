//! Files in the C tests: a `FILE *` input reads a temporary file of the
//! content the test chose (`pathwise_stream`), the standard input is such
//! a file on descriptor 0 (`pathwise_stdin`), and the standard output of
//! the call goes to a temporary file on descriptor 1, whose bytes are then
//! compared with those the generator observed (`pathwise_stdout_capture`,
//! `pathwise_stdout_check`). Each test runs in a process of its own (the
//! runner forks), so moving descriptors affects that test only.

use std::fmt::Write as _;

use pathwise_suite::InputValue;

/// Which of the helpers a test file uses.
#[derive(Default)]
pub(crate) struct StreamsUsed {
    /// `pathwise_stream` (`FILE *` inputs).
    pub stream: bool,
    /// `pathwise_stdin` (the standard input).
    pub stdin: bool,
    /// `pathwise_stdout_capture` and `pathwise_stdout_check`.
    pub stdout: bool,
    /// `pathwise_stdout_at_exit` (with those).
    pub stdout_at_exit: bool,
}

/// A `FILE *` input: a temporary file holding the content the test
/// chose (`pathwise_stream`), read from its start.
pub(crate) fn write_stream_input(out: &mut String, used: &mut StreamsUsed, local: &str, value: Option<&InputValue>) {
    used.stream = true;
    let bytes: Vec<u8> = match value {
        Some(InputValue::Array(vs)) => vs.iter().map(|&v| v as u8).collect(),
        _ => Vec::new(),
    };
    write_content(out, &format!("pathwise_in_{local}"), &bytes, &|content, size| {
        format!("FILE *{local} = pathwise_stream({content}, {size});")
    });
}

/// The standard input the test chose: fd 0 reads a temporary file of it
/// (`pathwise_stdin`), from its start.
pub(crate) fn write_stdin(out: &mut String, used: &mut StreamsUsed, bytes: &[u8]) {
    used.stdin = true;
    write_content(out, "pathwise_in_stdin", bytes, &|content, size| format!("pathwise_stdin({content}, {size});"));
}

/// Before the call: its standard output goes to a temporary file.
pub(crate) fn write_stdout_capture(out: &mut String, used: &mut StreamsUsed) {
    used.stdout = true;
    out.push_str("    pathwise_stdout_capture();\n");
}

/// Right after the call, before any check prints: the standard output
/// back, and the call's compared with `bytes`.
pub(crate) fn write_stdout_check(out: &mut String, id: usize, bytes: &[u8]) {
    write_content(out, "pathwise_out", bytes, &|content, size| {
        format!("pathwise_failed |= pathwise_stdout_check({id}, {content}, {size});")
    });
}

/// Before a call that ends in `exit`: its standard output goes to a
/// temporary file, compared with `bytes` when `exit` runs the handlers
/// registered with `atexit` (before it flushes and closes the streams: the
/// check flushes `stdout` itself). A difference ends the process with
/// `PATHWISE_CALLS_FAILED`, which fails the test.
pub(crate) fn write_stdout_at_exit(out: &mut String, used: &mut StreamsUsed, id: usize, bytes: &[u8]) {
    used.stdout = true;
    used.stdout_at_exit = true;
    write_content(out, "pathwise_out", bytes, &|content, size| {
        format!("pathwise_stdout_at_exit({id}, {content}, {size});")
    });
}

/// The statements that pass `bytes`: a constant named `content` and the
/// statement `make(content, size)` (an empty content is `""`, 0).
fn write_content(out: &mut String, content: &str, bytes: &[u8], make: &dyn Fn(&str, &str) -> String) {
    if bytes.is_empty() {
        let what = if content == "pathwise_out" { "no output" } else { "an empty file" };
        let _ = writeln!(out, "    {} /* {what} */", make("\"\"", "0"));
        return;
    }
    // A literal keeps its terminator (gcc's `-Wextra` reports one that
    // an exact-size array drops), which the size leaves out.
    if bytes.len() < 1000 {
        let literal = crate::literal::c_string_literal(bytes);
        let _ = writeln!(out, "    static const char {content}[] = {literal};");
        let _ = writeln!(out, "    {}", make(content, &format!("sizeof {content} - 1")));
    } else {
        let items: Vec<String> = bytes.iter().map(u8::to_string).collect();
        let _ = writeln!(out, "    static const unsigned char {content}[{}] = {{{}}};", bytes.len(), items.join(", "));
        let _ = writeln!(out, "    {}", make(content, &format!("sizeof {content}")));
    }
}

/// The helpers the file uses (after the harness's output declarations).
pub(crate) fn write_helpers(out: &mut String, used: &StreamsUsed) {
    if used.stream || used.stdin {
        out.push_str(STREAM_HELPER);
    }
    if used.stdin || used.stdout {
        out.push_str(DESCRIPTORS);
    }
    if used.stdin {
        out.push_str(STDIN_HELPER);
    }
    if used.stdout {
        out.push_str(STDOUT_HELPER);
    }
    if used.stdout_at_exit {
        out.push_str(STDOUT_AT_EXIT_HELPER);
    }
}

/// `pathwise_stream(content, size)`: a temporary file holding `size`
/// bytes, positioned at its start, for a `FILE *` input. Never closed: the
/// code under test may close it, and the test's process ends anyway.
const STREAM_HELPER: &str = r#"static FILE *pathwise_stream(const void *content, unsigned long size)
{
    FILE *f = tmpfile();
    if (f == NULL || fwrite(content, 1, size, f) != size || fseek(f, 0L, SEEK_SET) != 0) {
        perror("pathwise: a temporary file for an input stream");
        __builtin_abort();
    }
    return f;
}

"#;

/// POSIX's descriptor calls, declared under harness names as the runner's
/// calls are.
const DESCRIPTORS: &str = r#"extern int pathwise_fileno(FILE *stream) __asm__("fileno");
extern int pathwise_dup(int fd) __asm__("dup");
extern int pathwise_dup2(int fd, int to) __asm__("dup2");

"#;

/// `pathwise_stdin(content, size)`: the standard input reads `size`
/// bytes from its start.
const STDIN_HELPER: &str = r#"static void pathwise_stdin(const void *content, unsigned long size)
{
    FILE *f = pathwise_stream(content, size);
    if (pathwise_dup2(pathwise_fileno(f), 0) < 0 || fseek(stdin, 0L, SEEK_SET) != 0) {
        perror("pathwise: the standard input");
        __builtin_abort();
    }
    clearerr(stdin);
    fclose(f);
}

"#;

/// `pathwise_stdout_capture()` sends descriptor 1 to a temporary file;
/// `pathwise_stdout_check(test, expected, size)` flushes `stdout`, puts
/// descriptor 1 back and compares the file with the `size` bytes expected
/// (1 and a message at the first difference).
const STDOUT_HELPER: &str = r#"static FILE *pathwise_stdout_file;
static int pathwise_stdout_saved = -1;

static void pathwise_stdout_capture(void)
{
    pathwise_fflush(stdout);
    pathwise_stdout_file = tmpfile();
    pathwise_stdout_saved = pathwise_dup(1);
    if (pathwise_stdout_file == NULL || pathwise_stdout_saved < 0
        || pathwise_dup2(pathwise_fileno(pathwise_stdout_file), 1) < 0) {
        perror("pathwise: capturing the standard output");
        __builtin_abort();
    }
}

static int pathwise_stdout_check(int test, const char *expected, unsigned long size)
{
    unsigned long i;
    int c = EOF;
    pathwise_fflush(stdout);
    if (pathwise_dup2(pathwise_stdout_saved, 1) < 0 || fseek(pathwise_stdout_file, 0L, SEEK_SET) != 0) {
        perror("pathwise: the captured standard output");
        __builtin_abort();
    }
    for (i = 0; i < size; i++) {
        c = getc(pathwise_stdout_file);
        if (c != (unsigned char)expected[i])
            break;
    }
    if (i == size && (c = getc(pathwise_stdout_file)) == EOF)
        return 0;
    pathwise_printf("test %d: standard output differs at byte %lu: expected %d, got %d (-1: the end)\n", test, i,
                    i < size ? (unsigned char)expected[i] : -1, c);
    return 1;
}

"#;

/// `pathwise_stdout_at_exit(test, expected, size)` captures the standard
/// output and registers its check for when the code calls `exit`. The
/// handler runs before gcov's (registered earlier), so a failing check
/// writes the counters itself before it ends the process.
const STDOUT_AT_EXIT_HELPER: &str = r#"extern int pathwise_atexit(void (*handler)(void)) __asm__("atexit");
extern void pathwise_end_now(int status) __asm__("_exit");
#ifdef PATHWISE_GCOV
extern void __gcov_dump(void);
#endif
static int pathwise_exit_test;
static const char *pathwise_exit_expected;
static unsigned long pathwise_exit_size;

static void pathwise_stdout_exit_check(void)
{
    if (pathwise_stdout_check(pathwise_exit_test, pathwise_exit_expected, pathwise_exit_size)) {
        pathwise_fflush(stdout);
#ifdef PATHWISE_GCOV
        __gcov_dump();
#endif
        pathwise_end_now(PATHWISE_CALLS_FAILED);
    }
}

static void pathwise_stdout_at_exit(int test, const char *expected, unsigned long size)
{
    pathwise_exit_test = test;
    pathwise_exit_expected = expected;
    pathwise_exit_size = size;
    pathwise_stdout_capture();
    if (pathwise_atexit(pathwise_stdout_exit_check) != 0) {
        perror("pathwise: checking the standard output at exit");
        __builtin_abort();
    }
}

"#;

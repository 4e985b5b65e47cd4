//! Test-Comp test suites: the exchange format 1.1 read by TestCov.
//!
//! A suite is a directory with `metadata.xml` and one `testcase-N.xml` per
//! test (N = 1, 2, ...), each holding the values returned by the program's
//! `__VERIFIER_nondet_*` calls in call order, plus a zip of them for the
//! validator (`testcov --test-suite test-suite.zip`).
//!
//! [`TestCompWriter`] writes `metadata.xml` when it is created and each test
//! file as soon as it is added, through a temporary name and a rename: after
//! each call the directory holds only complete files, so a crash or a kill
//! loses no test that was added (no fsync: a power failure may). [`finish`]
//! (or [`zip_suite`] on a directory left by a crashed run) writes
//! `DIR/test-suite.zip`, whose entries are `test-suite/metadata.xml`, then
//! `test-suite/testcase-1.xml`, `test-suite/testcase-2.xml`, ... in test
//! order: the layout of the suites Test-Comp validates (TestCov itself finds
//! files by base name at any depth and runs them in zip order).
//!
//! TestCov skips, without any error and reporting success, a test file whose
//! first line does not start with `<?xml ` or whose second line does not
//! start with `<!DOCTYPE testcase `; the files written here always start with
//! the XML declaration and the format's DOCTYPE on its own second line.
//!
//! Values are strings chosen by the caller; [`input_value`] spells an integer
//! of a C type as TestCov's harness parses it (decimal, `sscanf` with the
//! type's conversion: `-5`, `200` for an `unsigned char`, `18446744073709551615`,
//! `_Bool` as 0 or 1, characters as numbers).
//!
//! [`finish`]: TestCompWriter::finish

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use pathwise_ir::IntTy;
use sha2::{Digest, Sha256};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use crate::literal::normalize;

/// The XML declaration every file starts with (TestCov requires `<?xml `).
const XML_DECL: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>"#;
/// DOCTYPE of a test case, format 1.1 (TestCov requires `<!DOCTYPE testcase `).
pub const TESTCASE_DOCTYPE: &str = r#"<!DOCTYPE testcase PUBLIC "+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN" "https://sosy-lab.org/test-format/testcase-1.1.dtd">"#;
/// DOCTYPE of the metadata, format 1.1.
pub const METADATA_DOCTYPE: &str = r#"<!DOCTYPE test-metadata PUBLIC "+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN" "https://sosy-lab.org/test-format/test-metadata-1.1.dtd">"#;
/// The folder the zip's entries live in.
pub const ZIP_FOLDER: &str = "test-suite";
/// The zip's file name, inside the suite directory.
pub const ZIP_NAME: &str = "test-suite.zip";
/// The property text of `coverage-branches.prp`.
pub const SPEC_BRANCHES: &str = "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )";
/// The property text of `coverage-error-call.prp`.
pub const SPEC_ERROR_CALL: &str = "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )";

/// The data model a suite was generated for (`<architecture>`; TestCov
/// compiles with `-m32` unless run with `-64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Architecture {
    /// ILP32: `int`, `long` and pointers have 32 bits.
    Bits32,
    /// LP64: `long` and pointers have 64 bits.
    Bits64,
}

impl Architecture {
    /// The metadata spelling: `32bit` or `64bit`.
    pub fn as_str(self) -> &'static str {
        match self {
            Architecture::Bits32 => "32bit",
            Architecture::Bits64 => "64bit",
        }
    }
}

/// The fields of `metadata.xml`, written as given (text is XML-escaped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestCompMetadata {
    /// The program's path as the user gave it (`<programfile>`).
    pub program_file: String,
    /// Lower-case hex SHA-256 of the program file's bytes (`<programhash>`).
    pub program_hash: String,
    /// `Pathwise <version>` (`<producer>`).
    pub producer: String,
    /// The property file's content, e.g. [`SPEC_BRANCHES`]; surrounding
    /// white space is dropped when written (`<specification>`).
    pub specification: String,
    /// `main` (`<entryfunction>`).
    pub entry_function: String,
    /// `<architecture>`.
    pub architecture: Architecture,
    /// ISO 8601, e.g. `2024-05-01T12:00:00Z` (`<creationtime>`).
    pub creation_time: String,
}

impl TestCompMetadata {
    /// Metadata for `program` (read here to hash it), with `producer`
    /// `Pathwise <version of this crate>`, entry function `main` and the
    /// current time.
    pub fn for_program(program: &Path, specification: &str, architecture: Architecture) -> io::Result<Self> {
        let bytes = fs::read(program)?;
        Ok(TestCompMetadata {
            program_file: program.display().to_string(),
            program_hash: sha256_hex(&bytes),
            producer: format!("Pathwise {}", env!("CARGO_PKG_VERSION")),
            specification: specification.trim().to_string(),
            entry_function: "main".to_string(),
            architecture,
            creation_time: iso8601_utc(SystemTime::now()),
        })
    }
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// `t` in UTC as ISO 8601 with seconds: `YYYY-MM-DDThh:mm:ssZ` (times before
/// 1970 print as the epoch).
pub fn iso8601_utc(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// Proleptic Gregorian (year, month, day) of a day count since 1970-01-01
/// (H. Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A value of C type `ty` as a test input: the decimal number C denotes
/// after wrapping `value` to the type (`_Bool` as 0 or 1, `char` as a number);
/// a floating value exactly, as TestCov's harness reads it with `scanf`'s
/// `%f`/`%lf` (`strtod`: `0x1.8p+1`, `-inf`, `nan`; a NaN's payload is
/// left out).
pub fn input_value(value: i128, ty: IntTy) -> String {
    if ty.ty.is_float() {
        let text = match ty.ty {
            pathwise_ir::Type::F80 => crate::literal::long_double_text(crate::literal::x87_value(value)),
            _ => crate::literal::float_text(crate::literal::float_bits(value, ty.ty), ty.ty),
        };
        // TestCov's harness reads `%f%c%c%c%c` and rejects what follows the
        // number: `nan(0x200000)` stops at `(` and aborts the test. A NaN
        // input goes without its payload (the program can only tell NaNs
        // apart by their bits, which `scanf` cannot set anyway).
        return match text.split_once("nan(") {
            Some((sign, _)) => format!("{sign}nan"),
            None => text,
        };
    }
    normalize(value, ty).to_string()
}

/// `text` with `&`, `<` and `>` replaced by entities (element content only;
/// the writer puts no caller text into attributes).
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
    out
}

/// The content of `metadata.xml`.
pub fn metadata_xml(meta: &TestCompMetadata) -> String {
    let fields = [
        ("sourcecodelang", "C"),
        ("producer", meta.producer.as_str()),
        ("specification", meta.specification.trim()),
        ("programfile", meta.program_file.as_str()),
        ("programhash", meta.program_hash.as_str()),
        ("entryfunction", meta.entry_function.as_str()),
        ("architecture", meta.architecture.as_str()),
        ("creationtime", meta.creation_time.as_str()),
    ];
    let mut s = format!("{XML_DECL}\n{METADATA_DOCTYPE}\n<test-metadata>\n");
    for (tag, value) in fields {
        s.push_str(&format!("  <{tag}>{}</{tag}>\n", xml_escape(value)));
    }
    s.push_str("</test-metadata>\n");
    s
}

/// The content of one test-case file: one `<input>` per value, in order;
/// `coversError="true"` marks a test that reaches the error call.
pub fn testcase_xml(inputs: &[String], covers_error: bool) -> String {
    let open = if covers_error { r#"<testcase coversError="true">"# } else { "<testcase>" };
    let mut s = format!("{XML_DECL}\n{TESTCASE_DOCTYPE}\n{open}\n");
    for v in inputs {
        s.push_str(&format!("  <input>{}</input>\n", xml_escape(v)));
    }
    s.push_str("</testcase>\n");
    s
}

/// Writes a Test-Comp suite into a directory, one file per call.
#[derive(Debug)]
pub struct TestCompWriter {
    dir: PathBuf,
    /// File names written so far, `metadata.xml` first.
    files: Vec<String>,
}

impl TestCompWriter {
    /// Create `dir` (and its parents) if needed and write `dir/metadata.xml`.
    /// Test files already in `dir` from an earlier run are left alone but
    /// are overwritten as numbers are reused, and are not zipped by
    /// [`finish`](Self::finish).
    pub fn create(dir: impl Into<PathBuf>, meta: &TestCompMetadata) -> io::Result<Self> {
        let dir = dir.into();
        fs::create_dir_all(&dir)?;
        write_complete(&dir, "metadata.xml", &metadata_xml(meta))?;
        let files = vec!["metadata.xml".to_string()];
        write_zip(&dir, &files)?;
        Ok(TestCompWriter { dir, files })
    }

    /// The suite directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Number of test files written.
    pub fn tests_written(&self) -> usize {
        self.files.len() - 1
    }

    /// Write the next test, `testcase-N.xml` (N counts from 1), complete on
    /// disk when this returns, and the zip anew with it: a run killed at
    /// any moment (a validator's hard time limit) leaves a valid suite of
    /// every test found (the zip is replaced by a rename, never partial).
    /// Returns the test's path.
    pub fn add_test(&mut self, inputs: &[String], covers_error: bool) -> io::Result<PathBuf> {
        let name = format!("testcase-{}.xml", self.tests_written() + 1);
        let path = write_complete(&self.dir, &name, &testcase_xml(inputs, covers_error))?;
        self.files.push(name);
        write_zip(&self.dir, &self.files)?;
        Ok(path)
    }

    /// Write `DIR/test-suite.zip` holding the files written by this writer
    /// (entries `test-suite/metadata.xml`, `test-suite/testcase-1.xml`, ...);
    /// returns its path.
    pub fn finish(self) -> io::Result<PathBuf> {
        write_zip(&self.dir, &self.files)
    }
}

/// Zip a suite directory as [`TestCompWriter::finish`] does, for a directory
/// whose writer did not finish (a crashed run): `metadata.xml` and every
/// `testcase-N.xml` in it, by increasing N. Errors if `metadata.xml` is
/// missing.
pub fn zip_suite(dir: &Path) -> io::Result<PathBuf> {
    if !dir.join("metadata.xml").is_file() {
        return Err(io::Error::new(io::ErrorKind::NotFound, format!("no metadata.xml in {}", dir.display())));
    }
    let mut tests: Vec<(u64, String)> = Vec::new();
    for entry in fs::read_dir(dir)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        let number = name.strip_prefix("testcase-").and_then(|r| r.strip_suffix(".xml")).and_then(|n| n.parse().ok());
        if let Some(n) = number {
            tests.push((n, name));
        }
    }
    tests.sort();
    let mut files = vec!["metadata.xml".to_string()];
    files.extend(tests.into_iter().map(|(_, name)| name));
    write_zip(dir, &files)
}

/// Write `dir/name` through a temporary file and a rename, so that `name`
/// never exists with partial content.
fn write_complete(dir: &Path, name: &str, content: &str) -> io::Result<PathBuf> {
    let path = dir.join(name);
    let tmp = dir.join(format!(".{name}.tmp"));
    let mut f = fs::File::create(&tmp)?;
    f.write_all(content.as_bytes())?;
    f.flush()?;
    drop(f);
    fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Zip `files` of `dir` under [`ZIP_FOLDER`] into `dir/`[`ZIP_NAME`], in the
/// order given (deflated, fixed 1980-01-01 timestamps: the zip's bytes
/// depend only on the files' contents).
fn write_zip(dir: &Path, files: &[String]) -> io::Result<PathBuf> {
    let zip_path = dir.join(ZIP_NAME);
    let tmp = dir.join(format!(".{ZIP_NAME}.tmp"));
    let mut zip = ZipWriter::new(fs::File::create(&tmp)?);
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default())
        .unix_permissions(0o644);
    for name in files {
        let content = fs::read(dir.join(name))?;
        zip.start_file(format!("{ZIP_FOLDER}/{name}"), options).map_err(io::Error::other)?;
        zip.write_all(&content)?;
    }
    zip.finish().map_err(io::Error::other)?.flush()?;
    fs::rename(&tmp, &zip_path)?;
    Ok(zip_path)
}

#[cfg(test)]
#[path = "testcomp_tests.rs"]
mod tests;

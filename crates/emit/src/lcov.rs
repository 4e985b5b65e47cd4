//! lcov tracefiles (`pathwise replay DIR --lcov FILE`): the coverage gcov
//! measured when the generated tests ran, in the text format that lcov's
//! `genhtml`, and the coverage services that read lcov, take.
//!
//! One record per source file (`SF:`), with its functions (`FN:`,
//! `FNDA:`), branch sides (`BRDA:`) and lines (`DA:`), and their totals.
//! The suites of a directory are built and run one by one, each measuring
//! the files it compiles: [`merge`] adds up the records of one file as
//! `lcov --add-tracefile` does (counts summed; lines, branches and
//! functions united), so a file tested through several functions appears
//! once.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The measured coverage of one source file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LcovFile {
    /// The file as the tracefile names it (`SF:`).
    pub path: String,
    /// Functions by name: (first line, times called).
    pub functions: BTreeMap<String, (u32, u64)>,
    /// Execution count of each line holding code.
    pub lines: BTreeMap<u32, u64>,
    /// The branch sides leaving each line, in gcov's order: how often
    /// each was taken, `None` when the line never ran (lcov's `-`).
    pub branches: BTreeMap<u32, Vec<Option<u64>>>,
}

/// One record per path: records of the same file are added up.
pub fn merge(files: impl IntoIterator<Item = LcovFile>) -> Vec<LcovFile> {
    let mut by_path: BTreeMap<String, LcovFile> = BTreeMap::new();
    for file in files {
        let Some(into) = by_path.get_mut(&file.path) else {
            by_path.insert(file.path.clone(), file);
            continue;
        };
        for (name, (line, count)) in file.functions {
            into.functions.entry(name).or_insert((line, 0)).1 += count;
        }
        for (line, count) in file.lines {
            *into.lines.entry(line).or_insert(0) += count;
        }
        // Two builds of one file may differ in their branches (the
        // sanitizer checks `replay` enables depend on the suite's error
        // tests): sides are matched by their index on the line.
        for (line, sides) in file.branches {
            let into = into.branches.entry(line).or_default();
            if into.len() < sides.len() {
                into.resize(sides.len(), None);
            }
            for (slot, side) in into.iter_mut().zip(sides) {
                *slot = match (*slot, side) {
                    (Some(a), Some(b)) => Some(a + b),
                    (a, b) => a.or(b),
                };
            }
        }
    }
    by_path.into_values().collect()
}

/// The tracefile of `files`, in their order (use [`merge`] first: it sorts
/// them by path). `test_name` is the `TN:` of every record (letters,
/// digits and `_` only, as lcov requires; other characters become `_`).
pub fn write_lcov(test_name: &str, files: &[LcovFile]) -> String {
    let tn: String = test_name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    let mut out = String::new();
    for f in files {
        let _ = writeln!(out, "TN:{tn}\nSF:{}", f.path);
        let mut functions: Vec<(&String, &(u32, u64))> = f.functions.iter().collect();
        functions.sort_by_key(|(name, (line, _))| (*line, *name));
        for (name, (line, _)) in &functions {
            let _ = writeln!(out, "FN:{line},{name}");
        }
        for (name, (_, count)) in &functions {
            let _ = writeln!(out, "FNDA:{count},{name}");
        }
        let hit = functions.iter().filter(|(_, (_, c))| *c > 0).count();
        let _ = writeln!(out, "FNF:{}\nFNH:{hit}", functions.len());
        let (mut found, mut taken) = (0, 0);
        for (line, sides) in &f.branches {
            for (i, side) in sides.iter().enumerate() {
                found += 1;
                taken += usize::from(side.is_some_and(|n| n > 0));
                let count = side.map_or("-".to_string(), |n| n.to_string());
                let _ = writeln!(out, "BRDA:{line},0,{i},{count}");
            }
        }
        let _ = writeln!(out, "BRF:{found}\nBRH:{taken}");
        for (line, count) in &f.lines {
            let _ = writeln!(out, "DA:{line},{count}");
        }
        let covered = f.lines.values().filter(|&&c| c > 0).count();
        let _ = writeln!(out, "LF:{}\nLH:{covered}\nend_of_record", f.lines.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, lines: &[(u32, u64)], branches: &[(u32, Vec<Option<u64>>)]) -> LcovFile {
        LcovFile {
            path: path.into(),
            functions: [("f".to_string(), (1, lines.first().map_or(0, |l| l.1)))].into_iter().collect(),
            lines: lines.iter().copied().collect(),
            branches: branches.iter().cloned().collect(),
        }
    }

    #[test]
    fn writes_records_with_totals() {
        let f = file("a.c", &[(1, 2), (2, 0), (3, 2)], &[(2, vec![Some(2), Some(0)]), (5, vec![None, None])]);
        let text = write_lcov("Merge tests", &[f]);
        assert_eq!(
            text,
            "TN:Merge_tests\nSF:a.c\nFN:1,f\nFNDA:2,f\nFNF:1\nFNH:1\nBRDA:2,0,0,2\nBRDA:2,0,1,0\nBRDA:5,0,0,-\n\
             BRDA:5,0,1,-\nBRF:4\nBRH:1\nDA:1,2\nDA:2,0\nDA:3,2\nLF:3\nLH:2\nend_of_record\n"
        );
    }

    #[test]
    fn merges_records_of_one_file() {
        let a = file("b.c", &[(1, 1), (2, 0)], &[(2, vec![None, None])]);
        let b = file("b.c", &[(1, 3), (4, 1)], &[(2, vec![Some(1), Some(0), Some(5)])]);
        let c = file("a.c", &[(7, 1)], &[]);
        let merged = merge([a, b, c]);
        assert_eq!(merged.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["a.c", "b.c"]);
        let b = &merged[1];
        assert_eq!(b.lines.iter().map(|(&l, &c)| (l, c)).collect::<Vec<_>>(), [(1, 4), (2, 0), (4, 1)]);
        assert_eq!(b.branches[&2], vec![Some(1), Some(0), Some(5)]);
        assert_eq!(b.functions["f"], (1, 4));
    }
}

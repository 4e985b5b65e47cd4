//! Frame checks in the C tests ([`crate::c_tests::write_c_tests_framed`]):
//! every byte of every input object is known before the call, and every
//! scalar the expected outputs do not mention must be unchanged after it.
//!
//! The ordinary tests zero their input objects and check only the cells
//! the engine saw, so a write the expected effect does not make goes
//! unnoticed where it stores what was there (0) or where no cell is
//! checked. With frames, each input object is filled with its own byte
//! (distinct between objects, so that a copy from one to another shows,
//! and from every value a known cell holds before or after the call, so
//! that a missing write shows), its known cells are stored over it, and
//! after the call every scalar that no known cell overlaps must still hold
//! the fill: a violation names the scalar as the test reaches it (`dst[1]`
//! through parameter `dst`), its object and byte range, and the bytes found.
//! Hand-written summaries' conformance tests use them (the summary's whole
//! effect, frame included, against the real function); padding between
//! scalars holds no value and is not checked.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use pathwise_suite::{HeapObject, HeapValue, InputValue, Outcome, TestCase, TestSuite};

use crate::c_heap::is_heap;
use crate::c_tests::Used;
use crate::describe::param_name;
use crate::heap::{cell_at, cell_lvalue, elem_size, elem_type};

/// The fill byte of each input object of `test`, by object id: distinct
/// bytes, none of them a value (repeated over 1, 2, 4 or 8 bytes) of a
/// known cell of the test's input or output heap.
pub(crate) fn fills(test: &TestCase) -> BTreeMap<u32, u8> {
    let forbidden: BTreeSet<u8> = test
        .heap_in
        .iter()
        .chain(&test.heap_out)
        .flat_map(|o| &o.cells)
        .flat_map(|c| match c.value {
            HeapValue::Int(v) => repeated_bytes(v),
            _ => Vec::new(),
        })
        .collect();
    // Bytes unlike small integers, characters and null pointers first.
    let mut candidates = (0xa1..=0xfe_u8).chain(0x01..=0xa0).filter(|b| !forbidden.contains(b)).cycle();
    let mut ids: Vec<u32> = test.heap_in.iter().map(|o| o.id).collect();
    ids.sort_unstable();
    ids.into_iter().map(|id| (id, candidates.next().unwrap_or(0xa5))).collect()
}

/// The bytes `b` such that `v` is `b` repeated over 1, 2, 4 or 8 bytes.
fn repeated_bytes(v: i128) -> Vec<u8> {
    let mut out = Vec::new();
    for width in [1u32, 2, 4, 8] {
        let bits = width * 8;
        let m = (v as u128) & ((1u128 << bits) - 1);
        let b = (m & 0xff) as u8;
        if (0..width).all(|i| (m >> (8 * i)) & 0xff == u128::from(b)) {
            out.push(b);
        }
    }
    out
}

/// The helper the frame checks call.
pub(crate) fn write_frame_helper(out: &mut String, used: &Used) {
    if !used.frame {
        return;
    }
    out.push_str(
        "/* A scalar the expected effect leaves alone: its SIZE bytes at P must still\n \
         * hold FILL, the byte its object was filled with before the call. */\n\
         static int pathwise_check_frame(int test, const char *what, const char *object, unsigned long offset,\n\
         \x20                               const void *p, unsigned long size, unsigned char fill)\n\
         {\n    const unsigned char *b = (const unsigned char *)p;\n    unsigned long i;\n    \
         for (i = 0; i < size; i++)\n        if (b[i] != fill)\n            break;\n    \
         if (i == size)\n        return 0;\n    \
         pathwise_printf(\"test %d: %s (%s, bytes %lu..%lu) changed: expected unchanged (every byte 0x%02x), got\",\n           \
         test, what, object, offset, offset + size - 1, (unsigned)fill);\n    \
         for (i = 0; i < size; i++)\n        pathwise_printf(\" %02x\", (unsigned)b[i]);\n    \
         pathwise_printf(\"\\n\");\n    return 1;\n}\n\n",
    );
}

/// After the call of a test that returned: check every scalar of every
/// input object that no known cell (before or after the call) overlaps.
pub(crate) fn write_frame_checks(out: &mut String, used: &mut Used, suite: &TestSuite, test: &TestCase) {
    if test.outcome != Outcome::Returned {
        return;
    }
    let structs = &suite.structs;
    let fills = fills(test);
    let names = param_objects(suite, test);
    let mut objects: Vec<&HeapObject> = test.heap_in.iter().collect();
    objects.sort_by_key(|o| o.id);
    for obj in objects {
        let after = test.heap_out.iter().find(|o| o.id == obj.id);
        if obj.freed || after.is_some_and(|a| a.freed) {
            continue;
        }
        if obj.tail.is_some() {
            let _ = writeln!(out, "    /* o{}: a flexible array member's structure, frame not checked */", obj.id);
            continue;
        }
        let known = known_bytes(suite, obj, after);
        let elem = elem_type(obj);
        let es = elem_size(structs, &elem);
        let scalars = elem.scalars(structs);
        let base = names.get(&obj.id).cloned().unwrap_or_else(|| format!("o{}", obj.id));
        let fill = fills.get(&obj.id).copied().unwrap_or(0);
        for index in 0..obj.count.max(1) {
            for s in &scalars {
                let start = index * es + s.offset;
                let size = s.ty.bytes();
                if known.iter().any(|&(a, b)| start < b && a < start + size) {
                    continue;
                }
                let at = crate::heap::CellAt { index, scalar: s.clone() };
                let what = crate::literal::c_string_literal(cell_lvalue(&base, obj, &at).as_bytes());
                let _ = writeln!(
                    out,
                    "    pathwise_failed |= pathwise_check_frame({}, {what}, \"o{}\", {start}, (const char *)pathwise_o{} + {start}, {size}, 0x{fill:02x});",
                    test.id, obj.id, obj.id
                );
                used.frame = true;
            }
        }
    }
}

/// The byte ranges `[start, end)` of `obj` that a known cell covers, in the
/// input heap or (`after`) the output heap.
fn known_bytes(suite: &TestSuite, obj: &HeapObject, after: Option<&HeapObject>) -> Vec<(u64, u64)> {
    let structs = &suite.structs;
    let mut known = Vec::new();
    for o in std::iter::once(obj).chain(after) {
        for c in &o.cells {
            // A cell the layout does not place covers at least a pointer's bytes.
            let size = cell_at(structs, o, c.offset, &c.path).map_or(8, |at| at.scalar.ty.bytes());
            known.push((c.offset, c.offset.saturating_add(size)));
        }
    }
    known
}

/// The heap parameters that point to the start of an input object, by
/// object id (the first such parameter): messages name scalars through
/// them, as the code under test does (`dst[1]`).
fn param_objects(suite: &TestSuite, test: &TestCase) -> BTreeMap<u32, String> {
    let mut names = BTreeMap::new();
    for (i, p) in suite.params.iter().enumerate() {
        if !is_heap(p) || p.shape == pathwise_ir::Shape::ByValue {
            continue;
        }
        if let Some(InputValue::Pointer(HeapValue::Ref { obj, offset: 0 })) = test.inputs.get(i) {
            names.entry(*obj).or_insert_with(|| param_name(i, p));
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::repeated_bytes;

    #[test]
    fn a_value_forbids_the_bytes_it_repeats() {
        // 0xa1a1 is 0xa1 over 1 and 2 bytes, not over 4 or 8.
        assert_eq!(repeated_bytes(0xa1a1), [0xa1, 0xa1]);
        // -1 is 0xff at every width; 0 is 0x00.
        assert_eq!(repeated_bytes(-1), [0xff; 4]);
        assert_eq!(repeated_bytes(0), [0; 4]);
        // 0x0102: its low byte only.
        assert_eq!(repeated_bytes(0x0102), [0x02]);
    }
}

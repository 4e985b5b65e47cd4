//! The JSON form of a test suite (schema: `docs/json-schema.md`).
//!
//! The serde structs below are the schema: [`SuiteJson::from_suite`] builds
//! them from a [`TestSuite`] for writing, and the CLI's `replay` reads a file
//! back into the same structs, so writer and reader cannot drift apart.
//!
//! Integers are JSON integers: each value is normalised with its C type and
//! written as a signed 64-bit number for signed types and an unsigned 64-bit
//! number for unsigned ones (after normalisation every value fits).
//! Maps keyed by C names keep the parameters' / globals' order, which a
//! reader of the file expects, hence [`OrderedMap`] rather than a `BTreeMap`.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use pathwise_ir::{CType, IntTy, Loc, Shape, SrcVar, StructDef};
use pathwise_suite::{
    CallArg, ErrorKind, ExternalCall, HeapObject, HeapValue, InputValue, Outcome, PathStep, Stats, StopReason,
    TestCase, TestSuite,
};

use crate::describe::{file_of, is_array_param, loc_string, param_name};
use crate::heap::{cell_at, shown_path, type_name};
use crate::literal::json_number;

/// An integer value of a C variable (fits `i64` or `u64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonInt(pub i128);

impl Serialize for JsonInt {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Normalised integers fit 64 bits; a `long double`'s 80 bits mostly
        // do not, and JSON readers keep no more than 64: a hexadecimal
        // string ("0x3ffbcccccccccccccccd").
        if let Ok(v) = i64::try_from(self.0) {
            s.serialize_i64(v)
        } else if let Ok(v) = u64::try_from(self.0) {
            s.serialize_u64(v)
        } else {
            s.serialize_str(&format!("{:#x}", self.0))
        }
    }
}

impl<'de> Deserialize<'de> for JsonInt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = JsonInt;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer (beyond 64 bits: a hexadecimal string)")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<JsonInt, E> {
                Ok(JsonInt(v as i128))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<JsonInt, E> {
                Ok(JsonInt(v as i128))
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<JsonInt, E> {
                Ok(JsonInt(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<JsonInt, E> {
                let digits = v.strip_prefix("0x").ok_or_else(|| E::custom("expected 0x and hexadecimal digits"))?;
                i128::from_str_radix(digits, 16).map(JsonInt).map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// A number or a list of numbers (scalar or array variable), or a pointer
/// into the test's heap (heap parameter).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum NumOrList {
    Num(JsonInt),
    List(Vec<JsonInt>),
    Pointer(HeapValueJson),
}

/// A JSON object whose key order is kept (serde_json's `Map` sorts keys
/// unless a crate-wide feature is on, which we do not control).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct OrderedMap<V>(pub Vec<(String, V)>);

impl<V> OrderedMap<V> {
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl<V: Serialize> Serialize for OrderedMap<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for OrderedMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct MapVisitor<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for MapVisitor<V> {
            type Value = OrderedMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some((k, v)) = a.next_entry::<String, V>()? {
                    entries.push((k, v));
                }
                Ok(OrderedMap(entries))
            }
        }
        d.deserialize_map(MapVisitor(std::marker::PhantomData))
    }
}

/// The whole suite.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuiteJson {
    pub function: String,
    pub precondition: Option<String>,
    /// The function every emitted test checks after the call (absent when
    /// none, and in files written before the option existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub postcondition: Option<String>,
    pub k: u32,
    /// The bound was deepened (`gen` without `--k`): `k` is the largest k
    /// whose search ended by itself (`false` in files written before it).
    #[serde(default)]
    pub deepened: bool,
    /// With deepening, the k whose search the stop cut short: `k + 1`, or
    /// `k` itself when no k was complete (`null` otherwise).
    #[serde(default)]
    pub k_partial: Option<u32>,
    /// `k-path` or `block-k` (files written before the option existed:
    /// k-path).
    #[serde(default = "k_path")]
    pub criterion: String,
    pub params: Vec<VarJson>,
    /// The return value's C type (`null` for `void`).
    #[serde(rename = "return")]
    pub ret: Option<VarJson>,
    pub globals: Vec<VarJson>,
    pub tests: Vec<TestJson>,
    pub stats: StatsJson,
    /// `complete`, `timeout`, `interrupted` or `limit`.
    pub stop: String,
    /// For `limit`: which limit.
    pub stop_detail: Option<String>,
    /// Where the bound at `k` cut a run or blocked a path (a larger k may
    /// add paths there); empty when nothing reached it.
    #[serde(default)]
    pub at_bound: Vec<BoundSiteJson>,
    pub coverage: CoverageJson,
    /// Whether signed overflow was an error (`false`: it wrapped around).
    #[serde(default = "yes")]
    pub overflow_checked: bool,
    /// The structures and unions that heap objects' types name.
    #[serde(default)]
    pub structs: Vec<StructJson>,
    /// The external functions (`pathwise gen --external`) that the C test
    /// file defines as stubs; absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub externals: Vec<ExternalJson>,
    /// Body-less functions that only code the tests never run calls: the C
    /// test file declares them weak and defines no stub for them (absent
    /// when there are none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreached_functions: Vec<String>,
    /// The inferred contracts the inputs keep (`buf has len elements
    /// (...)`; absent when there are none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contracts: Vec<String>,
    /// The C file under test, relative to the suite's directory (absolute
    /// in suites written before issue 28): the test file includes it by
    /// name, and `replay` compiles with `-I` its directory (absent in files
    /// written before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Cost models, policies and targets (absent without them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goals: Option<crate::json_goals::GoalsJson>,
    /// A concolic statement or branch cover's outcome and infeasible code
    /// (absent for other criteria).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<crate::json_goals::CoverJson>,
}

/// A loop, recursive call or block where the bound cut paths.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoundSiteJson {
    /// `loop` (its condition; or a library call's loop over a symbolic
    /// string), `recursion` (the call, or the branch committing to it) or
    /// `block` (block-k).
    pub kind: String,
    pub location: String,
    pub file: String,
    pub line: u32,
}

/// A function declared without a body whose calls return fresh inputs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExternalJson {
    pub name: String,
    /// Its parameters (names as declared, possibly empty).
    pub params: Vec<VarJson>,
    /// The return value's C type (`null` for `void`).
    #[serde(rename = "return")]
    pub ret: Option<VarJson>,
}

/// One call of an external function during a test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallJson {
    pub function: String,
    /// Integer arguments as numbers; pointer arguments as `"null"` or
    /// `"non-null"` (nothing else about them is recorded).
    pub args: Vec<CallArgJson>,
    /// The value the call returned (a fresh input); `null` for `void` and
    /// pointers.
    #[serde(rename = "return")]
    pub ret: Option<JsonInt>,
    /// The pointer it returned (present only for a function returning
    /// one; `null` is NULL): a reference into the test's input heap.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub return_pointer: Option<HeapValueJson>,
}

/// An argument of an external call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CallArgJson {
    Int(JsonInt),
    Pointer(String),
}

fn yes() -> bool {
    true
}

fn k_path() -> String {
    "k-path".into()
}

/// A C variable: parameter, return value or global.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VarJson {
    pub name: String,
    /// C spelling of the scalar (element) type.
    pub c_type: String,
    /// `scalar`, `pointer` (input array) or `array` (fixed size, globals).
    pub shape: String,
    /// Element count of an `array`; `null` otherwise.
    pub length: Option<u64>,
    pub bits: u32,
    pub signed: bool,
}

/// One test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestJson {
    pub id: usize,
    /// The C test's function (see `describe::test_names`).
    #[serde(default)]
    pub name: String,
    pub inputs: OrderedMap<NumOrList>,
    /// The bytes of the standard input, when the path reads it (absent
    /// otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdin: Option<Vec<u8>>,
    /// The objects heap parameters reach, with the cells the path reads.
    #[serde(default)]
    pub heap_in: Vec<HeapObjectJson>,
    pub outcome: String,
    /// The error of an `"error"` outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorJson>,
    pub expected: ExpectedJson,
    /// The external calls the code under test made, in order (absent when
    /// it made none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<CallJson>,
    /// The allocation calls that return NULL in this test, in call order
    /// (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed_allocations: Vec<FailedAllocationJson>,
    pub path: Vec<StepJson>,
    /// The test's cost per `--cost` model (absent without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<OrderedMap<crate::json_goals::CostJson>>,
    /// What this test alone covers, per function it enters (empty in files
    /// written before it existed).
    #[serde(default)]
    pub coverage: Vec<TestCoverageJson>,
}

/// An allocation call that returns NULL in a test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedAllocationJson {
    /// 1 for the first `malloc`/`calloc`/`realloc`/`strdup`/`strndup`
    /// call of the code under test, 2 for the second...
    pub allocation: u32,
    pub function: String,
    pub location: String,
}

/// The lines and branch sides one test covers in one function.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestCoverageJson {
    pub function: String,
    pub lines: Vec<u32>,
    /// Branch sides taken, as `[line, index]`: the index of the side among
    /// the line's branches (see `branch_lines` of the suite's coverage).
    pub branches: Vec<(u32, u32)>,
}

/// Where and how a test's run ended in an error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorJson {
    /// `division-by-zero`, `signed-overflow`, `out-of-bounds`, `exit`, ...
    pub kind: String,
    /// The status passed to `exit` (kind `exit` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<i32>,
    /// Kind `memory-leak` only: which allocation of the run leaked (1 = the
    /// first `malloc`/`calloc`/`realloc` call) and its size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocation: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    pub location: String,
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
    /// Other feasible paths that end in this error at this place, folded
    /// into this test (absent when none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub same_error_paths: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The outputs a test observed (and the C test checks).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpectedJson {
    #[serde(rename = "return")]
    pub ret: Option<JsonInt>,
    pub arrays: OrderedMap<Vec<JsonInt>>,
    pub globals: OrderedMap<NumOrList>,
    /// The returned pointer (present only when the function returns a
    /// pointer into the heap and the run returned; `null` is NULL).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub return_pointer: Option<HeapValueJson>,
    /// The objects reachable after the call from the heap parameters' input
    /// values and the returned pointer, with their final contents.
    #[serde(default)]
    pub heap_out: Vec<HeapObjectJson>,
    /// The bytes the function wrote on the standard output (present only
    /// when the run returned and wrote there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdout: Option<Vec<u8>>,
}

/// A field that is present (even as `null`) deserialises to `Some`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<HeapValueJson>, D::Error> {
    HeapValueJson::deserialize(d).map(Some)
}

/// A scalar in a heap: an integer, `null`, `{"ref": id, "offset": n}`,
/// `{"param": name, "offset": n}` (into a pointer parameter's input
/// array), `{"global": name, "offset": n}` or `"opaque"` (a pointer into
/// nothing the test describes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum HeapValueJson {
    Int(JsonInt),
    Ref(RefJson),
    Param(ParamRefJson),
    Global(GlobalRefJson),
    Function(FunctionRefJson),
    Null,
    Opaque(String),
}

/// A pointer to a function of the unit, by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionRefJson {
    pub function: String,
}

/// A pointer to byte `offset` of the input array of parameter `param`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamRefJson {
    pub param: String,
    pub offset: u64,
}

/// A pointer to byte `offset` of global `global`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GlobalRefJson {
    pub global: String,
    pub offset: u64,
}

/// A pointer to byte `offset` of heap object `ref`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefJson {
    #[serde(rename = "ref")]
    pub obj: u32,
    pub offset: u64,
}

/// An object of a test's input or output heap: `count` elements of `type`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeapObjectJson {
    pub id: u32,
    /// C spelling of the element type, e.g. `struct node`, `int *`.
    #[serde(rename = "type")]
    pub cty: String,
    pub count: u64,
    /// For a structure with a flexible array member: its tail's length
    /// (the object is one structure and that many elements of the member;
    /// their fields are `.data[2]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tail: Option<u64>,
    /// Freed by the code under test (in `heap_in`: by the end of the call).
    #[serde(default)]
    pub freed: bool,
    /// Allocated by the code under test (output heaps only): the C test
    /// frees it after its checks.
    #[serde(default)]
    pub allocated: bool,
    /// The known scalars, in offset order.
    pub fields: Vec<HeapFieldJson>,
}

/// One scalar of a heap object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeapFieldJson {
    /// Access path from the object's start: `.data`, `[1].next`, `` for the
    /// single scalar of a scalar object.
    pub path: String,
    /// Byte offset in the object.
    pub offset: u64,
    pub value: HeapValueJson,
}

/// A structure or union definition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructJson {
    /// C spelling, e.g. `struct node`.
    pub name: String,
    pub union: bool,
    pub size: u64,
    pub align: u64,
    pub fields: Vec<FieldJson>,
    /// The named bit-fields (their bytes are `fields` named `<bit-fields>`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bit_fields: Vec<BitFieldJson>,
}

/// A bit-field: `width` bits from bit `bit` of the structure (bit 0 is the
/// least significant bit of byte 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BitFieldJson {
    pub name: String,
    /// C spelling of the declared type, e.g. `unsigned int`.
    pub c_type: String,
    pub bit: u64,
    pub width: u32,
}

/// One member of a structure or union.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldJson {
    pub name: String,
    pub offset: u64,
    /// C spelling of the member's type, e.g. `struct node *`, `int [3]`.
    pub c_type: String,
}

/// One decision of a path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepJson {
    // Shared strings: a large suite's paths have hundreds of thousands of
    // steps over a few locations (see [`StepTexts`]).
    pub function: Arc<str>,
    pub location: Arc<str>,
    pub file: Arc<str>,
    pub line: u32,
    pub col: u32,
    pub taken: bool,
    #[serde(rename = "loop")]
    pub loop_iter: Option<LoopJson>,
}

/// The innermost loop of a decision and the iteration (1-based).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopJson {
    pub header: Arc<str>,
    pub iteration: u32,
}

/// Run statistics (same names as `pathwise_suite::Stats`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct StatsJson {
    pub feasible_paths: u64,
    pub tests: u64,
    pub infeasible_prefixes: u64,
    pub bound_pruned_prefixes: u64,
    pub bound_exceeded_runs: u64,
    pub precondition_rejected_runs: u64,
    pub error_runs: u64,
    #[serde(default)]
    pub error_tests: u64,
    /// Paths ending in an error that already had its test (one test per
    /// error kind and location unless `--all-error-tests`).
    #[serde(default)]
    pub error_paths_folded: u64,
    #[serde(default)]
    pub error_checks: u64,
    #[serde(default)]
    pub error_checks_infeasible: u64,
    /// Checks whose violation was not solved for: an earlier check of the
    /// same path, place and operation can be violated.
    #[serde(default)]
    pub error_checks_repeated: u64,
    pub runs: u64,
    #[serde(default)]
    pub array_limit_prunes: u64,
    #[serde(default)]
    pub prefixes_explored: u64,
    #[serde(default)]
    pub queries: u64,
    pub solver_calls: u64,
    #[serde(default)]
    pub preference_queries: u64,
    pub solver_cache_hits: u64,
    pub divergences: u64,
    #[serde(default)]
    pub precondition_abandoned: u64,
    pub elapsed_ms: u64,
    #[serde(default)]
    pub solver_ms: u64,
    #[serde(default)]
    pub float_solver_calls: u64,
    #[serde(default)]
    pub float_solver_ms: u64,
    #[serde(default)]
    pub float_searched: u64,
    #[serde(default)]
    pub float_inputs_concretised: u64,
    #[serde(default)]
    pub float_values_concretised: u64,
    #[serde(default)]
    pub values_concretised: u64,
    #[serde(default)]
    pub unknown_prefixes: u64,
    #[serde(default)]
    pub unrelated_pointer_runs: u64,
    /// Runs that passed a null pointer parameter the function uses without
    /// a null test (not tests: see the suite's `assumes non-null` contracts).
    #[serde(default)]
    pub nonnull_assumed_runs: u64,
    /// `--compositional` only (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compositional: Option<CompositionalJson>,
    /// What the runs' extensions counted, by name (absent when nothing).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub counts: std::collections::BTreeMap<String, u64>,
}

/// What a compositional search computed and reused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct CompositionalJson {
    /// One per summarised function.
    pub summaries: Vec<SummaryJson>,
    /// Calls composed from a summary instead of being explored.
    pub reused: u64,
    /// Prefixes solved again after their run grew a summary.
    pub retries: u64,
    /// Functions that could not be summarised (`name: why`), explored
    /// monolithically.
    pub fallbacks: Vec<String>,
    /// Cases dropped from compositions by specialisation (precondition
    /// false in the calling context).
    #[serde(default)]
    pub specialised_away: u64,
    /// Runs and solver calls of the bottom-up searches (not in `runs`).
    #[serde(default)]
    pub bottom_up_runs: u64,
    #[serde(default)]
    pub bottom_up_solver_calls: u64,
    /// `--summary-store DIR`: functions whose stored summaries were reused, and
    /// those computed and stored.
    #[serde(default)]
    pub reused_summaries: Vec<String>,
    #[serde(default)]
    pub saved_summaries: Vec<String>,
}

/// One function's summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct SummaryJson {
    pub function: String,
    pub cases: u64,
    /// Of the cases, those ending in an error (kept for callers' error tests).
    #[serde(default)]
    pub errors: u64,
    /// The cases cover every input (within the bound).
    pub complete: bool,
    /// `top-down`, `bottom-up` or `stored`.
    #[serde(default)]
    pub origin: String,
}

/// Predicted coverage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct CoverageJson {
    pub functions: Vec<FunctionCoverageJson>,
}

/// Predicted coverage of one function.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct FunctionCoverageJson {
    pub name: String,
    /// The file holding the function, named as in locations (absent in
    /// suites written before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Source lines holding code of the function.
    pub lines: Vec<u32>,
    /// Lines executed by at least one test.
    pub lines_covered: Vec<u32>,
    /// Branches as gcov counts them (two per decision; a `switch` one per
    /// distinct target).
    pub branches: u64,
    pub branches_covered: u64,
    /// Per line with branches: `[line, branches, branches covered]` (absent
    /// in suites written before it existed: then only totals compare).
    #[serde(default)]
    pub branch_lines: Option<Vec<(u32, u64, u64)>>,
}

impl VarJson {
    fn from_src(name: String, src: &SrcVar, structs: &[StructDef]) -> VarJson {
        let (shape, length) = match src.shape {
            Shape::Scalar => ("scalar", None),
            Shape::Pointer => ("pointer", None),
            Shape::Array(n) => ("array", Some(n)),
            Shape::Heap => ("heap", None),
            Shape::ByValue => ("struct", None),
            Shape::Function => ("function", None),
            Shape::Stream => ("stream", None),
        };
        VarJson {
            name,
            // A heap pointer's full type says what it points to.
            c_type: match (&src.shape, &src.cty) {
                (Shape::Heap, Some(cty)) => type_name(structs, cty),
                (Shape::ByValue, Some(cty)) => type_name(structs, cty.pointee().unwrap_or(cty)),
                (Shape::Stream, _) => "FILE *".to_string(),
                _ => src.c_scalar.clone(),
            },
            shape: shape.to_string(),
            length,
            bits: src.scalar.ty.bits(),
            signed: src.scalar.signed,
        }
    }
}

/// A heap value; integers normalised with the cell's type when known.
fn heap_value_json(suite: &TestSuite, v: &HeapValue, ty: Option<IntTy>) -> HeapValueJson {
    match v {
        HeapValue::Int(i) => HeapValueJson::Int(JsonInt(ty.map_or(*i, |t| json_number(*i, t)))),
        HeapValue::Null => HeapValueJson::Null,
        HeapValue::Ref { obj, offset } => HeapValueJson::Ref(RefJson { obj: *obj, offset: *offset }),
        HeapValue::Param { param, offset } => match suite.params.get(*param) {
            Some(p) => HeapValueJson::Param(ParamRefJson { param: param_name(*param, p), offset: *offset }),
            None => HeapValueJson::Opaque("opaque".into()),
        },
        HeapValue::Global { .. } | HeapValue::Constant { .. } => match v.global_src(suite) {
            Some((src, offset)) => HeapValueJson::Global(GlobalRefJson { global: src.name.clone(), offset }),
            None => HeapValueJson::Opaque("opaque".into()),
        },
        HeapValue::Function(name) => HeapValueJson::Function(FunctionRefJson { function: name.clone() }),
        HeapValue::Opaque => HeapValueJson::Opaque("opaque".into()),
    }
}

/// Heap objects in the suite's order, cells with their located paths.
fn heap_json(suite: &TestSuite, objects: &[HeapObject]) -> Vec<HeapObjectJson> {
    objects
        .iter()
        .map(|o| HeapObjectJson {
            id: o.id,
            cty: type_name(&suite.structs, &o.cty),
            count: o.count,
            tail: o.tail,
            freed: o.freed,
            allocated: o.allocated,
            fields: o
                .cells
                .iter()
                .map(|c| {
                    let at = cell_at(&suite.structs, o, c.offset, &c.path);
                    let ty = at.as_ref().and_then(|a| match a.scalar.cty {
                        CType::Int { ty, .. } => Some(ty),
                        _ => None,
                    });
                    HeapFieldJson {
                        path: shown_path(&suite.structs, o, c.offset, &c.path),
                        offset: c.offset,
                        value: heap_value_json(suite, &c.value, ty),
                    }
                })
                .collect(),
        })
        .collect()
}

fn struct_json(structs: &[StructDef], d: &StructDef) -> StructJson {
    StructJson {
        name: d.c_name.clone(),
        union: d.is_union,
        size: d.size,
        align: d.align,
        fields: d
            .fields
            .iter()
            .map(|f| FieldJson { name: f.name.clone(), offset: f.offset, c_type: type_name(structs, &f.ty) })
            .collect(),
        bit_fields: d
            .bitfields
            .iter()
            .map(|b| BitFieldJson {
                name: b.name.clone(),
                c_type: type_name(structs, &b.ty),
                bit: b.bit,
                width: b.width,
            })
            .collect(),
    }
}

fn num(v: i128, src: &SrcVar) -> JsonInt {
    JsonInt(json_number(v, src.scalar))
}

fn list(vs: &[i128], src: &SrcVar) -> Vec<JsonInt> {
    vs.iter().map(|&v| num(v, src)).collect()
}

/// The snake_case name of an enum variant from its `Debug` form
/// (`Returned` → `returned`), so new outcome kinds need no change here.
fn variant_name(debug: &str) -> String {
    let head = debug.split(['(', ' ', '{']).next().unwrap_or(debug);
    let mut out = String::new();
    for (i, c) in head.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// The texts of path steps, each made once per suite and shared: building
/// a string per step was most of the time of writing a large suite's JSON
/// (url_decode of the corpus at k = 3: 5,056 tests, 200,000 steps).
#[derive(Default)]
struct StepTexts {
    locations: HashMap<Loc, Arc<str>>,
    files: HashMap<u32, Arc<str>>,
}

impl StepTexts {
    fn step(&mut self, suite: &TestSuite, step: &PathStep) -> StepJson {
        StepJson {
            function: Arc::clone(&step.func),
            location: self.location(suite, step.loc),
            file: Arc::clone(self.files.entry(step.loc.file).or_insert_with(|| file_of(&suite.files, step.loc).into())),
            line: step.loc.line,
            col: step.loc.col,
            taken: step.taken,
            loop_iter: step
                .loop_iter
                .map(|(header, iteration)| LoopJson { header: self.location(suite, header), iteration }),
        }
    }

    fn location(&mut self, suite: &TestSuite, loc: Loc) -> Arc<str> {
        Arc::clone(self.locations.entry(loc).or_insert_with(|| loc_string(&suite.files, loc).into()))
    }
}

fn test_json(suite: &TestSuite, test: &TestCase, name: &str, texts: &mut StepTexts) -> TestJson {
    let mut inputs = Vec::new();
    let mut arrays = Vec::new();
    for (i, p) in suite.params.iter().enumerate() {
        let name = param_name(i, p);
        let value = match test.inputs.get(i) {
            Some(InputValue::Scalar(v)) if !is_array_param(p) => NumOrList::Num(num(*v, p)),
            Some(InputValue::Scalar(v)) => NumOrList::List(vec![num(*v, p)]),
            Some(InputValue::Array(vs)) => NumOrList::List(list(vs, p)),
            Some(InputValue::Pointer(v)) => NumOrList::Pointer(heap_value_json(suite, v, None)),
            Some(InputValue::Function(f)) => NumOrList::Pointer(match f {
                Some(name) => HeapValueJson::Function(FunctionRefJson { function: name.clone() }),
                None => HeapValueJson::Null,
            }),
            None => continue,
        };
        inputs.push((name.clone(), value));
        if let Some(Some(out)) = test.array_outputs.get(i) {
            arrays.push((name, list(out, p)));
        }
    }
    let globals = suite
        .globals
        .iter()
        .zip(&test.global_outputs)
        .map(|(g, vs)| {
            let value = match g.src.shape {
                Shape::Scalar => NumOrList::Num(num(vs.first().copied().unwrap_or(0), &g.src)),
                _ => NumOrList::List(list(vs, &g.src)),
            };
            (g.src.name.clone(), value)
        })
        .collect();
    TestJson {
        id: test.id,
        name: name.to_string(),
        inputs: OrderedMap(inputs),
        stdin: test.stdin.clone(),
        heap_in: heap_json(suite, &test.heap_in),
        outcome: variant_name(&format!("{:?}", test.outcome)),
        error: match &test.outcome {
            Outcome::Error(e) => Some(ErrorJson {
                kind: e.kind.name().to_string(),
                status: match e.kind {
                    ErrorKind::Exit(s) => Some(s),
                    _ => None,
                },
                allocation: match e.kind {
                    ErrorKind::MemoryLeak { allocation, .. } => Some(allocation),
                    _ => None,
                },
                bytes: match e.kind {
                    ErrorKind::MemoryLeak { bytes, .. } => Some(bytes),
                    _ => None,
                },
                location: loc_string(&suite.files, e.loc),
                file: file_of(&suite.files, e.loc).to_string(),
                line: e.loc.line,
                col: e.loc.col,
                message: e.message.clone(),
                same_error_paths: test.same_error_paths,
            }),
            Outcome::Returned | Outcome::BoundReached => None,
        },
        expected: ExpectedJson {
            ret: match (&suite.ret, test.ret) {
                (Some(src), Some(v)) => Some(num(v, src)),
                _ => None,
            },
            arrays: OrderedMap(arrays),
            globals: OrderedMap(globals),
            return_pointer: test.ret_pointer.as_ref().map(|v| heap_value_json(suite, v, None)),
            heap_out: heap_json(suite, &test.heap_out),
            stdout: test.stdout.clone(),
        },
        calls: test.calls.iter().map(|c| call_json(suite, c)).collect(),
        failed_allocations: test
            .failed_allocations
            .iter()
            .map(|f| FailedAllocationJson {
                allocation: f.ordinal,
                function: f.function.clone(),
                location: loc_string(&suite.files, f.loc),
            })
            .collect(),
        path: test.path.iter().map(|s| texts.step(suite, s)).collect(),
        cost: crate::json_goals::test_cost(test),
        coverage: test
            .coverage
            .iter()
            .map(|c| TestCoverageJson {
                function: c.function.clone(),
                lines: c.lines.clone(),
                branches: c.branches.clone(),
            })
            .collect(),
    }
}

fn call_json(suite: &TestSuite, call: &ExternalCall) -> CallJson {
    let f = suite.externals.iter().find(|f| f.name == call.name);
    let args = call
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| match a {
            CallArg::Null => CallArgJson::Pointer("null".into()),
            CallArg::NonNull => CallArgJson::Pointer("non-null".into()),
            CallArg::Int(v) => CallArgJson::Int(match f.and_then(|f| f.params.get(i)) {
                Some(p) => num(*v, p),
                None => JsonInt(*v),
            }),
        })
        .collect();
    let ret = match (call.ret, f.and_then(|f| f.ret.as_ref())) {
        (Some(v), Some(src)) => Some(num(v, src)),
        (v, _) => v.map(JsonInt),
    };
    let return_pointer = call.ret_pointer.as_ref().map(|v| heap_value_json(suite, v, None));
    CallJson { function: call.name.clone(), args, ret, return_pointer }
}

impl StatsJson {
    pub fn from_stats(s: &Stats) -> StatsJson {
        StatsJson {
            feasible_paths: s.feasible_paths,
            tests: s.tests,
            infeasible_prefixes: s.infeasible_prefixes,
            bound_pruned_prefixes: s.bound_pruned_prefixes,
            bound_exceeded_runs: s.bound_exceeded_runs,
            precondition_rejected_runs: s.precondition_rejected_runs,
            error_runs: s.error_runs,
            error_tests: s.error_tests,
            error_paths_folded: s.error_paths_folded,
            error_checks: s.error_checks,
            error_checks_infeasible: s.error_checks_infeasible,
            error_checks_repeated: s.error_checks_repeated,
            runs: s.runs,
            array_limit_prunes: s.array_limit_prunes,
            prefixes_explored: s.prefixes_explored,
            queries: s.queries,
            solver_calls: s.solver_calls,
            preference_queries: s.preference_queries,
            solver_cache_hits: s.solver_cache_hits,
            divergences: s.divergences,
            precondition_abandoned: s.precondition_abandoned,
            elapsed_ms: s.elapsed_ms,
            solver_ms: s.solver_ms,
            float_solver_calls: s.float_solver_calls,
            float_solver_ms: s.float_solver_ms,
            float_searched: s.float_searched,
            float_inputs_concretised: s.float_inputs_concretised,
            float_values_concretised: s.float_values_concretised,
            values_concretised: s.values_concretised,
            unknown_prefixes: s.unknown_prefixes,
            unrelated_pointer_runs: s.unrelated_pointer_runs,
            nonnull_assumed_runs: s.nonnull_assumed_runs,
            compositional: compositional_json(s),
            counts: s.counts.clone(),
        }
    }
}

fn compositional_json(s: &Stats) -> Option<CompositionalJson> {
    let r = &s.summaries;
    if r.summaries.is_empty() && r.fallbacks.is_empty() && r.loaded.is_empty() && r.bottom_up_runs == 0 {
        return None;
    }
    let summaries = r
        .details
        .iter()
        .map(|d| SummaryJson {
            function: d.function.clone(),
            cases: d.cases,
            errors: d.errors,
            complete: d.complete,
            origin: d.origin.clone(),
        })
        .collect();
    Some(CompositionalJson {
        summaries,
        reused: r.reused,
        retries: s.summary_retries,
        fallbacks: r.fallbacks.clone(),
        specialised_away: r.specialised_away,
        bottom_up_runs: r.bottom_up_runs,
        bottom_up_solver_calls: r.bottom_up_solver_calls,
        reused_summaries: r.loaded.clone(),
        saved_summaries: r.saved.clone(),
    })
}

/// `(stop, stop_detail)` of a stop reason.
pub fn stop_strings(stop: &StopReason) -> (String, Option<String>) {
    match stop {
        StopReason::Complete => ("complete".into(), None),
        StopReason::Explored => ("explored".into(), None),
        StopReason::Timeout => ("timeout".into(), None),
        StopReason::Interrupted => ("interrupted".into(), None),
        StopReason::Limit(what) => ("limit".into(), Some(what.clone())),
        StopReason::ErrorCallReached => ("error-call-reached".into(), None),
        StopReason::TargetsReached => ("targets-reached".into(), None),
    }
}

impl SuiteJson {
    pub fn from_suite(suite: &TestSuite) -> SuiteJson {
        SuiteJson::from_suite_parts(suite, true)
    }

    /// The suite, with its tests or none (a writer that streams them).
    fn from_suite_parts(suite: &TestSuite, with_tests: bool) -> SuiteJson {
        let (stop, stop_detail) = stop_strings(&suite.stop);
        SuiteJson {
            function: suite.function.clone(),
            precondition: suite.precondition.clone(),
            postcondition: suite.postcondition.clone(),
            k: suite.k,
            deepened: suite.bound.deepened,
            k_partial: suite.bound.partial_k,
            criterion: suite.goals.criterion_name().unwrap_or(suite.criterion.name()).into(),
            params: suite
                .params
                .iter()
                .enumerate()
                .map(|(i, p)| VarJson::from_src(param_name(i, p), p, &suite.structs))
                .collect(),
            ret: suite.ret.as_ref().map(|r| VarJson::from_src(String::new(), r, &suite.structs)),
            globals: suite
                .globals
                .iter()
                .map(|g| VarJson::from_src(g.src.name.clone(), &g.src, &suite.structs))
                .collect(),
            tests: if with_tests {
                let names = crate::describe::test_names(suite);
                let mut texts = StepTexts::default();
                suite.tests.iter().zip(&names).map(|(t, n)| test_json(suite, t, n, &mut texts)).collect()
            } else {
                Vec::new()
            },
            stats: StatsJson::from_stats(&suite.stats),
            stop,
            stop_detail,
            at_bound: suite
                .bound
                .at_bound
                .iter()
                .map(|b| BoundSiteJson {
                    kind: b.kind.name().into(),
                    location: loc_string(&suite.files, b.loc),
                    file: file_of(&suite.files, b.loc).to_string(),
                    line: b.loc.line,
                })
                .collect(),
            overflow_checked: suite.check_overflow,
            structs: suite.structs.iter().map(|d| struct_json(&suite.structs, d)).collect(),
            externals: suite
                .externals
                .iter()
                .map(|f| ExternalJson {
                    name: f.name.clone(),
                    params: f.params.iter().map(|p| VarJson::from_src(p.name.clone(), p, &suite.structs)).collect(),
                    ret: f.ret.as_ref().map(|r| VarJson::from_src(String::new(), r, &suite.structs)),
                })
                .collect(),
            unreached_functions: suite.unreached_functions.clone(),
            contracts: suite.contracts.clone(),
            source: suite.source.clone(),
            goals: crate::json_goals::goals(&suite.goals),
            cover: crate::json_goals::cover(suite.goals.cover.as_ref(), &suite.files),
            coverage: CoverageJson {
                functions: suite
                    .coverage
                    .functions
                    .iter()
                    .map(|f| FunctionCoverageJson {
                        name: f.name.clone(),
                        file: suite.files.get(f.file as usize).cloned(),
                        lines: f.lines.clone(),
                        lines_covered: f.lines_covered.clone(),
                        branches: f.branches,
                        branches_covered: f.branches_covered,
                        branch_lines: Some(f.branch_lines.clone()),
                    })
                    .collect(),
            },
        }
    }
}

/// The suite as a JSON value. Note that `serde_json::Value` objects sort
/// their keys; [`suite_to_json_string`] keeps the documented field order.
pub fn suite_to_json(suite: &TestSuite) -> serde_json::Value {
    serde_json::to_value(SuiteJson::from_suite(suite)).expect("normalised suite values fit 64 bits")
}

/// The suite as JSON text, fields in schema order: pretty-printed, except
/// that each test is one compact line (see [`write_suite_json`]).
pub fn suite_to_json_string(suite: &TestSuite) -> String {
    let mut out = Vec::new();
    write_suite_json(suite, &mut out).expect("writing to memory");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Write the suite as JSON text, fields in schema order: pretty-printed,
/// except that each test is one compact line. A test's path has a step per
/// decision and its coverage a line per line: pretty-printed, a suite of
/// a few hundred tests ran to megabytes (issue 23: 40 sequential `if`s,
/// 1 MB), while one line per test stays readable and diffable. Tests are
/// converted and written one at a time, so a large suite is never held
/// twice in memory.
pub fn write_suite_json(suite: &TestSuite, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    let header = SuiteJson::from_suite_parts(suite, false);
    let text = serde_json::to_string_pretty(&header).map_err(std::io::Error::other)?;
    const EMPTY: &str = "\n  \"tests\": [],\n";
    let at = match text.find(EMPTY) {
        Some(at) if !suite.tests.is_empty() => at,
        _ => return writeln!(w, "{text}"),
    };
    w.write_all(text[..at].as_bytes())?;
    w.write_all(b"\n  \"tests\": [\n")?;
    let names = crate::describe::test_names(suite);
    // Each test is serialized into one buffer, then written at once:
    // serde_json's many small writes straight through `dyn Write` were
    // a third of the time of a large suite's file.
    let (mut buf, mut texts) = (Vec::new(), StepTexts::default());
    for (i, (t, name)) in suite.tests.iter().zip(&names).enumerate() {
        buf.clear();
        buf.extend_from_slice(if i == 0 { b"    " } else { b",\n    " });
        serde_json::to_writer(&mut buf, &test_json(suite, t, name, &mut texts)).map_err(std::io::Error::other)?;
        w.write_all(&buf)?;
    }
    w.write_all(b"\n  ],\n")?;
    w.write_all(text[at + EMPTY.len()..].as_bytes())?;
    w.write_all(b"\n")
}

/// Read a suite written by [`suite_to_json_string`].
pub fn suite_from_json_str(text: &str) -> Result<SuiteJson, serde_json::Error> {
    serde_json::from_str(text)
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;

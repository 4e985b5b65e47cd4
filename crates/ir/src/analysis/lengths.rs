//! Length parameters: which pointer parameter a function treats as an
//! array whose element count is a later integer parameter, as C APIs pass
//! `(buf, len)`, `(data, size)`, `(s, n)`.
//!
//! The pairing is read from the code, not from names: an index variable
//! compared with the length parameter (or a value derived from it by a
//! constant offset or scale, `len - 1`) also indexes the pointer
//! (`for (i = 0; i < len; i++) sum += buf[i];`), or a pointer into the
//! array is compared with one `len` elements past its start (`end = buf +
//! len; while (p < end)`), or both are passed to a callee that pairs them,
//! or the array is accessed at every constant index below `c` and the
//! (unsigned) length is compared with `c` (`if (size < 2) return 0; v =
//! data[0] | data[1] << 8;`, a decoder's guard on its header), or a
//! capacity check guards a block write (`if (al + bl > cap) return -1;
//! memcpy(out + al, b, bl);`: the length or offset written and the value
//! compared with `cap` share a term).
//! The length must come after the array in the parameter list: in
//! `copy(dst, dst_size, src)` the string `src` read while `i < dst_size` is
//! not `dst_size` long. A parameter the array is read or written at
//! (`a[hi]`) is an inclusive bound, not a length, and an array whose
//! elements are compared with 0 (`src[i] != '\0'`) is a string, whatever
//! bounds the index too (`strlcpy(dst, src, size)`).
//!
//! [`read_only_params`] are the pointer parameters whose objects neither
//! the function nor its callees write, nor let escape: the candidates for
//! a caller's NUL-terminated string.
//!
//! The analysis is flow-insensitive over the function's own registers and
//! stack slots (the front end keeps C variables in slots): each value gets
//! the set of [`Origin`]s it may derive from, to a fixed point.

use std::collections::{BTreeMap, BTreeSet};

use crate::entities::{Local, Reg};
use crate::program::{BinOp, FuncData, FuncId, InstKind, Loc, Operand, Program};
use crate::types::Type;

/// A pointer parameter whose array has as many elements as an integer
/// parameter says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LengthParam {
    /// Index of the pointer parameter.
    pub array: usize,
    /// Index of the integer parameter (after `array`).
    pub length: usize,
    /// Where the code shows it (the comparison, or the call).
    pub loc: Loc,
}

/// What a value may derive from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Origin {
    /// Integer parameter `i`, possibly offset or scaled by constants.
    Len(usize),
    /// Integer parameter `i` itself (converted or scaled, not offset).
    LenAt(usize),
    /// A pointer into pointer parameter `i`'s array.
    Ptr(usize),
    /// The value of C variable (stack slot) `l`, possibly offset or
    /// scaled: an index.
    Idx(Local),
    /// An element read from pointer parameter `i`'s array.
    Elem(usize),
    /// A sum or difference with integer parameter `i` as a term (`al + bl`).
    Term(usize),
    /// A sum or difference with C variable `l` as a term (`n + off`).
    TermIdx(Local),
}

type Origins = BTreeSet<Origin>;

/// The length parameters of `func`, ordered by array parameter.
pub fn length_params(program: &Program, func: FuncId) -> Vec<LengthParam> {
    pairs(program, func, &mut BTreeMap::new())
}

/// Whether `func` compares or subtracts pointers derived from two
/// different pointer parameters (`end - s`, `p < end`): only then can it
/// tell whether they point into one object.
pub fn relates_pointer_params(program: &Program, func: FuncId) -> bool {
    let f = program.func(func);
    if f.is_declaration() {
        return false;
    }
    let mut a = Analysis::new(program, f);
    a.solve();
    let params = |o: &Origins| {
        o.iter().filter_map(|o| if let Origin::Ptr(p) = o { Some(*p) } else { None }).collect::<BTreeSet<_>>()
    };
    f.blocks.iter().flat_map(|b| &b.insts).any(|inst| match &inst.kind {
        InstKind::Cmp { ty: Type::Ptr, a: x, b: y, .. } | InstKind::PtrDiff { a: x, b: y } => {
            let (px, py) = (params(&a.of(x)), params(&a.of(y)));
            px.iter().any(|p| py.iter().any(|q| p != q))
        }
        _ => false,
    })
}

/// The C library functions (declared, modelled) that only read the
/// strings at these argument positions, to their NUL, and keep no pointer
/// to them beyond their result (`memchr`, `memcmp`, `memcpy` read a
/// buffer of a given size: not strings).
const READS_ONLY: &[(&str, &[usize])] = &[
    ("strlen", &[0]),
    ("strnlen", &[0]),
    ("strcmp", &[0, 1]),
    ("strncmp", &[0, 1]),
    ("strcasecmp", &[0, 1]),
    ("strncasecmp", &[0, 1]),
    ("strchr", &[0]),
    ("strrchr", &[0]),
    ("strstr", &[0, 1]),
    ("strspn", &[0, 1]),
    ("strcspn", &[0, 1]),
    ("strpbrk", &[0, 1]),
    ("atoi", &[0]),
    ("atol", &[0]),
    ("atoll", &[0]),
    ("strtol", &[0]),
    ("strtoul", &[0]),
    ("strtoll", &[0]),
    ("strtoull", &[0]),
    ("strdup", &[0]),
    ("strndup", &[0]),
    ("strcpy", &[1]),
    ("strncpy", &[1]),
    ("strcat", &[1]),
    ("strncat", &[1]),
];

/// The pointer parameters of `func` through which nothing is written and
/// which do not escape (stored in memory, passed where they may be
/// written), in parameter order.
pub fn read_only_params(program: &Program, func: FuncId) -> Vec<usize> {
    let written = written(program, func, &mut BTreeMap::new());
    let f = program.func(func);
    (0..f.params.len()).filter(|i| f.params[*i].ty == Type::Ptr && !written.contains(i)).collect()
}

/// Per function: `None` while it is analysed further up the call chain
/// (recursion), then its result, so that each function of a call graph is
/// analysed once.
type Memo<T> = BTreeMap<FuncId, Option<T>>;

/// The pointer parameters written through or escaping; every one while
/// `func` is being analysed further up the call chain (recursion).
fn written(program: &Program, func: FuncId, memo: &mut Memo<BTreeSet<usize>>) -> BTreeSet<usize> {
    let f = program.func(func);
    let all = || (0..f.params.len()).collect();
    if f.is_declaration() {
        let name = f.name.as_str();
        let safe = READS_ONLY.iter().find(|(n, _)| *n == name).map_or(&[][..], |(_, s)| s);
        return (0..f.params.len()).filter(|i| !safe.contains(i)).collect();
    }
    match memo.get(&func) {
        Some(Some(done)) => return done.clone(),
        Some(None) => return all(),
        None => {}
    }
    memo.insert(func, None);
    let mut a = Analysis::new(program, f);
    a.solve();
    let ptrs =
        |o: &Origins| o.iter().filter_map(|o| if let Origin::Ptr(p) = o { Some(*p) } else { None }).collect::<Vec<_>>();
    let mut out = BTreeSet::new();
    for b in &f.blocks {
        for inst in &b.insts {
            match &inst.kind {
                InstKind::Store { ptr, value, .. } if a.slot_of(ptr).is_none() => {
                    out.extend(ptrs(&a.of(ptr)));
                    out.extend(ptrs(&a.of(value)));
                }
                InstKind::Call { func: callee, args } => {
                    let callee_written = written(program, *callee, memo);
                    for (i, arg) in args.iter().enumerate() {
                        if callee_written.contains(&i) || i >= program.func(*callee).params.len() {
                            out.extend(ptrs(&a.of(arg)));
                            // The address of a slot holding the pointer
                            // (`strsep(&p, ",")` with `p = line`): the
                            // callee may write through what it holds.
                            if let Some(slot) = a.slot_of(arg) {
                                out.extend(ptrs(&a.slots.get(&slot).cloned().unwrap_or_default()));
                            }
                        }
                    }
                }
                InstKind::CallPtr { args, .. } => {
                    for arg in args {
                        out.extend(ptrs(&a.of(arg)));
                    }
                }
                _ => {}
            }
        }
    }
    memo.insert(func, Some(out.clone()));
    out
}

fn pairs(program: &Program, func: FuncId, memo: &mut Memo<Vec<LengthParam>>) -> Vec<LengthParam> {
    let f = program.func(func);
    match memo.get(&func) {
        _ if f.is_declaration() => return Vec::new(),
        Some(done) => return done.clone().unwrap_or_default(),
        None => {}
    }
    memo.insert(func, None);
    let mut a = Analysis::new(program, f);
    a.solve();
    let mut found: BTreeMap<(usize, usize), Loc> = BTreeMap::new();
    for (&(slot, n), &loc) in &a.compared {
        for &(s, p) in &a.indexes {
            if s == slot {
                found.entry((p, n)).or_insert(loc);
            }
        }
    }
    for (&pair, &loc) in &a.ends {
        found.entry(pair).or_insert(loc);
    }
    for (pair, loc) in guarded_prefixes(program, f, &a) {
        found.entry(pair).or_insert(loc);
    }
    for (pair, loc) in guarded_writes(program, &a) {
        found.entry(pair).or_insert(loc);
    }
    found.retain(|pair, _| !a.accessed_at.contains(pair) && !a.nul_checked.contains(&pair.0));
    // (array, length) argument positions a call pairs, with its arguments'
    // origins and place: a defined callee's pairs, and the library's.
    let mut paired: Vec<((usize, usize), Vec<Origins>, Loc)> = Vec::new();
    for (callee, args, loc) in a.calls(program) {
        for lp in pairs(program, callee, memo) {
            paired.push(((lp.array, lp.length), args.clone(), loc));
        }
    }
    // (`qsort` and `bsearch` are lowered from C source, so defined.)
    let sized_calls = a
        .library_calls(program)
        .into_iter()
        .chain(a.calls(program).into_iter().map(|(callee, args, loc)| (program.func(callee).name.as_str(), args, loc)));
    for (name, args, loc) in sized_calls {
        for &(_, array, length) in SIZED_BUFFERS.iter().filter(|(n, ..)| *n == name) {
            paired.push(((array, length), args.clone(), loc));
        }
    }
    for ((array, length), args, loc) in paired {
        let (Some(pa), Some(na)) = (args.get(array), args.get(length)) else { continue };
        for p in pa.iter().filter_map(|o| if let Origin::Ptr(p) = o { Some(*p) } else { None }) {
            for n in na.iter().filter_map(|o| if let Origin::Len(n) = o { Some(*n) } else { None }) {
                found.entry((p, n)).or_insert(loc);
            }
        }
    }
    let int_param = |i: usize| f.params.get(i).is_some_and(|p| p.ty.is_int() && p.ty != Type::I1);
    let ptr_param = |i: usize| f.params.get(i).is_some_and(|p| p.ty == Type::Ptr);
    let mut out: Vec<LengthParam> = found
        .into_iter()
        .filter(|&((p, n), _)| p < n && ptr_param(p) && int_param(n))
        .map(|((array, length), loc)| LengthParam { array, length, loc })
        .collect();
    // One length per array: the first parameter the code shows.
    out.dedup_by_key(|lp| lp.array);
    memo.insert(func, Some(out.clone()));
    out
}

/// Length parameters a guard on a constant prefix shows: the array is
/// read or written at every constant index below `c` (2 or more), and a
/// later unsigned integer parameter is compared with `c` (`if (size < 2) return
/// 0; v = data[0] | data[1] << 8;`), the check a decoder makes before it
/// reads a header from `(data, size)`. Without the pairing, the read past
/// the header (`data[2 + v]`, or `data[4]` after a 4-byte guard) was never
/// out of bounds: the array grew. Only the parameters' own values count
/// (not `p + i`, not `size - 1`), so that the guard and the header agree
/// by construction, not by the coincidence of an unrelated flag's range;
/// and a string the function passes to `strlen` or `strcmp` is no such
/// array (`if (flags > 0 && s[0] == '-') return strlen(s);`).
fn guarded_prefixes(program: &Program, f: &FuncData, a: &Analysis<'_>) -> Vec<((usize, usize), Loc)> {
    let exact = exact_params(f, a);
    let exact_of = |op: &Operand| match op {
        Operand::Reg(r) => exact.get(r).copied(),
        Operand::Const(..) => None,
    };
    // Per pointer parameter: the bytes its constant-offset accesses cover.
    let mut covered: BTreeMap<usize, BTreeSet<u64>> = BTreeMap::new();
    // Per integer parameter: the element counts it is compared with, and
    // where.
    let mut bounds: BTreeMap<(usize, u64), Loc> = BTreeMap::new();
    for inst in f.blocks.iter().flat_map(|b| &b.insts) {
        match &inst.kind {
            InstKind::Load { ty, ptr } | InstKind::Store { ty, ptr, .. } => {
                let at = match exact_of(ptr) {
                    Some(p) => Some((p, 0)),
                    None => ptr.reg().and_then(|r| a.ptradds.get(r.0 as usize).copied().flatten()).and_then(
                        |(base, off)| match off {
                            Operand::Const(_, c) if (c as i64) >= 0 => exact_of(&base).map(|p| (p, c)),
                            _ => None,
                        },
                    ),
                };
                if let Some((p, off)) = at.filter(|&(_, off)| off < MAX_PREFIX) {
                    covered.entry(p).or_default().extend(off..off + ty.bytes());
                }
            }
            // `memcmp(data, "\x89PNG", 4)`, `memcpy(&h, data, sizeof h)`.
            InstKind::Call { func, args } if BLOCK_ACCESSES.contains(&program.func(*func).name.as_str()) => {
                if let Some(&Operand::Const(_, n)) = args.get(2).filter(|_| args.len() == 3) {
                    for p in args[..2].iter().filter_map(|x| exact_of(x)) {
                        covered.entry(p).or_default().extend(0..n.min(MAX_PREFIX));
                    }
                }
            }
            InstKind::Cmp { op, a: x, b: y, .. } => {
                let (lhs, c, op) = match (x, y) {
                    (x, Operand::Const(_, c)) => (x, *c, *op),
                    (Operand::Const(_, c), y) => (y, *c, mirrored(*op)),
                    _ => continue,
                };
                // `n < c` and `n >= c` bound n by c; `n > c`, `n <= c` by c + 1.
                let count = match op {
                    crate::CmpOp::Ult | crate::CmpOp::Uge | crate::CmpOp::Slt | crate::CmpOp::Sge => c,
                    crate::CmpOp::Ugt | crate::CmpOp::Ule | crate::CmpOp::Sgt | crate::CmpOp::Sle => c.wrapping_add(1),
                    crate::CmpOp::Eq | crate::CmpOp::Ne => continue,
                };
                // A count of 1 (`flags > 0` and a read of `p[0]`) is too
                // common to mean a length: `get(table, verbose)` made
                // `table` an array of `verbose` elements.
                if !(2..MAX_PREFIX).contains(&count) {
                    continue;
                }
                if let Operand::Reg(r) = lhs {
                    if let Some(n) = a.param_value(*r) {
                        bounds.entry((n, count)).or_insert(inst.loc);
                    }
                }
            }
            _ => {}
        }
    }
    // A string (passed to `strlen`, `strcmp`...) ends at its NUL, whatever
    // a flag compared with its prefix's length says.
    let strings: BTreeSet<usize> = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter_map(|inst| match &inst.kind {
            InstKind::Call { func, args } => {
                let name = program.func(*func).name.as_str();
                READS_ONLY.iter().find(|(n, _)| *n == name).map(|(_, at)| (args, *at))
            }
            _ => None,
        })
        .flat_map(|(args, at)| at.iter().filter_map(|&i| args.get(i)).flat_map(|x| a.of(x)))
        .filter_map(|o| if let Origin::Ptr(p) = o { Some(p) } else { None })
        .collect();
    let mut out = Vec::new();
    for (&p, bytes) in covered.iter().filter(|(p, _)| !strings.contains(p)) {
        let Some(src) = f.params.get(p).map(|q| &q.src) else { continue };
        let elem = src.scalar.ty.bytes().max(1);
        for (n, q) in f.params.iter().enumerate().skip(p + 1) {
            if q.src.shape != crate::Shape::Scalar || q.src.scalar.signed {
                continue;
            }
            // The first count the accesses read whole (more may be read
            // after them: the over-read sought is often one).
            let read_whole = |&(&(m, count), _): &(&(usize, u64), &Loc)| {
                m == n && (0..count.saturating_mul(elem)).all(|b| bytes.contains(&b))
            };
            if let Some((_, &loc)) = bounds.iter().find(read_whole) {
                out.push(((p, n), loc));
            }
        }
    }
    out
}

/// Capacities a check before a block write shows: `memcpy(out + al, b,
/// bl)` (or `memmove`, `memset`, `strncpy`) writes pointer parameter `out`
/// at an offset or length with a term that an ordering also compares with
/// a later integer parameter `cap` (`if (al + bl > cap) return -1;`, `if
/// (n >= cap)`): `out` has `cap` elements. Without the pairing the test's
/// `out` held just what was written, and an off-by-one in the check (`>
/// cap + 1`) was never an overflow. The term must be shared: a `cap`
/// compared with a value the write does not use is some other limit.
fn guarded_writes(program: &Program, a: &Analysis<'_>) -> Vec<((usize, usize), Loc)> {
    let mut out = Vec::new();
    for (name, args, _) in a.library_calls(program) {
        if !BLOCK_WRITES.contains(&name) || args.len() != 3 {
            continue;
        }
        let terms: BTreeSet<Origin> = args[0].iter().chain(&args[2]).filter_map(|&o| term(o)).collect();
        for p in args[0].iter().filter_map(|o| if let Origin::Ptr(p) = o { Some(*p) } else { None }) {
            for (&(cap, t), &loc) in &a.capacities {
                if terms.contains(&t) {
                    out.push(((p, cap), loc));
                }
            }
        }
    }
    out
}

/// The C library functions that write the first `n` bytes of their first
/// argument, `n` their third.
const BLOCK_WRITES: &[&str] = &["memcpy", "memmove", "memset", "strncpy"];

/// What a value with origin `o` contributes as a term of a sum.
fn term(o: Origin) -> Option<Origin> {
    match o {
        Origin::Len(n) | Origin::LenAt(n) | Origin::Term(n) => Some(Origin::Term(n)),
        Origin::Idx(l) | Origin::TermIdx(l) => Some(Origin::TermIdx(l)),
        Origin::Ptr(_) | Origin::Elem(_) => None,
    }
}

/// The C library functions that access the first `n` bytes of their two
/// pointer arguments, `n` their third.
const BLOCK_ACCESSES: &[&str] = &["memcmp", "memcpy", "memmove", "bcmp"];

/// C library functions whose size argument is, by definition, the room in
/// a buffer argument (function, buffer, size): a function that passes its
/// own `(buf, size)` to them pairs them (`snprintf(buf, cap, ...)`), so
/// that its tests pass a buffer of `size` bytes. `_FORTIFY_SOURCE` aborts
/// a call whose size exceeds its buffer, and a test passing a 5-byte
/// buffer with a size of 14 is no call a correct caller makes.
const SIZED_BUFFERS: &[(&str, usize, usize)] = &[
    ("snprintf", 0, 1),
    ("vsnprintf", 0, 1),
    ("fgets", 0, 1),
    ("fgets_unlocked", 0, 1),
    ("strftime", 0, 1),
    ("getcwd", 0, 1),
    ("strlcpy", 0, 2),
    ("strlcat", 0, 2),
    ("readlink", 1, 2),
    ("gethostname", 0, 1),
    // `strncpy` writes exactly `n` bytes (padding with NULs), as
    // `_FORTIFY_SOURCE` checks.
    ("strncpy", 0, 2),
    // The array a comparator walks: `nmemb` elements (of the size the
    // call passes, the pointer's own elements in practice).
    ("qsort", 0, 1),
    ("bsearch", 1, 2),
];

/// The largest header (in bytes, and in elements compared) the guard rule
/// looks at.
const MAX_PREFIX: u64 = 4096;

/// `op` with its operands swapped: `c < n` is `n > c`.
fn mirrored(op: crate::CmpOp) -> crate::CmpOp {
    use crate::CmpOp::*;
    match op {
        Ult => Ugt,
        Ugt => Ult,
        Ule => Uge,
        Uge => Ule,
        Slt => Sgt,
        Sgt => Slt,
        Sle => Sge,
        Sge => Sle,
        o => o,
    }
}

/// The registers that hold a pointer parameter's own value: the parameter,
/// and loads of a C variable every store to which is that value (`data`
/// kept in its slot), with the parameter's index.
fn exact_params(f: &FuncData, a: &Analysis<'_>) -> BTreeMap<Reg, usize> {
    let params: BTreeMap<Reg, usize> =
        f.params.iter().enumerate().filter(|(_, p)| p.ty == Type::Ptr).map(|(i, p)| (p.reg, i)).collect();
    let mut exact = params.clone();
    // Slots only gain a parameter as registers do: a fixed point, reached
    // in a few rounds (bounded all the same).
    for _ in 0..16 {
        // A slot holds parameter p when every store to it stores p.
        let mut slots: BTreeMap<Local, Option<usize>> = BTreeMap::new();
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            if let InstKind::Store { ptr, value, .. } = &inst.kind {
                if let Some(l) = a.slot_of(ptr) {
                    let v = value.reg().and_then(|r| exact.get(&r).copied());
                    let entry = slots.entry(l).or_insert(v);
                    if *entry != v {
                        *entry = None;
                    }
                }
            }
        }
        let mut next = params.clone();
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            if let (InstKind::Load { ptr, .. }, Some(r)) = (&inst.kind, inst.result) {
                if let Some(Some(p)) = a.slot_of(ptr).and_then(|l| slots.get(&l)) {
                    next.insert(r, *p);
                }
            }
        }
        if next == exact {
            break;
        }
        exact = next;
    }
    exact
}

struct Analysis<'f> {
    f: &'f FuncData,
    regs: Vec<Origins>,
    /// The slot whose address a register holds.
    slot_addr: Vec<Option<Local>>,
    slots: BTreeMap<Local, Origins>,
    /// (index slot, length parameter) compared, with the first place.
    compared: BTreeMap<(Local, usize), Loc>,
    /// (index slot, pointer parameter): the slot's value offsets the pointer.
    indexes: BTreeSet<(Local, usize)>,
    /// (pointer parameter, length parameter) compared as pointers.
    ends: BTreeMap<(usize, usize), Loc>,
    /// The operands of the `ptradd` defining a register.
    ptradds: Vec<Option<(Operand, Operand)>>,
    /// (pointer parameter, integer parameter): the array is accessed at
    /// that index (`a[hi]`).
    accessed_at: BTreeSet<(usize, usize)>,
    /// Pointer parameters whose elements are compared with 0.
    nul_checked: BTreeSet<usize>,
    /// (integer parameter, term) an ordering compares: `cap` with a value
    /// that has the term (`al + bl > cap`: the terms of `al` and `bl`).
    capacities: BTreeMap<(usize, Origin), Loc>,
    /// The argument a library call's result points into (`strchr(s, c)`
    /// returns a pointer into `s`), by result register.
    interior: Vec<Option<Operand>>,
}

/// C library functions that return a pointer into their first argument:
/// what the program writes through the result, it writes into that
/// argument (`*strchr(line, '=') = '\0'`).
const INTERIOR_RESULTS: &[&str] =
    &["strchr", "strrchr", "strstr", "strpbrk", "memchr", "memrchr", "strchrnul", "rawmemchr", "strcasestr"];

impl<'f> Analysis<'f> {
    fn new(program: &Program, f: &'f FuncData) -> Self {
        let n = f.num_regs as usize;
        let mut regs = vec![Origins::new(); n];
        for (i, p) in f.params.iter().enumerate() {
            if let Some(r) = regs.get_mut(p.reg.0 as usize) {
                if p.ty == Type::Ptr {
                    r.insert(Origin::Ptr(i));
                } else {
                    r.extend([Origin::Len(i), Origin::LenAt(i)]);
                }
            }
        }
        let mut slot_addr = vec![None; n];
        let mut ptradds = vec![None; n];
        let mut interior = vec![None; n];
        for b in &f.blocks {
            for inst in &b.insts {
                let Some(r) = inst.result.map(|r| r.0 as usize).filter(|&r| r < n) else { continue };
                match &inst.kind {
                    InstKind::AddrLocal { local } => slot_addr[r] = Some(*local),
                    InstKind::PtrAdd { base, offset } => ptradds[r] = Some((*base, *offset)),
                    InstKind::Call { func, args } if INTERIOR_RESULTS.contains(&program.func(*func).name.as_str()) => {
                        interior[r] = args.first().copied();
                    }
                    _ => {}
                }
            }
        }
        Analysis {
            f,
            regs,
            slot_addr,
            slots: BTreeMap::new(),
            compared: BTreeMap::new(),
            indexes: BTreeSet::new(),
            ends: BTreeMap::new(),
            ptradds,
            accessed_at: BTreeSet::new(),
            nul_checked: BTreeSet::new(),
            capacities: BTreeMap::new(),
            interior,
        }
    }

    fn of(&self, op: &Operand) -> Origins {
        match op {
            Operand::Reg(r) => self.regs.get(r.0 as usize).cloned().unwrap_or_default(),
            Operand::Const(..) => Origins::new(),
        }
    }

    /// The integer parameter whose value register `r` holds (converted, or
    /// scaled by a constant: `LenAt`), if it derives from that one alone.
    fn param_value(&self, r: Reg) -> Option<usize> {
        let o = self.regs.get(r.0 as usize)?;
        let mut at = o.iter().filter_map(|o| if let Origin::LenAt(n) = o { Some(*n) } else { None });
        let n = at.next()?;
        let only = at.next().is_none()
            && o.iter().all(|x| {
                matches!(x, Origin::Len(m) | Origin::LenAt(m) if *m == n)
                    || matches!(x, Origin::Idx(_) | Origin::Term(_) | Origin::TermIdx(_))
            });
        only.then_some(n)
    }

    fn slot_of(&self, op: &Operand) -> Option<Local> {
        match op {
            Operand::Reg(r) => self.slot_addr.get(r.0 as usize).copied().flatten(),
            Operand::Const(..) => None,
        }
    }

    /// Propagate to a fixed point (origin sets only grow), then collect
    /// the evidence.
    fn solve(&mut self) {
        loop {
            let mut changed = false;
            for b in &self.f.blocks {
                for inst in &b.insts {
                    changed |= self.step(&inst.kind, inst.result);
                }
            }
            if !changed {
                break;
            }
        }
        for b in &self.f.blocks {
            for inst in &b.insts {
                self.evidence(&inst.kind, inst.loc);
            }
        }
    }

    fn step(&mut self, kind: &InstKind, result: Option<Reg>) -> bool {
        let value = match kind {
            InstKind::Cast { a, .. } => self.of(a),
            InstKind::Bin { op, a, b, .. } => match (op, a, b) {
                // Scaling keeps "the parameter itself"; offsets and
                // divisions do not.
                (BinOp::Mul | BinOp::Shl, x, Operand::Const(..)) | (BinOp::Mul, Operand::Const(..), x) => self.of(x),
                (BinOp::Add | BinOp::Sub | BinOp::UDiv | BinOp::SDiv, x, Operand::Const(..))
                | (BinOp::Add, Operand::Const(..), x) => {
                    let mut o = self.of(x);
                    o.retain(|o| !matches!(o, Origin::LenAt(_)));
                    o
                }
                // A sum of two variables (`o + n + 1 > size`, `i - s`) is
                // neither's index: only constant offsets and scales keep
                // an origin; it keeps its terms (for capacity checks).
                (BinOp::Add | BinOp::Sub, x, y) => {
                    let (x, y) = (self.of(x), self.of(y));
                    x.iter().chain(&y).filter_map(|&o| term(o)).collect()
                }
                _ => Origins::new(),
            },
            InstKind::Load { ptr, .. } => match self.slot_of(ptr) {
                Some(l) => {
                    let mut o = self.slots.get(&l).cloned().unwrap_or_default();
                    o.insert(Origin::Idx(l));
                    o
                }
                None => self
                    .of(ptr)
                    .into_iter()
                    .filter_map(|o| if let Origin::Ptr(p) = o { Some(Origin::Elem(p)) } else { None })
                    .collect(),
            },
            InstKind::PtrAdd { base, offset } => {
                let mut o = self.of(base);
                o.retain(|o| matches!(o, Origin::Ptr(_)));
                o.extend(self.of(offset).into_iter().filter(|o| matches!(o, Origin::Len(_))));
                o
            }
            InstKind::Call { .. } => match result.and_then(|r| self.interior.get(r.0 as usize).copied().flatten()) {
                Some(arg) => {
                    let mut o = self.of(&arg);
                    o.retain(|o| matches!(o, Origin::Ptr(_)));
                    o
                }
                None => return false,
            },
            InstKind::Store { ptr, value, .. } => {
                let Some(l) = self.slot_of(ptr) else { return false };
                let add = self.of(value);
                let slot = self.slots.entry(l).or_default();
                let before = slot.len();
                slot.extend(add);
                return slot.len() != before;
            }
            _ => return false,
        };
        let Some(r) = result.and_then(|r| self.regs.get_mut(r.0 as usize)) else { return false };
        let before = r.len();
        r.extend(value);
        r.len() != before
    }

    fn evidence(&mut self, kind: &InstKind, loc: Loc) {
        match kind {
            InstKind::Cmp { op, a, b, .. } => {
                let (x, y) = (self.of(a), self.of(b));
                if !matches!(op, crate::CmpOp::Eq | crate::CmpOp::Ne) {
                    for (side, other) in [(a, &y), (b, &x)] {
                        let Some(cap) = side.reg().and_then(|r| self.param_value(r)) else { continue };
                        for t in other.iter().filter_map(|&o| term(o)).filter(|&t| t != Origin::Term(cap)) {
                            self.capacities.entry((cap, t)).or_insert(loc);
                        }
                    }
                }
                for (v, other) in [(&x, b), (&y, a)] {
                    if matches!(other, Operand::Const(_, 0)) {
                        let elems = v.iter().filter_map(|o| if let Origin::Elem(p) = o { Some(*p) } else { None });
                        self.nul_checked.extend(elems);
                    }
                }
                for (i, l) in [(&x, &y), (&y, &x)] {
                    for o in i.iter() {
                        for m in l.iter() {
                            match (o, m) {
                                (Origin::Idx(s), Origin::Len(n)) if !i.contains(&Origin::Len(*n)) => {
                                    self.compared.entry((*s, *n)).or_insert(loc);
                                }
                                // `p < buf + len`: one side points into the
                                // array, the other `len` past its start.
                                (Origin::Ptr(p), Origin::Len(n)) if l.contains(&Origin::Ptr(*p)) => {
                                    self.ends.entry((*p, *n)).or_insert(loc);
                                }
                                _ => {}
                            }
                        }
                    }
                }
            }
            InstKind::PtrAdd { base, offset } => {
                for o in self.of(base) {
                    let Origin::Ptr(p) = o else { continue };
                    for i in self.of(offset) {
                        if let Origin::Idx(s) = i {
                            self.indexes.insert((s, p));
                        }
                    }
                }
            }
            InstKind::Load { ptr, .. } | InstKind::Store { ptr, .. } => {
                let Operand::Reg(r) = ptr else { return };
                let Some((base, offset)) = self.ptradds.get(r.0 as usize).copied().flatten() else { return };
                for o in self.of(&base) {
                    let Origin::Ptr(p) = o else { continue };
                    for i in self.of(&offset) {
                        if let Origin::LenAt(n) = i {
                            self.accessed_at.insert((p, n));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// The calls of C library functions (declarations), by name, with the
    /// origins of their arguments.
    fn library_calls<'p>(&self, program: &'p Program) -> Vec<(&'p str, Vec<Origins>, Loc)> {
        let mut out = Vec::new();
        for inst in self.f.blocks.iter().flat_map(|b| &b.insts) {
            if let InstKind::Call { func, args } = &inst.kind {
                let callee = program.func(*func);
                if callee.is_declaration() {
                    out.push((callee.name.as_str(), args.iter().map(|a| self.of(a)).collect(), inst.loc));
                }
            }
        }
        out
    }

    /// The calls of defined functions, with the origins of their arguments.
    fn calls(&self, program: &Program) -> Vec<(FuncId, Vec<Origins>, Loc)> {
        let mut out = Vec::new();
        for b in &self.f.blocks {
            for inst in &b.insts {
                if let InstKind::Call { func, args } = &inst.kind {
                    if !program.func(*func).is_declaration() {
                        out.push((*func, args.iter().map(|a| self.of(a)).collect(), inst.loc));
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse_program;

    fn pairs_of(src: &str) -> Vec<(usize, usize)> {
        let p = parse_program(src).unwrap();
        let f = p.func_by_name("f").unwrap();
        length_params(&p, f).into_iter().map(|lp| (lp.array, lp.length)).collect()
    }

    #[test]
    fn an_index_compared_with_the_length_pairs_them() {
        // for (i = 0; i < n; i++) s += buf[i];  with the index in slot `i`.
        let src = "file 0 \"f.c\"
func @f(%0: ptr src(\"a\", \"int\", i32 signed, pointer), %1: i32 src(\"n\", \"int\", i32 signed, scalar)) -> i32 num_regs 15 @ 0:1:5 {
  local $0 \"a\": ptr x 1
  local $1 \"n\": i32 x 1
  local $2 \"i\": i32 x 1
bb0:
  %2 = addr $0                          @ 0:1:14
  store ptr %2, %0                      @ 0:1:14
  %3 = addr $1                          @ 0:1:21
  store i32 %3, %1                      @ 0:1:21
  %4 = addr $2                          @ 0:2:9
  store i32 %4, 0:i32                   @ 0:2:9
  jmp bb1
bb1:
  %6 = load i32 %4                      @ 0:3:12
  %7 = load i32 %3                      @ 0:3:16
  %8 = cmp slt i32 %6, %7               @ 0:3:12
  br %8, bb2, bb3                       @ 0:3:12
bb2:
  %9 = load ptr %2                      @ 0:4:14
  %10 = load i32 %4                     @ 0:4:16
  %11 = sext i32 %10 to i64             @ 0:4:16
  %12 = mul i64 %11, 4:i64              @ 0:4:16
  %13 = ptradd %9, %12                  @ 0:4:14
  %5 = load i32 %13                     @ 0:4:14
  %14 = add i32 %10, 1:i32              @ 0:3:23
  store i32 %4, %14                     @ 0:3:23
  jmp bb1
bb3:
  ret 0:i32                             @ 0:5:5
}
";
        assert_eq!(pairs_of(src), vec![(0, 1)]);
    }
}

//! Models of the `<string.h>` functions that read strings or compare
//! memory: `strlen`, `strcmp`, `strncmp`, `memcmp`, `strcpy`, `strncpy`,
//! `strchr`.
//!
//! Each is the loop a C library would run, byte by byte, and every byte
//! goes through the interpreter's ordinary loads and stores: a null
//! argument is a null dereference, reading past an object without finding
//! the terminator is an out-of-bounds error, and reading past an input
//! array whose length the search chooses asks for a longer array
//! (`End::ArrayTooShort`), exactly as a load written in C would.
//!
//! A byte test on a symbolic byte is a decision of the path
//! ([`EntryKind::Library`], at the call's location), so `strlen` of an
//! input string forks one path per length. The loops whose length only the
//! data decides (`strlen`, `strcmp`, `strcpy`, `strchr`) are bounded by k
//! like a loop of the program: at most k iterations entered through a
//! symbolic test (a `strlen` of an input gives the lengths 0..=k; the side
//! that would start iteration k + 1 is never explored). Iterations on
//! concrete bytes are free, so `strlen("hello")` is never cut short. The
//! loops bounded by a size argument (`memcmp`, `strncmp`, `strncpy`) are
//! unrolled up to that size, which is concrete (fixed by a guard when
//! symbolic), without the k bound: `memcmp(p, q, sizeof *p)` must be able
//! to find its operands equal.

use pathwise_expr::{BvOp, ExprId};
use pathwise_ir::{Loc, Type};

use crate::exec::Exec;
use crate::path::{End, EntryKind, Region};
use crate::suite::PathStep;
use crate::value::{bv_of, Pointer, Value};

/// The string functions modelled here.
pub const STRINGS: &[&str] = &["strlen", "strcmp", "strncmp", "memcmp", "strcpy", "strncpy", "strchr"];

/// How a byte test bounds its loop: the side that starts another iteration
/// and the count of iterations started by symbolic tests so far.
struct Header<'a> {
    continue_when: bool,
    iterations: &'a mut u32,
}

impl Exec<'_, '_> {
    /// Call a modelled string function (`None`: not one of [`STRINGS`]).
    /// `ret` is the declaration's return type (`size_t` differs by data model).
    pub(crate) fn string_call(
        &mut self,
        name: &str,
        ret: Option<Type>,
        args: &[Value],
        loc: Loc,
    ) -> Option<Result<Option<Value>, End>> {
        let arg = |i: usize| args.get(i).copied().unwrap_or(Value::int(0));
        let ptr = |i: usize| arg(i).as_ptr();
        Some(match name {
            "strlen" => self.strlen(ptr(0), loc).map(|n| Some(Value::int(n & ret.unwrap_or(Type::I64).mask()))),
            "strcmp" => self.compare_bytes(ptr(0), ptr(1), None, true, loc).map(Some),
            "strncmp" => self
                .concrete_size(arg(2), loc)
                .and_then(|n| self.compare_bytes(ptr(0), ptr(1), Some(n), true, loc))
                .map(Some),
            "memcmp" => self
                .concrete_size(arg(2), loc)
                .and_then(|n| self.compare_bytes(ptr(0), ptr(1), Some(n), false, loc))
                .map(Some),
            "strcpy" => self.string_copy(ptr(0), ptr(1), None, loc).map(|_| Some(arg(0))),
            "strncpy" => self
                .concrete_size(arg(2), loc)
                .and_then(|n| self.string_copy(ptr(0), ptr(1), Some(n), loc))
                .map(|_| Some(arg(0))),
            "strchr" => self.strchr(ptr(0), arg(1), loc).map(|p| Some(Value::Ptr(p))),
            _ => return None,
        })
    }

    /// A pointer argument with its offset fixed to this run's value (a
    /// guard keeps it there), so that byte `i` is at a concrete offset.
    fn pinned_ptr(&mut self, p: Pointer, loc: Loc) -> Pointer {
        if let Some(s) = p.off_sym {
            self.concretise(s, p.off, loc);
        }
        Pointer { off_sym: None, ..p }
    }

    /// Byte `i` of the string at `p`, read as the program would read it.
    fn byte(&mut self, p: Pointer, i: u64, loc: Loc) -> Result<Value, End> {
        let q = Pointer { off: p.off.wrapping_add(i), ..p };
        let v = self.load(&q, Type::I8, loc)?;
        self.check_initialised(&q, Type::I8, loc)?;
        Ok(v)
    }

    /// `b == 0` for a byte value: (holds, condition when symbolic).
    fn is_zero(&mut self, b: Value) -> (bool, Option<ExprId>) {
        let holds = b.conc() & 0xff == 0;
        let cond = b.sym().map(|e| {
            let e = bv_of(self.pool, b.conc(), Some(e), 8);
            let zero = self.pool.bv_const(8, 0);
            self.pool.eq(e, zero)
        });
        (holds, cond)
    }

    /// `a == b` for two byte values: (holds, condition when symbolic).
    fn bytes_equal(&mut self, a: Value, b: Value) -> (bool, Option<ExprId>) {
        let holds = a.conc() & 0xff == b.conc() & 0xff;
        if a.sym().is_none() && b.sym().is_none() {
            return (holds, None);
        }
        let ea = bv_of(self.pool, a.conc() & 0xff, a.sym(), 8);
        let eb = bv_of(self.pool, b.conc() & 0xff, b.sym(), 8);
        (holds, Some(self.pool.eq(ea, eb)))
    }

    /// Record one byte test (`cond` is its condition when symbolic, `holds`
    /// its outcome). A symbolic test is a decision of the path; with a
    /// `header`, taking the side that starts another iteration is bounded by
    /// k in the function under test (the run ends as `BoundExceeded` past
    /// it, and the other side of a test at the bound is `bound_blocked`).
    fn byte_test(
        &mut self,
        cond: Option<ExprId>,
        holds: bool,
        header: Option<Header<'_>>,
        loc: Loc,
    ) -> Result<(), End> {
        let Some(c) = cond.filter(|&c| crate::value::non_const(self.pool, c).is_some()) else { return Ok(()) };
        let k = self.m.k.get();
        let bounded = self.region == Region::Main;
        let (mut exceeds, mut alt_blocked) = (false, false);
        if let Some(h) = header {
            if holds == h.continue_when {
                *h.iterations += 1;
                exceeds = bounded && *h.iterations > k;
            } else {
                alt_blocked = bounded && *h.iterations >= k;
            }
        }
        let oriented = if holds { c } else { self.pool.not(c) };
        self.record(oriented, EntryKind::Library { taken: holds }, true, alt_blocked, loc);
        if self.region == Region::Main {
            let func = self.m.program.func(self.frame().func).name.clone();
            self.path.push(PathStep { func, loc, taken: holds, loop_iter: None });
        }
        if exceeds {
            return Err(End::BoundExceeded);
        }
        Ok(())
    }

    /// `strlen(s)`: the index of the first zero byte.
    fn strlen(&mut self, s: Pointer, loc: Loc) -> Result<u64, End> {
        let s = self.pinned_ptr(s, loc);
        let mut iterations = 0;
        let mut n = 0u64;
        loop {
            let b = self.byte(s, n, loc)?;
            let (zero, cond) = self.is_zero(b);
            // `while (s[n] != 0) n++;`: the nonzero side enters the body.
            self.byte_test(cond, zero, Some(Header { continue_when: false, iterations: &mut iterations }), loc)?;
            if zero {
                return Ok(n);
            }
            n += 1;
        }
    }

    /// `strcmp`, `strncmp` (`strings`, with a limit) and `memcmp` (not
    /// `strings`, with a size): the difference of the first differing bytes
    /// as `unsigned char`s (glibc's result; C fixes only its sign), or 0.
    fn compare_bytes(
        &mut self,
        a: Pointer,
        b: Pointer,
        limit: Option<u64>,
        strings: bool,
        loc: Loc,
    ) -> Result<Value, End> {
        let (a, b) = (self.pinned_ptr(a, loc), self.pinned_ptr(b, loc));
        let mut iterations = 0;
        let mut i = 0u64;
        while limit.is_none_or(|n| i < n) {
            let (x, y) = (self.byte(a, i, loc)?, self.byte(b, i, loc)?);
            let (equal, cond) = self.bytes_equal(x, y);
            // `for (; a[i] == b[i]; i++) if (a[i] == 0) return 0;`; with a
            // size argument the loop is bounded by it instead of by k.
            let header = limit.is_none().then_some(Header { continue_when: true, iterations: &mut iterations });
            self.byte_test(cond, equal, header, loc)?;
            if !equal {
                return Ok(self.byte_difference(x, y));
            }
            if strings {
                // Test the concrete operand when there is one: its value is
                // the other's on this side, and a test on it is no decision.
                let (zero, cond) = if x.sym().is_none() { self.is_zero(x) } else { self.is_zero(y) };
                self.byte_test(cond, zero, None, loc)?;
                if zero {
                    return Ok(Value::int(0));
                }
            }
            i += 1;
        }
        Ok(Value::int(0))
    }

    /// `(unsigned char)x - (unsigned char)y` as an `int`.
    fn byte_difference(&mut self, x: Value, y: Value) -> Value {
        let conc = (x.conc() & 0xff).wrapping_sub(y.conc() & 0xff) & 0xffff_ffff;
        if x.sym().is_none() && y.sym().is_none() {
            return Value::int(conc);
        }
        let ex = bv_of(self.pool, x.conc() & 0xff, x.sym(), 8);
        let ey = bv_of(self.pool, y.conc() & 0xff, y.sym(), 8);
        let (wx, wy) = (self.pool.zext(ex, 32), self.pool.zext(ey, 32));
        let e = self.pool.bin(BvOp::Sub, wx, wy);
        Value::Int { conc, sym: crate::value::non_const(self.pool, e) }
    }

    /// `strcpy(d, s)` (no limit) and `strncpy(d, s, n)`: copy up to and
    /// including the terminator; `strncpy` pads with zeros up to `n` bytes
    /// and writes no terminator when `s` is `n` bytes or longer.
    fn string_copy(&mut self, d: Pointer, s: Pointer, limit: Option<u64>, loc: Loc) -> Result<(), End> {
        let (d, s) = (self.pinned_ptr(d, loc), self.pinned_ptr(s, loc));
        let mut iterations = 0;
        let mut i = 0u64;
        while limit.is_none_or(|n| i < n) {
            let b = self.byte(s, i, loc)?;
            self.store(&Pointer { off: d.off.wrapping_add(i), ..d }, Type::I8, b, loc)?;
            let (zero, cond) = self.is_zero(b);
            let header = limit.is_none().then_some(Header { continue_when: false, iterations: &mut iterations });
            self.byte_test(cond, zero, header, loc)?;
            i += 1;
            if zero {
                break;
            }
        }
        if let Some(n) = limit {
            for j in i..n {
                self.store(&Pointer { off: d.off.wrapping_add(j), ..d }, Type::I8, Value::int(0), loc)?;
            }
        }
        Ok(())
    }

    /// `strchr(s, c)`: a pointer to the first byte equal to `(char)c`, the
    /// terminator included, or null.
    fn strchr(&mut self, s: Pointer, c: Value, loc: Loc) -> Result<Pointer, End> {
        let s = self.pinned_ptr(s, loc);
        let c8 = Value::Int {
            conc: c.conc() & 0xff,
            sym: c
                .sym()
                .map(|e| {
                    let e = bv_of(self.pool, c.conc(), Some(e), 32);
                    self.pool.extract(e, 7, 0)
                })
                .and_then(|e| crate::value::non_const(self.pool, e)),
        };
        let mut iterations = 0;
        let mut i = 0u64;
        loop {
            let b = self.byte(s, i, loc)?;
            let (found, cond) = self.bytes_equal(b, c8);
            // `while (s[i] != c) { if (s[i] == 0) return NULL; i++; }`
            self.byte_test(cond, found, Some(Header { continue_when: false, iterations: &mut iterations }), loc)?;
            if found {
                return Ok(Pointer { off: s.off.wrapping_add(i), ..s });
            }
            let (zero, cond) = self.is_zero(b);
            self.byte_test(cond, zero, None, loc)?;
            if zero {
                return Ok(Pointer::NULL);
            }
            i += 1;
        }
    }
}

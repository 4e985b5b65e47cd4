//! Models of the C library, one file per header, behind one narrow
//! interface.
//!
//! The emitted tests compile the code under test with the real C library,
//! so each model must compute what glibc computes in the "C" locale (or,
//! where gcc replaces a call by a built-in even at `-O0`, what gcc's
//! code computes: `isdigit` is `(unsigned)c - '0' <= 9`), and must never
//! return a value a real library cannot. Models see the interpreter only
//! through [`LibcHost`]: typed loads and stores through pointers (with the
//! program's own null, bounds, input-growth and uninitialised-read checks),
//! decisions on symbolic conditions, undefined-behaviour checks, guards,
//! concretisation, allocation, and the library's static objects (`errno`,
//! the `<ctype.h>` tables). [`host`] implements it for the interpreter;
//! the rest of the engine calls [`call`] and [`is_modelled`].
//!
//! Symbolic inputs stay symbolic where the real function is a loop over
//! bytes or a table lookup: every byte test on a symbolic byte is a
//! decision of the path (an [`crate::path::EntryKind::Library`] entry at
//! the call's location, with no branch side for coverage), and a loop that
//! only the data ends (`strlen`, `strchr`, `strtol`'s digits) runs at most
//! k iterations entered through symbolic tests, like a loop of the
//! program; a loop bounded by a size argument (`memcmp`, `strncmp`) is
//! unrolled up to that size, which is fixed (and reported) when symbolic.
//! Results that are functions of their arguments without any loop (`abs`,
//! `tolower`, the length `printf` returns) are expressions, not decisions.

pub(crate) mod host;

mod builtin;
mod ctype;
mod errno;
mod ldformat;
mod math;
mod mathl;
mod member_room;
mod rand;
mod scan;
mod stdio;
mod stdlib;
mod streams;
pub(crate) use streams::{was_used as stream_used, STDIN_OBJECT, STDOUT_OBJECT};
mod string;
mod strtod;
mod sym;
mod wchar;
mod wctype;

pub(crate) use streams::InputStream;
pub(crate) use sym::{Cond, Int};

use pathwise_expr::ExprPool;
use pathwise_ir::Type;

use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::{Pointer, Value};

/// What a model call produces: its result (`None` for `void`) or the end
/// of the run.
pub(crate) type Outcome = Result<Option<Value>, End>;

/// One modelled header: the names it models and the function that runs
/// them (`None` for a name it does not model).
struct Header {
    names: &'static [&'static str],
    call: fn(&mut dyn LibcHost, &Call<'_>) -> Option<Outcome>,
}

const HEADERS: &[Header] = &[
    Header { names: stdlib::NAMES, call: stdlib::call },
    Header { names: strtod::NAMES, call: strtod::call },
    Header { names: string::NAMES, call: string::call },
    Header { names: ctype::NAMES, call: ctype::call },
    Header { names: wctype::NAMES, call: wctype::call },
    Header { names: wchar::NAMES, call: wchar::call },
    Header { names: errno::NAMES, call: errno::call },
    Header { names: stdio::NAMES, call: stdio::call },
    Header { names: streams::NAMES, call: streams::call },
    Header { names: scan::NAMES, call: scan::call },
    Header { names: rand::NAMES, call: rand::call },
    Header { names: math::NAMES, call: math::call },
    Header { names: mathl::NAMES, call: mathl::call },
    Header { names: mathl::HOST_NAMES, call: mathl::host_call },
    Header { names: builtin::NAMES, call: builtin::call },
    Header { names: member_room::NAMES, call: member_room::call },
];

/// Whether `name` is a modelled library function.
pub fn is_modelled(name: &str) -> bool {
    HEADERS.iter().any(|h| h.names.contains(&name))
}

/// The modelled `<string.h>` functions that only read memory.
const STRING_READERS: &[&str] = &[
    "strlen",
    "strnlen",
    "strcmp",
    "strncmp",
    "strcasecmp",
    "strncasecmp",
    "memcmp",
    "strchr",
    "strrchr",
    "strstr",
    "strspn",
    "strcspn",
    "strpbrk",
    "memchr",
];

/// Whether the model of `name` writes no memory (nor `errno`): the
/// `<ctype.h>` functions, `abs` and its kin, and the string readers.
pub fn writes_nothing(name: &str) -> bool {
    ctype::NAMES.contains(&name) || STRING_READERS.contains(&name) || matches!(name, "abs" | "labs" | "llabs")
}

/// Every modelled library function, header by header.
pub fn modelled() -> impl Iterator<Item = &'static str> {
    HEADERS.iter().flat_map(|h| h.names.iter().copied())
}

/// Run the model of `c.name` (`None`: not a modelled function).
pub(crate) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    let header = HEADERS.iter().find(|hd| hd.names.contains(&c.name))?;
    if let Err(end) = member_room::apply(h, c) {
        return Some(Err(end));
    }
    (header.call)(h, c)
}

/// A call of a modelled function: its name, arguments (variadic ones after
/// the default promotions) and the declaration's return type.
pub(crate) struct Call<'a> {
    pub name: &'a str,
    pub args: &'a [Value],
    pub ret: Option<Type>,
}

impl Call<'_> {
    /// Argument `i` (0 when the call has fewer: the front end checked
    /// the prototype's arity, so only a variadic argument can be missing).
    pub fn arg(&self, i: usize) -> Value {
        self.args.get(i).copied().unwrap_or(Value::int(0))
    }

    pub fn ptr(&self, i: usize) -> Pointer {
        self.arg(i).as_ptr()
    }

    /// Argument `i` as a `w`-bit integer.
    pub fn int(&self, pool: &mut ExprPool, i: usize, w: u32) -> Int {
        Int::of(pool, self.arg(i), w)
    }
}

/// The target's data model and checks, as models need them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Target {
    /// Width of `long`, `unsigned long`, `size_t` and `ptrdiff_t`: 64
    /// under LP64, 32 under ILP32.
    pub long_bits: u32,
    /// Signed overflow is an error (`abs(INT_MIN)`), not a wrap-around.
    pub check_overflow: bool,
}

/// How a byte test bounds its loop (see [`LibcHost::decide_loop`]): the
/// side that starts another iteration and the iterations symbolic tests
/// started so far.
pub(crate) struct ByteLoop {
    continue_when: bool,
    iterations: u32,
}

impl ByteLoop {
    /// A loop that goes on while its test holds (`while (a[i] == b[i])`).
    pub fn while_true() -> ByteLoop {
        ByteLoop { continue_when: true, iterations: 0 }
    }

    /// A loop that stops when its test holds (`while (s[i] != 0)` tests
    /// `s[i] == 0`).
    pub fn until_true() -> ByteLoop {
        ByteLoop { continue_when: false, iterations: 0 }
    }
}

/// The only view of the interpreter that library models get. Every
/// operation is located at the call being modelled.
pub(crate) trait LibcHost {
    /// The expression pool, to build conditions and results.
    fn pool(&mut self) -> &mut ExprPool;

    /// The data model and checks of the run.
    fn target(&self) -> Target;

    /// The rounding direction `fesetround` set (to nearest until a
    /// program sets one; reading it creates nothing).
    fn rounding(&self) -> pathwise_expr::float::Rounding;

    /// Load a `ty` through `p` as a use by the program would: a null
    /// pointer, an access out of bounds, a freed object or bytes never
    /// written are the program's errors; reading past an input array
    /// whose length the search chooses asks for a longer one.
    fn load(&mut self, p: Pointer, ty: Type) -> Result<Value, End>;

    /// Store `v` as a `ty` through `p`, with the program's checks.
    fn store(&mut self, p: Pointer, ty: Type, v: Value) -> Result<(), End>;

    /// Decide `c`: when symbolic, a decision of the path (both sides are
    /// explored); returns the side this run takes.
    fn decide(&mut self, c: Cond) -> Result<bool, End>;

    /// Decide the test of a loop that only the data ends: the iterations
    /// started by symbolic tests count towards k in the function under
    /// test (the side that would start iteration k + 1 ends the run past
    /// the bound and is never explored).
    fn decide_loop(&mut self, c: Cond, lp: &mut ByteLoop) -> Result<bool, End>;

    /// An undefined-behaviour check: `ok` must hold, else the run ends in
    /// an error of `kind` (a test); when symbolic, the failing side is
    /// explored as the program's own checks are.
    fn check(&mut self, ok: Cond, kind: ErrorKind, message: String) -> Result<(), End>;

    /// Keep a condition that holds in this run holding, without exploring
    /// its other side (what the model does not branch on).
    fn guard(&mut self, c: Cond);

    /// This run's value of `v`, fixed by a guard when symbolic; the run
    /// reports it (the search is then "explored, not complete").
    fn concretise(&mut self, v: Int) -> u64;

    /// The bits of a floating argument of type `ty`: floating values are
    /// never symbolic (a symbolic one is pinned, see `fp.rs`).
    fn float(&mut self, v: Value, ty: Type) -> u64;

    /// Whether `p` is null; when the inputs decide it, a guard keeps it.
    fn is_null(&mut self, p: Pointer) -> bool;

    /// `count` elements of `size` bytes of heap storage (symbolic operands
    /// stay symbolic), zeroed or indeterminate; never fails.
    fn allocate(&mut self, count: Value, size: Value, zeroed: bool) -> Result<Pointer, End>;

    /// Whether the allocation call `what` fails in this run (see
    /// [`crate::alloc_fail`]): the null it returns, or `None` and the
    /// object of the next [`Self::allocate`] is this call's; with `made`,
    /// the object the call allocated already (discarded when it fails).
    fn allocation_fails(&mut self, what: &'static str, made: Option<Pointer>) -> Option<Pointer>;

    /// The size of the heap object `p` points to (fixed if symbolic);
    /// `None` for null.
    fn object_size(&mut self, p: Pointer) -> Option<u64>;

    /// A heap object of `size` bytes the C library allocates with its own
    /// `malloc` (`getline`'s buffer): the code may free it, but it is no
    /// allocation the tests count, make fail or check for leaks.
    fn allocate_internal(&mut self, size: u64) -> Pointer;

    /// `free(p)`: errors for anything but null or a live heap object's start.
    fn release(&mut self, p: Pointer) -> Result<(), End>;

    /// Copy `n` bytes from `s` to `d` as `memmove` does, typed cells and
    /// uninitialised bytes included.
    fn copy(&mut self, d: Pointer, s: Pointer, n: Value) -> Result<(), End>;

    /// Write `n` copies of the low byte of `byte` from `d`.
    fn fill(&mut self, d: Pointer, byte: Value, n: Value) -> Result<(), End>;

    /// Limit this call's writes through `p` to the `room` bytes from it:
    /// a write past them is an out-of-bounds error (see [`member_room`]).
    fn limit_writes(&mut self, p: Pointer, room: u64);

    /// Read bytes `from..n` of `p` (their values unused), as a function
    /// that reads its `n` bytes whole does (`memcmp`), with `n` checked
    /// against the room from `p` first.
    fn read_rest(&mut self, p: Pointer, from: u64, n: Value) -> Result<(), End>;

    /// The `FILE *` parameter of the function under test that `f` points
    /// to (see [`streams`]); `None` for any other pointer.
    fn input_stream(&mut self, f: Pointer) -> Option<InputStream>;

    /// `stdin`, when it is an input of the run (see [`streams`]).
    fn stdin(&mut self) -> Option<Pointer>;

    /// Whether `f` is `stdout`.
    fn is_stdout(&mut self, f: Pointer) -> bool;

    /// Record `bytes` written on the standard output (the tests compare
    /// what the function writes there).
    fn write_stdout(&mut self, bytes: &[u8]);

    /// The arguments a `va_list` points to (see `pathwise_ir::VA_AREA`):
    /// the slots of its call's argument area from `ap` on, each read as the
    /// caller stored it.
    fn va_args(&mut self, ap: Pointer) -> Result<Vec<Value>, End>;

    /// The library's static object `name` of this run (created with the
    /// elements `init` gives on first use): `errno`, the ctype tables.
    fn static_object(&mut self, name: &str, elem: Type, init: &dyn Fn() -> Vec<Value>) -> Pointer;

    /// The end of the run in an error of `kind`.
    fn error(&self, kind: ErrorKind, message: String) -> End;
}

/// A pointer `i` bytes further (a concrete step).
pub(crate) fn at(p: Pointer, i: u64) -> Pointer {
    Pointer { off: p.off.wrapping_add(i), ..p }
}

/// `p` with its offset fixed to this run's value (a guard keeps it), so
/// that byte `i` of a loop is at a concrete offset.
pub(crate) fn pinned(h: &mut dyn LibcHost, p: Pointer) -> Pointer {
    if let Some(s) = p.off_sym {
        h.concretise(Int { conc: p.off, sym: Some(s), w: 64 });
    }
    Pointer { off_sym: None, ..p }
}

/// Byte `*i` of a format (fixed if symbolic); advances `*i`.
pub(crate) fn format_byte(h: &mut dyn LibcHost, f: Pointer, i: &mut u64) -> Result<u8, End> {
    let b = byte(h, f, *i)?;
    *i += 1;
    Ok(h.concretise(b) as u8)
}

/// The length modifiers of a `printf` or `scanf` conversion.
pub(crate) struct Lengths {
    /// The bits of its integer argument (`hh h l ll q j z t`), `None`
    /// without a modifier that sets them.
    pub bits: Option<u32>,
    /// An `l` was given (a wide `%lc`, `%ls`; a `double` in `%lf`).
    pub long: bool,
    /// An `L`, `ll` or `q`: glibc's `long double` flag (`%Lf`, and
    /// `%llf` too).
    pub long_double: bool,
    /// A `j`, `z` or `t`: an integer type's size.
    pub sized: bool,
    /// The conversion character after them.
    pub conv: u8,
}

/// Read the length modifiers of a conversion from format byte `ch` (read
/// already) on, the conversion character included.
pub(crate) fn lengths(h: &mut dyn LibcHost, f: Pointer, i: &mut u64, mut ch: u8) -> Result<Lengths, End> {
    let long_bits = h.target().long_bits;
    let (mut hs, mut ls, mut big_l, mut bits, mut sized) = (0, 0, false, None, false);
    loop {
        match ch {
            b'h' => hs += 1,
            b'l' => ls += 1,
            b'q' => ls = 2,
            b'L' => big_l = true,
            b'z' | b't' => (bits, sized) = (Some(long_bits), true),
            b'j' => (bits, sized) = (Some(64), true),
            _ => break,
        }
        ch = format_byte(h, f, i)?;
    }
    let bits = match (hs, ls) {
        (_, 2..) => Some(64),
        (_, 1) => Some(long_bits),
        (2.., _) => Some(8),
        (1, _) => Some(16),
        _ => bits,
    };
    Ok(Lengths { bits, long: ls > 0, long_double: big_l || ls >= 2, sized, conv: ch })
}

/// Byte `i` of the string at `p`, read as the program would.
pub(crate) fn byte(h: &mut dyn LibcHost, p: Pointer, i: u64) -> Result<Int, End> {
    let v = h.load(at(p, i), Type::I8)?;
    Ok(Int::of(h.pool(), v, 8))
}

/// The length of the string at `p` (the index of its first zero byte), a
/// loop bounded by k.
pub(crate) fn strlen(h: &mut dyn LibcHost, p: Pointer) -> Result<u64, End> {
    let mut lp = ByteLoop::until_true();
    let mut n = 0u64;
    loop {
        let b = byte(h, p, n)?;
        let zero = b.is_zero(h.pool());
        if h.decide_loop(zero, &mut lp)? {
            return Ok(n);
        }
        n += 1;
    }
}

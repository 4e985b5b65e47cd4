//! Initializers of objects with static storage: braced string literals and
//! address constants (`&x`, `&a[2]`, `a + 1`, string literals, tables of
//! strings, pointer members of structure tables), against gcc.

mod common;

use common::*;

const CASES: &str = r#"
char braced[] = {"ABC"};
char braced8[8] = {"hi"};
struct named { char name[6]; int v; } nm = { {"abcd"}, 3 };
int x = 5, arr[4] = {1, 2, 3, 4};
int *px = &x, *pa = &arr[2], *pb = arr + 1, *pe = &arr[4] - 1;
const char *msg = "hey", *mid = "hello" + 2;
const char *tab[] = {"zero", "one", "two", 0};
struct kw { const char *word; int code; int *counter; };
int hits;
struct kw kws[] = { {"if", 1, &hits}, {"else", 2, 0}, {"while", 3, &x} };
struct pt { int a, b; } pts[2] = { {1, 2}, {3, 4} };
int *pmember = &pts[1].b;
extern int later;
int *plater = &later;
int later = 9;
int *const cp = (int *)&arr[1];
long t0(void) { return sizeof braced * 1000 + braced[0] * 10 + braced[3] + braced8[1] * 100000 + sizeof braced8 * 10000000; }
long t1(void) { return nm.name[3] * 1000 + nm.name[4] * 100 + nm.v; }
long t2(void) { return *px * 1000 + *pa * 100 + *pb * 10 + *pe; }
long t3(void) { *px = 7; pa[1] = 8; return x * 10 + arr[3] + (px == &x) * 1000 + (pe - pa) * 10000; }
long t4(void) { return msg[1] * 1000 + mid[0] * 10 + (mid[3] == 0); }
long t5(void) { long s = 0; for (int i = 0; tab[i]; i++) { int n = 0; while (tab[i][n]) n++; s = s * 10 + n; } return s; }
long t6(void) { long s = 0; for (int i = 0; i < 3; i++) { s = s * 100 + kws[i].code * 10 + kws[i].word[1] % 10; if (kws[i].counter) (*kws[i].counter)++; } return s * 100 + hits * 10 + x; }
long t7(void) { *pmember += 10; return pts[1].b * 10 + *plater + *cp * 1000; }
long t8(void) { static const char *local = "static"; static int *lp = &arr[3]; return local[2] * 100 + *lp; }
"#;

#[test]
fn static_initializers_with_addresses_compute_what_gcc_computes() {
    let p = assert_cases_match_gcc(CASES, 9);
    // Addresses are relocations of the globals, not code.
    let tab = &p.globals[p.global_by_name("tab").unwrap().0 as usize];
    assert_eq!(tab.relocs.len(), 3, "{tab:?}");
    assert_eq!(tab.relocs.iter().map(|r| r.offset).collect::<Vec<_>>(), vec![0, 8, 16]);
}

#[test]
fn addresses_pathwise_cannot_represent_are_located() {
    // A function's address is one (`function_pointers.rs`).
    let c = compile("int f(int);\nint (*fp)(int) = f;\nint g(void) { return 1; }\n");
    assert!(c.unsupported_globals.is_empty());
    let c = compile("int x;\nlong addr = (long)&x;\nint g(void) { return 1; }\n");
    let globals: Vec<String> = c.unsupported_globals.iter().map(|u| u.diagnostic.to_string()).collect();
    assert_eq!(globals.len(), 1, "{globals:?}");
    assert!(globals[0].starts_with("test.c:2:"), "{globals:?}");
}

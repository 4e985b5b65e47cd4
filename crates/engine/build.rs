//! Builds `csrc/host_mathl.c`, the shim through which the engine's library
//! models ask the host libm for the functions they compute concretely
//! (`sin`, `exp`... with the `errno` glibc sets; `sinl`, `expl`... where
//! `long double` is x87's 80-bit format, on x86 and x86-64: Rust's FFI has
//! no `long double`).

fn main() {
    println!("cargo:rerun-if-changed=csrc/host_mathl.c");
    println!("cargo::rustc-check-cfg=cfg(host_mathl)");
    cc::Build::new()
        .file("csrc/host_mathl.c")
        .flag_if_supported("-fno-builtin")
        // The calls run between two `fesetround`s: gcc must not move them.
        .flag_if_supported("-frounding-math")
        .compile("pathwise_host_math");
    println!("cargo:rustc-link-lib=m");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if arch == "x86_64" || arch == "x86" {
        println!("cargo:rustc-cfg=host_mathl");
    }
}

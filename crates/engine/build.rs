//! Builds `csrc/host_mathl.c`, the shim through which the engine's library
//! models ask the host libm for `long double` functions (`sinl`, `expl`...):
//! Rust's FFI has no `long double`. Only where `long double` is x87's
//! 80-bit format (x86 and x86-64), which is what the engine models.

fn main() {
    println!("cargo:rerun-if-changed=csrc/host_mathl.c");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if arch == "x86_64" || arch == "x86" {
        cc::Build::new().file("csrc/host_mathl.c").flag_if_supported("-fno-builtin").compile("pathwise_host_mathl");
        println!("cargo:rustc-link-lib=m");
        println!("cargo:rustc-cfg=host_mathl");
    }
    println!("cargo::rustc-check-cfg=cfg(host_mathl)");
}

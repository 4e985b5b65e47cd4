//! Shared helpers of the engine's integration tests that use the C front end.

#![allow(dead_code)]

#[path = "../support/mod.rs"]
mod support;
pub use support::*;

pub fn compile(path: &std::path::Path) -> pathwise_ir::Program {
    let opts = pathwise_cfront::FrontendOptions {
        include_dirs: vec![],
        defines: vec![],
        data_model: pathwise_cfront::DataModel::Lp64,
        extra_args: vec![],
    };
    match pathwise_cfront::compile_file(path, &opts) {
        Ok(c) => c.program,
        Err(d) => panic!("front end failed on {}:\n{d}", path.display()),
    }
}

pub fn compile_str(name: &str, src: &str) -> pathwise_ir::Program {
    let opts = pathwise_cfront::FrontendOptions {
        include_dirs: vec![],
        defines: vec![],
        data_model: pathwise_cfront::DataModel::Lp64,
        extra_args: vec![],
    };
    match pathwise_cfront::compile_source(name, src, &opts) {
        Ok(c) => c.program,
        Err(d) => panic!("front end failed:\n{d}"),
    }
}

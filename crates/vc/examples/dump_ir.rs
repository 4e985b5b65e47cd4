//! Print the IR of a C file (a debugging aid for the VC method).
fn main() {
    let path = std::env::args().nth(1).expect("a C file");
    let c = pathwise_cfront::compile_file(std::path::Path::new(&path), &Default::default()).expect("compiles");
    for (i, f) in c.program.funcs.iter().enumerate() {
        if !f.is_declaration() {
            println!("{}", pathwise_ir::print_function(&c.program, pathwise_ir::FuncId(i as u32)));
        }
    }
}

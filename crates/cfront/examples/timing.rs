fn main() {
    let path = std::env::args().nth(1).unwrap();
    let t = std::time::Instant::now();
    let c = pathwise_cfront::compile_file(std::path::Path::new(&path), &Default::default()).unwrap();
    let insts: usize = c.program.funcs.iter().flat_map(|f| &f.blocks).map(|b| b.insts.len()).sum();
    println!("{} funcs, {} insts, {:?}", c.program.funcs.len(), insts, t.elapsed());
    let t = std::time::Instant::now();
    pathwise_ir::verify(&c.program).unwrap();
    println!("verify {:?}", t.elapsed());
}
